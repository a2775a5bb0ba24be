# Linux Kernel Markers + Immediate Values for linux-source-6.12: build & test.
# See README.md.  Everything is in build/ (git-ignored).
SHELL := /bin/sh
ARCHS ?= x86_64 i386 arm64

.PHONY: all setup tree kernel kernel-i386 kernel-arm64 test demo checkpatch format-patches \
	reset-tree bisect-check clean

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

# The whole test: setup, tree, build, boot + tests and harness self-tests on
# every arch of $(ARCHS).  Last line: "N passed, N failed[, N skipped]".
test:
	sh scripts/test.sh $(ARCHS)

# Boot x86_64 with harness.only=demo (tests/guest/demo.sh), console shown.
demo: kernel
	sh tests/mkinitramfs.sh x86_64 build/obj-x86_64 build/initramfs-x86_64.cpio.gz
	python3 scripts/run.py --arch x86_64 --name demo --append harness.only=demo \
		--expect none --tee

checkpatch: tree
	sh scripts/checkpatch.sh

format-patches:
	sh scripts/tree.sh export

# Throws away local commits and edits in build/linux.
reset-tree:
	sh scripts/tree.sh reset

bisect-check: tree
	sh scripts/bisect.sh

# Build outputs only: build/linux (which may hold unexported work) stays.
clean:
	rm -rf build/obj-* build/bisect build/logs build/initramfs-*.cpio.gz build/gen_init_cpio
