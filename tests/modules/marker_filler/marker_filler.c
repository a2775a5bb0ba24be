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
#define FILL_R10(n)	FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) \
			FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) FILL_SITE(n) \
			FILL_SITE(n) FILL_SITE(n)
#define FILL_FN(n)							\
	static noinline void marker_filler_fn_##n(void)			\
	{								\
		FILL_R10(n) FILL_R10(n) FILL_R10(n) FILL_R10(n) FILL_R10(n) \
		FILL_R10(n) FILL_R10(n) FILL_R10(n) FILL_R10(n) FILL_R10(n) \
	}
#define FILL_FN10(d)							\
	FILL_FN(d##0) FILL_FN(d##1) FILL_FN(d##2) FILL_FN(d##3)	\
	FILL_FN(d##4) FILL_FN(d##5) FILL_FN(d##6) FILL_FN(d##7)	\
	FILL_FN(d##8) FILL_FN(d##9)
#define FILL_FN100(h)							\
	FILL_FN10(h##0) FILL_FN10(h##1) FILL_FN10(h##2) FILL_FN10(h##3) \
	FILL_FN10(h##4) FILL_FN10(h##5) FILL_FN10(h##6) FILL_FN10(h##7) \
	FILL_FN10(h##8) FILL_FN10(h##9)

/* Functions 0..9 are marker_filler_fn_0..9, then 10..499. */
FILL_FN(0) FILL_FN(1) FILL_FN(2) FILL_FN(3) FILL_FN(4)
FILL_FN(5) FILL_FN(6) FILL_FN(7) FILL_FN(8) FILL_FN(9)
FILL_FN10(1) FILL_FN10(2) FILL_FN10(3) FILL_FN10(4) FILL_FN10(5)
FILL_FN10(6) FILL_FN10(7) FILL_FN10(8) FILL_FN10(9)
FILL_FN100(1) FILL_FN100(2) FILL_FN100(3) FILL_FN100(4)

/* Referenced, so that the compiler keeps every function and site. */
#define FILL_PTR(n)	marker_filler_fn_##n,
#define FILL_PTR10(d)							\
	FILL_PTR(d##0) FILL_PTR(d##1) FILL_PTR(d##2) FILL_PTR(d##3)	\
	FILL_PTR(d##4) FILL_PTR(d##5) FILL_PTR(d##6) FILL_PTR(d##7)	\
	FILL_PTR(d##8) FILL_PTR(d##9)
#define FILL_PTR100(h)							\
	FILL_PTR10(h##0) FILL_PTR10(h##1) FILL_PTR10(h##2) FILL_PTR10(h##3) \
	FILL_PTR10(h##4) FILL_PTR10(h##5) FILL_PTR10(h##6) FILL_PTR10(h##7) \
	FILL_PTR10(h##8) FILL_PTR10(h##9)

static void (* const marker_filler_fns[])(void) = {
	FILL_PTR(0) FILL_PTR(1) FILL_PTR(2) FILL_PTR(3) FILL_PTR(4)
	FILL_PTR(5) FILL_PTR(6) FILL_PTR(7) FILL_PTR(8) FILL_PTR(9)
	FILL_PTR10(1) FILL_PTR10(2) FILL_PTR10(3) FILL_PTR10(4) FILL_PTR10(5)
	FILL_PTR10(6) FILL_PTR10(7) FILL_PTR10(8) FILL_PTR10(9)
	FILL_PTR100(1) FILL_PTR100(2) FILL_PTR100(3) FILL_PTR100(4)
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
