// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * metrics_listen.c - --metrics-listen's listening socket (metrics_listen.h).
 * A unix socket's path is a name in a directory other people may use: it
 * is taken over only when it is a socket nobody answers on (a stale one
 * from a killed run), never a file, and removed at the end only when the
 * inode there is still the one bound here.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include "lib/msg.h"
#include "metrics_listen.h"

enum {
	LISTEN_BACKLOG = 16,		/* beyond the 8 served: refused, counted */
};

/* The directory of path may not be swapped under us. */
static int dir_safe(const char *path, char *err, size_t err_len)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const char *slash = strrchr(path, '/');
	struct stat sb;

	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &sb))
		return hk_msg__fail(err, err_len, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return hk_msg__fail(err, err_len, "%s is not a directory", dir);
	if ((sb.st_mode & (S_IWGRP | S_IWOTH)) && !(sb.st_mode & S_ISVTX))
		return hk_msg__fail(err, err_len, "%s can be written by its group or others "
				    "and is not sticky: they could replace the socket; use a "
				    "directory of root's, e.g. /run/hotspot-k", dir);
	return 0;
}

/* Nothing at path, or a stale socket there removed: 0. */
static int unix_clear(const struct hk_metrics_addr *a, const char *path, char *err,
		      size_t err_len)
{
	struct stat sb;
	int fd, r;

	if (lstat(path, &sb))
		return errno == ENOENT ? 0 : hk_msg__fail(err, err_len, "%s: %s", path,
							   strerror(errno));
	if (!S_ISSOCK(sb.st_mode))
		return hk_msg__fail(err, err_len, "%s exists and is not a socket: refused "
				    "(remove it if it is yours to remove)", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return hk_msg__fail(err, err_len, "socket: %s", strerror(errno));
	r = connect(fd, (const struct sockaddr *)&a->sa, a->sa_len);
	close(fd);
	if (!r)
		return hk_msg__fail(err, err_len, "%s: a server answers on it already", path);
	if (errno != ECONNREFUSED)
		return hk_msg__fail(err, err_len, "%s: %s", path, strerror(errno));
	/* a socket nobody listens on: a run that was killed left it */
	if (unlink(path) && errno != ENOENT)
		return hk_msg__fail(err, err_len, "removing the stale socket %s: %s", path,
				    strerror(errno));
	return 0;
}

int hk_metrics_listen__open(struct hk_metrics_sock *s, const struct hk_metrics_addr *a,
			    char *err, size_t err_len)
{
	const char *path = hk_metrics_addr__path(a);
	int fd, on = 1, v6only = !a->dual, e;
	struct stat sb;
	mode_t old;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (path && (dir_safe(path, err, err_len) || unix_clear(a, path, err, err_len)))
		return -1;
	fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return hk_msg__fail(err, err_len, "%s: socket: %s", a->text, strerror(errno));
	/* a restart finds its port in TIME_WAIT; a live listener still wins */
	if (!path)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (a->sa.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	/* no moment at which the file is more open than 0660 */
	old = umask(0117);
	e = bind(fd, (const struct sockaddr *)&a->sa, a->sa_len) ? errno : 0;
	umask(old);
	if (e) {
		close(fd);
		return hk_msg__fail(err, err_len, "%s: %s%s", a->text, strerror(e),
				    e == EADDRINUSE ? " (another exporter on that port?)" : "");
	}
	if (path && (chmod(path, 0660) || lstat(path, &sb))) {
		e = errno;
		unlink(path);
		close(fd);
		return hk_msg__fail(err, err_len, "%s: %s", path, strerror(e));
	}
	if (listen(fd, LISTEN_BACKLOG)) {
		e = errno;
		if (path)
			unlink(path);
		close(fd);
		return hk_msg__fail(err, err_len, "%s: listen: %s", a->text, strerror(e));
	}
	s->fd = fd;
	if (path) {
		s->path = path;
		s->dev = sb.st_dev;
		s->ino = sb.st_ino;
	}
	return 0;
}

void hk_metrics_listen__close(struct hk_metrics_sock *s)
{
	struct stat sb;

	if (s->fd < 0)
		return;
	close(s->fd);
	s->fd = -1;
	if (s->path && !lstat(s->path, &sb) && sb.st_dev == s->dev && sb.st_ino == s->ino)
		unlink(s->path);
}
