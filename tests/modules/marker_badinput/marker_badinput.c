// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input to the markers API, as a KUnit suite loaded by
 * tests/guest/31-bad-input.sh: every call with NULL, empty, overlong and
 * unterminated names and formats, calls repeated or out of order, and
 * calls from atomic context. Each must fail with its documented errno
 * and leave nothing registered, armed or allocated behind (kmemleak
 * checks the last point in the debug kernel).
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>

static int hits;

static void badinput_probe(const struct __mark_marker *mdata, void *private_data,
			   const char *fmt, ...)
{
	hits++;
}

static noinline void badinput_fire(int v)
{
	trace_mark(badinput_int, "%d", v);
}

/* The marker of this module named @name, or NULL. */
static struct __mark_marker *badinput_marker(const char *name)
{
	struct __mark_marker *found = NULL;
	struct marker_iter iter;

	marker_iter_reset(&iter);
	for (marker_iter_start(&iter); iter.marker; marker_iter_next(&iter))
		if (iter.module == THIS_MODULE && !strcmp(iter.marker->name, name))
			found = iter.marker;
	marker_iter_stop(&iter);
	return found;
}

/* Nothing registered for badinput_int, its site disarmed and not called. */
static void expect_clean(struct kunit *test)
{
	struct __mark_marker *m = badinput_marker("badinput_int");
	int before = hits;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_pdata("badinput_int"), ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, _immediate_read(&m->state), 0);
	KUNIT_EXPECT_PTR_EQ(test, (void *)READ_ONCE(m->call),
			    (void *)__mark_empty_function);
	badinput_fire(1);
	KUNIT_EXPECT_EQ(test, hits, before);
}

/* Every call that takes a name, with @name: all must say -EINVAL. */
static void expect_name_einval(struct kunit *test, const char *name, const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, marker_probe_register(name, "%d", badinput_probe, NULL),
			    -EINVAL, "register, %s name", what);
	KUNIT_EXPECT_EQ_MSG(test, marker_probe_attach(name, "%d", badinput_probe, NULL),
			    -EINVAL, "attach, %s name", what);
	KUNIT_EXPECT_EQ_MSG(test, marker_probe_detach(name, badinput_probe, NULL),
			    -EINVAL, "detach, %s name", what);
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_probe_unregister(name), ERR_PTR(-EINVAL),
				"unregister, %s name", what);
	KUNIT_EXPECT_EQ_MSG(test, marker_arm(name), -EINVAL, "arm, %s name", what);
	KUNIT_EXPECT_EQ_MSG(test, marker_disarm(name), -EINVAL, "disarm, %s name", what);
	KUNIT_EXPECT_PTR_EQ_MSG(test, marker_get_pdata(name), ERR_PTR(-EINVAL),
				"get_pdata, %s name", what);
}

static void expect_format_einval(struct kunit *test, const char *format, const char *what)
{
	KUNIT_EXPECT_EQ_MSG(test, marker_probe_register("badinput_int", format,
							badinput_probe, NULL),
			    -EINVAL, "register, %s format", what);
	KUNIT_EXPECT_EQ_MSG(test, marker_probe_attach("badinput_int", format,
						      badinput_probe, NULL),
			    -EINVAL, "attach, %s format", what);
}

static void badinput_null_empty(struct kunit *test)
{
	expect_name_einval(test, NULL, "NULL");
	expect_name_einval(test, "", "empty");
	expect_format_einval(test, NULL, "NULL");
	expect_format_einval(test, "", "empty");
	KUNIT_EXPECT_EQ(test, marker_probe_register("badinput_int", "%d", NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, marker_probe_attach("badinput_int", "%d", NULL, NULL),
			-EINVAL);
	/* No probe registered with this private data (nor with NULL). */
	KUNIT_EXPECT_PTR_EQ(test, marker_probe_unregister_pdata(&hits), ERR_PTR(-ENOENT));
	expect_clean(test);
}

static void badinput_overlong(struct kunit *test)
{
	char *name = kunit_kzalloc(test, MARK_MAX_NAME_LEN + 2, GFP_KERNEL);
	char *format = kunit_kzalloc(test, MARK_MAX_FORMAT_LEN + 2, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, name);
	KUNIT_ASSERT_NOT_NULL(test, format);
	memset(name, 'n', MARK_MAX_NAME_LEN + 1);
	memset(format, 'f', MARK_MAX_FORMAT_LEN + 1);
	expect_name_einval(test, name, "overlong");
	expect_format_einval(test, format, "overlong");

	/* The longest allowed, fine for every call. */
	name[MARK_MAX_NAME_LEN] = '\0';
	format[MARK_MAX_FORMAT_LEN] = '\0';
	KUNIT_EXPECT_EQ(test, marker_probe_register(name, format, badinput_probe, &hits), 0);
	KUNIT_EXPECT_EQ(test, marker_arm(name), 0);
	KUNIT_EXPECT_EQ(test, marker_disarm(name), 0);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_pdata(name), (void *)&hits);
	KUNIT_EXPECT_EQ(test, marker_probe_attach(name, format, badinput_probe, NULL), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_detach(name, badinput_probe, NULL), 0);
	KUNIT_EXPECT_PTR_EQ(test, marker_probe_unregister(name), (void *)&hits);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_pdata(name), ERR_PTR(-ENOENT));
	expect_clean(test);
}

/*
 * A name or format that fills the end of a page with no NUL, the next
 * page unmapped: the API must not read past its length limit.
 */
static void badinput_unterminated(struct kunit *test)
{
	char *page = vmalloc(PAGE_SIZE);
	char *name, *format;

	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page, 'u', PAGE_SIZE);
	name = page + PAGE_SIZE - (MARK_MAX_NAME_LEN + 1);
	format = page + PAGE_SIZE - (MARK_MAX_FORMAT_LEN + 1);
	expect_name_einval(test, name, "unterminated");
	expect_format_einval(test, format, "unterminated");
	vfree(page);
	expect_clean(test);
}

/* Calls repeated, or out of order. */
static void badinput_twice(struct kunit *test)
{
	int a, b;

	KUNIT_EXPECT_EQ(test, marker_arm("badinput_int"), -ENOENT);
	KUNIT_EXPECT_EQ(test, marker_disarm("badinput_int"), -ENOENT);
	KUNIT_EXPECT_EQ(test, marker_probe_detach("badinput_int", badinput_probe, &a),
			-ENOENT);

	KUNIT_ASSERT_EQ(test, marker_probe_register("badinput_int", "%d",
						    badinput_probe, &a), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_register("badinput_int", "%d",
						    badinput_probe, &b), -EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, marker_get_pdata("badinput_int"), (void *)&a);
	/* Disarming a marker that is not armed. */
	KUNIT_EXPECT_EQ(test, marker_disarm("badinput_int"), -EPERM);
	KUNIT_EXPECT_EQ(test, marker_arm("badinput_int"), 0);
	KUNIT_EXPECT_EQ(test, marker_disarm("badinput_int"), 0);
	KUNIT_EXPECT_EQ(test, marker_disarm("badinput_int"), -EPERM);
	/* Detaching what was registered, not attached. */
	KUNIT_EXPECT_EQ(test, marker_probe_detach("badinput_int", badinput_probe, &a),
			-ENOENT);
	KUNIT_EXPECT_PTR_EQ(test, marker_probe_unregister("badinput_int"), (void *)&a);
	KUNIT_EXPECT_PTR_EQ(test, marker_probe_unregister("badinput_int"), ERR_PTR(-ENOENT));
	KUNIT_EXPECT_PTR_EQ(test, marker_probe_unregister_pdata(&a), ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, marker_arm("badinput_int"), -ENOENT);

	KUNIT_ASSERT_EQ(test, marker_probe_attach("badinput_int", "%d",
						  badinput_probe, &a), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_attach("badinput_int", "%d",
						  badinput_probe, &a), -EBUSY);
	/* Attached is not registered. */
	KUNIT_EXPECT_PTR_EQ(test, marker_probe_unregister("badinput_int"), ERR_PTR(-ENOENT));
	KUNIT_EXPECT_EQ(test, marker_arm("badinput_int"), -ENOENT);
	KUNIT_EXPECT_EQ(test, marker_probe_detach("badinput_int", badinput_probe, &b),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, marker_probe_detach("badinput_int", badinput_probe, &a), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_detach("badinput_int", badinput_probe, &a),
			-ENOENT);
	marker_synchronize_unregister();
	expect_clean(test);
}

/* A refused format leaves no entry that would fix the wrong format. */
static void badinput_format_refused(struct kunit *test)
{
	int a;

	KUNIT_EXPECT_EQ(test, marker_probe_register("badinput_int", "%s",
						    badinput_probe, &a), -EPERM);
	KUNIT_EXPECT_EQ(test, marker_probe_attach("badinput_int", "%p",
						  badinput_probe, &a), -EPERM);
	expect_clean(test);
	/* The right format is still accepted. */
	KUNIT_ASSERT_EQ(test, marker_probe_register("badinput_int", "%d",
						    badinput_probe, &a), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_attach("badinput_int", "%s",
						  badinput_probe, &a), -EPERM);
	KUNIT_EXPECT_PTR_EQ(test, marker_probe_unregister("badinput_int"), (void *)&a);
	expect_clean(test);
}

/*
 * The API sleeps: from atomic context it must refuse with -EPERM, not
 * sleep. Only contexts the kernel can see are checked: irqs off, softirq
 * and hardirq always, preemption disabled when CONFIG_PREEMPT_COUNT.
 */
struct atomic_calls {
	int reg, attach, arm, disarm, detach;
	void *unreg, *unreg_pdata, *pdata;
	bool done;
};

/* A name without sites: nothing is patched, whatever the calls return. */
static void call_all(struct atomic_calls *c)
{
	c->reg = marker_probe_register("badinput_nosite", "%d", badinput_probe, c);
	c->attach = marker_probe_attach("badinput_nosite", "%d", badinput_probe, c);
	c->arm = marker_arm("badinput_nosite");
	c->disarm = marker_disarm("badinput_nosite");
	c->detach = marker_probe_detach("badinput_nosite", badinput_probe, c);
	c->unreg = marker_probe_unregister("badinput_nosite");
	c->unreg_pdata = marker_probe_unregister_pdata(c);
	c->pdata = marker_get_pdata("badinput_nosite");
	WRITE_ONCE(c->done, true);
}

static void expect_refused(struct kunit *test, struct atomic_calls *c, const char *ctx)
{
	KUNIT_EXPECT_TRUE_MSG(test, c->done, "%s: not called", ctx);
	KUNIT_EXPECT_EQ_MSG(test, c->reg, -EPERM, "register from %s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, c->attach, -EPERM, "attach from %s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, c->arm, -EPERM, "arm from %s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, c->disarm, -EPERM, "disarm from %s", ctx);
	KUNIT_EXPECT_EQ_MSG(test, c->detach, -EPERM, "detach from %s", ctx);
	KUNIT_EXPECT_PTR_EQ_MSG(test, c->unreg, ERR_PTR(-EPERM), "unregister from %s", ctx);
	KUNIT_EXPECT_PTR_EQ_MSG(test, c->unreg_pdata, ERR_PTR(-EPERM),
				"unregister_pdata from %s", ctx);
	KUNIT_EXPECT_PTR_EQ_MSG(test, c->pdata, ERR_PTR(-EPERM), "get_pdata from %s", ctx);
	/* Whatever they returned, clean up in process context. */
	marker_probe_detach("badinput_nosite", badinput_probe, c);
	marker_probe_unregister("badinput_nosite");
	KUNIT_EXPECT_PTR_EQ(test, marker_get_pdata("badinput_nosite"), ERR_PTR(-ENOENT));
}

static struct atomic_calls timer_calls;

static void badinput_timer_fn(struct timer_list *t)
{
	call_all(&timer_calls);
}

static struct atomic_calls hrtimer_calls;

static enum hrtimer_restart badinput_hrtimer_fn(struct hrtimer *t)
{
	call_all(&hrtimer_calls);
	return HRTIMER_NORESTART;
}

static void badinput_atomic(struct kunit *test)
{
	struct atomic_calls c = { };
	struct timer_list timer;
	struct hrtimer hrt;
	unsigned long flags;
	int i;

	local_irq_save(flags);
	call_all(&c);
	local_irq_restore(flags);
	expect_refused(test, &c, "irqs disabled");

	timer_setup_on_stack(&timer, badinput_timer_fn, 0);
	mod_timer(&timer, jiffies + 1);
	for (i = 0; i < 500 && !READ_ONCE(timer_calls.done); i++)
		msleep(10);
	timer_delete_sync(&timer);
	destroy_timer_on_stack(&timer);
	expect_refused(test, &timer_calls, "softirq");

	hrtimer_init_on_stack(&hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hrt.function = badinput_hrtimer_fn;
	hrtimer_start(&hrt, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	for (i = 0; i < 500 && !READ_ONCE(hrtimer_calls.done); i++)
		msleep(10);
	hrtimer_cancel(&hrt);
	destroy_hrtimer_on_stack(&hrt);
	expect_refused(test, &hrtimer_calls, "hardirq");

	if (IS_ENABLED(CONFIG_PREEMPT_COUNT)) {
		memset(&c, 0, sizeof(c));
		preempt_disable();
		call_all(&c);
		preempt_enable();
		expect_refused(test, &c, "preemption disabled");
	}
}

static struct kunit_case badinput_cases[] = {
	KUNIT_CASE(badinput_null_empty),
	KUNIT_CASE(badinput_overlong),
	KUNIT_CASE(badinput_unterminated),
	KUNIT_CASE(badinput_twice),
	KUNIT_CASE(badinput_format_refused),
	KUNIT_CASE(badinput_atomic),
	{}
};

static struct kunit_suite badinput_suite = {
	.name = "markers_bad_input",
	.test_cases = badinput_cases,
};
kunit_test_suite(badinput_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Bad input to the markers API (KUnit)");
