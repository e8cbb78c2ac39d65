// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_owners.c - decide, the uid rule: whose processes a cgroup holds.
 *
 * A freeze stops every process of the cgroup and of the cgroups below it,
 * not only the one that leaks. Many services run code for several users
 * in one cgroup (Debian's cron.service holds every user's cron jobs, atd
 * its jobs, php-fpm its pools): one user's leak there must not stop the
 * others. So a cgroup is frozen only when every process in its subtree
 * runs as the leaking process's uid, all four of them (real, effective,
 * saved, filesystem: a set-user-ID passwd holding /etc's lock is root's
 * for this); root's leak in a cgroup of root's processes may be frozen.
 * What cannot be read (a file, a process of another PID namespace, which
 * cgroup.procs shows as 0) is a cgroup the rule cannot clear: refused.
 *
 * Reading one /proc/PID/status costs about 10 us: HK_FREEZE_MEMBERS_MAX
 * (4096) processes are 40 ms, in the event loop; beyond, the cgroup is
 * refused rather than the loop stalled. So is a subtree of more than
 * HK_FREEZE_CGROUPS_MAX (1024) cgroups: a user with a delegated subtree
 * makes thousands of empty ones for free (1100 in 0.15 s), and each costs
 * an open, a listing and a read of its cgroup.procs (1101 v1 freezer
 * cgroups walked and read: 0.55 s here; 20 000 would be 10 s, twice per
 * freeze).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "freeze_cgroup.h"
#include "freeze_owners.h"
#include "lib/msg.h"

#define RULE "never frozen with another user's process in it"

int hk_freeze_owners__uids(const char *proc, __u32 pid, __u32 uids[4])
{
	char path[256], buf[4096], *p;
	unsigned int u[4];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%u/status", proc, pid);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	/* Uid: is the ninth line or so, well inside the first 4 KiB */
	n = read(fd, buf, sizeof(buf) - 1);
	e = errno;
	close(fd);
	if (n < 0)
		return e == ENOENT ? -ESRCH : -e;
	buf[n] = '\0';
	p = strstr(buf, "\nUid:");
	if (!p || sscanf(p + 5, "%u %u %u %u", &u[0], &u[1], &u[2], &u[3]) != 4)
		return -EIO;
	memcpy(uids, u, sizeof(u));
	return 0;
}

struct walk {
	const char *proc;
	__u32 uid;
	unsigned int seen;		/* processes read */
	unsigned int cgroups;		/* cgroups read */
	const char *rel;		/* the cgroup checked */
	char path[HK_FREEZE_PATH_MAX];	/* the cgroup being read, for messages */
	char *why;
	size_t why_len;
};

/* One process of the cgroup at w->path: 0 it is uid's (or gone), else -1. */
static int member(struct walk *w, __u32 pid)
{
	__u32 uids[4];
	int e, i;

	if (!pid)
		return hk_msg__fail(w->why, w->why_len, "%s holds a process outside "
				    "hotspot-k's PID namespace (pid 0 in its cgroup.procs), whose "
				    "uid cannot be told: " RULE, w->path);
	if (++w->seen > HK_FREEZE_MEMBERS_MAX)
		return hk_msg__fail(w->why, w->why_len, "%s holds more than %d processes, too "
				    "many to check that each is uid %u's: " RULE, w->path,
				    HK_FREEZE_MEMBERS_MAX, w->uid);
	e = hk_freeze_owners__uids(w->proc, pid, uids);
	/* gone since the list was read: not in it any more */
	if (e == -ESRCH)
		return 0;
	if (e)
		return hk_msg__fail(w->why, w->why_len, "cannot tell whose pid %u in %s is "
				    "(%s/%u/status: %s): " RULE, pid, w->path, w->proc, pid,
				    strerror(-e));
	if (uids[0] != w->uid)
		return hk_msg__fail(w->why, w->why_len, "%s holds pid %u of uid %u beside uid "
				    "%u's leak: " RULE, w->path, pid, uids[0], w->uid);
	for (i = 1; i < 4; i++)
		if (uids[i] != w->uid)
			return hk_msg__fail(w->why, w->why_len, "%s holds pid %u of uid %u "
					    "running as uid %u (set-user-ID) beside uid %u's leak: "
					    RULE, w->path, pid, uids[0], uids[i], w->uid);
	return 0;
}

/* Every PID of cgroup.procs of the cgroup at fd through member(). */
static int members(struct walk *w, int fd)
{
	char buf[4096], num[16];
	size_t len = 0;
	ssize_t n, i;
	int pfd, e = 0;

	pfd = openat(fd, "cgroup.procs", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (pfd < 0)
		return hk_msg__fail(w->why, w->why_len, "cannot tell whose processes %s holds "
				    "(cgroup.procs: %s): " RULE, w->path, strerror(errno));
	while (!e) {
		n = read(pfd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = hk_msg__fail(w->why, w->why_len, "cannot tell whose processes %s "
					 "holds (cgroup.procs: %s): " RULE, w->path,
					 strerror(errno));
			break;
		}
		/* a number may span two reads: carried over in num */
		for (i = 0; i < n && !e; i++) {
			if (buf[i] >= '0' && buf[i] <= '9' && len < sizeof(num) - 1) {
				num[len++] = buf[i];
				continue;
			}
			if (buf[i] != '\n' || !len) {
				e = hk_msg__fail(w->why, w->why_len, "%s: cgroup.procs is not a "
						 "list of PIDs: " RULE, w->path);
				break;
			}
			num[len] = '\0';
			len = 0;
			e = member(w, (__u32)strtoul(num, NULL, 10));
		}
		if (!n)
			break;
	}
	close(pfd);
	if (!e && len)
		e = hk_msg__fail(w->why, w->why_len, "%s: cgroup.procs is not a list of PIDs: "
				 RULE, w->path);
	return e;
}

/* The cgroup at fd (w->path) and each below it, depth levels down. */
static int subtree(struct walk *w, int fd, int depth)
{
	struct dirent *d;
	size_t at;
	DIR *dir;
	int cfd, dfd, e;

	if (++w->cgroups > HK_FREEZE_CGROUPS_MAX)
		return hk_msg__fail(w->why, w->why_len, "%s holds more than %d cgroups, too "
				    "many to check that each process is uid %u's: " RULE, w->rel,
				    HK_FREEZE_CGROUPS_MAX, w->uid);
	if (members(w, fd))
		return -1;
	if (depth >= HK_FREEZE_DEPTH_MAX)
		return hk_msg__fail(w->why, w->why_len, "%s is nested more than %d levels "
				    "deep, too deep to check that each process is uid %u's: " RULE,
				    w->path, HK_FREEZE_DEPTH_MAX, w->uid);
	dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!dir) {
		if (dfd >= 0)
			close(dfd);
		return hk_msg__fail(w->why, w->why_len, "cannot list the cgroups below %s (%s): "
				    RULE, w->path, strerror(errno));
	}
	at = strlen(w->path);
	e = 0;
	while (!e && (errno = 0, d = readdir(dir)) != NULL) {
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (d->d_type != DT_DIR && (d->d_type != DT_UNKNOWN ||
		    fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode)))
			continue;
		cfd = openat(fd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		snprintf(w->path + at, sizeof(w->path) - at, "%s%s",
			 at == 1 && w->path[0] == '/' ? "" : "/", d->d_name);
		if (cfd < 0) {
			/* removed since it was listed: nobody in it any more */
			if (errno != ENOENT)
				e = hk_msg__fail(w->why, w->why_len, "cannot read %s (%s): " RULE,
						 w->path, strerror(errno));
		} else {
			e = subtree(w, cfd, depth + 1);
			close(cfd);
		}
		w->path[at] = '\0';
	}
	if (!e && errno)
		e = hk_msg__fail(w->why, w->why_len, "cannot list the cgroups below %s (%s): "
				 RULE, w->path, strerror(errno));
	closedir(dir);
	return e;
}

int hk_freeze_owners__check(int fd, const char *rel, const char *proc, __u32 uid, char *why,
			    size_t why_len)
{
	struct walk *w = malloc(sizeof(*w));
	int e;

	if (!w)
		return hk_msg__fail(why, why_len, "out of memory checking whose processes %s "
				    "holds", rel);
	w->proc = proc;
	w->uid = uid;
	w->seen = 0;
	w->cgroups = 0;
	w->rel = rel;
	w->why = why;
	w->why_len = why_len;
	snprintf(w->path, sizeof(w->path), "%s", rel);
	e = subtree(w, fd, 0);
	free(w);
	return e;
}
