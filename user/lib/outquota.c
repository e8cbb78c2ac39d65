// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * outquota.c - a byte quota on the files the tool writes into a directory
 * (outquota.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outquota.h"

struct entry {
	char *name;
	__u64 bytes;
	struct timespec mtime;
};

static int older_first(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	if (a->mtime.tv_sec != b->mtime.tv_sec)
		return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
	if (a->mtime.tv_nsec != b->mtime.tv_nsec)
		return a->mtime.tv_nsec < b->mtime.tv_nsec ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int listed(const char *name, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* One of q's files by its name alone. */
static int named_so(const struct hk_outquota *q, const char *name)
{
	size_t n = strlen(name), k = strlen(q->prefix), i, s;

	if (strncmp(name, q->prefix, k))
		return 0;
	for (i = 0; i < q->nsuffixes; i++) {
		s = strlen(q->suffixes[i]);
		if (n > k + s && !strcmp(name + n - s, q->suffixes[i]))
			return 1;
	}
	return 0;
}

/* q's files in d, into *out (n of them); their bytes summed in *total. */
static long list(const struct hk_safedir *d, const struct hk_outquota *q, struct entry **out,
		 __u64 *total)
{
	struct entry *e = NULL, *grown;
	size_t n = 0, cap = 0;
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int fd;

	fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	*total = 0;
	while ((de = readdir(dir)) && n < HK_OUTQUOTA_MAX_FILES) {
		if (!named_so(q, de->d_name) ||
		    fstatat(d->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(e, cap * sizeof(*e));
			if (!grown)
				break;
			e = grown;
		}
		e[n].name = strdup(de->d_name);
		if (!e[n].name)
			break;
		e[n].bytes = (__u64)st.st_size;
		e[n].mtime = st.st_mtim;
		*total += e[n].bytes;
		n++;
	}
	closedir(dir);
	*out = e;
	return (long)n;
}

long hk_outquota__trim(const struct hk_safedir *d, const struct hk_outquota *q,
		       __u64 *removed_bytes)
{
	struct entry *e = NULL;
	__u64 total = 0, gone = 0;
	long n, i, removed = 0;

	n = list(d, q, &e, &total);
	if (n < 0)
		return n;
	qsort(e, (size_t)n, sizeof(*e), older_first);
	for (i = 0; i < n && total > q->max_bytes; i++) {
		if (listed(e[i].name, q->keep, q->nkeep) || unlinkat(d->fd, e[i].name, 0))
			continue;
		total -= e[i].bytes;
		gone += e[i].bytes;
		removed++;
	}
	for (i = 0; i < n; i++)
		free(e[i].name);
	free(e);
	if (removed_bytes)
		*removed_bytes = gone;
	return removed;
}
