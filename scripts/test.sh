#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/test.sh [ARCH...]: everything "make test" does, for x86_64, i386,
# arm64 and powerpc by default: setup, tree, build, boot + tests (scripts/run.py),
# harness self-tests (scripts/selftest.sh), the disassembly check
# (scripts/disasm-check.py: test objects and the block markers in
# vmlinux), a module that must not build (scripts/buildfail.sh); on x86_64 also the blktrace comparisons with the unpatched
# kernel (scripts/stock.sh, scripts/blkcmp.py: tests/guest/30-blktrace.sh
# and the md/dm/NVMe devices of tests/guest/blkstack.sh), the profiler set
# at boot (tests/guest/11-profile.sh), objtool on
# both vmlinux.o (scripts/objtool-check.sh) and the CONFIG_MARKERS=n
# kernel; with x86_64, the immediate values and markers KUnit suites in
# User-Mode Linux (scripts/um-test.sh); at the end the marker format
# parser, fuzzed on the host (scripts/fuzz.sh).  Every step prints KTAP (scripts/steps.sh), collected
# in build/logs/test.ktap; the last line of all is its sum "N passed,
# N failed[, N skipped]".  Exit 0 only if nothing failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
archs=${*:-x86_64 i386 arm64 powerpc}
# shellcheck source=steps.sh
. "$top/scripts/steps.sh"
steps_begin test

# nomarkers ARCH: the series with its options off (configs/nomarkers.config)
# must build and boot, and the immediate values suite must pass on the
# generic implementation.  No test modules: they need markers.
nomarkers() {
	v=$1-nomarkers
	start=$(date +%s)
	SKIP_EXT=1 sh scripts/build.sh "$1" nomarkers || { broken "$v" "kernel build failed"; return; }
	took "$v build" "$start"
	sh tests/mkinitramfs.sh "$1" "build/obj-$v" "build/initramfs-$v.cpio.gz" ||
		{ broken "$v" "initramfs failed"; return; }
	step "$v" python3 scripts/run.py --arch "$1" --name "$v" \
		--kernel "build/obj-$v/arch/x86/boot/bzImage" --initrd "build/initramfs-$v.cpio.gz" \
		--append harness.only=boot --expect tests/expected/nomarkers.txt
}

# The stock kernel, booted with tests/guest/30-blktrace.sh only, and its
# blkparse events compared with those of the x86_64 boot (build/logs/).
stock_compare() {
	start=$(date +%s)
	if ! sh scripts/stock.sh; then
		broken x86_64-stock "stock kernel build failed"
		return
	fi
	took "x86_64-stock build" "$start"
	# The same configuration (production flags, IBT): objtool on both.
	step objtool-x86_64 sh scripts/objtool-check.sh build/obj-x86_64 build/obj-x86_64-stock
	if ! sh tests/mkinitramfs.sh x86_64 build/obj-x86_64-stock build/initramfs-x86_64-stock.cpio.gz; then
		broken x86_64-stock "initramfs failed"
		return
	fi
	step x86_64-stock python3 scripts/run.py --arch x86_64 --name x86_64-stock \
		--kernel build/obj-x86_64-stock/arch/x86/boot/bzImage \
		--initrd build/initramfs-x86_64-stock.cpio.gz \
		--append harness.only=blktrace --expect tests/expected/x86_64-stock.txt
	step blktrace-stock python3 scripts/blkcmp.py build/logs/x86_64.log build/logs/x86_64-stock.log
	# md, dm and NVMe multipath (tests/guest/blkstack.sh), both kernels.
	step x86_64-blkstack python3 scripts/run.py --arch x86_64 --name x86_64-blkstack \
		--nvme-paths 2 --append "kunit.enable=0 harness.only=blkstack" \
		--expect tests/expected/blkstack.txt
	step x86_64-stock-blkstack python3 scripts/run.py --arch x86_64 --name x86_64-stock-blkstack \
		--kernel build/obj-x86_64-stock/arch/x86/boot/bzImage \
		--initrd build/initramfs-x86_64-stock.cpio.gz --nvme-paths 2 \
		--append "kunit.enable=0 harness.only=blkstack" --expect tests/expected/blkstack-stock.txt
	step blkstack-stock python3 scripts/blkcmp.py --require Q,G,I,D,C,M,F,X,A,P,U,R \
		build/logs/x86_64-blkstack.log build/logs/x86_64-stock-blkstack.log
}

# Marker events from the kernel command line, markers listed without
# debugfs (tests/guest/boot-events.sh).
boot_events() {
	step x86_64-boot-events python3 scripts/run.py --arch x86_64 --name x86_64-boot-events \
		--append "kunit.enable=0 harness.only=boot-events debugfs=off marker_event=m:boot/,blk_*;m,blk_request_complete;m,no_such_marker;m:bad!/,x" \
		--expect tests/expected/boot-events.txt
}

# The profiler's prof_on set by profile= at boot, an immediate value
# patched before the other CPUs start (tests/guest/11-profile.sh).
profile_boot() {
	step x86_64-profile-boot python3 scripts/run.py --arch x86_64 --name x86_64-profile-boot \
		--append "kunit.enable=0 harness.only=profile profile=schedule,10" \
		--expect tests/expected/profile-boot.txt
}

sh scripts/setup.sh || { broken setup "scripts/setup.sh failed"; total; }
sh scripts/tree.sh prepare || { broken tree "scripts/tree.sh prepare failed"; total; }
# The harness's own verdicts, on sample logs; the guest packages' fetcher
# against a partly broken mirror.
step harness-parser python3 scripts/run_test.py
step shellcheck sh scripts/shellcheck.sh
step debs-fetch sh scripts/debs-selftest.sh
for arch in $archs; do
	start=$(date +%s)
	if ! sh scripts/build.sh "$arch"; then
		broken "$arch" "kernel build failed"
		continue
	fi
	took "$arch build" "$start"
	if ! sh tests/mkinitramfs.sh "$arch" "build/obj-$arch" "build/initramfs-$arch.cpio.gz" \
		"build/tools-$arch.img"; then
		broken "$arch" "initramfs failed"
		continue
	fi
	step "disasm-$arch" python3 scripts/disasm-check.py "$arch"
	# A marker name with two formats in one file must not build.
	step "buildfail-$arch" sh scripts/buildfail.sh "$arch"
	step "$arch" python3 scripts/run.py --arch "$arch"
	# perf and bpftrace on marker events, from the tools image.
	step "tools-$arch" python3 scripts/run.py --arch "$arch" --name "$arch-tools" \
		--tools "build/tools-$arch.img" --mem 1024 --timeout 900 \
		--append "kunit.enable=0 harness.only=tools" --expect "tests/expected/tools-$arch.txt"
	[ "$arch" = x86_64 ] && boot_events
	[ "$arch" = x86_64 ] && profile_boot
	[ "$arch" = x86_64 ] && stock_compare
	step "selftest-$arch" sh scripts/selftest.sh "$arch"
	[ "$arch" = x86_64 ] && [ -z "${NO_NOMARKERS:-}" ] && nomarkers "$arch"
done
# With x86_64: the immediate values and markers KUnit suites in User-Mode
# Linux, which patches x86 sites on the host CPU (scripts/um-test.sh).
case " $archs " in *" x86_64 "*) step um sh scripts/um-test.sh ;; esac
# The marker format parser, built for the host and fuzzed (FUZZ_SECONDS).
step fuzz sh scripts/fuzz.sh
total
