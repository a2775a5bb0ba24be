#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install what building and testing need on Debian 12, and nothing if all
# of it is already there (no apt-get run then).  As root, or via sudo.
set -eu
pkgs="build-essential bc bison flex libelf-dev libssl-dev perl git xz-utils
      linux-source-6.12 python3 qemu-system-x86 busybox-static cpio kmod gzip
      trace-cmd blktrace python3-ply python3-git gcc-aarch64-linux-gnu qemu-system-arm
      gnuplot-nox sparse clang libclang-rt-14-dev shellcheck
      bpftrace linux-perf e2fsprogs gcc-i686-linux-gnu libc6-dev-i386-cross
      libc6-dev-arm64-cross ccache gcc-powerpc64le-linux-gnu
      libc6-dev-ppc64el-cross qemu-system-ppc
      linux-config-6.12 dmsetup mdadm libglib2.0-dev"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "setup.sh: installing:$missing"
sudo=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || { echo "setup.sh: need root (or sudo) to install:$missing" >&2; exit 1; }
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -o DPkg::Lock::Timeout=900 update -q
# shellcheck disable=SC2086
$sudo apt-get -o DPkg::Lock::Timeout=900 install -y -q --no-install-recommends $missing
