// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin (QEMU 7.2, plugin API version 1): how many times each
 * guest instruction at or above min= ran, written at exit to out= as
 * "address count" lines, in hexadecimal and decimal. scripts/profile.py
 * adds them up per function of a vmlinux.
 *
 *   qemu-system-x86_64 -plugin build/plugins/libpccount.so,out=F[,min=A]
 *
 * Every instruction gets an inline add of its own counter: no callback,
 * so the counts are exact for one vCPU. An instruction translated again
 * (another translation block at the same address) keeps its counter.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static GHashTable *counters;	/* guest address -> uint64_t counter */
static GMutex lock;
static uint64_t min_addr = 0xffffffff80000000ULL;
static char *out_path;

static uint64_t *counter_of(uint64_t addr)
{
	uint64_t *c;

	g_mutex_lock(&lock);
	c = g_hash_table_lookup(counters, &addr);
	if (!c) {
		uint64_t *key = g_new(uint64_t, 1);

		*key = addr;
		c = g_new0(uint64_t, 1);
		g_hash_table_insert(counters, key, c);
	}
	g_mutex_unlock(&lock);
	return c;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t addr = qemu_plugin_insn_vaddr(insn);

		if (addr < min_addr)
			continue;
		qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, counter_of(addr), 1);
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	GHashTableIter iter;
	gpointer key, value;
	FILE *f = fopen(out_path, "w");

	if (!f) {
		qemu_plugin_outs("pccount: cannot write the out= file\n");
		return;
	}
	g_hash_table_iter_init(&iter, counters);
	while (g_hash_table_iter_next(&iter, &key, &value))
		if (*(uint64_t *)value)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n",
				*(uint64_t *)key, *(uint64_t *)value);
	fclose(f);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else if (!strncmp(argv[i], "min=", 4)) {
			min_addr = strtoull(argv[i] + 4, NULL, 0);
		} else {
			fprintf(stderr, "pccount: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!out_path) {
		fprintf(stderr, "pccount: out=FILE is needed\n");
		return -1;
	}
	counters = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
