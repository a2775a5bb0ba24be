#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench (scripts/bench.sh) boots with harness.only=bench: load the
# markers benchmark, a KUnit suite (lib/marker_bench.c) that prints its
# figures as "csv," diagnostic lines on the console, and unload it.
# harness.bench=P1=V1:P2=V2 gives it module parameters.
# harness.bench_scale=P1=V1:...: then load marker_filler (50,000 unrelated
# marker sites) and run the benchmark again with those parameters, so that
# its update rows show the cost with those sites loaded.
# shellcheck source=ktap.sh
. /tests/ktap.sh

params=$(harness_arg bench | tr ':' ' ')
scale=
if scale=$(harness_arg bench_scale); then
	scale=$(echo "$scale" | tr ':' ' ')
	ktap_begin markers_bench 5
else
	ktap_begin markers_bench 2
fi
# shellcheck disable=SC2086
ktap_check load modprobe marker_benchmark $params
ktap_check unload rmmod marker_benchmark
if [ -n "$scale" ]; then
	ktap_check load_filler insmod /lib/test-modules/marker_filler.ko
	# shellcheck disable=SC2086
	ktap_check load_scale modprobe marker_benchmark $scale
	ktap_check unload_scale rmmod marker_benchmark marker_filler
fi
ktap_end
