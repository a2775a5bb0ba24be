// SPDX-License-Identifier: GPL-2.0
/*
 * Bytes per instrumentation point (make bench): the same function in
 * three modules, with nothing (this one), a marker (eb_mark.c) and a
 * TRACE_EVENT call (eb_tp.c) of the same three fields. The report
 * compares the allocated sections of the three modules.
 */
#include <linux/module.h>

void eb_site(int a, unsigned long b, const char *c);

static int eb_value;
module_param(eb_value, int, 0444);

noinline void eb_site(int a, unsigned long b, const char *c)
{
	eb_value += a + b + c[0];
}
EXPORT_SYMBOL_GPL(eb_site);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("event bytes: no instrumentation");
