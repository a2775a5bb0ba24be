#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/objcheck.sh [CONFIG...]: the object check, "make objcheck".
#
# Compiles every object file the series adds or changes, from the pristine
# tree and from the patched tree, with W=1 and sparse (C=1), under the
# configurations below, and fails a (config, object) case when the
# patched object does not compile or has a warning that the pristine one
# has not.  The other checks build one small config per arch (tinyconfig
# and fragments): this one builds the series' files as allmodconfig and
# Debian's own kernels do, with every optional path and every warning on.
#
#   objects   the .c and .S files of the "+++ b/" lines of the patches of
#             patches/series, as .o: derived from the patches at each run
#   configs   $OBJCHECK_CONFIGS or the arguments (default all of them):
#     x86_64-allmod      allmodconfig; it turns DISABLE_IMMEDIATE on, so
#                        the generic immediate values are compiled
#     x86_64-allmod-imm  allmodconfig with DISABLE_IMMEDIATE=n: the x86
#                        immediate values (arch/x86/kernel/immediate.c ...)
#     i386-allmod, i386-allmod-imm, arm64-allmod
#                        the same for i386 (host gcc) and arm64
#                        (aarch64-linux-gnu-, no immediate values there)
#     debian-amd64, debian-i386, debian-arm64
#                        Debian's config.amd64_none_amd64,
#                        config.i386_none_686-pae, config.arm64_none_arm64
#                        (package linux-config-6.12: the host's, or the
#                        other architecture's, fetched by scripts/debs.sh
#                        into ~/.cache/kmarkers-debs), its certificates
#                        and signing key blanked, the options of
#                        configs/series.config set on top (as =m when =y
#                        does not take), then olddefconfig.  A config
#                        that cannot be had is one failed case: on
#                        2026-12-05 this machine's mirror served an i386
#                        index of bookworm-security, the only suite with
#                        linux-config-6.12, that did not match its
#                        InRelease ("Mirror sync in progress?"), so
#                        debian-i386 could not run here
#             Every allmodconfig gets WERROR=n (KCONFIG_ALLCONFIG), so that
#             warnings are reported, not fatal.
#   trees     build/objcheck/src-pristine: git worktree of build/linux at
#             tag pristine; build/objcheck/src-patched: one at pristine
#             with patches/series applied by "git am", re-applied only
#             when patches/ changed (so the check tests what patches/
#             holds, whatever build/linux's state)
#   objects   build/objcheck/CONFIG-pristine and CONFIG-patched (O=): a
#             configuration is made again only when its recipe or its
#             tree changed, "make prepare" then runs incrementally, and
#             all objects are asked of one "make -k -Otarget" (its output
#             grouped per object); warnings are kept per object in
#             .objcheck/ with the object's mtime, so that an object that
#             is up to date is not compiled again (a second run with
#             nothing changed only runs make's no-op, once per folder)
#   built?    an object this config does not build is a SKIP: kbuild's
#             answer, asked of scripts/Makefile.build for the folders on
#             the way to the objects (subdir-ym, real-obj-y/m, lib-y), from
#             the root down as kbuild descends; the reason names the
#             Makefile line and the value of its CONFIG_ symbol.  A file of
#             tools/NAME (objtool) is compiled by "make tools/NAME", its own
#             build with its own warnings (no W=1 or sparse there), when
#             the config builds tools/NAME/NAME (prepare does for objtool).
#   warnings  compiler, sparse, kernel-doc (W=1) and objtool lines of the
#             object's compile, with their line and column numbers removed
#             (the patched files have shifted lines); a warning of the
#             patched object that the pristine one has not (as a multiset)
#             is new.  An object the series adds, or one the pristine
#             config does not build, has no pristine counterpart: all its
#             warnings are new.
#
# Output: one KTAP document per config (suite objcheck-CONFIG, one case
# per object), also written to build/logs/objcheck.ktap, a line per
# config with its counts and times, and at last the sum of the file by
# "run.py total": "N passed, N failed[, N skipped]".  Exit 0 only if
# nothing failed.  Everything runs under "nice -n 19" with at most 2 jobs
# (the machine is shared), through ccache as scripts/build.sh does
# (NO_CCACHE=1: not).  The make output of each folder is kept in
# build/objcheck/CONFIG-TREE/.objcheck/*.log.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
repo=$top/build/linux
base=$top/build/objcheck
ktap=$top/build/logs/objcheck.ktap
all_configs="x86_64-allmod x86_64-allmod-imm i386-allmod i386-allmod-imm arm64-allmod
	debian-amd64 debian-i386 debian-arm64"
configs=$(echo "${*:-${OBJCHECK_CONFIGS:-$all_configs}}" | tr -s ' \t\n' ' ' | sed 's/^ //; s/ $//')
jobs=$(nproc)
[ "$jobs" -le 2 ] || jobs=2
# Messages and quotes as the C locale writes them, the same in both trees
# (kbuild unexports LC_ALL, hence the others).
export LC_ALL=C LANG=C LC_CTYPE=C LC_MESSAGES=C

die() { echo "objcheck.sh: $*" >&2; exit 1; }
say() { echo "objcheck: $*" >&2; }
# shellcheck disable=SC1091 # scripts/arches.sh is checked on its own
. "$top/scripts/arches.sh"

[ -d "$repo/.git" ] || sh "$top/scripts/tree.sh" prepare
pristine=$(git -C "$repo" rev-parse pristine) || die "no tag pristine in $repo"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 143' INT TERM
mkdir -p "$base" "$top/build/logs"
# One run at a time: two would share the folders.
exec 9>"$base/.lock"
flock -n 9 || die "another objcheck is running (${base#"$top"/}/.lock)"
for c in $configs; do
	case " $(echo "$all_configs" | tr -s ' \t\n' ' ') " in *" $c "*) ;;
	*) die "unknown config '$c' (known: $(echo "$all_configs" | tr -s ' \t\n' ' '))" ;; esac
done

# ------------------------------------------------------------ the series ---

series() { grep -v '^[[:space:]]*#' "$top/patches/series" | awk 'NF {print $1}'; }

series_hash() {
	# shellcheck disable=SC2046 # one patch file name a line, no spaces
	(cd "$top/patches" && cat series $(series)) | sha256sum | cut -d' ' -f1
}

# The objects: the "+++ b/" names of the patches' file headers (between
# "diff --git" and the first hunk), .c and .S, as .o (not the linker
# scripts, *.lds.S).
objects() {
	for p in $(series); do
		[ -f "$top/patches/$p" ] || die "patch $p is listed in patches/series but missing"
		awk '/^diff --git / { head = 1; next } /^@@ / { head = 0 }
			head && /^\+\+\+ b\/.*\.[cS]$/ && !/\.lds\.S$/ { print substr($0, 7) }' "$top/patches/$p"
	done | sed 's/\.[cS]$/.o/' | sort -u
}

# worktree DIR: a git worktree of build/linux at DIR, at pristine, clean.
# Only "git worktree add" touches build/linux; the rest is done in DIR.
is_worktree() {
	[ -f "$1/.git" ] && [ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$1" && pwd -P)" ]
}

worktree() {
	if ! is_worktree "$1"; then
		say "checking out the pristine tree into ${1#"$top"/}"
		rm -rf "$1"
		git -C "$repo" worktree add -q -f --detach "$1" "$pristine"
		return
	fi
	if [ "$(git -C "$1" rev-parse HEAD)" != "$pristine" ] || [ -n "$(git -C "$1" status --porcelain)" ]; then
		git -C "$1" am --abort >/dev/null 2>&1 || true
		# Only files that differ are rewritten: the builds stay incremental.
		git -C "$1" checkout -q -f --detach "$pristine"
		git -C "$1" clean -q -fdx
	fi
}

# The patched tree: the pristine one plus patches/series, applied again
# only when patches/ or the pristine tag changed, or the tree was touched.
patched_tree() {
	wt=$base/src-patched
	stamp=$base/src-patched.applied
	want="$(series_hash) $pristine"
	if is_worktree "$wt" &&
		[ "$(cat "$stamp" 2>/dev/null)" = "$want $(git -C "$wt" rev-parse HEAD)" ] &&
		[ -z "$(git -C "$wt" status --porcelain)" ]; then
		return 0
	fi
	rm -f "$stamp"
	worktree "$wt"
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach "$pristine"
	git -C "$wt" clean -q -fdx
	n=0
	for p in $(series); do
		if ! git -C "$wt" -c user.name=objcheck -c user.email=objcheck@localhost \
			am -q --keep-cr "$top/patches/$p" >"$tmp/am.log" 2>&1; then
			git -C "$wt" am --abort >/dev/null 2>&1 || true
			sed 's/^/# /' "$tmp/am.log"
			echo "patch $p does not apply"
			return 1
		fi
		n=$((n + 1))
	done
	echo "$want $(git -C "$wt" rev-parse HEAD)" >"$stamp"
	say "applied $n patch(es) in ${wt#"$top"/}"
}

# ------------------------------------------------------------- configs ---

# config_set CONFIG: arch, cross, kind (allmod, debian), frag (the
# KCONFIG_ALLCONFIG lines), expect (what the patched config must hold),
# debarch and debfile (Debian's config).
config_set() {
	arch=${1%%-*}
	kind=allmod
	frag='# CONFIG_WERROR is not set'
	expect=CONFIG_MARKERS=y
	debarch='' debfile=''
	case $1 in
	*-allmod-imm)
		frag="$frag
# CONFIG_DISABLE_IMMEDIATE is not set"
		expect="$expect CONFIG_IMMEDIATE=y" ;;
	debian-amd64) arch=x86_64 debfile=config.amd64_none_amd64.xz ;;
	debian-i386) arch=i386 debfile=config.i386_none_686-pae.xz ;;
	debian-arm64) arch=arm64 debfile=config.arm64_none_arm64.xz ;;
	esac
	case $1 in
	debian-*)
		kind=debian debarch=${1#debian-}
		expect="$expect CONFIG_MARKER_EVENTS=y" ;;
	esac
	cross=$(arch_field "$arch" cross)
	srcarch=$arch
	case $arch in x86_64 | i386) srcarch=x86 ;; esac
	ccache_setup "$cross"
}

# kmake SRC OBJ ARGS...: make for this config, niced, W=1 and sparse.
kmake() {
	_s=$1 _o=$2
	shift 2
	nice -n 19 make -C "$_s" O="$_o" ARCH="$arch" ${cross:+CROSS_COMPILE="$cross"} \
		${ccache:+CC="$ccache"} W=1 C=1 "$@"
}

# debian_config: the path of Debian's config file of this config.
debian_config() {
	if [ "$debarch" = "$(dpkg --print-architecture)" ] &&
		[ -f "/usr/src/linux-config-6.12/$debfile" ]; then
		echo "/usr/src/linux-config-6.12/$debfile"
		return
	fi
	root=$base/debconf-$debarch
	if ! sh "$top/scripts/debs.sh" "$debarch" "$root" linux-config-6.12 >"$tmp/debs.log" 2>&1; then
		sed 's/^/# /' "$tmp/debs.log"
		echo "cannot fetch linux-config-6.12:$debarch (scripts/debs.sh)"
		return 1
	fi
	[ -f "$root/usr/src/linux-config-6.12/$debfile" ] ||
		{ echo "linux-config-6.12:$debarch has no $debfile"; return 1; }
	echo "$root/usr/src/linux-config-6.12/$debfile"
}

# configure SRC OBJ: write OBJ/.config.  A result equal to the last one
# keeps the old file and its mtime, so that kbuild resyncs nothing.
configure() {
	_s=$1 _o=$2
	[ ! -f "$_o/.config" ] || cp -p "$_o/.config" "$_o/.objcheck/config.prev"
	if [ "$kind" = allmod ]; then
		printf '%s\n' "$frag" >"$_o/.objcheck/allmod.config"
		kmake "$_s" "$_o" KCONFIG_ALLCONFIG="$_o/.objcheck/allmod.config" allmodconfig \
			>"$_o/.objcheck/config.log" 2>&1 || return 1
	else
		xz -dc "$debconf" >"$_o/.config" || return 1
		# Debian's certificates and key are not in the source package.
		# shellcheck disable=SC2046 # CONFIG_X=v words
		"$_s/scripts/config" --file "$_o/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY "" \
			--disable WERROR $(series_opts | sed 's/^CONFIG_\([^=]*\)=\(.*\)/--set-val \1 \2/')
		kmake "$_s" "$_o" olddefconfig >"$_o/.objcheck/config.log" 2>&1 || return 1
		# A =y the config cannot have (its dependency is =m): as =m.
		_m=
		for _x in $(series_opts | sed -n 's/^CONFIG_\([^=]*\)=y$/\1/p'); do
			grep -q "^# CONFIG_$_x is not set" "$_o/.config" && _m="$_m --module $_x"
		done
		if [ -n "$_m" ]; then
			# shellcheck disable=SC2086 # --module X words
			"$_s/scripts/config" --file "$_o/.config" $_m
			kmake "$_s" "$_o" olddefconfig >>"$_o/.objcheck/config.log" 2>&1 || return 1
		fi
	fi
	# Every "is not set" of the fragment must hold.
	for _x in $(printf '%s\n' "$frag" | sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p'); do
		if grep -q "^$_x=" "$_o/.config"; then
			echo "$_x did not take: $(grep "^$_x=" "$_o/.config")"
			return 1
		fi
	done
	if [ -f "$_o/.objcheck/config.prev" ] && cmp -s "$_o/.config" "$_o/.objcheck/config.prev"; then
		mv "$_o/.objcheck/config.prev" "$_o/.config"
	fi
	rm -f "$_o/.objcheck/config.prev"
}

series_opts() { grep '^CONFIG_[A-Za-z0-9_]*=[ym]$' "$top/configs/series.config" || true; }

# ----------------------------------------------------- built by kbuild? ---

# The makefile that asks kbuild: objcheck-list, run by the top Makefile
# (whose exported variables Makefile.build needs), descends from the root
# like kbuild into the folders of $(OBJCHECK_DIRS); each prints its own
# folder (D), its subfolders (S) and its objects (O).
write_list_mk() {
	cat >"$base/objcheck.mk" <<'EOF'
# Generated by scripts/objcheck.sh: what kbuild builds in some folders.
objcheck-list:
	$(Q)$(MAKE) $(build)=. need-builtin=1 need-modorder=1 -f $(OBJCHECK_MK) objcheck-dir

objcheck-dir:
	@printf '%s\n' 'D $(obj)' 'S $(subdir-ym)' 'O $(real-obj-y) $(real-obj-m) $(lib-y)'
	$(Q)for s in $(filter $(OBJCHECK_DIRS),$(subdir-ym)); do \
		$(MAKE) $(build)=$$s need-builtin=1 need-modorder=1 -f $(OBJCHECK_MK) objcheck-dir \
		|| exit 1; done
EOF
}

# list SRC OBJ: kbuild's answer for the folders of the objects, in
# OBJ/.objcheck/list (asked again when the config or the tree changed).
list() {
	_s=$1 _o=$2
	_dirs=$(echo "$kobjs" | sed -n 's|/[^/]*$||p' | awk -F/ '{ d = $1; print d
		for (i = 2; i <= NF; i++) { d = d "/" $i; print d } }' | sort -u | tr '\n' ' ')
	_key=$(printf '%s\n' "$(cat "$_o/.objcheck/config.key")" "$_dirs" | cat - "$_o/.config" "$base/objcheck.mk" |
		sha256sum | cut -d' ' -f1)
	[ "$(cat "$_o/.objcheck/list.key" 2>/dev/null)" != "$_key" ] || return 0
	rm -f "$_o/.objcheck/list.key"
	nice -n 19 make -s --no-print-directory -C "$_o" -f "$_s/Makefile" -f "$base/objcheck.mk" \
		ARCH="$arch" ${cross:+CROSS_COMPILE="$cross"} ${ccache:+CC="$ccache"} W=1 C=1 \
		OBJCHECK_MK="$base/objcheck.mk" OBJCHECK_DIRS="$_dirs" objcheck-list \
		>"$_o/.objcheck/list.log" 2>&1 || return 1
	grep '^[DSO] ' "$_o/.objcheck/list.log" >"$_o/.objcheck/list"
	echo "$_key" >"$_o/.objcheck/list.key"
}

# built SRC OBJ: for each object of $objs, "OBJECT y", or "OBJECT n WHY".
built() {
	_s=$1 _o=$2
	for _x in $objs; do
		case $_x in
		tools/*/*)
			_t=$(echo "$_x" | cut -d/ -f2)
			if [ -x "$_o/tools/$_t/$_t" ]; then
				echo "$_x y"
			else
				echo "$_x n tools/$_t is not built by this config (no tools/$_t/$_t after prepare)"
			fi ;;
		*) echo "$_x" ;;
		esac
	done | awk -v list="$_o/.objcheck/list" '
		BEGIN {
			while ((getline l < list) > 0) {
				t = substr(l, 1, 1); n = split(substr(l, 3), w, " ")
				if (t == "D") d = w[1]
				for (i = 1; i <= n; i++)
					if (t == "S") sub_[d, w[i]] = 1
					else if (t == "O") where[w[i]] = d
			}
		}
		NF > 1 { print; next }
		{
			# The folders on the way, from the root down, that kbuild
			# enters: each a subfolder (subdir-ym) of one entered before.
			split("", entered); entered["."] = 1; deepest = "."
			n = split($1, c, "/"); p = ""
			for (i = 1; i < n; i++) {
				p = (i == 1) ? c[1] : p "/" c[i]
				for (e in entered) if ((e, p) in sub_) { entered[p] = 1; deepest = p; break }
			}
			if (($1 in where) && (where[$1] in entered)) print $1 " y"
			else print $1 " n " deepest
		}'
}

# why SRC OBJ OBJECT DIR: the skip reason of built()'s "OBJECT n DIR", DIR
# the deepest folder on the way that kbuild enters: the line of DIR's
# Makefile that names the next folder ("name/") or the object, and the
# values of its CONFIG_ symbols; for a part of a composite object
# (foo-y += name.o) the line of foo.o.
why() {
	_s=$1 _o=$2 _x=$3 _d=$4
	case $_x in
	arch/"$srcarch"/*) ;;
	arch/*/*)
		echo "arch/$(echo "$_x" | cut -d/ -f2)/ is not built for ARCH=$arch"
		return ;;
	esac
	_r=${_x#"$_d"/}
	case $_r in */*) _w=${_r%%/*}/ ;; *) _w=$_r ;; esac
	_mf=$_s/$_d/Kbuild
	[ -f "$_mf" ] || _mf=$_s/$_d/Makefile
	_rel=${_mf#"$_s"/}
	_rel=${_rel#./}
	_l=$(sed 's/#.*//' "$_mf" 2>/dev/null | grep -n -F -w -- "$_w" | head -n 1)
	case $_l in
	*CONFIG_*) ;;
	?*)
		_c=$(echo "$_l" | sed -E -n 's/^[0-9]+:[[:space:]]*([A-Za-z0-9_-]+)-(y|objs)[[:space:]]*[:+]?=.*/\1/p')
		[ -z "$_c" ] || _l=$(sed 's/#.*//' "$_mf" | grep -n -F -w -- "$_c.o" | grep CONFIG_ | head -n 1) ;;
	esac
	if [ -z "$_l" ]; then
		echo "$_rel names no $_w that this config builds"
		return
	fi
	_t=$(echo "${_l#*:}" | sed -E 's/[[:space:]]+/ /g; s/^ //; s/ $//')
	_v=
	for _c in $(echo "$_t" | grep -o 'CONFIG_[A-Za-z0-9_]*' | sort -u); do
		_v="$_v${_v:+, }$(grep "^$_c=" "$_o/.config" || echo "$_c is not set")"
	done
	echo "$_rel:${_l%%:*}: $_t${_v:+ ($_v)}"
}

# ------------------------------------------------------------ compiling ---

# segments OUTPUT SRC OBJ: the make output, one line per object compiled
# ("C OBJECT") and per warning or error of its compile ("W OBJECT TEXT",
# TEXT = "TOOL: FILE:LINE:COL: warning: ..."; TOOL gcc, sparse, kernel-doc
# or objtool).  make -Otarget keeps each object's recipe together: kbuild's
# "CC OBJECT" line, the compiler's messages, "CHECK SOURCE" and sparse's
# and kernel-doc's.  Paths are made relative to the trees (ccache gives the
# compiler paths relative to the object folder: ../src-patched/...).
segments() {
	awk -v src="$2/" -v obj="$3/" -v src2="$(realpath -m --relative-to="$3" "$2")/" '
		function rel(s,   i) {
			while ((i = index(s, src)) > 0) s = substr(s, 1, i - 1) substr(s, i + length(src))
			while ((i = index(s, obj)) > 0) s = substr(s, 1, i - 1) substr(s, i + length(obj))
			while ((i = index(s, src2)) > 0) s = substr(s, 1, i - 1) substr(s, i + length(src2))
			sub(/^\.\//, "", s)
			return s
		}
		/^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]/ {
			if (last != "") print "W " lastobj " " last
			last = ""; t = rel($NF)
			if (($1 == "CC" || $1 == "AS") && t ~ /\.o$/) { cur = t; part = "cc"; print "C " cur; next }
			if ($1 == "CHECK" && cur != "") { part = "check"; next }
			cur = ""; next
		}
		/^make(\[[0-9]+\])?: \*\*\* / {
			l = rel($0)
			if (match(l, /: [^ :]*\.o\] /)) print "E " substr(l, RSTART + 2, RLENGTH - 4) " " l
			next
		}
		cur == "" { next }
		{ l = rel($0) }
		# sparse: "FILE:L:C:    expected ..." continues the last warning.
		l ~ /^[^ :]+:[0-9]+:[0-9]+:    / && last != "" {
			sub(/^[^ :]+:[0-9]+:[0-9]+: +/, "", l); last = last " | " l; next
		}
		l ~ /^[^ :]+(:[0-9]+)?(:[0-9]+)?: (warning|error|fatal error): / {
			if (last != "") print "W " lastobj " " last
			tool = "gcc"
			if (l ~ /: warning: objtool: /) tool = "objtool"
			else if (part == "check") tool = (l ~ /^[^ :]+:[0-9]+:[0-9]+: /) ? "sparse" : "kernel-doc"
			last = tool ": " l; lastobj = cur; next
		}
		{ if (last != "") print "W " lastobj " " last; last = "" }
		END { if (last != "") print "W " lastobj " " last }' "$1"
}

# seg W|E OBJECT: the warnings or make's errors of OBJECT in segments().
seg() {
	awk -v t="$1" -v o="$2" '$1 == t && $2 == o { sub(/^[^ ]+ [^ ]+ /, ""); print }' \
		"$_o/.objcheck/segments"
}

# mtime FILE: what says that an object changed, and which segments()
# read its warnings (a new one: compile again).
mtime() { echo "segments-2 $(stat -c '%y %s' "$1" 2>/dev/null || true)"; }

# compile SRC OBJ LABEL OBJECTS...: bring the objects up to date and their
# warnings to OBJ/.objcheck/w/OBJECT.w; an object whose kept warnings are
# not of its current file is removed first, so that make compiles it
# (again).  Prints the objects that failed to compile.
compile() {
	_s=$1 _o=$2 _lb=$3
	shift 3
	_w=$_o/.objcheck/w
	_kern='' _tools=''
	for _x in "$@"; do
		mkdir -p "$(dirname "$_w/$_x")"
		if [ ! -f "$_w/$_x.w" ] || [ "$(cat "$_w/$_x.t" 2>/dev/null)" != "$(mtime "$_o/$_x")" ]; then
			rm -f "$_o/$_x" "$_w/$_x.w" "$_w/$_x.t"
		fi
		case $_x in
		tools/*/*) _t=tools/$(echo "$_x" | cut -d/ -f2)
			case " $_tools " in *" $_t "*) ;; *) [ -f "$_o/$_x" ] || _tools="$_tools $_t" ;; esac ;;
		*) _kern="$_kern $_x" ;;
		esac
	done
	: >"$_o/.objcheck/make.log"
	say "$cfg: $_lb: make of $# object(s)"
	for _t in $_tools; do
		kmake "$_s" "$_o" -j"$jobs" "$_t" >>"$_o/.objcheck/make.log" 2>&1 || true
	done
	if [ -n "$_kern" ]; then
		# shellcheck disable=SC2086 # object names, no spaces
		kmake "$_s" "$_o" -j"$jobs" -k -Otarget $_kern >>"$_o/.objcheck/make.log" 2>&1 || true
	fi
	segments "$_o/.objcheck/make.log" "$_s" "$_o" >"$_o/.objcheck/segments"
	for _x in "$@"; do
		if grep -q -x -F "C $_x" "$_o/.objcheck/segments"; then
			seg W "$_x" >"$_w/$_x.w"
			rm -f "$_w/$_x.failed"
			if [ -f "$_o/$_x" ]; then
				mtime "$_o/$_x" >"$_w/$_x.t"
			else
				echo "$_x"
				seg E "$_x" >>"$_w/$_x.w"
				mv "$_w/$_x.w" "$_w/$_x.failed"
			fi
		elif [ ! -f "$_o/$_x" ] || [ ! -f "$_w/$_x.w" ]; then
			# Not compiled, and nothing kept: make stopped before it.
			echo "$_x"
			tail -n 5 "$_o/.objcheck/make.log" | sed 's/^/make: /' >"$_w/$_x.failed"
		else
			rm -f "$_w/$_x.failed"
		fi
	done
	say "$cfg: $_lb: $(grep -c '^C ' "$_o/.objcheck/segments" || true) object(s) compiled, $(($# - $(grep -c '^C ' "$_o/.objcheck/segments" || true))) up to date"
}

# new_warnings PATCHED PRISTINE: the lines of PATCHED whose normalised form
# (no line and column numbers) is not in PRISTINE, as a multiset.
new_warnings() {
	awk 'function norm(s,   p, t, h) {
			p = index(s, ": "); t = substr(s, p + 2)
			if (match(t, /^[^ :]+:[0-9]+(:[0-9]+)?: /)) {
				h = substr(t, 1, RLENGTH); sub(/(:[0-9]+)+: $/, ": ", h)
				t = h substr(t, RLENGTH + 1)
			}
			return substr(s, 1, p + 1) t
		}
		FILENAME == ARGV[1] { seen[norm($0)]++; next }
		{ k = norm($0); if (seen[k] > 0) seen[k]--; else print }' "$2" "$1"
}

# ----------------------------------------------------------- one config ---

# ktap_case RESULT NAME [DIRECTIVE]: a case of the current document.
ktap_case() {
	n=$((n + 1))
	echo "$1 $n $2${3:+ # $3}" >>"$tmp/doc"
}

# prep TREE SRC OBJ: configure (if its recipe or tree changed), prepare,
# list; the failure's reason on stdout.
prep() {
	_o=$3
	mkdir -p "$_o/.objcheck"
	_key=$(printf '%s\n' "objcheck-config-1 $cfg $1 $arch $cross $ccache" "$frag" \
		"$(series_opts)" "$(git -C "$2" rev-parse HEAD)" "$(sha256sum <"${debconf:-/dev/null}")" |
		sha256sum | cut -d' ' -f1)
	if [ "$(cat "$_o/.objcheck/config.key" 2>/dev/null)" != "$_key" ] || [ ! -f "$_o/.config" ]; then
		say "$cfg: $1: configuring"
		rm -f "$_o/.objcheck/config.key"
		if ! configure "$2" "$_o" >"$tmp/why" 2>&1; then
			tail -n 5 "$_o/.objcheck/config.log" 2>/dev/null | sed 's/^/# /'
			echo "configuring $1 failed: $(tail -n 3 "$tmp/why" | tr '\n' ' ')"
			return 1
		fi
		echo "$_key" >"$_o/.objcheck/config.key"
	fi
	if [ "$1" = patched ]; then
		for _e in $expect; do
			grep -q -x -F "$_e" "$_o/.config" ||
				{ echo "the patched config lacks $_e"; return 1; }
		done
	fi
	# Prepared for this key already: the make of the objects checks it.
	if [ "$(cat "$_o/.objcheck/prepared" 2>/dev/null)" != "$_key" ]; then
		say "$cfg: $1: make prepare"
		rm -f "$_o/.objcheck/prepared"
		if ! kmake "$2" "$_o" -j"$jobs" prepare >"$_o/.objcheck/prepare.log" 2>&1; then
			echo "make prepare ($1) failed: $(grep -E 'error|Error' "$_o/.objcheck/prepare.log" | head -n 3 | tr '\n' ' ')"
			return 1
		fi
		echo "$_key" >"$_o/.objcheck/prepared"
	fi
	if ! list "$2" "$_o"; then
		echo "asking kbuild what it builds ($1) failed: $(tail -n 3 "$_o/.objcheck/list.log" | tr '\n' ' ')"
		return 1
	fi
}

# in_pristine OBJECT: its source is in the pristine tree.
in_pristine() { [ -f "$spri/${1%.o}.c" ] || [ -f "$spri/${1%.o}.S" ]; }

check_config() {
	cfg=$1
	config_set "$cfg"
	n=0 compiled=0 skipped=0 failed=0
	: >"$tmp/doc"
	t0=$(date +%s)
	opat=$base/$cfg-patched opri=$base/$cfg-pristine
	debconf=
	problem=
	if [ "$kind" = debian ]; then
		debconf=$(debian_config) || problem=$debconf
	fi
	[ -n "$problem" ] || problem=$(prep patched "$spat" "$opat") || true
	[ -n "$problem" ] || problem=$(prep pristine "$spri" "$opri") || true
	t1=$(date +%s)
	if [ -n "$problem" ]; then
		printf '%s\n' "$problem" | sed 's/^# //; s/^/# /' >>"$tmp/doc"
		ktap_case "not ok" configure
		failed=1
	else
		if [ "$kind" = debian ]; then
			echo "# $debfile; the series' options: $(series_opts | sed 's/=.*//' | while read -r o; do
				grep -E "^$o=|^# $o is not set" "$opat/.config" || echo "$o=n (unmet dependencies)"; done |
				sed 's/^# \(.*\) is not set/\1=n/' | tr '\n' ' ' | sed 's/ $//')" >>"$tmp/doc"
		fi
		built "$spat" "$opat" >"$tmp/built-patched"
		built "$spri" "$opri" >"$tmp/built-pristine"
		want_pat=$(awk '$2 == "y" { print $1 }' "$tmp/built-patched")
		want_pri=
		for x in $want_pat; do
			grep -q -x -F "$x y" "$tmp/built-pristine" && in_pristine "$x" && want_pri="$want_pri $x"
		done
		# shellcheck disable=SC2086 # object names, no spaces
		compile "$spat" "$opat" patched $want_pat >"$tmp/failed-patched"
		# shellcheck disable=SC2086
		compile "$spri" "$opri" pristine $want_pri >"$tmp/failed-pristine"
		for x in $objs; do
			if ! grep -q -x -F "$x y" "$tmp/built-patched"; then
				r=$(grep -F "$x n " "$tmp/built-patched" | head -n 1 | cut -d' ' -f3-)
				case $r in
				tools/*) ;;
				*) r="not built by this config: $(why "$spat" "$opat" "$x" "$r")" ;;
				esac
				ktap_case ok "$x" "SKIP $(echo "$r" | tr -d '#')"
				skipped=$((skipped + 1))
				continue
			fi
			w=$opat/.objcheck/w/$x
			if grep -q -x -F "$x" "$tmp/failed-patched"; then
				sed 's/^/# /' "$w.failed" >>"$tmp/doc"
				echo "# $x: does not compile (make log: ${opat#"$top"/}/.objcheck/make.log)" >>"$tmp/doc"
				ktap_case "not ok" "$x"
				failed=$((failed + 1))
				continue
			fi
			compiled=$((compiled + 1))
			bw=$opri/.objcheck/w/$x.w
			case " $want_pri " in
			*" $x "*)
				if grep -q -x -F "$x" "$tmp/failed-pristine"; then
					echo "# $x: the pristine object does not compile: every warning counts as new" >>"$tmp/doc"
					bw=/dev/null
				fi ;;
			*)
				bw=/dev/null
				! in_pristine "$x" ||
					echo "# $x: not built by the pristine config: every warning counts as new" >>"$tmp/doc" ;;
			esac
			new_warnings "$w.w" "$bw" >"$tmp/new"
			if [ -s "$tmp/new" ]; then
				sed 's/^/# new: /' "$tmp/new" >>"$tmp/doc"
				ktap_case "not ok" "$x"
				failed=$((failed + 1))
			else
				ktap_case ok "$x"
			fi
		done
	fi
	t2=$(date +%s)
	summary="objcheck-$cfg: $compiled compiled, $skipped skipped, $failed failed; prepare $((t1 - t0)) s, objects $((t2 - t1)) s"
	{
		echo "KTAP version 1"
		echo "# Suite: objcheck-$cfg"
		echo "1..$n"
		cat "$tmp/doc"
		echo "# $summary"
	} | tee -a "$ktap"
	echo "$summary" >>"$tmp/summaries"
}

# ------------------------------------------------------------------ main ---

: >"$ktap"
: >"$tmp/summaries"
objs=$(objects)
[ -n "$objs" ] || die "the series changes no .c or .S file"
kobjs=$(echo "$objs" | grep -v '^tools/' || true)
spri=$base/src-pristine
spat=$base/src-patched
worktree "$spri"
if ! why=$(patched_tree); then
	printf 'KTAP version 1\n# Suite: objcheck\n1..1\n%s\n# %s\nnot ok 1 apply_series\n' \
		"$(printf '%s\n' "$why" | sed '$d')" "$(printf '%s\n' "$why" | tail -n 1)" | tee -a "$ktap"
	python3 "$top/scripts/run.py" total "$ktap"
	exit 1
fi
write_list_mk
say "$(echo "$objs" | wc -l) object(s) of $(series | wc -l) patch(es); configs: $configs"
for c in $configs; do
	check_config "$c"
done
cat "$tmp/summaries"
python3 "$top/scripts/run.py" total "$ktap"
