#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Marker events in the tools people use (harness.only=tools, with the
# tools image of tests/mkinitramfs.sh as the second virtio disk):
#   - available_markers in tracefs: the markers, their formats, sites and
#     probes, without debugfs;
#   - globs: "m:GROUP/ GLOB" defines an event per matching marker, and per
#     marker of a module loaded later; "-:GROUP/GLOB" removes them; bad
#     globs are refused with their errno and error_log message;
#   - Debian's perf: list, stat (exact count), record + script
#     (every field value);
#   - Debian's bpftrace: -lv (typed fields from the format file) and
#     one-liners counting hits by an integer and by a string field, with
#     exact counts; the module unloaded while bpftrace is attached;
#   - BPF without bpftrace (tests/progs/marker-bpf.c, every arch): a
#     program attached with PERF_EVENT_IOC_SET_BPF or a BPF link;
#   - bad input: a removed event, an event never defined.
# tests/modules/marker_tools_test fires tools_test_seq N times with
# n = 0..N-1, mod = n % 3, s = zero/one/two: every expected figure below
# follows from N.
# shellcheck source=ktap.sh
. /tests/ktap.sh

T=/sys/kernel/tracing
R=/tools
ko=/lib/test-modules/marker_tools_test.ko
ko2=/lib/test-modules/marker_events_test.ko
fire=/sys/module/marker_tools_test/parameters/fire

ktap_begin tools 22

skip_all=
if [ ! -e "$T/available_markers" ]; then
	skip_all="no $T/available_markers"
elif [ ! -f "$ko" ] || [ ! -f "$ko2" ]; then
	skip_all="test modules not built"
elif ! { mkdir -p $R && mount -t ext2 -o ro /dev/vdb $R; } 2>/dev/null; then
	skip_all="no tools image on /dev/vdb"
fi
if [ -z "$skip_all" ]; then
	mount -o rbind /proc $R/proc
	mount -o rbind /sys $R/sys
	mount -o rbind /dev $R/dev
	mount -t tmpfs tmpfs $R/tmp
	mount -o bind /lib/test-modules $R/lib/test-modules
	insmod "$ko"
fi
no_bpftrace=
[ -x $R/usr/bin/bpftrace ] || no_bpftrace="no bpftrace in the tools image (Debian has none for $(uname -m))"

# perf / bpftrace in the chroot of the tools image (/tmp is its only
# writable folder).
perf() { chroot $R /usr/bin/perf "$@"; }
bpft() { chroot $R /usr/bin/bpftrace "$@"; }
w() { werr=$( { echo "$2" >>"$1"; } 2>&1 ); }
# error_log without its timestamps, which would read as kernel messages
# in the console log.
errlog() { sed 's/^\[[ 0-9.]*\] //' $T/error_log; }

# case NAME FUNC [SKIP_REASON]: FUNC's output as diagnostics on failure.
case_() {
	if [ -n "$skip_all" ]; then ktap_skip "$1" "$skip_all"; return; fi
	if [ -n "${3:-}" ]; then ktap_skip "$1" "$3"; return; fi
	ktap_check_shown "$1" "$2"
}

# 1: the listing, without debugfs.
t_listing() {
	l=$(grep '^tools_test_seq ' $T/available_markers) || { cat $T/available_markers; return 1; }
	echo "$l"
	[ "$l" = 'tools_test_seq sites=1 probes=- format="n %u mod %u s %s"' ]
}

# 2-8: globs.
names_in() {
	for _d in "$T/events/$1"/*/; do
		[ -d "$_d" ] && basename "$_d"
	done | sort | tr '\n' ' '
}
t_glob_define() {
	w $T/marker_events 'm:globs/ tools_*' || { echo "$werr"; errlog; return 1; }
	got=$(names_in globs)
	echo "events: $got"
	[ "$got" = "tools_test_seq " ] && grep -q '^m:globs/tools_test_seq tools_test_seq "n %u mod %u s %s"$' $T/marker_events
}
t_glob_existing() {
	rejected 'm:globs/ tools_*' 'File exists' 'Event already exists'
}
# late/: tools_test_seq now, the markers of marker_events_test at insmod
# (*s_test_*: not the markers_kunit suite's marker_test_*).
t_glob_module_later() {
	kmsg_mark
	w $T/marker_events 'm:late/ marker_events_test_*' && { echo "no marker_events_test_* is loaded: accepted"; return 1; }
	w $T/marker_events 'm:late/ *s_test_*' || { echo "$werr"; errlog; return 1; }
	insmod "$ko2" || return 1
	got=$(names_in late)
	echo "events: $got"
	msgs=$(kmsg_since | grep -c 'late/\*s_test_\*: no event for marker marker_events_test_\(bad\|ptrdiff\) of module marker_events_test')
	echo "undecodable markers reported: $msgs"
	[ "$got" = "marker_events_test_ints marker_events_test_names marker_events_test_noargs marker_events_test_str marker_events_test_wide tools_test_seq " ] &&
		[ "$msgs" = 2 ]
}
# rejected NAME CMD ERRNO_TEXT LOG_TEXT
rejected() {
	: >$T/error_log
	if w $T/marker_events "$1"; then echo "'$1' accepted"; return 1; fi
	echo "'$1': $werr"
	case $werr in *"$2"*) ;; *) return 1 ;; esac
	errlog | grep -F "$3" || { errlog; return 1; }
}
t_glob_no_match() { rejected 'm:globs/ nothing_matches_*' 'No such file' 'No loaded marker matches the glob'; }
t_glob_with_event() { rejected 'm:globs/ev tools_*' 'Invalid argument' 'give at most the group'; }
t_glob_with_format() { rejected 'm tools_* "n %u"' 'Invalid argument' 'A glob takes the format of each marker'; }
t_glob_delete() {
	w $T/marker_events '-:late/marker_events_test_*' || { echo "$werr"; return 1; }
	got=$(names_in late)
	echo "after -:late/marker_events_test_*: $got"
	[ "$got" = "tools_test_seq " ] || return 1
	for g in late globs; do
		w $T/marker_events "-:$g/" || { echo "-:$g/: $werr"; return 1; }
		[ ! -d $T/events/$g ] || { echo "events/$g still there: $(names_in $g)"; return 1; }
	done
	rmmod marker_events_test
}

# 9-11: perf.
t_perf_list() {
	w $T/marker_events 'm tools_test_seq' || { echo "$werr"; return 1; }
	out=$(perf list 'markers:*' 2>&1)
	echo "$out"
	echo "$out" | grep -q 'markers:tools_test_seq *\[Tracepoint event\]'
}
t_perf_stat() {
	out=$(perf stat -x, -e markers:tools_test_seq -a -- sh -c "echo 25 >$fire" 2>&1)
	echo "$out"
	n=$(echo "$out" | awk -F, '/markers:tools_test_seq/ {print $1}')
	echo "perf stat counted $n, expected 25"
	[ "$n" = 25 ]
}
t_perf_record() {
	perf record -e markers:tools_test_seq -a -o /tmp/perf.data -- sh -c "echo 6 >$fire" || return 1
	ls -l $R/tmp
	perf script -i /tmp/perf.data
	out=$(perf script -i /tmp/perf.data -F event,trace 2>&1)
	echo "$out"
	want='n=0 mod=0 s="zero"|n=1 mod=1 s="one"|n=2 mod=2 s="two"|n=3 mod=0 s="zero"|n=4 mod=1 s="one"|n=5 mod=2 s="two"'
	got=$(echo "$out" | sed -n 's/.*tools_test_seq: *//p' | tr '\n' '|' | sed 's/|$//')
	echo "fields: $got"
	[ "$got" = "$want" ]
}

# 12-16: bpftrace.
t_bpftrace_list() {
	out=$(bpft -lv 'tracepoint:markers:tools_test_seq' 2>&1)
	echo "$out"
	echo "$out" | grep -qx '    unsigned int n' && echo "$out" | grep -qx '    unsigned int mod' &&
		echo "$out" | grep -qx '    __data_loc char\[\] s'
}
# bpftrace -c runs the command once its probes are attached, and prints
# the maps when the command exits; it splits the command at spaces, quotes
# or not: bpftrace_c PROGRAM SHELL-COMMAND runs it from a script.
bpftrace_c() {
	echo "$2" >$R/tmp/cmd.sh
	bpft -e "$1" -c '/bin/sh /tmp/cmd.sh'
}
t_bpftrace_count() {
	out=$(bpftrace_c 'tracepoint:markers:tools_test_seq { @hits[args->mod] = count(); }' "echo 100 >$fire" 2>&1)
	echo "$out"
	got=$(echo "$out" | grep '^@hits\[' | sort | tr '\n' ' ')
	echo "got: $got"
	[ "$got" = "@hits[0]: 34 @hits[1]: 33 @hits[2]: 33 " ]
}
t_bpftrace_string() {
	out=$(bpftrace_c 'tracepoint:markers:tools_test_seq { @s[str(args->s)] = count(); @sum = sum(args->n); }' "echo 10 >$fire" 2>&1)
	echo "$out"
	got=$(echo "$out" | grep '^@s\[\|^@sum' | sort | tr '\n' ' ')
	echo "got: $got"
	[ "$got" = "@s[one]: 3 @s[two]: 3 @s[zero]: 4 @sum: 45 " ]
}
# The module goes and comes back while bpftrace is attached: the event
# stays, and counts the hits of the reloaded module.
t_bpftrace_module_unload() {
	out=$(bpftrace_c 'tracepoint:markers:tools_test_seq { @hits = count(); }' \
		"echo 5 >$fire; rmmod marker_tools_test; insmod $ko; echo 7 >$fire" 2>&1)
	echo "$out"
	echo "$out" | grep -qx '@hits: 12'
}
# While bpftrace is attached the event cannot be removed (-EBUSY), and
# still counts afterwards.
t_bpftrace_event_busy() {
	out=$(bpftrace_c 'tracepoint:markers:tools_test_seq { @hits = count(); }' \
		"echo -:markers/tools_test_seq >>$T/marker_events; echo rc=\$?; echo 4 >$fire" 2>&1)
	echo "$out"
	echo "$out" | grep -q 'Device or resource busy' && echo "$out" | grep -qx 'rc=1' &&
		echo "$out" | grep -qx '@hits: 4' && [ -d $T/events/markers/tools_test_seq ]
}

# 17-20: BPF without bpftrace: tests/progs/marker-bpf.c counts the hits by
# mod with a BPF program attached by ioctl or by a BPF link.
bpf() { marker-bpf "$1" markers/tools_test_seq mod 3 "$2"; }
# expect_counts OUT "C0 C1 C2": the counts of mod=0..2, and no other.
expect_counts() {
	got=$(echo "$1" | grep '^mod=\|^other' | awk '{print $2}' | tr '\n' ' ')
	echo "counts of mod=0,1,2 and other: $got, expected: $2 0"
	[ "$got" = "$2 0 " ]
}
t_bpf_ioctl() { out=$(bpf ioctl "echo 100 >$fire" 2>&1); echo "$out"; expect_counts "$out" "34 33 33"; }
t_bpf_link() { out=$(bpf link "echo 30 >$fire" 2>&1); echo "$out"; expect_counts "$out" "10 10 10"; }
t_bpf_module_unload() {
	out=$(bpf link "echo 5 >$fire; rmmod marker_tools_test; insmod $ko; echo 7 >$fire" 2>&1)
	echo "$out"
	expect_counts "$out" "5 4 3"
}
t_bpf_event_busy() {
	out=$(bpf ioctl "echo -:markers/tools_test_seq >>$T/marker_events; echo rc=\$?; echo 4 >$fire" 2>&1)
	echo "$out"
	echo "$out" | grep -q 'Device or resource busy' && echo "$out" | grep -qx 'rc=1' &&
		expect_counts "$out" "2 1 1" && [ -d $T/events/markers/tools_test_seq ]
}

# 21-22: bad input.
t_bpftrace_undefined() {
	out=$(bpft -e 'tracepoint:markers:never_defined { @ = count(); }' -c /bin/true 2>&1) && { echo "$out"; return 1; }
	echo "$out"
	echo "$out" | grep -qi 'never_defined'
}
t_removed_event() {
	w $T/marker_events '-:markers/tools_test_seq' || { echo "$werr"; return 1; }
	out=$(perf stat -e markers:tools_test_seq -a -- true 2>&1) && { echo "$out"; return 1; }
	echo "$out"
	echo "$out" | grep -q "tools_test_seq"
}

case_ available_markers t_listing
case_ glob_define t_glob_define
case_ glob_existing_events t_glob_existing
case_ glob_module_loaded_later t_glob_module_later
case_ glob_no_match t_glob_no_match
case_ glob_with_event_name t_glob_with_event
case_ glob_with_format t_glob_with_format
case_ glob_delete_group t_glob_delete
case_ perf_list t_perf_list
case_ perf_stat_count t_perf_stat
case_ perf_record_script t_perf_record
case_ bpftrace_list_fields t_bpftrace_list "$no_bpftrace"
case_ bpftrace_count_by_int t_bpftrace_count "$no_bpftrace"
case_ bpftrace_count_by_string t_bpftrace_string "$no_bpftrace"
case_ bpftrace_module_unloaded t_bpftrace_module_unload "$no_bpftrace"
case_ bpftrace_event_busy t_bpftrace_event_busy "$no_bpftrace"
case_ bpftrace_undefined_event t_bpftrace_undefined "$no_bpftrace"
case_ bpf_ioctl_count_by_int t_bpf_ioctl
case_ bpf_link_count_by_int t_bpf_link
case_ bpf_module_unloaded t_bpf_module_unload
case_ bpf_event_busy t_bpf_event_busy
case_ perf_removed_event t_removed_event
ktap_end
