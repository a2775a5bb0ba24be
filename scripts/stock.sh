#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/stock.sh [noprof]: build an x86_64 kernel to compare the test
# kernel with, from a git worktree of build/linux.
#
#   (none)   build/linux-stock, objects in build/obj-x86_64-stock: tag
#            pristine (Debian's linux-source-6.12, no patch), the test
#            kernel's config without configs/series.config.  What
#            tests/guest/30-blktrace.sh is compared with (scripts/blkcmp.py).
#   noprof   build/linux-noprof, objects in build/obj-x86_64-noprof: the
#            whole series but "profile: make prof_on an immediate value"
#            (reverted), the test kernel's config.  What make bench measures
#            that patch's effect on schedule() against (bench/README.md).
#
# Kernel + in-tree modules only.  Nothing is rebuilt when neither the
# fragments nor the tree it comes from changed.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=x86_64
kind=${1:-stock}
src=$top/build/linux
wt=$top/build/linux-$kind
obj=$top/build/obj-$arch-$kind

die() { echo "stock.sh: $*" >&2; exit 1; }
[ -d "$src/.git" ] || die "no $src: run make tree"

case $kind in
stock)
	base=pristine
	frags="$top/configs/base.config $top/configs/$arch.config"
	;;
noprof)
	base=master
	frags="$top/configs/base.config $top/configs/series.config $top/configs/$arch.config"
	;;
*) die "unknown kind $kind (stock or noprof)" ;;
esac

# The worktree records the commit it was made from in .stock-base.  When
# that commit changes, the worktree is checked out again in place, so that
# only the files that differ are rebuilt.
want=$(git -C "$src" rev-parse "$base")
if [ "$(cat "$wt/.stock-base" 2>/dev/null)" != "$want" ]; then
	echo "stock.sh: checking out ${base} into ${wt#"$top"/}"
	if [ -f "$wt/.git" ]; then
		git -C "$wt" checkout -q --force --detach "$want" || die "cannot check out $want in $wt"
	else
		rm -rf "$wt" "$obj"
		git -C "$src" worktree prune
		git -C "$src" worktree add -q --detach "$wt" "$want"
	fi
	if [ "$kind" = noprof ]; then
		prof=$(git -C "$src" log --format=%H --grep='^profile: make prof_on an immediate value$' \
			pristine.."$want")
		[ -n "$prof" ] || die "no commit \"profile: make prof_on an immediate value\" in the series"
		git -C "$wt" -c user.name=stock.sh -c user.email=stock.sh@localhost \
			revert --no-edit "$prof" >/dev/null || die "cannot revert $prof"
	fi
	echo "$want" >"$wt/.stock-base"
fi

FRAGS=$frags KSRC=$wt KOBJ=$obj SKIP_EXT=1 sh "$top/scripts/build.sh" "$arch"
