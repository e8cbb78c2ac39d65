// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader.c - load, configure, attach and arm the BPF side; tear it down.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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
#include "preflight.h"
#include "self_cost.h"
#include "lib/sysinfo.h"
#include "verifier_log.h"
#include "hotspot.skel.h"

struct hk_loader {
	struct hotspot_bpf *skel;
	struct ring_buffer *rb;
	struct bpf_link *iter_link;
	enum hk_driver driver;
	const char *why;		/* why that driver */
	const char *oom_note;		/* why OOM kills go unseen; NULL: seen */
	char blind[400];		/* what this kernel's configs hide; "": none */
	__u64 interval_ns;
	__u64 next_walk_ns;		/* iter driver: CLOCK_MONOTONIC */
	struct hk_walk_cost first;	/* the walk made at start */
	struct hk_walk_cost last;
	int bounded_loops;		/* no bpf_loop(), or forced (tests) */
	ring_buffer_sample_fn on_event;	/* the caller's, for transitions */
	void *ctx;
	struct hk_handover handover;	/* a timer driver stopped; unread */
	struct hk_config cfg;		/* what hk_config holds */
	volatile struct hk_stats *stats;	/* hk_stats, mapped; NULL: look up */
	size_t stats_len;
	struct bpf_program *hook_prog;	/* hk_switch or hk_switch_noarg; NULL: --no-hook */
	struct bpf_link *hook_link;	/* NULL: not attached now */
	struct hk_hook_use hook;	/* when it was, and what attaching cost */
	__u64 iter_walk_cpu_ns;		/* walk_cpu_ns_total of walks made here */
	enum hk_cost_source cost_source;
	int stats_fd;			/* BPF_ENABLE_STATS held; -1: none */
	__u64 forks_at_start;		/* /proc/stat processes then */
	__u64 ready_ns;			/* the start ended (CLOCK_MONOTONIC) */
	__u64 start_cpu_ns;		/* this process's CPU then */
	__u64 start_walk_cpu_ns;	/* hk_stats.walk_cpu_ns_total then */
};

/*
 * The ring buffer's records: transitions go to the caller; a hand-over
 * (HK_EV_HANDOVER: a timer driver's walk held a CPU too long, the timer
 * stopped) makes this process walk from now on, an interval after the
 * start of that last walk, and is kept for hk_loader__handover().
 */
/* The hook attached now (at the walk's ask, or for good under --pin). */
static int hook_attach(struct hk_loader *l, __u64 asked_ns)
{
	__u64 now_ns;

	if (l->hook_link)
		return 0;
	l->hook_link = bpf_program__attach(l->hook_prog);
	if (!l->hook_link) {
		l->hook.failures++;
		l->hook.last_errno = errno;
		return -errno;
	}
	now_ns = mono_ns();
	l->hook.attaches++;
	l->hook.since_ns = now_ns;
	l->hook.ctxt_at_attach = hk_sysinfo__proc_stat("ctxt");
	if (asked_ns && now_ns > asked_ns && now_ns - asked_ns > l->hook.attach_ns_max)
		l->hook.attach_ns_max = now_ns - asked_ns;
	return 0;
}

static void hook_detach(struct hk_loader *l)
{
	__u64 ctxt;

	if (!l->hook_link)
		return;
	bpf_link__destroy(l->hook_link);
	l->hook_link = NULL;
	l->hook.detaches++;
	l->hook.attached_ns += mono_ns() - l->hook.since_ns;
	ctxt = hk_sysinfo__proc_stat("ctxt");
	if (ctxt > l->hook.ctxt_at_attach)
		l->hook.switches_attached += ctxt - l->hook.ctxt_at_attach;
}

/*
 * The walk asks for the hook (HK_EV_HOOK): attached or detached at once.
 * An attach that fails is said by the loop (hk_loader__hook_use) and
 * asked again by the next walk that watches a thread.
 */
static void hook_event(struct hk_loader *l, const struct hk_event *e)
{
	if (!l->hook_prog || l->cfg.hook != HK_HOOK_ON_DEMAND)
		return;
	if (!e->from) {
		hook_detach(l);
		return;
	}
	if (hook_attach(l, e->time_ns))
		l->skel->bss->hk_hook_wanted = 0;
}

static int loader_event(void *ctx, void *data, size_t size)
{
	struct hk_loader *l = ctx;
	const struct hk_event *e = data;

	if (size >= sizeof(*e) && e->type == HK_EV_HOOK) {
		hook_event(l, e);
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

/*
 * With --bpf-stats, BPF_ENABLE_STATS for the tool's lifetime
 * (CAP_SYS_ADMIN): HK_COST_STATS and *fd to close at exit. Not by default:
 * the fd turns on a host-wide static key, and every BPF program on the
 * host (a datapath's included) then pays two clock reads a run. Else
 * HK_COST_SYSCTL when the sysctl is on already, HK_COST_ESTIMATE when not
 * (*fd -1).
 */
static enum hk_cost_source cost_open(int *fd, int bpf_stats)
{
	char *text;
	int on;

	*fd = bpf_stats ? bpf_enable_stats(BPF_STATS_RUN_TIME) : -1;
	if (*fd >= 0)
		return HK_COST_STATS;
	*fd = -1;
	text = hk_sysinfo__read_text("/proc/sys/kernel/bpf_stats_enabled");
	on = text && text[0] == '1';
	free(text);
	return on ? HK_COST_SYSCTL : HK_COST_ESTIMATE;
}

/* A program's runs so far (zeros when fd < 0). 0 or -errno. */
static int prog_runs(int fd, struct hk_prog_runs *out)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return 0;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	out->runs = info.run_cnt;
	out->run_ns = info.run_time_ns;
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

/*
 * One walk by the iter/task program: a new iterator, read to its end. The
 * program writes nothing, so one read() walks every thread (the kernel
 * offers the CPU between threads); over 1 M threads with nothing written
 * it returns EAGAIN and the next read() goes on.
 */
static int iter_walk(struct hk_loader *l)
{
	__u64 start_ns = mono_ns(), cpu0_ns = l->stats ? l->stats->walk_cpu_ns_total : 0;
	unsigned int syscalls = 1;
	char buf[4096];
	ssize_t n;
	int fd, e = 0;

	fd = bpf_iter_create(bpf_link__fd(l->iter_link));
	if (fd < 0)
		return -errno;
	do {
		n = read(fd, buf, sizeof(buf));
		syscalls++;
		if (n < 0 && errno != EINTR && errno != EAGAIN) {
			e = -errno;
			break;
		}
	} while (n != 0);
	close(fd);
	/* the walk ran in this process's read(): its CPU time is counted
	 * there too, not to be added twice to the tool's cost */
	if (l->stats && l->stats->walk_cpu_ns_total > cpu0_ns)
		l->iter_walk_cpu_ns += l->stats->walk_cpu_ns_total - cpu0_ns;
	l->last.syscalls = syscalls + 1;
	l->last.wall_ns = mono_ns() - start_ns;
	return e;
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
	l->cost_source = cost_open(&l->stats_fd, o->bpf_stats);
	l->forks_at_start = hk_sysinfo__proc_stat("processes");
	/*
	 * 5.15, 5.16: bounded loops instead of bpf_loop() (bpf/loop.bpf.h);
	 * before 5.18: the 4-argument sched_switch program. For tests,
	 * HOTSPOT_K_AS_5_15=1 takes both paths on any kernel.
	 */
	as_old = getenv("HOTSPOT_K_AS_5_15") && !strcmp(getenv("HOTSPOT_K_AS_5_15"), "1");
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
	/* the test entry is for the in-kernel tests only */
	bpf_program__set_autoload(l->skel->progs.hk_test_win, false);
	bpf_program__set_autoload(l->skel->progs.hk_arm, l->driver == HK_DRIVER_WQ);
	bpf_program__set_autoload(l->skel->progs.hk_arm_nowq, l->driver == HK_DRIVER_TIMER);
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
	if (cfg.hook == HK_HOOK_ON_DEMAND && getenv("HOTSPOT_K_TEST_HOOK_ALWAYS") &&
	    !strcmp(getenv("HOTSPOT_K_TEST_HOOK_ALWAYS"), "1"))
		cfg.hook = HK_HOOK_ALWAYS;
	if (!cfg.chunk_ns)
		cfg.chunk_ns = HK_CHUNK_NS;
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.hk_config), &zero, &cfg, BPF_ANY)) {
		snprintf(err, err_len, "cannot write hk_config: %s", strerror(errno));
		goto cleanup;
	}
	l->cfg = cfg;
	e = hotspot_bpf__attach(l->skel);
	if (e) {
		snprintf(err, err_len, "cannot attach to sched_process_exit: %s", strerror(-e));
		goto cleanup;
	}
	if (cfg.hook == HK_HOOK_ALWAYS && hook_attach(l, 0)) {
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
	e = iter_walk(l);
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
		arm_enomem = getenv("HOTSPOT_K_TEST_ARM_ENOMEM") &&
			     !strcmp(getenv("HOTSPOT_K_TEST_ARM_ENOMEM"), "1");
		for (i = 0; i < 50; i++) {
			e = arm_enomem ? -ENOMEM :
			    run_syscall_prog(l->driver == HK_DRIVER_WQ ? l->skel->progs.hk_arm :
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

int hk_loader__timeout_ms(const struct hk_loader *l)
{
	__u64 now_ns;

	if (l->driver != HK_DRIVER_ITER)
		return -1;	/* the kernel's timer walks: nothing to do here */
	now_ns = mono_ns();
	if (now_ns >= l->next_walk_ns)
		return 0;
	return (int)((l->next_walk_ns - now_ns + HK_NSEC_PER_MSEC - 1) / HK_NSEC_PER_MSEC);
}

int hk_loader__walk_if_due(struct hk_loader *l)
{
	__u64 now_ns;
	int e;

	if (l->driver != HK_DRIVER_ITER)
		return 0;
	now_ns = mono_ns();
	if (now_ns < l->next_walk_ns)
		return 0;
	e = iter_walk(l);
	/* on the interval's grid; a late walk (the tool was stopped) does
	 * not make the next ones come in a burst */
	l->next_walk_ns += l->interval_ns;
	if (l->next_walk_ns <= now_ns)
		l->next_walk_ns = now_ns + l->interval_ns;
	return e;
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

int hk_loader__pin(struct hk_loader *l, const char *dir, char *err, size_t err_len)
{
	/* the OOM kill's too: pinned, it keeps noting kills for `follow` */
	struct bpf_link *links[] = {
		l->hook_link, l->skel->links.hk_exit,
		l->skel->links.hk_oom_kill, l->skel->links.hk_oom_kill_pid,
	};
	const char *names[] = { l->hook_prog == l->skel->progs.hk_switch_noarg ?
				"link_hk_switch_noarg" : "link_hk_switch", "link_hk_exit",
				"link_hk_oom_kill", "link_hk_oom_kill_pid" };
	struct hk_config cfg = l->cfg;
	char path[256];
	__u32 zero = 0, i;
	int e;

	if (l->driver == HK_DRIVER_ITER) {
		snprintf(err, err_len, "--pin: driver iter is walked from userspace, which "
			 "--pin leaves: it needs driver wq or timer (Linux >= 6.7, "
			 "not PREEMPT_RT)");
		return -1;
	}
	/* nobody reads the ring buffer to take a hand-over: the timer walks
	 * for good, however long it takes */
	cfg.chunk_ns = 0;
	/* nobody updates the tool's own cost either: `status` says none
	 * rather than this process's, frozen at its exit */
	if (l->stats)
		memset((void *)&l->stats->cost, 0, sizeof(l->stats->cost));
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.hk_config), &zero, &cfg, BPF_ANY)) {
		snprintf(err, err_len, "--pin: cannot write hk_config: %s", strerror(errno));
		return -1;
	}
	l->cfg = cfg;
	e = bpf_object__pin_maps(l->skel->obj, dir);
	if (e) {
		snprintf(err, err_len, "--pin: pinning the maps: %s", strerror(-e));
		return -1;
	}
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		if (!links[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		e = bpf_link__pin(links[i], path);
		if (e) {
			snprintf(err, err_len, "--pin: pinning %s: %s", names[i], strerror(-e));
			return -1;
		}
	}
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

int hk_loader__take_over(struct hk_loader *l)
{
	if (l->driver == HK_DRIVER_ITER)
		return 0;
	/* the timer stays off even if it was only late, not dead: two
	 * drivers must never walk at once */
	l->skel->bss->hk_timer_off = 1;
	/* before any iter walk reads hk_timer_walking (see walk.bpf.h) */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	l->driver = HK_DRIVER_ITER;
	l->why = "the kernel's timer stopped";
	l->next_walk_ns = mono_ns();
	return 1;
}

int hk_loader__stats(struct hk_loader *l, struct hk_stats *out)
{
	__u32 zero = 0;

	/* a copy of a live struct: each field is read whole (aligned u64s),
	 * the fields together are not one snapshot, as with a lookup */
	if (l->stats) {
		memcpy(out, (const void *)l->stats, sizeof(*out));
		return 0;
	}
	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.hk_stats), &zero, out))
		return -errno;
	return 0;
}

int hk_loader__cost(struct hk_loader *l, struct hk_cost *out)
{
	struct hk_self_cost_in in = { .source = l->cost_source, .hook = l->hook };
	struct bpf_program *oom = l->skel->progs.hk_oom_kill;
	__u64 now_ns = mono_ns(), ctxt, forks;

	in.lifetime_ns = now_ns - l->ready_ns;
	in.start_cpu_ns = l->start_cpu_ns;
	in.start_walk_cpu_ns = l->start_walk_cpu_ns;
	in.hook_attached = !!l->hook_link;
	if (l->hook_link) {
		in.hook.attached_ns += now_ns - l->hook.since_ns;
		if (in.source == HK_COST_ESTIMATE) {
			ctxt = hk_sysinfo__proc_stat("ctxt");
			if (ctxt > l->hook.ctxt_at_attach)
				in.hook.switches_attached += ctxt - l->hook.ctxt_at_attach;
		}
	}
	if (l->hook_prog)
		prog_runs(bpf_program__fd(l->hook_prog), &in.hook_prog);
	prog_runs(bpf_program__fd(l->skel->progs.hk_exit), &in.exit_prog);
	if (bpf_program__fd(oom) < 0)
		oom = l->skel->progs.hk_oom_kill_pid;
	prog_runs(bpf_program__fd(oom), &in.oom_prog);
	if (in.source == HK_COST_ESTIMATE) {
		forks = hk_sysinfo__proc_stat("processes");
		in.forks = forks > l->forks_at_start ? forks - l->forks_at_start : 0;
	}
	if (l->stats)
		in.walk_cpu_ns = l->stats->walk_cpu_ns_total;
	in.iter_walk_cpu_ns = l->iter_walk_cpu_ns;
	in.process_cpu_ns = hk_self_cost__process_cpu_ns();
	hk_self_cost__compute(&in, out);
	/* for `status` and the Prometheus file: the kernel writes no byte of
	 * it, so a plain copy races with nothing but a reader */
	if (!l->stats)
		return -ENOENT;
	memcpy((void *)&l->stats->cost, out, sizeof(*out));
	return 0;
}

int hk_loader__hook_use(const struct hk_loader *l, struct hk_hook_use *out)
{
	*out = l->hook;
	return l->hook_link != NULL;
}

int hk_loader__hook_prog(const struct hk_loader *l)
{
	return l->hook_prog != NULL;
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

void hk_loader__walk_cost(const struct hk_loader *l, struct hk_walk_cost *first,
			  struct hk_walk_cost *last)
{
	if (first)
		*first = l->first;
	if (last)
		*last = l->last;
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

int hk_loader__handover(struct hk_loader *l, struct hk_handover *out)
{
	if (!l->handover.pending)
		return 0;
	l->handover.pending = 0;
	*out = l->handover;
	return 1;
}
