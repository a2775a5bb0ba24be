# SPDX-License-Identifier: GPL-2.0
# KTAP helpers for guest test scripts (POSIX sh, sourced: . /tests/ktap.sh).
#
#   ktap_begin SUITE [N]      print the document header and the plan 1..N
#                             (without N, ktap_summary prints it at the end)
#   ktap_ok NAME              result: pass
#   ktap_fail NAME [WHY]      result: fail (WHY becomes a "# " diagnostic)
#   ktap_skip NAME REASON     result: skip ("ok N NAME # SKIP REASON")
#   ktap_check NAME CMD...    run CMD; pass if it exits 0, else fail and
#                             show its output as diagnostics
#   ktap_check_shown NAME CMD...  the same, showing the output either way
#   ktap_diag TEXT            a "# TEXT" diagnostic line
#   ktap_end                  print a "# SUITE: pass:.. fail:.. skip:.." line
#   ktap_summary              end a host script (scripts/*.sh): the plan if
#                             ktap_begin had none, "N passed, N failed[, N
#                             skipped]", a planned case that never reported
#                             counted as failed, and one failure more for
#                             cases beyond the plan; returns 0 if none failed
#   kmsg_mark                 remember this point of the kernel log
#   kmsg_since                print the kernel log written since kmsg_mark
#
# One script = one top-level KTAP document (see tests/README.md):
#   KTAP version 1
#   # Suite: SUITE
#   1..N
#   ok 1 case_name
#   not ok 2 other_case
#   ok 3 third_case # SKIP reason
# Every line is written with a single printf so that it reaches the console
# in one write.  Case names must not contain '#'; use_underscores.

ktap_n=0
ktap_pass=0
ktap_failed=0
ktap_skipped=0
ktap_suite=
ktap_plan=

ktap_begin() {
	ktap_suite=$1
	ktap_plan=${2-}
	ktap_n=0 ktap_pass=0 ktap_failed=0 ktap_skipped=0
	printf 'KTAP version 1\n'
	printf '# Suite: %s\n' "$1"
	[ -z "$ktap_plan" ] || printf '1..%s\n' "$ktap_plan"
}

ktap_diag() {
	printf '# %s\n' "$*"
}

ktap_ok() {
	ktap_n=$((ktap_n + 1)) ktap_pass=$((ktap_pass + 1))
	printf 'ok %d %s\n' "$ktap_n" "$1"
}

ktap_fail() {
	[ $# -gt 1 ] && ktap_diag "$1: $2"
	ktap_n=$((ktap_n + 1)) ktap_failed=$((ktap_failed + 1))
	printf 'not ok %d %s\n' "$ktap_n" "$1"
}

ktap_skip() {
	ktap_n=$((ktap_n + 1)) ktap_skipped=$((ktap_skipped + 1))
	printf 'ok %d %s # SKIP %s\n' "$ktap_n" "$1" "${2:-skipped}"
}

ktap_check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ktap_ok "$_name"
	else
		_rc=$?
		printf '%s\n' "$_out" | while IFS= read -r _l; do printf '# %s\n' "$_l"; done
		ktap_fail "$_name" "'$*' exited $_rc"
	fi
}

# ktap_check_shown NAME CMD...: ktap_check, but CMD's output is shown as
# diagnostics whether it passes or not: the figures the case compared.
ktap_check_shown() {
	_name=$1
	shift
	_out=$("$@" 2>&1)
	_rc=$?
	printf '%s\n' "$_out" | while IFS= read -r _l; do printf '# %s\n' "$_l"; done
	if [ $_rc = 0 ]; then ktap_ok "$_name"; else ktap_fail "$_name" "'$*' exited $_rc"; fi
}

ktap_end() {
	printf '# %s: pass:%d fail:%d skip:%d total:%d\n' "$ktap_suite" \
		"$ktap_pass" "$ktap_failed" "$ktap_skipped" "$ktap_n"
}

ktap_summary() {
	if [ -z "$ktap_plan" ]; then
		printf '1..%d\n' "$ktap_n"
	elif [ "$ktap_n" -lt "$ktap_plan" ]; then
		ktap_diag "$ktap_n of $ktap_plan planned cases reported"
		ktap_failed=$((ktap_failed + ktap_plan - ktap_n))
	elif [ "$ktap_n" -gt "$ktap_plan" ]; then
		ktap_diag "$ktap_n cases reported, $ktap_plan planned"
		ktap_failed=$((ktap_failed + 1))
	fi
	printf '%d passed, %d failed' "$ktap_pass" "$ktap_failed"
	[ "$ktap_skipped" = 0 ] || printf ', %d skipped' "$ktap_skipped"
	printf '\n'
	[ "$ktap_failed" = 0 ]
}

# harness_arg NAME: value of harness.NAME=... on the kernel command line.
harness_arg() {
	# shellcheck disable=SC2013 # the command line is split into words
	for _a in $(cat /proc/cmdline); do
		case $_a in "harness.$1="*) printf '%s\n' "${_a#*=}"; return 0 ;; esac
	done
	return 1
}

# immediate_stat FIELD: a counter of /sys/kernel/debug/immediate/stats
# (batches, sites: the patching immediate values have done), empty
# without immediate values.
immediate_stat() {
	sed -n "s/^$1 //p" /sys/kernel/debug/immediate/stats 2>/dev/null
}

# kmsg_mark writes a line of its own to /dev/kmsg; kmsg_since prints what
# follows it in the kernel log.  If the log buffer wrapped past the mark,
# kmsg_since says so on the console as a harness error (which fails the
# run, scripts/run.py) instead of looking at the wrong lines.
kmsg_mark() {
	_kmsg_tag="harness: log mark $$.$(cut -d' ' -f1 /proc/uptime)"
	echo "$_kmsg_tag" > /dev/kmsg
}

kmsg_since() {
	dmesg > /tmp/.kmsg.$$
	if ! grep -q -F "${_kmsg_tag:-no mark}" /tmp/.kmsg.$$; then
		echo "harness: error: kernel log wrapped past '${_kmsg_tag:-no mark}' (or no kmsg_mark)" > /dev/console
	fi
	awk -v t="${_kmsg_tag:-no mark}" 'f { print } index($0, t) { f = 1 }' /tmp/.kmsg.$$
	rm -f /tmp/.kmsg.$$
}
