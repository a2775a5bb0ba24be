#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input to the user-facing files (the API's is the KUnit suite
# markers_bad_input of kernel/marker_test.c, run at boot):
# /sys/kernel/debug/markers/list and any writable
# markers control file, with malformed and huge writes and concurrent
# readers and writers.
#
# Control files: every writable file under /sys/kernel/debug/markers/ and
# /sys/kernel/tracing/markers/ (or named /sys/kernel/tracing/markers*), and
# /sys/kernel/tracing/marker_events, are
# fuzzed by fuzz_control below; a new control file gets covered by being
# there.  Each malformed write must fail, and the kernel stay clean.
# shellcheck source=ktap.sh
. /tests/ktap.sh
t0=$(cut -d. -f1 /proc/uptime)

ko=/lib/test-modules
list=/sys/kernel/debug/markers/list
tmp=/tmp/badinput
mkdir -p $tmp

skip_all=
if [ ! -r "$list" ]; then
	skip_all="no $list (kernel without CONFIG_MARKERS?)"
fi

c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}

kmsg_mark
new_dmesg() { kmsg_since; }

LINE_RE='^[A-Za-z0-9_]+ state=[01] probes=[0-9]+ module=[A-Za-z0-9_]+ site=[^ ]+ format=".*"$'

# list_wellformed [ID]: every line of a read of the list is well-formed,
# and there is at least one (ID: a file name of its own per reader).
list_wellformed() {
	_f=$tmp/l.${1:-0}
	cat $list > "$_f" || return 1
	[ -s "$_f" ] || { echo "empty list"; return 1; }
	if grep -v -E "$LINE_RE" "$_f"; then echo "malformed line(s) above"; return 1; fi
	rm -f "$_f"
}

# must_fail WHAT CMD...: CMD must exit non-zero.
must_fail() {
	_w=$1
	shift
	if "$@" 2>/dev/null; then echo "$_w: accepted"; return 1; fi
	return 0
}

# Reads with tiny buffers and past the end give the same bytes.
small_reads() {
	cat $list > $tmp/a
	dd if=$list bs=1 2>/dev/null > $tmp/b
	dd if=$list bs=7 2>/dev/null > $tmp/c
	cmp $tmp/a $tmp/b && cmp $tmp/a $tmp/c || return 1
	[ -z "$(dd if=$list bs=1 skip=100000000 count=1 2>/dev/null)" ]
}

# Readers and writers at once, while a module with markers comes and goes.
concurrent() {
	: > $tmp/run
	rm -f $tmp/errors
	for r in 1 2 3; do
		( while [ -e $tmp/run ]; do
			list_wellformed $r >> $tmp/errors 2>&1 || echo "reader $r: bad read" >> $tmp/errors
		  done ) &
	done
	for w in 1 2; do
		( while [ -e $tmp/run ]; do
			( echo garbage > $list ) 2>/dev/null && echo "writer $w: accepted" >> $tmp/errors
			dd if=/dev/urandom bs=4096 count=4 of=$list 2>/dev/null && echo "writer $w: dd accepted" >> $tmp/errors
		  done ) &
	done
	n=0
	while [ $n -lt 10 ]; do
		insmod $ko/marker_site.ko && rmmod marker_site || echo "marker_site cycle $n failed" >> $tmp/errors
		n=$((n + 1))
	done
	sleep 2
	rm -f $tmp/run
	wait
	[ ! -s $tmp/errors ] || { head -20 $tmp/errors; return 1; }
}

# fuzz_control FILE: malformed writes to a control file must all fail,
# readers and writers at once must leave the kernel clean.
fuzz_control() {
	f=$1
	head -c 300 /dev/zero | tr '\0' 'n' > $tmp/longname
	must_fail "NUL bytes" sh -c "printf '\\000\\000\\000' > $f" &&
	must_fail "binary garbage" sh -c "printf '\\377\\376\\001\\002 \\033[0m\\n' > $f" &&
	must_fail "1 MiB write" sh -c "head -c 1048576 /dev/zero | tr '\\0' 'x' | dd of=$f bs=1048576 2>/dev/null" &&
	must_fail "overlong name" sh -c "echo \"enable \$(cat $tmp/longname)\" > $f" &&
	must_fail "unknown command" sh -c "echo 'no-such-command !!' > $f" || return 1
	: > $tmp/frun
	( while [ -e $tmp/frun ]; do cat "$f" > /dev/null 2>&1; done ) &
	( while [ -e $tmp/frun ]; do printf '\377garbage\n' > "$f" 2>/dev/null; done ) &
	( while [ -e $tmp/frun ]; do dd if=/dev/urandom bs=512 count=1 of="$f" 2>/dev/null; done ) &
	sleep 3
	rm -f $tmp/frun
	wait
	list_wellformed
}

controls=
for f in /sys/kernel/debug/markers/* /sys/kernel/tracing/markers/* /sys/kernel/tracing/markers* \
	/sys/kernel/tracing/marker_events; do
	# shellcheck disable=SC2015 # skip $f unless both tests hold
	[ -f "$f" ] && [ "$f" != "$list" ] || continue
	# Writable by its mode (root may write anything).
	case $(stat -c %A "$f") in
	*w*) controls="$controls $f" ;;
	esac
done
# shellcheck disable=SC2086 # split the list to count its words
ncontrols=$(echo $controls | wc -w)
[ "$ncontrols" -gt 0 ] || ncontrols=1

# The markers_bad_input suite ran at boot: its atomic callers were named
# in the log, and its markers were left with no probe, disarmed.
atomic_caller_named() {
	dmesg | grep -q 'markers: marker_probe_register(badinput_nosite) called from atomic context by'
}
nothing_left_registered() {
	grep -E '^badinput_' $list >$tmp/badinput || { echo "no badinput_ marker listed"; return 1; }
	! grep -v -E ' state=0 probes=0 ' $tmp/badinput
}
ktap_begin markers_bad_input_files $((7 + ncontrols))
c atomic_caller_named atomic_caller_named
c nothing_left_registered nothing_left_registered
c list_wellformed list_wellformed
c list_small_reads small_reads
c list_concurrent_readers_writers concurrent
c list_wellformed_after list_wellformed
if [ -n "$skip_all" ]; then
	ktap_skip control_files "$skip_all"
elif [ -z "$controls" ]; then
	ktap_skip control_files "no writable markers control file in this kernel"
else
	for f in $controls; do
		ktap_check "control_$(basename "$f")_fuzz" fuzz_control "$f"
	done
fi
dmesg_clean() { ! new_dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace:|general protection'; }
c dmesg_clean dmesg_clean
ktap_diag "markers_bad_input_files: the script took $(($(cut -d. -f1 /proc/uptime) - t0)) s"
ktap_end
