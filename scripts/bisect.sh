#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/bisect.sh [ARCH]: does every prefix of patches/series build?
#
# In a separate checkout build/bisect (a local clone of build/linux, which is
# only read), start from the pristine tag, build it, then apply the patches
# one at a time and rebuild incrementally in build/obj-bisect after each.
# Stops at and names the first patch that does not apply or breaks the
# build.  Only the kernel and its in-tree modules are built: the test
# modules in tests/modules/ may need the whole series (make test builds
# them).  PATCHES=DIR checks another series directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-x86_64}
src=$top/build/linux
wt=$top/build/bisect
obj=$top/build/obj-bisect${1:+-$arch}
patches=$(cd "${PATCHES:-$top/patches}" && pwd)
logs=$top/build/logs
GIT="git -C $wt -c user.name=kbuild -c user.email=kbuild@localhost"

die() { echo "bisect.sh: $*" >&2; exit 1; }
[ -d "$src/.git" ] || die "no $src: run make tree"
mkdir -p "$logs"

# (Re)clone when missing or when build/linux was re-unpacked.
want=$(git -C "$src" rev-parse pristine)
if [ "$(git -C "$wt" rev-parse -q --verify pristine 2>/dev/null)" != "$want" ]; then
	echo "bisect.sh: cloning build/linux into ${wt#"$top"/}"
	rm -rf "$wt" "$obj"
	git clone -q --no-checkout "$src" "$wt"
fi
$GIT am --abort >/dev/null 2>&1 || true
# Only files that differ are rewritten, so the build below stays incremental.
$GIT checkout -q -f --detach pristine
$GIT clean -q -fdx

build() {
	log=$logs/bisect-$1.log
	if KNOWN_ONLY=1 SKIP_EXT=1 KSRC=$wt KOBJ=$obj sh "$top/scripts/build.sh" "$arch" >"$log" 2>&1; then
		echo "bisect.sh: ok: $2"
	else
		tail -n 30 "$log" >&2
		die "FIRST BROKEN: $2 does not build ($arch; log: ${log#"$top"/})"
	fi
}

build 00 "pristine linux-source-6.12"
n=0
# shellcheck disable=SC2013 # one patch file name a line, no spaces
for p in $(grep -v '^[[:space:]]*#' "$patches/series" | awk 'NF {print $1}'); do
	n=$((n + 1))
	id=$(printf %02d $n)
	if ! $GIT am -q --keep-cr "$patches/$p" >"$logs/bisect-$id.log" 2>&1; then
		cat "$logs/bisect-$id.log" >&2
		$GIT am --abort >/dev/null 2>&1 || true
		die "FIRST BROKEN: patch $n ($p) does not apply"
	fi
	build "$id" "patch $n ($p)"
done
echo "bisect.sh: all $n patch(es) of the series build one by one ($arch)"
