# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell scripts: arch_field ARCH FIELD prints FIELD of ARCH's
# line of configs/arches ("-" as empty); exits 1 for an unknown ARCH.
# ccache_setup CROSS sets $ccache to the CC that make is given.
arch_field() {
	_v=$(awk -v a="$1" -v f="$2" '
		/^#/ || NF == 0 { next }
		!cols { for (i = 1; i <= NF; i++) col[$i] = i; cols = 1; next }
		$1 == a { print $col[f]; found = 1 }
		END { exit !found }' "${top:?}/configs/arches" 2>/dev/null) ||
		{ echo "unknown arch '$1' (configs/arches)" >&2; return 1; }
	[ "$_v" = - ] || printf '%s\n' "$_v"
}

# ccache_setup CROSS: $ccache = "ccache CROSSgcc", Debian's ccache, when
# it is installed and NO_CCACHE is not set, else empty.  Its cache is
# outside the checkout (~/.cache/ccache), and paths below the checkout
# are hashed relative to it, so a fresh clone, CI's or after "make
# clean", compiles only what changed.
ccache_setup() {
	ccache=
	[ -z "${NO_CCACHE:-}" ] && command -v ccache >/dev/null || return 0
	# shellcheck disable=SC2034 # $ccache: read by the sourcing script
	ccache="ccache ${1}gcc"
	export CCACHE_BASEDIR="${top:?}" CCACHE_DIR="${CCACHE_DIR:-${HOME:-/root}/.cache/ccache}"
}
