# SPDX-License-Identifier: GPL-2.0
# Sourced by scripts/test.sh and scripts/stress.sh: the steps of a run and
# its total, in one protocol, KTAP.  Every step prints KTAP; "run.py step"
# takes the last top-level document of its output (and its exit status)
# and re-emits it under the step's label into build/logs/RUN.ktap; at the
# end "run.py total" sums that file into the last line of the run,
# "N passed, N failed[, N skipped]".
#
#   steps_begin RUN        start build/logs/RUN.ktap
#   step LABEL CMD...      run CMD, show its output, add its document
#   broken LABEL WHY       a step that could not run: one failed case
#   took WHAT START        "RUN: WHAT took N s" (START: date +%s)
#   total                  the sum; exits 0 only if nothing failed
# shellcheck disable=SC2154 # $top: set by the script that sources this
: "${top:?steps.sh needs $top, the checkout}"
steps_tmp=$(mktemp -d)
trap 'rm -rf "$steps_tmp"' EXIT
trap 'exit 143' INT TERM

steps_begin() {
	steps_run=$1
	steps_ktap=$top/build/logs/$1.ktap
	mkdir -p "$top/build/logs"
	# Two runs of one name would add their steps to one file, and both
	# totals would be wrong: the second waits for nothing, it stops.
	exec 9>"$top/build/logs/$1.lock"
	if ! flock -n 9; then
		echo "steps.sh: another $1 run is in progress (build/logs/$1.lock)" >&2
		exit 1
	fi
	: >"$steps_ktap"
}

# steps_add LABEL: add $steps_tmp/ktap to the run, with a line for people.
steps_add() {
	cat "$steps_tmp/ktap" >>"$steps_ktap"
	echo "$1: $(python3 "$top/scripts/run.py" total "$steps_tmp/ktap")"
}

step() {
	_label=$1
	shift
	{ "$@" 2>&1; echo $? >"$steps_tmp/rc"; } | tee "$steps_tmp/out"
	python3 "$top/scripts/run.py" step "$_label" "$steps_tmp/out" "$(cat "$steps_tmp/rc")" \
		>"$steps_tmp/ktap"
	steps_add "$_label"
}

broken() {
	printf 'KTAP version 1\n# Suite: %s\n1..1\n# %s\nnot ok 1 %s\n' "$1" "$2" "$1" >"$steps_tmp/ktap"
	steps_add "$1"
}

took() {
	echo "$steps_run: $1 took $(($(date +%s) - $2)) s"
}

total() {
	python3 "$top/scripts/run.py" total "$steps_ktap"
	exit
}
