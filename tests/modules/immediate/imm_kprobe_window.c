// SPDX-License-Identifier: GPL-2.0
/*
 * A kprobe on a coming module's immediate value site, in the window
 * where the module's text can already be probed but the immediate values
 * module notifier has not run yet: a module notifier of higher priority
 * tries it when imm_consumer comes.
 *
 *   parameters/result   the return of register_kprobe() on the site
 *                       (-16 = -EBUSY: refused, as it must be), or
 *                       "none" before imm_consumer came
 */
#include <linux/immediate.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>

static int result = 1;	/* 1: not tried */

static int result_get(char *buf, const struct kernel_param *kp)
{
	if (result == 1)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%d\n", result);
}

static const struct kernel_param_ops result_ops = { .get = result_get };
module_param_cb(result, &result_ops, NULL, 0444);

static int window_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe window_kp = { .pre_handler = window_pre };

static int window_notify(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	struct module *mod = data;

	if (val != MODULE_STATE_COMING || strcmp(mod->name, "imm_consumer"))
		return NOTIFY_DONE;
#ifdef CONFIG_IMMEDIATE
	if (!mod->num_immediate) {
		result = -ENOENT;
		return NOTIFY_DONE;
	}
	window_kp.addr = (kprobe_opcode_t *)immediate_code(&mod->immediate[0]);
	result = register_kprobe(&window_kp);
	if (!result)
		unregister_kprobe(&window_kp);
#else
	result = -ENOENT;
#endif
	return NOTIFY_DONE;
}

static struct notifier_block window_nb = {
	.notifier_call = window_notify,
	.priority = INT_MAX,	/* before immediate values (2) */
};

static int __init window_init(void)
{
	return register_module_notifier(&window_nb);
}

static void __exit window_exit(void)
{
	unregister_module_notifier(&window_nb);
}

module_init(window_init);
module_exit(window_exit);
MODULE_DESCRIPTION("Test: kprobe on a coming module's immediate value site");
MODULE_LICENSE("GPL");
