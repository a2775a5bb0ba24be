#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A force-loaded module (TAINT_FORCED_MODULE, insmod -f): immediate
# values and markers treat it as tracepoints do. It loads; its immediate
# value sites keep the value they were assembled with (0) and its markers
# stay disarmed; the kernel log says so. Late in the run: forcing a load
# turns lockdep off.
# shellcheck source=ktap.sh
. /tests/ktap.sh

m=/lib/test-modules
p=/sys/module/imm_provider/parameters
c=/sys/module/imm_consumer/parameters
site=/sys/module/marker_site/parameters
probe=/sys/module/marker_probe/parameters

kmsg_mark
logged() { kmsg_since | grep -F -q -- "$1"; }

generic=
[ "$(cat /sys/kernel/debug/immediate/stats 2>/dev/null)" ] || generic="generic immediate values"
markers=
[ -r /sys/kernel/debug/markers/list ] || markers="kernel without CONFIG_MARKERS"

expect() { # NAME FILE VALUE
	_got=$(cat "$2" 2>&1)
	if [ "$_got" = "$3" ]; then ktap_ok "$1"; else ktap_fail "$1" "$2: got '$_got', want '$3'"; fi
}

ktap_begin forced_modules 10
ktap_check provider_load sh -c "insmod $m/imm_provider.ko && echo 42 > $p/value"
ktap_check consumer_forced_load insmod-force $m/imm_consumer.ko
if [ -n "$generic" ]; then
	ktap_skip consumer_sites_unused "$generic"
	ktap_skip consumer_taint_logged "$generic"
else
	expect consumer_sites_unused $c/read 0
	ktap_check consumer_taint_logged logged "immediate: imm_consumer: tainted module"
fi
ktap_check consumer_unload sh -c "rmmod imm_consumer && rmmod imm_provider"
if [ -n "$markers" ]; then
	for t in site_forced_load probe_load site_markers_disarmed markers_taint_logged unload; do
		ktap_skip "$t" "$markers"
	done
else
	ktap_check site_forced_load insmod-force $m/marker_site.ko
	ktap_check probe_load insmod $m/marker_probe.ko
	ktap_check site_markers_disarmed sh -c "echo 2 > $site/fire && test \$(cat $probe/event_count) = 0"
	ktap_check markers_taint_logged logged "markers: marker_site: tainted module"
	ktap_check unload sh -c "rmmod marker_probe && rmmod marker_site"
fi
ktap_end
