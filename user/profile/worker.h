/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * worker.h - a job run in a forked child with a memory cap and a time
 * budget, its result read back through a pipe, so that a job fed by
 * input others control (a profile's symbols) can neither stall nor bloat
 * the process that prints alarms.
 *
 * The parent polls (hk_worker__poll, from its event loop): nothing ever
 * blocks on the child but hk_worker__wait, which the one-shot commands
 * and the tool's exit use, and that is bounded by the budget too.
 */
#ifndef HK_USER_WORKER_H
#define HK_USER_WORKER_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

/* The result a job sends back: fixed size, at most PIPE_BUF (one write). */
#define HK_WORKER_MSG_MAX 4096

struct hk_worker_limits {
	const char *name;	/* the child's comm (15 bytes shown) */
	__u64 as_bytes;		/* RLIMIT_AS: this much over the address space at fork */
	__u64 budget_ns;	/* wall clock; killed (SIGKILL) past it */
	int nice;		/* added to the child's nice value */
	const int *keep_fds;	/* fds the job needs besides 0-2 and its pipe */
	size_t nkeep;
};

/*
 * The job, in the child: fill msg (msg_len bytes, zeroed) with its result.
 * Its return value is the child's exit status (0: msg is the result).
 */
typedef int (*hk_worker_fn)(void *arg, void *msg, size_t msg_len);

struct hk_worker {
	pid_t pid;		/* 0: none runs */
	int fd;			/* the pipe's read end */
	__u64 deadline_ns;	/* CLOCK_MONOTONIC */
	__u64 budget_ns;
	int killed;		/* we killed it past its deadline */
	size_t msg_len, got;
	unsigned char msg[HK_WORKER_MSG_MAX];
	__u64 maxrss_kib;	/* its peak RSS, once it ended */
};

/*
 * Fork a child that runs fn(arg) under the limits: it lets go of every
 * BPF object, perf event, epoll, signalfd and pidfd it inherited (but the
 * fds in keep_fds), dies with its parent (PR_SET_PDEATHSIG), and returns
 * with _exit (the parent's stdio buffers are not flushed twice).
 * 0, or -1 with one line in err (nothing runs).
 */
int hk_worker__start(struct hk_worker *w, const struct hk_worker_limits *l,
		     hk_worker_fn fn, void *arg, size_t msg_len, char *err, size_t err_len);

/*
 * Has the job ended? 0: it runs (it is killed here once past its
 * deadline); 1: it ended and was reaped: msg holds its result, or -1:
 * it ended without one, why in err ("took over 30 s: killed", "killed
 * by signal 9", "exited 3 without a result"). Never blocks.
 */
int hk_worker__poll(struct hk_worker *w, void *msg, size_t msg_len, char *err,
		    size_t err_len);

/* Poll until the job ends (at the latest its deadline and a kill): 1 or -1 as poll. */
int hk_worker__wait(struct hk_worker *w, void *msg, size_t msg_len, char *err,
		    size_t err_len);

/* ms until the job's deadline, 0 once past; -1: none runs. */
int hk_worker__timeout_ms(const struct hk_worker *w);

/* Kill the job now (SIGKILL): the next poll says "stopped". */
void hk_worker__kill(struct hk_worker *w);

#endif /* HK_USER_WORKER_H */
