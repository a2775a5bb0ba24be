#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's checkpatch.pl --strict over every patch of patches/series.
# Exit 0 only if all are clean (an empty series is clean).
# PATCHES=DIR checks another series directory.
# DIR/checkpatch-exceptions: "PATCH TYPE[,TYPE...]" lines, message types to
# ignore for that patch; each must be justified in the patch's changelog.
set -eu
# checkpatch runs scripts/spdxcheck.py with "python3": Debian's, which has
# python3-ply and python3-git (setup.sh), not one a PATH may put first.
PATH=/usr/bin:$PATH
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
patches=$(cd "${PATCHES:-$top/patches}" && pwd)
[ -f "$tree/scripts/checkpatch.pl" ] || { echo "checkpatch.sh: no $tree: run make tree" >&2; exit 1; }
list=$(grep -v '^[[:space:]]*#' "$patches/series" | awk 'NF {print $1}')
if [ -z "$list" ]; then
	echo "checkpatch.sh: patches/series is empty: nothing to check"
	exit 0
fi
bad=0 n=0
for p in $list; do
	n=$((n + 1))
	# From the tree's top so that checkpatch finds its data files and can
	# check paths; --no-tree would lose the file existence checks.
	ign=$(awk -v p="$p" '$1 == p {print $2}' "$patches/checkpatch-exceptions" 2>/dev/null)
	# Then from this checkout, where checkpatch.pl checks a patch that git
	# tracks as a file (whitespace of the patch text itself).
	if (cd "$tree" && perl scripts/checkpatch.pl --strict --quiet --show-types \
		${ign:+--ignore "$ign"} "$patches/$p") &&
		(cd "$top" && perl "$tree/scripts/checkpatch.pl" --strict --quiet --show-types \
		${ign:+--ignore "$ign"} "$patches/$p"); then
		echo "checkpatch.sh: clean: $p${ign:+ (ignoring $ign, see its changelog)}"
	else
		echo "checkpatch.sh: NOT clean: $p"
		bad=$((bad + 1))
	fi
done
echo "checkpatch.sh: $((n - bad)) of $n patch(es) clean"
[ $bad = 0 ]
