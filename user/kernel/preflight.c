// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * preflight.c - what the kernel and this process's capabilities allow,
 * checked before libbpf is asked: one clear line instead of its vague
 * failures (a missing capability, no BTF), and whether
 * --profile can work here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include "preflight.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif
#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)
#endif

static int has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return !!(d[cap / 32].effective & (1U << (cap % 32)));
}

int hk_preflight__check_privileges(char *err, size_t err_len)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};
	int bpf, perfmon;

	/* root is not enough: a container or a service may have dropped them */
	if (syscall(SYS_capget, &hdr, data))
		return 0;	/* cannot tell: the load will say */
	if (has_cap(data, CAP_SYS_ADMIN))
		return 0;
	bpf = has_cap(data, CAP_BPF);
	perfmon = has_cap(data, CAP_PERFMON);
	if (bpf && perfmon)
		return 0;
	snprintf(err, err_len,
		 "missing capabilit%s %s%s%s (needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN)%s",
		 bpf || perfmon ? "y" : "ies", bpf ? "" : "CAP_BPF",
		 !bpf && !perfmon ? " and " : "", perfmon ? "" : "CAP_PERFMON",
		 geteuid() ? ": try sudo hotspot-k" :
		 ": root, but without them (a container, a service's CapabilityBoundingSet?)");
	return -1;
}

int hk_preflight__seccomp_filtered(void)
{
	char line[128];
	int mode = 0;
	FILE *f;

	f = fopen("/proc/self/status", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode == 2;	/* SECCOMP_MODE_FILTER */
}

int hk_preflight__need_root(const char *cmd, const char *what, char *err, size_t err_len)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {};

	/* root without its capabilities gets each step's own message */
	if (!geteuid())
		return 0;
	if (!syscall(SYS_capget, &hdr, data) && has_cap(data, CAP_SYS_ADMIN))
		return 0;
	snprintf(err, err_len, "needs root (%s), not uid %u: try sudo hotspot-k %s", what,
		 (unsigned int)geteuid(), cmd);
	return -1;
}

int hk_preflight__check_btf(char *err, size_t err_len)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK) == 0)
		return 0;
	snprintf(err, err_len,
		 "kernel has no BTF (/sys/kernel/btf/vmlinux: %s): needs CONFIG_DEBUG_INFO_BTF=y",
		 strerror(errno));
	return -1;
}

const char *hk_preflight__release(char *buf, size_t len)
{
	const char *test = getenv("HOTSPOT_K_TEST_RELEASE");
	struct utsname u;

	/* for tests: a kernel's name as a vendor's (RHEL 9's 5.14.0-...) */
	if (test && *test)
		snprintf(buf, len, "%s", test);
	else if (!uname(&u))
		snprintf(buf, len, "%s", u.release);
	else
		snprintf(buf, len, "(unknown)");
	return buf;
}

int hk_preflight__check_profile(char *why, size_t why_len)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};
	/* what the profiler opens on each CPU (profile/profile_object.c) */
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = 99,
	};
	int fd;

	fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		snprintf(why, why_len, "perf_event_open: %s%s", strerror(errno),
			 errno == EPERM ? " (a seccomp filter: the unit's SystemCallFilter= "
			 "lacks it?)" : errno == EACCES ? " (no CAP_PERFMON)" : "");
		return -1;
	}
	close(fd);
	if (syscall(SYS_capget, &hdr, data))
		return 0;	/* cannot tell: the profile will say */
	if (!has_cap(data, CAP_SYS_ADMIN) && !has_cap(data, CAP_SYS_PTRACE)) {
		snprintf(why, why_len, "no CAP_SYS_PTRACE: the memory maps of processes "
			 "(/proc/PID/maps) cannot be read");
		return -1;
	}
	if (!has_cap(data, CAP_SYS_ADMIN) && !has_cap(data, CAP_SYSLOG)) {
		snprintf(why, why_len, "no CAP_SYSLOG: /proc/kallsyms shows no addresses, "
			 "kernel frames go unnamed");
		return 1;
	}
	return 0;
}

void hk_preflight__jit_off(char *err, size_t err_len)
{
	snprintf(err, err_len,
		 "the kernel's BPF JIT is off (net.core.bpf_jit_enable=0) and hotspot-k's programs "
		 "need it: turn it on with sysctl net.core.bpf_jit_enable=1");
}

int hk_preflight__check_jit(const char *path, char *err, size_t err_len)
{
	char buf[16] = "";
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* no such switch here: the load will say */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	/* 1 on, 2 on with the JIT's images in the kernel log */
	if (n <= 0 || buf[0] != '0' || (buf[1] != '\n' && buf[1] != '\0'))
		return 0;
	hk_preflight__jit_off(err, err_len);
	return -1;
}

int hk_preflight__jit_refusal(const char *log)
{
	/* the verifier's words for it: "JIT is required for calling kernel
	 * function" (a kfunc), "callbacks are not allowed in non-JITed
	 * programs" (bpf_loop, bpf_timer, bpf_wq), "calling kernel functions
	 * are not allowed in non-JITed programs", "tail_calls are not allowed
	 * in non-JITed programs with bpf-to-bpf calls" */
	return log && (strstr(log, "JIT is required") || strstr(log, "non-JITed programs"));
}

int hk_preflight__preempt_rt(const char *version)
{
	struct utsname u;
	const char *p;

	if (!version) {
		if (uname(&u))
			return 0;
		version = u.version;
	}
	/* the preemption model is a word of the version string (the kernel's
	 * UTS_VERSION: "SMP PREEMPT_RT", "SMP PREEMPT_DYNAMIC"); the RT
	 * patches before 6.12's mainline merge say "PREEMPT RT" */
	for (p = version; (p = strstr(p, "PREEMPT")); p += 7)
		if ((p[7] == '_' || p[7] == ' ') && p[8] == 'R' && p[9] == 'T' &&
		    (p[10] == ' ' || p[10] == '\0'))
			return 1;
	return 0;
}
