#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/debs-selftest.sh: KTAP self-test of scripts/debs.sh with a private
# cache and private source lists (needs the Debian mirror of the host's
# apt configuration; fetches busybox-static for i386, about 1 MiB):
#   partial_index_failure   the host's sources plus an unreachable one:
#                           apt-get update fails, the package is still had
#   cached_without_network  only the unreachable source: served from cache
#   corrupt_cache_refetched a truncated .deb in the cache is fetched again
#   missing_package_error   an unknown package fails, naming it and the arch
# Last line: "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 143' INT TERM
arch=i386
pkg=busybox-static
# shellcheck disable=SC1091 # tests/guest/ktap.sh is checked on its own
. "$top/tests/guest/ktap.sh"

# result ok|fail NAME [WHY]: a failure shows WHY and the output of debs.sh
result() {
	if [ "$1" = ok ]; then
		ktap_ok "$2"
		return
	fi
	sed 's/^/#   /' "$tmp/out"
	ktap_fail "$2" "$3"
}

# fetch PARTS: run debs.sh with source parts PARTS; output in $tmp/out.
fetch() {
	DEBS_CACHE=$tmp/cache DEBS_SOURCE_PARTS=$1 DEBS_TRIES=2 DEBS_PAUSE=1 \
		sh "$top/scripts/debs.sh" "$arch" "$tmp/root" "$2" >"$tmp/out" 2>&1
}

# The host's sources, and a source nothing listens on (connection refused).
mkdir -p "$tmp/good+bad" "$tmp/bad"
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$tmp/good+bad/host.list"
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] && cp "$f" "$tmp/good+bad/"
done
bad="deb [trusted=yes] http://127.0.0.1:9/debian bookworm main"
echo "$bad" >"$tmp/good+bad/unreachable.list"
echo "$bad" >"$tmp/bad/unreachable.list"

ktap_begin debs_fetch 4

if fetch "$tmp/good+bad" "$pkg" && [ -x "$tmp/root/bin/busybox" ] &&
	grep -q '127.0.0.1:9' "$tmp/out"; then
	result ok partial_index_failure
else
	result fail partial_index_failure "no busybox, or no update error reported"
fi

if fetch "$tmp/bad" "$pkg" && [ -x "$tmp/root/bin/busybox" ]; then
	result ok cached_without_network
else
	result fail cached_without_network "a cached request needed the network"
fi

deb=$(find "$tmp/cache/$arch/archives" -name "${pkg}_*.deb" | head -n 1)
if [ -n "$deb" ] && head -c 1000 "$deb" >"$tmp/short" && cp "$tmp/short" "$deb" &&
	fetch "$tmp/good+bad" "$pkg" && [ -x "$tmp/root/bin/busybox" ] &&
	grep -q "downloading $pkg" "$tmp/out"; then
	result ok corrupt_cache_refetched
else
	result fail corrupt_cache_refetched "a truncated .deb was not fetched again"
fi

if ! fetch "$tmp/good+bad" no-such-package-kmarkers &&
	grep -q "package no-such-package-kmarkers ($arch)" "$tmp/out"; then
	result ok missing_package_error
else
	result fail missing_package_error "no clear error for an unknown package"
fi

ktap_end
ktap_summary
