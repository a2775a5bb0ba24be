// SPDX-License-Identifier: GPL-2.0
/*
 * Update storm for markers and immediate values, for
 * tests/guest/30-stress.sh and 32-kprobe-ftrace.sh.
 *
 * Writing a number of milliseconds to /sys/kernel/debug/mstress/run
 * starts, on every online CPU, markers and immediate value reads firing
 * in a tight loop from process context (a bound kthread), softirq (a
 * timer_list), hardirq (a hard hrtimer and an irq_work) and NMI (an NMI
 * IPI, x86); meanwhile kthreads register, arm, disarm, attach, detach
 * and unregister probes, and flip immediate values, as fast as they can.
 * The write returns when the time is up and everything is stopped;
 * parameters/stats then tells what ran and what went wrong:
 *
 *   bad_args      a probe got an argument, private data or context that
 *                 does not match what the marker passed
 *   late_hits     a probe ran with private data whose unregistration and
 *                 marker_synchronize_unregister() had returned
 *   torn          an immediate value read mixed two written values
 *   stale         an immediate value read older than an update that had
 *                 returned before the read started
 *   mismatch      a probe called by a marker of another format
 *   api_errors    a marker call returned something it should not
 *
 * Other parameters: hold_imm / hold_markers (write N: hold an immediate
 * update half-way, or the markers mutex, for N ms), inject (faults that
 * the checks above must catch), sites_ok, kprobe_sites and kprobe_addrs,
 * see below.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/timer.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#define MSTRESS_HAVE_NMI	1
#endif
#include "mstress.h"

#ifndef CONFIG_IMMEDIATE
/* The generic immediate values patch nothing: no statistics to read. */
struct immediate_stats {
	unsigned long batches;
	unsigned long sites;
};

static void immediate_get_stats(struct immediate_stats *stats)
{
	stats->batches = 0;
	stats->sites = 0;
}
#endif

const int mstress_objs[MSTRESS_NR_OBJS];
EXPORT_SYMBOL_GPL(mstress_objs);
struct mstress_shared mstress_shared;
EXPORT_SYMBOL_GPL(mstress_shared);

immediate_long_t mstress_imm_long = IMMEDIATE_INIT(MSTRESS_LONG(0x1234));
EXPORT_SYMBOL_GPL(mstress_imm_long);
immediate_int_t mstress_imm_int = IMMEDIATE_INIT(MSTRESS_INT(0));
EXPORT_SYMBOL_GPL(mstress_imm_int);
static immediate_short_t mstress_imm_short = IMMEDIATE_INIT(MSTRESS_SHORT(0x12));
static immediate_void_ptr_t mstress_imm_ptr = IMMEDIATE_INIT((void *)&mstress_objs[0]);
static immediate_char_t mstress_imm_flag;

/*
 * mstress_imm_int is MSTRESS_INT(mstress_gen / 2) whenever mstress_gen is
 * even; it is odd while an update runs. Only mstress_gen_fn() writes both.
 */
static unsigned long mstress_gen;

static unsigned int hrtimer_us = 1000;
module_param(hrtimer_us, uint, 0644);
MODULE_PARM_DESC(hrtimer_us, "shortest period of the hardirq hrtimer of each CPU");
static bool inject;
module_param(inject, bool, 0644);
MODULE_PARM_DESC(inject, "inject a wrong argument, a late hit and a torn value now and then");
static unsigned int nmi_every = 256;
module_param(nmi_every, uint, 0644);
MODULE_PARM_DESC(nmi_every, "process loop iterations between two NMIs sent (0: none)");

struct mstress_cpu {
	struct task_struct *task;
	struct hrtimer hrt;
	struct timer_list timer;
	struct irq_work iw;
	int cpu;
	unsigned int seq[MSTRESS_NR_CTX];	/* each written by one context */
	atomic_t nmi_pending;
	atomic_long_t fires[MSTRESS_NR_CTX];
	atomic_long_t hits[MSTRESS_NR_CTX];
	atomic_long_t hits_all;		/* noargs hits too */
	atomic_long_t irq_work_fires;
	atomic_long_t reads;
	atomic_long_t flag_true;
	atomic_long_t nmi_sent;
};

static struct mstress_cpu *mstress_cpus;
static bool mstress_stop;
static atomic_long_t mstress_stale;
static atomic_long_t mstress_api_errors;
static char mstress_first_error[96];
static DEFINE_SPINLOCK(mstress_error_lock);
/* One run at a time; kprobe_sites is not run during a storm. */
static DEFINE_MUTEX(mstress_run_mutex);

/* Counters of the updater threads. */
static atomic_long_t mstress_imm_updates, mstress_marker_ops, mstress_cycles;

static void mstress_api_error(const char *what, const char *name, long ret)
{
	atomic_long_inc(&mstress_api_errors);
	spin_lock(&mstress_error_lock);
	if (!mstress_first_error[0])
		snprintf(mstress_first_error, sizeof(mstress_first_error),
			 "%s(%s)=%ld", what, name, ret);
	spin_unlock(&mstress_error_lock);
	pr_err("mstress: %s(%s) returned %ld\n", what, name, ret);
}

static void mstress_torn(long v)
{
	atomic_long_inc(&mstress_shared.torn);
	WRITE_ONCE(mstress_shared.last_torn, v);
}

/* Private data of a probe, with a pattern a probe checks. */
struct mstress_pd {
	unsigned long magic;
	int dead;		/* unregistered and synchronised */
	atomic_long_t hits;
};

#define MSTRESS_MAGIC	0x6d737472UL

static struct mstress_pd *mstress_pd_alloc(void)
{
	struct mstress_pd *pd = kzalloc(sizeof(*pd), GFP_KERNEL);

	if (pd)
		pd->magic = MSTRESS_MAGIC ^ (unsigned long)pd;
	return pd;
}

static void mstress_hit(void *private_data, int ctx)
{
	struct mstress_pd *pd = private_data;

	if (!pd || pd->magic != (MSTRESS_MAGIC ^ (unsigned long)pd)) {
		atomic_long_inc(&mstress_shared.bad_args);
		return;
	}
	if (READ_ONCE(pd->dead))
		atomic_long_inc(&mstress_shared.late_hits);
	atomic_long_inc(&pd->hits);
	atomic_long_inc(&mstress_cpus[smp_processor_id()].hits_all);
	if (ctx >= 0 && ctx < MSTRESS_NR_CTX)
		atomic_long_inc(&mstress_cpus[smp_processor_id()].hits[ctx]);
}

static void mstress_probe_event(const struct __mark_marker *mdata,
				void *private_data, const char *fmt, ...)
{
	unsigned long b;
	const char *s;
	va_list args;
	int a;

	if (strcmp(mdata->name, "stress_event") || strcmp(fmt, MSTRESS_EVENT_FMT)) {
		atomic_long_inc(&mstress_shared.mismatch_calls);
		return;
	}
	va_start(args, fmt);
	a = va_arg(args, int);
	b = va_arg(args, unsigned long);
	s = va_arg(args, const char *);
	va_end(args);
	if (!mstress_event_ok(fmt, a, b, s)) {
		atomic_long_inc(&mstress_shared.bad_args);
		return;
	}
	mstress_hit(private_data, a >> 24);
}

/* The same, as another function: attached next to the first one. */
static void mstress_probe_event2(const struct __mark_marker *mdata,
				 void *private_data, const char *fmt, ...)
{
	unsigned long b;
	const char *s;
	va_list args;
	int a;

	if (strcmp(mdata->name, "stress_event") || strcmp(fmt, MSTRESS_EVENT_FMT)) {
		atomic_long_inc(&mstress_shared.mismatch_calls);
		return;
	}
	va_start(args, fmt);
	a = va_arg(args, int);
	b = va_arg(args, unsigned long);
	s = va_arg(args, const char *);
	va_end(args);
	if (!mstress_event_ok(fmt, a, b, s)) {
		atomic_long_inc(&mstress_shared.bad_args);
		return;
	}
	mstress_hit(private_data, a >> 24);
}

static void mstress_probe_wide(const struct __mark_marker *mdata,
			       void *private_data, const char *fmt, ...)
{
	va_list args;
	bool ok;
	int a;

	if (strcmp(mdata->name, "stress_wide") || strcmp(fmt, MSTRESS_WIDE_FMT)) {
		atomic_long_inc(&mstress_shared.mismatch_calls);
		return;
	}
	va_start(args, fmt);
	a = va_arg(args, int);
	va_end(args);
	va_start(args, fmt);
	ok = mstress_wide_ok(fmt, args);
	va_end(args);
	if (!ok) {
		atomic_long_inc(&mstress_shared.bad_args);
		return;
	}
	mstress_hit(private_data, a >> 24);
}

/* stress_generic, stress_mismatch, stress_churn: "%d", the first argument. */
static void mstress_probe_int(const struct __mark_marker *mdata,
			      void *private_data, const char *fmt, ...)
{
	va_list args;
	int a;

	if (strcmp(fmt, "%d")) {
		atomic_long_inc(&mstress_shared.mismatch_calls);
		return;
	}
	va_start(args, fmt);
	a = va_arg(args, int);
	va_end(args);
	if ((a >> 24) >= MSTRESS_NR_CTX || !mstress_ctx_ok(a >> 24)) {
		atomic_long_inc(&mstress_shared.bad_args);
		return;
	}
	mstress_hit(private_data, a >> 24);
}

static void mstress_probe_noargs(const struct __mark_marker *mdata,
				 void *private_data, const char *fmt, ...)
{
	if (strcmp(fmt, MARK_NOARGS)) {
		atomic_long_inc(&mstress_shared.mismatch_calls);
		return;
	}
	mstress_hit(private_data, -1);
}

/*
 * The immediate values. Not inlined, so that 32-kprobe-ftrace.sh can
 * trace it with the function tracer while its sites are patched.
 */
static noinline void mstress_read_imm(struct mstress_cpu *pc)
{
	long l = immediate_read(&mstress_imm_long);
	short s = immediate_read(&mstress_imm_short);
	const void *p = immediate_read(&mstress_imm_ptr);
	unsigned long g1, g2, off;
	int v;

	g1 = smp_load_acquire(&mstress_gen);
	v = immediate_read(&mstress_imm_int);
	smp_rmb();
	g2 = READ_ONCE(mstress_gen);

	if (!MSTRESS_LONG_OK(l))
		mstress_torn(l);
	if (!MSTRESS_SHORT_OK(s))
		mstress_torn(s);
	if (!MSTRESS_INT_OK(v))
		mstress_torn(v);
	else if (!(g1 & 1) && g1 == g2 && v != MSTRESS_INT(g1 >> 1))
		atomic_long_inc(&mstress_stale);
	off = (unsigned long)p - (unsigned long)mstress_objs;
	if (off >= sizeof(mstress_objs) || off % sizeof(int))
		mstress_torn((long)p);
	immediate_if(&mstress_imm_flag)
		atomic_long_inc(&pc->flag_true);
	atomic_long_inc(&pc->reads);
}

/* Fire every marker once, from context @ctx. */
static noinline void mstress_fire(struct mstress_cpu *pc, int ctx)
{
	int a = (ctx << 24) | (pc->seq[ctx]++ & 0xffffff);

	trace_mark(stress_event, MSTRESS_EVENT_FMT, a, mstress_mix(a), "storm");
	if (unlikely(READ_ONCE(inject)) && !(a & 1023))
		trace_mark(stress_event, MSTRESS_EVENT_FMT, a, mstress_mix(a) + 1, "storm");
	MSTRESS_WIDE_MARK(a, "storm");
	trace_mark(stress_noargs, MARK_NOARGS);
	_trace_mark(stress_generic, "%d", a);
	trace_mark(stress_mismatch, "%d", a);
	trace_mark(stress_churn, "%d", a);
	atomic_long_inc(&pc->fires[ctx]);
	mstress_read_imm(pc);
}

/*
 * The interrupt contexts take at most about a fifth of each CPU: an
 * emulated CPU on a loaded host may take a millisecond per firing, and a
 * fixed period would then leave no time to anything else.
 */
static enum hrtimer_restart mstress_hrtimer_fn(struct hrtimer *t)
{
	struct mstress_cpu *pc = container_of(t, struct mstress_cpu, hrt);
	u64 start = ktime_get_ns(), spent;

	mstress_fire(pc, MSTRESS_HARDIRQ);
	mstress_fire(pc, MSTRESS_HARDIRQ);
	if (READ_ONCE(mstress_stop))
		return HRTIMER_NORESTART;
	spent = ktime_get_ns() - start;
	hrtimer_forward_now(t, ns_to_ktime(max_t(u64, hrtimer_us * NSEC_PER_USEC,
						 4 * spent)));
	return HRTIMER_RESTART;
}

static void mstress_timer_fn(struct timer_list *t)
{
	struct mstress_cpu *pc = from_timer(pc, t, timer);
	unsigned long start = jiffies;

	mstress_fire(pc, MSTRESS_SOFTIRQ);
	mstress_fire(pc, MSTRESS_SOFTIRQ);
	if (!READ_ONCE(mstress_stop))
		mod_timer(t, jiffies + 1 + 4 * (jiffies - start));
}

static void mstress_irq_work_fn(struct irq_work *w)
{
	struct mstress_cpu *pc = container_of(w, struct mstress_cpu, iw);

	mstress_fire(pc, MSTRESS_HARDIRQ);
	atomic_long_inc(&pc->irq_work_fires);
}

#ifdef MSTRESS_HAVE_NMI
static int mstress_nmi(unsigned int type, struct pt_regs *regs)
{
	struct mstress_cpu *pc = &mstress_cpus[smp_processor_id()];

	if (!atomic_xchg(&pc->nmi_pending, 0))
		return NMI_DONE;
	mstress_fire(pc, MSTRESS_NMI);
	return NMI_HANDLED;
}

/* One NMI in flight per target at most, so that none is unexpected. */
static void mstress_send_nmi(struct mstress_cpu *from)
{
	int cpu = cpumask_next(from->cpu, cpu_online_mask);
	struct mstress_cpu *to;

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	to = &mstress_cpus[cpu];
	if (atomic_cmpxchg(&to->nmi_pending, 0, 1))
		return;
	preempt_disable();
	__apic_send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
	preempt_enable();
	atomic_long_inc(&from->nmi_sent);
}
#else
static void mstress_send_nmi(struct mstress_cpu *from)
{
}
#endif

static int mstress_cpu_fn(void *arg)
{
	struct mstress_cpu *pc = arg;
	unsigned long i;

	hrtimer_start(&pc->hrt, ns_to_ktime(hrtimer_us * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
	pc->timer.expires = jiffies + 1;
	add_timer_on(&pc->timer, pc->cpu);

	for (i = 1; !kthread_should_stop(); i++) {
		if (READ_ONCE(mstress_stop)) {
			/* Waiting for kthread_stop(). */
			msleep(1);
			continue;
		}
		mstress_fire(pc, MSTRESS_PROCESS);
		if (!(i % 32))
			irq_work_queue(&pc->iw);
		if (nmi_every && !(i % nmi_every))
			mstress_send_nmi(pc);
		if (!(i % 64))
			mstress_yield();
	}
	return 0;
}

/* Immediate values: halves that agree, one batch of several at times. */
static int mstress_imm_fn(void *arg)
{
	unsigned int x = 0x10001, n = 0;

	while (!kthread_should_stop()) {
		x = x * 1103515245 + 12345;
		if (READ_ONCE(inject) && !(++n % 4)) {
			/* Halves that differ: what a torn read would see. */
			immediate_set(&mstress_imm_long, MSTRESS_LONG(x) ^ 1);
			atomic_long_inc(&mstress_imm_updates);
		} else if (x & 0x10000) {
			immediate_lock();
			immediate_set_deferred(&mstress_imm_long, MSTRESS_LONG(x >> 7));
			immediate_set_deferred(&mstress_imm_short, MSTRESS_SHORT(x >> 3));
			immediate_set_deferred(&mstress_imm_ptr,
					       (void *)&mstress_objs[(x >> 11) & 7]);
			immediate_set_deferred(&mstress_imm_flag, (x >> 5) & 1);
			immediate_unlock();
			atomic_long_add(4, &mstress_imm_updates);
		} else {
			immediate_set(&mstress_imm_long, MSTRESS_LONG(x >> 9));
			immediate_set(&mstress_imm_flag, (x >> 6) & 1);
			atomic_long_add(2, &mstress_imm_updates);
		}
		mstress_yield();
	}
	return 0;
}

/* mstress_imm_int and its generation, see mstress_read_imm(). */
static int mstress_gen_fn(void *arg)
{
	while (!kthread_should_stop()) {
		unsigned long g = mstress_gen;

		WRITE_ONCE(mstress_gen, g + 1);
		smp_wmb();
		immediate_set(&mstress_imm_int, MSTRESS_INT((g + 2) >> 1));
		smp_store_release(&mstress_gen, g + 2);
		atomic_long_inc(&mstress_imm_updates);
		mstress_yield();
	}
	return 0;
}

/*
 * Private data stays allocated for a few cycles after it is dead, so that
 * a late hit finds the dead flag; after that it is freed, and a later
 * hit is a use-after-free for KASAN.
 */
#define MSTRESS_POOL	8

struct mstress_owner {
	const char *name;
	const char *fmt;
	marker_probe_func *probe;
	bool eperm_ok;		/* a loaded marker may have another format */
	struct mstress_pd *pool[MSTRESS_POOL];
	unsigned int next;
};

static struct mstress_pd *mstress_pool_get(struct mstress_pd **pool,
					   unsigned int *next)
{
	struct mstress_pd **slot = &pool[(*next)++ % MSTRESS_POOL];

	kfree(*slot);
	*slot = mstress_pd_alloc();
	return *slot;
}

static void mstress_pool_free(struct mstress_pd **pool)
{
	int i;

	for (i = 0; i < MSTRESS_POOL; i++) {
		kfree(pool[i]);
		pool[i] = NULL;
	}
}

static void mstress_ops(int n)
{
	atomic_long_add(n, &mstress_marker_ops);
}

/* Register, arm (nested), disarm or not, unregister, in varying ways. */
static void mstress_owner_cycle(struct mstress_owner *o, unsigned long cycle)
{
	int nest = 1 + cycle % 3, i, ret;
	struct mstress_pd *pd;
	void *old;

	pd = mstress_pool_get(o->pool, &o->next);
	if (!pd)
		return;
	ret = marker_probe_register(o->name, o->fmt, o->probe, pd);
	mstress_ops(1);
	if (ret == -EPERM && o->eperm_ok)
		return;
	if (ret) {
		mstress_api_error("marker_probe_register", o->name, ret);
		return;
	}
	if (marker_get_pdata(o->name) != pd)
		mstress_api_error("marker_get_pdata", o->name, -1);
	for (i = 0; i < nest; i++) {
		ret = marker_arm(o->name);
		if (ret)
			mstress_api_error("marker_arm", o->name, ret);
	}
	mstress_ops(nest + 1);
	/* Marked dead while armed: every hit until unregistration is late. */
	if (READ_ONCE(inject))
		WRITE_ONCE(pd->dead, 1);
	usleep_range(100, 300);
	if (cycle % 4 != 3) {
		/* Else: unregistered while armed. */
		for (i = 0; i < nest; i++) {
			ret = marker_disarm(o->name);
			if (ret)
				mstress_api_error("marker_disarm", o->name, ret);
		}
		ret = marker_disarm(o->name);
		if (ret != -EPERM)
			mstress_api_error("marker_disarm(unarmed)", o->name, ret);
		mstress_ops(nest + 1);
	}
	if (cycle % 5 == 4)
		old = marker_probe_unregister_pdata(pd);
	else
		old = marker_probe_unregister(o->name);
	if (old != pd)
		mstress_api_error("marker_probe_unregister", o->name, PTR_ERR(old));
	marker_synchronize_unregister();
	WRITE_ONCE(pd->dead, 1);
	mstress_ops(1);
	if (cycle % 7 == 0) {
		old = marker_probe_unregister(o->name);
		if (old != ERR_PTR(-ENOENT))
			mstress_api_error("marker_probe_unregister(twice)", o->name,
					  PTR_ERR(old));
		mstress_ops(1);
	}
}

static int mstress_owner_fn(void *arg)
{
	struct mstress_owner *o = arg;
	unsigned long cycle;

	for (cycle = 0; !kthread_should_stop(); cycle++) {
		mstress_owner_cycle(o, cycle);
		atomic_long_inc(&mstress_cycles);
		mstress_yield();
	}
	mstress_pool_free(o->pool);
	return 0;
}

/* Several probes on one marker: the RCU arrays come and go. */
struct mstress_attacher {
	struct mstress_pd *pool[MSTRESS_POOL];
	unsigned int next;
};

struct mstress_attachment {
	const char *name;
	const char *fmt;
	marker_probe_func *probe;
	struct mstress_pd *pd;
};

static void mstress_attach_cycle(struct mstress_attacher *at, unsigned long cycle)
{
	struct mstress_attachment a[4] = {
		{ "stress_event", MSTRESS_EVENT_FMT, mstress_probe_event },
		{ "stress_event", MSTRESS_EVENT_FMT, mstress_probe_event2 },
		{ "stress_event", MSTRESS_EVENT_FMT, mstress_probe_event },
		{ "stress_wide", MSTRESS_WIDE_FMT, mstress_probe_wide },
	};
	int i, ret, n = ARRAY_SIZE(a);

	for (i = 0; i < n; i++) {
		a[i].pd = mstress_pool_get(at->pool, &at->next);
		if (!a[i].pd)
			return;
	}
	for (i = 0; i < n; i++) {
		ret = marker_probe_attach(a[i].name, a[i].fmt, a[i].probe, a[i].pd);
		if (ret)
			mstress_api_error("marker_probe_attach", a[i].name, ret);
		if (!(cycle & 1))
			usleep_range(50, 100);
	}
	ret = marker_probe_attach(a[0].name, a[0].fmt, a[0].probe, a[0].pd);
	if (ret != -EBUSY)
		mstress_api_error("marker_probe_attach(twice)", a[0].name, ret);
	mstress_ops(n + 1);
	usleep_range(100, 300);
	for (i = 0; i < n; i++) {
		/* Detach in another order every other cycle. */
		struct mstress_attachment *d = &a[(cycle & 1) ? n - 1 - i : i];

		ret = marker_probe_detach(d->name, d->probe, d->pd);
		if (ret)
			mstress_api_error("marker_probe_detach", d->name, ret);
	}
	ret = marker_probe_detach(a[1].name, a[1].probe, a[1].pd);
	if (ret != -ENOENT)
		mstress_api_error("marker_probe_detach(twice)", a[1].name, ret);
	marker_synchronize_unregister();
	for (i = 0; i < n; i++)
		WRITE_ONCE(a[i].pd->dead, 1);
	mstress_ops(n + 1);
}

static int mstress_attacher_fn(void *arg)
{
	struct mstress_attacher *at = arg;
	unsigned long cycle;

	for (cycle = 0; !kthread_should_stop(); cycle++) {
		mstress_attach_cycle(at, cycle);
		atomic_long_inc(&mstress_cycles);
		mstress_yield();
	}
	mstress_pool_free(at->pool);
	return 0;
}

static struct mstress_owner mstress_owners[] = {
	{ .name = "stress_event", .fmt = MSTRESS_EVENT_FMT, .probe = mstress_probe_event },
	{ .name = "stress_wide", .fmt = MSTRESS_WIDE_FMT, .probe = mstress_probe_wide },
	{ .name = "stress_noargs", .fmt = MARK_NOARGS, .probe = mstress_probe_noargs },
	{ .name = "stress_generic", .fmt = "%d", .probe = mstress_probe_int },
	/* mstress_site.ko has a stress_mismatch marker of another format. */
	{ .name = "stress_mismatch", .fmt = "%d", .probe = mstress_probe_int,
	  .eperm_ok = true },
};

static struct mstress_attacher mstress_attacher;

#define MSTRESS_MAX_THREADS	(ARRAY_SIZE(mstress_owners) + 3)
static struct task_struct *mstress_threads[MSTRESS_MAX_THREADS];

struct mstress_totals {
	long fires[MSTRESS_NR_CTX], hits[MSTRESS_NR_CTX];
	long hits_all, irq_work, reads, flag_true, nmi_sent;
};

static void mstress_sum(struct mstress_totals *t)
{
	int cpu, c;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu) {
		struct mstress_cpu *pc = &mstress_cpus[cpu];

		for (c = 0; c < MSTRESS_NR_CTX; c++) {
			t->fires[c] += atomic_long_read(&pc->fires[c]);
			t->hits[c] += atomic_long_read(&pc->hits[c]);
		}
		t->hits_all += atomic_long_read(&pc->hits_all);
		t->irq_work += atomic_long_read(&pc->irq_work_fires);
		t->reads += atomic_long_read(&pc->reads);
		t->flag_true += atomic_long_read(&pc->flag_true);
		t->nmi_sent += atomic_long_read(&pc->nmi_sent);
	}
}

static char mstress_report[1024];

static void mstress_reset(void)
{
	atomic_long_set(&mstress_shared.bad_args, 0);
	atomic_long_set(&mstress_shared.late_hits, 0);
	atomic_long_set(&mstress_shared.torn, 0);
	atomic_long_set(&mstress_shared.mismatch_calls, 0);
	atomic_long_set(&mstress_shared.churn_hits, 0);
	atomic_long_set(&mstress_shared.churn_fires, 0);
	atomic_long_set(&mstress_shared.churn_reads, 0);
	atomic_long_set(&mstress_stale, 0);
	WRITE_ONCE(mstress_shared.last_torn, 0);
	atomic_long_set(&mstress_api_errors, 0);
	atomic_long_set(&mstress_imm_updates, 0);
	atomic_long_set(&mstress_marker_ops, 0);
	atomic_long_set(&mstress_cycles, 0);
	mstress_first_error[0] = 0;
	memset(mstress_cpus, 0, nr_cpu_ids * sizeof(*mstress_cpus));
}

static void mstress_stop_threads(int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (mstress_threads[i])
			kthread_stop(mstress_threads[i]);
	memset(mstress_threads, 0, sizeof(mstress_threads));
}

static int mstress_run(unsigned int ms)
{
	struct immediate_stats before, after;
	unsigned long start, end;
	struct mstress_totals t;
	int cpu, nr = 0, i, ncpus = 0, ret = 0;
	long final_before, final_hits;

	mutex_lock(&mstress_run_mutex);
	mstress_reset();
	WRITE_ONCE(mstress_stop, false);
	/* Values whose halves agree, whatever a previous run left. */
	immediate_set(&mstress_imm_long, MSTRESS_LONG(0x1234));
	immediate_get_stats(&before);
	start = jiffies;

#ifdef MSTRESS_HAVE_NMI
	ret = register_nmi_handler(NMI_LOCAL, mstress_nmi, 0, "mstress");
	if (ret)
		goto out;
#endif
	for (i = 0; i < ARRAY_SIZE(mstress_owners); i++)
		mstress_threads[nr++] = kthread_run(mstress_owner_fn, &mstress_owners[i],
						    "mstress_own/%d", i);
	mstress_threads[nr++] = kthread_run(mstress_attacher_fn, &mstress_attacher,
					    "mstress_att");
	mstress_threads[nr++] = kthread_run(mstress_imm_fn, NULL, "mstress_imm");
	mstress_threads[nr++] = kthread_run(mstress_gen_fn, NULL, "mstress_gen");
	for (i = 0; i < nr; i++) {
		if (IS_ERR(mstress_threads[i])) {
			ret = PTR_ERR(mstress_threads[i]);
			mstress_threads[i] = NULL;
		}
	}

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct mstress_cpu *pc = &mstress_cpus[cpu];

		pc->cpu = cpu;
		hrtimer_init(&pc->hrt, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		pc->hrt.function = mstress_hrtimer_fn;
		timer_setup(&pc->timer, mstress_timer_fn, TIMER_PINNED);
		pc->iw = IRQ_WORK_INIT_HARD(mstress_irq_work_fn);
		pc->task = kthread_create_on_cpu(mstress_cpu_fn, pc, cpu, "mstress/%u");
		if (IS_ERR(pc->task)) {
			ret = PTR_ERR(pc->task);
			pc->task = NULL;
			continue;
		}
		get_task_struct(pc->task);
		wake_up_process(pc->task);
		ncpus++;
	}
	cpus_read_unlock();

	end = start + msecs_to_jiffies(ms);
	while (!ret && time_before(jiffies, end))
		msleep(50);
	end = jiffies;

	WRITE_ONCE(mstress_stop, true);
	/* The updaters leave nothing registered behind them. */
	mstress_stop_threads(nr);
	for_each_possible_cpu(cpu) {
		struct mstress_cpu *pc = &mstress_cpus[cpu];

		if (!pc->task)
			continue;
		kthread_stop(pc->task);
		put_task_struct(pc->task);
		hrtimer_cancel(&pc->hrt);
		timer_delete_sync(&pc->timer);
		irq_work_sync(&pc->iw);
	}
#ifdef MSTRESS_HAVE_NMI
	/* An NMI sent but not yet handled would be an unknown NMI. */
	for (i = 0; i < 1000; i++) {
		bool pending = false;

		for_each_possible_cpu(cpu)
			pending |= atomic_read(&mstress_cpus[cpu].nmi_pending);
		if (!pending)
			break;
		msleep(1);
	}
	/* Waits for running handlers. */
	unregister_nmi_handler(NMI_LOCAL, "mstress");
#endif
	/*
	 * Every probe of the storm is unregistered and its private data
	 * freed: a probe called now is late (and a use-after-free).
	 */
	mstress_sum(&t);
	final_before = t.hits_all + atomic_long_read(&mstress_shared.bad_args);
	preempt_disable();
	for (i = 0; i < 100; i++)
		mstress_fire(&mstress_cpus[smp_processor_id()], MSTRESS_PROCESS);
	preempt_enable();

	immediate_get_stats(&after);
	mstress_sum(&t);
	final_hits = t.hits_all + atomic_long_read(&mstress_shared.bad_args) -
		     final_before;
	snprintf(mstress_report, sizeof(mstress_report),
		 "duration_ms=%u cpus=%d threads=%d "
		 "fires_process=%ld fires_softirq=%ld fires_hardirq=%ld fires_nmi=%ld "
		 "irq_work=%ld nmi_sent=%ld "
		 "hits_process=%ld hits_softirq=%ld hits_hardirq=%ld hits_nmi=%ld "
		 "imm_reads=%ld imm_flag_true=%ld imm_updates=%ld imm_batches=%lu imm_sites=%lu "
		 "marker_ops=%ld cycles=%ld churn_fires=%ld churn_reads=%ld churn_hits=%ld "
		 "bad_args=%ld late_hits=%ld hits_after_stop=%ld torn=%ld stale=%ld mismatch=%ld "
		 "api_errors=%ld last_torn=%#lx first_error=%s\n",
		 jiffies_to_msecs(end - start), ncpus, nr,
		 t.fires[MSTRESS_PROCESS], t.fires[MSTRESS_SOFTIRQ],
		 t.fires[MSTRESS_HARDIRQ], t.fires[MSTRESS_NMI],
		 t.irq_work, t.nmi_sent,
		 t.hits[MSTRESS_PROCESS], t.hits[MSTRESS_SOFTIRQ],
		 t.hits[MSTRESS_HARDIRQ], t.hits[MSTRESS_NMI],
		 t.reads, t.flag_true, atomic_long_read(&mstress_imm_updates),
		 after.batches - before.batches, after.sites - before.sites,
		 atomic_long_read(&mstress_marker_ops),
		 atomic_long_read(&mstress_cycles),
		 atomic_long_read(&mstress_shared.churn_fires),
		 atomic_long_read(&mstress_shared.churn_reads),
		 atomic_long_read(&mstress_shared.churn_hits),
		 atomic_long_read(&mstress_shared.bad_args),
		 atomic_long_read(&mstress_shared.late_hits), final_hits,
		 atomic_long_read(&mstress_shared.torn),
		 atomic_long_read(&mstress_stale),
		 atomic_long_read(&mstress_shared.mismatch_calls),
		 atomic_long_read(&mstress_api_errors),
		 (unsigned long)READ_ONCE(mstress_shared.last_torn),
		 mstress_first_error[0] ? mstress_first_error : "none");
	pr_info("mstress: %s", mstress_report);
#ifdef MSTRESS_HAVE_NMI
out:
#endif
	mutex_unlock(&mstress_run_mutex);
	return ret;
}

/*
 * /sys/kernel/debug/mstress/run, not a parameter: a parameter write holds
 * the module's parameter lock, which would block the hold_* parameters
 * (and reads of stats) for the whole run.
 */
static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	unsigned int ms;
	int ret = kstrtouint_from_user(ubuf, count, 0, &ms);

	if (ret)
		return ret;
	ret = mstress_run(ms);
	return ret ? ret : count;
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.write = run_write,
};

static struct dentry *mstress_dir;

static int stats_get(char *buf, const struct kernel_param *kp)
{
	int ret;

	mutex_lock(&mstress_run_mutex);
	ret = sysfs_emit(buf, "%s", mstress_report[0] ? mstress_report : "none\n");
	mutex_unlock(&mstress_run_mutex);
	return ret;
}

static const struct kernel_param_ops stats_ops = { .get = stats_get };
module_param_cb(stats, &stats_ops, NULL, 0444);
MODULE_PARM_DESC(stats, "what the last run did");

/* "mem=X code=Y": mstress_imm_long in memory and as its code reads it. */
static int imm_long_get(char *buf, const struct kernel_param *kp)
{
	long mem, code;

	immediate_lock();
	mem = _immediate_read(&mstress_imm_long);
	code = immediate_read(&mstress_imm_long);
	immediate_unlock();
	return sysfs_emit(buf, "mem=%ld code=%ld\n", mem, code);
}

static const struct kernel_param_ops imm_long_ops = { .get = imm_long_get };
module_param_cb(imm_long, &imm_long_ops, NULL, 0444);
MODULE_PARM_DESC(imm_long, "mstress_imm_long: \"mem=X code=Y\"");

/* An immediate update queued and not patched yet, for N ms. */
static int hold_imm_set(const char *val, const struct kernel_param *kp)
{
	static unsigned int next = 0x4321;
	unsigned int ms;
	int ret = kstrtouint(val, 0, &ms);

	if (ret)
		return ret;
	immediate_lock();
	immediate_set_deferred(&mstress_imm_long, MSTRESS_LONG(next));
	next++;
	msleep(ms);
	immediate_unlock();
	return 0;
}

static const struct kernel_param_ops hold_imm_ops = { .set = hold_imm_set };
module_param_cb(hold_imm, &hold_imm_ops, NULL, 0200);
MODULE_PARM_DESC(hold_imm, "write N: set mstress_imm_long and patch it N ms later");

/* The markers mutex, held for N ms, as a marker update would. */
static int hold_markers_set(const char *val, const struct kernel_param *kp)
{
	struct marker_iter iter;
	unsigned int ms;
	int ret = kstrtouint(val, 0, &ms);

	if (ret)
		return ret;
	marker_iter_reset(&iter);
	marker_iter_start(&iter);
	msleep(ms);
	marker_iter_stop(&iter);
	return 0;
}

static const struct kernel_param_ops hold_markers_ops = { .set = hold_markers_set };
module_param_cb(hold_markers, &hold_markers_ops, NULL, 0200);
MODULE_PARM_DESC(hold_markers, "write N: hold the markers mutex for N ms");

#ifdef CONFIG_IMMEDIATE
struct mstress_sites {
	unsigned long want;
	int mov, jump, bad;
	unsigned long addr[64];
	int nr;
};

static void mstress_check_site(const struct __immediate *e, void *arg)
{
	struct mstress_sites *s = arg;
	unsigned long mask = immediate_size(e) == sizeof(long) ? ~0UL :
			     (1UL << (8 * immediate_size(e))) - 1;

	if (immediate_type(e) == IMMEDIATE_JUMP) {
		s->jump++;
		s->bad += arch_immediate_site_value(e) != !!s->want;
	} else {
		s->mov++;
		s->bad += arch_immediate_site_value(e) != (s->want & mask);
	}
}

/* Every site of the exported variables, in every module, agrees. */
static int sites_ok_get(char *buf, const struct kernel_param *kp)
{
	struct mstress_sites s = { };

	immediate_lock();
	s.want = (unsigned long)_immediate_read(&mstress_imm_long);
	immediate_unlock();
	immediate_visit_sites(&mstress_imm_long.value, mstress_check_site, &s);
	immediate_lock();
	s.want = (unsigned int)_immediate_read(&mstress_imm_int);
	immediate_unlock();
	immediate_visit_sites(&mstress_imm_int.value, mstress_check_site, &s);
	return sysfs_emit(buf, "mov=%d jump=%d bad=%d\n", s.mov, s.jump, s.bad);
}

static void mstress_collect_site(const struct __immediate *e, void *arg)
{
	struct mstress_sites *s = arg;

	if (s->nr < ARRAY_SIZE(s->addr) &&
	    within_module(immediate_code(e), THIS_MODULE))
		s->addr[s->nr++] = immediate_code(e);
}

/* The sites of this module's markers and immediate variables. */
static void mstress_collect_sites(struct mstress_sites *s)
{
	struct marker_iter iter;
	struct __mark_marker *mine[16];
	int n = 0, i;

	marker_iter_reset(&iter);
	for (marker_iter_start(&iter); iter.marker; marker_iter_next(&iter))
		if (iter.module == THIS_MODULE && n < ARRAY_SIZE(mine))
			mine[n++] = iter.marker;
	marker_iter_stop(&iter);
	for (i = 0; i < n; i++)
		immediate_visit_sites(&mine[i]->state.value, mstress_collect_site, s);
	immediate_visit_sites(&mstress_imm_long.value, mstress_collect_site, s);
	immediate_visit_sites(&mstress_imm_ptr.value, mstress_collect_site, s);
}
#else
static int sites_ok_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "generic\n");
}
#endif

static const struct kernel_param_ops sites_ok_ops = { .get = sites_ok_get };
module_param_cb(sites_ok, &sites_ok_ops, NULL, 0444);
MODULE_PARM_DESC(sites_ok, "\"mov=N jump=N bad=N\": sites of the exported variables");

#if defined(CONFIG_IMMEDIATE) && defined(CONFIG_KPROBES)
static int mstress_kprobe_hits;

static int mstress_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	mstress_kprobe_hits++;
	return 0;
}

/*
 * Kprobes on this module's immediate sites, first byte and inside, must
 * be refused; one on the entry of mstress_fire(), which holds the
 * markers, must work while the markers are armed and patched.
 */
static int kprobe_sites_get(char *buf, const struct kernel_param *kp)
{
	struct kprobe entry = { .symbol_name = "mstress_fire",
				.pre_handler = mstress_kprobe_pre };
	struct mstress_sites *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int refused = 0, inside = 0, inside_refused = 0, i, ret, hits, nr;
	struct mstress_pd *pd = mstress_pd_alloc();
	struct mstress_cpu pc = { };

	if (!s || !pd) {
		kfree(s);
		kfree(pd);
		return -ENOMEM;
	}
	/* Not during a storm: this registers a probe of its own. */
	mutex_lock(&mstress_run_mutex);
	mstress_collect_sites(s);
	nr = s->nr;
	for (i = 0; i < s->nr; i++) {
		struct kprobe k = { .addr = (kprobe_opcode_t *)s->addr[i],
				    .pre_handler = mstress_kprobe_pre };
		struct kprobe in = { .addr = (kprobe_opcode_t *)(s->addr[i] + 1),
				     .pre_handler = mstress_kprobe_pre };

		ret = register_kprobe(&k);
		if (ret)
			refused++;
		else
			unregister_kprobe(&k);
		inside++;
		ret = register_kprobe(&in);
		if (ret)
			inside_refused++;
		else
			unregister_kprobe(&in);
	}

	ret = register_kprobe(&entry);
	mstress_kprobe_hits = 0;
	if (!ret) {
		ret = marker_probe_register("stress_event", MSTRESS_EVENT_FMT,
					    mstress_probe_event, pd);
		if (!ret) {
			marker_arm("stress_event");
			immediate_set(&mstress_imm_flag, 1);
			preempt_disable();
			for (i = 0; i < 10; i++)
				mstress_fire(&pc, MSTRESS_PROCESS);
			preempt_enable();
			immediate_set(&mstress_imm_flag, 0);
			marker_probe_unregister("stress_event");
		}
		unregister_kprobe(&entry);
	}
	hits = mstress_kprobe_hits;
	mutex_unlock(&mstress_run_mutex);
	kfree(s);
	kfree(pd);
	return sysfs_emit(buf, "sites=%d refused=%d inside=%d inside_refused=%d entry=%d entry_hits=%d\n",
			  nr, refused, inside, inside_refused, ret, hits);
}
#else
static int kprobe_sites_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "unsupported\n");
}
#endif

static const struct kernel_param_ops kprobe_sites_ops = { .get = kprobe_sites_get };
module_param_cb(kprobe_sites, &kprobe_sites_ops, NULL, 0444);
MODULE_PARM_DESC(kprobe_sites, "kprobes on the immediate sites of this module: refused?");

#ifdef CONFIG_IMMEDIATE
/* "symbol+0xoffset" of each immediate site of this module, one a line. */
static int kprobe_addrs_get(char *buf, const struct kernel_param *kp)
{
	struct mstress_sites *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int i, len = 0;

	if (!s)
		return -ENOMEM;
	mstress_collect_sites(s);
	for (i = 0; i < s->nr; i++)
		len += sysfs_emit_at(buf, len, "%pS\n", (void *)s->addr[i]);
	kfree(s);
	return len;
}
#else
static int kprobe_addrs_get(char *buf, const struct kernel_param *kp)
{
	return 0;
}
#endif

static const struct kernel_param_ops kprobe_addrs_ops = { .get = kprobe_addrs_get };
module_param_cb(kprobe_addrs, &kprobe_addrs_ops, NULL, 0444);
MODULE_PARM_DESC(kprobe_addrs, "the immediate sites of this module, as symbol+offset");

static int __init mstress_init(void)
{
	mstress_cpus = kcalloc(nr_cpu_ids, sizeof(*mstress_cpus), GFP_KERNEL);
	if (!mstress_cpus)
		return -ENOMEM;
	mstress_dir = debugfs_create_dir("mstress", NULL);
	debugfs_create_file("run", 0200, mstress_dir, NULL, &run_fops);
	return 0;
}

static void __exit mstress_exit(void)
{
	debugfs_remove_recursive(mstress_dir);
	kfree(mstress_cpus);
}

module_init(mstress_init);
module_exit(mstress_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Update storm for markers and immediate values");
