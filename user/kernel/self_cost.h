/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * self_cost.h - what the tool itself costs the host, known without asking
 * the admin for kernel.bpf_stats_enabled: the kernel times every run of
 * the tool's programs while the tool holds a BPF_ENABLE_STATS fd (it needs
 * CAP_SYS_ADMIN); without one, and unless the sysctl is on, the runs are
 * counted from the kernel's own counters and costed at what a run took in
 * `make bench` (an estimate, said as one). The walks time themselves
 * (hk_stats), the process's CPU comes from getrusage().
 */
#ifndef HK_USER_SELF_COST_H
#define HK_USER_SELF_COST_H

#include <stddef.h>
#include "shared/hotspot.h"

/* Run count and run time of one program, as bpf_prog_info has them. */
struct hk_prog_runs {
	__u64 runs;
	__u64 run_ns;
};

/* What the hook's attach and detach did (the loader keeps it). */
struct hk_hook_use {
	__u64 attaches;
	__u64 detaches;
	__u64 failures;			/* attaches that failed */
	int last_errno;			/* ... the last one's error */
	__u64 since_ns;			/* attached then (CLOCK_MONOTONIC) */
	__u64 attached_ns;		/* attached before, all in all */
	__u64 attach_ns_max;		/* the walk's ask to the link */
	__u64 ctxt_at_attach;		/* /proc/stat ctxt then */
	__u64 switches_attached;	/* context switches while attached before */
};

/* Everything hk_self_cost__compute() reads, gathered by the loader. */
struct hk_self_cost_in {
	enum hk_cost_source source;
	__u64 lifetime_ns;		/* since the start ended */
	__u64 start_cpu_ns;		/* the process's CPU when it ended */
	__u64 start_walk_cpu_ns;	/* hk_stats.walk_cpu_ns_total then */
	int hook_attached;		/* now */
	struct hk_hook_use hook;	/* attached_ns, switches_attached: the
					 * current attachment included */
	struct hk_prog_runs hook_prog, exit_prog, oom_prog, fork_prog;
	int fork_hook;			/* the table driver's fork hook loaded */
	__u64 forks;			/* /proc/stat processes since start */
	__u64 walk_cpu_ns;		/* hk_stats.walk_cpu_ns_total */
	__u64 iter_walk_cpu_ns;		/* ... of walks run in this process
					 * since the start */
	__u64 process_cpu_ns;		/* getrusage(RUSAGE_SELF), user + sys */
};

/* This process's CPU time, user + system, in ns. */
__u64 hk_self_cost__process_cpu_ns(void);

/* The cost from what was gathered: pure, for the unit tests. */
void hk_self_cost__compute(const struct hk_self_cost_in *in, struct hk_cost *out);

/* "BPF_ENABLE_STATS" and the like: how source knows. */
const char *hk_self_cost__source_name(__u64 source);

/*
 * One line for the summary and `status`: the total as a share of one CPU
 * over the lifetime, then each part. Returns snprintf's.
 */
int hk_self_cost__format(const struct hk_cost *c, char *buf, size_t len);

#endif /* HK_USER_SELF_COST_H */
