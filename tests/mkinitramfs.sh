#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tests/mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz [TOOLS.img]
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
#   /usr/bin/PROG               tests/progs/PROG.c, built static with the
#                               arch's usercc (configs/arches)
#   /usr/bin/TOOL + its libs    the programs named in tests/guest-tools
#                               (blktrace, trace-cmd, ...), with the shared
#                               libraries they need: the host's, or
#                               Debian's packages of ARCH's architecture
# TOOLS.img, if given: an ext2 image of the tools placed on "disk" in
# tests/guest-tools (too big for an initramfs every boot unpacks: bpftrace
# and LLVM), with their libraries, to be mounted and chroot'ed into by
# tests/guest/tools.sh.
# The archive is written with the kernel's own usr/gen_init_cpio, so no
# root privileges are needed for the device node.  OUT is only rewritten
# when its content changes.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: mkinitramfs.sh ARCH OBJDIR OUT.cpio.gz [TOOLS.img]"
arch=${1:?$usage}
obj=$(cd "${2:?$usage}" && pwd)
out=${3:?$usage}
toolsimg=${4:-}

die() { echo "mkinitramfs.sh: $*" >&2; exit 1; }

# Guest binaries: busybox and the tools of tests/guest-tools with the
# shared libraries they need.  A guest of the host's Debian architecture
# takes the host's (make setup installs them); another takes Debian's
# packages of its architecture (configs/arches), unpacked by
# scripts/debs.sh into build/guest-root-ARCH.
# guest_tools PLACE COLUMN: column 1 (tool) or 2 (package) of the lines
# of tests/guest-tools for PLACE (initramfs or disk) and this arch.
guest_tools() {
	grep -v '^[[:space:]]*#' "$top/tests/guest-tools" |
		awk -v place="$1" -v col="$2" -v arch="$arch" 'NF {
			p = NF >= 3 ? $3 : "initramfs"; a = NF >= 4 ? $4 : "all"
			if (p == place && (a == "all" || index("," a ",", "," arch ",")))
				print $col
		}' | sort -u
}
tools=$(guest_tools initramfs 1)
disktools=
[ -n "$toolsimg" ] && disktools=$(guest_tools disk 1)
# shellcheck disable=SC1091 # scripts/arches.sh is checked on its own
. "$top/scripts/arches.sh"
debarch=$(arch_field "$arch" debarch) || exit 1
triplet=$(arch_field "$arch" triplet)
root=
toolsroot=
if [ "$debarch" != "$(dpkg --print-architecture)" ]; then
	root=$top/build/guest-root-$arch
	pkgs="busybox-static $(guest_tools initramfs 2)"
	# shellcheck disable=SC2086
	sh "$top/scripts/debs.sh" "$debarch" "$root" $pkgs ||
		die "the $arch guest's packages ($pkgs) could not be had: see above"
	if [ -n "$disktools" ]; then
		toolsroot=$top/build/guest-tools-root-$arch
		pkgs=$(guest_tools disk 2)
		# shellcheck disable=SC2086
		sh "$top/scripts/debs.sh" "$debarch" "$toolsroot" $pkgs ||
			die "the $arch guest's tool packages ($pkgs) could not be had: see above"
	fi
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
			[ -n "$_p" ] || die "$(basename "$_f"): $_so not found in ${root:-/} ($libdirs)"
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
	# The modules only make bench loads: only in its initramfs.
	[ ! -f "$(dirname "$ko")/bench-only" ] || [ -n "${BENCH_MODULES:-}" ] || continue
	[ -f "$ko" ] && cp -p "$ko" "$stage/lib/test-modules/"
done

# in_root PATH: the file PATH names below $root, its symlinks followed
# there, not on the host (ppc64el's /lib64/ld64.so.2 is an absolute link).
in_root() {
	_p=$1 _n=0
	while [ -L "$root$_p" ] && [ $_n -lt 40 ]; do
		_t=$(readlink "$root$_p")
		case $_t in
		/*) _p=$_t ;;
		*) _p=$(dirname "$_p")/$_t ;;
		esac
		_n=$((_n + 1))
	done
	readlink -f "$root$_p"
}

# tool_list TOOL...: gen_init_cpio lines of the tools below $root and their
# libraries, a library's folder and every folder above it first (the
# kernel's cpio unpacker creates no missing parents).  Not in a pipeline,
# so that die() stops us.
tool_list() {
	: >"$stage/tools.raw"
	for t in "$@"; do
		case $t in
		/*)	# A folder: its files as they are.
			t=$(echo "$t" | sed "s/@TRIPLET@/$triplet/")
			[ -d "$root$t" ] || die "guest folder $t missing in ${root:-the host} (tests/guest-tools)"
			find "$root$t" -type f | sed "s|^$root||" >>"$stage/tools.raw"
			continue ;;
		esac
		path=
		for d in usr/bin usr/sbin bin sbin; do
			[ -x "$root/$d/$t" ] && { path=$root/$d/$t; break; }
		done
		[ -n "$path" ] || die "guest tool $t missing in ${root:-the host} (make setup; tests/guest-tools)"
		echo "file /usr/bin/$t $(in_root "${path#"$root"}") 0755 0 0" >>"$stage/tools.raw"
		elf_deps "$path" >"$stage/deps"
		cat "$stage/deps" >>"$stage/tools.raw"
	done
	sort -u "$stage/tools.raw" | while read -r l; do
		case $l in
		file*) echo "$l" ;;
		*) d=$(dirname "$l")
		   while [ "$d" != / ]; do echo "$d"; d=$(dirname "$d"); done | sort |
			sed 's/.*/dir & 0755 0 0/'
		   echo "file $l $(in_root "$l") 0755 0 0" ;;
		esac
	done | awk '!seen[$0]++'
}
# shellcheck disable=SC2086 # one tool name a word
tool_list $tools >"$stage/tools"

# The tools image: the same lists, unpacked into a folder, made an ext2
# image without root privileges (mke2fs -d); empty mount points for the
# chroot.  Only rewritten when a tool or library changed.
if [ -n "$toolsimg" ]; then
	[ -n "$toolsroot" ] && root=$toolsroot
	# shellcheck disable=SC2086 # one tool name a word
	tool_list $disktools >"$stage/disk.list"
	img=$stage/img
	# Mount points, and a shell for the commands perf and bpftrace run.
	mkdir -p "$img/proc" "$img/sys" "$img/dev" "$img/tmp" "$img/bin" \
		"$img/lib/test-modules"
	cp "$busybox" "$img/bin/busybox"
	for a in sh true echo insmod rmmod; do ln -s busybox "$img/bin/$a"; done
	while read -r kind path src _; do
		case $kind in
		dir) mkdir -p "$img$path" ;;
		file) mkdir -p "$(dirname "$img$path")"; cp "$src" "$img$path" ;;
		esac
	done <"$stage/disk.list"
	sum=$(cd "$img" && find . -type f | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -d' ' -f1)
	if [ ! -f "$toolsimg" ] || [ "$(cat "$toolsimg.sum" 2>/dev/null)" != "$sum" ]; then
		mb=$(( $(du -sm "$img" | cut -f1) * 5 / 4 + 16 ))
		rm -f "$toolsimg"
		mke2fs -q -t ext2 -L tools -d "$img" "$toolsimg" "${mb}M" ||
			die "mke2fs of $toolsimg failed"
		echo "$sum" >"$toolsimg.sum"
	fi
	echo "mkinitramfs.sh: ${toolsimg#"$top"/} ($(echo "$disktools" | tr "\n" " ")$(du -sm "$toolsimg" | cut -f1) MiB)"
fi

# The guest's own C programs: static, nothing to find at run time.
usercc=$(arch_field "$arch" usercc)
for c in "$top"/tests/progs/*.c; do
	[ -f "$c" ] || continue
	$usercc -static -O2 -Wall -Wextra -Werror -o "$stage/$(basename "$c" .c)" "$c" ||
		die "cannot build $c with $usercc (make setup)"
	echo "file /usr/bin/$(basename "$c" .c) $stage/$(basename "$c" .c) 0755 0 0" >>"$stage/tools"
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
