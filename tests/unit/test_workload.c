// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_workload.c - the unit, container id and pod UID of each cgroup
 * path shape (systemd units, containerd, CRI-O, docker, podman; systemd
 * and cgroupfs drivers), and "" for what is none of them, for what is not
 * where systemd or the runtime puts it, and for any name below a cgroup
 * delegated to a user (security review 2, L1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "check.h"
#include "suites.h"
#include "lib/workload.h"

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define UID "1c2d3e4f-aaaa-bbbb-cccc-123456789abc"
#define UID_ "1c2d3e4f_aaaa_bbbb_cccc_123456789abc"

static void check_wl(const char *path, unsigned int named, const char *unit,
		     const char *cid, const char *pod, unsigned int line)
{
	struct hk_workload w;

	hk_workload__parse(&w, path, named);
	check_true(!strcmp(w.unit, unit) && !strcmp(w.container_id, cid) &&
		   !strcmp(w.pod_uid, pod), line,
		   "%.300s (%u named): got unit \"%s\" id \"%s\" pod \"%s\", expected "
		   "\"%s\" \"%s\" \"%s\"", path ? path : "(null)", named, w.unit,
		   w.container_id, w.pod_uid, unit, cid, pod);
}

#define WL(path, unit, cid, pod) \
	check_wl((path), HK_WORKLOAD_ALL_NAMED, (unit), (cid), (pod), __LINE__)
/* only the first named components root's */
#define WLN(path, named, unit, cid, pod) \
	check_wl((path), (named), (unit), (cid), (pod), __LINE__)

static void test_units(void)
{
	WL("/system.slice/nginx.service", "nginx.service", "", "");
	/* a user manager's units are its own: user@UID.service, never a
	 * name that could pass for a system unit */
	WL("/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service",
	   "user@1000.service", "", "");
	/* systemd's own cgroup sits at the root */
	WL("/init.scope", "init.scope", "", "");
	WL("/user.slice/user-1000.slice/session-3.scope", "session-3.scope", "", "");
	/* a sub-cgroup of a unit is still the unit's */
	WL("/system.slice/nginx.service/workers", "nginx.service", "", "");
	/* systemd's escaping (\x2d) and templates */
	WL("/system.slice/system-getty.slice/getty@tty1.service", "getty@tty1.service", "", "");
	WL("/system.slice/a\\x2db.service", "a\\x2db.service", "", "");
	/* no unit: slices, the root, no path */
	WL("/system.slice", "", "", "");
	WL("/", "", "", "");
	WL("", "", "", "");
	WL(NULL, "", "", "");
	WL("/hk/leak", "", "", "");
}

static void test_kubernetes_systemd(void)
{
	WL("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	   ".slice/cri-containerd-" ID ".scope",
	   "cri-containerd-" ID ".scope", ID, UID);
	/* Guaranteed pods sit right under kubepods.slice */
	WL("/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" ID ".scope",
	   "crio-" ID ".scope", ID, UID);
	WL("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_
	   ".slice/docker-" ID ".scope", "docker-" ID ".scope", ID, UID);
	/* CRI-O's monitor: its scope, no container */
	WL("/kubepods.slice/kubepods-pod" UID_ ".slice/crio-conmon-" ID ".scope",
	   "crio-conmon-" ID ".scope", "", UID);
	/* the pod's own cgroup (the pause process's parent) */
	WL("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_ ".slice",
	   "", "", UID);
	/* kind: kubelet under a slice of its own */
	WL("/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
	   "kubelet-kubepods-besteffort-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	   "cri-containerd-" ID ".scope", ID, UID);
}

static void test_kubernetes_cgroupfs(void)
{
	WL("/kubepods/burstable/pod" UID "/" ID, "", ID, UID);
	WL("/kubepods/pod" UID "/" ID, "", ID, UID);
	WL("/kubepods/besteffort/pod" UID "/crio-" ID, "", ID, UID);
	/* the innermost id: a sub-cgroup the container made */
	WL("/kubepods/burstable/pod" UID "/" ID "/sub", "", ID, UID);
}

static void test_docker_podman(void)
{
	WL("/system.slice/docker-" ID ".scope", "docker-" ID ".scope", ID, "");
	WL("/docker/" ID, "", ID, "");
	/* docker in docker: the host's container (the names below it are
	 * the container's to choose) */
	WL("/docker/" ID "/docker/" ID2, "", ID, "");
	WL("/machine.slice/libpod-" ID ".scope", "libpod-" ID ".scope", ID, "");
	WL("/machine.slice/libpod-" ID ".scope/container", "libpod-" ID ".scope", ID, "");
	WL("/machine.slice/libpod-conmon-" ID ".scope", "libpod-conmon-" ID ".scope", "", "");
	WL("/libpod_parent/libpod-" ID, "", ID, "");
}

static void test_hostile(void)
{
	char long_unit[400], path[600];

	/* ids: one digit short, one long, upper case, not hex */
	WL("/docker/" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde", "", "", "");
	WL("/docker/" ID "0", "", "", "");
	WL("/docker/0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
	   "", "", "");
	WL("/system.slice/docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg.scope",
	   "docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg.scope",
	   "", "");
	/* an id alone anywhere but under docker or a pod is not one */
	WL("/hk/" ID, "", "", "");
	WL("/kubepods/burstable/" ID, "", "", "");
	/* "pod" with no UID, a short or malformed UID */
	WL("/kubepods/burstable/pod/" ID, "", "", "");
	WL("/kubepods/burstable/pod1c2d3e4f-aaaa-bbbb-cccc-123456789ab/" ID, "", "", "");
	WL("/kubepods/burstable/pod1c2d3e4f_aaaa_bbbb_cccc_123456789abc/" ID, "", "", "");
	WL("/kubepods.slice/kubepods-burstable-pod.slice", "", "", "");
	WL("/kubepods.slice/kubepods-burstable-pod" UID ".slice", "", "", "");
	/* pod<uid> outside kubepods is some other cgroup */
	WL("/pod" UID "/" ID, "", "", "");
	/* a name too long for a unit, and one with bytes systemd refuses */
	memset(long_unit, 'a', 300);
	strcpy(long_unit + 300, ".service");
	snprintf(path, sizeof(path), "/system.slice/%s", long_unit);
	WL(path, "", "", "");
	WL("/x/a b.service", "", "", "");
	WL("/x/a\"b.service", "", "", "");
	WL("/x/\xc3\xa9.service", "", "", "");
	WL("/x/.service", "", "", "");
	WL("//system.slice//nginx.service//", "nginx.service", "", "");
}

/* The shapes only where systemd and the runtimes put them: from the root */
static void test_anchored(void)
{
	/* not under a slice chain from the root */
	WL("/hk/nginx.service", "", "", "");
	WL("/hk/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	   "", "", "");
	/* a slice not in its parent, one at the root with a '-', the root's */
	WL("/system.slice/foo.slice/nginx.service", "", "", "");
	WL("/system-x.slice/nginx.service", "", "", "");
	WL("/-.slice/nginx.service", "", "", "");
	WL("/kubepods.slice/kubepods-besteffort-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	   "", "", "");
	/* below a unit: the unit's own cgroups, whatever their names */
	WL("/system.slice/nginx.service/kubepods.slice/kubepods-pod" UID_
	   ".slice/cri-containerd-" ID ".scope", "nginx.service", "", "");
	WL("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID ".scope",
	   "user@1000.service", "", "");
	WL("/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID
	   ".scope/cri-containerd-" ID2 ".scope", "cri-containerd-" ID ".scope", ID, UID);
	/* a slice chain then no unit: nothing but the pod */
	WL("/kubepods.slice/kubepods-pod" UID_ ".slice/" ID, "", "", UID);
	/* cgroupfs: at the root only */
	WL("/hk/docker/" ID, "", "", "");
	WL("/hk/kubepods/pod" UID "/" ID, "", "", "");
	WL("/kubepods/guaranteed/pod" UID "/" ID, "", "", "");
	WL("/libpod_parent/" ID, "", "", "");
}

/* Only the names root chose: the first named components */
static void test_named(void)
{
	static const char *const kube = "/a.slice/a-kubepods.slice/a-kubepods-pod" UID_
		".slice/cri-containerd-" ID ".scope";

	/* security review 2, L1: a-kubepods.slice given to a user, who names
	 * the pod and the container inside */
	WLN(kube, 2, "", "", "");
	WLN(kube, 3, "", "", UID);
	WLN(kube, 4, "cri-containerd-" ID ".scope", ID, UID);
	WLN(kube, 0, "", "", "");
	/* a delegated service: its own name is root's, below it the user's */
	WLN("/system.slice/hk-web.service/nginx.service", 2, "hk-web.service", "", "");
	WLN("/system.slice/nginx.service", 1, "", "", "");
	WLN("/user.slice/user-1000.slice/user@1000.service/kubepods-besteffort-pod" UID_
	    ".slice/cri-containerd-" ID ".scope", 3, "user@1000.service", "", "");
	/* cgroupfs */
	WLN("/kubepods/burstable/pod" UID "/" ID, 3, "", "", UID);
	WLN("/kubepods/burstable/pod" UID "/" ID, 4, "", ID, UID);
	WLN("/docker/" ID, 1, "", "", "");
	WLN("/docker/" ID, 2, "", ID, "");
	WLN("//system.slice//nginx.service//", 2, "nginx.service", "", "");
}

/* a directory tree for the owner walk, each directory 0755 */
static void mkdirs(const char *base, const char *const *dirs)
{
	char path[512];

	for (; *dirs; dirs++) {
		snprintf(path, sizeof(path), "%s/%s", base, *dirs);
		CU_ASSERT_FATAL(!mkdir(path, 0755) && !chmod(path, 0755));
	}
}

static void rm_tree(const char *base, const char *const *dirs)
{
	const char *const *d = dirs;
	char path[512];

	while (*d)
		d++;
	while (d-- > dirs) {
		snprintf(path, sizeof(path), "%s/%s", base, *d);
		rmdir(path);
	}
	rmdir(base);
}

static const char *const tree[] = {
	"v2", "v2/a.slice", "v2/a.slice/a-web.service",
	"v2/a.slice/a-web.service/nginx.service", "v1", "v1/docker", "v1/docker/" ID,
	NULL,
};

static void check_named(const char *base, const char *path, uid_t owner, unsigned int want,
			unsigned int line)
{
	char mount[512];
	unsigned int got;

	snprintf(mount, sizeof(mount), "%s/v2", base);
	got = hk_workload__root_named(mount, path, owner);
	check_true(got == want, line, "%s: %u names the owner's, expected %u", path, got, want);
}

#define NAMED(path, owner, want) check_named(base, (path), (owner), (want), __LINE__)

/* The walk over the directories: the owner's alone (not writable by
 * others: a chmod stands in for a chown, which needs root) */
static void test_root_named(void)
{
	char base[64], dir[512];
	uid_t me = geteuid();

	snprintf(base, sizeof(base), "/tmp/hk-unit-workload.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
	CU_ASSERT_FATAL(!chmod(base, 0755));
	mkdirs(base, tree);
	NAMED("/a.slice/a-web.service/nginx.service", me, 3);
	NAMED("/a.slice/a-web.service", me, 2);
	NAMED("/", me, 0);
	NAMED("", me, 0);
	/* not there, or no way down: the names so far */
	NAMED("/a.slice/gone.service/x", me, 1);
	NAMED("/a.slice/../a.slice/a-web.service", me, 1);
	NAMED("/a.slice/./a-web.service", me, 1);
	/* delegated: others may make cgroups in it; its own name counts */
	snprintf(dir, sizeof(dir), "%s/v2/a.slice/a-web.service", base);
	CU_ASSERT_FATAL(!chmod(dir, 0777));
	NAMED("/a.slice/a-web.service/nginx.service", me, 2);
	CU_ASSERT_FATAL(!chmod(dir, 0775));
	NAMED("/a.slice/a-web.service/nginx.service", me, 2);
	CU_ASSERT_FATAL(!chmod(dir, 0755));
	/* another owner's hierarchy, or one anybody may write at its root */
	NAMED("/a.slice/a-web.service/nginx.service", me + 1, 0);
	snprintf(dir, sizeof(dir), "%s/v2", base);
	CU_ASSERT_FATAL(!chmod(dir, 0777));
	NAMED("/a.slice", me, 0);
	CU_ASSERT_FATAL(!chmod(dir, 0755));
	/* a symlink is no cgroup */
	snprintf(dir, sizeof(dir), "%s/v2/link", base);
	CU_ASSERT_FATAL(!symlink("a.slice", dir));
	NAMED("/link/a-web.service", me, 0);
	unlink(dir);
	/* a mount point that is not there */
	snprintf(dir, sizeof(dir), "%s/none", base);
	EQ(hk_workload__root_named(dir, "/a.slice", me), 0);
	rm_tree(base, tree);
}

#define WL_EQ(w, u, c, p) \
	check_true(!strcmp((w).unit, (u)) && !strcmp((w).container_id, (c)) && \
		   !strcmp((w).pod_uid, (p)), __LINE__, "got \"%s\" \"%s\" \"%s\"", \
		   (w).unit, (w).container_id, (w).pod_uid)

static const char *const fp_tree[] = {
	"v2", "v2/system.slice", "v2/system.slice/nginx.service",
	"v2/system.slice/b.service", "v2/kubepods.slice", "v2/kubepods.slice/kubepods-pod" UID_ ".slice",
	"v2/kubepods.slice/kubepods-pod" UID_ ".slice/cri-containerd-" ID ".scope",
	"v1", "v1/system.slice", "v1/system.slice/a.service", "v1/docker", "v1/docker/" ID,
	NULL,
};

static void test_from_proc(void)
{
	static const char *const kube = "0::/kubepods.slice/kubepods-pod" UID_
		".slice/cri-containerd-" ID ".scope\n";
	char base[64], mountinfo[512], dir[512];
	struct hk_workload_fs fs = { mountinfo, geteuid() };
	struct hk_workload w;

	snprintf(base, sizeof(base), "/tmp/hk-unit-workload.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
	CU_ASSERT_FATAL(!chmod(base, 0755));
	mkdirs(base, fp_tree);
	snprintf(mountinfo, sizeof(mountinfo),
		 "40 31 0:37 / %s/v1 rw,relatime - cgroup cgroup rw,xattr,name=systemd\n"
		 "41 31 0:38 / %s/v2 rw,relatime - cgroup2 cgroup2 rw\n", base, base);
	/* pure v2 */
	hk_workload__from_proc(&w, "0::/system.slice/nginx.service\n", &fs);
	WL_EQ(w, "nginx.service", "", "");
	/* hybrid: the unified path names the unit */
	hk_workload__from_proc(&w, "4:memory:/hk/leak\n1:name=systemd:/system.slice/a.service\n"
			       "0::/system.slice/b.service\n", &fs);
	WL_EQ(w, "b.service", "", "");
	/* hybrid, unified at the root: name=systemd's */
	hk_workload__from_proc(&w, "4:memory:/hk/leak\n1:name=systemd:/docker/" ID "\n0::/\n", &fs);
	WL_EQ(w, "", ID, "");
	hk_workload__from_proc(&w, "4:memory:/hk/leak\n", &fs);
	WL_EQ(w, "", "", "");
	hk_workload__from_proc(&w, NULL, &fs);
	WL_EQ(w, "", "", "");
	/* a pod and container root made, then the same names in
	 * kubepods.slice delegated to a user: none */
	hk_workload__from_proc(&w, kube, &fs);
	WL_EQ(w, "cri-containerd-" ID ".scope", ID, UID);
	snprintf(dir, sizeof(dir), "%s/v2/kubepods.slice", base);
	CU_ASSERT_FATAL(!chmod(dir, 0777));
	hk_workload__from_proc(&w, kube, &fs);
	WL_EQ(w, "", "", "");
	CU_ASSERT_FATAL(!chmod(dir, 0755));
	/* the names of a directory that is not there (a path made up) */
	hk_workload__from_proc(&w, "0::/system.slice/c.service/x\n", &fs);
	WL_EQ(w, "", "", "");
	/* no mount point known: nothing is known to be root's */
	fs.mountinfo = "";
	hk_workload__from_proc(&w, "0::/system.slice/nginx.service\n", &fs);
	WL_EQ(w, "", "", "");
	fs.mountinfo = NULL;
	hk_workload__from_proc(&w, "0::/system.slice/nginx.service\n", &fs);
	WL_EQ(w, "", "", "");
	rm_tree(base, fp_tree);
}

static const struct hk_unit_test tests[] = {
	{ "systemd units", test_units },
	{ "Kubernetes, systemd driver", test_kubernetes_systemd },
	{ "Kubernetes, cgroupfs driver", test_kubernetes_cgroupfs },
	{ "docker, podman", test_docker_podman },
	{ "hostile paths: nothing guessed", test_hostile },
	{ "anchored at the root, as systemd places units", test_anchored },
	{ "only the names root chose", test_named },
	{ "the owner walk: the first delegated cgroup ends it", test_root_named },
	{ "which line of /proc/PID/cgroup, whose names", test_from_proc },
};

int hk_add_workload_suite(void)
{
	return HK_ADD_SUITE("workload", tests);
}
