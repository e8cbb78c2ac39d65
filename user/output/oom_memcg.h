/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * oom_memcg.h - the memory cgroup an OOM kill names (by kernfs id and
 * directory name, hk_oom_kill) as a path, or "host" for a global OOM.
 *
 * A user with a delegated subtree makes as many cgroups as they like and
 * OOM-kills their own processes as often as they like, and every kill is
 * looked up in the event loop: so the id is resolved by file handle (a few
 * system calls, whatever the tree), results are kept per id, and the
 * search by name that stands in where handles fail is bounded per kill and
 * per second.
 */
#ifndef HK_USER_OOM_MEMCG_H
#define HK_USER_OOM_MEMCG_H

#include <stddef.h>
#include "shared/hotspot.h"

/* The most directory levels searched below the memory hierarchy's mount. */
#define HK_OOM_MEMCG_SEARCH_DEPTH 16
/* One search opens at most this many directories ... */
#define HK_OOM_MEMCG_SEARCH_DIRS 2000
/* ... for at most this long (a v1 memory cgroup's directory is listed in
 * ~60 us on the lab VM, `find` over 5000 took 0.3 s: ~80 of them), */
#define HK_OOM_MEMCG_SEARCH_NS (5ULL * 1000 * 1000)
/* ... and all searches at most this long a second: the loop's 2.5 %. */
#define HK_OOM_MEMCG_SEARCH_NS_PER_S (25ULL * 1000 * 1000)
/* Ids whose path (or absence) is kept, and for how long (a cgroup may be
 * renamed; an id is never given to another cgroup). */
#define HK_OOM_MEMCG_CACHE 64
#define HK_OOM_MEMCG_TTL_NS (10ULL * 1000 * 1000 * 1000)

/* What a search may still do; it sets cut when it stopped for that. */
struct hk_oom_memcg_budget {
	unsigned int dirs;	/* directories it may still open */
	__u64 deadline_ns;	/* CLOCK_MONOTONIC; 0: none */
	int cut;
};

/*
 * The path of k's memory cgroup under mount (the memory hierarchy's mount
 * point), found by its directory's inode (the kernfs id) among those named
 * k->memcg_name, within budget b (NULL: none): malloc'd ("/" for the
 * root), or NULL when it is gone (the victim's cgroup removed since), k
 * names none, or b ran out (b->cut set). *uid (NULL: not asked): the
 * owner of its directory, -1 when not found.
 */
char *hk_oom_memcg__find(const char *mount, const struct hk_oom_kill *k,
			 struct hk_oom_memcg_budget *b, long *uid);

/*
 * The same, by the kernfs id alone, through a file handle
 * (open_by_handle_at: CAP_DAC_READ_SEARCH): malloc'd, or NULL with *gone 1
 * (no cgroup has that id now) or 0 (it cannot be told this way: no
 * capability, no handles on this kernel, the path outside mount).
 */
char *hk_oom_memcg__by_id(const char *mount, __u64 id, int *gone, long *uid);

/*
 * What an OOM kill's line says of its memory cgroup, into buf: "host" (no
 * cgroup at its limit), path when found, else ".../NAME" (the directory
 * name the kernel gave: its place is gone, or was not found within the
 * budget). Always NUL-terminated.
 */
void hk_oom_memcg__name(char *buf, size_t len, const struct hk_oom_kill *k,
			const char *path);

/* Paths of ids looked up lately, and the searches' budget. */
struct hk_oom_memcgs {
	struct {
		__u64 id;
		__u64 until_ns;		/* kept until then */
		char *path;		/* NULL: not found */
		long uid;		/* its directory's owner; -1 unknown */
	} cache[HK_OOM_MEMCG_CACHE];
	unsigned int next;		/* the entry replaced next */
	__u64 second_ns;		/* the second the budget below is of */
	__u64 search_ns;		/* ... searched in it so far */
	__u64 lookups, cached, searches;
	__u64 searches_cut;		/* stopped at, or skipped for, the budget */
};

/*
 * k's memory cgroup as hk_oom_memcg__name() words it, looked up in the
 * running system's memory hierarchy (mountinfo) at now_ns unless c holds
 * it: malloc'd, or NULL (no memory). *uid (NULL: not asked): the owner of
 * its directory, -1 when unknown (a host OOM: 0).
 */
char *hk_oom_memcg__describe(struct hk_oom_memcgs *c, const struct hk_oom_kill *k,
			     __u64 now_ns, long *uid);
void hk_oom_memcgs__free(struct hk_oom_memcgs *c);

#endif /* HK_USER_OOM_MEMCG_H */
