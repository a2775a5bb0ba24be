#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/stock.sh: build the unpatched ("stock") x86_64 kernel that
# tests/guest/30-blktrace.sh is compared with (scripts/blkcmp.py).
#
#   build/linux-stock        git worktree of build/linux at tag pristine
#                            (Debian's linux-source-6.12, no patch)
#   build/obj-x86_64-stock   its objects; kernel + in-tree modules only
#
# Its config is that of the test kernel without configs/series.config:
# configs/base.config and configs/x86_64.config over tinyconfig.  Nothing
# is rebuilt when neither the fragments nor the pristine tree changed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=x86_64
src=$top/build/linux
stock=$top/build/linux-stock
obj=$top/build/obj-$arch-stock

die() { echo "stock.sh: $*" >&2; exit 1; }
[ -d "$src/.git" ] || die "no $src: run make tree"

want=$(git -C "$src" rev-parse pristine)
if [ "$(git -C "$stock" rev-parse HEAD 2>/dev/null)" != "$want" ]; then
	echo "stock.sh: checking out the pristine tree into ${stock#"$top"/}"
	rm -rf "$stock" "$obj"
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$stock" pristine
fi

FRAGS="$top/configs/base.config $top/configs/$arch.config" KSRC=$stock KOBJ=$obj SKIP_EXT=1 sh "$top/scripts/build.sh" "$arch"
