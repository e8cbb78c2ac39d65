// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn-threads - thread create + exit, timed: N times pthread_create() of a
 * thread that returns at once, then pthread_join(), one after the other on
 * the CPU given (so that every exit runs the sched_process_exit programs
 * attached once, in the thread's last moments). Prints "threads=N secs=S
 * ns_per_thread=X".
 *
 *   bn-threads -n 20000 -c 0
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *quit_at_once(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	long n = 10000, i;
	int cpu = -1, opt, err;
	pthread_t t;
	cpu_set_t set;
	double t0, t1;

	while ((opt = getopt(argc, argv, "n:c:")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else if (opt == 'c')
			cpu = atoi(optarg);
		else {
			fprintf(stderr, "usage: bn-threads [-n THREADS] [-c CPU]\n");
			return 2;
		}
	}
	if (n <= 0) {
		fprintf(stderr, "bn-threads: -n must be > 0\n");
		return 2;
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("bn-threads: sched_setaffinity");
			return 1;
		}
	}
	t0 = now_s();
	for (i = 0; i < n; i++) {
		err = pthread_create(&t, NULL, quit_at_once, NULL);
		if (err) {
			fprintf(stderr, "bn-threads: pthread_create: %s\n", strerror(err));
			return 1;
		}
		pthread_join(t, NULL);
	}
	t1 = now_s();
	printf("threads=%ld secs=%.3f ns_per_thread=%.0f\n", n, t1 - t0, (t1 - t0) * 1e9 / n);
	return 0;
}
