#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The conditions below are eval'ed, so single-quoted, and read $rc.
# shellcheck disable=SC2016,SC2034
# scripts/selftest.sh ARCH: prove that the harness catches what it must in
# a real boot (the verdicts themselves are unit-tested on sample logs by
# scripts/run_test.py): three boots with an injected fault, each of which
# run.py must fail for the right reason:
#   fail  harness_selftest.ko fail=1: a KUnit case fails
#   warn  harness_selftest.ko warn=1: WARN_ON() in module init
#   hang  /init sleeps forever: run.py must kill QEMU at the timeout (the
#         built-in KUnit suites are off, so that a slow machine reaches
#         /init well before it)
# Prints a KTAP document and, last, one line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: selftest.sh ARCH}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
trap 'exit 143' INT TERM
# shellcheck disable=SC1091 # tests/guest/ktap.sh is checked on its own
. "$top/tests/guest/ktap.sh"

# result NAME COND...: one KTAP line; COND is a command (usually a grep on $out)
result() {
	name=$1
	shift
	if "$@"; then ktap_ok "$name"; else ktap_fail "$name"; fi
}
# run_rc CMD...: run CMD with its output in $out (shown as "#   " lines), set rc
run_rc() {
	"$@" >"$out" 2>&1
	rc=$?
	sed 's/^/#   /' "$out"
}
has() { grep -q -- "$1" "$out"; }

ktap_begin "selftest_$arch" 3

# Boots with an injected fault.
only=harness.only=harness
run_rc python3 "$top/scripts/run.py" --arch "$arch" --name "$arch-selftest-fail" --expect none \
	--append "$only harness.selftest=fail"
result boot_fail_detected eval 'test $rc != 0 &&
	has "^FAIL: not ok harness_selftest.harness_selftest_injected_failure" &&
	tail -n 1 "$out" | grep -q " passed, 1 failed"'

run_rc python3 "$top/scripts/run.py" --arch "$arch" --name "$arch-selftest-warn" --expect none \
	--append "$only harness.selftest=warn"
result boot_warn_detected eval 'test $rc != 0 &&
	grep -q "^FAIL: console: WARNING .*harness_selftest" "$out" &&
	! has "^FAIL: not ok"'

run_rc python3 "$top/scripts/run.py" --arch "$arch" --name "$arch-selftest-hang" --expect none \
	--append "harness.selftest=hang kunit.enable=0" --timeout "${HANG_TIMEOUT:-40}"
result boot_hang_detected eval 'test $rc != 0 &&
	has "^FAIL: guest did not finish (timeout" &&
	grep -q "harness: selftest=hang: sleeping forever" "$top/build/logs/$arch-selftest-hang.log"'

ktap_summary
