/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mem_blame_scope.h - memory-pressure blame at a stall transition, from
 * the running tool's own hk_procs and the memory cgroup tree: which
 * cgroup's limit binds the stalled process, the processes under it, and
 * the growers among them (mem_blame.h). Bounded: at most
 * HK_BLAME_MAX_MEMCGS cgroups listed and HK_BLAME_MAX_PROCS entries read
 * per look, one look per walk and limit (the victims of one walk under
 * one limit share it), and HK_BLAME_LOOKS_PER_S looks a second; what a
 * cap left out is counted.
 */
#ifndef HK_USER_MEM_BLAME_SCOPE_H
#define HK_USER_MEM_BLAME_SCOPE_H

#include <limits.h>
#include "mem_blame.h"

struct hk_mem_blame_ctx {
	int procs_fd;			/* hk_procs; < 1: no blame */
	int mount_state;		/* 0: not looked for, 1: mount, -1: none */
	char mount[PATH_MAX];		/* the memory hierarchy's */
	__u64 *ids;			/* HK_BLAME_MAX_MEMCGS */
	struct hk_blame_cand *cands;	/* HK_BLAME_MAX_PROCS */
	__u32 *pids;			/* a batch of hk_procs read */
	struct hk_proc *procs;
	/* looks this second (at most HK_BLAME_LOOKS_PER_S) */
	__u64 second_ns;
	__u32 second_looks;
	/* the last look, kept for the other victims of its walk */
	__u64 last_time_ns;
	__u64 last_scope_id;		/* 0: the host */
	struct hk_mem_blame last;
	__u64 looks;			/* looks made (not taken from last) */
	__u64 skipped;			/* stall transitions over the budget */
	__u64 cut;			/* processes and cgroups past a cap */
};

/* Whether transition e is one blame is sought for: into Mem-thrashing
 * or Mem-throttled. */
int hk_mem_blame__wanted(const struct hk_event *e);

/*
 * Blame for stall transition e into b: b->looked set, b->n growers (0:
 * nobody grew, or what binds could not be read). 0; -EAGAIN over this
 * second's budget (counted in skipped: b->looked 0, not sought); -errno
 * when hk_procs could not be read (b names nobody).
 */
int hk_mem_blame__find(struct hk_mem_blame_ctx *x, const struct hk_event *e,
		       struct hk_mem_blame *b);
/*
 * The same for process p, labelled label, of a snapshot of hk_procs
 * (`status`): the candidates from its n entries (pids[i] keys procs[i]).
 */
int hk_mem_blame__snapshot(struct hk_mem_blame_ctx *x, __u32 label, const struct hk_proc *p,
			   const __u32 *pids, const struct hk_proc *procs, size_t n,
			   struct hk_mem_blame *b);
void hk_mem_blame__free(struct hk_mem_blame_ctx *x);

/*
 * The path (relative to mount, "/a/b") of the memory cgroup whose limit
 * (memory.max, v1 memory.limit_in_bytes) is limit_bytes: the highest
 * ancestor of path, itself included, that has it (a child given its
 * parent's limit shares it with its siblings). path is cut in place to
 * it; "" when none has.
 */
void hk_mem_blame__limiting(const char *mount, char *path, __u64 limit_bytes);
/*
 * The ids (directory inodes) of dfd's cgroup and those under it, up to
 * HK_BLAME_MAX_DEPTH levels below it, at most cap into ids; each cgroup a
 * cap leaves out counts once in *cut (its subtree unlisted). Returns how
 * many.
 */
size_t hk_mem_blame__list_ids(int dfd, __u64 *ids, size_t cap, __u64 *cut);

#endif /* HK_USER_MEM_BLAME_SCOPE_H */
