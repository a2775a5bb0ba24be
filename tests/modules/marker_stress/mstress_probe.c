// SPDX-License-Identifier: GPL-2.0
/*
 * Probes that come and go during the storm of mstress.ko: attached to
 * stress_event and stress_wide, and registered and armed on stress_churn,
 * whose markers are in mstress.ko and mstress_site.ko. So unloading this
 * module unloads probes armed on markers of other modules.
 *
 * Its exit disconnects the probes and waits until no CPU runs them
 * (marker_probe_unregister() waits, marker_probe_detach() does not:
 * marker_synchronize_unregister()), so any call after it is late: the
 * probes check a flag set there, for a while before the module text
 * goes. With leak=1 it exits with the probes connected and the markers
 * core removes them.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "mstress.h"

static bool leak;
module_param(leak, bool, 0444);
MODULE_PARM_DESC(leak, "exit without disconnecting the probes");
static int ret_attach_event, ret_attach_wide, ret_register, ret_arm;
module_param(ret_attach_event, int, 0444);
module_param(ret_attach_wide, int, 0444);
module_param(ret_register, int, 0444);
module_param(ret_arm, int, 0444);

static int gone;
static int cookie_event, cookie_wide, cookie_churn;

static void probe_check(void *private_data, void *want, bool ok)
{
	if (!ok || private_data != want)
		atomic_long_inc(&mstress_shared.bad_args);
	if (READ_ONCE(gone))
		atomic_long_inc(&mstress_shared.late_hits);
	atomic_long_inc(&mstress_shared.churn_hits);
}

static void probe_event(const struct __mark_marker *mdata, void *private_data,
			const char *fmt, ...)
{
	unsigned long b;
	const char *s;
	va_list args;
	int a;

	if (strcmp(fmt, MSTRESS_EVENT_FMT)) {
		atomic_long_inc(&mstress_shared.mismatch_calls);
		return;
	}
	va_start(args, fmt);
	a = va_arg(args, int);
	b = va_arg(args, unsigned long);
	s = va_arg(args, const char *);
	va_end(args);
	probe_check(private_data, &cookie_event, mstress_event_ok(fmt, a, b, s));
}

static void probe_wide(const struct __mark_marker *mdata, void *private_data,
		       const char *fmt, ...)
{
	va_list args;
	bool ok;

	va_start(args, fmt);
	ok = mstress_wide_ok(fmt, args);
	va_end(args);
	probe_check(private_data, &cookie_wide, ok);
}

static void probe_churn(const struct __mark_marker *mdata, void *private_data,
			const char *fmt, ...)
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
	probe_check(private_data, &cookie_churn,
		    (a >> 24) < MSTRESS_NR_CTX && mstress_ctx_ok(a >> 24));
}

static int __init mstress_probe_init(void)
{
	ret_attach_event = marker_probe_attach("stress_event", MSTRESS_EVENT_FMT,
					       probe_event, &cookie_event);
	ret_attach_wide = marker_probe_attach("stress_wide", MSTRESS_WIDE_FMT,
					      probe_wide, &cookie_wide);
	ret_register = marker_probe_register("stress_churn", "%d", probe_churn,
					     &cookie_churn);
	if (!ret_register)
		ret_arm = marker_arm("stress_churn");
	if (ret_attach_event || ret_attach_wide || ret_register || ret_arm)
		pr_err("mstress_probe: attach %d %d register %d arm %d\n",
		       ret_attach_event, ret_attach_wide, ret_register, ret_arm);
	return 0;
}

static void __exit mstress_probe_exit(void)
{
	if (leak)
		return;
	if (!ret_attach_event)
		marker_probe_detach("stress_event", probe_event, &cookie_event);
	if (!ret_register)
		marker_probe_unregister("stress_churn");
	if (!ret_attach_wide)
		marker_probe_detach("stress_wide", probe_wide, &cookie_wide);
	marker_synchronize_unregister();
	/* No probe may run from now on. */
	WRITE_ONCE(gone, 1);
	mdelay(2);
}

module_init(mstress_probe_init);
module_exit(mstress_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Probes loaded and unloaded during the mstress storm");
