// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader.c - load, configure, attach and arm the BPF side; tear it down.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "loader.h"
#include "sysinfo.h"
#include "hotspot.skel.h"

struct hk_loader {
	struct hotspot_bpf *skel;
	struct ring_buffer *rb;
	int uses_wq;
};

/* libbpf's output: all of it with -v, else only the verifier's last words */
static int log_verbose;
static char log_tail[4][256];
static unsigned int log_lines;
static char log_prog[64];

/* the verifier's statistics close its log: they say nothing of why */
static int log_line_is_noise(const char *p)
{
	static const char *const noise[] = {
		"processed ", "verification time", "stack depth", "PROG LOAD LOG",
		"libbpf:", "Validating ", "mark_precise", "last_idx",
	};
	size_t i;

	if (!*p)
		return 1;
	for (i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
		if (strstr(p, noise[i]))
			return 1;
	return 0;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *text = NULL, *p, *save = NULL;

	if (log_verbose)
		return vfprintf(stderr, fmt, ap);
	/* a whole verifier log comes in one call: keep its last lines */
	if (vasprintf(&text, fmt, ap) < 0)
		return 0;
	for (p = strtok_r(text, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		char *name = strstr(p, "prog '");

		if (name && strstr(p, "failed") && !log_prog[0])
			sscanf(name, "prog '%63[^']'", log_prog);
		if (log_line_is_noise(p))
			continue;
		snprintf(log_tail[log_lines++ % 4], sizeof(log_tail[0]), "%s", p);
	}
	free(text);
	return 0;
}

static void verifier_summary(char *err, size_t err_len, int e)
{
	unsigned int n = log_lines < 2 ? log_lines : 2, i;
	size_t off;

	off = snprintf(err, err_len, "loading BPF program%s%s failed: %s",
		       log_prog[0] ? " " : "", log_prog, strerror(e));
	if (!n) {
		if (e == EPERM && off < err_len)
			snprintf(err + off, err_len - off,
				 " (the kernel refused the program type)");
		return;
	}
	/* the last lines of the verifier log say what it rejected */
	for (i = log_lines - n; i < log_lines && off < err_len; i++)
		off += snprintf(err + off, err_len - off, "%s%s",
				i == log_lines - n ? ": " : " | ", log_tail[i % 4]);
	if (off < err_len)
		snprintf(err + off, err_len - off, " (full log with --verbose)");
}

static int kernel_has_func(const struct btf *vmlinux, const char *name)
{
	return vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0;
}

static int run_syscall_prog(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err)
		return -errno;
	return (int)opts.retval;
}

int hk_loader__start(struct hk_loader **out, const struct hk_loader_opts *o,
		     char *err, size_t err_len)
{
	struct btf *vmlinux = NULL;
	struct hk_config cfg;
	struct hk_loader *l;
	__u32 zero = 0;
	int e;

	*out = NULL;
	log_verbose = o->verbose;
	libbpf_set_print(libbpf_print);
	if (hk_sys__check_privileges(err, err_len) || hk_sys__check_btf(err, err_len))
		return -1;

	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		snprintf(err, err_len, "cannot read the kernel's BTF: %s", strerror(errno));
		return -1;
	}
	if (!kernel_has_func(vmlinux, "bpf_iter_task_new")) {
		btf__free(vmlinux);
		snprintf(err, err_len,
			 "kernel lacks the open-coded task iterator (bpf_iter_task_new, Linux >= 6.7)");
		return -1;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		btf__free(vmlinux);
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	/* bpf_wq (>= 6.10) lets the walk run in a kworker, not in softirq */
	l->uses_wq = kernel_has_func(vmlinux, "bpf_wq_start") && !o->force_timer_walk;
	btf__free(vmlinux);

	l->skel = hotspot_bpf__open();
	if (!l->skel) {
		snprintf(err, err_len, "cannot open the BPF object: %s", strerror(errno));
		goto cleanup;
	}
	if (o->max_procs) {
		bpf_map__set_max_entries(l->skel->maps.hk_procs, o->max_procs);
		bpf_map__set_max_entries(l->skel->maps.hk_exits, o->max_procs);
	}
	/* the test entry is for the in-kernel tests only */
	bpf_program__set_autoload(l->skel->progs.hk_test_win, false);
	bpf_program__set_autoload(l->skel->progs.hk_arm, l->uses_wq);
	bpf_program__set_autoload(l->skel->progs.hk_arm_nowq, !l->uses_wq);
	/* --no-hook: nothing on the scheduler's hot path at all */
	bpf_program__set_autoload(l->skel->progs.hk_switch, !o->no_hook);

	e = hotspot_bpf__load(l->skel);
	if (e) {
		verifier_summary(err, err_len, -e);
		goto cleanup;
	}
	cfg = o->cfg;
	cfg.hook = !o->no_hook;
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.hk_config), &zero, &cfg, BPF_ANY)) {
		snprintf(err, err_len, "cannot write hk_config: %s", strerror(errno));
		goto cleanup;
	}
	e = hotspot_bpf__attach(l->skel);
	if (e) {
		snprintf(err, err_len, "cannot attach to sched_switch/sched_process_exit: %s",
			 strerror(-e));
		goto cleanup;
	}
	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.hk_events), o->on_event,
				 o->ctx, NULL);
	if (!l->rb) {
		snprintf(err, err_len, "cannot open the ring buffer: %s", strerror(errno));
		goto cleanup;
	}
	e = run_syscall_prog(l->uses_wq ? l->skel->progs.hk_arm : l->skel->progs.hk_arm_nowq);
	if (e) {
		snprintf(err, err_len, "cannot arm the window timer: %s", strerror(-e));
		goto cleanup;
	}
	*out = l;
	return 0;
cleanup:
	hk_loader__destroy(l);
	return -1;
}

int hk_loader__poll(struct hk_loader *l, int timeout_ms)
{
	return ring_buffer__poll(l->rb, timeout_ms);
}

int hk_loader__stats(struct hk_loader *l, struct hk_stats *out)
{
	__u32 zero = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.hk_stats), &zero, out))
		return -errno;
	return 0;
}

int hk_loader__hook_cost(struct hk_loader *l, __u64 *run_ns, __u64 *run_cnt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_program__fd(l->skel->progs.hk_switch) < 0)
		return -ENOENT;	/* --no-hook */
	if (bpf_obj_get_info_by_fd(bpf_program__fd(l->skel->progs.hk_switch), &info, &len))
		return -errno;
	*run_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}

int hk_loader__uses_wq(const struct hk_loader *l)
{
	return l->uses_wq;
}

void hk_loader__destroy(struct hk_loader *l)
{
	if (!l)
		return;
	ring_buffer__free(l->rb);
	/* freeing hk_timer cancels the timer; links go with the skeleton */
	hotspot_bpf__destroy(l->skel);
	free(l);
}
