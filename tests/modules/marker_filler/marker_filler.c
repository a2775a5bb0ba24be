// SPDX-License-Identifier: GPL-2.0
/*
 * 50,000 marker sites that nothing arms: 500 names (marker_filler_0 ..
 * marker_filler_499), each placed 100 times in a function of its own.
 * make bench loads this module between two runs of the markers benchmark
 * to measure what arming an unrelated marker costs as the number of
 * marker sites in the kernel grows (bench/README.md, target 1 of
 * issue 21). Built only for make bench (file bench-only).
 */
#include <linux/marker.h>
#include <linux/module.h>

#define FILL_SITE(n)	{ trace_mark(marker_filler_##n, MARK_NOARGS); }
#define FILL_SITES10(n)	FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) \
			FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) \
			FILL_SITE(n) FILL_SITE(n)
#define FILL_FN(n)							\
	static noinline void marker_filler_fn_##n(void)			\
	{								\
		FILL_SITES10(n) FILL_SITES10(n) FILL_SITES10(n)		\
		FILL_SITES10(n) FILL_SITES10(n) FILL_SITES10(n)		\
		FILL_SITES10(n) FILL_SITES10(n) FILL_SITES10(n)		\
		FILL_SITES10(n)						\
	}

/* FILL_R10(m, d): m(d0) .. m(d9); FILL_R100(m, h): m(h00) .. m(h99). */
#define FILL_R10(m, d)							\
	m(d##0) m(d##1) m(d##2) m(d##3) m(d##4)				\
	m(d##5) m(d##6) m(d##7) m(d##8) m(d##9)
#define FILL_R100(m, h)							\
	FILL_R10(m, h##0) FILL_R10(m, h##1) FILL_R10(m, h##2)		\
	FILL_R10(m, h##3) FILL_R10(m, h##4) FILL_R10(m, h##5)		\
	FILL_R10(m, h##6) FILL_R10(m, h##7) FILL_R10(m, h##8)		\
	FILL_R10(m, h##9)
/* 0..499: 0..9, 10..99, 100..499. */
#define FILL_ALL(m)							\
	m(0) m(1) m(2) m(3) m(4) m(5) m(6) m(7) m(8) m(9)		\
	FILL_R10(m, 1) FILL_R10(m, 2) FILL_R10(m, 3) FILL_R10(m, 4)	\
	FILL_R10(m, 5) FILL_R10(m, 6) FILL_R10(m, 7) FILL_R10(m, 8)	\
	FILL_R10(m, 9)							\
	FILL_R100(m, 1) FILL_R100(m, 2) FILL_R100(m, 3) FILL_R100(m, 4)

FILL_ALL(FILL_FN)

/* Referenced, so that the compiler keeps every function and site. */
#define FILL_PTR(n)	marker_filler_fn_##n,
static void (* const marker_filler_fns[])(void) = {
	FILL_ALL(FILL_PTR)
};

static bool run;
module_param(run, bool, 0444);
MODULE_PARM_DESC(run, "run every site once at load (disarmed: nothing happens)");

static int __init marker_filler_init(void)
{
	unsigned int i;

	BUILD_BUG_ON(ARRAY_SIZE(marker_filler_fns) != 500);
	if (run)
		for (i = 0; i < ARRAY_SIZE(marker_filler_fns); i++)
			marker_filler_fns[i]();
	return 0;
}

static void __exit marker_filler_exit(void)
{
}

module_init(marker_filler_init);
module_exit(marker_filler_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("50,000 unrelated marker sites for the markers benchmark");
