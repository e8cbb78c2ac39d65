// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * postmortem_dir.c - the post-mortem records' files (postmortem.h):
 * STATE/oom/UNIX_S-PID.json, written whole or not at all (a temporary file
 * renamed, or an unnamed one linked: safefile.h), 0600, in a directory of
 * root's that nobody else can write (docs/security.md): each step relative
 * to its fd, never through a symlink. At most `keep` of them: the oldest
 * (by name: the kill's second, then the PID) go first. `status` reads each
 * file's first HK_PM_HEAD_MAX bytes for its line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/msg.h"
#include "lib/rundir.h"
#include "postmortem_dir.h"

int hk_pm_dir__open(struct hk_safedir *d, const char *path, bool create, char *err,
		    size_t err_len)
{
	char sub[4096];

	d->fd = -1;
	if (snprintf(sub, sizeof(sub), "%s/%s", path, HK_PM_SUBDIR) >= (int)sizeof(sub))
		return hk_msg__fail(err, err_len, "%s: name too long", path);
	/* the state directory first: root's, 0700, so that nobody else can
	 * have planted anything where its subdirectory goes */
	if (create && hk_rundir__open(d, path, err, err_len))
		return -1;
	hk_safefile__dir_close(d);
	return hk_rundir__open(d, sub, err, err_len);
}

/* UNIX_S-PID.json: 1 with both numbers, else 0 (another file: let be). */
static int parse_name(const char *name, long long *unix_s, unsigned int *pid)
{
	char end[8];

	return sscanf(name, "%lld-%u.jso%1[n]%c", unix_s, pid, end, end + 1) == 3 && *unix_s >= 0;
}

struct entry {
	long long unix_s;
	unsigned int pid;
	char name[64];
};

/* Newest first. */
static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->unix_s != y->unix_s)
		return x->unix_s < y->unix_s ? 1 : -1;
	return x->pid < y->pid ? 1 : x->pid > y->pid ? -1 : 0;
}

/* The records in dir_fd, newest first (malloc'd into *out): how many, or
 * -errno. dir_fd stays open. */
static int entries(int dir_fd, struct entry **out)
{
	struct entry *e = NULL, *grown;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir;
	int fd = dup(dir_fd);

	*out = NULL;
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -errno;
	}
	rewinddir(dir);
	while ((de = readdir(dir))) {
		struct entry x;

		if (!parse_name(de->d_name, &x.unix_s, &x.pid) ||
		    strlen(de->d_name) >= sizeof(x.name))
			continue;
		strcpy(x.name, de->d_name);
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(e, cap * sizeof(*e));
			if (!grown) {
				free(e);
				closedir(dir);
				return -ENOMEM;
			}
			e = grown;
		}
		e[n++] = x;
	}
	closedir(dir);
	if (n)
		qsort(e, n, sizeof(*e), entry_cmp);
	*out = e;
	return (int)n;
}

int hk_pm_dir__write(const struct hk_safedir *d, __s64 unix_s, __u32 pid, const char *text,
		     size_t len, unsigned int keep)
{
	struct entry *e;
	char name[64];
	int err, n, i;

	snprintf(name, sizeof(name), "%lld-%u.json", (long long)unix_s, pid);
	/* 0600, whole or not at all, a name's symlink replaced (rundir.h) */
	err = hk_rundir__put(d, name, text, len);
	if (err)
		return err;
	n = entries(d->fd, &e);
	for (i = (int)keep; i < n; i++)
		unlinkat(d->fd, e[i].name, 0);
	free(e);
	return n < 0 ? n : 0;
}

/* What `status` shows of a record: its head, parsed. */
struct head {
	unsigned int pid;
	char comm[HK_COMM_LEN * 6 + 1];	/* as JSON escaped it */
	long long unix_s;
	bool flagged;
};

/* The record's head: 0, or -1 when it is not one (left out, not fatal). */
static int read_head(int dir_fd, const char *name, struct head *h)
{
	char buf[HK_PM_HEAD_MAX + 1], *p, *q;
	struct stat st;
	ssize_t n;
	size_t i = 0;
	int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return -1;
	}
	n = read(fd, buf, HK_PM_HEAD_MAX);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "{\"version\":1,\"pid\":%u,\"comm\":\"", &h->pid) != 1)
		return -1;
	p = strstr(buf, ",\"comm\":\"");
	if (!p)
		return -1;
	/* the comm as JSON wrote it, up to its closing quote */
	for (p += 9; *p && *p != '"' && i < sizeof(h->comm) - 1; p++) {
		if (*p == '\\' && p[1])
			h->comm[i++] = *p++;
		if (i < sizeof(h->comm) - 1)
			h->comm[i++] = *p;
	}
	h->comm[i] = '\0';
	if (*p != '"')
		return -1;
	q = strstr(p, ",\"killed_unix_s\":");
	if (!q || sscanf(q, ",\"killed_unix_s\":%lld", &h->unix_s) != 1)
		return -1;
	q = strstr(q, ",\"flagged\":");
	if (!q)
		return -1;
	h->flagged = !strncmp(q + 11, "true", 4);
	return 0;
}

/* The newest records' heads, into heads (at most HK_PM_LIST_MAX): how many
 * (0 with no directory), or -1 with why. */
static int newest(const char *path, struct head *heads, char (*names)[64], char *why,
		  size_t why_len)
{
	char sub[4096];
	struct entry *e;
	struct stat st;
	int fd, n, i, got = 0;

	snprintf(sub, sizeof(sub), "%s/%s", path, HK_PM_SUBDIR);
	fd = open(sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return hk_msg__fail(why, why_len, "%s: %s", sub, strerror(errno));
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return hk_msg__fail(why, why_len, "%s is not root's alone: not read", sub);
	}
	n = entries(fd, &e);
	for (i = 0; i < n && got < HK_PM_LIST_MAX; i++) {
		if (read_head(fd, e[i].name, &heads[got]))
			continue;
		strcpy(names[got], e[i].name);
		got++;
	}
	free(e);
	close(fd);
	if (n < 0)
		return hk_msg__fail(why, why_len, "%s: %s", sub, strerror(-n));
	return got;
}

int hk_pm_dir__text(FILE *f, const char *path, char *why, size_t why_len)
{
	struct head h[HK_PM_LIST_MAX];
	char names[HK_PM_LIST_MAX][64], when[32];
	int n = newest(path, h, names, why, why_len), i;
	struct tm tm;
	time_t t;

	if (n <= 0)
		return n;
	fprintf(f, "\nOOM kills (post-mortems in %s/%s, newest first):\n", path, HK_PM_SUBDIR);
	fprintf(f, "  %-7s %-16s %-20s %-8s %s\n", "PID", "COMM", "KILLED (UTC)", "FLAGGED",
		"FILE");
	for (i = 0; i < n; i++) {
		t = (time_t)h[i].unix_s;
		if (!gmtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm))
			snprintf(when, sizeof(when), "%lld", h[i].unix_s);
		fprintf(f, "  %-7u %-16s %-20s %-8s %s\n", h[i].pid, h[i].comm, when,
			h[i].flagged ? "in time" : "no", names[i]);
	}
	return 0;
}

int hk_pm_dir__json(FILE *f, const char *path, char *why, size_t why_len)
{
	struct head h[HK_PM_LIST_MAX];
	char names[HK_PM_LIST_MAX][64];
	int n = newest(path, h, names, why, why_len), i;

	if (n < 0)
		return -1;
	fputs(",\"postmortems\":[", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s{\"pid\":%u,\"comm\":\"%s\",\"killed_unix_s\":%lld,"
			"\"flagged\":%s,\"file\":\"%s/%s/%s\"}", i ? "," : "", h[i].pid,
			h[i].comm, h[i].unix_s, h[i].flagged ? "true" : "false", path,
			HK_PM_SUBDIR, names[i]);
	fputs("]", f);
	return 0;
}
