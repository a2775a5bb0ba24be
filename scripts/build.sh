#!/bin/sh
# Configure and build one kernel: scripts/build.sh ARCH [VARIANT]
#   ARCH     x86_64 | i386 | arm64 (cross-compiled with aarch64-linux-gnu-,
#            or $CROSS_COMPILE when set)
#   VARIANT  optional extra fragment configs/VARIANT.config (e.g. debug)
# Objects go to build/obj-ARCH[-VARIANT]; the config is regenerated only
# when a fragment changes, so a second run with nothing changed is a no-op.
# KSRC / KOBJ override the source tree and the object dir (scripts/bisect.sh),
# FRAGS the list of fragments (scripts/stock.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: build.sh ARCH [VARIANT]}
variant=${2:-}
src=${KSRC:-$top/build/linux}
obj=${KOBJ:-$top/build/obj-$arch${variant:+-$variant}}
jobs=$(nproc)

case $arch in
x86_64|i386) image=arch/x86/boot/bzImage cross= ;;
arm64) image=arch/arm64/boot/Image cross=${CROSS_COMPILE-aarch64-linux-gnu-} ;;
*) echo "build.sh: unknown ARCH $arch" >&2; exit 1 ;;
esac
# kmake DIR ARGS...: make in DIR for $arch (the cross compiler, if any).
kmake() {
	_d=$1
	shift
	make -s -C "$_d" ARCH="$arch" ${cross:+CROSS_COMPILE="$cross"} "$@"
}
frags=${FRAGS:-"$top/configs/base.config $top/configs/$arch.config"}
[ -n "$variant" ] && frags="$frags $top/configs/$variant.config"
for f in $frags; do [ -f "$f" ] || { echo "build.sh: missing $f" >&2; exit 1; }; done

mkdir -p "$obj"
want=$({ cat $frags; [ -z "$cross" ] || echo "CROSS_COMPILE=$cross"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$obj/.frag-hash" 2>/dev/null)" != "$want" ] || [ ! -f "$obj/.config" ]; then
	echo "build.sh: configuring $arch${variant:+ ($variant)}"
	kmake "$src" O="$obj" tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >/dev/null
	kmake "$src" O="$obj" olddefconfig >/dev/null
	# Every option a fragment asks for must survive olddefconfig.
	bad=0
	# (A later fragment overrides an earlier one: only the last line of a
	# symbol counts.)
	for line in $(cat $frags | grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' |
		awk '{ s = $1 == "#" ? $2 : substr($0, 1, index($0, "=") - 1); last[s] = $0; order[NR] = s }
		     END { for (i = 1; i <= NR; i++) if (order[i] in last) { print last[order[i]]; delete last[order[i]] } }' |
		tr ' ' '@'); do
		line=$(echo "$line" | tr '@' ' ')
		case $line in
		"# "*) sym=${line#\# }; sym=${sym%% *}
			if grep -q "^$sym=[ym]" "$obj/.config"; then echo "build.sh: $sym should be unset" >&2; bad=1; fi ;;
		*=n) sym=${line%%=*}
			if grep -q "^$sym=[ym]" "$obj/.config"; then echo "build.sh: $sym should be n" >&2; bad=1; fi ;;
		*) if ! grep -qx "$line" "$obj/.config"; then
			echo "build.sh: $line did not survive olddefconfig (dependency missing?)" >&2; bad=1; fi ;;
		esac
	done
	[ $bad = 0 ] || exit 1
	echo "$want" > "$obj/.frag-hash"
fi

echo "build.sh: building $arch${variant:+ ($variant)} in ${obj#$top/}"
# $MAKE_VARS: extra make variables for the kernel's own build (word split),
# e.g. the KCSAN_SANITIZE settings of scripts/stress.sh.
# shellcheck disable=SC2086
kmake "$src" O="$obj" -j"$jobs" ${MAKE_VARS:-} "$(basename $image)" modules
kmake "$src" O="$obj" INSTALL_MOD_PATH="$obj/mods" modules_install >/dev/null
# Out-of-tree test modules (SKIP_EXT=1: none, as for scripts/bisect.sh, since
# they may need the whole series).
for d in "$top"/tests/modules/*/; do
	[ -z "${SKIP_EXT:-}" ] || break
	[ -f "$d/Makefile" ] || [ -f "$d/Kbuild" ] || continue
	ext=$obj/ext/$(basename "$d")
	mkdir -p "$ext"
	# Build a copy so that per-arch objects never land in the checkout.
	cp -p "$d"/* "$ext"/
	kmake "$obj" M="$ext" modules
done
echo "build.sh: $(cat "$obj/include/config/kernel.release") ready: ${obj#$top/}/$image"
