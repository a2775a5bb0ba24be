#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Configure and build one kernel: scripts/build.sh ARCH [VARIANT]
#   ARCH     an arch of configs/arches (x86_64, i386, arm64), cross-compiled
#            with its "cross" prefix, or $CROSS_COMPILE when set
#   VARIANT  optional extra fragment configs/VARIANT.config (e.g. debug)
# Objects go to build/obj-ARCH[-VARIANT]; the config is regenerated only
# when a fragment changes, so a second run with nothing changed is a no-op.
# KSRC / KOBJ override the source tree and the object dir (scripts/bisect.sh),
# FRAGS the list of fragments (scripts/stock.sh: no configs/series.config).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:?usage: build.sh ARCH [VARIANT]}
variant=${2:-}
src=${KSRC:-$top/build/linux}
obj=${KOBJ:-$top/build/obj-$arch${variant:+-$variant}}
jobs=$(nproc)

# shellcheck disable=SC1091 # scripts/arches.sh is checked on its own
. "$top/scripts/arches.sh"
image=$(arch_field "$arch" image) || exit 1
cross=$(arch_field "$arch" cross)
[ -n "$cross" ] && cross=${CROSS_COMPILE-$cross}
ccache_setup "$cross"
# kmake DIR ARGS...: make in DIR for $arch (the cross compiler, if any).
kmake() {
	_d=$1
	shift
	make -s -C "$_d" ARCH="$arch" ${cross:+CROSS_COMPILE="$cross"} ${ccache:+CC="$ccache"} "$@"
}
frags=${FRAGS:-"$top/configs/base.config $top/configs/series.config $top/configs/$arch.config"}
[ -n "$variant" ] && frags="$frags $top/configs/$variant.config"
for f in $frags; do [ -f "$f" ] || { echo "build.sh: missing $f" >&2; exit 1; }; done

mkdir -p "$obj"
# shellcheck disable=SC2086 # $frags: list of files
want=$({ cat $frags; [ -z "$cross" ] || echo "CROSS_COMPILE=$cross"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$obj/.frag-hash" 2>/dev/null)" != "$want" ] || [ ! -f "$obj/.config" ]; then
	echo "build.sh: configuring $arch${variant:+ ($variant)}"
	kmake "$src" O="$obj" tinyconfig >/dev/null
	mv "$obj/.config" "$obj/.config.tiny"
	# alldefconfig over tinyconfig's values and the fragments: symbols
	# that become visible take their defaults, as with olddefconfig.
	# shellcheck disable=SC2086 # $frags: list of files
	if ! (cd "$src" && ARCH=$arch CROSS_COMPILE=$cross \
		scripts/kconfig/merge_config.sh -O "$obj" "$obj/.config.tiny" $frags) >"$obj/.merge.log" 2>&1; then
		cat "$obj/.merge.log" >&2
		exit 1
	fi
	# merge_config.sh names each requested value that did not take; one
	# of the fragments' (not tinyconfig's own) is fatal.
	# shellcheck disable=SC2086 # $frags: list of files
	sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set.*/\1/p' \
		$frags | sort -u >"$obj/.frag-syms"
	# $KNOWN_ONLY (scripts/bisect.sh): a symbol this tree does not define
	# (empty actual value: a prefix of the series) is not an error.
	# An "is not set" request is met by a symbol that is not there at all
	# (e.g. 64BIT without a prompt on i386).
	awk -v known="${KNOWN_ONLY:-}" '/^Value requested for / { s = $4 }
		/^Requested value:/ { unset = /is not set/ }
		/^Actual value:/ { if (!((known || unset) && NF == 2)) print s }' "$obj/.merge.log" |
		grep -x -F -f "$obj/.frag-syms" >"$obj/.merge.bad" || true
	if [ -s "$obj/.merge.bad" ]; then
		while read -r sym; do
			grep -A2 "^Value requested for $sym " "$obj/.merge.log" | sed 's/^/build.sh: /' >&2
		done <"$obj/.merge.bad"
		echo "build.sh: the options above did not take (a missing dependency?)" >&2
		exit 1
	fi
	echo "$want" > "$obj/.frag-hash"
fi

echo "build.sh: building $arch${variant:+ ($variant)} in ${obj#"$top"/}"
# $MAKE_VARS: extra make variables for the kernel's own build (word split),
# e.g. the KCSAN_SANITIZE settings of scripts/stress.sh.
# shellcheck disable=SC2086
kmake "$src" O="$obj" -j"$jobs" ${MAKE_VARS:-} "$(basename $image)" modules
# The tree is configured only when the fragments change, and the build's
# syncconfig silently drops an option whose dependencies a series change
# took away: check the fragments' last word on each option again.
if [ -z "${KNOWN_ONLY:-}" ]; then
	# shellcheck disable=SC2086 # $frags: list of files
	awk '/^CONFIG_[A-Za-z0-9_]*=/ { split($0, kv, "="); want[kv[1]] = $0 }
		/^# CONFIG_[A-Za-z0-9_]* is not set/ { want[$2] = "unset" }
		END { for (s in want) print s, want[s] }' $frags |
	while read -r sym val; do
		have=$(grep -E "^$sym=" "$obj/.config" || true)
		if [ "$val" = unset ]; then [ -z "$have" ] && continue
		elif [ "$have" = "$val" ]; then continue; fi
		echo "build.sh: $sym: the fragments ask for ${val#"$sym="}, .config has ${have:-it unset}" >&2
		echo bad
	done | grep -q bad && { echo "build.sh: configuration drifted: rm $obj/.frag-hash and build again" >&2; exit 1; }
fi
kmake "$src" O="$obj" INSTALL_MOD_PATH="$obj/mods" modules_install >/dev/null
# Out-of-tree test modules (SKIP_EXT=1: none, as for scripts/bisect.sh, since
# they may need the whole series).
for d in "$top"/tests/modules/*/; do
	[ -z "${SKIP_EXT:-}" ] || break
	[ -f "$d/Makefile" ] || [ -f "$d/Kbuild" ] || continue
	# Large modules only make bench loads (their bench-only file says so).
	[ ! -f "$d/bench-only" ] || [ -n "${BENCH_MODULES:-}" ] || continue
	ext=$obj/ext/$(basename "$d")
	mkdir -p "$ext"
	# Build a copy so that per-arch objects never land in the checkout.
	cp -p "$d"/* "$ext"/
	kmake "$obj" M="$ext" modules
done
echo "build.sh: $(cat "$obj/include/config/kernel.release") ready: ${obj#"$top"/}/$image"
