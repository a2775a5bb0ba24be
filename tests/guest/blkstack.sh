#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# blktrace and blkparse on the stacked block drivers that remap and split
# bios, with Debian's dmsetup and mdadm, on null_blk devices:
#   dm-0  dm-linear over nullb0 (offset 2048)
#   dm-1  dm-striped over nullb1 and nullb2, 64 KiB chunks
#   dm-2  dm-multipath (request based) over nullb3
#   md0   raid1 over nullb4 and nullb5    (mdadm --build: no superblock,
#   md1   raid0 over nullb6 and nullb7     so no metadata writes at
#   md2   linear over nullb8 and nullb9    times of md's choosing)
#   nvme0n1  NVMe multipath head: QEMU's nvme-subsys, two controllers
#            (scripts/run.py --nvme-paths 2); its paths nvme0c0n1 and
#            nvme0c1n1 are hidden disks without a device number, which
#            blktrace(8) cannot open: they are traced by the same kernel
#            code through the ftrace "blk" tracer (sysfs trace/enable),
#            their events printed as device "nvme-paths"
#   nbq      null_blk made through configfs, whose requeue fault
#            injection requeues one request ("R")
# The same workload runs on the patched and the stock kernel, booted with
# harness.only=blkstack; scripts/blkcmp.py compares the blkev lines of
# both (blkev.sh): every device's sequence, with the remap origins ("A")
# and unplug depths ("U").
# Not made here: bounces ("B": only 32-bit highmem with a queue that
# needs them; no such device in QEMU).
# shellcheck source=ktap.sh
. /tests/ktap.sh
# shellcheck source=blkev.sh
. /tests/blkev.sh

list=/sys/kernel/debug/markers/list
tracing=/sys/kernel/tracing
paths="nvme0c0n1 nvme0c1n1"
nbq=/sys/kernel/config/nullb/nbq
# One blktrace run per group, RUN:DEVICES, stacked devices first
# (blkev.sh, sentinels): one blktrace over all 18 devices at once lost
# the last events of some of them (each run of 30-blktrace.sh traces 3).
groups="lin:dm-0,nullb0 str:dm-1,nullb1,nullb2 mp:dm-2,nullb3 raid1:md0,nullb4,nullb5
	raid0:md1,nullb6,nullb7 linear:md2,nullb8,nullb9 nvme:nvme0n1 requeue:nbq"
alldevs=$(for g in $groups; do echo "${g#*:}"; done | tr ',\n' '  ')
export DM_DISABLE_UDEV=1

skip_all=
for t in blktrace blkparse dmsetup mdadm aio-desc; do
	command -v $t >/dev/null || skip_all="no $t in this initramfs (tests/guest-tools)"
done
no_markers=
[ -r "$list" ] || no_markers="no $list: kernel without markers"

c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}
m() {
	if [ -n "$no_markers" ]; then ktap_skip "$1" "$no_markers"; return; fi
	s "$@"
}
# s NAME CMD...: a case that needs the devices (devices_set_up failed:
# it fails too, without running).
s() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	[ "$set_up" = 0 ] || { ktap_fail "$1" "the devices could not be set up"; return; }
	ktap_check "$@"
}

kmsg_mark
dmesg_clean() {
	! kmsg_since | grep -E 'WARNING:|Oops|BUG:|Call Trace:|general protection|blktrace: cannot'
}

# dm_is NAME DEV: device-mapper device NAME is DEV (dm-N).
dm_is() {
	[ "$(cat "/sys/block/$2/dm/name" 2>/dev/null)" = "$1" ] ||
		{ echo "$2 is not $1: $(cat "/sys/block/$2/dm/name" 2>&1)"; return 1; }
}

setup_devices() {
	modprobe null_blk nr_devices=10 gb=1 irqmode=0 max_sectors=128 || return 1
	mkdir -p /sys/kernel/config
	grep -q ' /sys/kernel/config ' /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config || return 1
	mkdir "$nbq" || return 1
	echo 1024 > "$nbq/size" && echo 0 > "$nbq/irqmode" && echo 128 > "$nbq/max_sectors" &&
		echo 1 > "$nbq/power" || return 1
	modprobe dm-mod && modprobe dm-multipath && modprobe dm-round-robin || return 1
	dmsetup create lin --table "0 65536 linear /dev/nullb0 2048" &&
		dmsetup create str --table "0 65536 striped 2 128 /dev/nullb1 0 /dev/nullb2 0" &&
		dmsetup create mp --table "0 65536 multipath 0 0 1 1 round-robin 0 1 1 /dev/nullb3 1" ||
		return 1
	dm_is lin dm-0 && dm_is str dm-1 && dm_is mp dm-2 || return 1
	mdadm --build /dev/md0 --level=1 --raid-devices=2 --assume-clean /dev/nullb4 /dev/nullb5 &&
		mdadm --build /dev/md1 --level=0 --chunk=64 --raid-devices=2 /dev/nullb6 /dev/nullb7 &&
		mdadm --build /dev/md2 --level=linear --raid-devices=2 /dev/nullb8 /dev/nullb9 ||
		return 1
	# One controller after the other: probed together, they race for
	# the subsystem's number and the disks' minors, which the remap
	# events name.
	echo 0 > /sys/bus/pci/drivers_autoprobe
	modprobe nvme
	_rc=$?
	echo 1 > /sys/bus/pci/drivers_autoprobe
	[ $_rc = 0 ] || return 1
	_i=0
	for _p in /sys/bus/pci/devices/*; do
		[ "$(cat "$_p/class")" = 0x010802 ] || continue
		echo "${_p##*/}" > /sys/bus/pci/drivers/nvme/bind || return 1
		wait_path -e "/sys/block/nvme0c${_i}n1/trace" ||
			{ echo "no nvme0c${_i}n1:" /sys/block/nvme*; return 1; }
		_i=$((_i + 1))
	done
	for _d in $alldevs; do
		wait_path -b "/dev/$_d" || { echo "no /dev/$_d"; return 1; }
	done
	# No resync in flight: it would add I/O at times of md's choosing.
	! grep -E 'resync|recovery' /proc/mdstat
}

# Both controllers in the head's subsystem, which multipaths them.
nvme_multipath() {
	_s=/sys/class/nvme-subsystem/nvme-subsys0
	_c=
	for _p in "$_s"/nvme*; do
		case ${_p##*/} in nvme*n*) ;; *) _c="$_c ${_p##*/}" ;; esac
	done
	echo "controllers:$_c; iopolicy $(cat "$_s/iopolicy" 2>&1)"
	[ "$_c" = " nvme0 nvme1" ] && [ -e "$_s/nvme0n1" ]
}

schedulers() {
	for _d in nullb0 nullb1 nullb2 nullb4 nullb6 nullb8 nbq; do
		echo mq-deadline > /sys/block/$_d/queue/scheduler || return 1
	done
	echo 360000 > /proc/sys/vm/dirty_writeback_centisecs
}

# After the sentinels of the requeue run: requeue the next request of
# nbq, once.
trace_before() {
	[ -z "$no_markers" ] && cp "$list" "$2/markers.during"
	[ "$1" = requeue ] || return 0
	echo 0 > "$nbq/requeue_inject/verbose" &&
		echo 1 > "$nbq/requeue_inject/interval" &&
		echo 1 > "$nbq/requeue_inject/times" &&
		echo 100 > "$nbq/requeue_inject/probability"
}

# paths_run RUN: the NVMe paths traced by the ftrace "blk" tracer while
# the workload of one stacked device runs on their head.  Not during
# blktrace(8): with the blk tracer on, every trace goes to ftrace's
# buffer.  Events printed as blkev.sh prints blktrace's: the fields after
# the device number, without command names.
paths_run() {
	_dir=$work/$1
	mkdir -p "$_dir"
	echo blk > $tracing/current_tracer && echo > $tracing/trace || return 1
	for _p in $paths; do echo 1 > "/sys/block/$_p/trace/enable" || return 1; done
	stacked_io nvme0n1
	for _p in $paths; do echo 0 > "/sys/block/$_p/trace/enable"; done
	grep -v '^#' $tracing/trace | blkev_norm 0 > "$_dir/nvme-paths.events"
	echo nop > $tracing/current_tracer
	sed "s/^/blkev $1 nvme-paths /" "$_dir/nvme-paths.events"
	echo "blkev-count $1 nvme-paths $(wc -l < "$_dir/nvme-paths.events")"
}
# paths_traced: the paths' trace has the remaps from the head.
paths_traced() {
	echo "nvme-paths: $(wc -l < "$work/paths/nvme-paths.events") event(s):" \
		"$(awk '{print $1}' "$work/paths/nvme-paths.events" | sort -u | tr '\n' ' ')"
	grep -q '^A ' "$work/paths/nvme-paths.events"
}

# The workload, one I/O at a time, on every stacked device: a direct 4
# KiB write, a direct 128 KiB write over a 64 KiB chunk boundary (split),
# a direct read, buffered writes merged then fsync (plug, unplug, flush);
# on md2, buffered writes over the boundary between its members; four
# writes in one io_submit(), last block first (front merges); one write
# to nbq (requeue).
# io ARGS: dd ARGS, then a pause: dm-multipath traces the end of its
# original request ("C NS") after the submitter has been woken, and the
# submitter's next I/O could otherwise be traced before it.
io() {
	ddq "$@"
	sleep 0.1
}
stacked_io() {
	io if=/dev/zero of="/dev/$1" bs=4k count=1 seek=100 oflag=direct conv=notrunc
	io if=/dev/zero of="/dev/$1" bs=128k count=1 seek=1 oflag=direct conv=notrunc
	io if="/dev/$1" of=/dev/null bs=8k count=1 skip=20 iflag=direct
	io if="/dev/$1" of=/dev/null bs=8k count=1 skip=21 iflag=direct
	io if=/dev/zero of="/dev/$1" bs=4k count=16 seek=512 conv=notrunc,fsync
}
workload() {
	case $1 in
	lin)	stacked_io dm-0
		aio-desc /dev/dm-0 2000 4
		aio-desc /dev/nullb0 3000 4 ;;
	str)	stacked_io dm-1 ;;
	mp)	stacked_io dm-2 ;;
	raid1)	stacked_io md0 ;;
	raid0)	stacked_io md1 ;;
	# md2's members are 1 GiB each: 32 KiB on either side.
	linear)	stacked_io md2
		ddq if=/dev/zero of=/dev/md2 bs=4k count=16 seek=262136 conv=notrunc,fsync ;;
	nvme)	stacked_io nvme0n1 ;;
	requeue) ddq if=/dev/zero of=/dev/nbq bs=4k count=1 seek=7 oflag=direct conv=notrunc ;;
	esac
}

# each CHECK: CHECK RUN over every group, with its devices as $devs.
each() {
	_rc=0
	for _g in $groups; do
		devs=$(echo "${_g#*:}" | tr , ' ')
		"$1" "${_g%%:*}" || _rc=1
	done
	return $_rc
}

# requeued: the fault was injected (times went from 1 to 0).
requeued() {
	echo "requeue_inject/times: $(cat "$nbq/requeue_inject/times")"
	[ "$(cat "$nbq/requeue_inject/times")" = 0 ]
}
# remap_markers_armed: while tracing, each of the remap and split
# markers was listed with blktrace's probe.
remap_markers_armed() {
	_l=$(grep -E '^blk_(remap|request_remap|pdu_split|pdu_unplug) ' "$work/lin/markers.during")
	printf '%s\n' "$_l"
	[ "$(printf '%s\n' "$_l" | awk '{print $1}' | sort -u | wc -l)" = 4 ] &&
		[ -z "$(printf '%s\n' "$_l" | awk '$3 != "probes=1"')" ]
}

teardown() {
	for _n in lin str mp; do dmsetup remove "$_n" || return 1; done
	for _m in md0 md1 md2; do mdadm --stop "/dev/$_m" || return 1; done
	rmdir "$nbq"
}
no_trace_left() {
	for _d in $alldevs; do
		[ "$(cat "/sys/block/$_d/trace/enable")" = 0 ] || { echo "$_d still traced"; return 1; }
	done
}

ktap_begin blkstack 13

c tools_run sh -c 'dmsetup --version && mdadm --version && blktrace -V'
c devices_set_up setup_devices
set_up=$ktap_failed
s nvme_two_paths nvme_multipath
s schedulers_mq_deadline schedulers
[ -z "$skip_all" ] && [ "$set_up" = 0 ] && each trace_run
s trace_started each started
s events_recorded each recorded
s no_drops each no_drops
[ -z "$skip_all" ] && [ "$set_up" = 0 ] && paths_run paths
s nvme_paths_traced paths_traced
s request_requeued requeued
m remap_markers_armed remap_markers_armed
s no_trace_left no_trace_left
c teardown teardown
c dmesg_clean dmesg_clean
ktap_end
