#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Markers in modules: tests/modules/marker_site (markers) and
# tests/modules/marker_probe (probes, counters in its parameters).
# Both load orders, unloading either side while armed, a probe module
# that exits without disconnecting, reloads, a load/unload stress while
# the markers fire, and the debugfs list all along.
# shellcheck source=ktap.sh
. /tests/ktap.sh

ko=/lib/test-modules
list=/sys/kernel/debug/markers/list
site=/sys/module/marker_site/parameters
probe=/sys/module/marker_probe/parameters

skip_all=
if [ ! -r "$list" ]; then
	skip_all="no $list (kernel without CONFIG_MARKERS?)"
elif [ ! -f "$ko/marker_site.ko" ] || [ ! -f "$ko/marker_probe.ko" ]; then
	skip_all="marker_site.ko or marker_probe.ko not built"
fi

# c NAME CMD...: passes if CMD succeeds.
c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}

# eq NAME WANT CMD...: passes if CMD prints WANT.
eq() {
	_n=$1 _w=$2
	shift 2
	if [ -n "$skip_all" ]; then ktap_skip "$_n" "$skip_all"; return; fi
	_g=$("$@" 2>&1)
	if [ "$_g" = "$_w" ]; then
		ktap_ok "$_n"
	else
		ktap_fail "$_n" "'$*' printed '$_g', expected '$_w'"
	fi
}

kmsg_mark
new_dmesg() { kmsg_since; }
# in_dmesg TEXT: the kernel said TEXT since the script started.
in_dmesg() { new_dmesg | grep -F -q -- "$1"; }
# marker_probe.ko reports a wrong private data pointer as
# "marker_probe: marker_probe_unregister() returned ...".
dmesg_clean() { ! new_dmesg | grep -E 'WARNING:|Oops|BUG:|Call Trace:|general protection|refcount_t|marker_probe_unregister\(\) returned'; }

p() { cat "$probe/$1"; }
params() { for _p in "$@"; do printf '%s=%s ' "$_p" "$(cat "$probe/$_p")"; done; }
fire() { echo "$1" > "$site/fire"; }
# lines NAME TEXT: number of list lines of marker NAME containing TEXT.
lines() { grep "^$1 " "$list" | grep -c -F -- "$2"; }
no_module_markers() { ! grep -F 'module=marker_' "$list"; }
site_gone() { ! grep -F 'module=marker_site ' "$list"; }
load_site() { insmod "$ko/marker_site.ko"; }
load_probe() { insmod "$ko/marker_probe.ko" "$@"; }
rm_site() { rmmod marker_site; }
rm_probe() { rmmod marker_probe; }
not_loaded() { ! lsmod | grep -E '^marker_(site|probe) '; }

armed2="state=1 probes=2 module=marker_site "
disarmed="state=0 probes=0 module=marker_site "

# Load the probes and the markers in a loop, with the markers firing all
# the time on other CPUs.
stress() {
	load_site || return 1
	( while [ -e /tmp/markers-stress ]; do fire 50; done ) &
	_bg=$!
	: > /tmp/markers-stress
	_i=0 _ret=0
	while [ $_i -lt 10 ]; do
		if [ $((_i % 3)) = 2 ]; then
			load_probe leak=1 || _ret=1
		else
			load_probe || _ret=1
		fi
		fire 10 || _ret=1
		rm_probe || _ret=1
		_i=$((_i + 1))
	done
	rm -f /tmp/markers-stress
	wait $_bg
	echo "fired $(cat "$site/fired") times"
	rm_site || _ret=1
	return $_ret
}

ktap_begin markers_modules 63

c list_readable test -r "$list"
c list_has_core_marker grep -q '^core_marker_format state=[01] probes=[0-9]* module=kernel site=' "$list"
c modules_not_loaded not_loaded

# Probes first, then the markers.
c probe_first_insmod_probe load_probe
eq probe_first_registered "register_ret=0 attach_ret=0 mismatch_ret=0 other_ret=0 " \
	params register_ret attach_ret mismatch_ret other_ret
c probe_first_insmod_site load_site
eq probe_first_init_marker_live 1 p init_count
c probe_first_mismatch_notice in_dmesg 'marker marker_site_mismatch in marker_site (__mark_data_marker_site_mismatch'
eq probe_first_list_armed 2 lines marker_site_event "$armed2"
eq probe_first_list_mismatch_disarmed 1 lines marker_site_mismatch "$disarmed"
eq probe_first_list_noargs 1 lines marker_site_noargs "state=1 probes=1 module=marker_site "
c probe_first_fire fire 3
eq probe_first_counts "event_count=6 attached_count=6 noargs_count=3 last_value=2 " \
	params event_count attached_count noargs_count last_value
eq probe_first_mismatch_not_called 0 p mismatch_count
eq probe_first_args_intact 0 p bad_count
c probe_first_rmmod_site rm_site
eq probe_first_exit_marker 1 p exit_count
c probe_first_site_markers_gone site_gone
c probe_first_rmmod_probe rm_probe

# Markers first, then the probes, unloaded while armed.
c site_first_insmod_site load_site
eq site_first_list_disarmed 2 lines marker_site_event "$disarmed"
c site_first_insmod_probe load_probe
eq site_first_mismatch_not_connected 0 p mismatch_ret
eq site_first_registered "register_ret=0 attach_ret=0 other_ret=0 init_count=0 " \
	params register_ret attach_ret other_ret init_count
eq site_first_list_armed 2 lines marker_site_event "$armed2"
c site_first_fire fire 2
eq site_first_counts "event_count=4 attached_count=4 mismatch_count=0 bad_count=0 " \
	params event_count attached_count mismatch_count bad_count
c site_first_rmmod_probe_armed rm_probe
eq site_first_list_disarmed_after 2 lines marker_site_event "$disarmed"
eq site_first_list_all_disarmed 0 lines marker_site "state=1"
c site_first_fire_after fire 2
c site_first_rmmod_site rm_site

# A probe module that exits with its probes connected.
c leak_insmod_site load_site
c leak_insmod_probe load_probe leak=1
c leak_fire fire 1
eq leak_counts "event_count=2 attached_count=2 " params event_count attached_count
c leak_rmmod_probe rm_probe
c leak_unregistered_notice in_dmesg 'module marker_probe going, unregistering its probe'
c leak_detached_notice in_dmesg 'module marker_probe going, detaching its probe'
eq leak_list_disarmed 2 lines marker_site_event "$disarmed"
c leak_fire_after fire 5
c leak_reload_probe load_probe
eq leak_reload_registered "register_ret=0 attach_ret=0 " params register_ret attach_ret
c leak_reload_fire fire 1
eq leak_reload_counts "event_count=2 attached_count=2 " params event_count attached_count
c leak_rmmod_all rmmod marker_probe marker_site

# Reloads.
c reload_insmod_probe load_probe
c reload_insmod_site load_site
c reload_site rm_site
c reload_site_again load_site
eq reload_init_exit_counts "init_count=2 exit_count=1 " params init_count exit_count
c reload_fire fire 1
eq reload_counts "event_count=2 attached_count=2 " params event_count attached_count
c reload_probe rm_probe
c reload_probe_again load_probe
eq reload_list_armed 2 lines marker_site_event "$armed2"
c reload_fire_again fire 1
eq reload_counts_again "event_count=2 attached_count=2 init_count=0 " \
	params event_count attached_count init_count
c reload_rmmod_all rmmod marker_site marker_probe

# Probes connected and disconnected while the markers fire.
c stress_load_unload_while_firing stress

c final_modules_unloaded not_loaded
c final_list_no_module_markers no_module_markers
c final_dmesg_clean dmesg_clean
ktap_end
