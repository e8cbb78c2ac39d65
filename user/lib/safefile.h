/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * safefile.h - files root writes where others may write too.
 *
 * hotspot-k runs as root and writes into directories an admin names
 * (--profile-dir, --prometheus's textfile directory), which other users
 * may be able to write (a group-shared directory, /tmp, the exporter's
 * own directory). Whatever someone plants there under a name root will
 * use (a symlink to /etc/shadow, a FIFO, a hard link) must not be
 * followed, opened or blocked on. So every file is created anew under a
 * random name with O_CREAT|O_EXCL|O_NOFOLLOW|O_NONBLOCK, relative to a
 * directory opened and checked once, then renamed over its final name
 * (rename replaces a planted name itself, never what it points to).
 * Control files that must exist already (cgroup.freeze, a sysctl) are
 * opened without O_CREAT and never through a symlink.
 */
#ifndef HK_USER_SAFEFILE_H
#define HK_USER_SAFEFILE_H

#include <stddef.h>
#include <time.h>
#include <sys/types.h>

/* A directory opened once; every file goes in relative to its fd. */
struct hk_safedir {
	int fd;			/* -1: not open */
	uid_t owner;
	gid_t group;
	mode_t mode;
	char path[4096];	/* as given, for messages */
};

/* Bytes a temporary name adds to the final one ('.', 16 hex, ".tmp"). */
#define HK_SAFEFILE_TMP_EXTRA	32

/*
 * Open path, a directory, to write files into. Refused (-1, one line in
 * err): not a directory, or writable by group or others without the
 * sticky bit (anyone there could replace or remove what is written).
 * Accepted with a warning in warn (warn[0] set, else ""): a directory
 * owned by another user than root and us, who can replace what is
 * written there (the files are still created safely).
 */
int hk_safefile__dir_open(struct hk_safedir *d, const char *path, char *warn, size_t warn_len,
			  char *err, size_t err_len);

/* The same checks on fd, a directory path names, opened by the caller
 * (pathwalk.h); d takes fd, closed when refused. */
int hk_safefile__dir_adopt(struct hk_safedir *d, int fd, const char *path, char *warn,
			   size_t warn_len, char *err, size_t err_len);

void hk_safefile__dir_close(struct hk_safedir *d);

/*
 * A new, empty regular file in d for name, with mode (umask applies):
 * with no name at all (O_TMPFILE: a writer killed before commit() leaves
 * nothing; tmp set to ""), or, where the filesystem has none, under a
 * random temporary name (into tmp, tmp_len >= strlen(name) +
 * HK_SAFEFILE_TMP_EXTRA). The fd, or -errno.
 */
int hk_safefile__create(const struct hk_safedir *d, const char *name, mode_t mode, char *tmp,
			size_t tmp_len);

/*
 * Make fd's file name in d: fsync, then link it at name (an unnamed file)
 * or rename tmp over name; whatever holds name is replaced, never
 * followed. 0, or -errno with the temporary file removed (fd is closed
 * either way).
 */
int hk_safefile__commit(const struct hk_safedir *d, int fd, const char *tmp, const char *name);

/*
 * Remove the temporary files a writer killed before commit() left in d
 * (where the filesystem has no O_TMPFILE, or from an older hotspot-k):
 * names create() makes for names like name (the same stem, up to name's
 * first '.'), regular files of ours with one link, unmodified for
 * older_s seconds (past any writer's budget). By name relative to d,
 * never through a symlink. How many were removed.
 */
int hk_safefile__sweep(const struct hk_safedir *d, const char *name, time_t older_s);

/* Give up on a file create() made: close fd, remove tmp. */
void hk_safefile__abort(const struct hk_safedir *d, int fd, const char *tmp);

/* Write all of buf[0..len) to fd: 0, or -errno. */
int hk_safefile__write_all(int fd, const void *buf, size_t len);

/*
 * Write text into an existing control file (cgroup.freeze, a sysctl):
 * never created, never through a symlink, never blocking on a FIFO, and
 * only a regular file. 0, or -errno (-ENOENT: it is not there).
 */
int hk_safefile__write_ctl(const char *path, const char *text);

#endif /* HK_USER_SAFEFILE_H */
