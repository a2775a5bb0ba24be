#!/bin/sh
# scripts/selftest.sh ARCH: prove that the harness catches what it must.
#
# Host side (no QEMU): scripts/run.py --parse on the synthetic logs in
# tests/selftest/ (plan check, interleaving, console checks, the debug
# kernels' sanitizer reports), and
# scripts/blkcmp.py on two synthetic blktrace logs (equal, one difference).
# Guest side: three boots with an injected fault, each of which run.py must
# fail for the right reason:
#   fail  harness_selftest.ko fail=1: a KUnit case fails
#   warn  harness_selftest.ko warn=1: WARN_ON() in module init
#   hang  /init sleeps forever: run.py must kill QEMU at the timeout (the
#         built-in KUnit suites are off, so that a slow machine reaches
#         /init well before it)
# Prints a KTAP document and, last, one line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: selftest.sh ARCH}
run="python3 $top/scripts/run.py"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
trap 'exit 143' INT TERM
n=0 pass=0 fail=0

# result NAME COND...: one KTAP line; COND is a command (usually a grep on $out)
result() {
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		pass=$((pass + 1))
		echo "ok $n $name"
	else
		fail=$((fail + 1))
		echo "not ok $n $name"
	fi
}
# run_rc CMD...: run CMD with its output in $out (shown as "#   " lines), set rc
run_rc() {
	"$@" >"$out" 2>&1
	rc=$?
	sed 's/^/#   /' "$out"
}
has() { grep -q -- "$1" "$out"; }
last_is() { [ "$(tail -n 1 "$out")" = "$1" ]; }

echo "KTAP version 1"
echo "# Suite: selftest_$arch"
echo "1..9"

# 1. A clean log with interleaved kernel output, nested and parameterised
#    KUnit suites and a line cut in two by a kernel message.
run_rc $run --parse "$top/tests/selftest/good.log" --expect none
result parser_good_log test $rc = 0 -a "$(tail -n 1 "$out")" = "7 passed, 0 failed, 1 skipped"

# 2. A KTAP plan that promises more tests than were reported.
run_rc $run --parse "$top/tests/selftest/missing-test.log" --expect none
result parser_missing_test eval 'test $rc != 0 &&
	has "FAIL: boot: planned 3 test(s) but 2 reported" &&
	has "FAIL: not ok kunit_suite.bad_case" && last_is "3 passed, 2 failed"'

# 3. Console checks and the missing final marker.
run_rc $run --parse "$top/tests/selftest/warn.log" --expect none
result parser_warn_log eval 'test $rc != 0 && has "FAIL: console: WARNING" &&
	has "FAIL: console: backtrace" && has "FAIL: guest did not finish"'

# 4. The reports of the debug kernels of make stress (KASAN, KCSAN,
#    lockdep, RCU stall, kmemleak, sleep in atomic): each one is a failure.
run_rc $run --parse "$top/tests/selftest/sanitizers.log" --expect none
result parser_sanitizer_log eval 'test $rc != 0 && has "FAIL: console: KASAN report" &&
	has "FAIL: console: KCSAN report" && has "FAIL: console: lockdep report" &&
	has "FAIL: console: RCU stall" && has "FAIL: console: kmemleak report" &&
	has "FAIL: console: BUG (line" && last_is "1 passed, 6 failed"'

# 5, 6. The blktrace comparison: a log equals itself, and one changed
#    event (its size) is reported as a difference, with the diff.
blk=$top/tests/selftest
run_rc python3 "$top/scripts/blkcmp.py" "$blk/blkcmp-stock.log" "$blk/blkcmp-stock.log"
result blkcmp_identical eval 'test $rc = 0 && last_is "3 passed, 0 failed"'
run_rc python3 "$top/scripts/blkcmp.py" "$blk/blkcmp-patched.log" "$blk/blkcmp-stock.log"
result blkcmp_difference eval 'test $rc != 0 && has "^not ok 2 solo_vda" &&
	has "^# +D WS 2048 4096" && has "^ok 1 solo_ram0" && last_is "2 passed, 1 failed"'

# 7..9. Boots with an injected fault.
only=harness.only=harness
run_rc $run --arch "$arch" --name "$arch-selftest-fail" --expect none \
	--append "$only harness.selftest=fail"
result boot_fail_detected eval 'test $rc != 0 &&
	has "^FAIL: not ok harness_selftest.harness_selftest_injected_failure" &&
	tail -n 1 "$out" | grep -q " passed, 1 failed"'

run_rc $run --arch "$arch" --name "$arch-selftest-warn" --expect none \
	--append "$only harness.selftest=warn"
result boot_warn_detected eval 'test $rc != 0 &&
	grep -q "^FAIL: console: WARNING .*harness_selftest" "$out" &&
	! has "^FAIL: not ok"'

run_rc $run --arch "$arch" --name "$arch-selftest-hang" --expect none \
	--append "harness.selftest=hang kunit.enable=0" --timeout "${HANG_TIMEOUT:-40}"
result boot_hang_detected eval 'test $rc != 0 &&
	has "^FAIL: guest did not finish (timeout" &&
	grep -q "harness: selftest=hang: sleeping forever" "$top/build/logs/$arch-selftest-hang.log"'

echo "$pass passed, $fail failed"
[ $fail = 0 ]
