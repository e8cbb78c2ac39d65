// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * leakload.c - a process whose memory growth and sleep are known, called
 * through libc, for the memory profile's tests and the leaf-frame recovery.
 *
 *   leakload leak KIB MS   every MS ms: leak_here() mallocs KIB KiB, sets
 *                          it with memset and keeps it; churn_here() 8
 *                          times mallocs 64 KiB, sets and frees it (the
 *                          allocator reuses it: no net growth)
 *   leakload sleep         sleep_here() calls clock_nanosleep (20 ms), again
 *
 * Built with frame pointers for its own code but calling libc's memset and
 * clock_nanosleep, which keep none (-fno-builtin: the calls are not
 * inlined): the frame-pointer walk from inside them skips leak_here and
 * sleep_here, which the profiler must put back. Deadlines are absolute,
 * so a slow machine does not change the rate.
 *
 * Prints "ready" once started; runs until killed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <signal.h>

#define CHURN_BYTES	(64 * 1024)
#define CHURN_TIMES	8
#define SLEEP_NS	(20 * 1000000L)

static void *kept;	/* the leak stays reachable: nothing frees it */

__attribute__((noinline)) void leak_here(size_t bytes)
{
	void **p = malloc(bytes);

	if (!p)
		exit(3);
	memset(p, 0x5a, bytes);
	p[0] = kept;
	kept = p;
}

__attribute__((noinline)) void churn_here(void)
{
	char *p = malloc(CHURN_BYTES);

	if (!p)
		exit(3);
	memset(p, 0xa5, CHURN_BYTES);
	free(p);
}

__attribute__((noinline)) void sleep_here(void)
{
	struct timespec ts = { .tv_nsec = SLEEP_NS };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

static void add_ns(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static int leak(long kib, long ms)
{
	struct timespec next;
	int i;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		leak_here((size_t)kib * 1024);
		for (i = 0; i < CHURN_TIMES; i++)
			churn_here();
		add_ns(&next, ms * 1000000L);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* dies with the test that started it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (argc == 4 && !strcmp(argv[1], "leak") && atol(argv[2]) > 0 && atol(argv[3]) > 0) {
		printf("ready\n");
		fflush(stdout);
		return leak(atol(argv[2]), atol(argv[3]));
	}
	if (argc == 2 && !strcmp(argv[1], "sleep")) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			sleep_here();
	}
	fprintf(stderr, "usage: leakload leak KIB MS | leakload sleep\n");
	return 2;
}
