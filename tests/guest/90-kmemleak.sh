#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debug kernels (CONFIG_DEBUG_KMEMLEAK): after all the tests, a scan must
# find no unreferenced object allocated since 02-kmemleak-clear.sh.
# kmemleak reports an object only once it is older than 5 s and was seen
# unreferenced by a scan, hence the wait and the two scans.
# shellcheck source=ktap.sh
. /tests/ktap.sh

k=/sys/kernel/debug/kmemleak
ktap_begin kmemleak 1
if [ -w $k ]; then
	echo scan > $k
	sleep 6
	echo scan > $k
	if [ -s $k ]; then
		ktap_diag "kmemleak: $(grep -c 'unreferenced object' $k) suspected leak(s):"
		head -60 $k | while IFS= read -r l; do ktap_diag "$l"; done
		ktap_fail no_leaks "kmemleak reports suspected leaks"
	else
		ktap_ok no_leaks
	fi
else
	ktap_skip no_leaks "no $k (kernel without CONFIG_DEBUG_KMEMLEAK)"
fi
ktap_end
