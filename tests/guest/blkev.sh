# SPDX-License-Identifier: GPL-2.0
# blktrace runs whose events scripts/blkcmp.py compares between the
# patched and the stock kernel (POSIX sh, sourced after ktap.sh by
# 30-blktrace.sh and blkstack.sh).
#
#   trace_run RUN     blktrace over every device of $devs (kernel names,
#                     /dev/NAME) into $work/RUN, running the caller's
#                     function "workload RUN"; then prints each device's
#                     events as "blkev RUN DEV EVENT" lines and a
#                     "blkev-count RUN DEV N" line
#   started RUN       blktrace exited 0, recorded sentinels everywhere,
#                     and the workload's I/O was over before it stopped
#   recorded RUN      every device has events (their actions shown)
#   no_drops RUN      blktrace dropped nothing
#   stop_blktrace PID SIGINT, as a user would; fails after 60 s
#   ddq ARGS          dd, quiet
#   wait_path OP PATH up to 30 s until "test OP PATH" holds
#   blkev_norm SKIP   filter: trace lines (blkparse's, or the ftrace blk
#                     tracer's) to EVENTs; SKIP: fields between the
#                     device number and the action (blkparse: 4)
#
# EVENT is blkparse's default line without its volatile columns (device,
# CPU, sequence, time, PID) and without the command names in brackets:
# action, RWBS, then the action's own fields, e.g. "Q W 2048 + 8",
# "A W 4096 + 8 <- (253,0) 2048" (remap: origin device and sector),
# "U N 1" (unplug: depth), "C W 2048 + 8 [0]" (completion: error).
#
# Until blktrace has started (BLKTRACESTART), I/O is not recorded: before
# the workload, sentinel reads (one 4 KiB block, $sentinel_blk, that no
# workload touches) go to every device of $devs in that order, eight
# times; every event of a device up to its last sentinel is dropped.  So
# list stacked devices before the devices under them: the I/O a read of
# the upper device sends down then comes before the lower device's own
# sentinel.
# Optional hooks of the caller: trace_before RUN DIR (after the
# sentinels) and trace_after RUN DIR (after the workload's I/O is over).

# shellcheck disable=SC2154 # $devs: set by the script that sources this
sentinel_blk=3750
sentinel=$((sentinel_blk * 8))
work=/tmp/blktrace

ddq() { dd "$@" 2>/dev/null; }

wait_path() {
	_w=0
	while ! test "$1" "$2" && [ $_w -lt 300 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	test "$1" "$2"
}

blkev_norm() {
	awk -v skip="$1" '{
		for (i = 1; i <= NF && $i !~ /^[0-9]+,[0-9]+$/; i++)
			;
		a = i + skip + 1
		if (a + 1 > NF)
			next
		l = $a " " $(a + 1)
		for (j = a + 2; j <= NF; j++)
			if ($j !~ /^\[/ || $j ~ /^\[-?[0-9]+\]$/)
				l = l " " $j
		print l }'
}

# stop_blktrace PID: SIGINT, as a user would stop it; blktrace then drains
# its buffers and writes its files. Fails (and kills it) if it is still
# there after 60 s.
stop_blktrace() {
	kill -INT "$1"
	_w=0
	while kill -0 "$1" 2>/dev/null && [ $_w -lt 600 ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		echo "blktrace $1 still running 60 s after SIGINT"
		kill -KILL "$1"
		wait "$1"
		return 1
	fi
	wait "$1"
}

# quiesce DIR: wait (at most 30 s) until no request is in flight on any
# of the devices: readahead is asynchronous, and its completions must be
# in the trace.
quiesce() {
	_w=0
	while [ $_w -lt 300 ]; do
		_n=0
		for _d in $devs; do
			_n=$((_n + $(awk '{print $1 + $2}' "/sys/block/$_d/inflight")))
		done
		[ $_n = 0 ] && return 0
		sleep 0.1
		_w=$((_w + 1))
	done
	echo "I/O still in flight after 30 s" > "$1/quiesce.failed"
}

# blkev_events DIR DEV: DEV's blkparse output, normalised (see above),
# into DIR/DEV.all, and everything after its last sentinel event into
# DIR/DEV.events.
blkev_events() {
	blkparse -q -D "$1" -i "$2" -o "$1/$2.raw" >"$1/$2.blkparse.out" 2>&1
	blkev_norm 4 <"$1/$2.raw" >"$1/$2.all"
	awk -v s=$sentinel '{ l[NR] = $0; if ($3 == s) last = NR }
		END { for (i = last + 1; last && i <= NR; i++) print l[i] }' \
		"$1/$2.all" >"$1/$2.events"
	grep -c " $sentinel " "$1/$2.all" >"$1/$2.sentinels"
}

trace_run() {
	_dir=$work/$1
	rm -rf "$_dir"
	mkdir -p "$_dir"
	echo 3 > /proc/sys/vm/drop_caches
	_args=
	for _d in $devs; do _args="$_args -d /dev/$_d"; done
	# shellcheck disable=SC2086
	blktrace $_args -D "$_dir" >"$_dir/blktrace.out" 2>&1 &
	_pid=$!
	for _d in $devs; do wait_path -e "/sys/kernel/debug/block/$_d/trace0"; done
	_i=0
	while [ $_i -lt 8 ]; do
		for _d in $devs; do
			ddq if="/dev/$_d" of=/dev/null bs=4k count=1 skip=$sentinel_blk iflag=direct
		done
		sleep 0.2
		_i=$((_i + 1))
	done
	command -v trace_before >/dev/null && trace_before "$1" "$_dir"
	workload "$1"
	quiesce "$_dir"
	command -v trace_after >/dev/null && trace_after "$1" "$_dir"
	stop_blktrace $_pid > "$_dir/blktrace.stop" 2>&1
	echo $? > "$_dir/blktrace.rc"
	for _d in $devs; do
		blkev_events "$_dir" "$_d"
		# For scripts/blkcmp.py (compared with the stock kernel).
		sed "s/^/blkev $1 $_d /" "$_dir/$_d.events"
		echo "blkev-count $1 $_d $(wc -l < "$_dir/$_d.events")"
	done
}

started() {
	_dir=$work/$1
	[ -e "$_dir/quiesce.failed" ] && { cat "$_dir/quiesce.failed"; return 1; }
	cat "$_dir/blktrace.stop"
	sed 's/^/blktrace exit status: /' "$_dir/blktrace.rc"
	[ "$(cat "$_dir/blktrace.rc")" = 0 ] || return 1
	_rc=0
	for _d in $devs; do
		_n=$(cat "$_dir/$_d.sentinels")
		echo "$_d: $_n sentinel event(s) traced"
		[ "$_n" -gt 0 ] || { tail -n 5 "$_dir/$_d.all"; _rc=1; }
	done
	[ $_rc = 0 ] || head -n 20 "$_dir/blktrace.out"
	return $_rc
}

recorded() {
	_rc=0
	for _d in $devs; do
		_n=$(wc -l < "$work/$1/$_d.events")
		echo "$_d: $_n event(s): $(awk '{print $1}' "$work/$1/$_d.events" | sort -u | tr '\n' ' ')"
		[ "$_n" -gt 0 ] || { tail -n 5 "$work/$1/$_d.all"; _rc=1; }
	done
	return $_rc
}

no_drops() {
	grep -i 'dropped' "$work/$1/blktrace.out"
	! grep -i -E 'dropped [1-9]|You have [1-9]' "$work/$1/blktrace.out"
}
