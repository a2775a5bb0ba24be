#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo (harness.only=demo): the system at work, narrated on the
# console, each step a KTAP case that fails when it does not happen:
#   1. the seed's examples (samples/markers): marker-example places the
#      markers, probe-example connects probes; the counts of
#      Documentation/trace/markers.rst;
#   2. the disarmed marker site in my_open() as read from the running
#      kernel (/proc/kcore): arming it turns a 5-byte NOP into a JMP, and
#      nothing else changes; disarming puts the NOP back;
#   3. the same marker as a trace event defined from tracefs, recorded and
#      printed with trace-cmd (field values);
#   4. blktrace on markers: a few blkparse lines of reads of /dev/vda.
# shellcheck source=ktap.sh
. /tests/ktap.sh

T=/sys/kernel/tracing
say() { printf '\n### %s\n' "$*"; }
show() { sed 's/^/    /'; }

ktap_begin demo 8
echo "# demo: kernel $(uname -r) $(uname -m)"

say "1. The markers example of Documentation/trace/markers.rst"
kmsg_mark
echo '$ modprobe marker-example; modprobe probe-example; cat /proc/marker-example'
modprobe marker-example && modprobe probe-example
# shellcheck disable=SC2002 # cat's own error message is the point
cat /proc/marker-example 2>&1 | show
echo '(my_open() returns -EPERM on purpose: opening the file only fires the markers)'
echo '$ rmmod probe-example; dmesg'
rmmod probe-example
kmsg_since | grep -E 'Value 123|Number of event b' | sed 's/^\[[^]]*\] *//' | show
if kmsg_since | grep -q -F 'Value 123, string example string' &&
	kmsg_since | grep -q -F 'Number of event b : 10'; then
	ktap_ok seed_example_probes_called
else
	ktap_fail seed_example_probes_called "no 'Value 123, string example string' and 'Number of event b : 10'"
fi

say "2. The marker site in the running kernel (/proc/kcore)"
# addr SYMBOL: its address in /proc/kallsyms.
addr() { awk -v s="$1" '$3 == s { print $1; exit }' /proc/kallsyms; }
# kcore_off ADDR: the /proc/kcore file offset of kernel address ADDR (hex),
# from the ELF program headers (64-bit; busybox arithmetic is 64-bit).
kcore_off() {
	_a=$((0x$1))
	_phoff=$(od -A n -t u8 -j 32 -N 8 /proc/kcore | tr -d ' ')
	_phnum=$(od -A n -t u2 -j 56 -N 2 /proc/kcore | tr -d ' ')
	_i=0
	while [ "$_i" -lt "$_phnum" ]; do
		# shellcheck disable=SC2046 # five numbers
		set -- $(od -A n -t x8 -j $((_phoff + _i * 56 + 8)) -N 40 /proc/kcore)
		_off=$((0x$1)) _va=$((0x$2)) _sz=$((0x$4))
		if [ $((_a - _va)) -ge 0 ] && [ $((_a - _va)) -lt "$_sz" ]; then
			echo $((_off + _a - _va))
			return 0
		fi
		_i=$((_i + 1))
	done
	return 1
}
# dump FILE: the first 256 bytes of my_open(), one "OFFSET BYTE" a line.
dump() {
	dd if=/proc/kcore bs=1 skip="$off" count=256 2>/dev/null |
		od -A d -t x1 -v | awk 'NF > 1 { for (i = 2; i <= NF; i++) print $1 + i - 2, $i }' >"$1"
}
# changes A B: each changed place as "OFFSET: 5 BYTES BEFORE -> 5 BYTES AFTER"
# (an instruction patched whole: a NOP5 or a JMP rel32).
changes() {
	paste -d ' ' "$1" "$2" | awk '{ a[NR] = $2; b[NR] = $4; o[NR] = $1 }
		END { for (i = 1; i <= NR; i++) if (a[i] != b[i]) {
			x = a[i]; y = b[i]
			for (j = i + 1; j < i + 5 && j <= NR; j++) { x = x " " a[j]; y = y " " b[j] }
			print o[i] ": " x " -> " y; i += 4 } }'
}
fn=$(addr my_open)
off=
[ -n "$fn" ] && off=$(kcore_off "$fn")
if [ -n "$off" ] && dump /tmp/disarmed && [ -s /tmp/disarmed ]; then
	echo "my_open() is at 0x$fn, /proc/kcore offset $off"
	ktap_ok site_read_from_kcore
else
	ktap_fail site_read_from_kcore "my_open=${fn:-?}: not found in /proc/kcore (CONFIG_PROC_KCORE?)"
fi

say "3. The marker as a trace event, from tracefs"
echo '$ echo "m:markers/demo subsystem_event" >> /sys/kernel/tracing/marker_events'
echo "m:markers/demo subsystem_event" >>$T/marker_events
grep -E 'field:.* arg' $T/events/markers/demo/format | show
echo '$ echo 1 > /sys/kernel/tracing/events/markers/demo/enable   (arms the marker)'
echo 1 >$T/events/markers/demo/enable
[ -n "$off" ] && dump /tmp/armed
echo "Bytes of my_open() that changed when the marker was armed:"
changes /tmp/disarmed /tmp/armed | tee /tmp/changes | show
# A NOP (0f 1f 44 00 00) became a JMP (e9 + 32-bit displacement), and
# nothing else changed.
if [ "$(wc -l </tmp/changes)" = 1 ] && grep -q -E '^[0-9]+: 0f 1f 44 00 00 -> e9( [0-9a-f]{2}){4}$' /tmp/changes; then
	ktap_ok armed_site_is_jmp
else
	ktap_fail armed_site_is_jmp "expected one 5-byte NOP turned into a JMP"
fi
echo 0 >$T/events/markers/demo/enable
echo '$ trace-cmd record -e markers:demo cat /proc/marker-example; trace-cmd report'
trace-cmd record -q -e markers:demo -o /tmp/demo.dat cat /proc/marker-example >/tmp/tc.log 2>&1
trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep -F 'demo:' | tr -s ' ' | tee /tmp/report | show
if grep -q -E 'demo: .*123.*example string' /tmp/report; then
	ktap_ok trace_cmd_field_values
else
	ktap_fail trace_cmd_field_values "no event with 123 and \"example string\" in trace-cmd report"
	show </tmp/tc.log
fi
echo '$ echo 0 > .../demo/enable; echo "-:markers/demo" >> marker_events   (disarms it)'
echo 0 >$T/events/markers/demo/enable
echo "-:markers/demo" >>$T/marker_events
[ -n "$off" ] && dump /tmp/again
if [ -n "$off" ] && cmp -s /tmp/disarmed /tmp/again; then
	echo "my_open() is byte for byte as before: the NOP is back."
	ktap_ok disarmed_site_is_nop_again
else
	changes /tmp/disarmed /tmp/again | show
	ktap_fail disarmed_site_is_nop_again "my_open() differs from its disarmed bytes"
fi
if [ -d $T/events/markers/demo ]; then
	ktap_fail event_removed "events/markers/demo still there"
else
	ktap_ok event_removed
fi
rmmod marker-example

say "4. blktrace on markers: reads of /dev/vda"
echo '$ blktrace -d /dev/vda -D /tmp/bt & dd if=/dev/vda bs=4k count=3 skip=64 iflag=direct; blkparse'
mkdir -p /tmp/bt
blktrace -d /dev/vda -D /tmp/bt >/tmp/bt.err 2>&1 &
pid=$!
i=0
while [ ! -e /sys/kernel/debug/block/vda/trace0 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
dd if=/dev/vda of=/dev/null bs=4k count=3 skip=64 iflag=direct 2>/dev/null
sleep 1
kill -INT $pid
wait $pid
blkparse -q -D /tmp/bt -i vda 2>>/tmp/bt.err | grep -E ' [QGIDC] +R[A-Z]* ' | tee /tmp/bp | head -n 12 | show
# Three direct 4 KiB reads: queued and completed at sectors 512, 520, 528.
if [ "$(grep -c -E ' Q +R[A-Z]* +(512|520|528) \+ 8 ' /tmp/bp)" = 3 ] &&
	[ "$(grep -c -E ' C +R[A-Z]* +(512|520|528) \+ 8 ' /tmp/bp)" = 3 ]; then
	ktap_ok blkparse_queue_and_complete
else
	ktap_fail blkparse_queue_and_complete "not 3 Q and 3 C events at sectors 512, 520, 528"
	show </tmp/bt.err
fi
kmsg_since >/tmp/k
if grep -E 'WARNING:|BUG:|Oops|Call Trace:|markers: .*(error|fail)|blktrace: cannot' /tmp/k >/tmp/bad; then
	show </tmp/bad
	ktap_fail kernel_log_clean "see the kernel log"
else
	ktap_ok kernel_log_clean
fi
ktap_end
