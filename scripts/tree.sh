#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Keep build/linux as Debian's linux-source-6.12 plus patches/series.
#
#   scripts/tree.sh prepare   unpack if needed, (re)apply the series if it
#                             changed; leaves the tree alone otherwise, so
#                             kbuild sees no new mtimes and rebuilds nothing
#   scripts/tree.sh export    regenerate patches/ from the commits on top
#                             of the pristine tag (the developer loop)
#   scripts/tree.sh reset     throw away local commits and edits, re-apply
#
# The tree is a git repository whose first commit (tag "pristine") is the
# unpacked Debian source; each patch of the series is one commit on top.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
tree=$build/linux
stamp=$build/linux.applied
tarball=/usr/src/linux-source-6.12.tar.xz
GIT="git -C $tree -c user.name=kbuild -c user.email=kbuild@localhost"

die() { echo "tree.sh: $*" >&2; exit 1; }

series_hash() {
	# shellcheck disable=SC2046 # one patch file name a line, no spaces
	(cd "$top/patches" && cat series $(grep -v '^[[:space:]]*#' series | awk 'NF {print $1}')) |
		sha256sum | cut -d' ' -f1
}

source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown
}

unpack() {
	[ -f "$tarball" ] || die "$tarball missing: apt-get install linux-source-6.12"
	echo "tree.sh: unpacking $tarball ($(source_version))"
	rm -rf "$tree" "$tree.tmp" "$stamp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	mv "$tree.tmp" "$tree"
	$GIT init -q
	# Do not let the kernel's own .gitignore hide files a patch may add.
	$GIT add -f -A .
	$GIT commit -q -m "linux-source-6.12 $(source_version) (pristine)"
	$GIT tag pristine
	source_version > "$build/linux.version"
}

apply_series() {
	$GIT reset -q --hard pristine
	$GIT clean -q -fdx -e '/.config*'
	n=0
	# shellcheck disable=SC2013 # one patch file name a line, no spaces
	for p in $(grep -v '^[[:space:]]*#' "$top/patches/series" | awk 'NF {print $1}'); do
		[ -f "$top/patches/$p" ] || die "patch $p is listed in patches/series but missing"
		if ! $GIT am -q --keep-cr "$top/patches/$p" >"$build/am.log" 2>&1; then
			cat "$build/am.log" >&2
			$GIT am --abort >/dev/null 2>&1 || true
			die "patch $p does not apply to linux-source-6.12 $(source_version)"
		fi
		n=$((n + 1))
	done
	echo "tree.sh: applied $n patch(es) on linux-source-6.12 $(source_version)"
	echo "$(series_hash) $($GIT rev-parse HEAD)" > "$stamp"
}

prepare() {
	if [ ! -d "$tree/.git" ] || [ "$(cat "$build/linux.version" 2>/dev/null)" != "$(source_version)" ]; then
		unpack
	fi
	want=$(series_hash)
	if [ -f "$stamp" ] && [ "$(cut -d' ' -f1 "$stamp")" = "$want" ]; then
		head=$($GIT rev-parse HEAD)
		if [ "$head" != "$(cut -d' ' -f2 "$stamp")" ] || [ -n "$($GIT status --porcelain -uno)" ]; then
			echo "tree.sh: note: build/linux has changes not exported to patches/ (make format-patches)"
		fi
		return 0
	fi
	if [ -f "$stamp" ]; then
		head=$($GIT rev-parse HEAD)
		if [ "$head" != "$(cut -d' ' -f2 "$stamp")" ] || [ -n "$($GIT status --porcelain -uno)" ]; then
			die "patches/ changed but build/linux has local work; export it (make format-patches) or drop it (make reset-tree)"
		fi
	fi
	apply_series
}

export_series() {
	[ -d "$tree/.git" ] || die "no tree: run make tree first"
	[ -z "$($GIT status --porcelain -uno)" ] || die "build/linux has uncommitted changes; commit them first"
	rm -f "$top"/patches/*.patch
	# diff.suppressBlankEmpty: git writes a blank context line as an empty
	# line, not " ", so checkpatch.pl, which checks a patch tracked in a git
	# repository as a file, sees no trailing whitespace.
	$GIT -c diff.suppressBlankEmpty=true format-patch -q --no-signature --zero-commit \
		-o "$top/patches" pristine..HEAD
	(cd "$top/patches" && ls -1 -- *.patch 2>/dev/null) > "$top/patches/series" || true
	echo "$(series_hash) $($GIT rev-parse HEAD)" > "$stamp"
	echo "tree.sh: exported $(wc -l < "$top/patches/series") patch(es) to patches/"
}

case "${1:-prepare}" in
prepare) prepare ;;
export) export_series ;;
reset) rm -f "$stamp"
	# No "am" in progress is the normal case: its failure is not an error.
	if [ -d "$tree/.git" ]; then $GIT am --abort >/dev/null 2>&1 || true; fi
	prepare ;;
version) source_version ;;
*) die "usage: $0 prepare|export|reset|version" ;;
esac
