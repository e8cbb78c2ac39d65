// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * safefile.c - files root writes where others may write too (safefile.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "msg.h"
#include "safefile.h"

int hk_safefile__dir_open(struct hk_safedir *d, const char *path, char *warn, size_t warn_len,
			  char *err, size_t err_len)
{
	char q[HK_QUOTE_BUF];
	int fd;

	/* O_PATH would open a FIFO's name too; O_DIRECTORY refuses all but
	 * a directory, and never blocks */
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		d->fd = -1;
		return hk_msg__fail(err, err_len, "%s: %s", hk_msg__quote(q, sizeof(q), path),
				    strerror(errno));
	}
	return hk_safefile__dir_adopt(d, fd, path, warn, warn_len, err, err_len);
}

int hk_safefile__dir_adopt(struct hk_safedir *d, int fd, const char *path, char *warn,
			   size_t warn_len, char *err, size_t err_len)
{
	char q[HK_QUOTE_BUF];
	struct stat st;

	d->fd = fd;
	if (warn_len)
		warn[0] = '\0';
	snprintf(d->path, sizeof(d->path), "%s", path);
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

/* A new file with no name in d (O_TMPFILE): a writer killed before it is
 * named leaves nothing. -EOPNOTSUPP where the filesystem has none. */
static int create_unnamed(const struct hk_safedir *d, mode_t mode)
{
	int fd = openat(d->fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	struct stat st;
	int e = -errno;

	if (fd >= 0)
		return fd;
	/* EISDIR: a kernel before 3.11 reads O_TMPFILE as O_DIRECTORY */
	if (e == -EOPNOTSUPP || e == -EISDIR || e == -EINVAL)
		return -EOPNOTSUPP;
	/* a removed directory says EPERM here, ENOENT to a named create */
	if (!fstat(d->fd, &st) && !st.st_nlink)
		return -ENOENT;
	return e;
}

/* A random name for name ('.', name, '.', 16 hex, ".tmp") into tmp. */
static int tmp_name(const char *name, char *tmp, size_t tmp_len)
{
	unsigned long long r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		return -EAGAIN;
	if ((size_t)snprintf(tmp, tmp_len, ".%s.%016llx.tmp", name, r) >= tmp_len ||
	    strlen(tmp) > NAME_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int hk_safefile__create(const struct hk_safedir *d, const char *name, mode_t mode, char *tmp,
			size_t tmp_len)
{
	int i, fd, e;

	if (d->fd < 0)
		return -EBADF;
	/* the final name must fit with a temporary one: the fallback of commit */
	e = tmp_name(name, tmp, tmp_len);
	if (e)
		return e;
	fd = create_unnamed(d, mode);
	if (fd != -EOPNOTSUPP) {
		if (fd >= 0)
			tmp[0] = '\0';	/* no name: nothing to remove */
		return fd;
	}
	/* a name nobody can guess: a planted one is simply never met; and
	 * should it be, O_EXCL fails rather than open it */
	for (i = 0; i < 8; i++) {
		if (i && (e = tmp_name(name, tmp, tmp_len)))
			return e;
		fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/*
 * Give fd's unnamed file a name in d: through /proc (no capability
 * needed), else AT_EMPTY_PATH (CAP_DAC_READ_SEARCH). Never replaces a
 * name: -EEXIST.
 */
static int link_unnamed(const struct hk_safedir *d, int fd, const char *name)
{
	char proc[64];
	int e;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, d->fd, name, AT_SYMLINK_FOLLOW))
		return 0;
	e = -errno;
	if (e == -EEXIST)
		return e;
	/* no /proc: the other way; failing too, the first reason is the one */
	return linkat(fd, "", d->fd, name, AT_EMPTY_PATH) ? e : 0;
}

/*
 * An unnamed file named: straight at name when it is free, the usual case
 * (no moment when a kill could leave a temporary name); over whatever
 * holds name otherwise, through a random name renamed over it (rename
 * replaces a planted name itself, never what it points to).
 */
static int commit_unnamed(const struct hk_safedir *d, int fd, const char *name, char *tmp,
			  size_t tmp_len)
{
	int e = link_unnamed(d, fd, name), i;

	for (i = 0; e == -EEXIST && i < 8; i++) {
		e = tmp_name(name, tmp, tmp_len);
		if (e)
			return e;
		e = link_unnamed(d, fd, tmp);
		if (e == -EEXIST)
			continue;
		if (!e && renameat(d->fd, tmp, d->fd, name)) {
			e = -errno;
			unlinkat(d->fd, tmp, 0);
		}
		return e;
	}
	return e;
}

int hk_safefile__commit(const struct hk_safedir *d, int fd, const char *tmp, const char *name)
{
	char again[NAME_MAX + HK_SAFEFILE_TMP_EXTRA + 1];
	int e = 0;

	if (fsync(fd))
		e = -errno;
	if (!e && !tmp[0])
		e = commit_unnamed(d, fd, name, again, sizeof(again));
	if (close(fd) && !e)
		e = -errno;
	if (!e && tmp[0] && renameat(d->fd, tmp, d->fd, name))
		e = -errno;
	if (e && tmp[0])
		unlinkat(d->fd, tmp, 0);
	return e;
}

void hk_safefile__abort(const struct hk_safedir *d, int fd, const char *tmp)
{
	if (fd >= 0)
		close(fd);
	if (tmp[0])
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

/* name is ".<stem>...<16 hex>.tmp": a temporary name create() made */
static int is_tmp_name(const char *name, const char *stem)
{
	size_t n = strlen(name), k = strlen(stem), i;

	if (n < 1 + k + 21 || name[0] != '.' || strncmp(name + 1, stem, k) ||
	    strcmp(name + n - 4, ".tmp") || name[n - 21] != '.')
		return 0;
	for (i = n - 20; i < n - 4; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return 0;
	return 1;
}

int hk_safefile__sweep(const struct hk_safedir *d, const char *name, time_t older_s)
{
	char stem[NAME_MAX + 1];
	const char *dot = strchr(name, '.');
	struct dirent *e;
	struct stat st;
	time_t now = time(NULL);
	int fd, n = 0;
	DIR *dir;

	if (d->fd < 0)
		return 0;
	snprintf(stem, sizeof(stem), "%.*s", dot ? (int)(dot - name + 1) : (int)strlen(name),
		 name);
	fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return 0;
	}
	while ((e = readdir(dir))) {
		if (!is_tmp_name(e->d_name, stem) ||
		    fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		/* ours alone, one name, and untouched past any writer's life */
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1 ||
		    st.st_mtime > now - older_s)
			continue;
		n += !unlinkat(d->fd, e->d_name, 0);
	}
	closedir(dir);
	return n;
}
