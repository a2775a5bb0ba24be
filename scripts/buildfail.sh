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
n=0 pass=0 fail=0

result() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n $1"
	else
		fail=$((fail + 1))
		echo "not ok $n $1"
	fi
}

# build NAME CFLAGS: build the module in a fresh copy; output in $work/NAME.log
build() {
	mkdir -p "$work/$1"
	cp "$top"/tests/buildfail/* "$work/$1"/
	make -s -C "$obj" ARCH="$arch" ${cross:+CROSS_COMPILE="$cross"} M="$work/$1" \
		BUILDFAIL_CFLAGS="$2" modules >"$work/$1.log" 2>&1
}

echo "KTAP version 1"
echo "# Suite: buildfail_$arch"
echo "1..2"
if [ ! -f "$obj/Module.symvers" ]; then
	echo "# no kernel built in ${obj#"$top"/}"
	result one_format_builds 1
	result two_formats_fail 1
	echo "$pass passed, $fail failed"
	exit 1
fi
build one ""
rc=$?
sed 's/^/# /' "$work/one.log"
result one_format_builds $rc
build two -DTWO_FORMATS
rc=$?
sed 's/^/# /' "$work/two.log"
# x86 assembles the labels of both formats before the second site and
# says which marker; arm64 and powerpc may meet the second label later.
if [ $rc != 0 ] && grep -q -e "marker buildfail_two_formats has two formats in this file" \
	-e "non-constant expression in \".if\" statement" "$work/two.log" &&
	! grep -q "error:" "$work/two.log"; then
	result two_formats_fail 0
else
	echo "# the build did not fail at the marker (rc $rc)"
	result two_formats_fail 1
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
