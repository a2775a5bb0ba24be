#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Marker events defined and enabled on the kernel command line, and the
# markers listed without debugfs (harness.only=boot-events; scripts/test.sh
# boots with):
#   debugfs=off marker_event=m:boot/,blk_*;m,blk_request_complete;
#                            m,no_such_marker;m:bad!/,x
# The block I/O of boot (the partition scan of the virtio disk) must be in
# the trace buffer before this script does any I/O, and the two bad
# commands reported by name with their errno.
# shellcheck source=ktap.sh
. /tests/ktap.sh

T=/sys/kernel/tracing

ktap_begin boot_events 6

t_debugfs_off() {
	mkdir -p /tmp/dbg
	if mount -t debugfs debugfs /tmp/dbg 2>/dev/null; then
		echo "debugfs mounted"
		umount /tmp/dbg
		return 1
	fi
	grep -w debugfs /proc/filesystems && return 1
	echo "debugfs unavailable, as booted with debugfs=off"
}
t_listing() {
	l=$(grep '^blk_request_complete ' $T/available_markers) || { cat $T/available_markers; return 1; }
	echo "$l"
	# Connected twice: the events markers/ and boot/ of the same marker.
	echo "$l" | grep -qx 'blk_request_complete sites=[1-9][0-9]* probes=marker_event_probe,marker_event_probe format="rq %p error %d bytes %u"'
}
t_defined() {
	cat $T/marker_events
	n=$(grep -c '^m:boot/blk_' $T/marker_events)
	want=$(grep -c '^blk_' $T/available_markers)
	echo "boot/ events: $n, blk_* markers: $want"
	[ "$n" = "$want" ] && [ "$n" -ge 10 ] &&
		grep -qx 'm:markers/blk_request_complete blk_request_complete "rq %p error %d bytes %u"' $T/marker_events
}
t_enabled() {
	bad=0
	for e in "$T"/events/boot/blk_*/enable "$T"/events/markers/blk_request_complete/enable; do
		[ "$(cat "$e")" = 1 ] || { echo "$e: $(cat "$e")"; bad=1; }
	done
	[ $bad = 0 ]
}
# The first event is older than the start of /init (both clocks are the
# local clock, in seconds).
# The boot's own block I/O (the partition scan of the disk) is issued by
# the kernel before /init: by PID 1 while it is still swapper/N, or by a
# kworker for an asynchronous probe. That, not the timestamps, says it was
# traced early: ftrace's clock and the console's are not comparable across
# "sched_clock: Marking stable" (one run had a boot I/O 33 ms "after"
# /init by the trace clock, 165 ms before it by the console's).
t_boot_io() {
	tr=$(cat $T/trace)
	q=$(echo "$tr" | grep -c ' blk_bio_queue: ')
	c=$(echo "$tr" | grep -c ' blk_request_complete: ')
	k=$(echo "$tr" | grep -cE '^ *(swapper/[0-9]+-1|kworker/[^ ]+-[0-9]+) .* blk_bio_queue: ')
	echo "blk_bio_queue: $q ($k by the kernel before /init), blk_request_complete: $c (x2: two events)"
	echo "$tr" | grep ' blk_bio_queue: ' | head -n 3
	echo "$tr" | grep ' blk_request_complete: ' | head -n 3
	[ "$k" -gt 0 ] && [ "$c" -gt 0 ]
}
# Without the timestamps, which would read as kernel messages in the
# console log.
t_bad_reported() {
	msgs=$(dmesg | sed -n 's/^\[[ 0-9.]*\] \(marker_events: marker_event=.*\)/\1/p')
	echo "$msgs"
	echo "$msgs" | grep -qF 'marker_event=: "m no_such_marker" failed: -2' &&
		echo "$msgs" | grep -qF 'marker_event=: "m:bad!/ x" failed: -22'
}

ktap_check_shown debugfs_unavailable t_debugfs_off
ktap_check_shown available_markers_without_debugfs t_listing
ktap_check_shown boot_events_defined t_defined
ktap_check_shown boot_events_enabled t_enabled
ktap_check_shown boot_io_traced t_boot_io
ktap_check_shown bad_boot_commands_reported t_bad_reported
ktap_end
