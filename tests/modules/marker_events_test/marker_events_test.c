// SPDX-License-Identifier: GPL-2.0
/*
 * Markers with every conversion marker events support, and two they
 * reject, for tests/guest/22-marker-events.sh.
 *
 * Writing N to /sys/module/marker_events_test/parameters/fire fires each
 * marker N times with the fixed values below. With attach=1 the module
 * also attaches its own probe to marker_events_test_ints, which counts
 * its calls in the "hits" parameter: marker events must work alongside
 * other probes of the same marker.
 */
#include <linux/atomic.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#define INTS_FORMAT "d %d i %i u %u x %x X %X o %o c %c hhd %hhd hd %hd ld %ld lu %lu lx %lx"

static bool attach;
module_param(attach, bool, 0444);
MODULE_PARM_DESC(attach, "attach a counting probe to marker_events_test_ints");

static atomic_t hits = ATOMIC_INIT(0);

static int marker_events_test_get_hits(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&hits));
}

static const struct kernel_param_ops marker_events_test_hits_ops = {
	.get = marker_events_test_get_hits,
};
module_param_cb(hits, &marker_events_test_hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "calls of the counting probe");

/* Runtime values, so that the compiler checks but does not fold them. */
static const char *null_string;
static char long_string[301];

static noinline void marker_events_test_fire_one(void)
{
	trace_mark(marker_events_test_ints, INTS_FORMAT, -42, 7, 4000000000U,
		   0xbeef, 0xcafe, 0755, 'm', (signed char)-5, (short)-300,
		   -1234567L, 3000000000UL, 0xdeadbeefUL);
	trace_mark(marker_events_test_wide,
		   "lld %lld llu %llu llx %llx zd %zd zu %zu p %p",
		   -1234567890123LL, 18446744073709551615ULL,
		   0x123456789abcdefULL, (ssize_t)-77, (size_t)123456,
		   (void *)0x1234UL);
	/* A NULL pointer, one that faults, one cut by its precision, one long. */
	trace_mark(marker_events_test_str,
		   "s %s null %s bad %s short %.3s long %s",
		   "hello world", null_string, (const char *)0x10UL, "abcdef",
		   long_string);
	trace_mark(marker_events_test_names, "q %p rq %p", (void *)0x1000UL,
		   (void *)0x2000UL);
	trace_mark(marker_events_test_noargs, MARK_NOARGS);
	/* Formats marker events cannot decode. */
	trace_mark(marker_events_test_bad, "x %d star %*d", 1, 4, 2);
	trace_mark(marker_events_test_ptrdiff, "%td", (ptrdiff_t)3);
}

static int marker_events_test_set_fire(const char *val,
				       const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		marker_events_test_fire_one();
	return 0;
}

static const struct kernel_param_ops marker_events_test_fire_ops = {
	.set = marker_events_test_set_fire,
};
module_param_cb(fire, &marker_events_test_fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "write N: fire every marker N times");

static void marker_events_test_count(const struct __mark_marker *mdata,
				     void *private_data, const char *fmt, ...)
{
	atomic_inc(&hits);
}

static int __init marker_events_test_init(void)
{
	memset(long_string, 'L', sizeof(long_string) - 1);
	if (!attach)
		return 0;
	return marker_probe_attach("marker_events_test_ints", INTS_FORMAT,
				   marker_events_test_count, NULL);
}

static void __exit marker_events_test_exit(void)
{
	if (attach)
		marker_probe_detach("marker_events_test_ints",
				    marker_events_test_count, NULL);
}

module_init(marker_events_test_init);
module_exit(marker_events_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers of every conversion, for the marker events tests");
