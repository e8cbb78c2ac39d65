// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * self_cost.c - the tool's own cost (self_cost.h): computed and said from
 * what the loader gathered; no BPF here, so that `status` and the unit
 * tests use it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "self_cost.h"

__u64 hk_self_cost__process_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ((__u64)ru.ru_utime.tv_sec + (__u64)ru.ru_stime.tv_sec) * HK_NSEC_PER_SEC +
	       ((__u64)ru.ru_utime.tv_usec + (__u64)ru.ru_stime.tv_usec) * HK_NSEC_PER_USEC;
}

void hk_self_cost__compute(const struct hk_self_cost_in *in, struct hk_cost *out)
{
	memset(out, 0, sizeof(*out));
	out->source = in->source;
	out->lifetime_ns = in->lifetime_ns;
	out->hook_attached = !!in->hook_attached;
	out->hook_attaches = in->hook.attaches;
	out->hook_attached_ns = in->hook.attached_ns;
	out->hook_attach_ns_max = in->hook.attach_ns_max;
	if (in->source == HK_COST_STATS || in->source == HK_COST_SYSCTL) {
		out->hook_runs = in->hook_prog.runs;
		out->hook_run_ns = in->hook_prog.run_ns;
		out->exit_runs = in->exit_prog.runs;
		out->exit_run_ns = in->exit_prog.run_ns;
		out->oom_runs = in->oom_prog.runs;
		out->oom_run_ns = in->oom_prog.run_ns;
		out->fork_runs = in->fork_prog.runs;
		out->fork_run_ns = in->fork_prog.run_ns;
	} else if (in->source == HK_COST_ESTIMATE) {
		/* the hook runs on every context switch while attached, the
		 * exit hook on every thread's exit (about one per fork); OOM
		 * kills are too rare to count */
		out->hook_runs = in->hook.switches_attached;
		out->hook_run_ns = out->hook_runs * HK_COST_EST_HOOK_NS;
		out->exit_runs = in->forks;
		out->exit_run_ns = out->exit_runs * HK_COST_EST_EXIT_NS;
		/* the fork hook (table driver) runs on every fork too */
		out->fork_runs = in->fork_hook ? in->forks : 0;
		out->fork_run_ns = out->fork_runs * HK_COST_EST_FORK_NS;
	}
	out->start_cpu_ns = in->start_cpu_ns;
	out->walk_cpu_ns = in->walk_cpu_ns > in->start_walk_cpu_ns ?
			   in->walk_cpu_ns - in->start_walk_cpu_ns : 0;
	out->user_cpu_ns = in->process_cpu_ns > in->start_cpu_ns + in->iter_walk_cpu_ns ?
			   in->process_cpu_ns - in->start_cpu_ns - in->iter_walk_cpu_ns : 0;
	out->total_ns = out->hook_run_ns + out->exit_run_ns + out->oom_run_ns +
			out->fork_run_ns + out->walk_cpu_ns + out->user_cpu_ns;
}

const char *hk_self_cost__source_name(__u64 source)
{
	switch (source) {
	case HK_COST_STATS:
		return "measured: BPF_ENABLE_STATS";
	case HK_COST_SYSCTL:
		return "measured: kernel.bpf_stats_enabled";
	case HK_COST_ESTIMATE:
		return "estimated: runs counted x ns per run in make bench";
	default:
		return "unknown";
	}
}

/* ns as ms with 3 decimals */
#define MS3(ns) (unsigned long long)((ns) / HK_NSEC_PER_MSEC), \
		(unsigned int)((ns) % HK_NSEC_PER_MSEC / 1000)

int hk_self_cost__format(const struct hk_cost *c, char *buf, size_t len)
{
	/* the share of one CPU, in millionths: 1 ppm = 0.0001 % */
	__u64 ppm = c->lifetime_ns ? c->total_ns * 1000000 / c->lifetime_ns : 0;

	return snprintf(buf, len,
		"own cost %llu.%03u ms CPU in %llu s (%llu.%04llu %% of one CPU; %s), "
		"start apart (%llu.%03u ms: load, verifier, first walk): "
		"walks %llu.%03u ms, userspace %llu.%03u ms, "
		"sched_switch hook %llu runs %llu.%03u ms (attached %llu times, %llu s in all%s), "
		"exit hook %llu runs %llu.%03u ms, fork hook %llu runs %llu.%03u ms, "
		"OOM hook %llu runs",
		MS3(c->total_ns), (unsigned long long)(c->lifetime_ns / HK_NSEC_PER_SEC),
		(unsigned long long)(ppm / 10000), (unsigned long long)(ppm % 10000),
		hk_self_cost__source_name(c->source), MS3(c->start_cpu_ns), MS3(c->walk_cpu_ns),
		MS3(c->user_cpu_ns), (unsigned long long)c->hook_runs, MS3(c->hook_run_ns),
		(unsigned long long)c->hook_attaches,
		(unsigned long long)(c->hook_attached_ns / HK_NSEC_PER_SEC),
		c->hook_attached ? ", now" : "", (unsigned long long)c->exit_runs,
		MS3(c->exit_run_ns), (unsigned long long)c->fork_runs, MS3(c->fork_run_ns),
		(unsigned long long)c->oom_runs);
}
