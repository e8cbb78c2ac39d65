// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_worker.c - a job in a capped, timed child (user/profile/worker.c): its
 * result read back; each way it can end without one told exactly (an
 * exit status, a signal, the budget, a stop); its memory cap; the
 * inherited kernel objects it lets go of and the fds it keeps.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include "format_fixtures.h"
#include "suites.h"
#include "profile/worker.h"

#define MSG 64

#if defined(__SANITIZE_ADDRESS__)
#define HK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HK_ASAN 1
#endif
#endif

static const struct hk_worker_limits lim = {
	.name = "hk-test-worker",
	.as_bytes = 256ULL << 20,
	.budget_ns = 5ULL * 1000000000,
};

static int job_hello(void *arg, void *msg, size_t len)
{
	snprintf(msg, len, "hello %s", (const char *)arg);
	return 0;
}

static int job_exit3(void *arg, void *msg, size_t len)
{
	return 3;
}

/* SIGKILL: a sanitizer would catch a SIGSEGV and report it */
static int job_killed(void *arg, void *msg, size_t len)
{
	kill(getpid(), SIGKILL);
	return 0;
}

static int job_sleep(void *arg, void *msg, size_t len)
{
	sleep(30);
	return 0;
}

/* 512 MiB under a cap of 256 MiB over what the copy spans */
static int job_big(void *arg, void *msg, size_t len)
{
	char *p = malloc(512 << 20);

	if (!p) {
		snprintf(msg, len, "ENOMEM");
		return 0;
	}
	memset(p, 1, 512 << 20);
	snprintf(msg, len, "got it");
	return 0;
}

static int fds[3];

/* which of the parent's fds the child still has */
static int job_fds(void *arg, void *msg, size_t len)
{
	char comm[32] = "";
	FILE *f = fopen("/proc/self/comm", "r");

	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	snprintf(msg, len, "%d %d %d %s", fcntl(fds[0], F_GETFD) >= 0,
		 fcntl(fds[1], F_GETFD) >= 0, fcntl(fds[2], F_GETFD) >= 0, comm);
	return 0;
}

static int run(hk_worker_fn fn, void *arg, const struct hk_worker_limits *l, char *msg,
	       char *err, size_t err_len)
{
	struct hk_worker w;

	memset(msg, 0, MSG);
	CU_ASSERT_EQUAL_FATAL(hk_worker__start(&w, l, fn, arg, MSG, err, err_len), 0);
	CU_ASSERT(w.pid > 0);
	CU_ASSERT(hk_worker__timeout_ms(&w) > 0);
	return hk_worker__wait(&w, msg, MSG, err, err_len);
}

static void test_result(void)
{
	char msg[MSG], err[128] = "";
	struct hk_worker w;

	CU_ASSERT_EQUAL(run(job_hello, "there", &lim, msg, err, sizeof(err)), 1);
	ASSERT_STR(msg, "hello there");
	/* polled, not waited for: 0 until it ends, then 1 once */
	CU_ASSERT_EQUAL_FATAL(hk_worker__start(&w, &lim, job_hello, "again", MSG, err,
					       sizeof(err)), 0);
	while (!hk_worker__poll(&w, msg, MSG, err, sizeof(err)))
		usleep(1000);
	ASSERT_STR(msg, "hello again");
	CU_ASSERT_EQUAL(w.pid, 0);
	CU_ASSERT(w.maxrss_kib > 0);
	CU_ASSERT_EQUAL(hk_worker__timeout_ms(&w), -1);
}

static void test_no_result(void)
{
	char msg[MSG], err[128];

	CU_ASSERT_EQUAL(run(job_exit3, NULL, &lim, msg, err, sizeof(err)), -1);
	ASSERT_STR(err, "exited 3 without a result");
	CU_ASSERT_EQUAL(run(job_killed, NULL, &lim, msg, err, sizeof(err)), -1);
	ASSERT_STR(err, "killed by signal 9 (Killed)");
}

static void test_budget(void)
{
	struct hk_worker_limits l = lim;
	struct timespec t0, t1;
	char msg[MSG], err[128];
	struct hk_worker w;

	l.budget_ns = 200 * 1000000ULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(run(job_sleep, NULL, &l, msg, err, sizeof(err)), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_STR(err, "took over 0.2 s: killed");
	CU_ASSERT(t1.tv_sec - t0.tv_sec < 5);
	/* stopped on request */
	CU_ASSERT_EQUAL_FATAL(hk_worker__start(&w, &lim, job_sleep, NULL, MSG, err,
					       sizeof(err)), 0);
	hk_worker__kill(&w);
	CU_ASSERT_EQUAL(hk_worker__wait(&w, msg, MSG, err, sizeof(err)), -1);
	ASSERT_STR(err, "stopped");
}

static void test_memory_cap(void)
{
	char msg[MSG], err[128];
	int r = run(job_big, NULL, &lim, msg, err, sizeof(err));

#ifdef HK_ASAN
	/* ASan reserves its heap's address space at start: the cap does not
	 * bite there; the job ends all the same */
	CU_ASSERT(r == 1 || r == -1);
#else
	CU_ASSERT_EQUAL(r, 1);
	/* qemu-user (make unit ARCH=arm64 on x86) keeps RLIMIT_AS to itself:
	 * the emulator's own address space would be capped, not the job's */
	if (getenv("HK_UNIT_QEMU_USER"))
		ASSERT_STR(msg, "got it");
	else
		ASSERT_STR(msg, "ENOMEM");
#endif
}

static void test_fds(void)
{
	struct hk_worker_limits l = lim;
	char msg[MSG], err[128];
	int keep;

	fds[0] = eventfd(0, EFD_CLOEXEC);	/* anon_inode: dropped */
	fds[1] = eventfd(0, EFD_CLOEXEC);	/* anon_inode, but kept */
	fds[2] = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);	/* a file: kept */
	CU_ASSERT_FATAL(fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0);
	keep = fds[1];
	l.keep_fds = &keep;
	l.nkeep = 1;
	CU_ASSERT_EQUAL(run(job_fds, NULL, &l, msg, err, sizeof(err)), 1);
	ASSERT_STR(msg, "0 1 1 hk-test-worker");
	/* the parent's are untouched */
	CU_ASSERT(fcntl(fds[0], F_GETFD) >= 0);
	close(fds[0]);
	close(fds[1]);
	close(fds[2]);
}

int hk_add_worker_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "a result through the pipe", test_result },
		{ "an exit status, a signal: no result", test_no_result },
		{ "past the budget: killed; stopped", test_budget },
		{ "the address-space cap", test_memory_cap },
		{ "inherited kernel objects dropped, kept fds kept", test_fds },
	};

	return HK_ADD_SUITE("worker", tests);
}
