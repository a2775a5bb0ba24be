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
#            (scripts/run.py --nvme-paths 2)
#   nullb10  null_blk made through configfs, whose requeue fault
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
nbq=/sys/kernel/config/nullb/nbq
# Stacked devices before the devices under them (blkev.sh, sentinels).
devs="dm-0 dm-1 dm-2 md0 md1 md2 nvme0n1 nullb0 nullb1 nullb2 nullb3 nullb4 nullb5 nullb6 nullb7 nullb8 nullb9 nullb10"
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
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	if [ -n "$no_markers" ]; then ktap_skip "$1" "$no_markers"; return; fi
	ktap_check "$@"
}

kmsg_mark
dmesg_clean() {
	! kmsg_since | grep -E 'WARNING:|Oops|BUG:|Call Trace:|general protection|blktrace: cannot'
}

# wait_dev NAME: up to 30 s for /dev/NAME.
wait_dev() {
	_w=0
	while [ ! -b "/dev/$1" ] && [ $_w -lt 300 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	[ -b "/dev/$1" ] || { echo "no /dev/$1"; return 1; }
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
	[ "$(cat "$nbq/index")" = 10 ] || { echo "configfs null_blk is nullb$(cat "$nbq/index")"; return 1; }
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
	modprobe nvme || return 1
	for _d in $devs; do wait_dev "$_d" || return 1; done
	# No resync in flight: it would add I/O at times of md's choosing.
	! grep -E 'resync|recovery' /proc/mdstat
}

# Two controllers behind the head, and the head multipathed.
nvme_multipath() {
	set -- /sys/block/nvme0n1/multipath/*
	echo "nvme0n1 paths: $*"
	[ $# = 2 ] && [ -e "$2" ]
}

schedulers() {
	for _d in nullb0 nullb1 nullb2 nullb4 nullb6 nullb8 nullb10; do
		echo mq-deadline > /sys/block/$_d/queue/scheduler || return 1
	done
	echo 360000 > /proc/sys/vm/dirty_writeback_centisecs
}

# After the sentinels: requeue the next request of nullb10, once.
trace_before() {
	[ -z "$no_markers" ] && cp "$list" "$2/markers.during"
	echo 0 > "$nbq/requeue_inject/verbose" &&
		echo 1 > "$nbq/requeue_inject/interval" &&
		echo 1 > "$nbq/requeue_inject/times" &&
		echo 100 > "$nbq/requeue_inject/probability"
}

# The workload, one I/O at a time, on every stacked device: a direct 4
# KiB write, a direct 128 KiB write over a 64 KiB chunk boundary (split),
# a direct read, buffered writes merged then fsync (plug, unplug, flush);
# on md2, buffered writes over the boundary between its members; four
# writes in one io_submit(), last block first (front merges); one write
# to nullb10 (requeue).
workload() {
	for _d in dm-0 dm-1 dm-2 md0 md1 md2 nvme0n1; do
		ddq if=/dev/zero of=/dev/$_d bs=4k count=1 seek=100 oflag=direct conv=notrunc
		ddq if=/dev/zero of=/dev/$_d bs=128k count=1 seek=1 oflag=direct conv=notrunc
		ddq if=/dev/$_d of=/dev/null bs=8k count=2 skip=20 iflag=direct
		ddq if=/dev/zero of=/dev/$_d bs=4k count=16 seek=512 conv=notrunc,fsync
	done
	# md2's members are 1 GiB each: 32 KiB on either side.
	ddq if=/dev/zero of=/dev/md2 bs=4k count=16 seek=262136 conv=notrunc,fsync
	aio-desc /dev/dm-0 2000 4
	aio-desc /dev/nullb0 3000 4
	ddq if=/dev/zero of=/dev/nullb10 bs=4k count=1 seek=7 oflag=direct conv=notrunc
	sync
}

# requeued: the fault was injected (times went from 1 to 0).
requeued() {
	echo "requeue_inject/times: $(cat "$nbq/requeue_inject/times")"
	[ "$(cat "$nbq/requeue_inject/times")" = 0 ]
}
# remap_markers_armed: while tracing, the remap and split markers had
# blktrace's probe.
remap_markers_armed() {
	grep -E '^blk_(remap|request_remap|pdu_split|pdu_unplug) ' "$work/stack/markers.during"
	! grep -E '^blk_(remap|request_remap|pdu_split|pdu_unplug) ' "$work/stack/markers.during" |
		grep -v 'probes=1'
}

teardown() {
	for _n in lin str mp; do dmsetup remove "$_n" || return 1; done
	for _m in md0 md1 md2; do mdadm --stop "/dev/$_m" || return 1; done
	rmdir "$nbq"
}
no_trace_left() {
	for _d in nvme0n1 nullb0 nullb3 nullb10; do
		[ "$(cat "/sys/block/$_d/trace/enable")" = 0 ] || { echo "$_d still traced"; return 1; }
	done
}

ktap_begin blkstack 12

c tools_run sh -c 'dmsetup --version && mdadm --version && blktrace -V'
c devices_set_up setup_devices
c nvme_two_paths nvme_multipath
c schedulers_mq_deadline schedulers
[ -z "$skip_all" ] && trace_run stack
c trace_started started stack
c events_recorded recorded stack
c no_drops no_drops stack
c request_requeued requeued
m remap_markers_armed remap_markers_armed
c no_trace_left no_trace_left
c teardown teardown
c dmesg_clean dmesg_clean
ktap_end
