// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sysinfo.c - environment facts and preflight checks.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include "sysinfo.h"

int hk_sysinfo__fill_env(struct hk_config *c)
{
	struct sysinfo si;
	struct stat st;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long page = sysconf(_SC_PAGESIZE);

	if (sysinfo(&si))
		return -errno;
	c->total_ram_bytes = (__u64)si.totalram * si.mem_unit;
	c->nr_cpus = cpus > 0 ? (__u32)cpus : 1;
	c->page_size_bytes = page > 0 ? (__u32)page : 4096;
	c->pidns_ino = stat("/proc/self/ns/pid", &st) ? 0 : (__u64)st.st_ino;
	c->nr_nodes = hk_sysinfo__nr_nodes();
	return 0;
}

__u32 hk_sysinfo__nr_nodes(void)
{
	return hk_sysinfo__nodes_at("/sys/devices/system/node/possible", "/proc/zoneinfo");
}

/* Without sysfs: the highest "Node N, zone" of /proc/zoneinfo, plus one
 * (the nodes with memory, all the headroom needs); without that too, as
 * many as the kernel side reads without bpf_loop. Never 1: that silently
 * left every node but 0 out of the headroom. The kernel side checks each
 * node it reads (its back pointer, its ID), so too many fails safe. */
static __u32 nodes_from_zoneinfo(const char *zoneinfo)
{
	char line[256];
	unsigned int nid;
	__u32 n = 0;
	FILE *f = fopen(zoneinfo, "re");

	if (!f)
		return HK_HOST_NODES_BOUNDED;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Node %u, zone", &nid) == 1 && nid < HK_HOST_NODES_MAX &&
		    nid + 1 > n)
			n = nid + 1;
	fclose(f);
	return n ? n : HK_HOST_NODES_BOUNDED;
}

__u32 hk_sysinfo__nodes_at(const char *possible, const char *zoneinfo)
{
	char buf[256], *p;
	unsigned long last = 0;
	FILE *f = fopen(possible, "re");

	if (!f)
		return nodes_from_zoneinfo(zoneinfo);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	/* the last number of the list is the highest */
	for (p = buf; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == buf || p[-1] < '0' || p[-1] > '9'))
			last = strtoul(p, NULL, 10);
	return last < HK_HOST_NODES_MAX ? (__u32)last + 1 : HK_HOST_NODES_MAX;
}

int hk_sysinfo__psi_memory(void)
{
	const char *test = getenv("HOTSPOT_K_TEST_PSI_MEMORY");

	/* for tests: another path stands in for it (RHEL's psi=0 default) */
	return access(test && *test ? test : "/proc/pressure/memory", F_OK) == 0;
}

__u64 hk_sysinfo__stat_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p = text;

	/* "key value\n" at the start of a line, key whole */
	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ' ')
			return strtoull(p + n + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

__u64 hk_sysinfo__proc_stat(const char *key)
{
	char *text = hk_sysinfo__read_text("/proc/stat");
	__u64 v;

	if (!text)
		return 0;
	v = hk_sysinfo__stat_value(text, key);
	free(text);
	return v;
}

__u32 hk_sysinfo__nr_threads(void)
{
	unsigned int running = 0, threads = 0;
	FILE *f = fopen("/proc/loadavg", "re");

	/* "0.00 0.01 0.05 1/123 4567": runnable/all tasks, kernel's included */
	if (f) {
		if (fscanf(f, "%*s %*s %*s %u/%u", &running, &threads) != 2)
			threads = 0;
		fclose(f);
	}
	return threads;
}

int hk_sysinfo__lists_controller(const char *list, const char *ctrl)
{
	size_t n = strlen(ctrl);

	while (*list) {
		if (!strncmp(list, ctrl, n) && (list[n] == ',' || !list[n]))
			return 1;
		list = strchr(list, ',');
		if (!list)
			break;
		list++;
	}
	return 0;
}

char *hk_sysinfo__read_text(const char *path)
{
	char *text = NULL, *grown;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, e = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	/* whole, however long: a path cut at a buffer's end would let its
	 * rest be read as a line of its own */
	for (;;) {
		if (cap - len < 4096 + 1) {
			cap = cap ? 2 * cap : 8192;
			grown = realloc(text, cap);
			if (!grown) {
				e = ENOMEM;
				break;
			}
			text = grown;
		}
		n = read(fd, text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* a read that failed (ENAMETOOLONG: see sysinfo.h) is not "" */
			e = errno ? errno : EIO;
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (e) {
		free(text);
		errno = e;
		return NULL;
	}
	text[len] = '\0';
	return text;
}

char *hk_sysinfo__cgroup_file(__u32 pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	return hk_sysinfo__read_text(path);
}

char *hk_sysinfo__cgroup_parse(const char *text, const char *controller)
{
	const char *line = text, *next;
	char *found = NULL, *unified = NULL, *buf = NULL;
	size_t cap = 0;

	for (; *line && !found; line = next) {
		size_t n = strcspn(line, "\n");
		char *ctrl, *p;

		next = line + n + (line[n] == '\n');
		if (n + 1 > cap) {
			char *grown = realloc(buf, n + 1);

			if (!grown)
				goto nomem;
			buf = grown;
			cap = n + 1;
		}
		memcpy(buf, line, n);
		buf[n] = '\0';
		/* both colons cut: the ID alone is "0" on the unified line (the
		 * ID's colon left in place, it never matched: issue #17) */
		ctrl = strchr(buf, ':');
		if (!ctrl)
			continue;
		*ctrl = '\0';
		p = strchr(ctrl + 1, ':');
		if (!p)
			continue;
		*p++ = '\0';
		/* "ID:controllers:path": the v1 controller wins, else v2's */
		if (hk_sysinfo__lists_controller(ctrl + 1, controller)) {
			if (!(found = strdup(p)))
				goto nomem;
		} else if (!strcmp(buf, "0") && ctrl[1] == '\0' && !unified) {
			if (!(unified = strdup(p)))
				goto nomem;
		}
	}
	free(buf);
	if (found) {
		free(unified);
		unified = found;
	}
	if (!unified)
		return strdup("");
	/* PATH_MAX - 1 bytes: cut by the kernel, or could have been */
	if (strlen(unified) >= PATH_MAX - 1) {
		free(unified);
		errno = ENAMETOOLONG;
		return NULL;
	}
	return unified;
nomem:
	free(buf);
	free(found);
	free(unified);
	errno = ENOMEM;
	return NULL;
}

char *hk_sysinfo__cgroup_path(__u32 pid, const char *controller)
{
	char *text = hk_sysinfo__cgroup_file(pid), *path;
	int e;

	if (!text)
		return NULL;
	path = hk_sysinfo__cgroup_parse(text, controller);
	e = errno;
	free(text);
	errno = e;
	return path;
}

void hk_sysinfo__mountinfo_unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
}

int hk_sysinfo__private_tmp(const char *dir, const char *mountinfo, char *why, size_t why_len)
{
	char real[PATH_MAX], *line = NULL, best_root[PATH_MAX] = "", best_mp[PATH_MAX] = "";
	size_t cap = 0, best = 0;
	FILE *f;

	if (!realpath(dir, real))
		return 0;
	f = fopen(mountinfo ? mountinfo : "/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	/* "ID PARENT MAJ:MIN ROOT MOUNT_POINT ...": the deepest mount over dir */
	while (getline(&line, &cap, f) > 0) {
		char *root, *mp, *save;
		size_t n;

		if (!strtok_r(line, " ", &save) || !strtok_r(NULL, " ", &save) ||
		    !strtok_r(NULL, " ", &save))
			continue;
		root = strtok_r(NULL, " ", &save);
		mp = strtok_r(NULL, " ", &save);
		if (!root || !mp)
			continue;
		hk_sysinfo__mountinfo_unescape(root);
		hk_sysinfo__mountinfo_unescape(mp);
		n = strlen(mp);
		if (strncmp(real, mp, n) || (real[n] != '/' && real[n] && n != 1) || n < best)
			continue;
		best = n;
		snprintf(best_root, sizeof(best_root), "%s", root);
		snprintf(best_mp, sizeof(best_mp), "%s", mp);
	}
	free(line);
	fclose(f);
	/* PrivateTmp= binds /tmp/systemd-private-ID-UNIT-RANDOM/tmp there */
	if (!strstr(best_root, "/systemd-private-"))
		return 0;
	snprintf(why, why_len, "%s", best_mp);
	return 1;
}

/* init_pid_ns's inode number, fixed (PROC_PID_INIT_INO, linux/proc_ns.h) */
#define PID_INIT_INO 0xEFFFFFFCU

int hk_sysinfo__pidns_is_init(__u64 pidns_ino)
{
	if (!pidns_ino)
		return -1;
	return pidns_ino == PID_INIT_INO;
}

__u32 hk_sysinfo__max_procs_for(__u32 procs)
{
	__u32 want = 4096;

	while (want < 4 * (__u64)procs && want < 65536)
		want *= 2;
	return want;
}

__u32 hk_sysinfo__nr_procs(void)
{
	__u32 procs = 0;
	struct dirent *d;
	DIR *dir;

	dir = opendir("/proc");
	if (dir) {
		while ((d = readdir(dir)))
			procs += d->d_name[0] >= '1' && d->d_name[0] <= '9';
		closedir(dir);
	}
	return procs;
}

__u32 hk_sysinfo__default_max_procs(__u64 pidns_ino)
{
	/* another PID namespace's /proc lists its processes only: the host's
	 * are counted by /proc/loadavg (tasks, threads included: never fewer
	 * than the processes) */
	if (hk_sysinfo__pidns_is_init(pidns_ino) == 0)
		return hk_sysinfo__max_procs_for(hk_sysinfo__nr_threads());
	return hk_sysinfo__max_procs_for(hk_sysinfo__nr_procs());
}

__s64 hk_sysinfo__wall_offset_ns(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((__s64)rt.tv_sec - mono.tv_sec) * (__s64)HK_NSEC_PER_SEC +
	       (rt.tv_nsec - mono.tv_nsec);
}

/*
 * The hierarchy a cgroup filter's path is in: where the memory controller
 * is (a hybrid host's v1 memory hierarchy), as the cgroup paths the tool
 * prints are; else the unified one.
 */
static const char *cgroup_root(__u32 *hier)
{
	static const char *const v2[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	char probe[64];
	size_t i;

	if (access("/sys/fs/cgroup/memory/tasks", F_OK) == 0) {
		*hier = HK_FILTER_HIER_V1_MEMORY;
		return "/sys/fs/cgroup/memory";
	}
	for (i = 0; i < sizeof(v2) / sizeof(v2[0]); i++) {
		snprintf(probe, sizeof(probe), "%s/cgroup.controllers", v2[i]);
		if (access(probe, F_OK) == 0) {
			*hier = HK_FILTER_HIER_V2;
			return v2[i];
		}
	}
	return NULL;
}

/* Components of a path below its root ("/a//b/" is 2): a cgroup's level,
 * as the kernel counts it (the paths here have no "." or ".."). */
static __u32 path_depth(const char *p)
{
	__u32 n = 0;

	for (; *p; p++)
		if (*p != '/' && (p[1] == '/' || !p[1]))
			n++;
	return n;
}

int hk_sysinfo__resolve_cgroup(struct hk_config *c, char *err, size_t err_len)
{
	char path[HK_FILTER_PATH_LEN + 64];
	const char *root;
	struct stat st;
	__u32 hier = HK_FILTER_HIER_NONE;

	c->filter_cgroup_id = 0;
	c->filter_cgroup_hier = HK_FILTER_HIER_NONE;
	c->filter_cgroup_level = 0;
	if (!c->filter_cgroup[0])
		return 0;
	root = cgroup_root(&hier);
	if (!root) {
		snprintf(err, err_len, "cgroup filter %.*s: no cgroup hierarchy mounted under "
			 "/sys/fs/cgroup", HK_FILTER_PATH_LEN, c->filter_cgroup);
		return -1;
	}
	/* a path given whole, under the mount point, is taken as such */
	if (!strncmp(c->filter_cgroup, root, strlen(root)) &&
	    (c->filter_cgroup[strlen(root)] == '/' || !c->filter_cgroup[strlen(root)]))
		snprintf(path, sizeof(path), "%s", c->filter_cgroup);
	else
		snprintf(path, sizeof(path), "%s%s", root, c->filter_cgroup);
	errno = 0;
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "cgroup filter %.*s: %s: %s", HK_FILTER_PATH_LEN,
			 c->filter_cgroup, path, errno ? strerror(errno) : "not a directory");
		return -1;
	}
	/* a cgroup directory's inode number is its kernfs node id */
	c->filter_cgroup_id = st.st_ino;
	c->filter_cgroup_hier = hier;
	c->filter_cgroup_level = path_depth(path + strlen(root));
	return 0;
}
