// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * standin_test - the real BPF object loaded as on kernels built without an
 * optional config (review kernel-2, finding 3): for each, a stand-in of
 * this kernel's BTF with what the config compiles out renamed away
 * (btf_standin.h), given to libbpf as btf_custom_path. Every program the
 * tool can load is loaded (each driver's walk, the iterator, the hooks),
 * then freed, nothing attached or run. Each stand-in must
 *  - load: the walk degrades rather than fails (a CO-RE guard inside each
 *    global function, which the verifier checks on its own);
 *  - get exactly one line from hk_kfields__blind() naming the config and
 *    what goes unseen, and this kernel's own BTF none.
 * And the features every driver needs, probed in the BTF instead of a
 * version gate (finding 11): this kernel's BTF named as RHEL 9's 5.14 passes;
 * a stand-in without one of them gets one line naming it and the kernel.
 * One line per stand-in; the last line is "N passed, N failed".
 *
 *   sudo build/standin-test [-v] [-k DIR]	(-v: libbpf's debug output and
 *						 the verifier's log; -k: keep
 *						 the stand-ins in DIR)
 *   build/standin-test -w DIR			(only write them, as DIR/CONFIG.btf:
 *						 tests/e2e/test_configs.py runs
 *						 the tool on each)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include "shared/hotspot.h"
#include "kernel/driver.h"
#include "kernel/kfields.h"
#include "kernel/loader_kptr.h"
#include "hotspot.skel.h"
#include "bpf-prog-test/btf_standin.h"

static int verbose;

static const char *const no_memcg[] = {
	"mem_cgroup", "mem_cgroup_per_node", "memcg_vmstats", "cgroup_subsys_id.memory_cgrp_id",
	NULL
};
/* the group scheduling members of sched/sched.h and sched.h */
static const char *const no_fair_group[] = {
	"sched_entity.cfs_rq", "sched_entity.my_q", "sched_entity.parent", "sched_entity.depth",
	"cfs_rq.rq", "cfs_rq.tg", "task_group.shares", "task_group.idle", "task_group.se",
	"task_group.cfs_rq", "task_group.cfs_bandwidth", NULL
};
/* CONFIG_CGROUP_SCHED=n: no task groups at all */
static const char *const no_cgroup_sched[] = {
	"sched_entity.cfs_rq", "sched_entity.my_q", "sched_entity.parent", "sched_entity.depth",
	"cfs_rq.rq", "cfs_rq.tg", "task_group", "task_struct.sched_task_group", NULL
};
static const char *const no_smp[] = {
	"task_struct.on_cpu", "task_struct.wake_cpu", "thread_info.cpu", "rq.cpu", NULL
};
/* a vendor's rss counter neither layout matches (openEuler's atomic mode) */
static const char *const rss_unknown[] = { "mm_struct.rss_stat", NULL };

/* what the start line must name; NULL: nothing unseen (on one CPU, the
 * task on it is the current one, and its CPU 0) */
static const struct {
	struct hk_standin s;
	const char *says;
} standins[] = {
	{ { "CONFIG_MEMCG", no_memcg }, "CONFIG_MEMCG" },
	{ { "CONFIG_FAIR_GROUP_SCHED", no_fair_group }, "CONFIG_FAIR_GROUP_SCHED" },
	{ { "CONFIG_CGROUP_SCHED", no_cgroup_sched }, "CONFIG_CGROUP_SCHED" },
	{ { "CONFIG_SMP", no_smp }, NULL },
	{ { "rss_stat", rss_unknown }, "rss_stat" },
};

/* a feature's name in the BTF, each gone in turn */
static const char *const features[] = {
	"btf_trace_sched_switch", "bpf_func_id.BPF_FUNC_probe_read_kernel", "bpf_iter__task",
	"bpf_func_id.BPF_FUNC_ringbuf_reserve", "bpf_func_id.BPF_FUNC_task_storage_get",
	"bpf_func_id.BPF_FUNC_get_current_task_btf", "bpf_func_id.BPF_FUNC_for_each_map_elem",
};
#define RHEL9_RELEASE "5.14.0-503.11.1.el9_5.x86_64"

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	if (!verbose)
		return 0;	/* the failure line says it; -v for all of it */
	return vfprintf(stderr, fmt, ap);
}

/* Load every program against the BTF at path: 0, or -errno. The test
 * entry stays out (its own object in prog-test); one of each pair the
 * loader picks between by the kernel's tracepoint arguments. */
static int load_all(const char *path)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = path);
	struct btf *btf = btf__load_vmlinux_btf();
	struct hotspot_bpf *skel;
	int err, args, oom_args;

	if (!btf)
		return -errno;
	args = hk_driver__sched_switch_args(btf);
	oom_args = hk_driver__mark_victim_args(btf);
	btf__free(btf);
	skel = hotspot_bpf__open_opts(&opts);
	if (!skel)
		return -errno;
	bpf_program__set_autoload(skel->progs.hk_test_win, false);
	bpf_program__set_autoload(skel->progs.hk_switch, args != 4);
	bpf_program__set_autoload(skel->progs.hk_switch_noarg, args == 4);
	bpf_program__set_autoload(skel->progs.hk_oom_kill, oom_args == 3);
	bpf_program__set_autoload(skel->progs.hk_oom_kill_pid, oom_args == 2);
	/* the table driver's programs too, as the tool's loader gives them
	 * their kptr (clang 14 drops its tag) */
	err = hk_loader__kptr_tag(skel->obj, "hk_leader", "task");
	if (!err)
		err = hotspot_bpf__load(skel);
	hotspot_bpf__destroy(skel);
	return err;
}

/* hk_driver__check_features() on the BTF at path (NULL: this kernel's) as
 * RHEL 9's release: its rc, its line in err. */
static int features_check(const char *path, char *err, size_t len)
{
	struct btf *btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
	int rc;

	err[0] = 0;
	if (!btf) {
		snprintf(err, len, "cannot read %s: %s", path ? path : "the kernel's BTF",
			 strerror(errno));
		return -2;
	}
	rc = hk_driver__check_features(btf, RHEL9_RELEASE, err, len);
	btf__free(btf);
	return rc;
}

/* Each feature gone in turn: named in one line, with the kernel's release. */
static void run_features(const char *dir, int *passed, int *failed)
{
	char path[512], msg[512], err[512];
	const char *gone[2] = { NULL, NULL };
	const char *name;
	size_t i;
	int rc;

	rc = features_check(NULL, err, sizeof(err));
	if (rc) {
		printf("FAIL features: this kernel's BTF as %s: rc %d, \"%s\"\n", RHEL9_RELEASE,
		       rc, err);
		(*failed)++;
	} else {
		printf("PASS features: this kernel's BTF as %s: loads, no version gate\n",
		       RHEL9_RELEASE);
		(*passed)++;
	}
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		struct hk_standin s = { features[i], gone };

		gone[0] = features[i];
		name = strchr(features[i], '.') ? strchr(features[i], '.') + 1 : features[i];
		snprintf(path, sizeof(path), "%s/hk-standin-%d-feature.btf", dir, (int)getpid());
		if (hk_standin__write(&s, path, msg, sizeof(msg))) {
			printf("FAIL features: %s\n", msg);
			(*failed)++;
			continue;
		}
		rc = features_check(path, err, sizeof(err));
		unlink(path);
		if (rc == -1 && strstr(err, name) && strstr(err, RHEL9_RELEASE) &&
		    !strchr(err, '\n')) {
			printf("PASS features: without %s: \"%s\"\n", name, err);
			(*passed)++;
		} else {
			printf("FAIL features: without %s: rc %d, \"%s\"; expected -1 and one line "
			       "naming it and %s\n", name, rc, err, RHEL9_RELEASE);
			(*failed)++;
		}
	}
}

/* One line or none from hk_kfields__blind() for the BTF at path. */
static int blind_line(const char *path, char *line, size_t len)
{
	struct btf *btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();

	line[0] = 0;
	if (!btf)
		return -errno;
	hk_kfields__blind(btf, line, len);
	btf__free(btf);
	return 0;
}

int main(int argc, char **argv)
{
	const char *keep = NULL;
	int passed = 0, failed = 0, err, i, write_only = 0;
	char path[512], msg[512], line[512];

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if ((!strcmp(argv[i], "-k") || !strcmp(argv[i], "-w")) && i + 1 < argc) {
			write_only = argv[i][1] == 'w';
			keep = argv[++i];
		} else {
			fprintf(stderr, "usage: standin-test [-v] [-k DIR | -w DIR]\n");
			return 2;
		}
	}
	libbpf_set_print(libbpf_print);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; write_only && i < (int)(sizeof(standins) / sizeof(standins[0])); i++) {
		snprintf(path, sizeof(path), "%s/%s.btf", keep, standins[i].s.config);
		if (hk_standin__write(&standins[i].s, path, msg, sizeof(msg))) {
			fprintf(stderr, "standin-test: %s\n", msg);
			return 1;
		}
	}
	if (write_only)
		return 0;
	if (geteuid()) {
		printf("FAIL needs root (a BPF load), euid is %u\n", geteuid());
		return 1;
	}
	/* this kernel has every config: nothing unseen */
	err = blind_line(NULL, line, sizeof(line));
	if (!err && !line[0]) {
		printf("PASS this kernel's BTF: nothing unseen\n");
		passed++;
	} else {
		printf("FAIL this kernel's BTF: \"%s\" (%s), expected nothing\n", line,
		       strerror(-err));
		failed++;
	}
	for (i = 0; i < (int)(sizeof(standins) / sizeof(standins[0])); i++) {
		const struct hk_standin *s = &standins[i].s;
		const char *says = standins[i].says;

		snprintf(path, sizeof(path), "%s/hk-standin-%d-%s.btf", keep ? keep : "/tmp",
			 (int)getpid(), s->config);
		if (keep)
			snprintf(path, sizeof(path), "%s/%s.btf", keep, s->config);
		if (hk_standin__write(s, path, msg, sizeof(msg))) {
			printf("FAIL %s: %s\n", s->config, msg);
			failed++;
			continue;
		}
		err = load_all(path);
		if (!err)
			err = blind_line(path, line, sizeof(line));
		if (!keep)
			unlink(path);
		if (err) {
			printf("FAIL %s=n: the load failed: %s (rerun with -v for the verifier's "
			       "log)\n", s->config, strerror(-err));
			failed++;
		} else if (says ? !strstr(line, says) || strchr(line, '\n') : line[0] != 0) {
			printf("FAIL %s=n: loads, but says \"%s\": expected %s%s\n", s->config,
			       line, says ? "one line naming " : "nothing", says ? says : "");
			failed++;
		} else {
			printf("PASS %s=n: loads; says \"%s\"\n", s->config, line);
			passed++;
		}
	}
	run_features(keep ? keep : "/tmp", &passed, &failed);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
