#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/objtool-check.sh PATCHED_OBJ STOCK_OBJ: objtool on vmlinux.o of
# two x86_64 builds with the same configuration, with and without the
# series (scripts/test.sh: build/obj-x86_64 and build/obj-x86_64-stock);
# the patched build must add no warning.
#
# With CONFIG_X86_KERNEL_IBT, kbuild runs objtool once, on vmlinux.o (its
# IBT checks need the whole kernel), and rewrites that file.  So each
# vmlinux.o is linked again into a scratch folder with the ld command of
# its .vmlinux.o.cmd (vmlinux.a is not rewritten) and checked there with
# that file's objtool command: the warnings of the last build, whether or
# not it relinked.  Warnings are compared without their offsets (func+0x..)
# since code moved.  $OBJTOOL, if set, replaces the patched build's
# objtool (e.g. one built from an older version of the series).  Prints
# KTAP; last line "N passed, N failed".
set -u
[ $# = 2 ] || { echo "usage: objtool-check.sh PATCHED_OBJ STOCK_OBJ" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 pass=0

result() {
	n=$((n + 1))
	if [ "$1" = ok ]; then pass=$((pass + 1)); echo "ok $n $2"; else echo "not ok $n $2"; fi
}

# warnings LABEL DIR: objtool's warnings on DIR's vmlinux.o, normalised,
# into $tmp/LABEL.
warnings() {
	grep -q '^CONFIG_X86_KERNEL_IBT=y' "$2/.config" ||
		{ echo "# $1: $2 has no CONFIG_X86_KERNEL_IBT"; return 1; }
	_cmd=$(sed -n 's/^savedcmd_vmlinux.o := //p' "$2/.vmlinux.o.cmd" 2>/dev/null)
	_ld=${_cmd%%;*}
	_ot=${_cmd#*;}
	case $_ot in
	*objtool*) ;;
	*) echo "# $1: no objtool command in $2/.vmlinux.o.cmd"; return 1 ;;
	esac
	mkdir -p "$tmp/$1.d"
	_ld=$(echo "$_ld" | sed "s| -o vmlinux.o | -o $tmp/$1.d/vmlinux.o |")
	_ot=$(echo "$_ot" | sed "s| vmlinux.o *\$| $tmp/$1.d/vmlinux.o|")
	[ "$1" = patched ] && [ -n "${OBJTOOL:-}" ] &&
		_ot=$(echo "$_ot" | sed "s|^ *[^ ]*/objtool |$OBJTOOL |")
	(cd "$2" && eval "$_ld") || { echo "# $1: relinking vmlinux.o failed"; return 1; }
	(cd "$2" && eval "$_ot") >"$tmp/$1.out" 2>&1
	echo "# $1: objtool exit status $?, $(grep -c 'warning: objtool' "$tmp/$1.out") warning(s): ${_ot# }"
	sed -e "s|$tmp/$1.d/||" "$tmp/$1.out" | grep 'objtool' |
		sed -e 's/+0x[0-9a-f]*//g' -e 's/0x[0-9a-f]\{6,\}/ADDR/g' | sort >"$tmp/$1"
	sed 's/^/#   /' "$tmp/$1.out" | head -n 40
}

echo "KTAP version 1"
echo "# Suite: objtool_vmlinux"
echo "1..3"
if warnings patched "$1"; then result ok objtool_ran_patched; else result fail objtool_ran_patched; fi
if warnings stock "$2"; then result ok objtool_ran_stock; else result fail objtool_ran_stock; fi
if [ -f "$tmp/patched" ] && [ -f "$tmp/stock" ]; then
	comm -23 "$tmp/patched" "$tmp/stock" >"$tmp/new"
	echo "# $(wc -l <"$tmp/new") warning(s) the stock build does not have"
	sed 's/^/#   /' "$tmp/new" | head -n 40
	if [ -s "$tmp/new" ]; then result fail no_new_warnings; else result ok no_new_warnings; fi
else
	result fail no_new_warnings
fi
echo "$pass passed, $((n - pass)) failed"
[ "$pass" = "$n" ]
