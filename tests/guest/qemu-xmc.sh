#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Not part of make test: reproduces the QEMU multi-threaded TCG problem of
# tests/README.md ("QEMU"). The function tracer is switched on and off
# harness.xmc=N times (default 30; ftrace rewrites every traceable call
# site with text_poke_bp() each time) while four shell loops keep all
# CPUs in kernel code. Boot with harness.only=qemu-xmc.
# shellcheck source=ktap.sh
. /tests/ktap.sh
T=/sys/kernel/tracing
n=$(harness_arg xmc) || n=30
pids=
for _c in 1 2 3 4; do
	(while :; do cat /proc/self/stat /proc/interrupts >/dev/null; done) &
	pids="$pids $!"
done
ktap_begin qemu_xmc 1
i=0
while [ $i -lt "$n" ] && echo function > $T/current_tracer && echo nop > $T/current_tracer; do
	i=$((i + 1))
done
# shellcheck disable=SC2086 # one argument per pid
kill $pids
ktap_check tracer_toggled_n_times test "$i" = "$n"
ktap_end
