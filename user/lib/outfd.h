/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * outfd.h - lines written to an fd whose reader may stop reading: stdout
 * into a pipe nobody drains, a frozen journald, a terminal under XOFF.
 *
 * A blocking write there would hold the event loop for as long as the
 * reader sleeps: no transition printed, no freeze, no watchdog, and a
 * stop that cannot run its cleanup. So a line gets a bounded wait
 * (HK_OUTFD_WAIT_MS) and is dropped, whole, when it is up; while the
 * output stays stalled the next lines are tried without waiting, until
 * one goes through. A line is never torn: what did not fit of a line
 * begun is kept and written before the next one.
 *
 * The fd itself is never made non-blocking: its open file is shared with
 * others (the shell's terminal, the service manager's socket). A pipe,
 * FIFO or terminal is opened again, non-blocking, through /proc/self/fd;
 * a socket is written with MSG_DONTWAIT; a regular file as it is.
 * SIGPIPE must be ignored (the tool does): a reader gone is -EPIPE.
 */
#ifndef HK_USER_OUTFD_H
#define HK_USER_OUTFD_H

#include <stddef.h>
#include <sys/uio.h>

/* How long a line waits for a stalled reader before it is dropped. */
#define HK_OUTFD_WAIT_MS 1000

struct hk_outfd {
	int fd;			/* what is written to; -1: not open */
	int own;		/* fd was opened here: closed by close() */
	int sock;		/* send(MSG_DONTWAIT) */
	int poll_first;		/* a blocking fd that could not be opened
				 * again: poll, then at most PIPE_BUF bytes */
	int stalled;		/* the last line could not be written */
	int wait_ms;		/* HK_OUTFD_WAIT_MS; a test may shorten it */
	char *rest;		/* of a line cut short, written first */
	size_t rest_len;
	size_t rest_cap;
};

/* Prepare fd for writing lines. 0, or -errno. */
int hk_outfd__open(struct hk_outfd *o, int fd);

/*
 * Write one line made of iovcnt pieces (at most 4): 1 written (or begun,
 * its rest kept for the next write or flush), 0 dropped whole because
 * the output is stalled, -errno when the write failed (-EPIPE: the reader
 * went away).
 */
int hk_outfd__write(struct hk_outfd *o, const struct iovec *iov, int iovcnt);

/* Write what is kept of a line begun, without waiting: 0 done (or
 * nothing kept), -EAGAIN still stalled, another -errno. */
int hk_outfd__flush(struct hk_outfd *o);

void hk_outfd__close(struct hk_outfd *o);

#endif /* HK_USER_OUTFD_H */
