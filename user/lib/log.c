// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * log.c - the tool's own messages on stderr, with their syslog priority
 * when stderr is the journal.
 *
 * stderr may stall as stdout can (under the unit both are the journal's
 * socket: a frozen journald holds both), so a line is written as the
 * transitions are (outfd.h): a bounded wait, then dropped whole. One line
 * at a time, from the event loop or from the stop guard's thread
 * (stopguard.h), each formatted first and written with one call.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "log.h"
#include "outfd.h"

/* The longest message: an error quoting a path of PATH_MAX, and more. */
#define HK_LOG_LINE_MAX 16384
/* A writer holds the lock for a bounded write at most (outfd.h): longer,
 * and the line is dropped rather than wait on it. */
#define HK_LOG_LOCK_WAIT_S 3

static int log_journal;
static hk_log_send_fn *log_send;
static void *log_send_arg;
/* per thread: the stop guard's may say the summary while the loop logs */
static __thread int log_kind = -1;
static int log_out_open;
static struct hk_outfd log_out;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void hk_log__init(int journal)
{
	log_journal = journal;
	if (!log_out_open && !hk_outfd__open(&log_out, STDERR_FILENO))
		log_out_open = 1;
}

static void write_line(const char *buf, size_t n)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = n };
	ssize_t w;

	if (log_out_open) {
		hk_outfd__write(&log_out, &iov, 1);
		return;
	}
	/* not set up (a command that never calls init): as stdio would */
	while (n) {
		w = write(STDERR_FILENO, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

void hk_log__set_send(hk_log_send_fn *send, void *arg)
{
	log_send_arg = arg;
	log_send = send;
}

void hk_log__kind(int kind)
{
	log_kind = kind;
}

void hk_log__print(enum hk_log_prio prio, const char *fmt, ...)
{
	int kind = log_kind;
	char buf[HK_LOG_LINE_MAX];
	struct timespec until;
	size_t n = 0, prefix;
	va_list ap;
	int m;

	if (log_journal)
		n = (size_t)snprintf(buf, sizeof(buf), "<%d>", prio);
	prefix = n;
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "hotspot-k: ");
	va_start(ap, fmt);
	m = vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	if ((size_t)m >= sizeof(buf) - n) {
		/* cut: still one line */
		n = sizeof(buf) - 1;
		buf[n - 1] = '\n';
	} else {
		n += (size_t)m;
	}
	if (kind >= 0 && log_send) {
		/* what the send says of itself is stderr's alone */
		log_kind = -1;
		m = log_send(log_send_arg, kind, prio, buf + prefix, n - prefix);
		log_kind = kind;
		/* the journal that stderr is has it already, with its fields */
		if (!m && log_journal)
			return;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += HK_LOG_LOCK_WAIT_S;
	if (pthread_mutex_timedlock(&log_lock, &until))
		return;
	write_line(buf, n);
	pthread_mutex_unlock(&log_lock);
}
