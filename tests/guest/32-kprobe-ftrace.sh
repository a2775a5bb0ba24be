#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Kprobes and ftrace next to markers and immediate values
# (tests/modules/marker_stress/mstress.ko):
#   - kprobes on immediate value sites (marker sites included) are refused,
#     from the kernel API and from tracefs kprobe_events;
#   - a kprobe event on mstress_fire(), the function holding the markers,
#     hits while the markers are armed, disarmed and patched;
#   - the function tracer on, off, and refiltered (ftrace patching function
#     entries) during a storm that patches markers and immediate values,
#     tracing mstress_read_imm(), whose immediate sites are patched while
#     it is traced, and the markers and immediate values core functions.
# The storm lasts harness.stress_ftrace=SECONDS (default 10; make stress
# gives 30). Under QEMU's multi-threaded TCG it can oops on the pristine
# kernel as well (tests/README.md, "QEMU"): run.py uses single-threaded
# TCG unless TCG_THREAD=multi.
# shellcheck source=ktap.sh
. /tests/ktap.sh
t0=$(cut -d. -f1 /proc/uptime)

ko=/lib/test-modules
P=/sys/module/mstress/parameters
D=/sys/kernel/debug/mstress
T=/sys/kernel/tracing
secs=$(harness_arg stress_ftrace) || secs=10
tmp=/tmp/kpft
mkdir -p $tmp

skip_all=
if [ ! -f $ko/mstress.ko ]; then
	skip_all="mstress.ko not built"
elif [ ! -w $T/kprobe_events ] || [ ! -w $T/current_tracer ]; then
	skip_all="no kprobe_events or function tracer in $T"
fi

c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}

kmsg_mark

# st NAME [FILE]: a field of the stats of the storm (default: the last run).
st() { tr ' ' '\n' < "${2:-$P/stats}" | sed -n "s/^$1=//p"; }
field() { tr ' ' '\n' < $tmp/ks | sed -n "s/^$1=//p"; }

kprobe_api() {
	cat $P/kprobe_sites > $tmp/ks || return 1
	cat $tmp/ks
	n=$(field sites)
	[ "$n" -gt 0 ] && [ "$(field refused)" = "$n" ] &&
		[ "$(field inside_refused)" = "$(field inside)" ] &&
		[ "$(field entry)" = 0 ] && [ "$(field entry_hits)" -ge 10 ]
}

# "mstress_fire+0x4b/0x1f0 [mstress]" -> "mstress:mstress_fire+0x4b"
kprobe_events_refused() {
	i=0 bad=0
	# shellcheck disable=SC2013 # one symbol+offset a line, no blanks
	for s in $(sed 's/\/.*//' $P/kprobe_addrs); do
		if echo "p:mstress_bad/s$i mstress:$s" >> $T/kprobe_events 2>/dev/null; then
			echo "kprobe event accepted on the immediate site $s"
			bad=1
		fi
		i=$((i + 1))
	done
	echo "$i sites tried"
	[ $i -gt 0 ] && [ $bad = 0 ]
}

kprobe_event_add() {
	echo 'p:mstress_kp/fire mstress:mstress_fire' >> $T/kprobe_events &&
		echo 1 > $T/events/mstress_kp/fire/enable
}

# The function tracer comes and goes, and its filter changes, meanwhile.
ftrace_loop() {
	n=0
	while [ -e $tmp/run ]; do
		case $((n % 4)) in
		0) echo mstress_read_imm > $T/set_ftrace_filter &&
		   echo function > $T/current_tracer ;;
		1) echo 'marker_* immediate_* __mark_*' >> $T/set_ftrace_filter ;;
		2) echo nop > $T/current_tracer ;;
		3) echo 0 > $T/events/mstress_kp/fire/enable &&
		   echo 1 > $T/events/mstress_kp/fire/enable ;;
		esac || echo "change $n (step $((n % 4))) failed" >> $tmp/ftrace_errors
		sleep 0.3
		n=$((n + 1))
	done
	echo $n > $tmp/toggles
}

storm() {
	echo 256 > $T/buffer_size_kb
	rm -f $tmp/ftrace_errors
	: > $tmp/run
	ftrace_loop &
	echo $((secs * 1000)) > $D/run
	# shellcheck disable=SC2320 # the status of the write to $D/run (the storm)
	ret=$?
	rm -f $tmp/run
	wait
	cp $P/stats $tmp/stats
	# A last traced period, with nothing else changing.
	echo mstress_read_imm > $T/set_ftrace_filter
	echo function > $T/current_tracer
	echo 2000 > $D/run || ret=1
	grep -c 'mstress_read_imm' $T/trace > $tmp/traced
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	cat $tmp/stats $P/stats
	if [ -s $tmp/ftrace_errors ]; then
		echo "tracefs writes of the ftrace loop failed:"
		cat $tmp/ftrace_errors
		ret=1
	fi
	[ $ret = 0 ]
}

# Both runs, the storm and the last traced period.
zero_all() {
	for s in $tmp/stats $P/stats; do
		for f in bad_args late_hits hits_after_stop torn stale mismatch api_errors; do
			[ "$(st $f "$s")" = 0 ] || { echo "$f=$(st $f "$s") in $s"; return 1; }
		done
	done
}

kprobe_hits() {
	cat $T/kprobe_profile
	awk '$1 == "fire" || $1 == "mstress_kp/fire" { if ($2 > 0) ok = 1 } END { exit !ok }' $T/kprobe_profile
}

kprobe_event_remove() {
	echo 0 > $T/events/mstress_kp/fire/enable &&
		echo '-:mstress_kp/fire' >> $T/kprobe_events
}

ktap_begin kprobe_ftrace 11
c load_mstress insmod $ko/mstress.ko
if [ -z "$skip_all" ] && [ "$(cat $P/kprobe_sites 2>/dev/null)" = unsupported ]; then
	# Generic immediate values (no CONFIG_IMMEDIATE, e.g. nomarkers): no
	# patched sites, nothing for kprobes to refuse.
	ktap_skip kprobe_api_refuses_sites "no patched immediate sites (generic immediate values)"
	ktap_skip kprobe_events_refuse_sites "no patched immediate sites (generic immediate values)"
else
	c kprobe_api_refuses_sites kprobe_api
	c kprobe_events_refuse_sites kprobe_events_refused
fi
c kprobe_event_on_marker_function kprobe_event_add
no_storm=$skip_all
if [ -n "$no_storm" ]; then
	ktap_skip storm_under_kprobe_and_ftrace "$no_storm"
	ktap_skip storm_clean "$no_storm"
	ktap_skip traced_function_with_sites "$no_storm"
	# A quiet second of firing for the kprobe event, nothing toggled.
	[ -z "$skip_all" ] && echo 1000 > $D/run
else
	ktap_check storm_under_kprobe_and_ftrace storm
	ktap_diag "kprobe_ftrace: $(cat $tmp/stats)"
	ktap_diag "kprobe_ftrace: $(cat $tmp/toggles) tracer/filter/kprobe changes during the storm, $(cat $tmp/traced) mstress_read_imm calls traced in the last 2 s"
	ktap_check storm_clean zero_all
	ktap_check traced_function_with_sites test "$(cat $tmp/traced)" -gt 0
fi
c kprobe_event_hit kprobe_hits
c kprobe_event_removed kprobe_event_remove
c unload_mstress rmmod mstress
dmesg_clean() { ! kmsg_since | grep -E 'mstress.*returned|Uhhuh|NMI received for unknown'; }
c dmesg_clean dmesg_clean
ktap_diag "kprobe_ftrace: the script took $(($(cut -d. -f1 /proc/uptime) - t0)) s"
ktap_end
