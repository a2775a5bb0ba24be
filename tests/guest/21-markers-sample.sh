#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The markers sample of Documentation/trace/markers.rst (samples/markers):
# marker-example places markers, probe-example connects probes to them;
# insmod order is not important.
# shellcheck source=ktap.sh
. /tests/ktap.sh

kver=$(uname -r)
skip_all=
for m in marker-example probe-example; do
	[ -n "$(find "/lib/modules/$kver" -name "$m.ko*" 2>/dev/null)" ] ||
		skip_all="$m.ko not built (CONFIG_SAMPLE_MARKERS)"
done

c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}

set_mark() { kmsg_mark; }
# said TEXT: the kernel printed TEXT since the last set_mark.
said() { kmsg_since | grep -F -q -- "$1"; }
open_fails() { ! cat /proc/marker-example; }
sequence() {
	said "Value 123, string example string" &&
		! said "Unable to"
}

ktap_begin markers_sample 14

# The documented order: markers first.
[ -z "$skip_all" ] && set_mark
c marker_first_modprobe_marker modprobe marker-example
c marker_first_modprobe_probe modprobe probe-example
c marker_first_open_fails open_fails
c marker_first_probe_called sequence
c marker_first_rmmod rmmod marker-example probe-example
c marker_first_event_b_count said "Number of event b : 10"
c marker_first_unloaded sh -c '! lsmod | grep -E "^(marker|probe)_example "'

# Probes first.
[ -z "$skip_all" ] && set_mark
c probe_first_modprobe_probe modprobe probe-example
c probe_first_modprobe_marker modprobe marker-example
c probe_first_open_fails open_fails
c probe_first_probe_called sequence
c probe_first_rmmod_marker rmmod marker-example
c probe_first_rmmod_probe rmmod probe-example
c probe_first_event_b_count said "Number of event b : 10"
ktap_end
