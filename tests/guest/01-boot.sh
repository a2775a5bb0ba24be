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
ktap_end
