#!/bin/sh
# make demo: boot with harness.only=demo.  Shows the markers sample at work
# once the series provides samples/markers (marker-example, probe-example);
# until then it only reports the kernel it booted.
. /tests/ktap.sh

kver=$(uname -r)
have() { [ -n "$(find "/lib/modules/$kver" -name "$1.ko*" 2>/dev/null)" ]; }

ktap_begin demo 2
echo "# demo: kernel $(uname -a)"
ktap_ok booted
if have marker-example && have probe-example; then
	ok=1
	modprobe marker-example || ok=
	modprobe probe-example || ok=
	echo "# demo: cat /proc/marker-example"
	cat /proc/marker-example >/dev/null 2>&1 || ok=
	cat /proc/marker-example 2>&1 | sed 's/^/demo: /'
	echo "# demo: dmesg (last 20 lines)"
	dmesg | tail -n 20 | sed -e 's/^\[[^]]*\] *//' -e 's/^/demo: dmesg: /'
	modprobe -r probe-example 2>/dev/null; modprobe -r marker-example 2>/dev/null
	if [ -n "$ok" ]; then ktap_ok markers_sample; else ktap_fail markers_sample "see output above"; fi
else
	echo "# demo: markers are not in the series yet (no marker-example/probe-example module in /lib/modules/$kver)"
	ktap_skip markers_sample "markers not in the series yet"
fi
ktap_end
