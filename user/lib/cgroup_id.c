// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cgroup_id.c - a cgroup id to its path, by walking up from the process's
 * own cgroup and comparing each directory's inode with the id: no scan of
 * the whole hierarchy (thousands of cgroups on a node), and the cgroup
 * that binds a process is always one of its ancestors.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cgroup_id.h"
#include "sysinfo.h"

int hk_cgid__mount(const char *mountinfo, const char *controller, char *out, size_t len)
{
	const char *line, *next;
	char v2[PATH_MAX] = "", buf[8192];
	bool found = false;

	for (line = mountinfo; line && *line && !found; line = next) {
		size_t n = strcspn(line, "\n");
		char *save, *f[5], *dash, *type, *opts;
		int i;

		next = line + n + (line[n] == '\n');
		if (n >= sizeof(buf))
			continue;
		memcpy(buf, line, n);
		buf[n] = '\0';
		/* "ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTS [TAGS] - TYPE SOURCE SUPER_OPTS" */
		dash = strstr(buf, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		type = strtok_r(dash + 3, " ", &save);
		strtok_r(NULL, " ", &save);
		opts = strtok_r(NULL, " ", &save);
		for (i = 0, f[0] = strtok_r(buf, " ", &save); i < 4 && f[i]; i++)
			f[i + 1] = strtok_r(NULL, " ", &save);
		if (i < 4 || !f[4] || !type)
			continue;
		hk_sysinfo__mountinfo_unescape(f[4]);
		if (!strcmp(type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof(v2), "%s", f[4]);
		else if (!strcmp(type, "cgroup") && controller[0] && opts &&
			 hk_sysinfo__lists_controller(opts, controller))
			found = (size_t)snprintf(out, len, "%s", f[4]) < len;
	}
	if (found)
		return 0;
	if (!v2[0] || (size_t)snprintf(out, len, "%s", v2) >= len)
		return -1;
	return 0;
}

char *hk_cgid__ancestor(const char *mount, const char *path, __u64 id)
{
	size_t m = strlen(mount), n;
	char *dir, *end;
	struct stat st;

	if (!id || path[0] != '/')
		return NULL;
	dir = malloc(m + strlen(path) + 1);
	if (!dir)
		return NULL;
	memcpy(dir, mount, m);
	strcpy(dir + m, path);
	/* the process's cgroup, then each parent up to the mount point */
	for (;;) {
		n = strlen(dir);
		while (n > m + 1 && dir[n - 1] == '/')
			dir[--n] = '\0';
		if (!stat(dir, &st) && S_ISDIR(st.st_mode) && (__u64)st.st_ino == id) {
			memmove(dir, dir + m, n - m + 1);
			if (!dir[0])
				strcpy(dir, "/");
			return dir;
		}
		end = strrchr(dir + m, '/');
		if (!end)
			break;
		*end = '\0';
	}
	free(dir);
	return NULL;
}

char *hk_cgid__path(const char *proc_cgroup, const char *mountinfo, const char *controller,
		    __u64 id)
{
	char mount[PATH_MAX], *path, *found;

	if (!id || !proc_cgroup || !mountinfo ||
	    hk_cgid__mount(mountinfo, controller, mount, sizeof(mount)))
		return NULL;
	path = hk_sysinfo__cgroup_parse(proc_cgroup, controller);
	if (!path)
		return NULL;
	found = hk_cgid__ancestor(mount, path, id);
	free(path);
	return found;
}

