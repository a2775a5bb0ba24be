#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/um-test.sh: the immediate values and markers KUnit suites
# (the tree's kernel/.kunitconfig, with debugfs) in a User-Mode Linux
# kernel built and run by kunit.py. UML x86_64 patches its immediate
# values like x86, on the host CPU. PCI over virtio, which kunit.py's UML
# defaults enable, is off: without a device it warns at boot, and no
# test here needs it. The console goes to build/logs/um.log,
# judged by scripts/run.py as a boot is: every case in
# tests/expected/um.txt, no splat. Prints KTAP.
#
# scripts/um-test.sh generic: the same suites with DISABLE_IMMEDIATE,
# markers on generic immediate values, which no kernel of make test
# builds (its nomarkers kernel has both off): build/obj-um-generic,
# build/logs/um-generic.log, tests/expected/um-generic.txt. A second UML
# build, about 4 min from nothing: "make um-generic", not part of make test.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
variant=${1:-}
name=um obj=obj-um-test
set --
case $variant in
'') ;;
generic)
	name=um-generic obj=obj-um-generic
	set -- --kconfig_add CONFIG_EXPERT=y --kconfig_add CONFIG_DISABLE_IMMEDIATE=y ;;
*) echo "um-test.sh: unknown variant $variant" >&2; exit 1 ;;
esac
mkdir -p build/logs
log=build/logs/$name.log
start=$(date +%s)
python3 build/linux/tools/testing/kunit/kunit.py run --arch=um \
	--build_dir="$top/build/$obj" --kunitconfig="$top/build/linux/kernel" \
	--kconfig_add CONFIG_DEBUG_FS=y "$@" \
	--kconfig_add CONFIG_UML_PCI_OVER_VIRTIO=n --jobs="$(nproc)" --timeout=600 \
	--kernel_args=immediate_test_early=1234 --raw_output=all >"$log" 2>&1 ||
	echo "um-test.sh: kunit.py failed, see $log"
echo "um-test.sh: kunit.py took $(($(date +%s) - start)) s"
exec python3 scripts/run.py --arch x86_64 --parse "$log" --expect "tests/expected/$name.txt" \
	--done 'reboot: System halted'
