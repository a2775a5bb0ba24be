// SPDX-License-Identifier: GPL-2.0
/*
 * Bytes per instrumentation point (make bench): a TRACE_EVENT of the
 * same three fields as eb_mark.c's marker. See eb_none.c.
 */
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "eb_tp.h"

void eb_site(int a, unsigned long b, const char *c);

static int eb_value;
module_param(eb_value, int, 0444);

noinline void eb_site(int a, unsigned long b, const char *c)
{
	trace_eb_event(a, b, c);
	eb_value += a + b + c[0];
}
EXPORT_SYMBOL_GPL(eb_site);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("event bytes: a TRACE_EVENT");
