// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * oom_memcg.c - an OOM kill's memory cgroup as a path. The victim is gone
 * by the time its line is written, so /proc/PID/cgroup (cgroup_id.c's way
 * up from the process) is no more: the hierarchy is searched instead, for
 * the directory whose inode is the id the kernel gave. Only at an OOM kill,
 * and only directories named as the kernel said are stat()ed.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "oom_memcg.h"
#include "lib/cgroup_id.h"
#include "lib/sysinfo.h"

/* Depth-first under dir (at path, relative to the mount): 1 found, with
 * the path in out; 0 not. at_fd is closed. */
static int search(int at_fd, char *path, size_t len, const struct hk_oom_kill *k,
		  const char *name, int depth)
{
	size_t n = strlen(path);
	struct dirent *d;
	struct stat st;
	int found = 0, fd;
	DIR *dir = fdopendir(at_fd);

	if (!dir) {
		close(at_fd);
		return 0;
	}
	while (!found && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (n + 1 + strlen(d->d_name) >= len)
			continue;
		snprintf(path + n, len - n, "/%s", d->d_name);
		if (!strcmp(d->d_name, name) &&
		    !fstatat(at_fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    (__u64)st.st_ino == k->memcg_id) {
			found = 1;
			break;
		}
		if (depth + 1 < HK_OOM_MEMCG_SEARCH_DEPTH) {
			fd = openat(at_fd, d->d_name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				found = search(fd, path, len, k, name, depth + 1);
		}
		if (!found)
			path[n] = '\0';
	}
	closedir(dir);
	return found;
}

char *hk_oom_memcg__find(const char *mount, const struct hk_oom_kill *k)
{
	char name[HK_OOM_NAME_LEN + 1], path[PATH_MAX] = "";
	struct stat st;
	int fd;

	if (!k->memcg_id)
		return NULL;
	memcpy(name, k->memcg_name, HK_OOM_NAME_LEN);
	name[HK_OOM_NAME_LEN] = '\0';
	fd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	/* the root itself (a v1 hierarchy's limit set at its top) */
	if (!fstat(fd, &st) && (__u64)st.st_ino == k->memcg_id) {
		close(fd);
		return strdup("/");
	}
	if (!name[0] || !search(fd, path, sizeof(path), k, name, 0))
		return NULL;
	return strdup(path);
}

void hk_oom_memcg__name(char *buf, size_t len, const struct hk_oom_kill *k,
			const char *path)
{
	int n = (int)strnlen(k->memcg_name, HK_OOM_NAME_LEN);

	if (!k->memcg_id)
		snprintf(buf, len, "host");
	else if (path)
		snprintf(buf, len, "%s", path);
	else if (n)
		snprintf(buf, len, ".../%.*s", n, k->memcg_name);
	else
		snprintf(buf, len, "memcg %llu", (unsigned long long)k->memcg_id);
}

char *hk_oom_memcg__describe(const struct hk_oom_kill *k)
{
	char mount[PATH_MAX], *mountinfo, *path = NULL, *out;
	size_t len;

	if (k->memcg_id) {
		mountinfo = hk_sysinfo__read_text("/proc/self/mountinfo");
		if (mountinfo && !hk_cgid__mount(mountinfo, "memory", mount, sizeof(mount)))
			path = hk_oom_memcg__find(mount, k);
		free(mountinfo);
	}
	len = (path ? strlen(path) : 0) + HK_OOM_NAME_LEN + 32;
	out = malloc(len);
	if (out)
		hk_oom_memcg__name(out, len, k, path);
	free(path);
	return out;
}
