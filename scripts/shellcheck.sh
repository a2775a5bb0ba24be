#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/shellcheck.sh: shellcheck over every shell script of the tree
# (settings in .shellcheckrc), one KTAP case per script; last line
# "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
files=$(git ls-files -- '*.sh' tests/guest/init .ci/run)
# shellcheck disable=SC1091 # tests/guest/ktap.sh is checked on its own
. "$top/tests/guest/ktap.sh"
ktap_begin shellcheck "$(echo "$files" | wc -l)"
for f in $files; do
	shell='sh'
	head -n 1 "$f" | grep -q bash && shell=bash
	ktap_check "$f" shellcheck -s "$shell" "$f"
done
ktap_summary
