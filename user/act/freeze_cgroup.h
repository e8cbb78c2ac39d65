/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_cgroup.h - carry out, in the kernel: which freezer a host has, a
 * cgroup opened and checked, its state written and read (freeze_cgroup.c).
 * The bottom of the freeze: it knows no record, no setting, no printer, so
 * that `thaw` and the tests use it alone.
 */
#ifndef HK_USER_FREEZE_CGROUP_H
#define HK_USER_FREEZE_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* A cgroup path, within its hierarchy or under /sys/fs/cgroup. */
#define HK_FREEZE_PATH_MAX	4096
/* A cgroup's whole directory: the mount point and the path. */
#define HK_FREEZE_DIR_MAX	(HK_FREEZE_PATH_MAX + 64)
/* A reason: a sentence that may quote two paths. */
#define HK_FREEZE_WHY_MAX	(2 * HK_FREEZE_PATH_MAX + 256)
/* Where freezing is done on this host. */
enum hk_freeze_hier {
	HK_FREEZE_HIER_NONE = 0,	/* no freezer: neither of the below */
	HK_FREEZE_HIER_V1 = 1,		/* the v1 freezer's hierarchy: freezer.state */
	HK_FREEZE_HIER_V2 = 2,		/* the unified hierarchy: cgroup.freeze */
};

struct hk_freeze_fs {
	enum hk_freeze_hier hier;
	const char *root;		/* its mount point */
};

/* One cgroup, opened: what it is checked to be is what is written. */
struct hk_freeze_cg {
	int fd;				/* its directory; -1: not open */
	enum hk_freeze_hier hier;	/* which file freezes it */
	__u64 id;			/* its inode: the cgroup's kernfs id */
	char dir[HK_FREEZE_DIR_MAX];	/* its directory, resolved */
	char rel[HK_FREEZE_PATH_MAX];	/* its path within its hierarchy */
};

/*
 * The host's freezer: the unified hierarchy when /sys/fs/cgroup is
 * cgroup2, else the v1 freezer at /sys/fs/cgroup/freezer, else a hybrid
 * host's unified tree at /sys/fs/cgroup/unified. fs->hier NONE: none.
 */
void hk_freeze__find_fs(struct hk_freeze_fs *fs);

/*
 * pid's cgroup in fs's hierarchy (malloc'd: free it); NULL when the
 * process is gone.
 */
char *hk_freeze__cgroup_of(const struct hk_freeze_fs *fs, __u32 pid);

/*
 * Open arg as a cgroup into cg: a path within fs's hierarchy ("/hk/leak"),
 * or when whole_ok a whole directory under /sys/fs/cgroup. No '.' or '..'
 * component; the directory, resolved (realpath), must be under the
 * hierarchy's mount and on a cgroup filesystem, and have a freezer's
 * files. 0, or -1 with why (not there, outside cgroupfs, the root, no
 * freezer). A path read from /proc is never whole: a cgroup named
 * /sys/fs/cgroup/x must not stand for another.
 */
int hk_freeze__open(const struct hk_freeze_fs *fs, const char *arg, bool whole_ok,
		    struct hk_freeze_cg *cg, char *why, size_t why_len);

/* Open the cgroup whose whole directory is dir, checked as above and to be
 * the one (hier, id) that was frozen: 0; -ENOENT it is gone (or another
 * has its name); -1 why. A record's cgroup: hk_freeze__open_rec. */
int hk_freeze__open_id(const char *dir, enum hk_freeze_hier hier, __u64 id,
		       struct hk_freeze_cg *cg, char *why, size_t why_len);

void hk_freeze__close(struct hk_freeze_cg *cg);

/*
 * Freeze (frozen true) or thaw cg and wait up to wait_ms for the kernel
 * to say it is done: 1 done (*settle_ms: how long it took), 0 not yet
 * (why: the state it is in), -1 failed (why). The control file is
 * written as an existing regular file, never created, never through a
 * symlink (hk_safefile__write_ctl).
 */
int hk_freeze__set(const struct hk_freeze_cg *cg, bool frozen, int wait_ms, __u64 *settle_ms,
		   char *why, size_t why_len);

/* 1 frozen (or freezing, v1), 0 thawed, -1 unreadable (why). */
int hk_freeze__is_frozen(const struct hk_freeze_cg *cg, char *why, size_t why_len);

#endif /* HK_USER_FREEZE_CGROUP_H */
