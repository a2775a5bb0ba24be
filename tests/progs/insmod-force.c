// SPDX-License-Identifier: GPL-2.0
/*
 * insmod-force MODULE.ko [PARAMS]: load a module as "insmod -f" does,
 * ignoring its version magic and symbol versions, so that the kernel
 * taints it with TAINT_FORCED_MODULE (needs CONFIG_MODULE_FORCE_LOAD).
 * Busybox's insmod has no -f.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/module.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: insmod-force MODULE.ko [PARAMS]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	if (syscall(SYS_finit_module, fd, argc > 2 ? argv[2] : "",
		    MODULE_INIT_IGNORE_VERMAGIC | MODULE_INIT_IGNORE_MODVERSIONS)) {
		fprintf(stderr, "insmod-force: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
