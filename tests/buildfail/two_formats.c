// SPDX-License-Identifier: GPL-2.0
/*
 * Built by scripts/buildfail.sh: the sites of a marker name in one source
 * file share one marker, so they must pass one format. Built as is, the
 * module must build; with -DTWO_FORMATS its second site has another
 * format, and the build must fail.
 */
#include <linux/marker.h>
#include <linux/module.h>

static int v = 1;
module_param(v, int, 0444);

static noinline void two_formats_first(void)
{
	trace_mark(buildfail_two_formats, "%d", v);
}

static noinline void two_formats_second(void)
{
#ifdef TWO_FORMATS
	trace_mark(buildfail_two_formats, "%x", v);
#else
	trace_mark(buildfail_two_formats, "%d", v + 1);
#endif
}

static int __init two_formats_init(void)
{
	two_formats_first();
	two_formats_second();
	return 0;
}
module_init(two_formats_init);

MODULE_DESCRIPTION("A marker name with two formats in one file (never loaded)");
MODULE_LICENSE("GPL");
