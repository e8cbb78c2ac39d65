// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader.c - the BPF side's lifecycle: open -> configure -> load -> attach
 * -> ring buffer -> arm; a reload's new config; and the teardown. The
 * hook, the walks driven from here, the cost and the pins are the other
 * loader_*.c files (loader_state.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "config/config.h"
#include "driver.h"
#include "kfields.h"
#include "lib/clock.h"
#include "loader.h"
#include "loader_kptr.h"
#include "loader_state.h"
#include "preflight.h"
#include "self_cost.h"
#include "lib/sysinfo.h"
#include "verifier_log.h"

/*
 * The ring buffer's records: transitions go to the caller; a hand-over
 * (HK_EV_HANDOVER: a timer driver's walk held a CPU too long, the timer
 * stopped) makes this process walk from now on, an interval after the
 * start of that last walk, and is kept for hk_loader__handover().
 */
static int loader_event(void *ctx, void *data, size_t size)
{
	struct hk_loader *l = ctx;
	const struct hk_event *e = data;

	if (size >= sizeof(*e) && e->type == HK_EV_HOOK) {
		hk_loader_hook__event(l, e);
		return 0;
	}
	if (size < sizeof(*e) || e->type != HK_EV_HANDOVER)
		return l->on_event(l->ctx, data, size);
	if (l->driver == HK_DRIVER_ITER)
		return 0;
	l->handover.from = l->driver;
	l->handover.walk_ns = e->ev.window_ns;
	l->handover.pending = 1;
	l->driver = HK_DRIVER_ITER;
	l->why = "a timer walk held a CPU over 2 chunks";
	l->next_walk_ns = e->time_ns + l->interval_ns;
	return 0;
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

/* A tests-only switch (hotspot-k(8), ENVIRONMENT): on at "1" alone. */
static int test_env_on(const char *name)
{
	const char *v = getenv(name);

	return v && !strcmp(v, "1");
}

int hk_loader__start(struct hk_loader **out, const struct hk_loader_opts *o,
		     char *err, size_t err_len)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	struct btf *vmlinux = NULL;
	const char *standin = getenv("HOTSPOT_K_TEST_BTF");
	char release[65];
	void *p;
	struct hk_config cfg;
	struct hk_loader *l;
	int e, args, oom_args, timer, i, as_old, arm_enomem;
	__u32 zero = 0;

	*out = NULL;
	hk_verifier_log__init(o->verbose);
	if (hk_preflight__check_privileges(err, err_len) || hk_preflight__check_btf(err, err_len) ||
	    hk_preflight__check_jit(HK_JIT_SYSCTL, err, err_len))
		return -1;

	/*
	 * HOTSPOT_K_TEST_BTF=FILE, for tests: relocate against a stand-in of
	 * the kernel's BTF (tests/bpf-prog-test/btf_standin.h: this kernel's
	 * less what an optional config compiles out) and judge the configs
	 * by it. Only the relocations change: the verifier still checks every
	 * access against the kernel's own BTF.
	 */
	if (standin && *standin)
		open_opts.btf_custom_path = standin;
	vmlinux = open_opts.btf_custom_path ? btf__parse(standin, NULL) :
		  btf__load_vmlinux_btf();
	if (!vmlinux) {
		snprintf(err, err_len, "cannot read the kernel's BTF%s%s: %s",
			 standin ? " stand-in " : "", standin ? standin : "", strerror(errno));
		return -1;
	}
	/* fields the BPF side reads directly: say which is missing, rather
	 * than a CO-RE relocation failure from the verifier */
	if (hk_driver__check_features(vmlinux, hk_preflight__release(release, sizeof(release)),
				      err, err_len) ||
	    hk_kfields__check(vmlinux, err, err_len)) {
		btf__free(vmlinux);
		return -1;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		btf__free(vmlinux);
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	l->interval_ns = o->cfg.interval_ns;
	l->stats_fd = -1;
	hk_kfields__blind(vmlinux, l->blind, sizeof(l->blind));
	/* before any program runs: every run of ours is timed */
	l->cost_source = hk_loader_cost__open(&l->stats_fd, o->bpf_stats);
	l->forks_at_start = hk_sysinfo__proc_stat("processes");
	/*
	 * 5.15, 5.16: bounded loops instead of bpf_loop() (bpf/loop.bpf.h);
	 * before 5.18: the 4-argument sched_switch program. For tests,
	 * HOTSPOT_K_AS_5_15=1 takes both paths on any kernel.
	 */
	as_old = test_env_on("HOTSPOT_K_AS_5_15");
	l->bounded_loops = as_old || !hk_driver__has_loop(vmlinux);
	args = as_old ? 4 : hk_driver__sched_switch_args(vmlinux);
	/* a kernel whose mark_victim differs from both loads without it */
	oom_args = hk_driver__mark_victim_args(vmlinux);
	if (oom_args < 0)
		l->oom_note = "no oom:mark_victim tracepoint in the kernel's BTF";
	else if (oom_args != 2 && oom_args != 3)
		l->oom_note = "oom:mark_victim has arguments this build does not know";
	e = hk_driver__choose(vmlinux, o->driver, o->pin, as_old, &l->driver, &l->why, err,
			      err_len);
	btf__free(vmlinux);
	if (e)
		goto cleanup;
	timer = l->driver != HK_DRIVER_ITER;

	l->skel = hotspot_bpf__open_opts(&open_opts);
	if (!l->skel) {
		snprintf(err, err_len, "cannot open the BPF object: %s", strerror(errno));
		goto cleanup;
	}
	if (hk_verifier_log__attach(l->skel->obj)) {
		snprintf(err, err_len, "out of memory");
		goto cleanup;
	}
	if (o->max_procs) {
		bpf_map__set_max_entries(l->skel->maps.hk_procs, o->max_procs);
		bpf_map__set_max_entries(l->skel->maps.hk_exits, o->max_procs);
		bpf_map__set_max_entries(l->skel->maps.hk_parked, o->max_procs);
	}
	l->skel->rodata->hk_bounded_loops = l->bounded_loops;
	/* HOTSPOT_K_TEST_LOSE_CUTS=1: the table's restart from a leader, for
	 * e2e table_restart (walk_table.bpf.h) */
	l->skel->rodata->hk_table_lose_cuts = test_env_on("HOTSPOT_K_TEST_LOSE_CUTS");
	/* the test entry is for the in-kernel tests only */
	bpf_program__set_autoload(l->skel->progs.hk_test_win, false);
	bpf_program__set_autoload(l->skel->progs.hk_arm, l->driver == HK_DRIVER_WQ);
	bpf_program__set_autoload(l->skel->progs.hk_arm_nowq, l->driver == HK_DRIVER_TIMER);
	/* the table driver's: its arm, its seed, its fork hook */
	bpf_program__set_autoload(l->skel->progs.hk_arm_table, l->driver == HK_DRIVER_TABLE);
	bpf_program__set_autoload(l->skel->progs.hk_table_seed, l->driver == HK_DRIVER_TABLE);
	bpf_program__set_autoload(l->skel->progs.hk_fork, l->driver == HK_DRIVER_TABLE);
	/* its exit hook: the table's entry dropped with its reference too */
	bpf_program__set_autoload(l->skel->progs.hk_exit, l->driver != HK_DRIVER_TABLE);
	bpf_program__set_autoload(l->skel->progs.hk_exit_table, l->driver == HK_DRIVER_TABLE);
	/* its leaders' slots (1 MiB) only where they are kept */
	if (l->driver != HK_DRIVER_TABLE)
		bpf_map__set_max_entries(l->skel->maps.hk_leaders, 1);
	else if ((e = hk_loader__kptr_tag(l->skel->obj, "hk_leader", "task"))) {
		snprintf(err, err_len, "cannot tag hk_leader.task as a kptr: %s", strerror(-e));
		goto cleanup;
	}
	/* --no-hook: nothing on the scheduler's hot path at all; else the
	 * hook is attached while the walk watches a thread (hook_gate.bpf.h),
	 * or for good under --pin, where nobody would attach it */
	bpf_program__set_autoload(l->skel->progs.hk_switch, !o->no_hook && args != 4);
	bpf_program__set_autoload(l->skel->progs.hk_switch_noarg, !o->no_hook && args == 4);
	/* made below, once: the skeleton would make a second, unused link */
	bpf_program__set_autoattach(l->skel->progs.hk_iter, false);
	bpf_program__set_autoattach(l->skel->progs.hk_switch, false);
	bpf_program__set_autoattach(l->skel->progs.hk_switch_noarg, false);
	if (!o->no_hook)
		l->hook_prog = args == 4 ? l->skel->progs.hk_switch_noarg :
			       l->skel->progs.hk_switch;
	/* OOM kills: (task, uid) since 6.8, (pid) before */
	bpf_program__set_autoload(l->skel->progs.hk_oom_kill, oom_args == 3);
	bpf_program__set_autoload(l->skel->progs.hk_oom_kill_pid, oom_args == 2);

	e = hotspot_bpf__load(l->skel);
	if (e)
		hk_verifier_log__failure(l->skel->obj, l->skel->maps.hk_procs, o->max_procs, err,
					 err_len, -e);
	hk_verifier_log__detach(l->skel->obj);
	if (e)
		goto cleanup;
	cfg = o->cfg;
	cfg.hook = o->no_hook ? HK_HOOK_NONE : o->pin ? HK_HOOK_ALWAYS : HK_HOOK_ON_DEMAND;
	/* HOTSPOT_K_TEST_HOOK_ALWAYS=1: the hook attached for good, as
	 * before it was attached on demand, for the bench to set side by
	 * side (figure 1) */
	if (cfg.hook == HK_HOOK_ON_DEMAND && test_env_on("HOTSPOT_K_TEST_HOOK_ALWAYS"))
		cfg.hook = HK_HOOK_ALWAYS;
	if (!cfg.chunk_ns)
		cfg.chunk_ns = HK_CHUNK_NS;
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.hk_config), &zero, &cfg, BPF_ANY)) {
		snprintf(err, err_len, "cannot write hk_config: %s", strerror(errno));
		goto cleanup;
	}
	l->cfg = cfg;
	/* before the fork hook is attached: it keeps the table from then */
	l->skel->bss->hk_table_on = l->driver == HK_DRIVER_TABLE;
	e = hotspot_bpf__attach(l->skel);
	if (e) {
		snprintf(err, err_len, "cannot attach to sched_process_exit: %s", strerror(-e));
		goto cleanup;
	}
	if (cfg.hook == HK_HOOK_ALWAYS && hk_loader_hook__attach(l, 0)) {
		snprintf(err, err_len, "cannot attach to sched_switch: %s",
			 strerror(l->hook.last_errno));
		goto cleanup;
	}
	l->iter_link = bpf_program__attach_iter(l->skel->progs.hk_iter, NULL);
	if (!l->iter_link) {
		snprintf(err, err_len, "cannot attach the iter/task program: %s", strerror(errno));
		goto cleanup;
	}
	/* the watchdog reads hk_stats every few windows: no system call */
	l->stats_len = ((sizeof(struct hk_stats) - 1) / getpagesize() + 1) * getpagesize();
	/* writable: the tool's own cost is its last part (hk_loader__cost) */
	p = mmap(NULL, l->stats_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(l->skel->maps.hk_stats), 0);
	l->stats = p == MAP_FAILED ? NULL : p;
	l->on_event = o->on_event;
	l->ctx = o->ctx;
	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.hk_events), loader_event, l, NULL);
	if (!l->rb) {
		snprintf(err, err_len, "cannot open the ring buffer: %s", strerror(errno));
		goto cleanup;
	}
	/* the first walk takes every thread's baseline, the costliest: in
	 * chunks, whatever the driver */
	e = hk_loader_walk__iter(l);
	if (e) {
		snprintf(err, err_len, "the first walk failed: reading the task iterator: %s",
			 strerror(-e));
		goto cleanup;
	}
	l->first = l->last;
	l->next_walk_ns = mono_ns() - l->first.wall_ns + l->interval_ns;
	if (timer) {
		/* the timer's and the work item's memory come from an atomic
		 * allocation that can fail for a moment (seen: ENOMEM next to
		 * 10 k new processes): try again for up to 1 s */
		/* HOTSPOT_K_TEST_ARM_ENOMEM=1: the tests' stand-in for that
		 * failure, which nothing else provokes at will */
		arm_enomem = test_env_on("HOTSPOT_K_TEST_ARM_ENOMEM");
		/* the table's processes: every one now, the fork hook's since */
		if (l->driver == HK_DRIVER_TABLE) {
			e = run_syscall_prog(l->skel->progs.hk_table_seed);
			if (e) {
				snprintf(err, err_len, "cannot fill the table of processes: %s",
					 strerror(-e));
				goto cleanup;
			}
		}
		for (i = 0; i < 50; i++) {
			e = arm_enomem ? -ENOMEM :
			    run_syscall_prog(l->driver == HK_DRIVER_WQ ? l->skel->progs.hk_arm :
					     l->driver == HK_DRIVER_TABLE ? l->skel->progs.hk_arm_table :
					     l->skel->progs.hk_arm_nowq);
			if (arm_enomem)
				break;
			if (e != -ENOMEM)
				break;
			usleep(20000);
		}
		/* still none (seen once on 6.18, whose timers come from
		 * kmalloc_nolock(), right after a cold boot): the walk is
		 * driven from here instead, as when a timer dies, unless
		 * nobody will be here to drive it (--pin) */
		if (e == -ENOMEM && !o->pin) {
			l->skel->bss->hk_timer_off = 1;
			l->driver = HK_DRIVER_ITER;
			l->why = "the kernel could not allocate the window timer (ENOMEM)";
			l->next_walk_ns = mono_ns() - l->first.wall_ns + l->interval_ns;
		} else if (e) {
			snprintf(err, err_len, "cannot arm the window timer: %s", strerror(-e));
			goto cleanup;
		}
	}
	/* the start's cost (the verifier's most of it) is said apart:
	 * the share of a CPU is the running tool's */
	l->ready_ns = mono_ns();
	l->start_cpu_ns = hk_self_cost__process_cpu_ns();
	l->start_walk_cpu_ns = l->stats ? l->stats->walk_cpu_ns_total : 0;
	l->iter_walk_cpu_ns = 0;
	*out = l;
	return 0;
cleanup:
	hk_verifier_log__free();
	hk_loader__destroy(l);
	return -1;
}

int hk_loader__reconfigure(struct hk_loader *l, const struct hk_config *want,
			   char *err, size_t err_len)
{
	struct hk_config cfg = *want;
	__u32 zero = 0;

	/* what userspace measured at start, and the load's choices, stay */
	cfg.nr_cpus = l->cfg.nr_cpus;
	cfg.total_ram_bytes = l->cfg.total_ram_bytes;
	cfg.page_size_bytes = l->cfg.page_size_bytes;
	cfg.hook = l->cfg.hook;
	cfg.pidns_ino = l->cfg.pidns_ino;
	cfg.chunk_ns = l->cfg.chunk_ns;
	/* new filters: the next walk drops the entries they leave out */
	cfg.filter_gen = l->cfg.filter_gen + hk_config__filters_differ(&l->cfg, &cfg);
	/*
	 * One write of the whole value: a walk running meanwhile may read a
	 * field or two of the old config and the rest of the new, for one
	 * window; per-process state is untouched.
	 */
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.hk_config), &zero, &cfg, BPF_ANY)) {
		snprintf(err, err_len, "cannot write hk_config: %s", strerror(errno));
		return -1;
	}
	l->cfg = cfg;
	/* the timer re-arms with the new interval by itself; a walk from
	 * here keeps its grid, at the new pace */
	if (l->driver == HK_DRIVER_ITER && cfg.interval_ns != l->interval_ns)
		l->next_walk_ns = l->next_walk_ns - l->interval_ns + cfg.interval_ns;
	l->interval_ns = cfg.interval_ns;
	return 0;
}

void hk_loader__config(const struct hk_loader *l, struct hk_config *out)
{
	*out = l->cfg;
}

__u64 hk_loader__interval_ns(const struct hk_loader *l)
{
	return l->interval_ns;
}

int hk_loader__ring_fd(const struct hk_loader *l)
{
	return ring_buffer__epoll_fd(l->rb);
}

int hk_loader__procs_fd(const struct hk_loader *l)
{
	return bpf_map__fd(l->skel->maps.hk_procs);
}

int hk_loader__consume(struct hk_loader *l)
{
	return ring_buffer__consume(l->rb);
}

const char *hk_loader__oom_note(const struct hk_loader *l)
{
	return l->oom_note;
}

const char *hk_loader__blind(const struct hk_loader *l)
{
	return l->blind[0] ? l->blind : NULL;
}

enum hk_driver hk_loader__driver(const struct hk_loader *l, const char **why)
{
	if (why)
		*why = l->why;
	return l->driver;
}

void hk_loader__destroy(struct hk_loader *l)
{
	if (!l)
		return;
	ring_buffer__free(l->rb);
	bpf_link__destroy(l->hook_link);
	if (l->stats_fd >= 0)
		close(l->stats_fd);
	if (l->stats)
		munmap((void *)l->stats, l->stats_len);
	bpf_link__destroy(l->iter_link);
	/* freeing hk_timer cancels the timer; links go with the skeleton */
	hotspot_bpf__destroy(l->skel);
	free(l);
}

int hk_loader__bounded_loops(const struct hk_loader *l)
{
	return l->bounded_loops;
}
