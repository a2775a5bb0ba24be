// SPDX-License-Identifier: GPL-2.0
/*
 * marker-bpf: count the hits of a marker event by the value of one of its
 * integer fields, with a BPF program and nothing but system calls (no
 * libbpf, no BTF, no compiler in the guest), for tests/guest/tools.sh on
 * every arch, bpftrace or not:
 *
 *   marker-bpf ioctl|link GROUP/EVENT FIELD NVALUES CMD
 *
 * reads the event's id and the offset and size of FIELD from its tracefs
 * files, loads a BPF_PROG_TYPE_TRACEPOINT program that does
 * "counts[FIELD]++" in an array map of NVALUES entries (values out of
 * range are counted in the last entry + 1, printed as "other"), attaches
 * it to a perf event of the event, with PERF_EVENT_IOC_SET_BPF or with a
 * BPF link (BPF_LINK_CREATE, BPF_PERF_EVENT), runs "sh -c CMD", detaches
 * and prints "FIELD=V COUNT" for every V, then "other COUNT". Exit status
 * 0, or 1 with a message naming the step that failed and its errno.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/events/"

static void die(const char *what)
{
	fprintf(stderr, "marker-bpf: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int event_id(const char *event)
{
	char path[256];
	FILE *f;
	int id;

	snprintf(path, sizeof(path), TRACEFS "%s/id", event);
	f = fopen(path, "r");
	if (!f)
		die(path);
	if (fscanf(f, "%d", &id) != 1) {
		errno = EINVAL;
		die(path);
	}
	fclose(f);
	return id;
}

/* "field:unsigned int mod;	offset:12;	size:4;	signed:0;" */
static void field_offset(const char *event, const char *field, int *offset,
			 int *size)
{
	char path[256], line[512], want[80];
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "%s/format", event);
	snprintf(want, sizeof(want), " %s;", field);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *o = strstr(line, "offset:");
		char *s = strstr(line, "size:");

		if (p && o && s && p < o && sscanf(o, "offset:%d", offset) == 1 &&
		    sscanf(s, "size:%d", size) == 1) {
			fclose(f);
			return;
		}
	}
	errno = ENOENT;
	die(field);
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

int main(int argc, char **argv)
{
	int offset, size, id, map, prog, pe, link = -1, n, status;
	struct perf_event_attr pa = { 0 };
	union bpf_attr attr;
	char log[4096];
	uint64_t count;
	uint32_t key;
	pid_t child;

	if (argc != 6 || (strcmp(argv[1], "ioctl") && strcmp(argv[1], "link"))) {
		fprintf(stderr, "usage: marker-bpf ioctl|link GROUP/EVENT FIELD NVALUES CMD\n");
		return 2;
	}
	n = atoi(argv[4]);
	id = event_id(argv[2]);
	field_offset(argv[2], argv[3], &offset, &size);
	if (size != 4) {
		fprintf(stderr, "marker-bpf: %s is %d bytes, not 4\n", argv[3], size);
		return 1;
	}

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = n + 1;
	map = sys_bpf(BPF_MAP_CREATE, &attr);
	if (map < 0)
		die("BPF_MAP_CREATE");

	struct bpf_insn insns[] = {
		/* r1 = ctx->FIELD; if (r1 > n) r1 = n */
		INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_1, offset, 0),
		INSN(BPF_JMP | BPF_JLE | BPF_K, BPF_REG_1, 0, 1, n),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, n),
		/* *(u32 *)(fp - 4) = r1; r2 = fp - 4 */
		INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_1, -4, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		/* r0 = bpf_map_lookup_elem(map, r2) */
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map),
		INSN(0, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem),
		/* if (r0) atomically *(u64 *)r0 += 1 */
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 2, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1, 0, BPF_ADD),
		/* return 0: nothing for the perf buffers */
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACEPOINT;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	log[0] = '\0';
	prog = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog < 0) {
		fprintf(stderr, "%s", log);
		die("BPF_PROG_LOAD");
	}

	pa.type = PERF_TYPE_TRACEPOINT;
	pa.size = sizeof(pa);
	pa.config = id;
	pa.sample_period = 1;
	pa.wakeup_events = 1;
	pe = syscall(__NR_perf_event_open, &pa, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pe < 0)
		die("perf_event_open");
	if (!strcmp(argv[1], "ioctl")) {
		if (ioctl(pe, PERF_EVENT_IOC_SET_BPF, prog))
			die("PERF_EVENT_IOC_SET_BPF");
	} else {
		memset(&attr, 0, sizeof(attr));
		attr.link_create.prog_fd = prog;
		attr.link_create.target_fd = pe;
		attr.link_create.attach_type = BPF_PERF_EVENT;
		link = sys_bpf(BPF_LINK_CREATE, &attr);
		if (link < 0)
			die("BPF_LINK_CREATE");
	}
	if (ioctl(pe, PERF_EVENT_IOC_ENABLE, 0))
		die("PERF_EVENT_IOC_ENABLE");

	fflush(stdout);
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		execl("/bin/sh", "sh", "-c", argv[5], (char *)NULL);
		die("/bin/sh");
	}
	if (waitpid(child, &status, 0) < 0)
		die("waitpid");

	if (link >= 0)
		close(link);
	close(pe);
	for (key = 0; key <= (uint32_t)n; key++) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = map;
		attr.key = (uintptr_t)&key;
		attr.value = (uintptr_t)&count;
		if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr))
			die("BPF_MAP_LOOKUP_ELEM");
		if (key < (uint32_t)n)
			printf("%s=%u %llu\n", argv[3], key, (unsigned long long)count);
		else
			printf("other %llu\n", (unsigned long long)count);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
