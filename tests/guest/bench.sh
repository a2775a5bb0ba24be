#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench (scripts/bench.sh) boots with harness.only=bench: load the
# markers benchmark, a KUnit suite (lib/marker_bench.c) that prints its
# figures as "csv," diagnostic lines on the console, and unload it.
# harness.bench=P1=V1:P2=V2 gives it module parameters.
# harness.bench_filler=1: load marker_filler (50,000 unrelated marker
# sites) first, so that the update rows show the cost with them loaded.
# shellcheck source=ktap.sh
. /tests/ktap.sh

params=$(harness_arg bench | tr ':' ' ')
filler=$(harness_arg bench_filler || true)
n=2
[ -z "$filler" ] || n=3
ktap_begin markers_bench $n
[ -z "$filler" ] || ktap_check load_filler insmod /lib/test-modules/marker_filler.ko
# shellcheck disable=SC2086
ktap_check load modprobe marker_benchmark $params
ktap_check unload rmmod marker_benchmark
ktap_end
