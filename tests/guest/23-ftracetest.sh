#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel's own ftrace selftests of marker events,
# tools/testing/selftests/ftrace/test.d/dynevent/*marker*.tc (copied with
# ftracetest into /tests/ftrace by tests/mkinitramfs.sh), run by the
# kernel's ftracetest under busybox sh: one case per .tc file, which must
# pass (an unsupported or unresolved result fails too).
# shellcheck source=ktap.sh
. /tests/ktap.sh

F=/tests/ftrace
tcs=$(find $F/test.d/dynevent -name '*marker*.tc' 2>/dev/null | sort)

ktap_begin ftracetest "$(echo "$tcs" | grep -c .)"
for tc in $tcs; do
	ktap_check "$(basename "$tc" .tc)" \
		"$F/ftracetest" --fail-unsupported --fail-unresolved -l /tmp/ftracetest "$tc"
done
ktap_end
