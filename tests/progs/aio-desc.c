// SPDX-License-Identifier: GPL-2.0
/*
 * aio-desc DEV BLOCK COUNT: write COUNT 4 KiB blocks of DEV, the last
 * first (BLOCK + COUNT - 1 down to BLOCK), with O_DIRECT, in one
 * io_submit() call, then wait for them all.
 *
 * io_submit() plugs around a batch of more than two requests, so each
 * bio after the first ends where the plugged request begins: a front
 * merge (blkparse "F"), which no dd workload makes.  Raw system calls:
 * Debian's busybox and libc have no libaio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BS 4096
#define MAX_COUNT 64

int main(int argc, char **argv)
{
	struct iocb cbs[MAX_COUNT], *list[MAX_COUNT];
	struct io_event ev[MAX_COUNT];
	aio_context_t ctx = 0;
	long block, count, i, done = 0;
	void *buf;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: aio-desc DEV BLOCK COUNT\n");
		return 2;
	}
	block = atol(argv[2]);
	count = atol(argv[3]);
	if (block < 0 || count < 3 || count > MAX_COUNT) {
		fprintf(stderr, "aio-desc: BLOCK >= 0, 3 <= COUNT <= %d\n", MAX_COUNT);
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, BS, BS)) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 0x5a, BS);
	if (syscall(SYS_io_setup, count, &ctx)) {
		perror("io_setup");
		return 1;
	}
	memset(cbs, 0, sizeof(cbs));
	for (i = 0; i < count; i++) {
		cbs[i].aio_fildes = fd;
		cbs[i].aio_lio_opcode = IOCB_CMD_PWRITE;
		cbs[i].aio_buf = (unsigned long)buf;
		cbs[i].aio_nbytes = BS;
		cbs[i].aio_offset = (block + count - 1 - i) * BS;
		list[i] = &cbs[i];
	}
	if (syscall(SYS_io_submit, ctx, count, list) != count) {
		perror("io_submit");
		return 1;
	}
	while (done < count) {
		long n = syscall(SYS_io_getevents, ctx, 1, count - done, ev, NULL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("io_getevents");
			return 1;
		}
		for (i = 0; i < n; i++) {
			if (ev[i].res != BS) {
				fprintf(stderr, "aio-desc: a write returned %lld\n",
					(long long)ev[i].res);
				return 1;
			}
		}
		done += n;
	}
	syscall(SYS_io_destroy, ctx);
	close(fd);
	return 0;
}
