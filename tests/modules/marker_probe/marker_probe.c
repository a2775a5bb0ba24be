// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on the markers of marker_site, for tests/guest/20-markers.sh.
 *
 * marker_site_event gets a registered probe (marker_probe_register() +
 * marker_arm()) and an attached one (marker_probe_attach()); the other
 * markers get one probe each. What the probes saw is in the read-only
 * parameters under /sys/module/marker_probe/parameters/. With leak=1 the
 * module exits without disconnecting its probes, which the markers core
 * must do for it.
 */
#include <linux/err.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "exit without unregistering the probes");

#define MARKER_PROBE_COUNTER(name, desc)		\
	static int name;				\
	module_param(name, int, 0444);			\
	MODULE_PARM_DESC(name, desc)

MARKER_PROBE_COUNTER(event_count, "calls of the registered marker_site_event probe");
MARKER_PROBE_COUNTER(attached_count, "calls of the attached marker_site_event probe");
MARKER_PROBE_COUNTER(last_value, "last value marker_site_event passed");
MARKER_PROBE_COUNTER(init_count, "calls of the marker_site_init probe");
MARKER_PROBE_COUNTER(exit_count, "calls of the marker_site_exit probe");
MARKER_PROBE_COUNTER(noargs_count, "calls of the marker_site_noargs probe");
MARKER_PROBE_COUNTER(mismatch_count, "calls of the marker_site_mismatch probe (format mismatch: must stay 0)");
MARKER_PROBE_COUNTER(bad_count, "calls with unexpected arguments or private data");
MARKER_PROBE_COUNTER(register_ret, "marker_site_event registration and arming");
MARKER_PROBE_COUNTER(attach_ret, "marker_site_event attachment");
MARKER_PROBE_COUNTER(mismatch_ret, "marker_site_mismatch attachment with format %s");
MARKER_PROBE_COUNTER(other_ret, "other registrations (first error)");

static int registered_cookie, attached_cookie;

static void probe_event(const struct __mark_marker *mdata, void *private_data,
			const char *fmt, ...)
{
	const char *s;
	va_list args;
	int v;

	va_start(args, fmt);
	v = va_arg(args, int);
	s = va_arg(args, const char *);
	va_end(args);
	if (private_data != &registered_cookie ||
	    mdata->pdata != &registered_cookie || strcmp(fmt, "%d %s") ||
	    (strcmp(s, "first") && strcmp(s, "second")))
		bad_count++;
	last_value = v;
	event_count++;
}

static void probe_event_attached(const struct __mark_marker *mdata,
				 void *private_data, const char *fmt, ...)
{
	if (private_data != &attached_cookie)
		bad_count++;
	attached_count++;
}

static void probe_init(const struct __mark_marker *mdata, void *private_data,
		       const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	if (va_arg(args, int) != 42)
		bad_count++;
	va_end(args);
	init_count++;
}

static void probe_exit(const struct __mark_marker *mdata, void *private_data,
		       const char *fmt, ...)
{
	exit_count++;
}

static void probe_noargs(const struct __mark_marker *mdata, void *private_data,
			 const char *fmt, ...)
{
	noargs_count++;
}

static void probe_mismatch(const struct __mark_marker *mdata,
			   void *private_data, const char *fmt, ...)
{
	mismatch_count++;
}

static void marker_probe_other(int ret)
{
	if (ret && !other_ret)
		other_ret = ret;
}

static int __init marker_probe_init(void)
{
	register_ret = marker_probe_register("marker_site_event", "%d %s",
					     probe_event, &registered_cookie);
	if (!register_ret)
		register_ret = marker_arm("marker_site_event");
	attach_ret = marker_probe_attach("marker_site_event", "%d %s",
					 probe_event_attached, &attached_cookie);
	mismatch_ret = marker_probe_attach("marker_site_mismatch", "%s",
					   probe_mismatch, NULL);

	marker_probe_other(marker_probe_register("marker_site_init", "%d",
						 probe_init, NULL));
	marker_probe_other(marker_arm("marker_site_init"));
	marker_probe_other(marker_probe_register("marker_site_exit", MARK_NOARGS,
						 probe_exit, NULL));
	marker_probe_other(marker_arm("marker_site_exit"));
	marker_probe_other(marker_probe_attach("marker_site_noargs", MARK_NOARGS,
					       probe_noargs, NULL));
	pr_info("marker_probe: register %d attach %d mismatch %d other %d\n",
		register_ret, attach_ret, mismatch_ret, other_ret);
	return 0;
}

static void __exit marker_probe_exit(void)
{
	void *pdata;

	if (leak) {
		pr_info("marker_probe: leaving the probes connected\n");
		return;
	}
	marker_probe_detach("marker_site_event", probe_event_attached,
			    &attached_cookie);
	if (!mismatch_ret)
		marker_probe_detach("marker_site_mismatch", probe_mismatch, NULL);
	marker_probe_detach("marker_site_noargs", probe_noargs, NULL);
	marker_probe_unregister("marker_site_init");
	marker_probe_unregister("marker_site_exit");
	pdata = marker_probe_unregister("marker_site_event");
	if (pdata != &registered_cookie)
		pr_err("marker_probe: marker_probe_unregister() returned %p\n",
		       pdata);
}

module_init(marker_probe_init);
module_exit(marker_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Probes on the markers of marker_site, for the markers tests");
