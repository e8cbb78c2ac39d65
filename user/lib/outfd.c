// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * outfd.c - lines to an fd whose reader may stop reading, never waited
 * on for long, never torn (outfd.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "clock.h"
#include "outfd.h"

#define OUTFD_IOV_MAX 4

int hk_outfd__open(struct hk_outfd *o, int fd)
{
	struct stat st, again;
	char path[64];
	int flags, nfd;

	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->wait_ms = HK_OUTFD_WAIT_MS;
	if (fstat(fd, &st))
		return -errno;
	if (S_ISSOCK(st.st_mode)) {
		o->sock = 1;
		return 0;
	}
	/* a file or a block device: a write waits for no reader */
	if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
		return 0;
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0 && (flags & O_NONBLOCK))
		return 0;
	/* another open file of the same pipe or terminal, non-blocking for
	 * us alone (O_NOCTTY: never our controlling terminal) */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (nfd >= 0) {
		if (!fstat(nfd, &again) && again.st_dev == st.st_dev &&
		    again.st_ino == st.st_ino) {
			o->fd = nfd;
			o->own = 1;
			return 0;
		}
		close(nfd);
	}
	/* no /proc, a reader gone already (ENXIO): poll before each write */
	o->poll_first = 1;
	return 0;
}

void hk_outfd__close(struct hk_outfd *o)
{
	if (o->own && o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	o->own = 0;
	free(o->rest);
	o->rest = NULL;
	o->rest_len = o->rest_cap = 0;
}

/* One try, never blocking: bytes written, or -1 with errno (EAGAIN). */
static ssize_t try_write(const struct hk_outfd *o, const struct iovec *iov, int cnt)
{
	struct msghdr m = { .msg_iov = (struct iovec *)iov, .msg_iovlen = (size_t)cnt };
	struct pollfd p = { .fd = o->fd, .events = POLLOUT };
	int n;

	if (o->sock)
		return sendmsg(o->fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (!o->poll_first)
		return writev(o->fd, iov, cnt);
	n = poll(&p, 1, 0);
	if (n <= 0) {
		if (!n)
			errno = EAGAIN;
		return -1;
	}
	/* writable means room for PIPE_BUF bytes: no more at once */
	return write(o->fd, iov[0].iov_base, iov[0].iov_len < PIPE_BUF ? iov[0].iov_len :
		     PIPE_BUF);
}

/* The pieces from byte off on, into v: their count. */
static int skip(const struct iovec *iov, int cnt, size_t off, struct iovec *v)
{
	int i, n = 0;

	for (i = 0; i < cnt; i++) {
		if (off >= iov[i].iov_len) {
			off -= iov[i].iov_len;
			continue;
		}
		v[n].iov_base = (char *)iov[i].iov_base + off;
		v[n].iov_len = iov[i].iov_len - off;
		off = 0;
		n++;
	}
	return n;
}

/* All total bytes within wait_ms: 0; -EAGAIN when the time is up (*done
 * bytes went out), another -errno. */
static int write_out(const struct hk_outfd *o, const struct iovec *iov, int cnt,
		     size_t total, int wait_ms, size_t *done)
{
	long long deadline = mono_ms() + wait_ms, left;
	struct iovec v[OUTFD_IOV_MAX];
	struct pollfd p = { .fd = o->fd, .events = POLLOUT };
	ssize_t n;

	*done = 0;
	while (*done < total) {
		n = try_write(o, v, skip(iov, cnt, *done, v));
		if (n > 0) {
			*done += (size_t)n;
			continue;
		}
		if (n == 0)
			return -EIO;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -errno;
		left = deadline - mono_ms();
		if (left <= 0)
			return -EAGAIN;
		poll(&p, 1, (int)left);
	}
	return 0;
}

/* What is kept of a line begun, within wait_ms: 0, -EAGAIN, -errno. */
static int write_rest(struct hk_outfd *o, int wait_ms)
{
	struct iovec v = { .iov_base = o->rest, .iov_len = o->rest_len };
	size_t done;
	int e;

	if (!o->rest_len)
		return 0;
	e = write_out(o, &v, 1, o->rest_len, wait_ms, &done);
	memmove(o->rest, o->rest + done, o->rest_len - done);
	o->rest_len -= done;
	return e;
}

/* Keep the bytes of the pieces from off on: 0, or -ENOMEM. */
static int keep(struct hk_outfd *o, const struct iovec *iov, int cnt, size_t off,
		size_t total)
{
	struct iovec v[OUTFD_IOV_MAX];
	size_t need = total - off;
	int i, n;

	if (need > o->rest_cap) {
		char *grown = realloc(o->rest, need);

		if (!grown)
			return -ENOMEM;
		o->rest = grown;
		o->rest_cap = need;
	}
	n = skip(iov, cnt, off, v);
	o->rest_len = 0;
	for (i = 0; i < n; i++) {
		memcpy(o->rest + o->rest_len, v[i].iov_base, v[i].iov_len);
		o->rest_len += v[i].iov_len;
	}
	return 0;
}

int hk_outfd__write(struct hk_outfd *o, const struct iovec *iov, int iovcnt)
{
	size_t total = 0, done;
	int i, e;

	if (iovcnt < 1 || iovcnt > OUTFD_IOV_MAX)
		return -EINVAL;
	for (i = 0; i < iovcnt; i++)
		total += iov[i].iov_len;
	/* the end of the line before first: never another line inside it */
	e = write_rest(o, o->stalled ? 0 : o->wait_ms);
	if (e == -EAGAIN) {
		o->stalled = 1;
		return 0;
	}
	if (e)
		return e;
	e = write_out(o, iov, iovcnt, total, o->stalled ? 0 : o->wait_ms, &done);
	if (!e) {
		o->stalled = 0;
		return 1;
	}
	if (e != -EAGAIN)
		return e;
	o->stalled = 1;
	if (!done)
		return 0;
	e = keep(o, iov, iovcnt, done, total);
	return e ? e : 1;
}

int hk_outfd__flush(struct hk_outfd *o)
{
	int e;

	if (!o->rest_len)
		return 0;
	e = write_rest(o, 0);
	if (!e)
		o->stalled = 0;
	return e;
}
