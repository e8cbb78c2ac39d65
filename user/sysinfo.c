// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * sysinfo.c - environment facts and preflight checks.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/capability.h>
#include "sysinfo.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

int hk_sys__fill_env(struct hk_config *c)
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
	return 0;
}

static int has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return !!(d[cap / 32].effective & (1U << (cap % 32)));
}

int hk_sys__check_privileges(char *err, size_t err_len)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	if (geteuid() == 0)
		return 0;
	if (syscall(SYS_capget, &hdr, data) == 0 &&
	    (has_cap(data, CAP_SYS_ADMIN) ||
	     (has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON))))
		return 0;
	snprintf(err, err_len,
		 "needs root, or CAP_BPF and CAP_PERFMON (try: sudo hotspot-k)");
	return -1;
}

int hk_sys__check_btf(char *err, size_t err_len)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0)
		return 0;
	snprintf(err, err_len,
		 "kernel has no BTF (/sys/kernel/btf/vmlinux: %s): needs CONFIG_DEBUG_INFO_BTF=y",
		 strerror(errno));
	return -1;
}

int hk_sys__check_kernel(char *err, size_t err_len)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0;	/* unknown: let the load say what is missing */
	if (major > HK_MIN_KERNEL_MAJOR ||
	    (major == HK_MIN_KERNEL_MAJOR && minor >= HK_MIN_KERNEL_MINOR))
		return 0;
	snprintf(err, err_len, "kernel %s is too old: needs Linux >= %u.%u",
		 u.release, HK_MIN_KERNEL_MAJOR, HK_MIN_KERNEL_MINOR);
	return -1;
}

__u32 hk_sys__nr_threads(void)
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

/* Does a /proc/PID/cgroup controller list ("cpu,cpuacct") name ctrl? */
static int lists_controller(const char *list, const char *ctrl)
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

int hk_sys__cgroup_path(__u32 pid, const char *controller, char *buf, size_t len)
{
	char path[64], line[4096], unified[4096] = "";
	int found = 0;
	FILE *f;

	if (!len)
		return -1;
	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *p;

		if (!ctrl)
			continue;
		p = strchr(ctrl + 1, ':');
		if (!p)
			continue;
		*p++ = '\0';
		p[strcspn(p, "\n")] = '\0';
		/* "ID:controllers:path": the v1 controller wins, else v2's */
		if (lists_controller(ctrl + 1, controller)) {
			snprintf(buf, len, "%s", p);
			found = 1;
			break;
		}
		if (!strcmp(line, "0") && ctrl[1] == '\0')
			snprintf(unified, sizeof(unified), "%s", p);
	}
	fclose(f);
	if (!found)
		snprintf(buf, len, "%s", unified);
	return 0;
}

__u32 hk_sys__default_max_procs(void)
{
	__u32 procs = 0, want = 4096;
	struct dirent *d;
	DIR *dir = opendir("/proc");

	if (dir) {
		while ((d = readdir(dir)))
			procs += d->d_name[0] >= '1' && d->d_name[0] <= '9';
		closedir(dir);
	}
	while (want < 4 * procs && want < 65536)
		want *= 2;
	return want;
}

__s64 hk_sys__wall_offset_ns(void)
{
	struct timespec rt, mono;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	return ((__s64)rt.tv_sec - mono.tv_sec) * (__s64)HK_NSEC_PER_SEC +
	       (rt.tv_nsec - mono.tv_nsec);
}
