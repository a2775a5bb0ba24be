#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz
#
# Busybox initramfs for the test guest:
#   /init                       tests/guest/init
#   /tests/*.sh                 tests/guest/*.sh (KTAP test scripts + ktap.sh)
#   /tests/ftrace/              the kernel's ftracetest, test.d/functions and
#                               the marker event tests test.d/dynevent/*marker*
#   /bin/busybox                busybox-static for ARCH: the host's, or
#                               Debian's package of ARCH's architecture
#                               (scripts/debs.sh; applets are linked by
#                               /init with busybox --install -s)
#   /lib/modules/VERSION/       in-tree modules from OBJDIR/mods (depmod'ed)
#   /lib/test-modules/*.ko      out-of-tree modules from OBJDIR/ext/*/
#   /dev/console                so that /init has a console from the start
#   /usr/bin/TOOL + its libs    the programs named in tests/guest-tools
#                               (blktrace, trace-cmd, ...), with the shared
#                               libraries they need: the host's, or
#                               Debian's packages of ARCH's architecture
# The archive is written with the kernel's own usr/gen_init_cpio, so no
# root privileges are needed for the device node.  OUT is only rewritten
# when its content changes.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz}
obj=$(cd "${2:?usage: mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz}" && pwd)
out=${3:?usage: mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz}

die() { echo "mkinitramfs.sh: $*" >&2; exit 1; }

# Guest binaries: busybox and the tools of tests/guest-tools with the
# shared libraries they need.  A guest of the host's Debian architecture
# takes the host's (make setup installs them); another takes Debian's
# packages of its architecture (configs/arches), unpacked by
# scripts/debs.sh into build/guest-root-ARCH.
tools=$(grep -v '^[[:space:]]*#' "$top/tests/guest-tools" | awk 'NF {print $1}')
# shellcheck disable=SC1091 # scripts/arches.sh is checked on its own
. "$top/scripts/arches.sh"
debarch=$(arch_field "$arch" debarch) || exit 1
triplet=$(arch_field "$arch" triplet)
root=
if [ "$debarch" != "$(dpkg --print-architecture)" ]; then
	root=$top/build/guest-root-$arch
	pkgs="busybox-static $(grep -v '^[[:space:]]*#' "$top/tests/guest-tools" | awk 'NF {print $2}' | sort -u)"
	# shellcheck disable=SC2086
	sh "$top/scripts/debs.sh" "$debarch" "$root" $pkgs ||
		die "the $arch guest's packages ($pkgs) could not be had: see above"
fi
busybox=$root/bin/busybox
[ -x "$busybox" ] || die "$busybox missing: apt-get install busybox-static (or make setup)"

# elf_deps FILE: FILE's program interpreter and the libraries it needs,
# recursively, as paths below $root (readelf reads any architecture).
libdirs="lib/$triplet usr/lib/$triplet lib usr/lib"
elf_deps() {
	_todo=$1 _seen=
	while [ -n "$_todo" ]; do
		# shellcheck disable=SC2086 # $_todo: list of paths, split on purpose
		set -- $_todo
		_f=$1
		shift
		_todo="$*"
		readelf -l "$_f" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p'
		for _so in $(readelf -d "$_f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			case " $_seen " in *" $_so "*) continue ;; esac
			_seen="$_seen $_so"
			_p=
			for _d in $libdirs; do
				[ -e "$root/$_d/$_so" ] && { _p=/$_d/$_so; break; }
			done
			[ -n "$_p" ] || die "$(basename "$1"): $_so not found in ${root:-/} ($libdirs)"
			echo "$_p"
			_todo="$_todo $root$_p"
		done
	done
}
[ -d "$obj/mods/lib/modules" ] || die "$obj/mods/lib/modules missing: build the kernel first (scripts/build.sh $arch)"
kver=$(cat "$obj/include/config/kernel.release")
[ -d "$obj/mods/lib/modules/$kver" ] || die "no modules for $kver in $obj/mods"

# gen_init_cpio is built with the kernel (CONFIG_BLK_DEV_INITRD=y).
gen=$obj/usr/gen_init_cpio
if [ ! -x "$gen" ]; then
	gen=$top/build/gen_init_cpio
	[ -x "$gen" ] || cc -O2 -o "$gen" "$top/build/linux/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
fi

# Stage the module tree so depmod can run on it (modprobe needs modules.dep).
stage=$(mktemp -d "${TMPDIR:-/tmp}/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
trap 'exit 143' INT TERM
mkdir -p "$stage/lib/modules" "$stage/lib/test-modules"
# -L would follow the build/source symlinks into the trees: copy files only.
(cd "$obj/mods/lib/modules" && find "$kver" -type d -o -type f) | while read -r p; do
	if [ -d "$obj/mods/lib/modules/$p" ]; then mkdir -p "$stage/lib/modules/$p"
	else cp -p "$obj/mods/lib/modules/$p" "$stage/lib/modules/$p"; fi
done
depmod -b "$stage" "$kver"
for ko in "$obj"/ext/*/*.ko; do
	[ -f "$ko" ] && cp -p "$ko" "$stage/lib/test-modules/"
done

# The tools and their libraries (not in a pipeline, so that die() stops us).
: >"$stage/tools.raw"
for t in $tools; do
	path=
	for d in usr/bin usr/sbin bin sbin; do
		[ -x "$root/$d/$t" ] && { path=$root/$d/$t; break; }
	done
	[ -n "$path" ] || die "guest tool $t missing in ${root:-the host} (make setup; tests/guest-tools)"
	echo "file /usr/bin/$t $(readlink -f "$path") 0755 0 0" >>"$stage/tools.raw"
	elf_deps "$path" >"$stage/deps"
	cat "$stage/deps" >>"$stage/tools.raw"
done
# A library's folder and every folder above it (the kernel's cpio unpacker
# creates no missing parents).
sort -u "$stage/tools.raw" | while read -r l; do
	case $l in
	file*) echo "$l" ;;
	*) d=$(dirname "$l")
	   while [ "$d" != / ]; do echo "$d"; d=$(dirname "$d"); done | sort |
		sed 's/.*/dir & 0755 0 0/'
	   echo "file $l $(readlink -f "$root$l") 0755 0 0" ;;
	esac
done | awk '!seen[$0]++' >"$stage/tools"

list=$stage/list
{
	for d in /bin /sbin /usr /usr/bin /usr/sbin /dev /proc /sys /tmp /run /lib /tests; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /init $top/tests/guest/init 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	for f in "$top"/tests/guest/*.sh; do
		echo "file /tests/$(basename "$f") $f 0755 0 0"
	done
	# The kernel's ftracetest and its marker event tests (23-ftracetest.sh).
	ft=$top/build/linux/tools/testing/selftests/ftrace
	echo "dir /tests/ftrace 0755 0 0"
	echo "dir /tests/ftrace/test.d 0755 0 0"
	echo "dir /tests/ftrace/test.d/dynevent 0755 0 0"
	echo "file /tests/ftrace/ftracetest $ft/ftracetest 0755 0 0"
	echo "file /tests/ftrace/test.d/functions $ft/test.d/functions 0644 0 0"
	for f in "$ft"/test.d/dynevent/*marker*.tc; do
		[ -f "$f" ] && echo "file /tests/ftrace/test.d/dynevent/$(basename "$f") $f 0755 0 0"
	done
	cat "$stage/tools"
	(cd "$stage" && find lib -mindepth 1 | sort) | while read -r p; do
		if [ -d "$stage/$p" ]; then echo "dir /$p 0755 0 0"
		else echo "file /$p $stage/$p 0644 0 0"; fi
	done
} >"$list"

mkdir -p "$(dirname "$out")"
"$gen" -t 0 "$list" | gzip -n -9 >"$out.tmp"
if cmp -s "$out.tmp" "$out"; then rm -f "$out.tmp"; else mv "$out.tmp" "$out"; fi
# shellcheck disable=SC2012 # only counts the modules
echo "mkinitramfs.sh: ${out#"$top"/} ($kver, $(ls "$stage/lib/test-modules" | wc -l) test module(s))"
