#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/fuzz.sh: fuzz the marker format parser (kernel/trace/trace_markers_fmt.c
# of build/linux) as a host program, tests/fuzz/marker_fmt_fuzz.c.
#
#   FUZZ_SECONDS   length of the libFuzzer run (default 60)
#
# Checks, each one result: the seed corpus (tests/fuzz/corpus) passes; a
# bounded libFuzzer run finds nothing; and the harness itself catches a
# bug injected into a copy of the parser (an off-by-one in the field
# limit), so that a clean run means something.  Without libFuzzer (clang
# and libclang-rt-14-dev) it falls back to the deterministic random
# driver built into the harness (-DFUZZ_STANDALONE), with gcc.
# Prints KTAP (the plan at the end) and a last line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/linux/kernel/trace
out=$top/build/fuzz
secs=${FUZZ_SECONDS:-60}
# shellcheck disable=SC1091 # tests/guest/ktap.sh is checked on its own
. "$top/tests/guest/ktap.sh"
# ok TEXT / ko TEXT: a KTAP result named by TEXT up to its first ':' or
# '(', with TEXT as its diagnostic; summary: the plan, at the end.
name() { echo "$1" | sed 's/[:(].*//; s/[^A-Za-z0-9]\{1,\}/_/g; s/_$//'; }
ok() { ktap_diag "$*"; ktap_ok "$(name "$*")"; }
ko() { ktap_diag "$*"; ktap_fail "$(name "$*")"; }
summary() { ktap_summary; exit; }
ktap_begin fuzz

[ -f "$src/trace_markers_fmt.c" ] || { ko "no $src/trace_markers_fmt.c (make tree)"; summary; }
rm -rf "$out"
mkdir -p "$out/corpus" "$out/inject"
cp "$top"/tests/fuzz/corpus/* "$out/corpus/"
# The injected bug: one field too many is accepted.
sed 's/fmt->nr_fields == MARKER_FMT_MAX_FIELDS/fmt->nr_fields > MARKER_FMT_MAX_FIELDS/' \
	"$src/trace_markers_fmt.c" >"$out/inject/trace_markers_fmt.c"
cmp -s "$src/trace_markers_fmt.c" "$out/inject/trace_markers_fmt.c" &&
	{ ko "selftest: the bug injection no longer applies to trace_markers_fmt.c"; summary; }

# The one definition of the longest format is the kernel's.
maxlen=$(sed -n 's/^#define MARK_MAX_FORMAT_LEN[[:space:]]*\([0-9]*\).*/\1/p' \
	"$src/../../include/linux/marker.h")
[ -n "$maxlen" ] || { ko "no MARK_MAX_FORMAT_LEN in include/linux/marker.h"; summary; }
flags="-g -O1 -Wall -Wextra -Werror -Wno-sign-compare -DMARK_MAX_FORMAT_LEN=$maxlen -I$src"
harness=$top/tests/fuzz/marker_fmt_fuzz.c
# shellcheck disable=SC2086 # $flags: option string
if clang -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $flags \
	-o "$out/fuzz" "$harness" "$src/trace_markers_fmt.c" 2>"$out/build.log"; then
	# shellcheck disable=SC2086 # $flags: option string
	clang -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $flags \
		-o "$out/fuzz-inject" "$harness" "$out/inject/trace_markers_fmt.c" ||
		{ ko "build of the injected-bug fuzzer"; summary; }
	opts="-max_len=1100 -timeout=10 -rss_limit_mb=2048"
	# shellcheck disable=SC2086 # $opts: option string
	if "$out/fuzz" $opts -runs=0 "$out/corpus" >"$out/seeds.log" 2>&1; then
		# shellcheck disable=SC2012 # only counts the entries
		ok "seeds: $(ls "$top"/tests/fuzz/corpus | wc -l) formats of tests/fuzz/corpus"
	else
		tail -n 20 "$out/seeds.log"; ko "seeds"
	fi
	# -jobs would need more cores than CI has: one process.
	# shellcheck disable=SC2086 # $opts: option string
	if "$out/fuzz" $opts -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$out/" "$out/corpus" >"$out/fuzz.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
		# shellcheck disable=SC2012 # only counts the entries
		ok "libFuzzer: ${runs:-?} runs in $secs s, $(ls "$out/corpus" | wc -l) corpus entries, no failure"
	else
		tail -n 30 "$out/fuzz.log"; ko "libFuzzer found a failure (artifacts in ${out#"$top"/}/)"
	fi
	# The same run on the injected bug must fail, and for that reason.
	# shellcheck disable=SC2086 # $opts: option string
	"$out/fuzz-inject" $opts -max_total_time=60 -artifact_prefix="$out/inject/" \
		"$out/corpus" >"$out/inject.log" 2>&1
	if grep -q -e 'too many fields' -e 'ERROR: AddressSanitizer' "$out/inject.log"; then
		ok "selftest: the injected bug is caught ($(grep -m1 -o -e 'too many fields' -e 'AddressSanitizer: [a-z-]*' "$out/inject.log"))"
	else
		tail -n 20 "$out/inject.log"; ko "selftest: the injected bug was not caught"
	fi
else
	echo "fuzz.sh: no libFuzzer ($(head -n 1 "$out/build.log")); deterministic random driver instead"
	cc=$(command -v clang || echo gcc)
	# shellcheck disable=SC2086 # $flags: option string
	$cc -DFUZZ_STANDALONE -fsanitize=address,undefined -fno-sanitize-recover=all $flags \
		-o "$out/fuzz" "$harness" "$src/trace_markers_fmt.c" || { ko "build of the fuzzer"; summary; }
	# shellcheck disable=SC2086 # $flags: option string
	$cc -DFUZZ_STANDALONE -fsanitize=address,undefined -fno-sanitize-recover=all $flags \
		-o "$out/fuzz-inject" "$harness" "$out/inject/trace_markers_fmt.c" ||
		{ ko "build of the injected-bug fuzzer"; summary; }
	if "$out/fuzz" 1000000 1 >"$out/fuzz.log" 2>&1; then
		ok "$(tail -n 1 "$out/fuzz.log")"
	else
		tail -n 20 "$out/fuzz.log"; ko "random formats"
	fi
	if "$out/fuzz-inject" 1000000 1 >"$out/inject.log" 2>&1; then
		ko "selftest: the injected bug was not caught"
	else
		ok "selftest: the injected bug is caught"
	fi
fi
summary
