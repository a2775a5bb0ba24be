#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Basic sanity of the guest environment the other scripts rely on.
# shellcheck source=ktap.sh
. /tests/ktap.sh

ktap_begin boot 6
ktap_check proc_mounted test -r /proc/cmdline
ktap_check debugfs_mounted test -d /sys/kernel/debug/kunit
ktap_check tracefs_mounted test -e /sys/kernel/tracing/trace
ktap_check modules_match_kernel test -f "/lib/modules/$(uname -r)/modules.dep"
if [ -n "$(find "/lib/modules/$(uname -r)" -name 'null_blk.ko*' 2>/dev/null)" ]; then
	ktap_check modprobe_null_blk modprobe null_blk
	ktap_check rmmod_null_blk rmmod null_blk
else
	ktap_skip modprobe_null_blk "null_blk not built as a module"
	ktap_skip rmmod_null_blk "null_blk not built as a module"
fi
# What the CPU the guest runs on lets the kernel's mitigations do: under
# TCG there is no IBT, so a kernel built with it runs its ENDBRs as NOPs.
for f in /sys/devices/system/cpu/vulnerabilities/spectre_v2 \
	/sys/devices/system/cpu/vulnerabilities/retbleed; do
	[ -r "$f" ] && ktap_diag "${f##*/}: $(cat "$f")"
done
if grep -q '^flags' /proc/cpuinfo; then
	_ibt=absent
	grep -qw ibt /proc/cpuinfo && _ibt=present
	ktap_diag "cpu flag ibt: $_ibt; kernel: $(dmesg | grep -o 'CET detected.*' | head -n 1)"
fi
ktap_end
