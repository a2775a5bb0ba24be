// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: owns and exports an immediate variable that another
 * module reads (the 2007 series' case of a module reading a variable
 * exported by another module).
 *
 *   parameters/value   write: immediate_set(), read: immediate_read()
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/immediate.h>

immediate_int_t imm_provider_var = IMMEDIATE_INIT(5);
EXPORT_SYMBOL_GPL(imm_provider_var);

static noinline int provider_read(void)
{
	return immediate_read(&imm_provider_var);
}

static int value_set(const char *val, const struct kernel_param *kp)
{
	int v, ret = kstrtoint(val, 0, &v);

	if (ret)
		return ret;
	immediate_set(&imm_provider_var, v);
	return 0;
}

static int value_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", provider_read());
}

static const struct kernel_param_ops value_ops = {
	.set = value_set,
	.get = value_get,
};
module_param_cb(value, &value_ops, NULL, 0644);

MODULE_DESCRIPTION("immediate values test: exported variable");
MODULE_LICENSE("GPL");
