/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mem_blame_scope.c - the memory cgroup whose limit binds a stalled
 * process, the ids of the cgroups under it, and the candidates read from
 * hk_procs (mem_blame_scope.h).
 *
 * The kernel side says which limit binds by value (limit_bytes, the
 * smallest headroom's memory.max) and by id for memory.high
 * (mem_high_cgroup_id); the cgroup itself is found here, up from the
 * process's own memory cgroup (by id, through a file handle): the highest
 * one whose limit is limit_bytes (a child given its parent's limit shares
 * it with its siblings). Reading it here, at the rare stall transition,
 * keeps the walk and hk_proc as they are.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "kernel/bpf_sys.h"
#include "lib/cgroup_id.h"
#include "lib/clock.h"
#include "lib/sysinfo.h"
#include "mem_blame_scope.h"
#include "oom_memcg.h"

#define BATCH 64			/* hk_procs entries read at a time */

int hk_mem_blame__wanted(const struct hk_event *e)
{
	return e->type == HK_EV_TRANSITION &&
	       (e->to == HK_MEM_THRASHING || e->to == HK_MEM_THROTTLED);
}

static int mount_of(struct hk_mem_blame_ctx *x)
{
	char *mi;

	if (x->mount_state)
		return x->mount_state > 0;
	mi = hk_sysinfo__read_text("/proc/self/mountinfo");
	x->mount_state = mi && !hk_cgid__mount(mi, "memory", x->mount, sizeof(x->mount)) ?
			 1 : -1;
	free(mi);
	return x->mount_state > 0;
}

/* A memory cgroup's hard limit in bytes (v2 memory.max, v1
 * memory.limit_in_bytes); 0 when unset or unread. */
static __u64 limit_at(int dfd)
{
	static const char *const names[] = { "memory.max", "memory.limit_in_bytes" };
	char buf[32];
	unsigned long long v;
	ssize_t n;
	size_t i;
	int fd;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fd = openat(dfd, names[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return 0;
		buf[n] = '\0';
		return sscanf(buf, "%llu", &v) == 1 ? (__u64)v : 0;
	}
	return 0;
}

void hk_mem_blame__limiting(const char *mount, char *path, __u64 limit_bytes)
{
	char full[PATH_MAX], up[PATH_MAX], *slash;
	size_t best = 0;
	int found = 0, dfd, n;

	snprintf(up, sizeof(up), "%s", path);
	for (;;) {
		n = snprintf(full, sizeof(full), "%s%s", mount, up);
		dfd = n > 0 && (size_t)n < sizeof(full) ?
		      open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		if (dfd >= 0) {
			if (limit_at(dfd) == limit_bytes) {
				best = strlen(up);
				found = 1;
			}
			close(dfd);
		}
		slash = strrchr(up, '/');
		if (!slash || slash == up)
			break;
		*slash = '\0';
	}
	/* up was cut level by level; path keeps the whole */
	path[found ? best : 0] = '\0';
}

/* The ids of dfd's cgroup and those under it, depth first (depth: its
 * level below the first); a cgroup left out by a cap counts once in *cut,
 * its subtree unlisted. */
static void list_ids(int dfd, __u64 *ids, size_t cap, size_t *n, int depth, __u64 *cut)
{
	struct dirent *d;
	struct stat st;
	DIR *dir;
	int sub;

	if (*n >= cap) {
		(*cut)++;
		return;
	}
	if (fstat(dfd, &st))
		return;
	ids[(*n)++] = (__u64)st.st_ino;
	sub = dup(dfd);
	dir = sub >= 0 ? fdopendir(sub) : NULL;
	if (!dir) {
		if (sub >= 0)
			close(sub);
		return;
	}
	rewinddir(dir);		/* a dup shares dfd's offset: from the start */
	while ((d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		if (depth >= HK_BLAME_MAX_DEPTH || *n >= cap) {
			(*cut)++;
			continue;
		}
		sub = openat(dfd, d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (sub < 0)
			continue;
		list_ids(sub, ids, cap, n, depth + 1, cut);
		close(sub);
	}
	closedir(dir);
}

size_t hk_mem_blame__list_ids(int dfd, __u64 *ids, size_t cap, __u64 *cut)
{
	size_t n = 0;

	list_ids(dfd, ids, cap, &n, 0, cut);
	return n;
}

/*
 * The memory cgroup whose limit binds (label, ev): an fd of its directory
 * in *dfd and its id in *scope_id; *dfd -1 and id 0 for the host (every
 * process shares it). -1 when it cannot be found (gone, no memory
 * hierarchy): nobody is named.
 */
static int limit_of(struct hk_mem_blame_ctx *x, __u32 label, const struct hk_evidence *ev,
		    int *dfd, __u64 *scope_id)
{
	__u64 id = ev->memcg_id;
	char full[PATH_MAX], *path;
	struct stat st;
	int gone, n;

	*dfd = -1;
	*scope_id = 0;
	if (label == HK_MEM_THROTTLED && ev->mem_high_cgroup_id)
		id = ev->mem_high_cgroup_id;
	else if (ev->limit_kind != HK_LIMIT_MEMCG)
		return 0;
	if (!id || !mount_of(x))
		return -1;
	path = hk_oom_memcg__by_id(x->mount, id, &gone, NULL);
	if (!path)
		return -1;
	if (id == ev->memcg_id && label != HK_MEM_THROTTLED)
		hk_mem_blame__limiting(x->mount, path, ev->limit_bytes);
	n = snprintf(full, sizeof(full), "%s%s", x->mount, strcmp(path, "/") ? path : "");
	*dfd = path[0] && n > 0 && (size_t)n < sizeof(full) ?
	       open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(path);
	if (*dfd < 0)
		return -1;
	if (!fstat(*dfd, &st))
		*scope_id = (__u64)st.st_ino;
	return 0;
}

/* The scope under dfd (-1: the host), into s; closes dfd. */
static void scope_of(struct hk_mem_blame_ctx *x, int dfd, struct hk_blame_scope *s, __u64 *cut)
{
	size_t nr = 0;

	memset(s, 0, sizeof(*s));
	if (dfd < 0) {
		s->all = 1;
		return;
	}
	nr = hk_mem_blame__list_ids(dfd, x->ids, HK_BLAME_MAX_MEMCGS, cut);
	close(dfd);
	hk_mem_blame__sort_ids(x->ids, nr);
	s->ids = x->ids;
	s->nr_ids = nr;
}

/* The candidates in scope, read from hk_procs a batch at a time; a map
 * read only in part (HK_BLAME_MAX_PROCS) adds 1 to *cut. */
static int read_cands(struct hk_mem_blame_ctx *x, const struct hk_blame_scope *s,
		      __u64 newest_ns, size_t *nr, __u64 *cut)
{
	__u32 in = 0, out = 0, count;
	size_t k = 0, read_n = 0, got;
	__u64 over;
	int e, first = 1;

	for (;;) {
		count = BATCH;
		e = hk_bpf_sys__lookup_batch(x->procs_fd, first ? NULL : &in, &out, x->pids,
					     x->procs, &count);
		if (e && e != -ENOENT)
			break;
		got = hk_mem_blame__cands(x->pids, x->procs, count, s, newest_ns, x->cands + k,
					  HK_BLAME_MAX_PROCS - k, &over);
		k += got;
		*cut += over;
		read_n += count;
		if (e == -ENOENT)
			break;
		if (read_n >= HK_BLAME_MAX_PROCS) {
			(*cut)++;
			e = -ENOENT;
			break;
		}
		in = out;
		first = 0;
	}
	*nr = k;
	return e == -ENOENT ? 0 : e;
}

static int ctx_alloc(struct hk_mem_blame_ctx *x)
{
	if (!x->ids)
		x->ids = calloc(HK_BLAME_MAX_MEMCGS, sizeof(*x->ids));
	if (!x->cands)
		x->cands = calloc(HK_BLAME_MAX_PROCS, sizeof(*x->cands));
	if (!x->pids)
		x->pids = calloc(BATCH, sizeof(*x->pids));
	if (!x->procs)
		x->procs = calloc(BATCH, sizeof(*x->procs));
	return x->ids && x->cands && x->pids && x->procs ? 0 : -ENOMEM;
}

/* Whether one more look fits this second's budget (HK_BLAME_LOOKS_PER_S). */
static int budget_take(struct hk_mem_blame_ctx *x, __u64 now_ns)
{
	if (now_ns - x->second_ns >= HK_NSEC_PER_SEC) {
		x->second_ns = now_ns;
		x->second_looks = 0;
	}
	if (x->second_looks >= HK_BLAME_LOOKS_PER_S) {
		x->skipped++;
		return 0;
	}
	x->second_looks++;
	return 1;
}

int hk_mem_blame__find(struct hk_mem_blame_ctx *x, const struct hk_event *e,
		       struct hk_mem_blame *b)
{
	struct hk_blame_scope s;
	__u64 scope_id, cut = 0;
	size_t n = 0;
	int err, dfd;

	memset(b, 0, sizeof(*b));
	if (x->procs_fd < 1)
		return -EBADF;
	if (ctx_alloc(x))
		return -ENOMEM;
	if (limit_of(x, e->to, &e->ev, &dfd, &scope_id)) {
		b->looked = 1;		/* sought, found nobody */
		return 0;
	}
	/* the victims of one walk under one limit share one look */
	if (x->last.looked && x->last_time_ns == e->time_ns && x->last_scope_id == scope_id) {
		if (dfd >= 0)
			close(dfd);
		*b = x->last;
		return 0;
	}
	if (!budget_take(x, mono_ns())) {
		if (dfd >= 0)
			close(dfd);
		return -EAGAIN;
	}
	b->looked = 1;
	scope_of(x, dfd, &s, &cut);
	x->looks++;
	err = read_cands(x, &s, e->time_ns, &n, &cut);
	if (err)
		return err;
	hk_mem_blame__shares(x->cands, n, HK_BLAME_MIN_GROWTH_BYTES, b);
	b->cut = cut;
	x->cut += cut;
	x->last = *b;
	x->last_time_ns = e->time_ns;
	x->last_scope_id = scope_id;
	return 0;
}

int hk_mem_blame__snapshot(struct hk_mem_blame_ctx *x, __u32 label, const struct hk_proc *p,
			   const __u32 *pids, const struct hk_proc *procs, size_t n,
			   struct hk_mem_blame *b)
{
	struct hk_blame_scope s;
	__u64 scope_id, cut = 0, over = 0;
	size_t k;
	int dfd;

	memset(b, 0, sizeof(*b));
	b->looked = 1;
	if (ctx_alloc(x))
		return -ENOMEM;
	if (limit_of(x, label, &p->ev, &dfd, &scope_id))
		return 0;
	scope_of(x, dfd, &s, &cut);
	k = hk_mem_blame__cands(pids, procs, n < HK_BLAME_MAX_PROCS ? n : HK_BLAME_MAX_PROCS,
				&s, p->sample_ns, x->cands, HK_BLAME_MAX_PROCS, &over);
	hk_mem_blame__shares(x->cands, k, HK_BLAME_MIN_GROWTH_BYTES, b);
	b->cut = cut + over + (n > HK_BLAME_MAX_PROCS ? n - HK_BLAME_MAX_PROCS : 0);
	return 0;
}

void hk_mem_blame__free(struct hk_mem_blame_ctx *x)
{
	free(x->ids);
	free(x->cands);
	free(x->pids);
	free(x->procs);
	x->ids = NULL;
	x->cands = NULL;
	x->pids = NULL;
	x->procs = NULL;
}
