// SPDX-License-Identifier: GPL-2.0
/*
 * Markers in a module, for tests/guest/20-markers.sh.
 *
 * marker_site_event ("%d %s") has two instances, fired by writing a count
 * to /sys/module/marker_site/parameters/fire; marker_site_mismatch ("%d")
 * is fired with them, marker_probe expects it with another format;
 * marker_site_init and marker_site_exit fire in module init and exit.
 *
 * marker_site_dormant() and marker_site_dormant_load() are what the host's
 * scripts/disasm-check.py reads in the built object: the same marker
 * placed with trace_mark() (no data load while disabled) and with
 * _trace_mark() (a memory read of the state, the check's counter-proof).
 */
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static int fired;
module_param(fired, int, 0444);
MODULE_PARM_DESC(fired, "times the markers were fired");

static noinline void marker_site_fire_one(int i)
{
	trace_mark(marker_site_event, "%d %s", i, "first");
	trace_mark(marker_site_mismatch, "%d", i);
}

static noinline void marker_site_fire_two(int i)
{
	trace_mark(marker_site_event, "%d %s", i, "second");
	trace_mark(marker_site_noargs, MARK_NOARGS);
}

static noinline void marker_site_dormant(int i)
{
	trace_mark(marker_site_disasm, "%d", i);
}

static noinline void marker_site_dormant_load(int i)
{
	_trace_mark(marker_site_disasm_load, "%d", i);
}

static int marker_site_set_fire(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		marker_site_fire_one(i);
		marker_site_fire_two(i);
		marker_site_dormant(i);
		marker_site_dormant_load(i);
		fired++;
	}
	return 0;
}

static const struct kernel_param_ops marker_site_fire_ops = {
	.set = marker_site_set_fire,
};
module_param_cb(fire, &marker_site_fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "write N: fire the markers N times");

static int __init marker_site_init(void)
{
	_trace_mark(marker_site_init, "%d", 42);
	return 0;
}

static void __exit marker_site_exit(void)
{
	_trace_mark(marker_site_exit, MARK_NOARGS);
}

module_init(marker_site_init);
module_exit(marker_site_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers in a module, for the markers tests");
