#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Loads the harness self-test KUnit module (tests/modules/harness_selftest).
# Its KUnit results are printed by the kernel as a separate KTAP document.
# harness.selftest=fail|warn on the kernel command line injects a fault:
# scripts/selftest.sh checks that scripts/run.py reports it.
# shellcheck source=ktap.sh
. /tests/ktap.sh

ko=/lib/test-modules/harness_selftest.ko
params=
case $(harness_arg selftest) in
fail) params="fail=1" ;;
warn) params="warn=1" ;;
esac

ktap_begin harness 3
if [ -f "$ko" ]; then
	ktap_ok module_present
	# shellcheck disable=SC2086
	ktap_check insmod_harness_selftest insmod "$ko" $params
	ktap_check rmmod_harness_selftest rmmod harness_selftest
else
	ktap_fail module_present "$ko missing"
	ktap_skip insmod_harness_selftest "no module"
	ktap_skip rmmod_harness_selftest "no module"
fi
ktap_end
