#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/shellcheck.sh: shellcheck over every shell script of the tree
# (settings in .shellcheckrc), one KTAP case per script; last line
# "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
files=$(git ls-files -- '*.sh' tests/guest/init .ci/run)
n=0 pass=0 fail=0
echo "KTAP version 1"
echo "# Suite: shellcheck"
echo "1..$(echo "$files" | wc -l)"
for f in $files; do
	n=$((n + 1))
	shell='sh'
	head -n 1 "$f" | grep -q bash && shell=bash
	if out=$(shellcheck -s "$shell" "$f" 2>&1); then
		pass=$((pass + 1))
		echo "ok $n $f"
	else
		fail=$((fail + 1))
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok $n $f"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
