#!/bin/sh
# scripts/stock.sh: build the unpatched ("stock") x86_64 kernel that
# tests/guest/30-blktrace.sh is compared with (scripts/blkcmp.py).
#
#   build/linux-stock        git worktree of build/linux at tag pristine
#                            (Debian's linux-source-6.12, no patch)
#   build/obj-x86_64-stock   its objects; kernel + in-tree modules only
#
# Its config is that of the test kernel (configs/base.config and
# configs/x86_64.config over tinyconfig) without the options the series
# adds: every fragment line whose symbol the pristine Kconfig files do not
# define is dropped. Nothing is rebuilt when neither the fragments nor
# the pristine tree changed.
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
	echo "stock.sh: checking out the pristine tree into ${stock#$top/}"
	rm -rf "$stock" "$obj"
	git -C "$src" worktree prune
	git -C "$src" worktree add -q --detach "$stock" pristine
fi

mkdir -p "$obj"
syms=$obj/.kconfig-symbols
if [ ! -s "$syms" ]; then
	find "$stock/" -name 'Kconfig*' -type f -exec sed -n \
		's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]\{1,\}\).*/\2/p' {} + |
		sort -u > "$syms.tmp"
	mv "$syms.tmp" "$syms"
fi
frag=$obj/stock.config
cat "$top/configs/base.config" "$top/configs/$arch.config" | awk -v syms="$syms" '
	BEGIN { while ((getline s < syms) > 0) known[s] = 1 }
	{
		sym = ""
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) sym = substr($0, 8, RLENGTH - 8)
		else if (match($0, /^# CONFIG_[A-Za-z0-9_]+ is not set/)) { split($0, w, " "); sym = substr(w[2], 8) }
		if (sym != "" && !(sym in known)) { print "stock.sh: dropping " $0 > "/dev/stderr"; next }
		print
	}' > "$frag.tmp"
if cmp -s "$frag.tmp" "$frag"; then rm -f "$frag.tmp"; else mv "$frag.tmp" "$frag"; fi

FRAGS=$frag KSRC=$stock KOBJ=$obj SKIP_EXT=1 sh "$top/scripts/build.sh" "$arch"
