#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make profile: where the instructions of one 4 KiB null_blk read go,
# function by function, and the L1 cache misses QEMU's cache model
# counts per read, on the test kernel ("series"), the same config without
# the series' options ("nomarkers") and the unpatched kernel ("stock"):
# the disarmed half of bench/README.md's target 6, function by function.
#
# The plugins are built from Debian's qemu source of the installed
# qemu-system-x86 (its plugin header and contrib/plugins/cache.c, as
# shipped) and bench/plugins/pccount.c, into build/plugins.  Each kernel
# boots under -icount shift=0 with tests/guest/macro.sh's
# harness.macro_ios=N (N reads, nothing else), once with N=$lo and once
# with N=$hi per plugin: the difference of two boots' counts over hi-lo
# is what one read costs, the boot left out.  scripts/profile.py writes
# bench/results/profile.txt.  Logs: build/logs/profile-*.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
lo=${PROFILE_LO:-1000}
hi=${PROFILE_HI:-41000}
kernels=${PROFILE_KERNELS:-series nomarkers stock}
plugins=$top/build/plugins
logs=$top/build/logs
mkdir -p "$plugins" "$logs"

# Debian's qemu source, only its plugin files, once per qemu version.
build_plugins() {
	ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86)
	[ "$(cat "$plugins/version" 2>/dev/null)" = "$ver" ] &&
		[ -f "$plugins/libcache.so" ] && [ -f "$plugins/libpccount.so" ] &&
		[ -z "$(find bench/plugins/pccount.c -newer "$plugins/libpccount.so")" ] && return 0
	src=$plugins/src
	rm -rf "$src"
	mkdir -p "$src/lists/partial"
	echo "deb-src http://deb.debian.org/debian bookworm main" >"$src/sources.list"
	echo "deb-src http://deb.debian.org/debian-security bookworm-security main" >>"$src/sources.list"
	aptopts="-o Dir::Etc::SourceList=$src/sources.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$src/lists"
	# shellcheck disable=SC2086 # options, split on purpose
	apt-get $aptopts update -q >"$logs/profile-apt.log" 2>&1
	# shellcheck disable=SC2086
	(cd "$src" && apt-get $aptopts source --download-only "qemu=$ver") >>"$logs/profile-apt.log" 2>&1 ||
		{ tail "$logs/profile-apt.log" >&2; echo "profile.sh: no qemu source $ver" >&2; exit 1; }
	tar -C "$src" -xJf "$src"/qemu_*.orig.tar.xz --wildcards \
		'qemu-*/include/qemu/qemu-plugin.h' 'qemu-*/contrib/plugins/cache.c'
	inc=$(echo "$src"/qemu-*/include/qemu)
	cflags="-O2 -fPIC -shared -Wall $(pkg-config --cflags glib-2.0) -I$inc"
	libs=$(pkg-config --libs glib-2.0)
	# shellcheck disable=SC2086
	gcc $cflags -o "$plugins/libcache.so" "$src"/qemu-*/contrib/plugins/cache.c $libs
	# shellcheck disable=SC2086
	gcc $cflags -Werror -o "$plugins/libpccount.so" bench/plugins/pccount.c $libs
	echo "$ver" >"$plugins/version"
}

sh scripts/setup.sh
sh scripts/tree.sh prepare
build_plugins
sh scripts/build.sh x86_64
SKIP_EXT=1 sh scripts/build.sh x86_64 nomarkers
sh scripts/stock.sh

for k in $kernels; do
	obj=build/obj-x86_64
	[ "$k" = series ] || obj=$obj-$k
	img=build/initramfs-x86_64-macro-$k.cpio.gz
	sh tests/mkinitramfs.sh x86_64 "$obj" "$img"
	cp "$obj/System.map" "$logs/profile-$k.map"
	for n in $lo $hi; do
		for p in pccount cache; do
			name=profile-$k-$p-$n
			case $p in
			pccount) parg="$plugins/libpccount.so,out=$logs/$name.counts" ;;
			cache) parg="$plugins/libcache.so,limit=0" ;;
			esac
			echo "profile.sh: $name"
			start=$(date +%s)
			SMP=1 python3 scripts/run.py --arch x86_64 --name "$name" --expect none \
				--timeout 3600 --icount 0 --kernel "$obj/arch/x86/boot/bzImage" --initrd "$img" \
				--append "nokaslr kunit.enable=0 harness.only=macro harness.macro=$k harness.macro_ios=$n" \
				--qemu-arg=-plugin --qemu-arg="$parg" --qemu-arg=-d --qemu-arg=plugin \
				--qemu-arg=-D --qemu-arg="$logs/$name.plugin" ||
				{ echo "profile.sh: $name failed, see build/logs/$name.log" >&2; exit 1; }
			echo "profile.sh: $name took $(($(date +%s) - start)) s"
		done
	done
done
# shellcheck disable=SC2086 # a list of names
python3 scripts/profile.py --lo "$lo" --hi "$hi" $kernels
