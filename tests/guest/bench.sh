#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench (scripts/bench.sh) boots with harness.only=bench: load the
# markers benchmark, a KUnit suite (lib/marker_bench.c) that prints its
# figures as "csv," diagnostic lines on the console, and unload it.
# harness.bench=P1=V1:P2=V2 gives it module parameters.
# harness.bench_filler=1: load marker_filler (50,000 unrelated marker
# sites) first, so that the update rows show the cost with them loaded.
# While the module is loaded, its 1,000 markers marker_bench_batch_* are
# also enabled and disabled as marker events, through tracefs: one group
# of 1,000 events, and a group of one of them ("csv,tracefs," lines:
# events, elapsed ns, function call interrupts received by all CPUs,
# immediate values batches and sites).
# shellcheck source=ktap.sh
. /tests/ktap.sh

T=/sys/kernel/tracing

# Function call interrupts received so far, all CPUs (x86 "CAL"; 0 where
# /proc/interrupts has no such line).
calls() {
	awk '$1 == "CAL:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts
}

# tracefs_switch GROUP 1|0: enable or disable a group of marker events,
# and print its counts.
tracefs_switch() {
	_c0=$(calls) _b0=$(immediate_stat batches) _s0=$(immediate_stat sites) _t0=$(percall now)
	echo "$2" >"$T/events/$1/enable" || return 1
	_t1=$(percall now) _c1=$(calls) _b1=$(immediate_stat batches) _s1=$(immediate_stat sites)
	_op=disable
	[ "$2" = 1 ] && _op=enable
	_b=$((${_b1:-0} - ${_b0:-0})) _s=$((${_s1:-0} - ${_s0:-0}))
	echo "csv,tracefs,$_op,$_n,$((_t1 - _t0)),$((_c1 - _c0)),$_b,$_s" >/dev/console
	echo "$_op $_n event(s): $((_t1 - _t0)) ns, $((_c1 - _c0)) function call interrupts," \
		"$_b immediate values batch(es), $_s sites"
}

# tracefs_group GROUP GLOB N: the group of the N marker events GLOB
# defines, switched on and off.
tracefs_group() {
	echo "m:$1/ $2" >>$T/marker_events || return 1
	_n=$(find "$T/events/$1" -mindepth 1 -maxdepth 1 -type d | wc -l)
	tracefs_switch "$1" 1 && tracefs_switch "$1" 0 || return 1
	echo "-:$1/" >>$T/marker_events
	[ "$_n" = "$3" ]
}

# The 1,000 batch markers, and one of them alone: what enabling any
# group costs besides its markers.
tracefs_batch() {
	tracefs_group kone marker_bench_batch_000 1 &&
		tracefs_group kbatch 'marker_bench_batch_*' 1000
}

params=$(harness_arg bench | tr ':' ' ')
filler=$(harness_arg bench_filler || true)
n=3
[ -z "$filler" ] || n=4
ktap_begin markers_bench $n
[ -z "$filler" ] || ktap_check load_filler insmod /lib/test-modules/marker_filler.ko
# shellcheck disable=SC2086
ktap_check load modprobe marker_benchmark $params
ktap_check_shown tracefs_group tracefs_batch
ktap_check unload rmmod marker_benchmark
ktap_end
