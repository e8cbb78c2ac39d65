// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * workload.c - a cgroup path's systemd unit, container id and pod UID.
 *
 * The shapes (kubelet's and the runtimes' naming, systemd and cgroupfs
 * cgroup drivers):
 *   /system.slice/nginx.service                               unit
 *   /system.slice/docker-<id>.scope, /docker/<id>             docker
 *   /machine.slice/libpod-<id>.scope, /libpod_parent/libpod-<id>  podman
 *   /kubepods.slice/kubepods-burstable.slice/
 *     kubepods-burstable-pod<uid, '_' for '-'>.slice/
 *     cri-containerd-<id>.scope | crio-<id>.scope | docker-<id>.scope
 *   /kubepods/burstable/pod<uid>/<id> | crio-<id>                cgroupfs
 * Each part is taken from the innermost component that has that shape, and
 * only whole: an id of 64 lowercase hex digits, a UID 8-4-4-4-12. crio-conmon-
 * and libpod-conmon- (the runtime's monitor beside the container) are no
 * container's.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "pidref.h"
#include "sysinfo.h"
#include "workload.h"

#define ID_HEX 64
#define UID_LEN 36

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_hex(s[i]))
			return false;
	return true;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

/* "kubepods" in a component: kubelet's root ("kubepods.slice"), or under
 * a prefix (kind's "kubelet-kubepods-besteffort.slice") */
static bool names_kubepods(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 8 <= n; i++)
		if (!memcmp(s + i, "kubepods", 8))
			return true;
	return false;
}

/* systemd's unit name characters (unit_name_is_valid()) */
static bool is_unit(const char *s, size_t n)
{
	size_t i, stem;

	if (ends_with(s, n, ".service"))
		stem = n - strlen(".service");
	else if (ends_with(s, n, ".scope"))
		stem = n - strlen(".scope");
	else
		return false;
	if (!stem || n >= HK_WORKLOAD_UNIT_LEN)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr(":-_.\\@", c)))
			return false;
	}
	return true;
}

/*
 * A container's id in a component: "<runtime>-<id>.scope" (systemd
 * driver), "<runtime>-<id>" or, under docker's or a pod's cgroup, "<id>"
 * (cgroupfs). NULL when it is none.
 */
static const char *container_id(const char *s, size_t n, bool bare_ok)
{
	static const char *const runtimes[] = {
		"cri-containerd-", "crio-", "docker-", "libpod-",
	};
	size_t i;

	if (ends_with(s, n, ".scope"))
		n -= strlen(".scope");
	if (bare_ok && n == ID_HEX && all_hex(s, n))
		return s;
	for (i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		size_t k = strlen(runtimes[i]);

		if (n == k + ID_HEX && starts_with(s, n, runtimes[i]) && all_hex(s + k, ID_HEX))
			return s + k;
	}
	return NULL;
}

/* 8-4-4-4-12 hex digits, sep between the groups */
static bool is_uid(const char *s, size_t n, char sep)
{
	size_t i;

	if (n != UID_LEN)
		return false;
	for (i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? s[i] != sep : !is_hex(s[i]))
			return false;
	}
	return true;
}

/*
 * A pod's UID in a component under kubepods: "kubepods-...-pod<uid>.slice"
 * with '_' for '-' (systemd driver: '-' is its nesting), or "pod<uid>"
 * (cgroupfs). false when it is none.
 */
static bool pod_uid(const char *s, size_t n, bool under_kubepods, char *out)
{
	const char *u;
	size_t i;

	if (ends_with(s, n, ".slice")) {
		n -= strlen(".slice");
		if (n < UID_LEN + 4 || !names_kubepods(s, n - UID_LEN - 4) ||
		    memcmp(s + n - UID_LEN - 4, "-pod", 4))
			return false;
		u = s + n - UID_LEN;
		if (!is_uid(u, UID_LEN, '_'))
			return false;
	} else {
		if (!under_kubepods || n != 3 + UID_LEN || !starts_with(s, n, "pod"))
			return false;
		u = s + 3;
		if (!is_uid(u, UID_LEN, '-'))
			return false;
	}
	for (i = 0; i < UID_LEN; i++)
		out[i] = u[i] == '_' ? '-' : u[i];
	out[UID_LEN] = '\0';
	return true;
}

void hk_workload__parse(struct hk_workload *w, const char *path)
{
	bool under_kubepods = false, bare_ok = false;
	const char *s = path, *id;

	memset(w, 0, sizeof(*w));
	while (s && *s) {
		size_t n;
		bool pod;

		s += strspn(s, "/");
		n = strcspn(s, "/");
		if (!n)
			break;
		if (is_unit(s, n)) {
			memcpy(w->unit, s, n);
			w->unit[n] = '\0';
		}
		id = container_id(s, n, bare_ok);
		if (id) {
			memcpy(w->container_id, id, ID_HEX);
			w->container_id[ID_HEX] = '\0';
		}
		pod = pod_uid(s, n, under_kubepods, w->pod_uid);
		/* cgroupfs: an id alone is one only right under these */
		bare_ok = pod || (n == 6 && !memcmp(s, "docker", 6));
		if (names_kubepods(s, n))
			under_kubepods = true;
		s += n;
	}
}

void hk_workload__from_proc(struct hk_workload *w, const char *text)
{
	char *path;

	memset(w, 0, sizeof(*w));
	if (!text)
		return;
	path = hk_sysinfo__cgroup_parse(text, "");
	if (path)
		hk_workload__parse(w, path);
	free(path);
	if (w->unit[0] || w->container_id[0] || w->pod_uid[0])
		return;
	path = hk_sysinfo__cgroup_parse(text, "name=systemd");
	if (path)
		hk_workload__parse(w, path);
	free(path);
}

void hk_workload__of_pid(struct hk_workload *w, __u32 pid, __u64 start_boottime_ns)
{
	struct hk_pidref r;
	char *text;

	memset(w, 0, sizeof(*w));
	if (hk_pidref__open(&r, pid, start_boottime_ns))
		return;
	text = hk_sysinfo__cgroup_file(pid);
	hk_workload__from_proc(w, text);
	free(text);
	/* read while the PID was still that process: its cgroup */
	if (!hk_pidref__held(&r))
		memset(w, 0, sizeof(*w));
	hk_pidref__close(&r);
}
