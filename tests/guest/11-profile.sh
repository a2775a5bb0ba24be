#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel profiler's prof_on, an immediate value (patch 28).
# Without profile= on the command line (suite profile): off at boot, set
# once through /sys/kernel/profiling, which patches every profile_hit()
# site in one batch (immediate values statistics); the profiler then
# counts schedule() hits in /proc/profile, and a second setting is
# refused.  Leaves scheduler profiling on for the rest of the boot, which
# costs one counter increment per schedule().  A module's site of
# prof_on (tests/modules/immediate/imm_consumer) follows the setting too.
# With profile=schedule,N (suite profile_boot, scripts/test.sh step
# x86_64-profile-boot): set by immediate_set_early() before the other
# CPUs start; schedule() hits counted prove the __schedule() site was
# patched, since the value it compares is the one in its instruction.
# shellcheck source=ktap.sh
. /tests/ktap.sh

sysfs=/sys/kernel/profiling

# The sum of the counters of /proc/profile (the first word is the step).
hits() {
	od -An -v -tu4 /proc/profile | awk 'NR == 1 { $1 = 0 } { for (i = 1; i <= NF; i++) s += $i } END { print s + 0 }'
}

# Count schedule() hits over 20 short sleeps.
hits_counted() {
	h0=$(hits)
	i=0
	while [ $i -lt 20 ]; do sleep 0.01; i=$((i + 1)); done
	h1=$(hits)
	if [ "$h1" -gt "$h0" ]; then
		ktap_diag "schedule() hits: $h0 -> $h1"
		ktap_ok schedule_hits_counted
	else
		ktap_fail schedule_hits_counted "/proc/profile: $h0 -> $h1 hits over 20 sleeps"
	fi
}

refused() { # NAME: a setting after the first one fails and changes nothing
	if sh -c "echo cpu > $sysfs" 2>/dev/null; then
		ktap_fail "$1" "a second write was accepted: $(cat $sysfs)"
	elif [ "$(cat $sysfs)" = 2 ]; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "refused, but $sysfs now reads $(cat $sysfs)"
	fi
}

boot_set() {
	ktap_begin profile_boot 4
	on=$(cat $sysfs 2>&1)
	if [ "$on" = 2 ]; then ktap_ok set_at_boot; else ktap_fail set_at_boot "$sysfs: '$on', want 2"; fi
	if [ -e /proc/profile ]; then ktap_ok proc_profile_present; else ktap_fail proc_profile_present "no /proc/profile"; fi
	hits_counted
	refused sysfs_setting_refused
	ktap_end
}

case " $(cat /proc/cmdline) " in
*" profile=schedule"*) boot_set; exit 0 ;;
esac

m=/lib/test-modules
prof=/sys/module/imm_consumer/parameters/prof

module_reads() { # NAME VALUE: the module's site of prof_on reads VALUE
	_got=$(cat $prof 2>&1)
	if [ "$_got" = "$2" ]; then ktap_ok "$1"; else ktap_fail "$1" "$prof: got '$_got', want '$2'"; fi
}

ktap_begin profile 11
off=$(cat $sysfs 2>&1)
if [ "$off" = 0 ]; then ktap_ok off_at_boot; else ktap_fail off_at_boot "$sysfs: '$off'"; fi
if [ -e /proc/profile ]; then ktap_fail no_proc_profile_when_off "/proc/profile exists"; else ktap_ok no_proc_profile_when_off; fi
ktap_check module_reader_load sh -c "insmod $m/imm_provider.ko && insmod $m/imm_consumer.ko"
module_reads module_reads_off 0

b0=$(immediate_stat batches) s0=$(immediate_stat sites)
ktap_check enable_sched_profiling sh -c "echo schedule,10 > $sysfs"
on=$(cat $sysfs 2>&1)
# SCHED_PROFILING
if [ "$on" = 2 ]; then ktap_ok reads_back_sched; else ktap_fail reads_back_sched "$sysfs: '$on', want 2"; fi

b1=$(immediate_stat batches) s1=$(immediate_stat sites)
if [ $((b1 - b0)) -eq 1 ] && [ $((s1 - s0)) -ge 2 ]; then
	ktap_diag "one batch patched $((s1 - s0)) site(s) of prof_on, one of them in imm_consumer"
	ktap_ok profile_hit_sites_patched
else
	ktap_fail profile_hit_sites_patched "batches $b0 -> $b1, sites $s0 -> $s1: want one batch of at least two sites"
fi
module_reads module_reads_sched 2
ktap_check module_reader_unload sh -c "rmmod imm_consumer && rmmod imm_provider"

hits_counted
refused second_setting_refused
ktap_end
