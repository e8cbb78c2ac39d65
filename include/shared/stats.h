/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * stats.h - the tool's own cost and losses: struct hk_stats, the one entry
 * of the hk_stats map the walk counts into, and struct hk_cost, its last
 * part, written by the tool. Apart because only the watchdog, the summary,
 * `status` and the Prometheus file read them; no diagnosis does.
 * Part of hotspot.h: include that.
 */
#ifndef HK_SHARED_STATS_H
#define HK_SHARED_STATS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "stall.h"

/* How the tool knows what its programs cost (struct hk_cost.source). */
enum hk_cost_source {
	HK_COST_UNKNOWN = 0,	/* not written yet, or by a tool that left */
	HK_COST_STATS = 1,	/* the kernel's run times: BPF_ENABLE_STATS,
				 * held by the tool for its lifetime */
	HK_COST_SYSCTL = 2,	/* ... kernel.bpf_stats_enabled=1, set by
				 * someone else */
	HK_COST_ESTIMATE = 3,	/* runs from the kernel's own counts (context
				 * switches while attached, forks) x the ns a
				 * run took in `make bench` (HK_COST_EST_*) */
};

/* ns per run for HK_COST_ESTIMATE, run times under BPF_ENABLE_STATS on the
 * 2-CPU lab VM (2026-11-26): hk_switch 51-61 ns in steady storms and under a
 * Starved pair (figures 1 and 14a; cache-cold hackbench 114-141), hk_exit
 * 172-177 ns (figure 14b); a faster host pays less */
#define HK_COST_EST_HOOK_NS 55
#define HK_COST_EST_EXIT_NS 175
/* hk_fork (table driver): 207 ns a process fork (2026-11-29, stress-ng's
 * fork stressor under --bpf-stats); per thread create it returns at once
 * (71 ns): counted at the forks' rate, the dearer */
#define HK_COST_EST_FORK_NS 207

/*
 * The tool's own cost since it started: the last part of hk_stats, written
 * by the tool (through its mapping of hk_stats) at most once a window, so
 * that `status` and the Prometheus file read it with the counters. Nothing
 * in the kernel writes it.
 */
struct hk_cost {
	__u64 source;			/* enum hk_cost_source */
	__u64 lifetime_ns;		/* since the tool was ready (after start) */
	__u64 start_cpu_ns;		/* the start: load, verifier, first walk */
	__u64 hook_attached;		/* the sched_switch hook is attached now */
	__u64 hook_attaches;		/* times attached (at a walk's ask) */
	__u64 hook_attached_ns;		/* ... for this long, all in all */
	__u64 hook_attach_ns_max;	/* from the walk's ask to the link */
	__u64 hook_runs;		/* sched_switch runs of the hook */
	__u64 hook_run_ns;
	__u64 exit_runs;		/* sched_process_exit runs */
	__u64 exit_run_ns;
	__u64 oom_runs;			/* mark_victim runs */
	__u64 oom_run_ns;
	__u64 fork_runs;		/* sched_process_fork runs (table
					 * driver: 0 under the others) */
	__u64 fork_run_ns;
	__u64 walk_cpu_ns;		/* the walks since start (hk_stats') */
	__u64 user_cpu_ns;		/* the tool's process since start (user
					 * + system), less walks it ran in its
					 * read()s */
	__u64 total_ns;			/* all of the above but start_cpu_ns */
};

/*
 * The tool's own cost against [budget] (user/act/budget.h): written by the
 * tool, like hk_cost, each window it judges; nothing in the kernel writes
 * it. All zero: no budget judged yet.
 */
struct hk_budget_use {
	__u64 step;			/* the step in effect (0: full service) */
	__u64 degrades;			/* steps taken down, since the start */
	__u64 recovers;			/* ... and back */
	__u64 cpu_pct_x100;		/* own CPU over the span, of one CPU */
	__u64 cpu_budget_pct_x100;	/* [budget] cpu; 0: none */
	__u64 rss_bytes;		/* the tool's RSS then */
	__u64 rss_budget_bytes;		/* [budget] rss; 0: none */
};

/* The tool's own cost and losses, one entry in the hk_stats array map. */
struct hk_stats {
	__u64 windows;			/* walks completed */
	__u64 threads_walked;
	__u64 procs_walked;
	__u64 walk_ns_total;		/* first stretch to last, yields included */
	__u64 walk_ns_max;		/* longest single walk */
	__u64 switches_recorded;	/* involuntary switches the hook saw */
	__u64 events_emitted;
	__u64 events_dropped;		/* ring buffer full: retried next window */
	__u64 samples_skipped;		/* no sample: the walk missed a process's
					 * last thread, or it had no mm */
	__u64 procs_untracked;		/* process-windows not tracked: hk_procs full */
	__u64 exits_lost;		/* hk_exits full: swept instead */
	__u64 defer_overflows;		/* aggressor pass too small */
	__u64 timer_rearm_failures;
	__u64 wq_start_failures;
	__u64 driver;			/* enum hk_driver of the last walk */
	__u64 last_walk_ns;
	__u64 procs_quiet;		/* process-windows skipped: nothing ran */
	__u64 threads_visited;		/* threads whose task storage was read */
	__u64 stale_waits;		/* run delay the kernel credited from a
					 * stale queue time, dropped */
	__u64 entries_created;
	__u64 sweeps;			/* full walks to drop lost exits */
	__u64 stretch_ns_max;		/* longest time the walk held a CPU with
					 * no preemption point: a whole walk
					 * (wq, timer); under iter 32 threads
					 * (an upper bound: the kernel offers
					 * the CPU after each) or the end */
	__u64 chunks;			/* iter driver: times the walker let go
					 * of the CPU mid-walk (the kernel's
					 * cond_resched() between threads);
					 * table driver: work items that
					 * queued the next */
	__u64 procs_parked;		/* a process set aside until its next
					 * thread (iter driver: TIDs interleave) */
	__u64 walk_cpu_ns_total;	/* the walks' stretches on a CPU: the
					 * walk's own time, without the iter
					 * walker's time off the CPU */
	__u64 stretches;		/* stretches on a CPU, all walks */
	__u64 stretches_over_2ms;	/* ... of which longer than 2 ms */
	__u64 last_walk_end_ns;		/* CLOCK_MONOTONIC: the tool's watchdog
					 * takes a timer that stopped for dead */
	__u64 threads_unstored;		/* thread-visits skipped: the kernel
					 * could not allocate its task storage */
	/* OOM kills (oom:mark_victim) said, flagged OOM risk in time or not
	 * (hk_oom_flagged): the tool's recall, measured by the kernel */
	__u64 oom_kills_flagged;
	__u64 oom_kills_missed;
	__u64 oom_marks_not_kills;	/* mark_victim of a task dying already
					 * (task_will_free_mem): no kill, not
					 * counted above (hk_oom_killed) */
	__u64 oom_kills_lost;		/* hk_oom full, or its line refused by
					 * a full ring buffer: counted missed */
	__u64 walk_end_ns_max;		/* iter driver: longest stop() (the
					 * walk's end: exits, victims, sweep) */
	/* thread-visits of threads with no delay accounting (task->delays
	 * NULL: started before kernel.task_delayacct was 1; enum hk_source) */
	__u64 threads_no_delays;
	/* processes whose main thread has none, at the last full walk (the
	 * first, a sweep: every thread visited); the start line says it */
	__u64 procs_no_delays;
	__u64 procs_evicted;		/* quiet entries given up for room */
	__u64 table_repaired;		/* table driver: a summary word's lost
					 * bits found by the audit */
	__u64 table_resumes;		/* ... chunks that began inside a
					 * process the previous one cut */
	__u64 table_restarts;		/* ... of which the cut thread had
					 * exited: walked again from the leader */
	/* the node's CPU wait by cause, every process's stall ledger summed
	 * window by window (enum hk_stall_cause's first HK_STALL_CPU_NR) */
	__u64 node_cpu_wait_ns[HK_STALL_CPU_NR];
	struct hk_cost cost;		/* written by the tool, not here */
	struct hk_budget_use budget;	/* ... and so is this */
};

#endif /* HK_SHARED_STATS_H */
