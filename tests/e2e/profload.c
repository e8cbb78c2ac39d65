// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profload.c - a process whose time is known, for the profiler's tests.
 *
 *   main thread:  spin_here() 30 ms of CPU, then sleep_here() 20 ms, again
 *   fsync thread: fsync_here(): 4 KiB written and fsync'ed, again
 *
 * Built with frame pointers (-fno-omit-frame-pointer): the kernel walks a
 * user stack by them. The blocking calls are system calls made here, not
 * through libc, whose wrappers keep no frame pointer: a wrapper's caller
 * would then be lost from the stack. The spin counts the thread's CPU
 * time, not the wall clock, so that a busy machine stretches it but does
 * not change its share: 30 ms of CPU per 20 ms asleep.
 *
 * Usage: profload FILE   (prints "ready", runs until killed)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define SPIN_CPU_NS	(30 * 1000000LL)
#define SLEEP_NS	(20 * 1000000L)

/* Inlined into its caller whatever -fno-inline says: the caller is then
 * the frame the system call is made from. */
static inline __attribute__((always_inline)) long raw_syscall2(long nr, long a, long b)
{
#if defined(__x86_64__)
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;

	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1) : "memory");
	return x0;
#else
	return syscall(nr, a, b);
#endif
}

static long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((noinline)) void spin_here(void)
{
	long long until = thread_cpu_ns() + SPIN_CPU_NS;
	volatile unsigned long x = 0;

	while (thread_cpu_ns() < until)
		for (int i = 0; i < 1000; i++)
			x += (unsigned long)i;
}

__attribute__((noinline)) void sleep_here(void)
{
	struct timespec ts = { .tv_nsec = SLEEP_NS };

	raw_syscall2(SYS_nanosleep, (long)&ts, 0);
}

__attribute__((noinline)) void fsync_here(int fd)
{
	static char page[4096];

	if (pwrite(fd, page, sizeof(page), 0) != (ssize_t)sizeof(page))
		exit(3);
	raw_syscall2(SYS_fsync, fd, 0);
}

static void *fsync_loop(void *arg)
{
	int fd = *(int *)arg;

	for (;;)
		fsync_here(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: profload FILE\n");
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "profload: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (pthread_create(&t, NULL, fsync_loop, &fd)) {
		fprintf(stderr, "profload: pthread_create failed\n");
		return 1;
	}
	puts("ready");
	fflush(stdout);
	for (;;) {
		spin_here();
		sleep_here();
	}
}
