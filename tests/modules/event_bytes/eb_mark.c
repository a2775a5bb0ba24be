// SPDX-License-Identifier: GPL-2.0
/*
 * Bytes per instrumentation point (make bench): a marker of three fields,
 * which a marker event (tracefs) turns into a trace event at run time.
 * See eb_none.c.
 */
#include <linux/marker.h>
#include <linux/module.h>

void eb_site(int a, unsigned long b, const char *c);

static int eb_value;
module_param(eb_value, int, 0444);

noinline void eb_site(int a, unsigned long b, const char *c)
{
	trace_mark(eb_event, "a %d b %lu c %s", a, b, c);
	eb_value += a + b + c[0];
}
EXPORT_SYMBOL_GPL(eb_site);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("event bytes: a marker");
