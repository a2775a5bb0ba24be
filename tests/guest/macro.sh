#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench's macro run (scripts/bench.sh, bench/README.md), booted with
# harness.only=macro harness.macro=KERNEL under QEMU -icount shift=0, once
# per kernel compared: what whole system calls cost, in instructions, with
# tests/progs/percall:
#   yield        sched_yield(): one pass through __schedule(), whose
#                profile_hit() tests prof_on (patch 28)
#   read, write  one 4 KiB O_DIRECT I/O of null_blk, completed inline
#                (irqmode=0), so each call is the whole I/O path
#   read_blktrace, write_blktrace
#                the same while blktrace traces the device (skipped on a
#                kernel without blktrace: the nomarkers build)
# and, on a kernel with marker events (tracefs marker_events), how many
# block marker sites each I/O executes: every blk_* marker traced as an
# event over 100 I/Os.
# Each figure is a "csv,macro,KERNEL,NAME,median,min,p90,reps,n" line
# that scripts/bench-report.py reads.
# shellcheck source=ktap.sh
. /tests/ktap.sh
devs=nullb0
# shellcheck source=blkev.sh
. /tests/blkev.sh

kernel=$(harness_arg macro || echo unnamed)
reps=41
T=/sys/kernel/tracing

# measure NAME OP N [DEV]: percall, its line as a csv line.
measure() {
	_name=$1
	shift
	_out=$(percall "$1" $reps "$2" ${3:+"$3"}) || return 1
	echo "$_out"
	# "read median=M min=M p90=M reps=R n=N" -> "M,M,M,R,N"
	echo "csv,macro,$kernel,$_name,$(echo "$_out" | sed 's/^[a-z]* //; s/[a-z0-9]*=//g; s/ /,/g')" >/dev/console
}

blktrace_pid=
start_blktrace() {
	rm -rf $work
	mkdir -p $work
	blktrace -d /dev/nullb0 -D $work >$work.out 2>&1 </dev/null &
	blktrace_pid=$!
	_w=0
	while [ "$(cat /sys/block/nullb0/trace/enable)" != 1 ] && [ $_w -lt 300 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	[ "$(cat /sys/block/nullb0/trace/enable)" = 1 ] || { cat $work.out; return 1; }
	# The enable file reads 1 from BLKTRACESETUP on, and blktrace starts
	# tracing (BLKTRACESTART) later: sentinel reads, as blkev.sh's, which
	# traced() finds in the trace before the timed I/O.
	_i=0
	while [ $_i -lt 8 ]; do
		ddq if=/dev/nullb0 of=/dev/null bs=4k count=1 skip=$sentinel_blk iflag=direct
		sleep 0.2
		_i=$((_i + 1))
	done
}

# traced STOP-RC: blktrace stopped on SIGINT (stop_blktrace in this
# shell, its parent, not in a command substitution), had started before
# the last sentinel, and lost nothing: each timed I/O was queued (Q) and
# completed (C) in the trace after it.
traced() {
	cat $work.out $work.stop
	[ "$1" = 0 ] || return 1
	_bytes=$(cat $work/nullb0.blktrace.* | wc -c)
	echo "blktrace wrote $_bytes bytes"
	blkev_events $work nullb0
	echo "sentinel events: $(cat $work/nullb0.sentinels)"
	[ "$(cat $work/nullb0.sentinels)" -gt 0 ] || return 1
	_ios=$((2 * reps * 16))
	_qc=$(awk '$1 == "Q" { q++ } $1 == "C" { c++ } END { print q + 0, c + 0 }' \
		$work/nullb0.events)
	echo "after them: $_qc (queued, completed) of $_ios timed I/Os"
	[ "$_qc" = "$_ios $_ios" ]
}

# Every block marker as an event (group macro), 100 I/Os of OP: events
# per I/O, and the markers that fired.
sites() {
	_op=$1
	echo 'm:macro/ blk_*' >>$T/marker_events || return 1
	echo > $T/trace
	echo 1 > $T/events/macro/enable || return 1
	percall "$_op" 1 100 /dev/nullb0 >/dev/null
	echo 0 > $T/events/macro/enable
	_n=$(grep -vc '^#' $T/trace)
	grep -v '^#' $T/trace | sed 's/.* \(blk_[a-z_]*\):.*/\1/' | sort | uniq -c
	echo '-:macro/' >>$T/marker_events || return 1
	echo "$_n events over 100 I/Os"
	echo "csv,macro,$kernel,sites_$_op,$_n,$_n,$_n,1,100" >/dev/console
	[ "$_n" -gt 0 ]
}

# harness.macro_ios=N (make profile, scripts/profile.sh): only N reads of
# null_blk, under a QEMU plugin that counts; two boots with different N
# give what one read costs, each function apart.
ios=$(harness_arg macro_ios || true)
if [ -n "$ios" ]; then
	ktap_begin macro 2
	ktap_check null_blk modprobe null_blk nr_devices=1 gb=1 irqmode=0
	ktap_check_shown "read_$ios" percall read 1 "$ios" /dev/nullb0
	ktap_end
	exit 0
fi

n=7
[ -e $T/marker_events ] && n=9
ktap_begin macro $n
ktap_check_shown yield measure yield yield 64
ktap_check null_blk modprobe null_blk nr_devices=1 gb=1 irqmode=0
ktap_check_shown read measure read read 16 /dev/nullb0
ktap_check_shown write measure write write 16 /dev/nullb0
if [ ! -e /sys/block/nullb0/trace ]; then
	for _c in read_blktrace write_blktrace blktrace; do
		ktap_skip $_c "kernel without blktrace (CONFIG_BLK_DEV_IO_TRACE)"
	done
elif start_blktrace; then
	ktap_check_shown read_blktrace measure read_blktrace read 16 /dev/nullb0
	ktap_check_shown write_blktrace measure write_blktrace write 16 /dev/nullb0
	stop_blktrace "$blktrace_pid" >$work.stop 2>&1
	ktap_check_shown blktrace traced $?
else
	for _c in read_blktrace write_blktrace blktrace; do
		ktap_fail $_c "blktrace did not start: $(cat $work.out)"
	done
fi
if [ -e $T/marker_events ]; then
	ktap_check_shown sites_read sites read
	ktap_check_shown sites_write sites write
fi
ktap_end
