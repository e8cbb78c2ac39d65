// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_cgroup_id.c - a cgroup id to its path: the hierarchy's mount point
 * from mountinfo (v1 with the controller, else cgroup2), and the walk up
 * from a process's cgroup comparing inodes, on a directory tree of our own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/cgroup_id.h"
#include "check.h"
#include "suites.h"

static const char hybrid[] =
	"24 1 0:22 / /sys/fs/cgroup ro,nosuid shared:9 - tmpfs tmpfs ro,mode=755\n"
	"25 24 0:23 / /sys/fs/cgroup/unified rw,nosuid shared:10 - cgroup2 cgroup2 rw,nsdelegate\n"
	"26 24 0:24 / /sys/fs/cgroup/systemd rw shared:11 - cgroup cgroup rw,xattr,name=systemd\n"
	"30 24 0:28 / /sys/fs/cgroup/cpu,cpuacct rw shared:15 - cgroup cgroup rw,cpu,cpuacct\n"
	"31 24 0:29 / /sys/fs/cgroup/memory rw shared:16 - cgroup cgroup rw,memory\n"
	"32 24 0:30 / /sys/fs/cgroup/net_cls,net_prio rw shared:17 - cgroup cgroup rw,net_cls,net_prio\n";

static const char pure_v2[] =
	"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"35 22 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
	"40 22 0:31 / /mnt/with\\040space rw shared:20 - cgroup cgroup rw,freezer\n";

static void check_mount(const char *mi, const char *ctrl, int want_rc, const char *want,
			unsigned int line)
{
	char out[256] = "";
	int rc = hk_cgid__mount(mi, ctrl, out, sizeof(out));

	check_true(rc == want_rc && (rc || !strcmp(out, want)), line,
		   "mount(\"%s\"): got %d \"%s\", expected %d \"%s\"", ctrl, rc, out, want_rc,
		   want ? want : "");
}

#define MOUNT(mi, ctrl, want) check_mount((mi), (ctrl), 0, (want), __LINE__)

static void test_mount(void)
{
	MOUNT(hybrid, "cpu", "/sys/fs/cgroup/cpu,cpuacct");
	MOUNT(hybrid, "cpuacct", "/sys/fs/cgroup/cpu,cpuacct");
	MOUNT(hybrid, "memory", "/sys/fs/cgroup/memory");
	MOUNT(hybrid, "", "/sys/fs/cgroup/unified");
	/* a controller v1 does not have here: the unified hierarchy's */
	MOUNT(hybrid, "io", "/sys/fs/cgroup/unified");
	/* a name that only starts the same is another controller */
	MOUNT(hybrid, "net", "/sys/fs/cgroup/unified");
	MOUNT(pure_v2, "cpu", "/sys/fs/cgroup");
	MOUNT(pure_v2, "memory", "/sys/fs/cgroup");
	MOUNT(pure_v2, "freezer", "/mnt/with space");
	check_mount("22 1 8:1 / / rw - ext4 /dev/sda1 rw\n", "cpu", -1, NULL, __LINE__);
	check_mount("", "", -1, NULL, __LINE__);
}

static char base[64];

static __u64 ino(const char *rel)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", base, rel);
	return stat(p, &st) ? 0 : (__u64)st.st_ino;
}

static void check_walk(const char *path, __u64 id, const char *want, unsigned int line)
{
	char *got = hk_cgid__ancestor(base, path, id);

	check_true(want ? got && !strcmp(got, want) : !got, line,
		   "ancestor(%s, %llu): got \"%s\", expected \"%s\"", path,
		   (unsigned long long)id, got ? got : "(null)", want ? want : "(null)");
	free(got);
}

#define WALK(path, id, want) check_walk((path), (id), (want), __LINE__)

static void test_walk(void)
{
	char cmd[256], mi[512], pc[] = "0::/kubepods.slice/pod.slice/c.scope\n", *got;

	snprintf(base, sizeof(base), "/tmp/hk-unit-cgid.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/kubepods.slice/pod.slice/c.scope %s/other",
		 base, base);
	CU_ASSERT_FATAL(system(cmd) == 0);
	WALK("/kubepods.slice/pod.slice/c.scope", ino("/kubepods.slice/pod.slice"),
	     "/kubepods.slice/pod.slice");
	WALK("/kubepods.slice/pod.slice/c.scope", ino("/kubepods.slice/pod.slice/c.scope"),
	     "/kubepods.slice/pod.slice/c.scope");
	WALK("/kubepods.slice/pod.slice/c.scope", ino("/kubepods.slice"), "/kubepods.slice");
	WALK("/kubepods.slice/pod.slice/c.scope", ino(""), "/");
	WALK("/kubepods.slice/pod.slice/c.scope/", ino("/kubepods.slice"), "/kubepods.slice");
	/* not an ancestor (a sibling's id), id 0, a path not ours */
	WALK("/kubepods.slice/pod.slice/c.scope", ino("/other"), NULL);
	WALK("/kubepods.slice/pod.slice/c.scope", 0, NULL);
	WALK("kubepods.slice", ino("/kubepods.slice"), NULL);
	/* a cgroup gone since: its ancestors still compared */
	WALK("/kubepods.slice/gone/deeper", ino("/kubepods.slice"), "/kubepods.slice");

	/* the whole way: /proc/PID/cgroup's text and mountinfo's */
	snprintf(mi, sizeof(mi), "35 22 0:30 / %s rw shared:9 - cgroup2 cgroup2 rw\n", base);
	got = hk_cgid__path(pc, mi, "cpu", ino("/kubepods.slice/pod.slice"));
	check_true(got && !strcmp(got, "/kubepods.slice/pod.slice"), __LINE__, "path: \"%s\"",
		   got ? got : "(null)");
	free(got);
	CU_ASSERT_PTR_NULL(hk_cgid__path(pc, mi, "memory", 0));
	CU_ASSERT_PTR_NULL(hk_cgid__path(pc, "", "memory", ino("/kubepods.slice")));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT(system(cmd) == 0);
}

static const struct hk_unit_test tests[] = {
	{ "mount point from mountinfo", test_mount },
	{ "walk up, inode compare", test_walk },
};

int hk_add_cgroup_id_suite(void)
{
	return HK_ADD_SUITE("cgroup_id", tests);
}
