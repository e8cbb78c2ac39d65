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
 * Each is anchored at the root, as systemd places units (cg_path_get_unit):
 * slices from the root, each in its parent ("a-b.slice" in "a.slice"), then
 * the unit; what a unit's cgroup holds below it is the unit's own (a user
 * manager's units are user@UID.service's). The cgroupfs shapes start at
 * the root too. Only whole: an id of 64 lowercase hex digits, a UID
 * 8-4-4-4-12. crio-conmon- and libpod-conmon- (the runtime's monitor
 * beside the container) are no container's.
 *
 * A name counts only where root chose it: a user given a cgroup (systemd's
 * Delegate=, a chown) names everything below it, and could name it
 * "nginx.service" or a victim's pod and container. So the walk stops at
 * the first directory that is not root's alone (security review 2, L1).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cgroup_id.h"
#include "owner.h"
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

/* systemd's nesting of slices: "a.slice" at the root, "a-b.slice" in
 * "a.slice" (parent NULL: at the root) */
static bool slice_in(const char *s, size_t n, const char *parent, size_t parent_n)
{
	size_t stem, from = 0;

	if (!ends_with(s, n, ".slice"))
		return false;
	stem = n - strlen(".slice");
	if (parent) {
		from = parent_n - strlen(".slice") + 1;
		if (stem <= from || memcmp(s, parent, from - 1) || s[from - 1] != '-')
			return false;
	}
	return stem > from && !memchr(s + from, '-', stem - from);
}

/* a path's components, at most left of them */
struct walk {
	const char *at;
	unsigned int left;
};

/* the next component's length, its start in *s; 0 at the end or the limit */
static size_t walk_next(struct walk *k, const char **s)
{
	size_t n;

	if (!k->left)
		return 0;
	k->at += strspn(k->at, "/");
	n = strcspn(k->at, "/");
	*s = k->at;
	k->at += n;
	if (n)
		k->left--;
	return n;
}

static bool is_name(const char *s, size_t n, const char *name)
{
	return n == strlen(name) && !memcmp(s, name, n);
}

/* the cgroupfs driver's shapes, s the first component */
static void parse_cgroupfs(struct hk_workload *w, const char *s, size_t n, struct walk *k)
{
	const char *id = NULL;

	if (is_name(s, n, "docker")) {
		n = walk_next(k, &s);
		id = n ? container_id(s, n, true) : NULL;
	} else if (is_name(s, n, "libpod_parent")) {
		n = walk_next(k, &s);
		id = n ? container_id(s, n, false) : NULL;
	} else if (is_name(s, n, "kubepods")) {
		n = walk_next(k, &s);
		if (is_name(s, n, "burstable") || is_name(s, n, "besteffort"))
			n = walk_next(k, &s);
		if (!n || !pod_uid(s, n, true, w->pod_uid))
			return;
		n = walk_next(k, &s);
		id = n ? container_id(s, n, true) : NULL;
	}
	if (id) {
		memcpy(w->container_id, id, ID_HEX);
		w->container_id[ID_HEX] = '\0';
	}
}

void hk_workload__parse(struct hk_workload *w, const char *path, unsigned int named)
{
	struct walk k = { path, named };
	const char *s = NULL, *slice = NULL, *id;
	size_t n, slice_n = 0;

	memset(w, 0, sizeof(*w));
	if (!path)
		return;
	while ((n = walk_next(&k, &s)) && slice_in(s, n, slice, slice_n)) {
		slice = s;
		slice_n = n;
	}
	/* a pod's slice is the innermost (kubelet puts its containers in it) */
	if (slice)
		pod_uid(slice, slice_n, false, w->pod_uid);
	if (!n)
		return;
	if (is_unit(s, n)) {
		memcpy(w->unit, s, n);
		w->unit[n] = '\0';
		w->system = !slice || !strncmp(path + strspn(path, "/"), "system.slice/", 13);
		id = container_id(s, n, false);
		if (id) {
			memcpy(w->container_id, id, ID_HEX);
			w->container_id[ID_HEX] = '\0';
			w->system = false;
		}
	} else if (!slice) {
		parse_cgroupfs(w, s, n, &k);
	}
}

/* a directory in which only owner (root) can make cgroups: its owner's,
 * written by no group or other */
static bool owner_only(int fd, uid_t owner)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISDIR(st.st_mode) && st.st_uid == owner &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

unsigned int hk_workload__root_named(const char *mount, const char *path, uid_t owner)
{
	struct walk k = { path, UINT_MAX };
	char name[NAME_MAX + 1];
	unsigned int named = 0;
	const char *s;
	int fd, sub;
	size_t n;

	fd = open(mount, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* each name is its parent's owner's choice: count it, then go on only
	 * while that owner is root; by fd, so that no component is looked up
	 * twice */
	while (owner_only(fd, owner) && (n = walk_next(&k, &s)) && n <= NAME_MAX &&
	       !is_name(s, n, ".") && !is_name(s, n, "..")) {
		memcpy(name, s, n);
		name[n] = '\0';
		sub = openat(fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			break;
		close(fd);
		fd = sub;
		named++;
	}
	close(fd);
	return named;
}

/* w from the path of one hierarchy (ctrl as for hk_sysinfo__cgroup_parse);
 * true when it names anything */
static bool from_hierarchy(struct hk_workload *w, const char *text, const char *ctrl,
			   const struct hk_workload_fs *fs)
{
	char mount[PATH_MAX], *path;

	memset(w, 0, sizeof(*w));
	path = hk_sysinfo__cgroup_parse(text, ctrl);
	if (path && !hk_cgid__mount(fs->mountinfo, ctrl, mount, sizeof(mount)))
		hk_workload__parse(w, path, hk_workload__root_named(mount, path, fs->owner_uid));
	free(path);
	return w->unit[0] || w->container_id[0] || w->pod_uid[0];
}

void hk_workload__from_proc(struct hk_workload *w, const char *text,
			    const struct hk_workload_fs *fs)
{
	struct hk_workload_fs own = { NULL, 0 };
	char *mountinfo = NULL;

	memset(w, 0, sizeof(*w));
	if (!fs) {
		mountinfo = hk_sysinfo__read_text("/proc/self/mountinfo");
		own.mountinfo = mountinfo;
		fs = &own;
	}
	/* no mount to check the owners under: nothing is known to be root's */
	if (text && fs->mountinfo && !from_hierarchy(w, text, "", fs))
		from_hierarchy(w, text, "name=systemd", fs);
	free(mountinfo);
}

void hk_workload__of_pid(struct hk_workload *w, __u32 pid, __u64 start_boottime_ns)
{
	struct hk_pidref r;
	char *text;

	memset(w, 0, sizeof(*w));
	if (hk_pidref__open(&r, pid, start_boottime_ns))
		return;
	text = hk_sysinfo__cgroup_file(pid);
	hk_workload__from_proc(w, text, NULL);
	free(text);
	w->owner_known = !hk_owner__of(pid, &w->owner_uid);
	/* read while the PID was still that process: its cgroup */
	if (!hk_pidref__held(&r))
		memset(w, 0, sizeof(*w));
	hk_pidref__close(&r);
}
