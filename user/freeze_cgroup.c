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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "freeze.h"
#include "msg.h"
#include "sysinfo.h"

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
	return hk_sys__cgroup_path(pid, fs->hier == HK_FREEZE_HIER_V1 ? "freezer" : "");
}

static bool exists(const char *dir, const char *file)
{
	char path[HK_FREEZE_PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return !access(path, F_OK);
}

int hk_freeze__resolve(const struct hk_freeze_fs *fs, const char *arg, bool whole_ok,
		       char *dir, size_t dir_len, char *rel, size_t rel_len,
		       enum hk_freeze_hier *hier, char *why, size_t why_len)
{
	const char *root = NULL, *in;
	struct stat st;
	size_t n;

	/* a whole path: its mount point is the hierarchy's root */
	if (whole_ok &&
	    (!strncmp(arg, CG_MOUNT "/", strlen(CG_MOUNT) + 1) || !strcmp(arg, CG_MOUNT))) {
		if (!strncmp(arg, V1_FREEZER, strlen(V1_FREEZER)) &&
		    (arg[strlen(V1_FREEZER)] == '/' || !arg[strlen(V1_FREEZER)]))
			root = V1_FREEZER;
		else if (!strncmp(arg, HYBRID_V2, strlen(HYBRID_V2)) &&
			 (arg[strlen(HYBRID_V2)] == '/' || !arg[strlen(HYBRID_V2)]))
			root = HYBRID_V2;
		else
			root = CG_MOUNT;
		in = arg + strlen(root);
		if (snprintf(dir, dir_len, "%s", arg) >= (int)dir_len)
			return hk_msg__fail(why, why_len, "%s: path too long", arg);
	} else {
		if (arg[0] != '/')
			return hk_msg__fail(why, why_len, "%s: not a cgroup path (it starts with "
					    "'/': a path within the freezer's hierarchy, or "
					    "under %s)", arg, CG_MOUNT);
		if (fs->hier == HK_FREEZE_HIER_NONE)
			return hk_msg__fail(why, why_len, "this host has no cgroup freezer");
		in = arg;
		if (snprintf(dir, dir_len, "%s%s", fs->root, arg) >= (int)dir_len)
			return hk_msg__fail(why, why_len, "%s: path too long", arg);
	}
	/* "/hk/leak/" is "/hk/leak"; the root is "/" */
	n = strlen(in);
	while (n > 1 && in[n - 1] == '/')
		n--;
	if (!n)
		in = "/", n = 1;
	if (n >= rel_len)
		return hk_msg__fail(why, why_len, "%s: path too long", arg);
	memcpy(rel, in, n);
	rel[n] = '\0';
	errno = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return hk_msg__fail(why, why_len, "%s: %s", dir,
				    errno ? strerror(errno) : "not a directory");
	if (exists(dir, "freezer.state"))
		*hier = HK_FREEZE_HIER_V1;
	else if (exists(dir, "cgroup.freeze"))
		*hier = HK_FREEZE_HIER_V2;
	else if (!strcmp(rel, "/"))
		return hk_msg__fail(why, why_len, "/ is the root cgroup (%s), which is never "
				    "frozen", dir);
	else
		return hk_msg__fail(why, why_len, "%s is not a cgroup with a freezer (no "
				    "freezer.state, no cgroup.freeze)", dir);
	return 0;
}

/* dir/file's text (a cgroup file is short): 0, or -1 with why. */
static int read_file(const char *dir, const char *file, char *buf, size_t len, char *why,
		     size_t why_len)
{
	char path[HK_FREEZE_PATH_MAX + 64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "re");
	if (!f)
		return hk_msg__fail(why, why_len, "%s: %s", path, strerror(errno));
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		return hk_msg__fail(why, why_len, "%s: %s", path, strerror(e));
	}
	fclose(f);
	buf[n] = '\0';
	return 0;
}

static int write_file(const char *dir, const char *file, const char *val, char *why,
		      size_t why_len)
{
	char path[HK_FREEZE_PATH_MAX + 64];
	FILE *f;
	int e = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "we");
	if (!f)
		return hk_msg__fail(why, why_len, "%s: %s", path, strerror(errno));
	/* the kernel answers the write itself: unbuffered, errno is its word */
	setvbuf(f, NULL, _IONBF, 0);
	if (fputs(val, f) == EOF)
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno ? errno : EIO;
	if (e)
		return hk_msg__fail(why, why_len, "writing %s to %s: %s", val, path, strerror(e));
	return 0;
}

/*
 * The state as two answers: *frozen (v1: FROZEN; v2: "frozen 1" in
 * cgroup.events) and *any (v1: FREEZING too; v2: cgroup.freeze asked for
 * it). 0, or -1 with why.
 */
static int state(const char *dir, enum hk_freeze_hier hier, bool *frozen, bool *any,
		 char *why, size_t why_len)
{
	char buf[512];

	if (hier == HK_FREEZE_HIER_V1) {
		if (read_file(dir, "freezer.state", buf, sizeof(buf), why, why_len))
			return -1;
		*frozen = !strncmp(buf, "FROZEN", 6);
		*any = *frozen || !strncmp(buf, "FREEZING", 8);
		return 0;
	}
	if (read_file(dir, "cgroup.events", buf, sizeof(buf), why, why_len))
		return -1;
	/* "populated 1\nfrozen 0\n" */
	*frozen = !strncmp(buf, "frozen 1\n", 9) || strstr(buf, "\nfrozen 1\n");
	if (*frozen) {
		*any = true;
		return 0;
	}
	if (read_file(dir, "cgroup.freeze", buf, sizeof(buf), why, why_len))
		return -1;
	*any = buf[0] == '1';
	return 0;
}

int hk_freeze__is_frozen(const char *dir, enum hk_freeze_hier hier, char *why,
			 size_t why_len)
{
	bool frozen, any;

	if (state(dir, hier, &frozen, &any, why, why_len))
		return -1;
	return any;
}

static __u64 mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000 + (__u64)ts.tv_nsec / 1000000;
}

int hk_freeze__set(const char *dir, enum hk_freeze_hier hier, bool frozen, int wait_ms,
		   __u64 *settle_ms, char *why, size_t why_len)
{
	const char *val = hier == HK_FREEZE_HIER_V1 ? (frozen ? "FROZEN" : "THAWED") :
			  (frozen ? "1" : "0");
	__u64 t0 = mono_ms(), now;
	bool is_frozen, any;

	if (write_file(dir, hier == HK_FREEZE_HIER_V1 ? "freezer.state" : "cgroup.freeze",
		       val, why, why_len))
		return -1;
	for (;;) {
		if (state(dir, hier, &is_frozen, &any, why, why_len))
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
			     hier == HK_FREEZE_HIER_V1 ? "freezer.state still FREEZING (a task "
			     "cannot stop yet)" : "cgroup.events still says frozen 0 (a task "
			     "cannot stop yet)");
	else
		hk_msg__fail(why, why_len, "still frozen after %d ms: %s", wait_ms,
			     hier == HK_FREEZE_HIER_V1 ? "an ancestor in the freezer hierarchy "
			     "is frozen (freezer.parent_freezing)" : "an ancestor cgroup is "
			     "frozen (its cgroup.freeze is 1)");
	return 0;
}
