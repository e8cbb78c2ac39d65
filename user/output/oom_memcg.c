// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * oom_memcg.c - an OOM kill's memory cgroup as a path. The victim is gone
 * by the time its line is written, so /proc/PID/cgroup (cgroup_id.c's way
 * up from the process) is no more: the hierarchy is searched instead, for
 * the directory whose inode is the id the kernel gave: by file handle
 * first (kernfs gives one from the id alone), else by name, within a
 * budget. Only at an OOM kill, and only directories named as the kernel
 * said are stat()ed; what was found is kept per id (oom_memcg.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "oom_memcg.h"
#include "lib/cgroup_id.h"
#include "lib/clock.h"
#include "lib/sysinfo.h"

/* Whether b lets the search open one more directory (and counts it). */
static int budget_take(struct hk_oom_memcg_budget *b)
{
	if (!b)
		return 1;
	if (!b->dirs || (b->deadline_ns && mono_ns() >= b->deadline_ns)) {
		b->cut = 1;
		return 0;
	}
	b->dirs--;
	return 1;
}

/* Depth-first under dir (at path, relative to the mount): 1 found, with
 * the path in out and its owner in *uid; 0 not. at_fd is closed. */
static int search(int at_fd, char *path, size_t len, const struct hk_oom_kill *k,
		  const char *name, int depth, struct hk_oom_memcg_budget *b, long *uid)
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
	while (!found && !(b && b->cut) && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (n + 1 + strlen(d->d_name) >= len)
			continue;
		snprintf(path + n, len - n, "/%s", d->d_name);
		if (!strcmp(d->d_name, name) &&
		    !fstatat(at_fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    (__u64)st.st_ino == k->memcg_id) {
			*uid = (long)st.st_uid;
			found = 1;
			break;
		}
		if (depth + 1 < HK_OOM_MEMCG_SEARCH_DEPTH && budget_take(b)) {
			fd = openat(at_fd, d->d_name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				found = search(fd, path, len, k, name, depth + 1, b, uid);
		}
		if (!found)
			path[n] = '\0';
	}
	closedir(dir);
	return found;
}

char *hk_oom_memcg__find(const char *mount, const struct hk_oom_kill *k,
			 struct hk_oom_memcg_budget *b, long *uid)
{
	char name[HK_OOM_NAME_LEN + 1], path[PATH_MAX] = "";
	long owner = -1;
	struct stat st;
	int fd;

	if (uid)
		*uid = -1;
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
		if (uid)
			*uid = (long)st.st_uid;
		return strdup("/");
	}
	if (!name[0]) {
		close(fd);
		return NULL;
	}
	if (!search(fd, path, sizeof(path), k, name, 0, b, &owner))
		return NULL;
	if (uid)
		*uid = owner;
	return strdup(path);
}

/* The kernfs file handle: the node's 64-bit id (FILEID_KERNFS, whose
 * encoding kernfs_encode_fh() writes), since 5.5 on every cgroup root. */
#define HK_FILEID_KERNFS 0xfe

char *hk_oom_memcg__by_id(const char *mount, __u64 id, int *gone, long *uid)
{
	struct {
		struct file_handle h;
		__u64 id;
	} fh = { .h = { .handle_bytes = sizeof(__u64), .handle_type = HK_FILEID_KERNFS } };
	char link[64], at[PATH_MAX + 1];
	size_t m = strlen(mount);
	int mfd, fd = -1;
	struct stat st;
	ssize_t n = -1;

	*gone = 0;
	fh.id = id;
	mfd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd >= 0)
		fd = open_by_handle_at(mfd, &fh.h, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* ESTALE: no node has the id now (removed) */
	*gone = fd < 0 && errno == ESTALE;
	if (fd >= 0) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, at, sizeof(at) - 1);
		if (uid && !fstat(fd, &st))
			*uid = (long)st.st_uid;
		close(fd);
	}
	if (mfd >= 0)
		close(mfd);
	if (n <= 0 || (size_t)n >= sizeof(at) - 1)
		return NULL;
	at[n] = '\0';
	/* under this mount ("/" alone is the root), and not removed since
	 * (d_path's mark; a cgroup named so is searched for instead) */
	if (m == 1)
		m = 0;
	if (strncmp(at, mount, m) || (at[m] != '/' && at[m]) ||
	    (n >= 10 && !strcmp(at + n - 10, " (deleted)")))
		return NULL;
	return strdup(at[m] ? at + m : "/");
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

/* The search's budget now: its own, within what is left of this second. */
static int search_budget(struct hk_oom_memcgs *c, __u64 now_ns,
			 struct hk_oom_memcg_budget *b)
{
	__u64 left;

	if (now_ns - c->second_ns >= HK_NSEC_PER_SEC) {
		c->second_ns = now_ns;
		c->search_ns = 0;
	}
	left = HK_OOM_MEMCG_SEARCH_NS_PER_S - (c->search_ns < HK_OOM_MEMCG_SEARCH_NS_PER_S ?
					       c->search_ns : HK_OOM_MEMCG_SEARCH_NS_PER_S);
	b->dirs = HK_OOM_MEMCG_SEARCH_DIRS;
	b->deadline_ns = now_ns + (left < HK_OOM_MEMCG_SEARCH_NS ? left : HK_OOM_MEMCG_SEARCH_NS);
	b->cut = 0;
	return left > 0;
}

/* k's path looked up at now_ns: malloc'd, or NULL (not found, or cut). */
static char *look_up(struct hk_oom_memcgs *c, const struct hk_oom_kill *k, __u64 now_ns,
		     long *uid)
{
	char mount[PATH_MAX], *mountinfo, *path = NULL;
	struct hk_oom_memcg_budget b;
	int gone = 0;
	__u64 t;

	mountinfo = hk_sysinfo__read_text("/proc/self/mountinfo");
	if (!mountinfo || hk_cgid__mount(mountinfo, "memory", mount, sizeof(mount))) {
		free(mountinfo);
		return NULL;
	}
	free(mountinfo);
	path = hk_oom_memcg__by_id(mount, k->memcg_id, &gone, uid);
	if (path || gone)
		return path;
	c->searches++;
	if (!search_budget(c, now_ns, &b)) {
		c->searches_cut++;
		return NULL;
	}
	path = hk_oom_memcg__find(mount, k, &b, uid);
	t = mono_ns();
	c->search_ns += t > now_ns ? t - now_ns : 0;
	c->searches_cut += b.cut;
	return path;
}

/* c's entry for id, or the one to replace (its id 0) */
static unsigned int cache_slot(struct hk_oom_memcgs *c, __u64 id, __u64 now_ns)
{
	unsigned int i;

	for (i = 0; i < HK_OOM_MEMCG_CACHE; i++)
		if (c->cache[i].id == id && now_ns < c->cache[i].until_ns)
			return i;
	i = c->next;
	c->next = (c->next + 1) % HK_OOM_MEMCG_CACHE;
	free(c->cache[i].path);
	c->cache[i].path = NULL;
	c->cache[i].id = 0;
	return i;
}

char *hk_oom_memcg__describe(struct hk_oom_memcgs *c, const struct hk_oom_kill *k,
			     __u64 now_ns, long *uid)
{
	const char *path = NULL;
	long owner = k->memcg_id ? -1 : 0;
	unsigned int i;
	size_t len;
	char *out;

	if (k->memcg_id) {
		c->lookups++;
		i = cache_slot(c, k->memcg_id, now_ns);
		if (c->cache[i].id) {
			c->cached++;
		} else {
			c->cache[i].uid = -1;
			c->cache[i].path = look_up(c, k, now_ns, &c->cache[i].uid);
			c->cache[i].id = k->memcg_id;
			c->cache[i].until_ns = now_ns + HK_OOM_MEMCG_TTL_NS;
		}
		path = c->cache[i].path;
		owner = c->cache[i].uid;
	}
	if (uid)
		*uid = owner;
	len = (path ? strlen(path) : 0) + HK_OOM_NAME_LEN + 32;
	out = malloc(len);
	if (out)
		hk_oom_memcg__name(out, len, k, path);
	return out;
}

void hk_oom_memcgs__free(struct hk_oom_memcgs *c)
{
	unsigned int i;

	for (i = 0; i < HK_OOM_MEMCG_CACHE; i++)
		free(c->cache[i].path);
	memset(c, 0, sizeof(*c));
}
