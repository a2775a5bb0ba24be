#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/buildfail.sh ARCH: what must not build does not. The sites of a
# marker name in one source file share one marker (patch 39), so a second
# format in the same file must fail the build: tests/buildfail/two_formats.c
# is built against build/obj-ARCH as is (it must build: the control) and
# with -DTWO_FORMATS (it must fail, at the marker). Prints KTAP; last line
# "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: buildfail.sh ARCH}
obj=$top/build/obj-$arch
# shellcheck disable=SC1091 # scripts/arches.sh is checked on its own
. "$top/scripts/arches.sh"
cross=$(arch_field "$arch" cross) || exit 1
[ -n "$cross" ] && cross=${CROSS_COMPILE-$cross}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 143' INT TERM
# shellcheck disable=SC1091 # tests/guest/ktap.sh is checked on its own
. "$top/tests/guest/ktap.sh"

# build NAME CFLAGS: build the module in a fresh copy; output in $work/NAME.log
build() {
	mkdir -p "$work/$1"
	cp "$top"/tests/buildfail/* "$work/$1"/
	make -s -C "$obj" ARCH="$arch" ${cross:+CROSS_COMPILE="$cross"} M="$work/$1" \
		BUILDFAIL_CFLAGS="$2" modules >"$work/$1.log" 2>&1
}

ktap_begin "buildfail_$arch" 2
if [ ! -f "$obj/Module.symvers" ]; then
	ktap_fail one_format_builds "no kernel built in ${obj#"$top"/}"
	ktap_fail two_formats_fail "no kernel built in ${obj#"$top"/}"
	ktap_summary
	exit 1
fi
build one ""
rc=$?
sed 's/^/# /' "$work/one.log"
if [ $rc = 0 ]; then
	ktap_ok one_format_builds
else
	ktap_fail one_format_builds "the build failed (rc $rc)"
fi
build two -DTWO_FORMATS
rc=$?
sed 's/^/# /' "$work/two.log"
# x86 assembles the labels of both formats before the second site and
# says which marker; arm64 and powerpc may meet the second label later.
if [ $rc != 0 ] && grep -q -e "marker buildfail_two_formats has two formats in this file" \
	-e "non-constant expression in \".if\" statement" "$work/two.log" &&
	! grep -q "error:" "$work/two.log"; then
	ktap_ok two_formats_fail
else
	ktap_fail two_formats_fail "the build did not fail at the marker (rc $rc)"
fi
ktap_summary
