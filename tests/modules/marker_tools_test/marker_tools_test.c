// SPDX-License-Identifier: GPL-2.0
/*
 * A marker whose arguments change with each hit, for the tools tests
 * (tests/guest/tools.sh): writing N to
 * /sys/module/marker_tools_test/parameters/fire fires tools_test_seq N
 * times with n = 0 .. N-1, mod = n % 3 and s = "zero", "one" or "two"
 * after mod, so that perf and bpftrace counts by field value can be
 * compared with exact expected figures.
 */
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static const char * const names[] = { "zero", "one", "two" };

static int marker_tools_test_set_fire(const char *val,
				      const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		trace_mark(tools_test_seq, "n %u mod %u s %s", i, i % 3,
			   names[i % 3]);
	return 0;
}

static const struct kernel_param_ops marker_tools_test_fire_ops = {
	.set = marker_tools_test_set_fire,
};
module_param_cb(fire, &marker_tools_test_fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "write N: fire tools_test_seq N times");

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A marker with changing arguments, for perf and bpftrace tests");
