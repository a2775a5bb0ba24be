#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Marker events (kernel/trace/trace_markers.c): markers traced from
# tracefs, without a module.  The sample markers (marker-example: 123 and
# "example string") and tests/modules/marker_events_test (every supported
# conversion, two unsupported ones) as events in trace, trace_pipe and
# the real trace-cmd; filters by field name; other probes on
# the same markers; a module loaded after its events were created and
# unloaded while they are enabled; and bad input, each with its errno and
# its message in error_log.
#
# For a kmemleak kernel: with /sys/kernel/debug/kmemleak present the
# last case scans after everything was created and deleted, and fails on
# leaks allocated by marker events (the markers core, tracing).
# shellcheck source=ktap.sh
. /tests/ktap.sh

T=/sys/kernel/tracing
M=$T/events/markers
ko=/lib/test-modules/marker_events_test.ko
params=/sys/module/marker_events_test/parameters
list=/sys/kernel/debug/markers/list
leaks=/sys/kernel/debug/kmemleak

skip_all=
if [ ! -e "$T/marker_events" ]; then
	skip_all="no $T/marker_events (kernel without CONFIG_MARKER_EVENTS?)"
elif [ ! -f "$ko" ]; then
	skip_all="marker_events_test.ko not built"
elif [ -z "$(find "/lib/modules/$(uname -r)" -name 'marker-example.ko*')" ]; then
	skip_all="marker-example.ko not built (CONFIG_SAMPLE_MARKERS)"
fi
no_tc=
command -v trace-cmd >/dev/null 2>&1 || no_tc="no trace-cmd in this initramfs (tests/guest-tools)"

# c NAME CMD...: passes if CMD succeeds.
c() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check "$@"
}
# cs NAME CMD...: the same, CMD's output shown (the figures it compared).
cs() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	ktap_check_shown "$@"
}
# tc NAME CMD...: the same, for the cases that need trace-cmd.
tc() {
	if [ -z "$skip_all" ] && [ -n "$no_tc" ]; then ktap_skip "$1" "$no_tc"; return; fi
	c "$@"
}

# w FILE TEXT: append TEXT to FILE (opening marker_events or
# dynamic_events with O_TRUNC deletes the events); the shell's error
# message (with strerror) in $werr.  The echo of busybox, not its printf,
# reports write errors, and it takes no backslash escapes.
w() { werr=$( { echo "$2" >>"$1"; } 2>&1 ); }
# mk CMD: a marker_events command that must succeed.
mk() { w "$T/marker_events" "$1" || { echo "'$1': $werr"; cat "$T/error_log"; return 1; }; }
en() { echo "$2" >"$M/$1/enable"; }

# rejects NAME ERRNO_TEXT LOG_TEXT CMD [FILE]: writing CMD to FILE
# (marker_events) fails with ERRNO_TEXT (strerror) and error_log says
# LOG_TEXT (if not empty).
rejects() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	echo >"$T/error_log"
	if w "${5:-$T/marker_events}" "$4"; then
		ktap_fail "$1" "accepted: $4"
	elif ! printf '%s' "$werr" | grep -q -F -- "$2"; then
		ktap_fail "$1" "'$4' failed with '$werr', expected '$2'"
	elif [ -n "$3" ] && ! grep -q -F -- "$3" "$T/error_log"; then
		ktap_diag "error_log: $(cat "$T/error_log")"
		ktap_fail "$1" "error_log does not say '$3'"
	else
		ktap_ok "$1"
	fi
}

# caret_at CHAR: in error_log, the caret points at the first CHAR of the
# command after its first double quote.
caret_at() {
	awk -v ch="$1" '
		/Command: / { cmd = $0; start = index(cmd, "Command: ") + 9
			q = index(substr(cmd, start), "\"")
			want = start + q - 1 + index(substr(cmd, start + q), ch); next }
		cmd != "" && /\^/ { got = index($0, "^"); exit }
		END { if (got != want) { print "caret at " got ", want " want; exit 1 } }
	' "$T/error_log"
}

open_sample() { ! cat /proc/marker-example 2>/dev/null; }
fire() { echo "${1:-1}" >"$params/fire"; }
# (trace-cmd record leaves tracing off)
clear_trace() { echo 1 >"$T/tracing_on" && echo >"$T/trace"; }
# has TEXT: the trace has a line with TEXT; count TEXT: how many.
has() { grep -q -F -- "$1" "$T/trace" || { echo "no '$1' in:"; grep -v '^#' "$T/trace"; return 1; }; }
count() { grep -c -F -- "$1" "$T/trace"; }
# count_is N TEXT
count_is() { _n=$(count "$2"); [ "$_n" = "$1" ] || { echo "$_n lines with '$2', expected $1"; grep -v '^#' "$T/trace"; return 1; }; }
state_is() { grep -q "^$1 state=$2 " "$list" || { grep "^$1 " "$list"; return 1; }; }

sample_line='subsystem_event: arg1=123 arg2="example string"'
ints_fields='d=-42 i=7 u=4000000000 x=0xbeef X=0xCAFE o=0755 c='"'m'"' hhd=-5 hd=-300 ld=-1234567 lu=3000000000 lx=0xdeadbeef'
# trace-cmd prints %c as the character code (libtraceevent has no %c)
tc_ints_fields=$(echo "$ints_fields" | sed "s/c='m'/c=109/")
wide_fields='lld=-1234567890123 llu=18446744073709551615 llx=0x123456789abcdef zd=-77 zu=123456 p=0x1234'
long_255=$(printf '%255s' '' | tr ' ' L)
str_fields='s="hello world" null="(null)" bad="(fault)" short="abc" long="'$long_255'"'
ints_format='d %d i %i u %u x %x X %X o %o c %c hhd %hhd hd %hd ld %ld lu %lu lx %lx'

setup() {
	modprobe marker-example && insmod "$ko" attach=1 && echo 0 >"$T/tracing_on" &&
		clear_trace && echo 1 >"$T/tracing_on"
}

connect_sample() {
	mk 'm subsystem_event' &&
		for f in enable format filter id trigger; do
			# "id" exists only with CONFIG_PERF_EVENTS (not on arm64 here).
			[ $f = id ] && ! ls $T/events/*/*/id >/dev/null 2>&1 && continue
			[ -e "$M/subsystem_event/$f" ] || { echo "no $M/subsystem_event/$f"; return 1; }
		done
}
format_fields() {
	_f=$M/subsystem_event/format
	# shellcheck disable=SC2015 # || reports a failure of any of the greps
	grep -q 'field:int arg1;.*size:4;.*signed:1;' "$_f" &&
		grep -q 'field:__data_loc char\[\] arg2;.*size:4;' "$_f" &&
		grep -q -F 'print fmt: "arg1=%d arg2=\"%s\"", REC->arg1, __get_str(arg2)' "$_f" ||
		{ cat "$_f"; return 1; }
}
listed() {
	# shellcheck disable=SC2015 # || reports a failure of either grep
	grep -q -x -F 'm:markers/subsystem_event subsystem_event "%d %s"' "$T/marker_events" &&
		grep -q -x -F 'm:markers/subsystem_event subsystem_event "%d %s"' "$T/dynamic_events" ||
		{ cat "$T/marker_events"; return 1; }
}
record_sample() {
	en subsystem_event 1 && state_is subsystem_event 1 && clear_trace &&
		open_sample && count_is 1 "$sample_line"
}
pipe_sample() {
	clear_trace
	cat "$T/trace_pipe" >/tmp/marker-pipe &
	_pid=$!
	sleep 1
	open_sample
	sleep 1
	kill $_pid
	wait $_pid 2>/dev/null
	grep -q -F -- "$sample_line" /tmp/marker-pipe || { cat /tmp/marker-pipe; return 1; }
}
filter_fields() {
	_f=$M/subsystem_event/filter
	echo 'arg1 != 123' >"$_f" && clear_trace && open_sample &&
		count_is 0 subsystem_event: &&
		echo 'arg1 == 123 && arg2 == "example string"' >"$_f" && open_sample &&
		count_is 1 "$sample_line" && echo 0 >"$_f"
}
# probe-example registers (and arms) its own probe on subsystem_event.
with_probe_example() {
	kmsg_mark
	modprobe probe-example && clear_trace && open_sample &&
		count_is 1 "$sample_line" &&
		kmsg_since | grep -q -F 'Value 123, string example string' &&
		rmmod probe-example && clear_trace && open_sample && count_is 1 "$sample_line"
}
two_events() {
	mk 'm:markers/sample2 subsystem_event' && en sample2 1 && clear_trace &&
		open_sample && count_is 1 "$sample_line" &&
		count_is 1 'sample2: (subsystem_event) arg1=123 arg2="example string"' &&
		en sample2 0 && w "$T/marker_events" '-:markers/sample2'
}
noargs() {
	mk 'm subsystem_eventb' && en subsystem_eventb 1 && clear_trace && open_sample &&
		count_is 10 'subsystem_eventb:'
}
# "-:" with the marker (and format) deletes only a matching event.
delete_by_definition() {
	mk 'm:markers/del subsystem_event' || return 1
	w "$T/marker_events" '-:markers/del other_marker' && { echo "deleted with another marker"; return 1; }
	w "$T/marker_events" '-:markers/del subsystem_event "%u %s"' && { echo "deleted with another format"; return 1; }
	[ -d "$M/del" ] && w "$T/marker_events" '-:markers/del subsystem_event "%d %s"' && [ ! -d "$M/del" ]
}
via_dynamic_events() {
	w "$T/dynamic_events" 'm:markers/viadyn subsystem_event' && [ -d "$M/viadyn" ] &&
		w "$T/dynamic_events" '-:markers/viadyn' && [ ! -d "$M/viadyn" ]
}
# The listing, fed back, gives the same event (escapes included).
roundtrip() {
	_want='m:markers/rt future_marker "a\043b \042%d\042\011%s\134"'
	mk 'm:markers/rt future_marker "a\043b \"%d\"\t%s\\"' || return 1
	_l=$(grep '^m:markers/rt ' "$T/marker_events")
	[ "$_l" = "$_want" ] || { echo "listed '$_l', want '$_want'"; return 1; }
	grep -q -F 'print fmt: "(future_marker) arg1=%d arg2=\"%s\""' "$M/rt/format" ||
		{ cat "$M/rt/format"; return 1; }
	w "$T/marker_events" '-:markers/rt' || { echo "delete: $werr"; return 1; }
	mk "$_l" || return 1
	_l=$(grep '^m:markers/rt ' "$T/marker_events")
	[ "$_l" = "$_want" ] || { echo "listed again '$_l'"; return 1; }
	w "$T/marker_events" '-:markers/rt' || { echo "delete: $werr"; return 1; }
}

types_setup() {
	mk 'm marker_events_test_ints' && mk 'm marker_events_test_wide' &&
		mk 'm marker_events_test_str' && mk 'm marker_events_test_names' &&
		for e in ints wide str names; do en "marker_events_test_$e" 1 || return 1; done &&
		echo nohash-ptr >"$T/trace_options" && clear_trace && fire 1
}
types_ints() { count_is 1 "marker_events_test_ints: $ints_fields"; }
types_wide() { count_is 1 "marker_events_test_wide: $wide_fields"; }
types_strings() { count_is 1 "marker_events_test_str: $str_fields"; }
field_names() {
	grep -q 'field:void \* q;' "$M/marker_events_test_names/format" &&
		grep -q 'field:void \* rq;' "$M/marker_events_test_names/format" &&
		count_is 1 'marker_events_test_names: q=0x1000 rq=0x2000'
}
types_format() {
	_f=$M/marker_events_test_ints/format
	for t in 'int d' 'int i' 'unsigned int u' 'unsigned int x' 'unsigned int X' \
		'unsigned int o' 'char c' 'signed char hhd' 'short hd' 'long ld' \
		'unsigned long lu' 'unsigned long lx'; do
		grep -q "field:$t;" "$_f" || { echo "no field:$t"; cat "$_f"; return 1; }
	done
	for t in 'long long lld' 'unsigned long long llu' 'size_t zu' 'ssize_t zd' 'void \* p'; do
		grep -q "field:$t;" "$M/marker_events_test_wide/format" ||
			{ echo "no field:$t"; cat "$M/marker_events_test_wide/format"; return 1; }
	done
}
# marker_events_test attached its own counting probe: it saw every hit.
other_probe() {
	_h=$(cat "$params/hits") && clear_trace && fire 5 &&
		[ "$(cat "$params/hits")" = $((_h + 5)) ] && count_is 5 'marker_events_test_ints:'
}

tc_record() {
	rm -f /tmp/markers.dat
	trace-cmd record -q -o /tmp/markers.dat "$@" >/tmp/tc-record.log 2>&1 ||
		{ cat /tmp/tc-record.log; return 1; }
}
# tc_report [OPTION...]: the options must come before -i, which they apply
# to; trace-cmd pads event names with spaces: squeeze them.
tc_report() { trace-cmd report "$@" -i /tmp/markers.dat 2>/tmp/tc-report.err | tr -s ' '; }
tc_has() {
	# shellcheck disable=SC2015 # || reports a failure of either step
	_out=$(tc_report) && printf '%s\n' "$_out" | grep -q -F -- "$1" ||
		{ echo "no '$1' in trace-cmd report:"; printf '%s\n' "$_out" | tail -n 20; cat /tmp/tc-report.err; return 1; }
}
tc_sample() {
	tc_record -e markers:subsystem_event -e markers:subsystem_eventb cat /proc/marker-example
	tc_has "$sample_line" && [ "$(tc_report | grep -c 'subsystem_eventb:')" = 10 ]
}
# libtraceevent filters by the field names of the format file.
tc_count() {
	_n=$(tc_report -F "$1" | grep -c 'subsystem_event:')
	[ "$_n" = "$2" ] || { echo "-F '$1': $_n events, expected $2"; tc_report -F "$1"; cat /tmp/tc-report.err; return 1; }
}
tc_filter() {
	tc_count 'markers/subsystem_event: arg1 == 123' 1 &&
		tc_count 'markers/subsystem_event: arg1 == 124' 0 &&
		tc_count 'markers/subsystem_event: arg2 == "example string"' 1
}
tc_types() {
	tc_record -e 'markers:marker_events_test_*' sh -c "echo 1 > $params/fire"
	for f in $tc_ints_fields $wide_fields 's="hello world"' 'null="(null)"' \
		'bad="(fault)"' 'short="abc"' "long=\"$long_255\"" q=0x1000 rq=0x2000; do
		tc_has "$f" || return 1
	done
}

# A marker not loaded yet: its format in the command, armed when it loads.
unload_all() {
	for e in ints wide str names; do en "marker_events_test_$e" 0; done
	for e in ints wide str names; do w "$T/marker_events" "-:markers/marker_events_test_$e" || return 1; done
	rmmod marker_events_test
}
armed_on_load() {
	mk "m marker_events_test_ints \"$ints_format\"" && en marker_events_test_ints 1 &&
		insmod "$ko" && clear_trace && fire 1 && count_is 1 "marker_events_test_ints: $ints_fields"
}
unload_enabled() {
	rmmod marker_events_test && [ "$(cat "$M/marker_events_test_ints/enable")" = 1 ] &&
		grep -q '^m:markers/marker_events_test_ints ' "$T/marker_events"
}
rearmed() {
	insmod "$ko" && clear_trace && fire 2 && count_is 2 "marker_events_test_ints: $ints_fields"
}
conflict_setup() { mk 'm:markers/c1 future_marker2 "%d"' && en c1 1; }
conflict_cleanup() { en c1 0 && w "$T/marker_events" '-:markers/c1' && [ ! -d "$M/c1" ]; }

cleanup() {
	for d in "$M"/*/; do [ -f "$d/enable" ] && echo 0 >"$d/enable"; done
	echo hash-ptr >"$T/trace_options"
	: >"$T/marker_events" && [ ! -d "$M" ] && ! grep -q '^m:' "$T/dynamic_events" &&
		rmmod marker_events_test && rmmod marker-example && clear_trace
}
kmemleak_clean() {
	echo scan >"$leaks" && sleep 1 && echo scan >"$leaks" &&
		! grep -E -A12 'unreferenced object' "$leaks" | grep -E 'trace_marker|marker_event|marker_probe|marker_fmt'
}

# Enabling (disabling) a group of marker events patches the sites of all
# their markers in one immediate values batch (marker_batch_begin() in
# __ftrace_set_clr_event_nolock()); the same events switched one by one
# take a batch each, which shows that the count can tell them apart.
group_batch() {
	[ -r /sys/kernel/debug/immediate/stats ] ||
		{ echo "no /sys/kernel/debug/immediate/stats"; return 1; }
	mk 'm:batchgrp/ blk_*' || return 1
	_n=$(find "$T/events/batchgrp" -mindepth 1 -maxdepth 1 -type d | wc -l)
	_b0=$(immediate_stat batches)
	echo 1 >"$T/events/batchgrp/enable" || return 1
	_b1=$(immediate_stat batches)
	echo 0 >"$T/events/batchgrp/enable" || return 1
	_b2=$(immediate_stat batches)
	for _e in "$T"/events/batchgrp/*/enable; do echo 1 >"$_e"; done
	_b3=$(immediate_stat batches)
	for _e in "$T"/events/batchgrp/*/enable; do echo 0 >"$_e"; done
	_b4=$(immediate_stat batches)
	mk '-:batchgrp/' || return 1
	echo "$_n events; batches: group enabled $((_b1 - _b0)), disabled $((_b2 - _b1));" \
		"one by one enabled $((_b3 - _b2)), disabled $((_b4 - _b3))"
	[ $((_b1 - _b0)) = 1 ] && [ $((_b2 - _b1)) = 1 ] &&
		[ $((_b3 - _b2)) -gt 1 ] && [ $((_b4 - _b3)) -gt 1 ]
}

long_format=$(printf '%1100s' '' | tr ' ' x)
long_line=$(printf '%5000s' '' | tr ' ' x)
thirteen='%d %d %d %d %d %d %d %d %d %d %d %d %d'

ktap_begin marker_events 57
c setup setup
c interface test -w "$T/marker_events" -a -w "$T/dynamic_events"
c connect_sample connect_sample
c format_fields format_fields
c listed listed
c dormant_until_enabled state_is subsystem_event 0
c record_sample record_sample
[ -z "$skip_all" ] && ktap_diag "trace: $(grep -m1 -F "$sample_line" "$T/trace" | tr -s ' ')"
c trace_pipe pipe_sample
c filter_by_field_name filter_fields
c alongside_probe_example with_probe_example
c two_events_one_marker two_events
c noargs_marker noargs
c via_dynamic_events via_dynamic_events
c delete_by_definition delete_by_definition
c listing_roundtrip roundtrip
cs group_one_batch group_batch
tc trace_cmd_sample tc_sample
tc trace_cmd_filter tc_filter
c types_setup types_setup
c types_format types_format
c types_ints types_ints
c types_wide types_wide
c types_strings types_strings
c field_names field_names
c alongside_other_probe other_probe
tc trace_cmd_types tc_types
[ -z "$skip_all$no_tc" ] && tc_report | grep -F marker_events_test_ | cut -c1-160 |
	while IFS= read -r l; do ktap_diag "trace-cmd report:$l"; done

rejects unknown_marker "No such file or directory" "No marker of this name is loaded" 'm no_such_marker'
rejects no_marker_name "Invalid argument" "Marker name missing" 'm'
rejects bad_event_name "Invalid argument" "Event names are identifiers" 'm:markers/bad-name subsystem_event'
rejects bad_group_name "Invalid argument" "Group names are identifiers" 'm:/x subsystem_event'
rejects bad_marker_name "Invalid argument" "Marker names are identifiers" 'm 9bad'
rejects unterminated_format "Invalid argument" "one double-quoted string" 'm subsystem_event "%d %s'
rejects trailing_garbage "Invalid argument" "one double-quoted string" 'm subsystem_event "%d %s" junk'
rejects bad_escape "Invalid argument" "Bad escape in the format" 'm future_marker "\q"'
rejects empty_format "Invalid argument" "Empty format" 'm future_marker ""'
rejects overlong_format "Argument list too long" "Format longer than 1024 characters" "m future_marker \"$long_format\""
rejects overlong_line "Invalid argument" "" "m future_marker \"$long_line\""
rejects unsupported_conversion "Invalid argument" "Unsupported conversion" 'm future_marker "%d %f"'
c unsupported_conversion_caret caret_at f
[ -z "$skip_all" ] && sed 's/^/error_log: /' "$T/error_log" | while IFS= read -r l; do ktap_diag "$l"; done
rejects unsupported_in_loaded_marker "Invalid argument" "'*' is not supported" 'm marker_events_test_bad'
c unsupported_shown_with_format grep -q -F 'Command: m marker_events_test_bad "x %d star %*d"' "$T/error_log"
rejects unsupported_length "Invalid argument" "Unsupported length modifier" 'm marker_events_test_ptrdiff'
rejects too_many_conversions "Argument list too long" "More than 12 conversions" "m future_marker \"$thirteen\""
rejects connect_twice "File exists" "Event already exists" 'm subsystem_event'
rejects format_mismatch "Operation not permitted" "Format differs from the format of the loaded marker" 'm:markers/other subsystem_event "%u %s"'
rejects disconnect_unknown "No such file or directory" "No such marker event" '-:markers/nothing'
[ -z "$skip_all" ] && en subsystem_event 1
rejects delete_enabled "Device or resource busy" "Marker event is enabled or in use" '-:markers/subsystem_event'
rejects not_a_marker_command "Invalid argument" "Command must be: m" 'p:foo do_sys_open'

c conflict_setup conflict_setup
rejects probe_format_conflict "Operation not permitted" \
	"Format differs from the format of the probes already connected" 'm:markers/c2 future_marker2 "%s"'
c conflict_cleanup conflict_cleanup
c module_unloaded_first unload_all
c armed_on_load armed_on_load
c module_unload_while_enabled unload_enabled
c rearmed_on_reload rearmed
c cleanup cleanup
if [ -z "$skip_all" ] && [ ! -w "$leaks" ]; then
	ktap_skip kmemleak_clean "no $leaks (kernel without CONFIG_DEBUG_KMEMLEAK)"
else
	c kmemleak_clean kmemleak_clean
fi
ktap_end
