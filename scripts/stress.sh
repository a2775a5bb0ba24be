#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/stress.sh: "make stress", the reliability runs of tests/README.md.
#
#   1. x86_64 debug kernel (configs/debug.config: lockdep, PROVE_RCU,
#      DEBUG_ATOMIC_SLEEP, KASAN, DEBUG_OBJECTS_RCU_HEAD, kmemleak) in
#      build/obj-x86_64-debug: every guest test, with a storm of
#      $DEBUG_STORM seconds (default 60), and a kmemleak scan at the end;
#   2. the x86_64 test kernel of "make test": the storm, with its module
#      churn, for $LONG_STORM seconds (default 120), then the kprobe and
#      ftrace storm;
#   3. unless KCSAN=0: x86_64 KCSAN kernel (configs/kcsan.config, only
#      the series' files instrumented) in build/obj-x86_64-kcsan: every
#      guest test, with a storm of $KCSAN_STORM seconds (default 30).
#
# Every step prints KTAP (scripts/steps.sh), collected in
# build/logs/stress.ktap; the last line is its sum "N passed, N failed[,
# N skipped]".  Exit 0 only if nothing failed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit
debug_storm=${DEBUG_STORM:-60}
long_storm=${LONG_STORM:-120}
kcsan_storm=${KCSAN_STORM:-30}
# shellcheck source=steps.sh
. "$top/scripts/steps.sh"
steps_begin stress

sh scripts/setup.sh || { broken setup "scripts/setup.sh failed"; total; }
sh scripts/tree.sh prepare || { broken tree "scripts/tree.sh prepare failed"; total; }

# variant NAME STORM: build configs/NAME.config over the x86_64 config
# into build/obj-x86_64-NAME and boot it with every test and a storm of
# STORM seconds.  KASAN's shadow and lockdep want more memory and time
# than the default guest.  pci=noacpi: the PCI interrupt of the virtio
# disk is routed from the BIOS's $PIR table, not by running the DSDT's
# _PRT method.  Under lockdep and KASAN, single-threaded TCG runs ACPICA's
# interpreter so slowly that _PRT's AML loop hits its 30 s
# AE_AML_LOOP_TIMEOUT ("PCI INT A: no GSI"); with no MSI in this config,
# virtio-blk then has no interrupt and the boot hangs in its first read.
variant() {
	obj=build/obj-x86_64-$1 initrd=build/initramfs-x86_64-$1.cpio.gz
	start=$(date +%s)
	if sh scripts/build.sh x86_64 "$1" &&
		sh tests/mkinitramfs.sh x86_64 "$obj" "$initrd"; then
		took "x86_64-$1 build" "$start"
		start=$(date +%s)
		MEM=${MEM:-1024} step "x86_64-$1" python3 scripts/run.py --arch x86_64 --name "x86_64-$1" \
			--kernel "$obj/arch/x86/boot/bzImage" --initrd "$initrd" \
			--timeout "${TIMEOUT:-1500}" --append "pci=noacpi harness.stress=$2"
		took "x86_64-$1 boot" "$start"
	else
		broken "x86_64-$1" "$1 kernel build failed"
	fi
}

# 1. The debug kernel (lockdep, KASAN, kmemleak, ...), all tests.
variant debug "$debug_storm"

# perf, bpftrace, BPF and globs on the kmemleak kernel, bad input
# included: between a kmemleak clear and a scan, nothing may leak.
if [ -f build/initramfs-x86_64-debug.cpio.gz ] &&
	sh tests/mkinitramfs.sh x86_64 build/obj-x86_64-debug build/initramfs-x86_64-debug.cpio.gz \
		build/tools-x86_64-debug.img; then
	step x86_64-debug-tools python3 scripts/run.py --arch x86_64 --name x86_64-debug-tools \
		--kernel build/obj-x86_64-debug/arch/x86/boot/bzImage \
		--initrd build/initramfs-x86_64-debug.cpio.gz --tools build/tools-x86_64-debug.img \
		--mem 1024 --timeout "${TIMEOUT:-1500}" \
		--append "pci=noacpi kunit.enable=0 harness.only=kmemleak-clear,tools,kmemleak" \
		--expect tests/expected/tools-x86_64-debug.txt
else
	broken x86_64-debug-tools "no debug kernel or tools image"
fi

# 2. The test kernel, a long storm.
start=$(date +%s)
if sh scripts/build.sh x86_64 &&
	sh tests/mkinitramfs.sh x86_64 build/obj-x86_64 build/initramfs-x86_64.cpio.gz; then
	step x86_64-long-storm python3 scripts/run.py --arch x86_64 --name x86_64-long-storm \
		--expect tests/expected/stress.txt --timeout "${TIMEOUT:-900}" \
		--append "kunit.enable=0 harness.only=stress,kprobe-ftrace harness.stress=$long_storm harness.stress_ftrace=30"
	took "x86_64 long storm" "$start"
else
	broken x86_64-long-storm "kernel build failed"
fi

# 3. The KCSAN kernel (it excludes KASAN, so a build of its own), all
# tests; KCSAN=0 skips it.  Only the series' own files are instrumented
# (KCSAN_SANITIZE=n, then =y per file stem), so that every report has
# series code on one side: the whole kernel instrumented, upstream races
# such as kmap_local_page / lru_add got reported too (tests/RESULTS.md).
# The files are derived from the tree: every .c file the series adds
# (tree.sh keeps the unpatched tree as the tag "pristine"), and
# blktrace.c, whose probes the series rewrites.
kcsan_files="$(git -C build/linux diff --diff-filter=A --name-only pristine HEAD -- '*.c' |
	sed 's,.*/,,; s,\.c$,,' | sort -u) blktrace"
kcsan_vars=KCSAN_SANITIZE=n
for f in $kcsan_files; do kcsan_vars="$kcsan_vars KCSAN_SANITIZE_$f.o=y"; done
if [ "${KCSAN:-1}" != 0 ]; then
	export MAKE_VARS="$kcsan_vars"
	variant kcsan "$kcsan_storm"
	unset MAKE_VARS
fi
total
