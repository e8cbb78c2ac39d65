// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rundir.c - the state directory a restarted tool reads (rundir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "msg.h"
#include "rundir.h"

int hk_rundir__open(struct hk_safedir *d, const char *path, char *err, size_t err_len)
{
	char warn[256];
	struct stat st;

	d->fd = -1;
	if (mkdir(path, 0700) && errno != EEXIST)
		return hk_msg__fail(err, err_len, "%s: %s", path, strerror(errno));
	/* a symlink planted before we first ran is not our directory */
	if (lstat(path, &st))
		return hk_msg__fail(err, err_len, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return hk_msg__fail(err, err_len, "%s is not a directory (a symlink?): remove it",
				    path);
	if (st.st_uid != geteuid() || (st.st_mode & 077))
		return hk_msg__fail(err, err_len, "%s belongs to uid %u, mode %04o: it should be "
				    "uid %u's, mode 0700 (remove it and hotspot-k makes it anew)",
				    path, (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777),
				    (unsigned int)geteuid());
	if (hk_safefile__dir_open(d, path, warn, sizeof(warn), err, err_len))
		return -1;
	return 0;
}

int hk_rundir__put(const struct hk_safedir *d, const char *name, const char *text, size_t len)
{
	char tmp[256];
	int fd, e;

	fd = hk_safefile__create(d, name, 0600, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	e = hk_safefile__write_all(fd, text, len);
	if (e) {
		hk_safefile__abort(d, fd, tmp);
		return e;
	}
	return hk_safefile__commit(d, fd, tmp, name);
}

int hk_rundir__get(const struct hk_safedir *d, const char *name, char *buf, size_t len)
{
	struct stat st;
	size_t off = 0;
	ssize_t n;
	int fd, e = 0;

	if (!len)
		return -EINVAL;
	fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		e = -errno;
	else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		e = -EPERM;
	while (!e && off < len - 1) {
		n = read(fd, buf + off, len - 1 - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e = -errno;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	return e ? e : (int)off;
}

int hk_rundir__drop(const struct hk_safedir *d, const char *name)
{
	if (unlinkat(d->fd, name, 0) && errno != ENOENT)
		return -errno;
	return 0;
}
