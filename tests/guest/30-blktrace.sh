#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# blktrace and blkparse (Debian's, of the guest's architecture, copied
# into the initramfs by tests/mkinitramfs.sh) on three block devices:
#   vda     virtio-blk, the image file scripts/run.py attaches,
#           with partition vda1, mq-deadline
#   nullb0  null_blk, completions inline (irqmode=0), 64 KiB max I/O,
#           mq-deadline
#   ram0    brd, bio based
# The same workload (direct and buffered dd of fixed sizes and offsets)
# runs traced twice: "solo" (blktrace alone) and "shared" (with
# tests/modules/blk_marker_count registered on blk_request_insert next to
# blktrace). blkparse's events are printed as "blkev RUN DEV EVENT" lines
# (blkev.sh), which scripts/blkcmp.py compares with those of the
# unpatched kernel (the same script, booted with harness.only=blktrace). Then: blktrace stopped
# and restarted while I/O is in flight, and the sysfs + ftrace "blk"
# tracer path, with the markers list checked after each.
# On a kernel without markers (the stock kernel) the cases about markers
# and the counter module skip; everything else runs the same.
# shellcheck source=ktap.sh
. /tests/ktap.sh
# shellcheck source=blkev.sh
. /tests/blkev.sh

list=/sys/kernel/debug/markers/list
ko=/lib/test-modules/blk_marker_count.ko
cnt=/sys/module/blk_marker_count/parameters
tracing=/sys/kernel/tracing
devs="vda nullb0 ram0"

skip_all=
if ! command -v blktrace >/dev/null || ! command -v blkparse >/dev/null; then
	skip_all="no blktrace/blkparse in this initramfs (tests/guest-tools)"
elif [ ! -b /dev/vda ]; then
	skip_all="no /dev/vda (scripts/run.py attaches it)"
elif [ ! -d /sys/kernel/debug/block ]; then
	skip_all="no /sys/kernel/debug/block (CONFIG_BLK_DEV_IO_TRACE?)"
fi
no_markers=
[ -r "$list" ] || no_markers="no $list: kernel without markers"
[ -z "$no_markers" ] && [ ! -f "$ko" ] && no_markers="blk_marker_count.ko not built"

c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}
# d CMD...: show what CMD prints as diagnostics (the figures of a case
# that passed, which ktap_check does not show).
d() {
	[ -n "$skip_all" ] && return
	"$@" 2>&1 | while IFS= read -r _l; do ktap_diag "$_l"; done
}
# m NAME CMD...: a case about markers, skipped on a kernel without them.
m() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	if [ -n "$no_markers" ]; then ktap_skip "$1" "$no_markers"; return; fi
	ktap_check "$@"
}

kmsg_mark
dmesg_clean() {
	! kmsg_since |
		grep -E 'WARNING:|Oops|BUG:|Call Trace:|general protection|blktrace: cannot'
}

# probes LIST INSERT OTHER: in the markers list LIST, every blk_* marker
# calls OTHER probes, but blk_request_insert, which calls INSERT; each is
# armed iff it calls any.
probes() {
	_l=$(grep '^blk_' "$1")
	shift
	[ -n "$_l" ] || { echo "no blk_* marker listed"; return 1; }
	_bad=$(printf '%s\n' "$_l" | awk -v i="$1" -v o="$2" '{
		p = ($1 == "blk_request_insert") ? i : o
		if ($2 != "state=" (p > 0) || $3 != "probes=" p) print }')
	[ -z "$_bad" ] || { echo "expected $1 / $2 probe(s):"; printf '%s\n' "$_bad"; return 1; }
}

setup_devices() {
	modprobe null_blk nr_devices=1 gb=1 irqmode=0 max_sectors=128 || return 1
	modprobe brd rd_nr=1 rd_size=16384 || return 1
	for _d in $devs; do
		[ -b "/dev/$_d" ] || { echo "no /dev/$_d"; return 1; }
	done
}
schedulers() {
	for _d in vda nullb0; do
		echo mq-deadline > /sys/block/$_d/queue/scheduler || return 1
		grep -q '\[mq-deadline\]' /sys/block/$_d/queue/scheduler || return 1
	done
	# Only the workload's fsyncs write back: the flusher, woken that
	# long after a device's pages are first dirtied, would race with
	# them. (0 would wake it at once, not never.)
	echo 360000 > /proc/sys/vm/dirty_writeback_centisecs
}

# The workload: one I/O in flight at a time on vda (whose completions
# QEMU may reorder), splits and merges on null_blk, which completes
# inline; each dd waits for its I/O.
workload() {
	# vda: direct writes and reads, a write through partition vda1
	# (remap), buffered writes merged into one request then fsync
	# (flush), buffered read (readahead).
	ddq if=/dev/zero of=/dev/vda bs=4k count=1 seek=100 oflag=direct conv=notrunc
	ddq if=/dev/zero of=/dev/vda bs=64k count=2 seek=20 oflag=direct conv=notrunc
	ddq if=/dev/vda of=/dev/null bs=8k count=3 skip=40 iflag=direct
	ddq if=/dev/zero of=/dev/vda1 bs=4k count=2 seek=5 oflag=direct conv=notrunc
	ddq if=/dev/zero of=/dev/vda bs=4k count=16 seek=512 conv=notrunc,fsync
	ddq if=/dev/vda of=/dev/null bs=4k count=4 skip=1024
	# nullb0: a 256 KiB direct write split in four, reads, buffered
	# writes merged then fsync.
	ddq if=/dev/zero of=/dev/nullb0 bs=256k count=1 seek=4 oflag=direct conv=notrunc
	ddq if=/dev/nullb0 of=/dev/null bs=4k count=2 skip=100 iflag=direct
	ddq if=/dev/zero of=/dev/nullb0 bs=4k count=8 seek=2048 conv=notrunc,fsync
	# ram0 (bio based): direct and buffered.
	ddq if=/dev/zero of=/dev/ram0 bs=4k count=2 seek=8 oflag=direct conv=notrunc
	ddq if=/dev/ram0 of=/dev/null bs=8k count=1 skip=4 iflag=direct
	ddq if=/dev/zero of=/dev/ram0 bs=4k count=4 seek=64 conv=notrunc,fsync
	sync
}

# trace_run's hooks (blkev.sh): the markers list and the counter
# module's inserts while a run traces.
trace_before() {
	[ -z "$no_markers" ] && cp "$list" "$2/markers.during"
	[ -d "$cnt" ] && cat "$cnt/inserts" > "$2/inserts.before"
	return 0
}
trace_after() {
	[ -d "$cnt" ] && cat "$cnt/inserts" > "$2/inserts.after"
	return 0
}

# probes_during RUN INSERT OTHER: the markers list while RUN traced.
probes_during() { probes "$work/$1/markers.during" "$2" "$3"; }
counter_matches() {
	_dir=$work/$1
	_got=$(($(cat "$_dir/inserts.after") - $(cat "$_dir/inserts.before")))
	_want=$(cat "$_dir"/*.events | grep -c '^I ')
	echo "blk_marker_count: $_got insert(s), blkparse: $_want I event(s), bad: $(cat "$cnt/bad")"
	[ "$_got" = "$_want" ] && [ "$_want" -gt 0 ] && [ "$(cat "$cnt/bad")" = 0 ]
}
same_events() {
	for _d in $devs; do
		cmp "$work/$1/$_d.events" "$work/$2/$_d.events" || {
			diff "$work/$1/$_d.events" "$work/$2/$_d.events" | head -n 20
			return 1
		}
	done
}

# Start blktrace on vda, start a writer, and stop blktrace while the
# writer's I/O is in flight; three times. The writer issues 1 MiB direct
# writes: the requests spend their time in the device (QEMU), not on the
# CPUs. (Under QEMU's multi-threaded TCG, patching code that another vCPU
# keeps executing has been seen to leave that vCPU on a stale copy with
# the INT3 of text_poke_bp(): on the stock kernel too, with the block
# tracepoints' jump labels. That is not what this tests.)
# blktrace reads its buffers until they are empty before it stops the
# trace, so it only stops once the writer is done.
restart_during_io() {
	_ret=0 _i=0 _inflight=0
	while [ $_i -lt 3 ]; do
		rm -rf $work/td
		mkdir -p $work/td
		blktrace -d /dev/vda -D $work/td >$work/td.out 2>&1 </dev/null &
		_pid=$!
		sleep 1
		# 8192 direct 4 KiB writes: long enough to be in flight at the
		# stop even on a fast host (16 MiB in 1 MiB writes was not).
		ddq if=/dev/zero of=/dev/vda bs=4k count=8192 seek=4096 oflag=direct conv=notrunc \
			>/dev/null 2>&1 &
		_dd=$!
		sleep 0.1
		kill -0 $_dd 2>/dev/null && _inflight=$((_inflight + 1))
		stop_blktrace $_pid || { cat $work/td.out; _ret=1; }
		wait $_dd
		_i=$((_i + 1))
	done
	echo "blktrace stopped $_inflight time(s) out of 3 during a write"
	[ $_inflight -gt 0 ] || _ret=1
	return $_ret
}

no_trace_left() {
	for _d in $devs; do
		[ "$(cat "/sys/block/$_d/trace/enable")" = 0 ] || { echo "$_d still traced"; return 1; }
	done
}
counted() {
	echo "inserts=$(cat "$cnt/inserts") bad=$(cat "$cnt/bad")"
	[ "$(cat "$cnt/inserts")" -gt 0 ] && [ "$(cat "$cnt/bad")" = 0 ]
}

# The sysfs switch and the ftrace "blk" tracer.
ftrace_events() {
	echo blk > $tracing/current_tracer || return 1
	echo > $tracing/trace
	ddq if=/dev/zero of=/dev/nullb0 bs=4k count=1 seek=300 oflag=direct conv=notrunc
	_t=$(grep -v '^#' $tracing/trace)
	echo nop > $tracing/current_tracer
	printf '%s\n' "$_t" | head -n 8
	printf '%s\n' "$_t" | grep -q ' Q  *WS* 2400 + 8 ' &&
		printf '%s\n' "$_t" | grep -q ' C  *WS* 2400 + 8 '
}

# one_batch B0 B1 B2 B3: immediate values batches before and after the
# first trace was set up (blktrace's probes connected to its markers), and
# before and after the last one was removed: one batch each, for all the
# markers (marker_batch_begin() in blk_register_markers()).
one_batch() {
	echo "batches: connecting $(($2 - $1)), disconnecting $(($4 - $3))"
	[ $(($2 - $1)) = 1 ] && [ $(($4 - $3)) = 1 ]
}

ktap_begin blktrace 30

c tools_run sh -c 'blktrace -V && blkparse -V'
c devices_set_up setup_devices
c schedulers_mq_deadline schedulers
c partition_vda1 test -b /dev/vda1

[ -z "$skip_all" ] && trace_run solo
c solo_trace_started started solo
m solo_probes_connected probes_during solo 1 1
c solo_events_recorded recorded solo
d recorded solo
c solo_no_drops no_drops solo

m shared_insmod_counter insmod "$ko"
[ -z "$skip_all" ] && trace_run shared
c shared_trace_started started shared
m shared_probes_connected probes_during shared 2 1
c shared_events_recorded recorded shared
c shared_no_drops no_drops shared
m shared_counter_matches counter_matches shared
[ -z "$no_markers" ] && d counter_matches shared
m shared_rmmod_counter rmmod blk_marker_count
c solo_shared_same_events same_events solo shared

m teardown_insmod_attached insmod "$ko" attach=1
m teardown_restart_during_io restart_during_io
c teardown_no_trace_left no_trace_left
m teardown_counter_still_connected probes "$list" 1 0
m teardown_counter_counted counted
m teardown_rmmod_attached rmmod blk_marker_count
m teardown_no_probe_left probes "$list" 0 0

b0=$(immediate_stat batches)
c sysfs_enable sh -c 'echo 1 > /sys/block/nullb0/trace/enable'
b1=$(immediate_stat batches)
m sysfs_probes_connected probes "$list" 1 1
c sysfs_ftrace_blk_tracer ftrace_events
b2=$(immediate_stat batches)
c sysfs_disable sh -c 'echo 0 > /sys/block/nullb0/trace/enable'
b3=$(immediate_stat batches)
m sysfs_markers_one_batch one_batch "$b0" "$b1" "$b2" "$b3"
m sysfs_no_probe_left probes "$list" 0 0
c dmesg_clean dmesg_clean
ktap_end
