#!/bin/sh
# tests/mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz
#
# Busybox initramfs for the test guest:
#   /init                       tests/guest/init
#   /tests/*.sh                 tests/guest/*.sh (KTAP test scripts + ktap.sh)
#   /bin/busybox                busybox-static for ARCH: the host's for
#                               x86_64, Debian's i386 or arm64 package
#                               otherwise (applets are linked by /init
#                               with busybox --install -s)
#   /lib/modules/VERSION/       in-tree modules from OBJDIR/mods (depmod'ed)
#   /lib/test-modules/*.ko      out-of-tree modules from OBJDIR/ext/*/
#   /dev/console                so that /init has a console from the start
#   /usr/bin/TOOL + its libs    x86_64 only: the host's programs named in
#                               tests/guest-tools (blktrace, trace-cmd, ...),
#                               with the shared libraries ldd lists for them
# The archive is written with the kernel's own usr/gen_init_cpio, so no
# root privileges are needed for the device node.  OUT is only rewritten
# when its content changes.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz}
obj=$(cd "${2:?usage: mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz}" && pwd)
out=${3:?usage: mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz}

die() { echo "mkinitramfs.sh: $*" >&2; exit 1; }

# busybox for the guest architecture
case $arch in
x86_64)
	busybox=/bin/busybox
	[ -x $busybox ] || die "$busybox missing: apt-get install busybox-static (or make setup)"
	;;
i386|arm64)
	# Debian's busybox-static of that architecture (i386, arm64), fetched
	# once with a private apt state (the host's apt configuration is left
	# alone, no multiarch install) and cached in build/busybox-ARCH.
	dl=$top/build/busybox-$arch
	busybox=$dl/root/bin/busybox
	if [ ! -x "$busybox" ]; then
		echo "mkinitramfs.sh: fetching $arch busybox-static into ${dl#$top/}"
		mkdir -p "$dl/lists/partial" "$dl/cache/archives/partial"
		aptopts="-q -oAPT::Architecture=$arch -oAPT::Architectures=$arch -oDir::State::Lists=$dl/lists -oDir::Cache=$dl/cache -oDebug::NoLocking=1"
		# shellcheck disable=SC2086
		apt-get $aptopts update >"$dl/apt.log" 2>&1 || { cat "$dl/apt.log" >&2; die "apt-get update ($arch) failed"; }
		rm -f "$dl"/busybox-static_*.deb
		# shellcheck disable=SC2086
		(cd "$dl" && apt-get $aptopts download busybox-static) >>"$dl/apt.log" 2>&1 ||
			{ cat "$dl/apt.log" >&2; die "apt-get download busybox-static ($arch) failed"; }
		rm -rf "$dl/root"
		dpkg -x "$dl"/busybox-static_*_"$arch".deb "$dl/root"
		[ -x "$busybox" ] || die "no bin/busybox in $(ls "$dl"/busybox-static_*.deb)"
	fi
	;;
*) die "unknown ARCH $arch" ;;
esac

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
	# Host programs only run in a guest of the host's architecture; the
	# scripts that use them skip (with a reason) where they are missing.
	if [ "$arch" = x86_64 ]; then
		grep -v '^[[:space:]]*#' "$top/tests/guest-tools" | awk 'NF {print $1}' | while read -r t; do
			path=$(command -v "$t") || die "guest tool $t missing on the host (make setup)"
			echo "file /usr/bin/$t $path 0755 0 0"
			ldd "$path" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'
		done | sort -u | while read -r l; do
			case $l in
			file*) echo "$l" ;;
			*) d=$(dirname "$l")
			   echo "dir $d 0755 0 0"
			   echo "file $l $(readlink -f "$l") 0755 0 0" ;;
			esac
		done | awk '!seen[$0]++'
	fi
	(cd "$stage" && find lib -mindepth 1 | sort) | while read -r p; do
		if [ -d "$stage/$p" ]; then echo "dir /$p 0755 0 0"
		else echo "file /$p $stage/$p 0644 0 0"; fi
	done
} >"$list"

mkdir -p "$(dirname "$out")"
"$gen" -t 0 "$list" | gzip -n -9 >"$out.tmp"
if cmp -s "$out.tmp" "$out"; then rm -f "$out.tmp"; else mv "$out.tmp" "$out"; fi
echo "mkinitramfs.sh: ${out#$top/} ($kver, $(ls "$stage/lib/test-modules" | wc -l) test module(s))"
