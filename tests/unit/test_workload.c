// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_workload.c - the unit, container id and pod UID of each cgroup
 * path shape (systemd units, containerd, CRI-O, docker, podman; systemd
 * and cgroupfs drivers), and "" for what is none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "suites.h"
#include "lib/workload.h"

#define ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define ID2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define UID "1c2d3e4f-aaaa-bbbb-cccc-123456789abc"
#define UID_ "1c2d3e4f_aaaa_bbbb_cccc_123456789abc"

static void check_wl(const char *path, const char *unit, const char *cid,
		     const char *pod, unsigned int line)
{
	struct hk_workload w;

	hk_workload__parse(&w, path);
	check_true(!strcmp(w.unit, unit) && !strcmp(w.container_id, cid) &&
		   !strcmp(w.pod_uid, pod), line,
		   "%.300s: got unit \"%s\" id \"%s\" pod \"%s\", expected \"%s\" \"%s\" \"%s\"",
		   path ? path : "(null)", w.unit, w.container_id, w.pod_uid, unit, cid, pod);
}

#define WL(path, unit, cid, pod) check_wl((path), (unit), (cid), (pod), __LINE__)

static void test_units(void)
{
	WL("/system.slice/nginx.service", "nginx.service", "", "");
	WL("/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service",
	   "foo.service", "", "");
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
	/* docker in docker: the inner container */
	WL("/docker/" ID "/docker/" ID2, "", ID2, "");
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

static void test_from_proc(void)
{
	struct hk_workload w;

	/* pure v2 */
	hk_workload__from_proc(&w, "0::/system.slice/nginx.service\n");
	check_true(!strcmp(w.unit, "nginx.service"), __LINE__, "pure v2: \"%s\"", w.unit);
	/* hybrid: the unified path names the unit */
	hk_workload__from_proc(&w, "4:memory:/hk/leak\n1:name=systemd:/system.slice/a.service\n"
			       "0::/system.slice/b.service\n");
	check_true(!strcmp(w.unit, "b.service"), __LINE__, "hybrid: \"%s\"", w.unit);
	/* hybrid, unified at the root: name=systemd's */
	hk_workload__from_proc(&w, "4:memory:/hk/leak\n1:name=systemd:/docker/" ID "\n0::/\n");
	check_true(!strcmp(w.container_id, ID) && !w.unit[0], __LINE__,
		   "hybrid, root: \"%s\" \"%s\"", w.unit, w.container_id);
	hk_workload__from_proc(&w, "4:memory:/hk/leak\n");
	check_true(!w.unit[0] && !w.container_id[0] && !w.pod_uid[0], __LINE__, "v1 only");
	hk_workload__from_proc(&w, NULL);
	check_true(!w.unit[0], __LINE__, "NULL");
}

static const struct hk_unit_test tests[] = {
	{ "systemd units", test_units },
	{ "Kubernetes, systemd driver", test_kubernetes_systemd },
	{ "Kubernetes, cgroupfs driver", test_kubernetes_cgroupfs },
	{ "docker, podman", test_docker_podman },
	{ "hostile paths: nothing guessed", test_hostile },
	{ "which line of /proc/PID/cgroup", test_from_proc },
};

int hk_add_workload_suite(void)
{
	return HK_ADD_SUITE("workload", tests);
}
