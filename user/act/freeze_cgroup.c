// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_cgroup.c - the kernel's side of a freeze: which freezer the host
 * has, a cgroup's directory, and its state.
 *
 * Two interfaces do the same job. cgroup v2: write 1 to cgroup.freeze; the
 * cgroup is frozen when cgroup.events says "frozen 1". The v1 freezer: write
 * FROZEN to freezer.state, which reads FREEZING until every task stopped.
 * Either may take a moment (a task in an uninterruptible sleep stops when
 * it leaves it), so the state is polled a short while, never assumed.
 *
 * A path given by hand (`thaw`) or read from a record is a path root
 * writes through: it is confined to the cgroup mount (no '..', resolved,
 * on a cgroup filesystem), then opened once, and every file is read and
 * written relative to that directory, never created, never through a
 * symlink (a planted cgroup.freeze -> /etc/shadow is refused).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "freeze_cgroup.h"
#include "lib/clock.h"
#include "lib/msg.h"
#include "lib/safefile.h"
#include "lib/sysinfo.h"

#define CG_MOUNT	"/sys/fs/cgroup"
#define V1_FREEZER	CG_MOUNT "/freezer"
#define HYBRID_V2	CG_MOUNT "/unified"

/* Between two reads of the state while it settles. */
#define POLL_MS		10

static bool is_cgroup2(const char *path)
{
	struct statfs sf;

	return !statfs(path, &sf) && sf.f_type == CGROUP2_SUPER_MAGIC;
}

void hk_freeze__find_fs(struct hk_freeze_fs *fs)
{
	/* a v1 freezer, if the host mounted one, is where its admins freeze */
	if (is_cgroup2(CG_MOUNT))
		*fs = (struct hk_freeze_fs){ HK_FREEZE_HIER_V2, CG_MOUNT };
	else if (!access(V1_FREEZER "/tasks", F_OK))
		*fs = (struct hk_freeze_fs){ HK_FREEZE_HIER_V1, V1_FREEZER };
	else if (is_cgroup2(HYBRID_V2))
		*fs = (struct hk_freeze_fs){ HK_FREEZE_HIER_V2, HYBRID_V2 };
	else
		*fs = (struct hk_freeze_fs){ HK_FREEZE_HIER_NONE, NULL };
}

char *hk_freeze__cgroup_of(const struct hk_freeze_fs *fs, __u32 pid)
{
	/* "": no v1 controller matches it, so the unified line ("0::") does */
	return hk_sysinfo__cgroup_path(pid, fs->hier == HK_FREEZE_HIER_V1 ? "freezer" : "");
}

/* Whether path has no empty, '.' or '..' component past its first '/'. */
static bool plain_path(const char *path)
{
	const char *p = path;
	size_t comp;

	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return true;
		comp = strcspn(p, "/");
		if ((comp == 1 && p[0] == '.') || (comp == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += comp;
	}
}

/* Whether path is root or below it: "/a" holds "/a/b", not "/ab". */
static bool under(const char *path, const char *root)
{
	size_t n = strlen(root);

	return !strncmp(path, root, n) && (path[n] == '/' || !path[n]);
}

/* The mount a whole path (under /sys/fs/cgroup) names: the v1 freezer's,
 * a hybrid host's unified tree, or /sys/fs/cgroup itself. */
static const char *mount_of(const char *path)
{
	if (under(path, V1_FREEZER))
		return V1_FREEZER;
	if (under(path, HYBRID_V2))
		return HYBRID_V2;
	return CG_MOUNT;
}

void hk_freeze__close(struct hk_freeze_cg *cg)
{
	if (cg->fd >= 0)
		close(cg->fd);
	cg->fd = -1;
}

/* A control file of cg: existing, regular, not a symlink; 1, 0 absent. */
static int has_file(const struct hk_freeze_cg *cg, const char *file)
{
	struct stat st;

	return !fstatat(cg->fd, file, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode);
}

/*
 * path (as given: for messages) resolved to real, which must be root or
 * below it, root being a mount of a cgroup filesystem: cg opened on it.
 */
static int open_dir(const char *path, const char *root, struct hk_freeze_cg *cg, char *why,
		    size_t why_len)
{
	char *real, *rroot;
	struct statfs sf;
	struct stat st;
	size_t n;
	int ok;

	real = realpath(path, NULL);
	if (!real)
		return hk_msg__fail(why, why_len, "%s: %s", path, strerror(errno));
	rroot = realpath(root, NULL);
	ok = rroot && under(real, rroot);
	n = rroot ? strlen(rroot) : 0;
	if (!ok)
		hk_msg__fail(why, why_len, "%s is %s, not under %s: not a cgroup", path, real,
			     root);
	else if (snprintf(cg->dir, sizeof(cg->dir), "%s", real) >= (int)sizeof(cg->dir) ||
		 snprintf(cg->rel, sizeof(cg->rel), "%s", real[n] ? real + n : "/") >=
		 (int)sizeof(cg->rel))
		ok = !hk_msg__fail(why, why_len, "%s: path too long", path);
	free(real);
	free(rroot);
	if (!ok)
		return -1;
	/* what is checked below is what is written: the directory's fd */
	cg->fd = open(cg->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cg->fd < 0)
		return hk_msg__fail(why, why_len, "%s: %s", cg->dir, strerror(errno));
	if (fstatfs(cg->fd, &sf) || fstat(cg->fd, &st)) {
		int e = errno;

		hk_freeze__close(cg);
		return hk_msg__fail(why, why_len, "%s: %s", cg->dir, strerror(e));
	}
	if (sf.f_type != CGROUP2_SUPER_MAGIC && sf.f_type != CGROUP_SUPER_MAGIC) {
		hk_freeze__close(cg);
		return hk_msg__fail(why, why_len, "%s is not on a cgroup filesystem: not a cgroup",
				    cg->dir);
	}
	cg->id = (__u64)st.st_ino;
	if (has_file(cg, "freezer.state"))
		cg->hier = HK_FREEZE_HIER_V1;
	else if (has_file(cg, "cgroup.freeze"))
		cg->hier = HK_FREEZE_HIER_V2;
	else {
		hk_freeze__close(cg);
		if (!strcmp(cg->rel, "/"))
			return hk_msg__fail(why, why_len, "/ is the root cgroup (%s), which is "
					    "never frozen", cg->dir);
		return hk_msg__fail(why, why_len, "%s is not a cgroup with a freezer (no "
				    "freezer.state, no cgroup.freeze)", cg->dir);
	}
	return 0;
}

int hk_freeze__open(const struct hk_freeze_fs *fs, const char *arg, bool whole_ok,
		    struct hk_freeze_cg *cg, char *why, size_t why_len)
{
	char path[HK_FREEZE_DIR_MAX];
	const char *root;

	cg->fd = -1;
	if (arg[0] != '/')
		return hk_msg__fail(why, why_len, "%s: not a cgroup path (it starts with '/': a "
				    "path within the freezer's hierarchy, or under %s)", arg,
				    CG_MOUNT);
	/* "..": a way out of the tree (/sys/fs/cgroup/../../tmp/x) */
	if (!plain_path(arg))
		return hk_msg__fail(why, why_len, "%s: a cgroup path has no '.' or '..' "
				    "component", arg);
	if (whole_ok && under(arg, CG_MOUNT)) {
		/* a whole path: its mount point is the hierarchy's root */
		root = mount_of(arg);
		if (snprintf(path, sizeof(path), "%s", arg) >= (int)sizeof(path))
			return hk_msg__fail(why, why_len, "%s: path too long", arg);
	} else {
		if (fs->hier == HK_FREEZE_HIER_NONE)
			return hk_msg__fail(why, why_len, "this host has no cgroup freezer");
		root = fs->root;
		if (snprintf(path, sizeof(path), "%s%s", root, arg) >= (int)sizeof(path))
			return hk_msg__fail(why, why_len, "%s: path too long", arg);
	}
	return open_dir(path, root, cg, why, why_len);
}

int hk_freeze__open_id(const char *dir, enum hk_freeze_hier hier, __u64 id,
		       struct hk_freeze_cg *cg, char *why, size_t why_len)
{
	cg->fd = -1;
	/* a record is root's own file; checked as a path given by hand all
	 * the same, and the cgroup must be the very one it froze */
	if (dir[0] != '/' || !plain_path(dir) || !under(dir, CG_MOUNT))
		return hk_msg__fail(why, why_len, "%s: not a directory under %s", dir, CG_MOUNT);
	if (access(dir, F_OK) && errno == ENOENT)
		return -ENOENT;
	if (open_dir(dir, mount_of(dir), cg, why, why_len))
		return -1;
	if (cg->id != id || cg->hier != hier) {
		hk_freeze__close(cg);
		return -ENOENT;
	}
	return 0;
}

/* cg's file (a cgroup file is short) into buf: 0, or -1 with why. */
static int read_file(const struct hk_freeze_cg *cg, const char *file, char *buf, size_t len,
		     char *why, size_t why_len)
{
	ssize_t n;
	int fd, e;

	fd = openat(cg->fd, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return hk_msg__fail(why, why_len, "%s/%s: %s", cg->dir, file, strerror(errno));
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n < 0)
		return hk_msg__fail(why, why_len, "%s/%s: %s", cg->dir, file, strerror(e));
	buf[n] = '\0';
	return 0;
}

static int write_file(const struct hk_freeze_cg *cg, const char *file, const char *val,
		      char *why, size_t why_len)
{
	char path[64];
	int e;

	/* through the directory's fd: the cgroup checked is the one written;
	 * never created, never through a symlink, a regular file only */
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", cg->fd, file);
	e = hk_safefile__write_ctl(path, val);
	if (e)
		return hk_msg__fail(why, why_len, "writing %s to %s/%s: %s", val, cg->dir, file,
				    strerror(-e));
	return 0;
}

/*
 * The state as two answers: *frozen (v1: FROZEN; v2: "frozen 1" in
 * cgroup.events) and *any (v1: FREEZING too; v2: cgroup.freeze asked for
 * it). 0, or -1 with why.
 */
static int state(const struct hk_freeze_cg *cg, bool *frozen, bool *any, char *why,
		 size_t why_len)
{
	char buf[512];

	if (cg->hier == HK_FREEZE_HIER_V1) {
		if (read_file(cg, "freezer.state", buf, sizeof(buf), why, why_len))
			return -1;
		*frozen = !strncmp(buf, "FROZEN", 6);
		*any = *frozen || !strncmp(buf, "FREEZING", 8);
		return 0;
	}
	if (read_file(cg, "cgroup.events", buf, sizeof(buf), why, why_len))
		return -1;
	/* "populated 1\nfrozen 0\n" */
	*frozen = !strncmp(buf, "frozen 1\n", 9) || strstr(buf, "\nfrozen 1\n");
	if (*frozen) {
		*any = true;
		return 0;
	}
	if (read_file(cg, "cgroup.freeze", buf, sizeof(buf), why, why_len))
		return -1;
	*any = buf[0] == '1';
	return 0;
}

int hk_freeze__is_frozen(const struct hk_freeze_cg *cg, char *why, size_t why_len)
{
	bool frozen, any;

	if (state(cg, &frozen, &any, why, why_len))
		return -1;
	return any;
}

int hk_freeze__set(const struct hk_freeze_cg *cg, bool frozen, int wait_ms, __u64 *settle_ms,
		   char *why, size_t why_len)
{
	bool v1 = cg->hier == HK_FREEZE_HIER_V1;
	const char *val = v1 ? (frozen ? "FROZEN" : "THAWED") : (frozen ? "1" : "0");
	__u64 t0 = mono_ms(), now;
	bool is_frozen, any;

	if (write_file(cg, v1 ? "freezer.state" : "cgroup.freeze", val, why, why_len))
		return -1;
	for (;;) {
		if (state(cg, &is_frozen, &any, why, why_len))
			return -1;
		now = mono_ms();
		/* thawed: v2's events lag the write a little, as v1's never do */
		if (frozen ? is_frozen : !is_frozen && !any) {
			*settle_ms = now - t0;
			return 1;
		}
		if (now - t0 >= (__u64)wait_ms)
			break;
		usleep(POLL_MS * 1000);
	}
	if (frozen)
		hk_msg__fail(why, why_len, "not frozen after %d ms: %s", wait_ms,
			     v1 ? "freezer.state still FREEZING (a task cannot stop yet)" :
			     "cgroup.events still says frozen 0 (a task cannot stop yet)");
	else
		hk_msg__fail(why, why_len, "still frozen after %d ms: %s", wait_ms,
			     v1 ? "an ancestor in the freezer hierarchy is frozen "
			     "(freezer.parent_freezing)" : "an ancestor cgroup is frozen (its "
			     "cgroup.freeze is 1)");
	return 0;
}
