// SPDX-License-Identifier: GPL-2.0
/*
 * Markers and immediate value sites that come and go during the storm of
 * mstress.ko (tests/guest/30-stress.sh loads and unloads this module in a
 * loop). While loaded, a kthread and a timer fire its markers and read
 * its immediate values, its own and mstress.ko's, and a second kthread
 * flips its own; mstress.ko's probes connect to its markers by name.
 *
 *   parameters/markers   number of markers in this module
 *   parameters/sites_ok  "mov=N jump=N bad=N": this module's sites of its
 *                        own variable agree with its value
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/timer.h>
#include "mstress.h"

static immediate_int_t mstress_site_imm = IMMEDIATE_INIT(MSTRESS_INT(0x77));

static struct task_struct *fire_task, *flip_task;
static struct timer_list fire_timer;
static bool stopping;
static unsigned int seq[MSTRESS_NR_CTX];

static int markers;
module_param(markers, int, 0444);
MODULE_PARM_DESC(markers, "number of markers in this module");
static long init_read;
module_param(init_read, long, 0444);
MODULE_PARM_DESC(init_read, "mstress_imm_long as read by the init text");

static noinline void mstress_site_read(void)
{
	long l = immediate_read(&mstress_imm_long);
	int i = immediate_read(&mstress_imm_int);
	int own = immediate_read(&mstress_site_imm);

	if (!MSTRESS_LONG_OK(l)) {
		atomic_long_inc(&mstress_shared.torn);
		WRITE_ONCE(mstress_shared.last_torn, l);
	}
	if (!MSTRESS_INT_OK(i) || !MSTRESS_INT_OK(own)) {
		atomic_long_inc(&mstress_shared.torn);
		WRITE_ONCE(mstress_shared.last_torn, MSTRESS_INT_OK(i) ? own : i);
	}
	atomic_long_inc(&mstress_shared.churn_reads);
}

static noinline void mstress_site_fire(int ctx)
{
	int a = (ctx << 24) | (seq[ctx]++ & 0xffffff);

	trace_mark(stress_event, MSTRESS_EVENT_FMT, a, mstress_mix(a), "churn");
	MSTRESS_WIDE_MARK(a, "churn");
	trace_mark(stress_churn, "%d", a);
	/* Same name as in mstress.ko, another format: never connected. */
	trace_mark(stress_mismatch, "%s", "not an int");
	trace_mark(stress_site_only, "%d", a);
	atomic_long_inc(&mstress_shared.churn_fires);
	mstress_site_read();
}

/* A second instance of stress_event, in another function. */
static noinline void mstress_site_fire_again(int ctx)
{
	int a = (ctx << 24) | (seq[ctx]++ & 0xffffff);

	trace_mark(stress_event, MSTRESS_EVENT_FMT, a, mstress_mix(a), "churn");
}

static int fire_fn(void *unused)
{
	unsigned long i;

	for (i = 1; !kthread_should_stop(); i++) {
		mstress_site_fire(MSTRESS_PROCESS);
		mstress_site_fire_again(MSTRESS_PROCESS);
		if (!(i % 16))
			mstress_yield();
	}
	return 0;
}

static int flip_fn(void *unused)
{
	unsigned int x = 1;

	while (!kthread_should_stop()) {
		immediate_set(&mstress_site_imm, MSTRESS_INT(x));
		x++;
		usleep_range(200, 400);
	}
	return 0;
}

static void fire_timer_fn(struct timer_list *t)
{
	mstress_site_fire(MSTRESS_SOFTIRQ);
	mstress_site_fire_again(MSTRESS_SOFTIRQ);
	if (!READ_ONCE(stopping))
		mod_timer(t, jiffies + 1);
}

#ifdef CONFIG_IMMEDIATE
struct site_check {
	unsigned long want;
	int mov, jump, bad;
};

static void check_site(const struct __immediate *e, void *arg)
{
	struct site_check *c = arg;

	if (!within_module(immediate_code(e), THIS_MODULE))
		return;
	if (immediate_type(e) == IMMEDIATE_JUMP) {
		c->jump++;
		c->bad += arch_immediate_site_value(e) != !!c->want;
	} else {
		c->mov++;
		c->bad += arch_immediate_site_value(e) != c->want;
	}
}

static int sites_ok_get(char *buf, const struct kernel_param *kp)
{
	struct site_check c = { };

	immediate_lock();
	c.want = (unsigned int)_immediate_read(&mstress_site_imm);
	immediate_unlock();
	immediate_visit_sites(&mstress_site_imm.value, check_site, &c);
	return sysfs_emit(buf, "mov=%d jump=%d bad=%d\n", c.mov, c.jump, c.bad);
}
#else
static int sites_ok_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "generic\n");
}
#endif

static const struct kernel_param_ops sites_ok_ops = { .get = sites_ok_get };
module_param_cb(sites_ok, &sites_ok_ops, NULL, 0444);
MODULE_PARM_DESC(sites_ok, "\"mov=N jump=N bad=N\": sites of this module's variable");

static int __init mstress_site_init(void)
{
	/* Sites in init text: patched at load, dropped when it is freed. */
	init_read = immediate_read(&mstress_imm_long);
	_trace_mark(stress_churn, "%d", MSTRESS_PROCESS << 24);
	markers = THIS_MODULE->num_markers;

	timer_setup(&fire_timer, fire_timer_fn, 0);
	mod_timer(&fire_timer, jiffies + 1);
	fire_task = kthread_run(fire_fn, NULL, "mstress_site_fire");
	flip_task = kthread_run(flip_fn, NULL, "mstress_site_flip");
	if (IS_ERR(fire_task) || IS_ERR(flip_task)) {
		WRITE_ONCE(stopping, true);
		timer_delete_sync(&fire_timer);
		if (!IS_ERR(fire_task))
			kthread_stop(fire_task);
		if (!IS_ERR(flip_task))
			kthread_stop(flip_task);
		return -ENOMEM;
	}
	return 0;
}

static void __exit mstress_site_exit(void)
{
	WRITE_ONCE(stopping, true);
	kthread_stop(fire_task);
	kthread_stop(flip_task);
	timer_delete_sync(&fire_timer);
	_trace_mark(stress_churn, "%d", MSTRESS_PROCESS << 24);
}

module_init(mstress_site_init);
module_exit(mstress_site_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers and immediate sites loaded and unloaded during the mstress storm");
