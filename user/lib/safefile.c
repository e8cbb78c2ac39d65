// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * safefile.c - files root writes where others may write too (safefile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "msg.h"
#include "safefile.h"

int hk_safefile__dir_open(struct hk_safedir *d, const char *path, char *warn, size_t warn_len,
			  char *err, size_t err_len)
{
	char q[HK_QUOTE_BUF];
	struct stat st;

	d->fd = -1;
	if (warn_len)
		warn[0] = '\0';
	snprintf(d->path, sizeof(d->path), "%s", path);
	/* O_PATH would open a FIFO's name too; O_DIRECTORY refuses all but
	 * a directory, and never blocks */
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
				    strerror(errno));
	if (fstat(d->fd, &st)) {
		int e = errno;

		hk_safefile__dir_close(d);
		return hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
				    strerror(e));
	}
	d->owner = st.st_uid;
	d->group = st.st_gid;
	d->mode = st.st_mode;
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		hk_safefile__dir_close(d);
		return hk_msg__fail(err, err_len, "%s is writable by %s (mode %04o) and not sticky: "
				    "whoever can write there could replace or remove what "
				    "hotspot-k writes; give a directory only its owner can write",
				    hk_msg__quote(q, sizeof(q), path),
				    st.st_mode & S_IWOTH ? "everyone" : "its group",
				    (unsigned int)(st.st_mode & 07777));
	}
	if (st.st_uid != 0 && st.st_uid != geteuid() && warn_len)
		snprintf(warn, warn_len, "%s belongs to uid %u, who can read, replace or remove "
			 "what hotspot-k writes there (files are created safely all the same)",
			 hk_msg__quote(q, sizeof(q), path), (unsigned int)st.st_uid);
	return 0;
}

void hk_safefile__dir_close(struct hk_safedir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int hk_safefile__create(const struct hk_safedir *d, const char *name, mode_t mode, char *tmp,
			size_t tmp_len)
{
	unsigned long long r;
	int i, fd;

	if (d->fd < 0)
		return -EBADF;
	/* a name nobody can guess: a planted one is simply never met; and
	 * should it be, O_EXCL fails rather than open it */
	for (i = 0; i < 8; i++) {
		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
			return -EAGAIN;
		if ((size_t)snprintf(tmp, tmp_len, ".%s.%016llx.tmp", name, r) >= tmp_len)
			return -ENAMETOOLONG;
		fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int hk_safefile__commit(const struct hk_safedir *d, int fd, const char *tmp, const char *name)
{
	int e = 0;

	if (fsync(fd))
		e = -errno;
	if (close(fd) && !e)
		e = -errno;
	if (!e && renameat(d->fd, tmp, d->fd, name))
		e = -errno;
	if (e)
		unlinkat(d->fd, tmp, 0);
	return e;
}

void hk_safefile__abort(const struct hk_safedir *d, int fd, const char *tmp)
{
	if (fd >= 0)
		close(fd);
	unlinkat(d->fd, tmp, 0);
}

int hk_safefile__write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int hk_safefile__write_ctl(const char *path, const char *text)
{
	struct stat st;
	int fd, e;

	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;	/* ELOOP: a symlink; ENXIO: a FIFO nobody reads */
	if (fstat(fd, &st)) {
		e = -errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	e = hk_safefile__write_all(fd, text, strlen(text));
	if (close(fd) && !e)
		e = -errno;
	return e;
}
