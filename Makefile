# SPDX-License-Identifier: GPL-2.0
# Linux Kernel Markers + Immediate Values for linux-source-6.12: build & test.
# See README.md.  Everything is in build/ (git-ignored).
SHELL := /bin/sh
ARCHS ?= x86_64 i386 arm64 powerpc

.PHONY: all setup tree kernel kernel-i386 kernel-arm64 kernel-powerpc kernel-stock test um-generic stress demo \
	bench bench-report profile checkpatch format-patches reset-tree bisect-check fuzz objcheck clean

all: test

setup:
	sh scripts/setup.sh

tree: setup
	sh scripts/tree.sh prepare

kernel: tree
	sh scripts/build.sh x86_64

kernel-i386: tree
	sh scripts/build.sh i386

kernel-arm64: tree
	sh scripts/build.sh arm64

kernel-powerpc: tree
	sh scripts/build.sh powerpc

# The unpatched x86_64 kernel the blktrace test is compared with.
kernel-stock: tree
	sh scripts/stock.sh

# The whole test: setup, tree, build, boot + tests and harness self-tests on
# every arch of $(ARCHS).  Last line: "N passed, N failed[, N skipped]".
test:
	sh scripts/test.sh $(ARCHS)

# The KUnit suites in User-Mode Linux with generic immediate values under
# markers (DISABLE_IMMEDIATE), a second UML build; not part of test.
um-generic: tree
	sh scripts/um-test.sh generic

# Reliability runs (tests/README.md): the x86_64 debug kernel (lockdep,
# KASAN, kmemleak, ...) with every test, a long storm on the test kernel,
# the KCSAN kernel with every test (KCSAN=0: not).  Last line: "N passed,
# N failed[, N skipped]".  .ci/run runs it after make test (about 25
# minutes more, tests/RESULTS.md).
stress:
	sh scripts/stress.sh

# Boot x86_64 with harness.only=demo (tests/guest/demo.sh), console shown;
# fails unless every case of tests/expected/demo.txt passes.
demo: kernel
	sh tests/mkinitramfs.sh x86_64 build/obj-x86_64 build/initramfs-x86_64.cpio.gz
	python3 scripts/run.py --arch x86_64 --name demo --append "harness.only=demo kunit.enable=0" \
		--expect tests/expected/demo.txt --tee-user

# One null_blk read, function by function, and its modelled L1 cache
# misses, on the test, nomarkers and stock kernels (QEMU plugins built from
# Debian's qemu source): bench/results/profile.txt.  Not part of test.
profile: tree
	sh scripts/profile.sh

# The markers benchmark: build, boot (QEMU icount and TCG, User-Mode Linux),
# write bench/results/ and the figures of bench/README.md.  Not part of test.
bench:
	sh scripts/bench.sh

# Only regenerate bench/results/ and bench/README.md from the last logs.
bench-report:
	python3 scripts/bench-report.py

checkpatch: tree
	sh scripts/checkpatch.sh

format-patches:
	sh scripts/tree.sh export

# Throws away local commits and edits in build/linux.
reset-tree:
	sh scripts/tree.sh reset

bisect-check: tree
	sh scripts/bisect.sh

# Fuzz the marker format parser on the host (FUZZ_SECONDS, default 60).
fuzz: tree
	sh scripts/fuzz.sh

# Compile the objects the series adds or changes, pristine and patched, with
# W=1 and sparse, under allmodconfig and Debian's configs (x86_64, i386,
# arm64): a compile error or a new warning fails (tests/README.md).  One
# config: OBJCHECK_CONFIGS=debian-amd64.  Last line: "N passed, N failed,
# N skipped".  Not part of test.
objcheck: setup
	sh scripts/objcheck.sh

# Build outputs only: build/linux (which may hold unexported work) stays.
clean:
	rm -rf build/obj-* build/bisect build/logs build/initramfs-*.cpio.gz build/gen_init_cpio \
		build/disks
