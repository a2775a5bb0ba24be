#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench: build, boot and run the markers benchmark (lib/marker_bench.c,
# CONFIG_MARKERS_BENCHMARK), then write bench/results/ and the figures of
# bench/README.md (scripts/bench-report.py).  See bench/README.md.
#
# Runs, each logged in build/logs/bench-NAME.log:
#   icount  QEMU TCG, -icount shift=0, 1 vCPU: the guest TSC counts
#           instructions, so per-hit figures are instruction counts
#   tcg     QEMU TCG multi-threaded, $SMP (4) vCPUs: update times (guest
#           clock, close to host wall time), IPIs and grace periods
#   um      User-Mode Linux (kunit.py --arch=um) on the host CPU: real TSC
#           ticks per hit, hot and cold caches (no immediate values there:
#           generic code)
#   kvm     with ACCEL=kvm, instead of icount and tcg: one boot on real
#           hardware, cold caches included
#   macro   QEMU TCG, -icount shift=0, 1 vCPU, one boot per kernel
#           compared (tests/guest/macro.sh): instructions per
#           sched_yield() and per 4 KiB null_blk I/O, blktrace off and on,
#           on the test kernel ("series"), the same config without the
#           series' options ("nomarkers"), the unpatched kernel ("stock",
#           scripts/stock.sh) and the series without the prof_on patch
#           ("noprof", scripts/stock.sh noprof)
# BENCH_RUNS="icount tcg um macro" selects runs (e.g. BENCH_RUNS=um); runs not
# selected keep their last log, so the report always covers every method.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logs=$top/build/logs
mkdir -p "$logs"

accel=${ACCEL:-tcg}
if [ "$accel" = kvm ]; then
	runs=${BENCH_RUNS:-kvm um}
else
	runs=${BENCH_RUNS:-icount tcg um macro}
fi
timeout=${BENCH_TIMEOUT:-3600}
# Module parameters, ':' separated (tests/guest/bench.sh).
icount_params=${BENCH_ICOUNT_PARAMS:-hits=300:loops=1000:loop_reps=5:cold=0:update_reps=3}
# Second icount boot, with tests/modules/marker_filler loaded: 1-site updates
# against 50,000 more unrelated marker sites (bench/README.md).
scale_params=${BENCH_SCALE_PARAMS:-hits=0:max_sites=1:update_reps=5:batch=0}
tcg_params=${BENCH_TCG_PARAMS:-hits=0:update_reps=5}
kvm_params=${BENCH_KVM_PARAMS:-hits=2000:thrash_kb=4096:update_reps=5}
um_params=${BENCH_UM_PARAMS:-hits=2000:loops=100000:thrash_kb=4096:update_reps=5}

need_x86=
for r in $runs; do
	case $r in icount|tcg|kvm|macro) need_x86=1 ;; um) ;; *) echo "bench.sh: unknown run $r" >&2; exit 1 ;; esac
done

sh scripts/setup.sh
sh scripts/tree.sh prepare
# The x86_64 objects are also what the size figures are read from.
BENCH_MODULES=1 sh scripts/build.sh x86_64
# The same config with the series' options off: the functions holding
# block markers are compared with it (bench/README.md, target 8).
SKIP_EXT=1 sh scripts/build.sh x86_64 nomarkers
if [ -n "$need_x86" ]; then
	BENCH_MODULES=1 sh tests/mkinitramfs.sh x86_64 build/obj-x86_64 build/initramfs-x86_64.cpio.gz
fi

# record LOG: the host and the trees a run measured, written into its log
# when it ran ("csv,meta," lines, read by scripts/bench-report.py).
record() {
	_dirty=
	[ -n "$(git -C "$top" status --porcelain -- patches scripts tests lib 2>/dev/null)" ] &&
		_dirty=" (with uncommitted changes)"
	{
		echo "csv,meta,host,$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs, $(uname -sr)"
		echo "csv,meta,project,$(git -C "$top" rev-parse --short HEAD)$_dirty"
		echo "csv,meta,series,$(git -C "$top/build/linux" log --oneline -1)"
	} >>"$1"
}

boot() { # NAME CMDLINE RUN.PY-ARGS...
	name=$1 cmdline=$2
	shift 2
	echo "bench.sh: run $name ($cmdline)"
	start=$(date +%s)
	python3 scripts/run.py --arch x86_64 --name "bench-$name" --expect none \
		--timeout "$timeout" --append "$cmdline" "$@" ||
		{ echo "bench.sh: run $name failed, see build/logs/bench-$name.log" >&2; exit 1; }
	record "$logs/bench-$name.log"
	echo "bench.sh: run $name took $(($(date +%s) - start)) s"
}

for r in $runs; do
	case $r in
	icount)
		SMP=1 boot icount "harness.only=bench harness.bench=$icount_params" --icount 0
		# Its own boot: one boot may not report a KUnit case twice.
		SMP=1 boot icount-scale "harness.only=bench harness.bench=$scale_params harness.bench_filler=1" \
			--icount 0
		;;
	tcg) boot tcg "harness.only=bench harness.bench=$tcg_params" ;;
	kvm) boot kvm "harness.only=bench harness.bench=$kvm_params" ;;
	macro)
		sh scripts/stock.sh
		sh scripts/stock.sh noprof
		for k in series nomarkers stock noprof; do
			obj=build/obj-x86_64
			[ $k = series ] || obj=$obj-$k
			img=build/initramfs-x86_64-macro-$k.cpio.gz
			sh tests/mkinitramfs.sh x86_64 $obj $img
			SMP=1 boot macro-$k "harness.only=macro harness.macro=$k" --icount 0 \
				--kernel $obj/arch/x86/boot/bzImage --initrd $img
		done
		;;
	um)
		# kunit.py builds a UML kernel with bench/um.kunitconfig and runs
		# the suite; its parameters go on the UML command line.
		args=$(echo "$um_params" | tr ':' '\n' | sed 's/^/marker_benchmark./' | tr '\n' ' ')
		echo "bench.sh: run um ($um_params)"
		start=$(date +%s)
		python3 build/linux/tools/testing/kunit/kunit.py run --arch=um \
			--build_dir="$top/build/obj-um" --kunitconfig="$top/bench/um.kunitconfig" \
			--jobs="$(nproc)" --timeout="$timeout" --kernel_args="$args" \
			--raw_output=all 'marker_benchmark' >"$logs/bench-um.log" 2>&1 ||
			{ tail -n 30 "$logs/bench-um.log" >&2; echo "bench.sh: run um failed, see build/logs/bench-um.log" >&2; exit 1; }
		# kunit.py --raw_output does not judge: the suite must have passed.
		if ! grep -Eq '(^|\] )ok [0-9]+ marker_benchmark' "$logs/bench-um.log" ||
			grep -Eq '(^|\] | )not ok ' "$logs/bench-um.log"; then
			echo "bench.sh: marker_benchmark failed on UML, see build/logs/bench-um.log" >&2
			exit 1
		fi
		record "$logs/bench-um.log"
		echo "bench.sh: run um took $(($(date +%s) - start)) s"
		;;
	esac
done

python3 scripts/bench-report.py
