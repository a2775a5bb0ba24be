#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Update storm with module churn (tests/modules/marker_stress):
#
#   mstress.ko        markers and immediate reads firing on every CPU from
#                     process, softirq, hardirq and NMI context, while its
#                     kthreads register/arm/disarm/attach/detach/unregister
#                     probes and flip immediate values
#   mstress_site.ko   more markers and immediate sites, loaded and unloaded
#                     in a loop during the storm
#   mstress_probe.ko  probes on the markers of both, loaded and unloaded in
#                     a loop (every third time exiting with them armed)
#
# plus readers of the debugfs list that check each read is a snapshot, and
# updates held half-way while modules load.  The storm lasts
# harness.stress=SECONDS (default 15); the figures of the run are printed
# as "# stress: ..." lines.
# shellcheck source=ktap.sh
. /tests/ktap.sh
t0=$(cut -d. -f1 /proc/uptime)

ko=/lib/test-modules
P=/sys/module/mstress/parameters
D=/sys/kernel/debug/mstress
S=/sys/module/mstress_site/parameters
PP=/sys/module/mstress_probe/parameters
list=/sys/kernel/debug/markers/list
secs=$(harness_arg stress) || secs=15
tmp=/tmp/stress
mkdir -p $tmp

skip_all=
if [ ! -r "$list" ]; then
	skip_all="no $list (kernel without CONFIG_MARKERS?)"
elif [ ! -f $ko/mstress.ko ]; then
	skip_all="mstress.ko not built"
fi

c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}

kmsg_mark
new_dmesg() { kmsg_since; }

# Centiseconds since boot.
now() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
# st NAME: a field of the last run's parameters/stats.
st() { tr ' ' '\n' < $P/stats | sed -n "s/^$1=//p"; }
zero() { [ "$(st "$1")" = 0 ] || { echo "$1=$(st "$1")"; return 1; }; }
positive() { [ "$(st "$1")" -gt 0 ] 2>/dev/null || { echo "$1=$(st "$1")"; return 1; }; }
# Both readers read, and saw no partial list.
list_ok() {
	for r in 1 2; do
		read -r n bad < $tmp/reader_$r
		# shellcheck disable=SC2015 # || reports a failure of either test
		[ "$n" -gt 0 ] && [ "$bad" = 0 ] || { echo "reader $r: $n reads, $bad partial"; return 1; }
	done
}
sites_ok() { case $(cat "$1") in generic|*" bad=0") return 0 ;; *) cat "$1"; return 1 ;; esac; }

# An immediate update is queued, not patched, while mstress_site loads: the
# load waits for it, and the new module's sites get the new value.
hold_imm_load() {
	echo 1500 > $P/hold_imm &
	sleep 0.3
	t0=$(now)
	insmod $ko/mstress_site.ko || return 1
	t1=$(now)
	wait
	echo "insmod took $(((t1 - t0) * 10)) ms"
	[ $((t1 - t0)) -ge 50 ] || { echo "insmod did not wait for the update"; return 1; }
	mem=$(sed 's/mem=\([-0-9]*\) .*/\1/' $P/imm_long)
	[ "$(cat $S/init_read)" = "$mem" ] || { echo "init_read $(cat $S/init_read), $(cat $P/imm_long)"; return 1; }
	sites_ok $P/sites_ok && sites_ok $S/sites_ok && rmmod mstress_site
}

# The markers mutex is held while a probe module and a marker module load.
hold_markers_load() {
	echo 1500 > $P/hold_markers &
	sleep 0.3
	insmod $ko/mstress_probe.ko &
	insmod $ko/mstress_site.ko || return 1
	wait
	for p in ret_attach_event ret_attach_wide ret_register ret_arm; do
		[ "$(cat $PP/$p)" = 0 ] || { echo "$p=$(cat $PP/$p)"; return 1; }
	done
	grep -q "^stress_churn state=1 probes=1 module=mstress_site " $list ||
		{ grep '^stress_churn ' $list; return 1; }
	rmmod mstress_probe && rmmod mstress_site
}

site_loop() {
	n=0
	while [ -e $tmp/run ]; do
		insmod $ko/mstress_site.ko || echo "insmod mstress_site failed" >> $tmp/errors
		: > $tmp/up_site
		sleep 0.05
		rmmod mstress_site || echo "rmmod mstress_site failed" >> $tmp/errors
		n=$((n + 1))
	done
	echo $n > $tmp/site_cycles
}

probe_loop() {
	n=0
	while [ -e $tmp/run ]; do
		leak=0
		[ $((n % 3)) = 2 ] && leak=1
		insmod $ko/mstress_probe.ko leak=$leak || echo "insmod mstress_probe failed" >> $tmp/errors
		: > $tmp/up_probe
		sleep 0.03
		rmmod mstress_probe || echo "rmmod mstress_probe failed" >> $tmp/errors
		n=$((n + 1))
	done
	echo $n > $tmp/probe_cycles
}

# Each read of the list is one snapshot: all of mstress_site's markers or
# none of them. A marker has a line per live site (or one, site=-), and
# the sites in its init text go when its init returns: count the names,
# one per marker of its single source file.
reader_loop() {
	n=0 bad=0
	while [ -e $tmp/run ]; do
		k=$(grep ' module=mstress_site ' $list | cut -d' ' -f1 | sort -u | wc -l)
		[ "$k" = 0 ] || [ "$k" = "$markers" ] || { bad=$((bad + 1)); echo "read $k of $markers mstress_site markers" >> $tmp/errors; }
		n=$((n + 1))
		: > "$tmp/up_reader_$1"
	done
	echo "$n $bad" > "$tmp/reader_$1"
}

# Updates held half-way, now and then, while the modules come and go.
hold_loop() {
	n=0
	while [ -e $tmp/run ]; do
		echo 100 > $P/hold_imm
		echo 100 > $P/hold_markers
		sleep 0.5
		n=$((n + 1))
	done
	echo $n > $tmp/holds
}

# The checks can fail: short runs with faults injected (a wrong argument,
# private data marked dead while still registered, an immediate written
# with halves that differ) must be caught by each of them.  A fault needs
# the storm's marker cycles to reach it, and fewer fit in 2 s where an
# update waits longer (arm64 waits for an RCU tasks grace period when an
# 8-byte immediate changes): runs of 2 s, at most 5, until each check has
# caught its fault once.
injected() {
	need="bad_args late_hits torn" runs=0
	while [ -n "$need" ] && [ $runs -lt 5 ]; do
		runs=$((runs + 1))
		echo 1 > $P/inject && echo 2000 > $D/run
		# shellcheck disable=SC2320 # the status of the write to $D/run (the run)
		ret=$?
		echo 0 > $P/inject
		cp $P/stats $tmp/injected
		# A run of no time: the storm's values back to agreeing halves.
		echo 0 > $D/run
		[ $ret = 0 ] || return 1
		left=
		for f in $need; do
			v=$(tr ' ' '\n' < $tmp/injected | sed -n "s/^$f=//p")
			[ "$v" -gt 0 ] 2>/dev/null || left="$left $f"
		done
		need=$left
	done
	echo $runs > $tmp/injected_runs
	[ -z "$need" ] && return 0
	echo "not caught in $runs run(s) with faults injected:$need"
	cat $tmp/injected
	return 1
}

storm() {
	rm -f $tmp/errors
	: > $tmp/run
	rm -f $tmp/up_*
	site_loop & probe_loop & reader_loop 1 & reader_loop 2 & hold_loop &
	# The churn must be under way before the storm: once the storm runs,
	# a slow guest (single-threaded TCG) may not schedule a new shell loop
	# until it ends.
	_w=0
	while [ $_w -lt 100 ] && ! { [ -e $tmp/up_site ] && [ -e $tmp/up_probe ] &&
		[ -e $tmp/up_reader_1 ] && [ -e $tmp/up_reader_2 ]; }; do
		sleep 0.1
		_w=$((_w + 1))
	done
	echo $((secs * 1000)) > $D/run
	# shellcheck disable=SC2320 # the status of the write to $D/run (the run)
	ret=$?
	rm -f $tmp/run
	wait
	lsmod | grep -q '^mstress_site ' && rmmod mstress_site
	lsmod | grep -q '^mstress_probe ' && rmmod mstress_probe
	cat $P/stats
	# shellcheck disable=SC2015 # || reports a failure of either test
	[ $ret = 0 ] && [ ! -s $tmp/errors ] || { cat $tmp/errors 2>/dev/null; return 1; }
}

figures() {
	r1=$(cat $tmp/reader_1) r2=$(cat $tmp/reader_2)
	inj=$(tr ' ' '\n' < $tmp/injected | grep -E '^(duration_ms|bad_args|late_hits|torn)=' | tr '\n' ' ')
	ktap_diag "stress: faults injected, last of $(cat $tmp/injected_runs 2>/dev/null) run(s): $inj"
	ktap_diag "stress: $(cat $P/stats)"
	ktap_diag "stress: modules: mstress_site $(cat $tmp/site_cycles) load/unload cycles, mstress_probe $(cat $tmp/probe_cycles) (a third of them exiting armed), $(cat $tmp/holds) updates held half-way, list reads ${r1% *}+${r2% *}"
}

ktap_begin stress 28
c load_mstress insmod $ko/mstress.ko
if [ -z "$skip_all" ] && insmod $ko/mstress_site.ko 2>/dev/null; then
	markers=$(cat $S/markers)
	rmmod mstress_site
fi
c load_during_held_immediate_update hold_imm_load
c load_during_held_markers_mutex hold_markers_load
c checks_catch_injected_faults injected
c storm_with_module_churn storm
if [ -n "$skip_all" ]; then
	for t in fired_process fired_softirq fired_hardirq fired_nmi hits_all_contexts \
		bad_args late_hits hits_after_stop torn stale mismatch api_errors \
		imm_updates marker_cycles churn_fired churn_hit site_cycles probe_cycles \
		list_snapshots; do
		ktap_skip $t "$skip_all"
	done
else
	figures
	ktap_check fired_process positive fires_process
	ktap_check fired_softirq positive fires_softirq
	ktap_check fired_hardirq positive irq_work
	# x86 always has NMIs (the storm sends them as IPIs); an arm64 guest
	# without GICv3 pseudo-NMI has none.
	case $(uname -m) in
	x86_64|i?86) ktap_check fired_nmi positive fires_nmi ;;
	*) if [ "$(st fires_nmi)" -gt 0 ] 2>/dev/null; then ktap_ok fired_nmi
	   else ktap_skip fired_nmi "no NMI on $(uname -m) (nmi_sent=$(st nmi_sent))"; fi ;;
	esac
	ktap_check hits_all_contexts sh -c "[ $(st hits_process) -gt 0 ] && [ $(st hits_softirq) -gt 0 ] && [ $(st hits_hardirq) -gt 0 ]"
	ktap_check bad_args zero bad_args
	ktap_check late_hits zero late_hits
	ktap_check hits_after_stop zero hits_after_stop
	ktap_check torn zero torn
	ktap_check stale zero stale
	ktap_check mismatch zero mismatch
	ktap_check api_errors zero api_errors
	ktap_check imm_updates positive imm_updates
	ktap_check marker_cycles positive cycles
	ktap_check churn_fired positive churn_fires
	ktap_check churn_hit positive churn_hits
	ktap_check site_cycles test "$(cat $tmp/site_cycles)" -gt 0
	ktap_check probe_cycles test "$(cat $tmp/probe_cycles)" -gt 0
	ktap_check list_snapshots list_ok
fi
c sites_agree_after sites_ok $P/sites_ok
c unload_mstress rmmod mstress
c no_storm_markers_left sh -c "! grep -E ' module=mstress' $list"
dmesg_clean() { ! new_dmesg | grep -E 'mstress.*returned|mstress_probe: attach|Uhhuh|Dazed|NMI received for unknown'; }
c dmesg_clean dmesg_clean
ktap_diag "stress: the script took $(($(cut -d. -f1 /proc/uptime) - t0)) s"
ktap_end
