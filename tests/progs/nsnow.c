// SPDX-License-Identifier: GPL-2.0
/*
 * nsnow: print CLOCK_MONOTONIC in nanoseconds, for guest scripts that
 * time a tracefs write (busybox's date has no %N).
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("clock_gettime");
		return 1;
	}
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
