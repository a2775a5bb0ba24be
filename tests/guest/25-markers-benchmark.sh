#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Smoke test of the markers benchmark (CONFIG_MARKERS_BENCHMARK, run in
# full by make bench) with tiny counts, so that it keeps building and
# working: its KUnit suite, marker_benchmark, checks that every variant
# calls its probe exactly when armed, and that arming a marker with N
# sites patches N sites in one batch; here we check that it printed its
# figures.
# shellcheck source=ktap.sh
. /tests/ktap.sh

kver=$(uname -r)
skip_all=
[ -n "$(find "/lib/modules/$kver" -name 'marker_benchmark.ko*' 2>/dev/null)" ] ||
	skip_all="marker_benchmark.ko not built (CONFIG_MARKERS_BENCHMARK)"

c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}

kmsg_mark
# lines KIND: number of "csv,KIND," lines the benchmark printed.
lines() { kmsg_since | grep -c "csv,$1,"; }
# 6 variants x 2 states x 4 modes (loop, hot, thrash: 64 KiB, and cold,
# which needs x86's clflush: 3 modes elsewhere).
case $(uname -m) in
x86_64|i?86) modes=4 ;;
*) modes=3 ;;
esac
hit_lines() { test "$(lines hit)" -eq $((6 * 2 * modes)); }
# 3 sizes (1, 10, 100) x marker and tracepoint x arm and disarm.
update_lines() { test "$(lines update)" -eq 12; }

ktap_begin markers_bench_smoke 4
c load modprobe marker_benchmark hits=20 loops=100 loop_reps=3 cold=1 \
	thrash_kb=64 max_sites=100 update_reps=1 batch=0
c hit_figures hit_lines
c update_figures update_lines
c unload rmmod marker_benchmark
ktap_end
