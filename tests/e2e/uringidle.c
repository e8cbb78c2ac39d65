// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * uringidle.c - an idle io_uring network server, for the end-to-end tests.
 *
 * One IORING_OP_RECV armed on a socketpair that nobody writes to, then
 * io_uring_enter() waiting for one completion that never comes: what an
 * io_uring server (liburing, tokio-uring, Netty's transport) looks like
 * between requests. Since 6.5 the kernel marks such a waiter in_iowait
 * when it has requests in flight (io_uring: "Use io_schedule* in cqring
 * wait"), so delay accounting counts the idle wait as I/O wait. Raw system
 * calls: liburing is not installed here. Dies with its parent, prints
 * "ready" once the recv is submitted, then waits until killed.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/io_uring.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "uringidle: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqes;
	static char buf[4096];
	unsigned *sq_tail, *sq_mask, *sq_array;
	void *sq, *cq;
	int fd, sv[2];
	long r;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: uringidle   (prints \"ready\", then waits until killed)\n");
		return 2;
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		die("prctl");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	memset(&p, 0, sizeof(p));
	fd = (int)syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0)
		die("io_uring_setup");
	sq = mmap(NULL, p.sq_off.array + p.sq_entries * sizeof(unsigned),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
		die("mmap of the rings");
	sq_tail = (unsigned *)((char *)sq + p.sq_off.tail);
	sq_mask = (unsigned *)((char *)sq + p.sq_off.ring_mask);
	sq_array = (unsigned *)((char *)sq + p.sq_off.array);

	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_RECV;
	sqes[0].fd = sv[0];
	sqes[0].addr = (uint64_t)(uintptr_t)buf;
	sqes[0].len = sizeof(buf);
	sqes[0].user_data = 1;
	sq_array[*sq_tail & *sq_mask] = 0;
	__atomic_store_n(sq_tail, *sq_tail + 1, __ATOMIC_RELEASE);
	r = syscall(__NR_io_uring_enter, fd, 1, 0, 0, NULL, 0);
	if (r != 1)
		die("io_uring_enter (submit)");
	if (puts("ready") == EOF || fflush(stdout) == EOF)
		die("stdout");
	/* wait for a completion that never comes: the recv stays armed */
	for (;;) {
		r = syscall(__NR_io_uring_enter, fd, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0);
		if (r < 0 && errno != EINTR)
			die("io_uring_enter (wait)");
	}
}
