/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by mstress.ko (the storm), mstress_site.ko (markers and
 * immediate sites loaded and unloaded during the storm) and
 * mstress_probe.ko (probes loaded and unloaded during the storm).
 *
 * Every marker passes arguments that check each other, so that a probe
 * can tell a wrong argument, a wrong format or a wrong context; every
 * immediate value is written only with values whose halves agree, so
 * that a reader can tell a torn one.
 */
#ifndef _MSTRESS_H
#define _MSTRESS_H

#include <linux/atomic.h>
#include <linux/immediate.h>
#include <linux/marker.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/stdarg.h>
#include <linux/string.h>

/* Context a marker fires from: the top byte of its first argument. */
enum mstress_ctx {
	MSTRESS_PROCESS,
	MSTRESS_SOFTIRQ,
	MSTRESS_HARDIRQ,
	MSTRESS_NMI,
	MSTRESS_NR_CTX
};

#define MSTRESS_EVENT_FMT	"%d %lu %s"
#define MSTRESS_WIDE_FMT	"%d %lld %s %c %lu %u %p %d %llx %ld %u %d"

/* Objects an immediate pointer may point to. */
#define MSTRESS_NR_OBJS		8
extern const int mstress_objs[MSTRESS_NR_OBJS];

static inline unsigned long mstress_mix(int a)
{
	return (unsigned long)a * 2654435761UL ^ 0x5bd1e995UL;
}

/*
 * The 12 arguments of stress_wide are all derived from its first one, a:
 *
 *   a, (long long)a * 1000003 - 7, s, 'A' + (a & 15), (unsigned long)a * 7,
 *   ~(unsigned int)a, &mstress_objs[a & 7], (short)a, ~(u64)a, -(long)a,
 *   (unsigned int)a ^ 0xdeadbeef, a ^ 0x600df00d
 *
 * written out at each trace_mark() (a macro would reach trace_mark() as
 * one argument).
 */
#define MSTRESS_WIDE_MARK(a, s)						\
	trace_mark(stress_wide, MSTRESS_WIDE_FMT, a,			\
		   (long long)(a) * 1000003LL - 7, s,			\
		   (char)('A' + ((a) & 15)), (unsigned long)(a) * 7UL,	\
		   ~(unsigned int)(a), (void *)&mstress_objs[(a) & 7],	\
		   (int)(short)(a), ~(unsigned long long)(a), -(long)(a), \
		   (unsigned int)(a) ^ 0xdeadbeefU, (a) ^ 0x600df00d)

/* Does the context we run in agree with the one the marker claims? */
static inline bool mstress_ctx_ok(int ctx)
{
	switch (ctx) {
	case MSTRESS_PROCESS:
		return in_task();
	case MSTRESS_SOFTIRQ:
		return in_serving_softirq() && !in_hardirq() && !in_nmi();
	case MSTRESS_HARDIRQ:
		return in_hardirq() && !in_nmi();
	case MSTRESS_NMI:
		return in_nmi();
	}
	return false;
}

/* Values written to immediate variables: both halves equal. */
#ifdef CONFIG_64BIT
#define MSTRESS_LONG(x)		((long)(((unsigned long)(u32)(x) << 32) | (u32)(x)))
#define MSTRESS_LONG_OK(v)	((u32)((unsigned long)(v) >> 32) == (u32)(v))
#else
#define MSTRESS_LONG(x)		((long)(((unsigned long)(u16)(x) << 16) | (u16)(x)))
#define MSTRESS_LONG_OK(v)	((u16)((unsigned long)(v) >> 16) == (u16)(v))
#endif
#define MSTRESS_INT(x)		((int)(((u32)(u16)(x) << 16) | (u16)(x)))
#define MSTRESS_INT_OK(v)	((u16)((u32)(v) >> 16) == (u16)(v))
#define MSTRESS_SHORT(x)	((short)(((u16)(u8)(x) << 8) | (u8)(x)))
#define MSTRESS_SHORT_OK(v)	((u8)((u16)(v) >> 8) == (u8)(v))

/*
 * The storm's state that the churn modules report into. Exported by
 * mstress.ko; a churn module holds a reference on it through its
 * symbols, so mstress.ko outlives them.
 */
struct mstress_shared {
	atomic_long_t bad_args;		/* a probe got a wrong argument */
	atomic_long_t late_hits;	/* a probe ran after unregistration */
	atomic_long_t torn;		/* an immediate read mixed two values */
	atomic_long_t mismatch_calls;	/* a probe called with another format */
	atomic_long_t churn_hits;	/* hits of the churn probe module */
	atomic_long_t churn_fires;	/* markers fired by the churn site module */
	atomic_long_t churn_reads;	/* immediate reads of the churn site module */
	long last_torn;			/* the last torn value, for the report */
};

extern struct mstress_shared mstress_shared;
extern immediate_long_t mstress_imm_long;
extern immediate_int_t mstress_imm_int;

/*
 * Check the arguments of a stress_event marker; the caller has read them
 * only if @fmt is MSTRESS_EVENT_FMT.
 */
static inline bool mstress_event_ok(const char *fmt, int a, unsigned long b,
				    const char *s)
{
	return !strcmp(fmt, MSTRESS_EVENT_FMT) && b == mstress_mix(a) &&
	       s && (!strcmp(s, "storm") || !strcmp(s, "churn")) &&
	       (a >> 24) < MSTRESS_NR_CTX && (a >> 24) >= 0 &&
	       mstress_ctx_ok(a >> 24);
}

/* Check the va_list of a stress_wide marker. */
static inline bool mstress_wide_ok(const char *fmt, va_list args)
{
	const char *s;
	bool ok = true;
	int a;

	/* Another format: the arguments cannot be read safely. */
	if (strcmp(fmt, MSTRESS_WIDE_FMT))
		return false;
	a = va_arg(args, int);

	ok &= va_arg(args, long long) == (long long)a * 1000003LL - 7;
	s = va_arg(args, const char *);
	ok &= s && (!strcmp(s, "storm") || !strcmp(s, "churn"));
	ok &= va_arg(args, int) == (char)('A' + (a & 15));
	ok &= va_arg(args, unsigned long) == (unsigned long)a * 7UL;
	ok &= va_arg(args, unsigned int) == ~(unsigned int)a;
	ok &= va_arg(args, void *) == (void *)&mstress_objs[a & 7];
	ok &= va_arg(args, int) == (int)(short)a;
	ok &= va_arg(args, unsigned long long) == ~(unsigned long long)a;
	ok &= va_arg(args, long) == -(long)a;
	ok &= va_arg(args, unsigned int) == ((unsigned int)a ^ 0xdeadbeefU);
	ok &= va_arg(args, int) == (a ^ 0x600df00d);
	return ok && (a >> 24) < MSTRESS_NR_CTX && mstress_ctx_ok(a >> 24);
}

/*
 * The storm's threads never sleep: they yield reporting an RCU tasks
 * quiescent state, or on a preemptible kernel they would hold up RCU tasks
 * grace periods, which the kprobe optimizer waits for with text_mutex held
 * (powerpc), while the storm's updates wait for text_mutex.
 */
#define mstress_yield()	cond_resched_tasks_rcu_qs()

#endif /* _MSTRESS_H */
