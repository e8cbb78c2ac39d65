// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn-spawn - a population of idle processes and threads for the walk
 * benchmark: P processes of T threads each, every thread blocked in
 * pause(). Prints "ready <procs> <threads>" once all exist, then waits for
 * SIGTERM/SIGINT and kills every child by its PID
 * (SIGKILL), reaps them all and exits: the population is gone when this
 * process is. Children also die with it (PR_SET_PDEATHSIG).
 *
 *   bn-spawn -p 10000 -t 10
 *   bn-spawn -p 100000 -s        single-thread processes sharing one mm
 *   bn-spawn -p 2000 -c 20 -n hkb-keep -e 10 -w 100
 *                                the first 20 named hkb-keep (comm, by
 *                                prctl), one process in 10 waking every
 *                                100 ms, the others idle
 *   bn-spawn -p 1000 -e 1 -w 1000 -f 4 -u 0 -u 60001 -u 60002
 *                                each waking every second to fault 4
 *                                pages in and drop them, processes i, i+3,
 *                                ... under uid 0, the next under 60001...
 *
 * -s creates each process with clone(CLONE_VM) instead of fork(): still a
 * process of its own (own TGID, signal struct, files), but without a copy
 * of the address space. A forked idle process costs ~100 KiB (page tables,
 * copied stack and data pages); on a VM whose free memory was handed back to
 * the host, touching 10 GB of fresh memory made 100 k forks take 95 s.
 *
 * -c/-n and -e/-w make the population of the filter figure (9): a few
 * processes a --comm filter keeps, and some that run every window (a process
 * none of whose threads ran is skipped as quiet whatever the filter says).
 * Process i is named when i < COUNT and wakes when i % EVERY == 0: its main
 * thread sleeps PERIOD ms in a loop instead of pause(), the others pause().
 *
 * -f and -u make the flagged population of the scrape figure (15): -f N
 * faults N pages of its own in at each wake-up and drops them
 * (MADV_DONTNEED), minor faults its RSS never shows as growth (what
 * mem_thrashing's minor_faults_per_s counts); -u UID (up to 16, repeated)
 * gives process i the uid and gid UIDS[i % n], as many owners as the
 * Prometheus set's per-owner share (user/output/prom_share.h) needs.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
}

/* what process i is: its name (-c/-n) and its wake-up period (-e/-w) */
static long name_count, wake_every, wake_ms = 100;
static const char *name;
static long fault_pages;
enum { MAX_UIDS = 16 };
static uid_t uids[MAX_UIDS];
static int nr_uids;

static void *idle_thread(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

/* process i's name: set before it says ready, so a tool started then sees it */
static void child_name(long i)
{
	if (name && i < name_count)
		prctl(PR_SET_NAME, name, 0, 0, 0);
}

/* the main thread's life: asleep for good, or waking every wake_ms (raw
 * system calls only: -s children share errno) */
static void child_run(long i)
{
	struct timespec ts = { wake_ms / 1000, wake_ms % 1000 * 1000000L };
	volatile char *pages = NULL;
	long k, pg = 4096;

	if (!wake_every || i % wake_every)
		for (;;)
			pause();
	/* -s children share one mm: the faults are for forked ones */
	if (fault_pages)
		pages = mmap(NULL, fault_pages * pg, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		pages = NULL;
	for (;;) {
		nanosleep(&ts, NULL);
		if (!pages)
			continue;
		for (k = 0; k < fault_pages; k++)
			pages[k * pg] = 1;
		madvise((void *)pages, fault_pages * pg, MADV_DONTNEED);
	}
}

/* process i's owner (-u): before PR_SET_PDEATHSIG, which a change of
 * credentials clears */
static void child_owner(long i)
{
	uid_t u;

	if (!nr_uids)
		return;
	u = uids[i % nr_uids];
	if (setresgid(u, u, u) || setresuid(u, u, u))
		_exit(1);
}

/* the child: T - 1 more threads, tell the parent, block forever */
static void child(long idx, int nthreads, int ready_fd, pid_t parent)
{
	pthread_attr_t attr;
	pthread_t th;
	char c = 1;
	int i;

	child_owner(idx);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	pthread_attr_init(&attr);
	/* small stacks: a thread here only ever calls pause() */
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN < 65536 ? 65536 : PTHREAD_STACK_MIN);
	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&th, &attr, idle_thread, NULL)) {
			c = 0;
			break;
		}
	}
	child_name(idx);
	if (write(ready_fd, &c, 1) != 1)
		_exit(1);
	close(ready_fd);
	child_run(idx);
}

/* the child of -s: no pthreads, raw system calls only (errno is shared) */
struct light_arg {
	int ready_fd;
	pid_t parent;
	long idx;		/* one light_arg per child: they share memory */
};

static int light_child(void *p)
{
	const struct light_arg *a = p;
	char c = 1;

	child_owner(a->idx);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != a->parent)
		_exit(0);
	child_name(a->idx);
	if (write(a->ready_fd, &c, 1) != 1)
		_exit(1);
	child_run(a->idx);
	return 0;
}

enum { LIGHT_STACK = 16384 };

static long parse_long(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max) {
		fprintf(stderr, "bn-spawn: bad number '%s' (%ld..%ld)\n", s, min, max);
		exit(2);
	}
	return v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long nprocs = 1, nthreads = 1, i, started = 0, ready = 0, failed = 0;
	int light = 0;
	char *stacks = NULL;
	struct light_arg *largs = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	pid_t parent = getpid(), *pids;
	int pfd[2], opt, status;
	double t0;
	char buf[4096];

	while ((opt = getopt(argc, argv, "p:t:c:n:e:w:f:u:sh")) != -1) {
		switch (opt) {
		case 's':
			light = 1;
			break;
		case 'p':
			nprocs = parse_long(optarg, 1, 4000000);
			break;
		case 't':
			nthreads = parse_long(optarg, 1, 100000);
			break;
		case 'c':
			name_count = parse_long(optarg, 0, 4000000);
			break;
		case 'n':
			name = optarg;
			break;
		case 'e':
			wake_every = parse_long(optarg, 0, 4000000);
			break;
		case 'w':
			wake_ms = parse_long(optarg, 1, 3600000);
			break;
		case 'f':
			fault_pages = parse_long(optarg, 0, 65536);
			break;
		case 'u':
			if (nr_uids == MAX_UIDS) {
				fprintf(stderr, "bn-spawn: at most %d -u\n", MAX_UIDS);
				return 2;
			}
			uids[nr_uids++] = (uid_t)parse_long(optarg, 0, 2147483647);
			break;
		default:
			fprintf(stderr, "usage: bn-spawn -p PROCS [-t THREADS_PER_PROC | -s] "
				"[-c COUNT -n NAME] [-e EVERY [-w PERIOD_MS] [-f PAGES]] [-u UID]...\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	pids = calloc(nprocs, sizeof(*pids));
	if (!pids || pipe(pfd)) {
		perror("bn-spawn");
		return 1;
	}
	if (light) {
		if (nthreads != 1) {
			fprintf(stderr, "bn-spawn: -s makes single-thread processes only\n");
			return 2;
		}
		stacks = mmap(NULL, nprocs * LIGHT_STACK, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (stacks == MAP_FAILED) {
			perror("bn-spawn: stacks");
			return 1;
		}
		largs = calloc(nprocs, sizeof(*largs));
		if (!largs) {
			perror("bn-spawn: args");
			return 1;
		}
		for (i = 0; i < nprocs; i++)
			largs[i] = (struct light_arg){ pfd[1], parent, i };
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	t0 = now_s();
	for (i = 0; i < nprocs && !exiting; i++) {
		pid_t pid = light ? clone(light_child, stacks + (i + 1) * LIGHT_STACK,
					  CLONE_VM | SIGCHLD, &largs[i]) : fork();

		if (pid < 0) {
			fprintf(stderr, "bn-spawn: fork %ld: %s\n", i, strerror(errno));
			break;
		}
		if (!pid) {
			close(pfd[0]);
			child(i, nthreads, pfd[1], parent);
		}
		pids[started++] = pid;
		/* drain readiness bytes as we go: the pipe holds 64 KiB only */
		if ((i & 1023) == 1023) {
			struct pollfd p = { .fd = pfd[0], .events = POLLIN };

			while (poll(&p, 1, 0) > 0) {
				ssize_t n = read(pfd[0], buf, sizeof(buf));
				ssize_t k;

				if (n <= 0)
					break;
				for (k = 0; k < n; k++)
					buf[k] ? ready++ : failed++;
			}
		}
	}
	close(pfd[1]);
	while (ready + failed < started && !exiting) {
		ssize_t n = read(pfd[0], buf, sizeof(buf));
		ssize_t k;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (k = 0; k < n; k++)
			buf[k] ? ready++ : failed++;
	}
	if (!exiting) {
		printf("ready %ld %ld failed %ld spawn_s %.3f\n", ready,
		       ready * nthreads, failed, now_s() - t0);
		fflush(stdout);
		while (!exiting)
			pause();
	}
	t0 = now_s();
	for (i = 0; i < started; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < started; i++)
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
	fprintf(stderr, "bn-spawn: %ld processes killed and reaped in %.3f s\n",
		started, now_s() - t0);
	return ready == started && !failed ? 0 : 1;
}
