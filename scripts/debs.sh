#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/debs.sh DEBARCH ROOT PKG...
#
# Unpack Debian's PKG... of architecture DEBARCH (i386, arm64, ...), and the
# libraries they depend on (lib* and zlib1g, recursively), into ROOT, which is
# made anew.  Used for the binaries of guests of another architecture
# (tests/mkinitramfs.sh); the host's apt configuration is not touched.
#
# Success is judged by whether every needed .deb is in the cache and
# unpacks, not by the exit status of "apt-get update": a mirror that fails
# for one index (e.g. security, "Mirror sync in progress?") does not matter
# when the package is in another.  Updates and downloads are tried
# $DEBS_TRIES times (default 3), $DEBS_PAUSE seconds apart (default 5).
#
# The .deb files are kept in $DEBS_CACHE/DEBARCH (default
# ~/.cache/kmarkers-debs, outside the checkout, so "make clean" keeps it)
# under their own names (package_version_arch.deb), together with the
# package list each request resolved to: a second run of the same request
# needs no network.  $DEBS_SOURCE_PARTS: a folder of sources.list files
# used instead of the host's (the self-test, scripts/debs-selftest.sh).
set -eu
arch=${1:?usage: debs.sh DEBARCH ROOT PKG...}
root=${2:?usage: debs.sh DEBARCH ROOT PKG...}
shift 2
[ $# -gt 0 ] || { echo "usage: debs.sh DEBARCH ROOT PKG..." >&2; exit 2; }
cache=${DEBS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kmarkers-debs}/$arch
tries=${DEBS_TRIES:-3}
pause=${DEBS_PAUSE:-5}

die() { echo "debs.sh: $*" >&2; exit 1; }

mkdir -p "$cache/lists/partial" "$cache/archives" "$cache/apt/archives/partial"
log=$cache/apt.log
aptopts="-q -oAPT::Architecture=$arch -oAPT::Architectures=$arch
	-oDir::State::Lists=$cache/lists -oDir::Cache=$cache/apt
	-oDir::State::Status=/dev/null -oDebug::NoLocking=1 -oAPT::Sandbox::User=root"
if [ -n "${DEBS_SOURCE_PARTS:-}" ]; then
	aptopts="$aptopts -oDir::Etc::SourceList=/dev/null -oDir::Etc::SourceParts=$DEBS_SOURCE_PARTS"
fi
# papt CMD ARGS...: an apt command with the private state above.
# shellcheck disable=SC2086
papt() { _c=$1; shift; "$_c" $aptopts "$@"; }

# retry CMD...: run CMD up to $tries times; the last try's output is in $log.
retry() {
	_i=1
	while :; do
		"$@" >"$log" 2>&1 && return 0
		[ "$_i" -ge "$tries" ] && return 1
		echo "debs.sh: '$2 $3' failed (try $_i of $tries), again in $pause s" >&2
		sleep "$pause"
		_i=$((_i + 1))
	done
}

updated=
# update: refresh the private index once per run; a partial failure is
# reported, not fatal (what counts is whether the packages can be had).
update() {
	[ -n "$updated" ] && return 0
	updated=1
	echo "debs.sh: apt-get update ($arch)"
	# apt 2.6 exits 0 when a source cannot be fetched (a "W:" line only).
	if ! retry papt apt-get update || grep -qE '^(E|W|Err):' "$log"; then
		echo "debs.sh: apt-get update ($arch) reported errors; going on with the indexes it got:" >&2
		grep -E '^(E|W|Err):' "$log" | sed 's/^/debs.sh:   /' >&2 || true
	fi
}

# candidate PKG: "version" of PKG in the index, empty if unknown.
candidate() {
	papt apt-cache show --no-all-versions "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1
}

# deps PKG: the library packages PKG depends on (lib*, and zlib1g), the
# first of each alternative.
deps() {
	papt apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances "$1" 2>/dev/null |
		sed -n 's/^ *|\{0,1\}\(Pre\)\{0,1\}Depends: \(lib[^ <]*\|zlib1g\)\( .*\)\{0,1\}$/\2/p'
}

# debfile PKG VERSION: the cache's file name of that .deb (":" as "%3a"),
# of architecture "all" (libtirpc-common, ...) if that is the one there.
debfile() {
	_b=$cache/archives/${1}_$(echo "$2" | sed 's/:/%3a/g')
	if [ -s "${_b}_all.deb" ]; then echo "${_b}_all.deb"; else echo "${_b}_$arch.deb"; fi
}

# fetch PKG: make sure the candidate .deb of PKG is in the cache; print it.
fetch() {
	v=$(candidate "$1")
	[ -n "$v" ] || die "package $1 ($arch): not in the index: $(papt apt-cache show "$1" 2>&1 | tail -n 1)"
	f=$(debfile "$1" "$v")
	if [ ! -s "$f" ] || ! dpkg-deb --info "$f" >/dev/null 2>&1; then
		rm -f "$f"
		echo "debs.sh: downloading $1 $v ($arch)" >&2
		if ! (cd "$cache/archives" && retry papt apt-get download "$1=$v") ||
			! f=$(debfile "$1" "$v") || [ ! -s "$f" ]; then
			die "package $1 $v ($arch): download failed: $(grep -E '^(E|Err):' "$log" | tail -n 2 | tr '\n' ' ')"
		fi
		dpkg-deb --info "$f" >/dev/null 2>&1 || { rm -f "$f"; die "package $1 $v ($arch): $f is not a valid .deb"; }
	fi
	echo "$f"
}

# The request's resolved .deb list, from an earlier run if all still there.
# (The resolver's version is part of the key: a list resolved by an older
# deps() is resolved again.)
key=$(echo "deps-2 $*" | tr ' ' '\n' | sort -u | tr '\n' ' ' | sha256sum | cut -c1-16)
manifest=$cache/request-$key
ok=
if [ -s "$manifest" ]; then
	ok=1
	while read -r f; do dpkg-deb --info "$f" >/dev/null 2>&1 || ok=; done <"$manifest"
fi
if [ -z "$ok" ]; then
	# A stale index (days old) may name versions the mirror no longer has.
	update
	todo="$*" seen=" " list=
	while [ -n "$todo" ]; do
		# shellcheck disable=SC2086 # a list of package names
		set -- $todo
		p=$1
		shift
		todo="$*"
		case $seen in *" $p "*) continue ;; esac
		seen="$seen$p "
		list="$list$(fetch "$p")
"
		todo="$todo $(deps "$p" | tr '\n' ' ')"
		todo=$(echo "$todo" | sed 's/^ *//')
	done
	printf '%s' "$list" >"$manifest.tmp"
	mv "$manifest.tmp" "$manifest"
fi

rm -rf "$root"
mkdir -p "$root"
while read -r f; do
	dpkg-deb -x "$f" "$root" || die "cannot unpack $f"
done <"$manifest"
echo "debs.sh: $(wc -l <"$manifest") package(s) for $arch unpacked in $root"
