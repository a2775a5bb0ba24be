# SPDX-License-Identifier: GPL-2.0
# Sourced by the shell scripts: arch_field ARCH FIELD prints FIELD of ARCH's
# line of configs/arches ("-" as empty); exits 1 for an unknown ARCH.
arch_field() {
	_v=$(awk -v a="$1" -v f="$2" '
		/^#/ || NF == 0 { next }
		!cols { for (i = 1; i <= NF; i++) col[$i] = i; cols = 1; next }
		$1 == a { print $col[f]; found = 1 }
		END { exit !found }' "${top:?}/configs/arches" 2>/dev/null) ||
		{ echo "unknown arch '$1' (configs/arches)" >&2; return 1; }
	[ "$_v" = - ] || printf '%s\n' "$_v"
}
