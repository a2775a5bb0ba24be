#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debug kernels (CONFIG_DEBUG_KMEMLEAK): forget what kmemleak suspects from
# boot, so that 90-kmemleak.sh reports only what the tests leaked.
# shellcheck source=ktap.sh
. /tests/ktap.sh

k=/sys/kernel/debug/kmemleak
ktap_begin kmemleak_clear 1
if [ -w $k ]; then
	ktap_check clear sh -c "echo scan > $k && echo clear > $k"
else
	ktap_skip clear "no $k (kernel without CONFIG_DEBUG_KMEMLEAK)"
fi
ktap_end
