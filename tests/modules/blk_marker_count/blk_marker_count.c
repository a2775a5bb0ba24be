// SPDX-License-Identifier: GPL-2.0
/*
 * A second tracer on the block markers, for tests/guest/30-blktrace.sh:
 * counts the hits of blk_request_insert while blktrace, attached to the
 * same marker, records them too.
 *
 * By default the probe is the marker's registered probe
 * (marker_probe_register() + marker_arm()); with attach=1 it is attached
 * (marker_probe_attach()), as blktrace's is. The counters are read-only
 * parameters under /sys/module/blk_marker_count/parameters/.
 */
#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static bool attach;
module_param(attach, bool, 0444);
MODULE_PARM_DESC(attach, "attach the probe instead of registering it");

static int ret;
module_param(ret, int, 0444);
MODULE_PARM_DESC(ret, "result of the registration (or attachment) and arming");

static atomic_t inserts = ATOMIC_INIT(0);
static atomic_t bad = ATOMIC_INIT(0);

static int blk_marker_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops blk_marker_count_ops = {
	.get = blk_marker_count_get,
};

module_param_cb(inserts, &blk_marker_count_ops, &inserts, 0444);
MODULE_PARM_DESC(inserts, "hits of blk_request_insert");
module_param_cb(bad, &blk_marker_count_ops, &bad, 0444);
MODULE_PARM_DESC(bad, "hits with an unexpected request or private data");

static int cookie;

static void probe_insert(const struct __mark_marker *mdata,
			 void *private_data, const char *fmt, ...)
{
	struct request *rq;
	va_list args;

	va_start(args, fmt);
	rq = va_arg(args, struct request *);
	va_end(args);
	if (private_data != &cookie || !rq || !rq->q || !rq->q->disk)
		atomic_inc(&bad);
	else
		atomic_inc(&inserts);
}

static int __init blk_marker_count_init(void)
{
	if (attach) {
		ret = marker_probe_attach("blk_request_insert", "rq %p",
					  probe_insert, &cookie);
	} else {
		ret = marker_probe_register("blk_request_insert", "rq %p",
					    probe_insert, &cookie);
		if (!ret) {
			ret = marker_arm("blk_request_insert");
			if (ret)
				marker_probe_unregister("blk_request_insert");
		}
	}
	pr_info("blk_marker_count: %s: %d\n", attach ? "attach" : "register",
		ret);
	return ret;
}

static void __exit blk_marker_count_exit(void)
{
	if (attach)
		marker_probe_detach("blk_request_insert", probe_insert, &cookie);
	else
		marker_probe_unregister("blk_request_insert");
	pr_info("blk_marker_count: %d inserts, %d bad\n",
		atomic_read(&inserts), atomic_read(&bad));
}

module_init(blk_marker_count_init);
module_exit(blk_marker_count_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Counts blk_request_insert, next to blktrace, for the blktrace tests");
