// SPDX-License-Identifier: GPL-2.0
/*
 * Self-test of the test harness (scripts/run.py), not of the kernel.
 *
 * Loaded by tests/guest/05-harness.sh.  With no parameters every case
 * passes.  scripts/selftest.sh loads it with fail=1 (one KUnit case fails)
 * or warn=1 (WARN_ON() in module init) and checks that run.py notices.
 */
#include <kunit/test.h>
#include <linux/module.h>

static bool fail;
module_param(fail, bool, 0444);
MODULE_PARM_DESC(fail, "make the harness_selftest.injected_failure case fail");

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN_ON() while loading the module");

static void harness_selftest_arith(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 2 + 2, 4);
}

static void harness_selftest_skip(struct kunit *test)
{
	kunit_skip(test, "skipped on purpose");
}

static void harness_selftest_injected_failure(struct kunit *test)
{
	KUNIT_EXPECT_FALSE_MSG(test, fail, "failure injected by fail=1");
}

static struct kunit_case harness_selftest_cases[] = {
	KUNIT_CASE(harness_selftest_arith),
	KUNIT_CASE(harness_selftest_skip),
	KUNIT_CASE(harness_selftest_injected_failure),
	{}
};

static struct kunit_suite harness_selftest_suite = {
	.name = "harness_selftest",
	.test_cases = harness_selftest_cases,
};
kunit_test_suite(harness_selftest_suite);

static int __init harness_selftest_init(void)
{
	WARN_ON(warn);
	return 0;
}
module_init(harness_selftest_init);

static void __exit harness_selftest_exit(void)
{
}
module_exit(harness_selftest_exit);

MODULE_DESCRIPTION("Self-test of the kernel test harness");
MODULE_LICENSE("GPL");
