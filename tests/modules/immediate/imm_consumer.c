// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: reads imm_provider's exported immediate variable and
 * owns one of its own, with sites in init text as well.
 *
 *   parameters/read        immediate_read() of imm_provider_var
 *   parameters/local       write: immediate_set(), read: immediate_read()
 *   parameters/local_if    1 if immediate_if(local) takes the branch
 *   parameters/sites_ok    "mov=N jump=N bad=N": the patched code bytes of
 *                          both variables checked against their values
 *   parameters/init_read   what the __init reader saw at load
 *   parameters/prof        immediate_read() of the core kernel's prof_on
 *                          (0 without CONFIG_PROFILING)
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/immediate.h>
#include <linux/profile.h>

extern immediate_int_t imm_provider_var;

static immediate_long_t imm_local = IMMEDIATE_INIT(-7);
static int init_read;
module_param(init_read, int, 0444);

static noinline int consumer_read(void)
{
	return immediate_read(&imm_provider_var);
}

static noinline long local_read(void)
{
	return immediate_read(&imm_local);
}

static noinline int local_if(void)
{
	immediate_if(&imm_local)
		return 1;
	return 0;
}

static int read_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", consumer_read());
}

static const struct kernel_param_ops read_ops = { .get = read_get };
module_param_cb(read, &read_ops, NULL, 0444);

static int local_set(const char *val, const struct kernel_param *kp)
{
	long v;
	int ret = kstrtol(val, 0, &v);

	if (ret)
		return ret;
	immediate_set(&imm_local, v);
	return 0;
}

static int local_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", local_read());
}

static const struct kernel_param_ops local_ops = {
	.set = local_set,
	.get = local_get,
};
module_param_cb(local, &local_ops, NULL, 0644);

static int local_if_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", local_if());
}

static const struct kernel_param_ops local_if_ops = { .get = local_if_get };
module_param_cb(local_if, &local_if_ops, NULL, 0444);

/* A module's site of a core kernel variable. */
static noinline int prof_read(void)
{
#ifdef CONFIG_PROFILING
	return immediate_read(&prof_on);
#else
	return 0;
#endif
}

static int prof_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", prof_read());
}

static const struct kernel_param_ops prof_ops = { .get = prof_get };
module_param_cb(prof, &prof_ops, NULL, 0444);

#ifdef CONFIG_IMMEDIATE
struct sites {
	unsigned long want;
	unsigned long mask;
	int mov, jump, bad;
};

static void check_site(const struct __immediate *e, void *arg)
{
	struct sites *s = arg;

	if (immediate_type(e) == IMMEDIATE_JUMP) {
		s->jump++;
		s->bad += arch_immediate_site_value(e) != !!s->want;
	} else {
		s->mov++;
		s->bad += arch_immediate_site_value(e) != (s->want & s->mask);
	}
}

static int sites_get(char *buf, const struct kernel_param *kp)
{
	struct sites s = { .want = (unsigned int)_immediate_read(&imm_provider_var),
			   .mask = 0xffffffffUL };

	immediate_visit_sites(&imm_provider_var.value, check_site, &s);
	s.want = _immediate_read(&imm_local);
	s.mask = ~0UL;
	immediate_visit_sites(&imm_local.value, check_site, &s);
	return sysfs_emit(buf, "mov=%d jump=%d bad=%d\n", s.mov, s.jump, s.bad);
}
#else
static int sites_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "generic\n");
}
#endif

static const struct kernel_param_ops sites_ops = { .get = sites_get };
module_param_cb(sites_ok, &sites_ops, NULL, 0444);

/* A site in init text: patched at load, dropped once the text is freed. */
static int __init consumer_init(void)
{
	init_read = immediate_read(&imm_provider_var);
	return 0;
}
module_init(consumer_init);

static void __exit consumer_exit(void)
{
}
module_exit(consumer_exit);

MODULE_DESCRIPTION("immediate values test: reader of another module's variable");
MODULE_LICENSE("GPL");
