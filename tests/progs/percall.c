// SPDX-License-Identifier: GPL-2.0
/*
 * percall OP REPS N [DEV]: what one call of OP costs on the guest clock,
 * for make bench's macro run (tests/guest/macro.sh).
 * percall now: CLOCK_MONOTONIC in nanoseconds, for guest scripts that
 * time a tracefs write (busybox's date has no %N).
 *
 *   yield   sched_yield(): the task is alone on its CPU, so each call
 *           goes through __schedule() and picks the same task again
 *   read    a 4 KiB O_DIRECT pread() of DEV, one of 256 blocks in turn
 *   write   a 4 KiB O_DIRECT pwrite() of the same blocks
 *
 * Each of REPS repetitions times N calls in a row, and an empty loop of
 * N iterations, with clock_gettime(CLOCK_MONOTONIC); a repetition's
 * figure is the difference over N.  Under QEMU -icount shift=0 the guest
 * clock advances one nanosecond per executed instruction, so the figure
 * is instructions per call.  A repetition that a timer tick or another
 * task interrupted comes out larger: the median and the minimum are
 * those of the uninterrupted ones as long as most are.  Output, one line:
 *   OP median=M min=M p90=M reps=REPS n=N
 * in hundredths of a unit, M printed as a decimal with two digits.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BS 4096
#define BLOCKS 256

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	long long t0, t1, t2, med, *per;
	long reps, n, r, i;
	void *buf = NULL;
	int fd = -1, op;
	const char *name;

	if (argc == 2 && !strcmp(argv[1], "now")) {
		printf("%lld\n", now());
		return 0;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: percall yield|read|write REPS N [DEV] | percall now\n");
		return 2;
	}
	name = argv[1];
	reps = atol(argv[2]);
	n = atol(argv[3]);
	if (!strcmp(name, "yield"))
		op = 0;
	else if (!strcmp(name, "read"))
		op = 1;
	else if (!strcmp(name, "write"))
		op = 2;
	else
		op = -1;
	if (op < 0 || reps < 1 || n < 1 || (op && argc < 5)) {
		fprintf(stderr, "percall: bad arguments\n");
		return 2;
	}
	per = calloc(reps, sizeof(*per));
	if (!per)
		die("calloc");
	if (op) {
		fd = open(argv[4], (op == 1 ? O_RDONLY : O_WRONLY) | O_DIRECT);
		if (fd < 0)
			die(argv[4]);
		if (posix_memalign(&buf, BS, BS))
			die("posix_memalign");
		memset(buf, 0x5a, BS);
	}
	for (r = 0; r < reps; r++) {
		t0 = now();
		for (i = 0; i < n; i++) {
			ssize_t ret = 0;
			off_t off = (off_t)(i % BLOCKS) * BS;

			if (op == 0)
				sched_yield();
			else if (op == 1)
				ret = pread(fd, buf, BS, off);
			else
				ret = pwrite(fd, buf, BS, off);
			if (op && ret != BS)
				die(op == 1 ? "pread" : "pwrite");
		}
		t1 = now();
		/* The same loop without the call: what the loop and the clock cost. */
		for (i = 0; i < n; i++)
			__asm__ __volatile__("" : : "r"(i) : "memory");
		t2 = now();
		per[r] = ((t1 - t0) - (t2 - t1)) * 100 / n;
	}
	qsort(per, reps, sizeof(*per), cmp);
	med = (per[(reps - 1) / 2] + per[reps / 2]) / 2;
	printf("%s median=%lld.%02lld min=%lld.%02lld p90=%lld.%02lld reps=%ld n=%ld\n",
	       name, med / 100, med % 100,
	       per[0] / 100, per[0] % 100,
	       per[(reps * 9 + 9) / 10 - 1] / 100, per[(reps * 9 + 9) / 10 - 1] % 100,
	       reps, n);
	return 0;
}
