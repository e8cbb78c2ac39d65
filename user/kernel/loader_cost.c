// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * loader_cost.c - what the BPF side costs: the kernel's run times or an
 * estimate (HK_COST_*), the walks' own counters in hk_stats, and the
 * tool's cost written back for `status`. Apart from the lifecycle
 * because the watchdog and the summary read it while the tool runs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lib/clock.h"
#include "lib/sysinfo.h"
#include "loader_cost.h"
#include "loader_state.h"
#include "self_cost.h"

/*
 * With --bpf-stats, BPF_ENABLE_STATS for the tool's lifetime
 * (CAP_SYS_ADMIN): HK_COST_STATS and *fd to close at exit. Not by default:
 * the fd turns on a host-wide static key, and every BPF program on the
 * host (a datapath's included) then pays two clock reads a run. Else
 * HK_COST_SYSCTL when the sysctl is on already, HK_COST_ESTIMATE when not
 * (*fd -1).
 */
enum hk_cost_source hk_loader_cost__open(int *fd, int bpf_stats)
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
	int exit_fd;

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
	/* one exit hook is loaded: hk_exit, or the table driver's */
	exit_fd = bpf_program__fd(l->skel->progs.hk_exit);
	if (exit_fd < 0)
		exit_fd = bpf_program__fd(l->skel->progs.hk_exit_table);
	prog_runs(exit_fd, &in.exit_prog);
	/* the table driver's fork hook: no fd, no runs, where not loaded */
	in.fork_hook = bpf_program__fd(l->skel->progs.hk_fork) >= 0;
	prog_runs(bpf_program__fd(l->skel->progs.hk_fork), &in.fork_prog);
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

int hk_loader__budget(struct hk_loader *l, const struct hk_budget_use *b)
{
	if (!l->stats)
		return -ENOENT;
	/* like the cost: the kernel writes no byte of it */
	memcpy((void *)&l->stats->budget, b, sizeof(*b));
	return 0;
}
