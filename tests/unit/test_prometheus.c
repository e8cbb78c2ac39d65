// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_prometheus.c - the --prometheus textfile: the exact text for the
 * empty state, a set that follows transitions, hostile names, the
 * counters, the caps (processes, label values, bytes: the review's
 * amplification case measured) and the stopped state; every text read
 * back by a strict reader (tests/common/prom_check.c) and, where
 * installed, by promtool; and the file replaced whole or not at all,
 * whatever is planted at the names the old versions used.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "format_fixtures.h"
#include "prom_check.h"
#include "output/prometheus.h"
#include "suites.h"

#define FFFD "\xef\xbf\xbd"

/* ---- the expected text ---------------------------------------------------- */

#define FAM(name, type, help) "# HELP " name " " help "\n# TYPE " name " " type "\n"

#define UP(v)								\
	FAM("hotspot_k_up", "gauge",						\
	    "1 while hotspot-k runs and rewrites this file (at least every "	\
	    "few intervals); 0 once it stopped, with every other series gone. "	\
	    "1 in a file not rewritten for long: it was killed or hangs "	\
	    "(node_textfile_mtime_seconds).")					\
	"hotspot_k_up " v "\n"

#define PROCESSES(oom, thrash, throttled, starved, noisy, cpu, unlisted)	\
	UP("1")								\
	FAM("hotspot_k_processes", "gauge",					\
	    "Processes that hold each label now, every label a process "	\
	    "can be flagged with.")						\
	"hotspot_k_processes{label=\"oom_risk\"} " oom "\n"			\
	"hotspot_k_processes{label=\"mem_thrashing\"} " thrash "\n"		\
	"hotspot_k_processes{label=\"throttled\"} " throttled "\n"		\
	"hotspot_k_processes{label=\"starved\"} " starved "\n"			\
	"hotspot_k_processes{label=\"noisy_neighbor\"} " noisy "\n"		\
	"hotspot_k_processes{label=\"io_blocked\"} 0\n"			\
	"hotspot_k_processes{label=\"cpu_bound\"} " cpu "\n"			\
	"hotspot_k_processes{label=\"mem_throttled\"} 0\n"			\
	FAM("hotspot_k_processes_unlisted", "gauge",				\
	    "Flagged processes without hotspot_k_process_* series: more "	\
	    "than 256 were flagged at once, or their series would have "	\
	    "passed 512 KiB.")							\
	"hotspot_k_processes_unlisted " unlisted "\n"

/* Each argument: the samples of that family, "" for none. */
#define PER_PROCESS(info, flagged, cpu, run_delay, thread_run_delay,		\
		    throttled, io, major, minor, rss, anon, slope, limit, eta)	\
	FAM("hotspot_k_process_info", "gauge",					\
	    "1 for each process flagged now, with its cgroup (not on its "	\
	    "other series: a path can be long); join on pid: "			\
	    "hotspot_k_process_flagged * on(pid) group_left(cgroup) "		\
	    "hotspot_k_process_info.") info					\
	FAM("hotspot_k_process_flagged", "gauge",				\
	    "1 for each process flagged now, labelled with its diagnosis. "	\
	    "The hotspot_k_process_* gauges below hold the evidence of the "	\
	    "window that flagged it, with the same labels.") flagged		\
	FAM("hotspot_k_process_cpu_ratio", "gauge",				\
	    "Time its threads ran on a CPU, as a share of the window "		\
	    "(1: one CPU busy).") cpu						\
	FAM("hotspot_k_process_run_delay_ratio", "gauge",			\
	    "Time its threads waited in a run queue, as a share of the "	\
	    "window (at most 1 per thread).") run_delay				\
	FAM("hotspot_k_process_thread_run_delay_ratio", "gauge",		\
	    "Run-queue wait of its thread that waited most, as a share of "	\
	    "the window.") thread_run_delay					\
	FAM("hotspot_k_process_throttled_ratio", "gauge",			\
	    "Time its cgroups' CPU quota kept them throttled, as a share of "	\
	    "the window, per CPU the quota lets the group use (the kernel's "	\
	    "sum over CPUs divided by the quota in whole CPUs, at least one).")	\
	throttled								\
	FAM("hotspot_k_process_io_blocked_ratio", "gauge",			\
	    "Time its threads slept blocked on I/O, as a share of the window "	\
	    "(at most 1 per thread).") io					\
	FAM("hotspot_k_process_major_faults_per_second", "gauge",		\
	    "Major page faults per second over the window.") major		\
	FAM("hotspot_k_process_minor_faults_per_second", "gauge",		\
	    "Minor page faults per second over the window.") minor		\
	FAM("hotspot_k_process_rss_bytes", "gauge",				\
	    "Resident memory: anonymous, file-backed and shmem.") rss		\
	FAM("hotspot_k_process_rss_anon_bytes", "gauge",			\
	    "Resident anonymous memory (shmem not counted): what the kernel "	\
	    "cannot drop.") anon						\
	FAM("hotspot_k_process_rss_slope_bytes_per_second", "gauge",		\
	    "Growth of its anonymous memory, resident or swapped out, least "	\
	    "squares over its trend.") slope					\
	FAM("hotspot_k_process_memory_limit_bytes", "gauge",			\
	    "The limit its memory heads for: the tightest memory cgroup's, the "	\
	    "host's headroom when that binds first, or RAM without a memory "	\
	    "controller.") limit						\
	FAM("hotspot_k_process_oom_eta_seconds", "gauge",			\
	    "Time until its anonymous memory reaches that limit at its slope; "	\
	    "only while it heads there.") eta					\
	FAM("hotspot_k_stall_seconds_total", "counter",				\
	    "Time its threads waited since the tool first saw it, by resource "	\
	    "and cause (the stall ledger: docs/stall-ledger.md), as of the "	\
	    "transition that flagged it; listed processes only, as the gauges "	\
	    "above.")

#define NO_PROCESS PER_PROCESS("", "", "", "", "", "", "", "", "", "", "", "", "", "")

/* One sample of a per-process family. */
#define S(name, labels, v) "hotspot_k_process_" name "{" labels "} " v "\n"
/* A process's info sample. */
#define INFO(labels) S("info", labels, "1")

/* The tool's own cost families (hk_stats.cost), each value as given. */
#define COST(start, cpu, walk, user, hruns, hrun, hatt, hatts, hatt_s, hatt_max, eruns, erun, \
	     oruns, orun, life, source)						\
	FAM("hotspot_k_own_start_cpu_seconds", "gauge",				\
	    "CPU time the tool's start took: loading, the verifier, the first "	\
	    "walk.")								\
	"hotspot_k_own_start_cpu_seconds " start "\n"				\
	FAM("hotspot_k_own_cpu_seconds_total", "counter",			\
	    "CPU time the tool cost since its start: walks, userspace and its "	\
	    "programs' runs (see hotspot_k_own_cost_source).")			\
	"hotspot_k_own_cpu_seconds_total " cpu "\n"				\
	FAM("hotspot_k_own_walk_cpu_seconds_total", "counter",			\
	    "CPU time of the walks since the start.")				\
	"hotspot_k_own_walk_cpu_seconds_total " walk "\n"			\
	FAM("hotspot_k_own_user_cpu_seconds_total", "counter",			\
	    "CPU time of the tool's process since the start (user + system), "	\
	    "less the walks it ran.")						\
	"hotspot_k_own_user_cpu_seconds_total " user "\n"			\
	FAM("hotspot_k_own_hook_runs_total", "counter",				\
	    "Runs of the sched_switch hook (attached only while a thread is "	\
	    "watched).")							\
	"hotspot_k_own_hook_runs_total " hruns "\n"				\
	FAM("hotspot_k_own_hook_run_seconds_total", "counter",			\
	    "Time the sched_switch hook's runs took.")				\
	"hotspot_k_own_hook_run_seconds_total " hrun "\n"			\
	FAM("hotspot_k_own_hook_attached", "gauge",				\
	    "1 while the sched_switch hook is attached.")			\
	"hotspot_k_own_hook_attached " hatt "\n"				\
	FAM("hotspot_k_own_hook_attaches_total", "counter",			\
	    "Times the sched_switch hook was attached, at a walk's ask.")	\
	"hotspot_k_own_hook_attaches_total " hatts "\n"			\
	FAM("hotspot_k_own_hook_attached_seconds_total", "counter",		\
	    "Time the sched_switch hook was attached, all in all.")		\
	"hotspot_k_own_hook_attached_seconds_total " hatt_s "\n"		\
	FAM("hotspot_k_own_hook_attach_max_seconds", "gauge",			\
	    "Longest time from a walk's ask to the hook attached.")		\
	"hotspot_k_own_hook_attach_max_seconds " hatt_max "\n"			\
	FAM("hotspot_k_own_exit_hook_runs_total", "counter",			\
	    "Runs of the sched_process_exit hook.")				\
	"hotspot_k_own_exit_hook_runs_total " eruns "\n"			\
	FAM("hotspot_k_own_exit_hook_run_seconds_total", "counter",		\
	    "Time the sched_process_exit hook's runs took.")			\
	"hotspot_k_own_exit_hook_run_seconds_total " erun "\n"			\
	FAM("hotspot_k_own_oom_hook_runs_total", "counter",			\
	    "Runs of the OOM kill hook.")					\
	"hotspot_k_own_oom_hook_runs_total " oruns "\n"			\
	FAM("hotspot_k_own_oom_hook_run_seconds_total", "counter",		\
	    "Time the OOM kill hook's runs took.")				\
	"hotspot_k_own_oom_hook_run_seconds_total " orun "\n"			\
	FAM("hotspot_k_own_fork_hook_runs_total", "counter",			\
	    "Runs of the sched_process_fork hook (the table driver's; 0 under "	\
	    "the others).")							\
	"hotspot_k_own_fork_hook_runs_total 0\n"				\
	FAM("hotspot_k_own_fork_hook_run_seconds_total", "counter",		\
	    "Time the sched_process_fork hook's runs took.")			\
	"hotspot_k_own_fork_hook_run_seconds_total 0.000000000\n"		\
	FAM("hotspot_k_own_lifetime_seconds", "gauge",				\
	    "Time since the tool's start ended: the span the cost counters "	\
	    "cover.")								\
	"hotspot_k_own_lifetime_seconds " life "\n"				\
	FAM("hotspot_k_own_cost_source", "gauge",				\
	    "How the runs' time is known: stats (BPF_ENABLE_STATS held by the "	\
	    "tool: --bpf-stats), sysctl (kernel.bpf_stats_enabled), estimate "	\
	    "(runs counted x ns per run measured by make bench).")		\
	"hotspot_k_own_cost_source{source=\"" source "\"} 1\n"

#define Z9 "0.000000000"
#define COST_ZERO COST(Z9, Z9, Z9, Z9, "0", Z9, "0", "0", Z9, Z9, "0", Z9, "0", Z9, Z9, "unknown")

/* [budget]'s families (hk_stats.budget), none judged yet */
#define BUDGET_ZERO								\
	FAM("hotspot_k_budget_degraded", "gauge",				\
	    "1 while this step is given up to stay within [budget].")		\
	"hotspot_k_budget_degraded{step=\"no_profiles\"} 0\n"			\
	"hotspot_k_budget_degraded{step=\"ring_lazy\"} 0\n"			\
	"hotspot_k_budget_degraded{step=\"interval_x2\"} 0\n"			\
	"hotspot_k_budget_degraded{step=\"interval_x4\"} 0\n"			\
	"hotspot_k_budget_degraded{step=\"no_hook\"} 0\n"			\
	FAM("hotspot_k_budget_steps_total", "counter", "Steps taken for [budget].") \
	"hotspot_k_budget_steps_total{direction=\"down\"} 0\n"			\
	"hotspot_k_budget_steps_total{direction=\"up\"} 0\n"			\
	FAM("hotspot_k_budget_cpu_ratio", "gauge",				\
	    "Own CPU over [budget] span, of one CPU.")				\
	"hotspot_k_budget_cpu_ratio 0.0000\n"					\
	FAM("hotspot_k_own_rss_bytes", "gauge", "The tool's resident memory.")	\
	"hotspot_k_own_rss_bytes 0\n"

/* The hk_stats families, in the order they are written. */
/* the node's CPU wait by cause: zero in every test's stats */
#define NODE_WAIT_ZERO								\
	FAM("hotspot_k_node_cpu_wait_seconds_total", "counter",		\
	    "Time the node's threads waited for a CPU, every process's stall "	\
	    "ledger summed, by cause: neighbor (another process held the CPU), "	\
	    "self (its own threads), quota (its cgroup's cpu.max), steal_irq, "	\
	    "weight (it asked for less).")					\
	"hotspot_k_node_cpu_wait_seconds_total{cause=\"neighbor\"} 0.000000000\n" \
	"hotspot_k_node_cpu_wait_seconds_total{cause=\"self\"} 0.000000000\n"	\
	"hotspot_k_node_cpu_wait_seconds_total{cause=\"quota\"} 0.000000000\n"	\
	"hotspot_k_node_cpu_wait_seconds_total{cause=\"steal_irq\"} 0.000000000\n" \
	"hotspot_k_node_cpu_wait_seconds_total{cause=\"weight\"} 0.000000000\n"

#define STATS(windows, threads_walked, threads_visited, procs_walked, quiet,	\
	      untracked, unstored, parked, skipped, created, walk_s, walk_cpu_s,		\
	      walk_max_s, stretch_max_s, end_max_s, stretches, long_stretches,	\
	      chunks,								\
	      switches, emitted, dropped, exits_lost, sweeps, defer, stale,	\
	      rearm, wq_start, oom_lost, oom_marks, nodelays, nodelays_main,	\
	      evicted, oom_flagged, oom_missed, driver)				\
	FAM("hotspot_k_windows_total", "counter",				\
	    "Walks completed: one a window.")					\
	"hotspot_k_windows_total " windows "\n"					\
	FAM("hotspot_k_threads_walked_total", "counter",			\
	    "Threads the walks went over.")					\
	"hotspot_k_threads_walked_total " threads_walked "\n"			\
	FAM("hotspot_k_threads_visited_total", "counter",			\
	    "Threads whose task storage the walks read.")			\
	"hotspot_k_threads_visited_total " threads_visited "\n"			\
	FAM("hotspot_k_processes_walked_total", "counter",			\
	    "Processes the walks went over.")					\
	"hotspot_k_processes_walked_total " procs_walked "\n"			\
	FAM("hotspot_k_process_windows_quiet_total", "counter",			\
	    "Process-windows skipped as quiet: none of its threads ran.")	\
	"hotspot_k_process_windows_quiet_total " quiet "\n"			\
	FAM("hotspot_k_process_windows_untracked_total", "counter",		\
	    "Process-windows not tracked: hk_procs was full (see "		\
	    "--max-procs).")							\
	"hotspot_k_process_windows_untracked_total " untracked "\n"		\
	FAM("hotspot_k_thread_visits_unstored_total", "counter",		\
	    "Thread-visits skipped: the kernel could not allocate the "		\
	    "thread's task storage.")						\
	"hotspot_k_thread_visits_unstored_total " unstored "\n"		\
	FAM("hotspot_k_processes_parked_total", "counter",			\
	    "Processes the iter driver set aside until their next thread.")	\
	"hotspot_k_processes_parked_total " parked "\n"				\
	FAM("hotspot_k_samples_skipped_total", "counter",			\
	    "Process-windows without a sample: the walk missed its last "	\
	    "thread, or it had no mm.")						\
	"hotspot_k_samples_skipped_total " skipped "\n"				\
	FAM("hotspot_k_entries_created_total", "counter",			\
	    "Entries created in hk_procs.")					\
	"hotspot_k_entries_created_total " created "\n"				\
	FAM("hotspot_k_walk_seconds_total", "counter",				\
	    "Time from the first stretch of each walk to its last, yields "	\
	    "included.")							\
	"hotspot_k_walk_seconds_total " walk_s "\n"				\
	FAM("hotspot_k_walk_cpu_seconds_total", "counter",			\
	    "Time the walks held a CPU, without the iter driver's yields.")	\
	"hotspot_k_walk_cpu_seconds_total " walk_cpu_s "\n"			\
	FAM("hotspot_k_walk_max_seconds", "gauge", "Longest single walk.")	\
	"hotspot_k_walk_max_seconds " walk_max_s "\n"				\
	FAM("hotspot_k_stretch_max_seconds", "gauge",				\
	    "Longest time a walk held a CPU with no preemption point.")		\
	"hotspot_k_stretch_max_seconds " stretch_max_s "\n"			\
	FAM("hotspot_k_walk_end_max_seconds", "gauge",				\
	    "Longest end of an iter walk (stop(): exits, victims, a sweep).")	\
	"hotspot_k_walk_end_max_seconds " end_max_s "\n"			\
	FAM("hotspot_k_stretches_total", "counter",				\
	    "Stretches the walks held a CPU for.")				\
	"hotspot_k_stretches_total " stretches "\n"				\
	FAM("hotspot_k_long_stretches_total", "counter",			\
	    "Stretches longer than 2 ms.")					\
	"hotspot_k_long_stretches_total " long_stretches "\n"			\
	FAM("hotspot_k_chunks_total", "counter",				\
	    "Times the iter driver's walker let go of the CPU mid-walk; under "	\
	    "the table driver, work items that queued the walk's next chunk.")	\
	"hotspot_k_chunks_total " chunks "\n"					\
	FAM("hotspot_k_switches_recorded_total", "counter",			\
	    "Involuntary context switches the sched_switch hook recorded.")	\
	"hotspot_k_switches_recorded_total " switches "\n"			\
	FAM("hotspot_k_events_emitted_total", "counter",			\
	    "Transitions sent over the ring buffer.")				\
	"hotspot_k_events_emitted_total " emitted "\n"				\
	FAM("hotspot_k_events_dropped_total", "counter",			\
	    "Transitions the full ring buffer refused, retried the next "	\
	    "window.")								\
	"hotspot_k_events_dropped_total " dropped "\n"				\
	FAM("hotspot_k_exits_lost_total", "counter",				\
	    "Process exits hk_exits had no room for, found by a sweep "		\
	    "instead.")								\
	"hotspot_k_exits_lost_total " exits_lost "\n"				\
	FAM("hotspot_k_sweeps_total", "counter",				\
	    "Full walks that dropped processes whose exit was lost.")		\
	"hotspot_k_sweeps_total " sweeps "\n"					\
	FAM("hotspot_k_defer_overflows_total", "counter",			\
	    "Processes the aggressor pass had no room for.")			\
	"hotspot_k_defer_overflows_total " defer "\n"				\
	FAM("hotspot_k_stale_run_delays_total", "counter",			\
	    "Run delays the kernel credited from a stale queue time, "		\
	    "dropped.")								\
	"hotspot_k_stale_run_delays_total " stale "\n"				\
	FAM("hotspot_k_timer_rearm_failures_total", "counter",			\
	    "Times the walk's timer failed to re-arm.")				\
	"hotspot_k_timer_rearm_failures_total " rearm "\n"			\
	FAM("hotspot_k_wq_start_failures_total", "counter",			\
	    "Times the timer failed to start the walk's work item (wq "		\
	    "driver).")								\
	"hotspot_k_wq_start_failures_total " wq_start "\n"			\
	FAM("hotspot_k_oom_kills_lost_total", "counter",			\
	    "OOM kills whose line was lost (ring buffer full, or no room to "	\
	    "keep the kill until the victim exited); counted with "		\
	    "flagged false.")						\
	"hotspot_k_oom_kills_lost_total " oom_lost "\n"			\
	FAM("hotspot_k_oom_marks_not_kills_total", "counter",			\
	    "OOM killer marks of a task exiting or SIGKILLed already: no "	\
	    "kill, not in hotspot_k_oom_kills_total.")				\
	"hotspot_k_oom_marks_not_kills_total " oom_marks "\n"		\
	FAM("hotspot_k_thread_visits_no_delays_total", "counter",		\
	    "Thread-visits of threads without delay accounting (started "	\
	    "before kernel.task_delayacct was 1): their I/O wait and memory "	\
	    "stall sampled.")							\
	"hotspot_k_thread_visits_no_delays_total " nodelays "\n"		\
	FAM("hotspot_k_processes_no_delays", "gauge",				\
	    "Processes without delay accounting at the last full walk: their "	\
	    "I/O wait and memory stall sampled.")				\
	"hotspot_k_processes_no_delays " nodelays_main "\n"			\
	FAM("hotspot_k_processes_evicted_total", "counter",			\
	    "Quiet processes whose hk_procs entry was given up to make room "	\
	    "(they are met as new when they run again).")			\
	"hotspot_k_processes_evicted_total " evicted "\n"			\
	FAM("hotspot_k_table_repaired_total", "counter",			\
	    "Table driver: summary words whose lost bits the walk's audit "	\
	    "found (a race of unordered atomics; each such process missed up "	\
	    "to 64 windows).")							\
	"hotspot_k_table_repaired_total 0\n"					\
	FAM("hotspot_k_table_resumes_total", "counter",				\
	    "Table driver: chunks that began inside a process the budget cut, "	\
	    "at the thread the cut came after.")				\
	"hotspot_k_table_resumes_total 0\n"					\
	FAM("hotspot_k_table_restarts_total", "counter",			\
	    "Table driver: resumes whose thread had exited since: the process "	\
	    "walked again from its leader, the threads walked already skipped.")	\
	"hotspot_k_table_restarts_total 0\n"					\
	FAM("hotspot_k_oom_kills_total", "counter",				\
	    "Processes the kernel's OOM killer killed, by whether hotspot-k "	\
	    "had flagged them OOM risk in time (held at the kill, or left at "	\
	    "most 5 windows before).")						\
	"hotspot_k_oom_kills_total{flagged=\"true\"} " oom_flagged "\n"	\
	"hotspot_k_oom_kills_total{flagged=\"false\"} " oom_missed "\n"	\
	NODE_WAIT_ZERO								\
	COST_ZERO								\
	BUDGET_ZERO								\
	FAM("hotspot_k_driver", "gauge",					\
	    "What walks the threads each window: wq, table, timer or iter.")		\
	"hotspot_k_driver{driver=\"" driver "\"} 1\n"

#define NO_STATS(driver)							\
	STATS("0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0.000000000",	\
	      "0.000000000", "0.000000000", "0.000000000", "0.000000000", "0", "0",	\
	      "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",	\
	      "0", "0", driver)

#define EMPTY(driver)								\
	PROCESSES("0", "0", "0", "0", "0", "0", "0") NO_PROCESS NO_STATS(driver)

/* ---- helpers -------------------------------------------------------------- */

/* A directory of our own under TMPDIR, and paths in it. */
static char tmp_dir[256];

static void tmp_dir_make(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmp_dir, sizeof(tmp_dir), "%s/hk-prom-XXXXXX", base && *base ? base : "/tmp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmp_dir));
}

/* name in tmp_dir, in one of 4 buffers used in turn: copy one to keep it */
static const char *tmp_path(const char *name)
{
	static char path[4][512];
	static unsigned int which;

	which = (which + 1) % 4;
	snprintf(path[which], sizeof(path[which]), "%s/%s", tmp_dir, name);
	return path[which];
}

static void tmp_dir_remove(void)
{
	char cmd[600];

	/* a failed test may leave anything in it */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* hk_prom__new() on a path that must be taken, without a warning. */
static struct hk_prom *prom_new(const char *path)
{
	char warn[512], err[512];
	struct hk_prom *p = hk_prom__new(path, warn, sizeof(warn), err, sizeof(err));

	if (!p)
		fprintf(stderr, "\n    hk_prom__new(%s): %s", path, err);
	else
		ASSERT_STR(warn, "");
	return p;
}

/* hk_prom__new()'s error for a path it must refuse ("" when it took it). */
static const char *prom_refused(const char *path)
{
	static char err[512];
	char warn[512];
	struct hk_prom *p;

	err[0] = '\0';
	p = hk_prom__new(path, warn, sizeof(warn), err, sizeof(err));
	if (p) {
		hk_prom__free(p);
		return "";
	}
	return err;
}

/* hk_prom__write(), its message shown when it fails. */
static int prom_write(struct hk_prom *p, const struct hk_stats *st, const char *driver)
{
	char err[512] = "";
	int e = hk_prom__write(p, st, driver, err, sizeof(err));

	if (e)
		fprintf(stderr, "\n    hk_prom__write: %s", err);
	return e;
}

/* The text hk_prom__format() makes, malloc'd. */
static char *text_of(const struct hk_prom *p, const struct hk_stats *st, const char *driver)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(hk_prom__format(p, st, driver, f), 0);
	CU_ASSERT_EQUAL(fclose(f), 0);
	return buf;
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0, n;
	FILE *in = fopen(path, "r"), *out;
	char chunk[4096];

	if (!in)
		return NULL;
	out = open_memstream(&buf, &len);
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		fwrite(chunk, 1, n, out);
	fclose(in);
	fclose(out);
	return buf;
}

/* promtool's verdict: 0 clean, -1 not installed, else its exit status. */
static int promtool(const char *text, char *out, size_t out_len)
{
	char cmd[1400], in[512], res[512];
	char *said;
	FILE *f;
	int st;

	snprintf(in, sizeof(in), "%s", tmp_path("promtool.in"));
	snprintf(res, sizeof(res), "%s", tmp_path("promtool.out"));
	f = fopen(in, "w");
	if (!f)
		return 1;
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "command -v promtool >/dev/null || exit 127; "
		 "promtool check metrics <'%s' >'%s' 2>&1", in, res);
	st = system(cmd);
	if (!WIFEXITED(st))
		return 1;
	if (WEXITSTATUS(st) == 127)
		return -1;
	said = slurp(res);
	snprintf(out, out_len, "%s", said ? said : "");
	unlink(in);
	unlink(res);
	/* promtool exits 0 with lint problems printed on some versions */
	if (said && *said) {
		free(said);
		return WEXITSTATUS(st) ? WEXITSTATUS(st) : 1;
	}
	free(said);
	return WEXITSTATUS(st);
}

/*
 * text is exactly want, a strict reader takes it, and so does promtool.
 * Needs tmp_dir (promtool reads a file).
 */
static void check_text(const char *text, const char *want)
{
	static int told;
	const char *why = pc_check(text);
	char said[1024];
	int rc;

	if (want)
		ASSERT_STR(text, want);
	if (why)
		fprintf(stderr, "\n    prom_check: %s", why);
	CU_ASSERT_PTR_NULL(why);
	rc = promtool(text, said, sizeof(said));
	if (rc < 0 && !told++)
		fprintf(stderr, "\n    promtool not installed (apt-get install prometheus): "
			"the strict reader alone checks the format ");
	if (rc > 0)
		fprintf(stderr, "\n    promtool check metrics: exit %d: %s", rc, said);
	CU_ASSERT(rc <= 0);
}

static void check_prom(const struct hk_prom *p, const struct hk_stats *st,
		       const char *driver, const char *want)
{
	char *text = text_of(p, st, driver);

	check_text(text, want);
	free(text);
}

/*
 * wl (NULL: none) as a process of its own owner, a system service's: the
 * caps alone decide, first come first served (the owners' shares:
 * test_shares). Valid until the next call.
 */
static const struct hk_workload *own_owner(const struct hk_workload *wl, __u32 owner)
{
	static struct hk_workload w;

	memset(&w, 0, sizeof(w));
	if (wl)
		w = *wl;
	w.system = true;
	w.owner_known = true;
	w.owner_uid = owner;
	return &w;
}

static void event(struct hk_prom *p, void (*make)(struct hk_event *), __u32 tgid,
		  __u32 from, __u32 to, const char *comm, const char *cgroup)
{
	struct hk_event e;

	make(&e);
	e.tgid = tgid;
	e.from = from;
	e.to = to;
	if (comm)
		set_comm(e.comm, comm);
	hk_prom__event(p, &e, cgroup, own_owner(NULL, tgid));
}

/* ---- the text --------------------------------------------------------------- */

static void test_empty(void)
{
	struct hk_stats zero = { 0 };
	struct hk_prom *p;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	check_prom(p, &zero, "wq", EMPTY("wq"));
	check_prom(p, NULL, NULL, EMPTY("none"));
	/* nothing written yet: the first window writes the file */
	CU_ASSERT_TRUE(hk_prom__dirty(p, &zero));
	CU_ASSERT_EQUAL(access(tmp_path("hk.prom"), F_OK), -1);
	hk_prom__free(p);
	hk_prom__free(NULL);
	tmp_dir_remove();
}

/* An OOM risk whose evidence differs field by field. */
static void ev_oom_distinct(struct hk_event *e)
{
	ev_oom(e);
	e->ev.throttled_pct_x100 = e->ev.throttled_norm_pct_x100 = 123;
	e->ev.major_faults_per_s = 45;
}

#define L_OOM "pid=\"4242\",comm=\"python3\",label=\"oom_risk\""
#define L_CPU "pid=\"4250\",comm=\"yes\",label=\"cpu_bound\""
#define L_THR "pid=\"4250\",comm=\"yes\",label=\"throttled\""
/* who a process is, when its cgroup path names nothing */
#define WL_NONE ",unit=\"\",container_id=\"\",pod_uid=\"\""
#define I_OOM "pid=\"4242\",comm=\"python3\",cgroup=\"/kubepods/pod-a\"" WL_NONE
#define I_CPU "pid=\"4250\",comm=\"yes\",cgroup=\"/user.slice\"" WL_NONE
#define I_THR "pid=\"4250\",comm=\"yes\",cgroup=\"/user.slice/quota\"" WL_NONE

static void test_transitions(void)
{
	struct hk_prom *p;
	struct hk_event e;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);

	/* in, in: sorted by PID whatever the order they came in */
	event(p, ev_cpu, 4250, HK_OK, HK_CPU_BOUND, NULL, "/user.slice");
	event(p, ev_oom_distinct, 4242, HK_OK, HK_OOM_RISK, NULL, "/kubepods/pod-a");
	check_prom(p, NULL, "wq",
		   PROCESSES("1", "0", "0", "0", "0", "1", "0")
		   PER_PROCESS(INFO(I_OOM) INFO(I_CPU),
			       S("flagged", L_OOM, "1") S("flagged", L_CPU, "1"),
			       S("cpu_ratio", L_OOM, "0.0350") S("cpu_ratio", L_CPU, "0.9900"),
			       S("run_delay_ratio", L_OOM, "0.0012")
			       S("run_delay_ratio", L_CPU, "0.0100"),
			       S("thread_run_delay_ratio", L_OOM, "0.0010")
			       S("thread_run_delay_ratio", L_CPU, "0.0000"),
			       S("throttled_ratio", L_OOM, "0.0123")
			       S("throttled_ratio", L_CPU, "0.0000"),
			       S("io_blocked_ratio", L_OOM, "0.0000")
			       S("io_blocked_ratio", L_CPU, "0.0000"),
			       S("major_faults_per_second", L_OOM, "45")
			       S("major_faults_per_second", L_CPU, "0"),
			       S("minor_faults_per_second", L_OOM, "9700")
			       S("minor_faults_per_second", L_CPU, "0"),
			       S("rss_bytes", L_OOM, "1300000000")
			       S("rss_bytes", L_CPU, "10485760"),
			       S("rss_anon_bytes", L_OOM, "1200000000")
			       S("rss_anon_bytes", L_CPU, "8388608"),
			       S("rss_slope_bytes_per_second", L_OOM, "42991616")
			       S("rss_slope_bytes_per_second", L_CPU, "0"),
			       S("memory_limit_bytes", L_OOM, "25125000000")
			       S("memory_limit_bytes", L_CPU, "8589934592"),
			       /* none for the CPU-bound one: not heading anywhere */
			       S("oom_eta_seconds", L_OOM, "554"))
		   NO_STATS("wq"));

	/* a label change: the old series go, the new evidence comes; a
	 * handover is no transition */
	event(p, ev_throttled, 4250, HK_CPU_BOUND, HK_THROTTLED, "yes", "/user.slice/quota");
	ev_cpu(&e);
	e.type = HK_EV_HANDOVER;
	e.tgid = 4251;
	hk_prom__event(p, &e, NULL, NULL);
	check_prom(p, NULL, "wq",
		   PROCESSES("1", "0", "1", "0", "0", "0", "0")
		   PER_PROCESS(INFO(I_OOM) INFO(I_THR),
			       S("flagged", L_OOM, "1") S("flagged", L_THR, "1"),
			       S("cpu_ratio", L_OOM, "0.0350") S("cpu_ratio", L_THR, "2.0000"),
			       S("run_delay_ratio", L_OOM, "0.0012")
			       S("run_delay_ratio", L_THR, "2.1000"),
			       S("thread_run_delay_ratio", L_OOM, "0.0010")
			       S("thread_run_delay_ratio", L_THR, "0.4100"),
			       S("throttled_ratio", L_OOM, "0.0123")
			       S("throttled_ratio", L_THR, "0.6250"),
			       S("io_blocked_ratio", L_OOM, "0.0000")
			       S("io_blocked_ratio", L_THR, "0.0000"),
			       S("major_faults_per_second", L_OOM, "45")
			       S("major_faults_per_second", L_THR, "0"),
			       S("minor_faults_per_second", L_OOM, "9700")
			       S("minor_faults_per_second", L_THR, "0"),
			       S("rss_bytes", L_OOM, "1300000000")
			       S("rss_bytes", L_THR, "10485760"),
			       S("rss_anon_bytes", L_OOM, "1200000000")
			       S("rss_anon_bytes", L_THR, "8388608"),
			       S("rss_slope_bytes_per_second", L_OOM, "42991616")
			       S("rss_slope_bytes_per_second", L_THR, "0"),
			       S("memory_limit_bytes", L_OOM, "25125000000")
			       S("memory_limit_bytes", L_THR, "8589934592"),
			       S("oom_eta_seconds", L_OOM, "554"))
		   NO_STATS("wq"));

	/* out: one exits, the other is ok again */
	ev_exited(&e);
	hk_prom__event(p, &e, NULL, NULL);
	event(p, ev_ok, 4250, HK_THROTTLED, HK_OK, NULL, "/user.slice/quota");
	check_prom(p, NULL, "wq", EMPTY("wq"));

	/* a PID that comes back is a new member */
	event(p, ev_cpu, 4250, HK_OK, HK_CPU_BOUND, NULL, "/user.slice");
	event(p, ev_ok, 4250, HK_CPU_BOUND, HK_OK, NULL, NULL);
	check_prom(p, NULL, "wq", EMPTY("wq"));
	hk_prom__free(p);
	tmp_dir_remove();
}

/*
 * Hostile names: " \ and LF escaped as the format says; every other
 * control character, bidi or zero-width character and byte outside UTF-8
 * U+FFFD, one per byte (as the human line shows \xHH); the rest of UTF-8
 * kept. A comm of HK_COMM_LEN bytes has no NUL: the next field is not read.
 */
#define HOSTILE_COMM							\
	"pid=\"666\",comm=\"\\\"\\\\\\n" FFFD FFFD FFFD FFFD FFFD "exe"	\
	FFFD FFFD "\""
#define L_HOSTILE HOSTILE_COMM ",label=\"starved\""
#define I_HOSTILE							\
	HOSTILE_COMM ",cgroup=\"/a\\\"b\\\\c\\nd" FFFD "e" FFFD FFFD FFFD	\
	"/" FFFD FFFD FFFD "gpj.exe/\\\\x0a/\xc3\xa9\xe6\x97\xa5" "/" FFFD FFFD "\"" WL_NONE
#define L_LONG "pid=\"667\",comm=\"0123456789abcdef\",label=\"starved\""
#define I_LONG "pid=\"667\",comm=\"0123456789abcdef\",cgroup=\"\"" WL_NONE
#define HOSTILE_SAMPLES(name, v) S(name, L_HOSTILE, v) S(name, L_LONG, v)

static void test_hostile(void)
{
	struct hk_prom *p;
	struct hk_event e;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* " \ LF ESC, a stray byte, U+202E, "exe", NEL (a C1 control) */
	event(p, ev_starved, 666, HK_OK, HK_STARVED,
	      "\"\\\n\x1b\xff\xe2\x80\xae" "exe\xc2\x85",
	      /* TAB, DEL, an overlong '/', U+202E, a literal "\x0a", é and 日,
	       * a sequence cut short at the end */
	      "/a\"b\\c\nd\te\x7f\xc0\xaf/\xe2\x80\xae"
	      "gpj.exe/\\x0a/\xc3\xa9\xe6\x97\xa5/\xe2\x82");
	ev_starved(&e);
	e.tgid = 667;
	memcpy(e.comm, "0123456789abcdef", HK_COMM_LEN);
	set_comm(e.aggressor_comm, "XYZ");
	hk_prom__event(p, &e, NULL, NULL);
	check_prom(p, NULL, "timer",
		   PROCESSES("0", "0", "0", "2", "0", "0", "0")
		   PER_PROCESS(INFO(I_HOSTILE) INFO(I_LONG),
			       HOSTILE_SAMPLES("flagged", "1"),
			       HOSTILE_SAMPLES("cpu_ratio", "0.0080"),
			       HOSTILE_SAMPLES("run_delay_ratio", "0.9750"),
			       HOSTILE_SAMPLES("thread_run_delay_ratio", "0.9700"),
			       HOSTILE_SAMPLES("throttled_ratio", "0.0000"),
			       HOSTILE_SAMPLES("io_blocked_ratio", "0.0000"),
			       HOSTILE_SAMPLES("major_faults_per_second", "0"),
			       HOSTILE_SAMPLES("minor_faults_per_second", "0"),
			       HOSTILE_SAMPLES("rss_bytes", "10485760"),
			       HOSTILE_SAMPLES("rss_anon_bytes", "8388608"),
			       HOSTILE_SAMPLES("rss_slope_bytes_per_second", "0"),
			       HOSTILE_SAMPLES("memory_limit_bytes", "8589934592"),
			       "")
		   NO_STATS("timer"));
	hk_prom__free(p);
	tmp_dir_remove();
}

/* text has the info sample of pid ("yes") with this cgroup value. */
static void check_info(const char *text, __u32 pid, const char *value)
{
	char want[1024];

	snprintf(want, sizeof(want), "\nhotspot_k_process_info{pid=\"%u\",comm=\"yes\","
		 "cgroup=\"%s\"" WL_NONE "} 1\n", pid, value);
	ASSERT_HAS(text, want);
}

/* The value of a path of n copies of unit after a head, as the file has it. */
static char *repeat(const char *head, const char *unit, size_t n)
{
	size_t h = strlen(head), u = strlen(unit), i;
	char *s = malloc(h + n * u + 1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	memcpy(s, head, h);
	for (i = 0; i < n; i++)
		memcpy(s + h + i * u, unit, u);
	s[h + n * u] = '\0';
	return s;
}

/*
 * A label value past HK_PROM_VALUE_MAX (256) bytes keeps its whole
 * characters and escapes up to 245 bytes, then "…" and the FNV-1a hash of
 * the path (as cut at HK_FORMAT_CGROUP_MAX: not inside a character); one
 * of 256 bytes is kept whole. The hashes were computed apart, in Python.
 */
static void test_value_cap(void)
{
	static const struct {
		const char *head, *unit;
		size_t n;			/* copies of unit in the path */
		const char *v_unit;		/* a unit as a value */
		size_t kept;			/* copies of it kept */
		const char *mark;		/* "" or "…HASH" */
		size_t len;			/* the value's bytes */
	} cases[] = {
		/* 5001 bytes, cut to 4095 ("/" and 2047 é), then to 245 */
		{ "/", "\xc3\xa9", 2500, "\xc3\xa9", 122, "\xe2\x80\xa6" "adbd2352", 256 },
		{ "/", "a", 255, "a", 255, "", 256 },
		{ "/", "a", 256, "a", 244, "\xe2\x80\xa6" "35753e5e", 256 },
		/* an escape is never cut in two: 122 of 2 bytes */
		{ "", "\\", 300, "\\\\", 122, "\xe2\x80\xa6" "ff8b3445", 255 },
		/* U+FFFD for each byte outside UTF-8: 81 of 3 bytes */
		{ "", "\xff", 300, FFFD, 81, "\xe2\x80\xa6" "d16bd729", 254 },
	};
	char *path, *value, *text, want[1024];
	struct hk_prom *p;
	size_t i;

	tmp_dir_make();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p = prom_new(tmp_path("hk.prom"));
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		path = repeat(cases[i].head, cases[i].unit, cases[i].n);
		value = repeat(cases[i].head, cases[i].v_unit, cases[i].kept);
		snprintf(want, sizeof(want), "%s%s", value, cases[i].mark);
		CU_ASSERT_EQUAL(strlen(want), cases[i].len);
		event(p, ev_cpu, 4250, HK_OK, HK_CPU_BOUND, NULL, path);
		text = text_of(p, NULL, "wq");
		check_info(text, 4250, want);
		check_text(text, NULL);
		free(text);
		free(value);
		free(path);
		hk_prom__free(p);
	}

	/* two long paths that differ at their end stay two values */
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	path = repeat("/", "a", 300);
	value = repeat("/", "a", 244);
	path[300] = 'b';
	event(p, ev_cpu, 4250, HK_OK, HK_CPU_BOUND, NULL, path);
	path[300] = 'c';
	event(p, ev_cpu, 4251, HK_OK, HK_CPU_BOUND, NULL, path);
	text = text_of(p, NULL, "wq");
	snprintf(want, sizeof(want), "%s\xe2\x80\xa6" "e659f85f", value);
	check_info(text, 4250, want);
	snprintf(want, sizeof(want), "%s\xe2\x80\xa6" "e559f6cc", value);
	check_info(text, 4251, want);
	check_text(text, NULL);
	free(text);
	free(value);
	free(path);
	hk_prom__free(p);
	tmp_dir_remove();
}

/*
 * The review's case (finding 10): a delegated user puts 1024 busy loops
 * into one cgroup whose path is 4096 bytes, most of them outside UTF-8,
 * each loop named with 16 such bytes. Before the caps this made a file of
 * 151,165,967 bytes (1024 processes x 12 series, each with the 12 KiB
 * label set; measured on 508b7bb with the same events). Now: 256 listed
 * at most, each value at most 256 bytes, the cgroup once a process, and
 * the members' series within 512 KiB: the rest are counted, not listed.
 */
#define AMP_BYTES	514307
#define WIDEST_BYTES	538849
#define WIDEST_LISTED	198
/* A hostile path of HK_FORMAT_CGROUP_MAX bytes, mostly outside UTF-8,
 * under a delegated user's own subtree. */
static void hostile_cgroup(char *cg)
{
	size_t n, k;

	n = (size_t)sprintf(cg, "/user.slice/user-65534.slice/user@65534.service");
	while (n < HK_FORMAT_CGROUP_MAX) {
		cg[n++] = '/';
		for (k = 0; k < 255 && n < HK_FORMAT_CGROUP_MAX; k++)
			cg[n++] = (char)0xff;
	}
	cg[n] = '\0';
}

/*
 * nr processes from make(), PIDs down from first, comm 16 bytes outside
 * UTF-8, in the hostile cgroup: the text has exactly bytes bytes and
 * lists exactly listed of them; the rest are counted, not listed.
 */
static void check_storm(void (*make)(struct hk_event *), __u32 first, __u32 nr,
			size_t bytes, size_t listed, const char *label,
			const struct hk_workload *wl)
{
	char cg[HK_FORMAT_CGROUP_MAX + 1], want[128];
	struct hk_prom *p;
	struct hk_event e;
	char *text;
	__u32 i;

	hostile_cgroup(cg);
	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (i = 0; i < nr; i++) {
		make(&e);
		e.tgid = first - i;
		e.from = HK_OK;
		memset(e.comm, 0xff, sizeof(e.comm));
		hk_prom__event(p, &e, cg, own_owner(wl, e.tgid));
	}
	text = text_of(p, NULL, "wq");
	if (strlen(text) != bytes)
		fprintf(stderr, "\n    %u processes: %zu bytes, %zu listed ", nr, strlen(text),
			pc_count_samples(text, "hotspot_k_process_info"));
	CU_ASSERT_EQUAL(strlen(text), bytes);
	/* the families every file has (counters, the own cost, the node's CPU
	 * wait, [budget]'s) take < 15 KiB */
	CU_ASSERT(strlen(text) <= HK_PROM_SERIES_BYTES_MAX + 15360);
	CU_ASSERT_EQUAL(pc_count_samples(text, "hotspot_k_process_info"), listed);
	CU_ASSERT_EQUAL(pc_count_samples(text, "hotspot_k_process_flagged"), listed);
	snprintf(want, sizeof(want), "\nhotspot_k_processes{label=\"%s\"} %u\n", label, nr);
	ASSERT_HAS(text, want);
	snprintf(want, sizeof(want), "\nhotspot_k_processes_unlisted %zu\n", nr - listed);
	ASSERT_HAS(text, want);
	check_text(text, NULL);
	free(text);
	hk_prom__free(p);
	tmp_dir_remove();
}

static void test_amplification(void)
{
	check_storm(ev_cpu, 101024, 1024, AMP_BYTES, HK_PROM_PROCS_MAX, "cpu_bound", NULL);
}

/*
 * The widest a process's series can be: the longest label, a 7-digit PID,
 * every gauge present (an ETA too) at its widest value. 256 of them would
 * pass HK_PROM_SERIES_BYTES_MAX: the byte cap lists fewer.
 */
static void ev_widest(struct hk_event *e)
{
	ev_oom(e);
	e->to = HK_NOISY_NEIGHBOR;
	e->ev.cpu_pct_x100 = e->ev.wait_pct_x100 = e->ev.thread_wait_pct_x100 = 0xffffffff;
	e->ev.throttled_pct_x100 = e->ev.io_pct_x100 = 0xffffffff;
	e->ev.throttled_norm_pct_x100 = 0xffffffff;
	e->ev.major_faults_per_s = e->ev.minor_faults_per_s = 18446744073709551615ULL;
	e->ev.rss_bytes = e->ev.rss_anon_bytes = e->ev.limit_bytes = 18446744073709551615ULL;
	e->ev.rss_slope_bytes_per_s = -9223372036854775807LL - 1;
	e->ev.eta_s = 18446744073709551614ULL;
}

static void test_bytes_cap(void)
{
	/* the widest unit too: every byte escaped, cut at HK_PROM_VALUE_MAX */
	struct hk_workload wl = {
		.container_id = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		.pod_uid = "1c2d3e4f-aaaa-bbbb-cccc-123456789abc",
	};

	memset(wl.unit, '\\', HK_WORKLOAD_UNIT_LEN - 1 - 8);
	strcpy(wl.unit + HK_WORKLOAD_UNIT_LEN - 1 - 8, ".service");
	check_storm(ev_widest, 4194304, HK_PROM_PROCS_MAX, WIDEST_BYTES, WIDEST_LISTED,
		    "noisy_neighbor", &wl);
}

static void test_stats(void)
{
	struct hk_stats st = {
		.windows = 18446744073709551615ULL,
		.threads_walked = 102,
		.procs_walked = 103,
		.walk_ns_total = 12345678901ULL,
		.walk_ns_max = 220000,
		.switches_recorded = 106,
		.events_emitted = 107,
		.events_dropped = 108,
		.samples_skipped = 109,
		.procs_untracked = 110,
		.exits_lost = 111,
		.defer_overflows = 112,
		.timer_rearm_failures = 113,
		.wq_start_failures = 114,
		.oom_kills_lost = 131,
		.oom_marks_not_kills = 136,
		.oom_kills_flagged = 132,
		.oom_kills_missed = 133,
		.walk_end_ns_max = 134000,
		.driver = HK_DRIVER_ITER,
		.last_walk_ns = 116,
		.procs_quiet = 117,
		.threads_visited = 118,
		.stale_waits = 119,
		.entries_created = 120,
		.sweeps = 121,
		.stretch_ns_max = 1999999999,
		.chunks = 123,
		.procs_parked = 124,
		.walk_cpu_ns_total = 3000000000ULL,
		.stretches = 126,
		.stretches_over_2ms = 127,
		.last_walk_end_ns = 128,
		.threads_unstored = 129,
		.threads_no_delays = 134,
		.procs_no_delays = 135,
		.procs_evicted = 137,
	};
	struct hk_prom *p;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	check_prom(p, &st, "iter",
		   PROCESSES("0", "0", "0", "0", "0", "0", "0") NO_PROCESS
		   STATS("18446744073709551615", "102", "118", "103", "117", "110",
			 "129", "124", "109", "120", "12.345678901", "3.000000000",
			 "0.000220000", "1.999999999", "0.000134000", "126", "127", "123", "106",
			 "107", "108", "111", "121", "112", "119", "113", "114",
			 "131", "136", "134", "135", "137", "132", "133", "iter"));
	hk_prom__free(p);
	tmp_dir_remove();
}

/* The text of the hotspot_k_processes sample for label, and unlisted. */
static void check_counts(const char *text, const char *cpu_bound, const char *starved,
			 const char *unlisted, size_t listed)
{
	char want[128];

	snprintf(want, sizeof(want), "\nhotspot_k_processes{label=\"cpu_bound\"} %s\n", cpu_bound);
	ASSERT_HAS(text, want);
	snprintf(want, sizeof(want), "\nhotspot_k_processes{label=\"starved\"} %s\n", starved);
	ASSERT_HAS(text, want);
	snprintf(want, sizeof(want), "\nhotspot_k_processes_unlisted %s\n", unlisted);
	ASSERT_HAS(text, want);
	CU_ASSERT_EQUAL(pc_count_samples(text, "hotspot_k_process_flagged"), listed);
	CU_ASSERT_EQUAL(pc_count_samples(text, "hotspot_k_process_rss_bytes"), listed);
}

/*
 * Past HK_PROM_PROCS_MAX a process has no series but still counts; it
 * leaves the count when it leaves its label; a member changing label
 * stays a member when the set is full.
 */
static void test_cap(void)
{
	const __u32 max = HK_PROM_PROCS_MAX;
	char n_all[16], n_cpu[16], want[160];
	struct hk_prom *p;
	char *text;
	__u32 tgid;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (tgid = 1; tgid <= max + 3; tgid++)
		event(p, ev_cpu, tgid, HK_OK, HK_CPU_BOUND, NULL, "/a");
	text = text_of(p, NULL, "wq");
	snprintf(n_all, sizeof(n_all), "%u", max + 3);
	check_counts(text, n_all, "0", "3", max);
	/* the first ones kept, the last ones not */
	snprintf(want, sizeof(want), "\nhotspot_k_process_flagged{pid=\"%u\",", max);
	ASSERT_HAS(text, want);
	snprintf(want, sizeof(want), "\nhotspot_k_process_flagged{pid=\"%u\",", max + 1);
	ASSERT_LACKS(text, want);
	check_text(text, NULL);
	free(text);

	/* an unlisted one leaves, one changes label (still no room) */
	event(p, ev_ok, max + 2, HK_CPU_BOUND, HK_OK, NULL, NULL);
	event(p, ev_starved, max + 3, HK_CPU_BOUND, HK_STARVED, NULL, "/a");
	/* a member changes label: it stays */
	event(p, ev_starved, 1, HK_CPU_BOUND, HK_STARVED, NULL, "/a");
	text = text_of(p, NULL, "wq");
	snprintf(n_cpu, sizeof(n_cpu), "%u", max);
	check_counts(text, n_cpu, "2", "2", max);
	ASSERT_HAS(text, "\nhotspot_k_process_flagged{pid=\"1\",comm=\"bash\","
			 "label=\"starved\"} 1\n");
	ASSERT_HAS(text, "\nhotspot_k_process_info{pid=\"1\",comm=\"bash\",cgroup=\"/a\"" WL_NONE
		   "} 1\n");
	free(text);

	/* a member leaves: room for the next one to come */
	event(p, ev_exited, 5, HK_CPU_BOUND, HK_EXITED, NULL, NULL);
	event(p, ev_cpu, 2000, HK_OK, HK_CPU_BOUND, NULL, "/a");
	text = text_of(p, NULL, "wq");
	check_counts(text, n_cpu, "2", "2", max);
	ASSERT_HAS(text, "\nhotspot_k_process_flagged{pid=\"2000\",");
	ASSERT_LACKS(text, "\nhotspot_k_process_flagged{pid=\"5\",");
	free(text);

	/* everyone leaves: nothing left over */
	for (tgid = 1; tgid <= 2000; tgid++)
		event(p, ev_exited, tgid, tgid == 1 || tgid == max + 3 ? HK_STARVED : HK_CPU_BOUND,
		      HK_EXITED, NULL, NULL);
	check_prom(p, NULL, "wq", EMPTY("wq"));
	hk_prom__free(p);
	tmp_dir_remove();
}

/* Stopped: hotspot_k_up 0 and nothing else, written like any state. */
static void test_down(void)
{
	struct hk_stats st = { .windows = 7 };
	struct hk_prom *p;
	char *got;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	event(p, ev_cpu, 4250, HK_OK, HK_CPU_BOUND, NULL, "/user.slice");
	CU_ASSERT_EQUAL(prom_write(p, &st, "wq"), 0);
	CU_ASSERT_FALSE(hk_prom__dirty(p, &st));
	hk_prom__down(p);
	CU_ASSERT_TRUE(hk_prom__dirty(p, &st));
	check_prom(p, &st, "wq", UP("0"));
	CU_ASSERT_EQUAL(prom_write(p, NULL, NULL), 0);
	got = slurp(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	check_text(got, UP("0"));
	free(got);
	hk_prom__free(p);
	tmp_dir_remove();
}

/* ---- the file --------------------------------------------------------------- */

/* Names in tmp_dir other than those given (NULL-terminated): -1 on error. */
static int others_in(const char *dir, const char *const *names)
{
	struct dirent *de;
	size_t i;
	int n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (i = 0; names[i] && strcmp(names[i], de->d_name); i++)
			;
		if (!names[i]) {
			fprintf(stderr, "\n    left in %s: %s", dir, de->d_name);
			n++;
		}
	}
	closedir(d);
	return n;
}

/*
 * The file, mode 0644 whatever the umask; nothing planted at the names
 * the old versions used matters: a FIFO at PATH.tmp (it blocked the old
 * open() for good) is never opened, a hard link at PATH to a file of
 * root's is replaced, not written through.
 */
static void test_write(void)
{
	static const char *const names[] = { "hk.prom", "hk.prom.tmp", "victim",
					     "promtool.in", "promtool.out", NULL };
	struct hk_stats st = { .windows = 1 };
	struct stat sb, victim;
	struct hk_prom *p;
	char *want, *got;
	char path[512];
	mode_t umask_was;

	tmp_dir_make();
	snprintf(path, sizeof(path), "%s", tmp_path("hk.prom"));
	p = prom_new(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL_FATAL(mkfifo(tmp_path("hk.prom.tmp"), 0644), 0);
	got = NULL;
	CU_ASSERT_EQUAL_FATAL(close(open(tmp_path("victim"), O_WRONLY | O_CREAT, 0600)), 0);
	CU_ASSERT_EQUAL_FATAL(link(tmp_path("victim"), path), 0);
	CU_ASSERT_EQUAL_FATAL(stat(tmp_path("victim"), &victim), 0);

	umask_was = umask(077);
	/* a write that blocks on the FIFO ends the run rather than hang it */
	alarm(10);
	event(p, ev_oom_distinct, 4242, HK_OK, HK_OOM_RISK, NULL, "/kubepods/pod-a");
	CU_ASSERT_TRUE(hk_prom__dirty(p, &st));
	CU_ASSERT_EQUAL(prom_write(p, &st, "wq"), 0);
	alarm(0);
	umask(umask_was);
	want = text_of(p, &st, "wq");
	got = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	ASSERT_STR(got, want);
	free(got);
	free(want);
	CU_ASSERT_EQUAL(lstat(path, &sb), 0);
	CU_ASSERT_TRUE(S_ISREG(sb.st_mode));
	CU_ASSERT_EQUAL(sb.st_mode & 07777, 0644);
	CU_ASSERT_EQUAL(sb.st_nlink, 1);
	CU_ASSERT_EQUAL(lstat(tmp_path("hk.prom.tmp"), &sb), 0);
	CU_ASSERT_TRUE(S_ISFIFO(sb.st_mode));
	CU_ASSERT_EQUAL(stat(tmp_path("victim"), &sb), 0);
	CU_ASSERT_EQUAL(sb.st_size, 0);
	CU_ASSERT_EQUAL(sb.st_ino, victim.st_ino);
	CU_ASSERT_EQUAL(sb.st_nlink, 1);
	CU_ASSERT_EQUAL(others_in(tmp_dir, names), 0);

	/* dirty again when the set changes, or the counters move */
	CU_ASSERT_FALSE(hk_prom__dirty(p, &st));
	st.windows++;
	CU_ASSERT_TRUE(hk_prom__dirty(p, &st));
	CU_ASSERT_EQUAL(prom_write(p, &st, "wq"), 0);
	CU_ASSERT_FALSE(hk_prom__dirty(p, &st));
	event(p, ev_exited, 4242, HK_OOM_RISK, HK_EXITED, NULL, NULL);
	CU_ASSERT_TRUE(hk_prom__dirty(p, &st));
	CU_ASSERT_EQUAL(prom_write(p, &st, "wq"), 0);
	CU_ASSERT_FALSE(hk_prom__dirty(p, &st));
	got = slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	check_text(got, PROCESSES("0", "0", "0", "0", "0", "0", "0") NO_PROCESS
		   STATS("2", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0.000000000",
			 "0.000000000", "0.000000000", "0.000000000", "0.000000000",
			 "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
			 "0", "0", "wq"));
	free(got);
	CU_ASSERT_EQUAL(others_in(tmp_dir, names), 0);
	hk_prom__free(p);
	tmp_dir_remove();
}

/*
 * A reader in a child process reads the file over and over while the
 * parent replaces it: every read is one of the two texts, whole. Exit
 * status: 0 fine, 1 a partial text, 2 no read at all, 3 no file.
 */
static int reader(const char *path, const char *a, const char *b, int stop_fd)
{
	struct pollfd pfd = { .fd = stop_fd, .events = POLLIN };
	unsigned long reads = 0;
	char *got;

	while (poll(&pfd, 1, 0) == 0) {
		got = slurp(path);
		if (!got)
			return 3;
		if (strcmp(got, a) && strcmp(got, b)) {
			fprintf(stderr, "\n    reader: %zu bytes, neither text (%zu or %zu)",
				strlen(got), strlen(a), strlen(b));
			return 1;
		}
		free(got);
		reads++;
	}
	return reads ? 0 : 2;
}

static void test_write_atomic(void)
{
	struct hk_prom *pa, *pb;
	int stop[2], i, status;
	char *a, *b, path[512];
	__u32 tgid;
	pid_t pid;

	tmp_dir_make();
	snprintf(path, sizeof(path), "%s", tmp_path("hk.prom"));
	pa = prom_new(path);
	pb = prom_new(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pa);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pb);
	/* ~300 KB: 70 write()s and more for a reader to fall between */
	for (tgid = 1; tgid <= HK_PROM_PROCS_MAX; tgid++)
		event(pb, ev_oom, tgid, HK_OK, HK_OOM_RISK, NULL, "/kubepods/burstable/pod-a");
	a = text_of(pa, NULL, "wq");
	b = text_of(pb, NULL, "wq");
	CU_ASSERT_FATAL(strlen(b) > 70 * 4096);
	CU_ASSERT_EQUAL_FATAL(prom_write(pa, NULL, "wq"), 0);
	CU_ASSERT_EQUAL_FATAL(pipe(stop), 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		close(stop[1]);
		_exit(reader(path, a, b, stop[0]));
	}
	close(stop[0]);
	for (i = 0; i < 40; i++)
		CU_ASSERT_EQUAL(prom_write(i % 2 ? pa : pb, NULL, "wq"), 0);
	close(stop[1]);
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status));
	CU_ASSERT_EQUAL(WEXITSTATUS(status), 0);
	free(a);
	free(b);
	hk_prom__free(pa);
	hk_prom__free(pb);
	tmp_dir_remove();
}

static void test_new_errors(void)
{
	char warn[512], err[512], sub[300];
	struct hk_prom *p;
	FILE *f;

	ASSERT_STR(prom_refused(NULL), "no file named");
	ASSERT_STR(prom_refused(""), "no file named");

	tmp_dir_make();
	/* the directory: missing, not one, writable by others without the
	 * sticky bit (whoever could write there could replace the file) */
	snprintf(sub, sizeof(sub), "%s: No such file or directory", tmp_path("missing"));
	ASSERT_STR(prom_refused(tmp_path("missing/hk.prom")), sub);
	f = fopen(tmp_path("file"), "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	snprintf(sub, sizeof(sub), "%s: Not a directory", tmp_path("file"));
	ASSERT_STR(prom_refused(tmp_path("file/hk.prom")), sub);
	CU_ASSERT_EQUAL_FATAL(mkdir(tmp_path("shared"), 0700), 0);
	CU_ASSERT_EQUAL_FATAL(chmod(tmp_path("shared"), 0775), 0);
	snprintf(sub, sizeof(sub), "%s is writable by its group (mode 0775) and not sticky: "
		 "whoever can write there could replace or remove what hotspot-k writes; "
		 "give a directory only its owner can write", tmp_path("shared"));
	ASSERT_STR(prom_refused(tmp_path("shared/hk.prom")), sub);
	/* sticky (a /tmp): taken, the name is safe there */
	CU_ASSERT_EQUAL_FATAL(chmod(tmp_path("shared"), 01777), 0);
	p = prom_new(tmp_path("shared/hk.prom"));
	CU_ASSERT_PTR_NOT_NULL(p);
	hk_prom__free(p);

	/* a directory at the name */
	snprintf(sub, sizeof(sub), "%s is a directory: name a file in it", tmp_dir);
	ASSERT_STR(prom_refused(tmp_dir), sub);
	snprintf(sub, sizeof(sub), "%s is a directory: name a file in it", tmp_path(""));
	ASSERT_STR(prom_refused(tmp_path("")), sub);

	/* another user's directory (the exporter's, often): taken, and said */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL_FATAL(mkdir(tmp_path("exporter"), 0755), 0);
		CU_ASSERT_EQUAL_FATAL(chown(tmp_path("exporter"), 65534, 65534), 0);
		p = hk_prom__new(tmp_path("exporter/hk.prom"), warn, sizeof(warn), err,
				 sizeof(err));
		CU_ASSERT_PTR_NOT_NULL(p);
		snprintf(sub, sizeof(sub), "%s belongs to uid 65534, who can read, replace or "
			 "remove what hotspot-k writes there (files are created safely all "
			 "the same)", tmp_path("exporter"));
		ASSERT_STR(warn, sub);
		hk_prom__free(p);
	}
	tmp_dir_remove();
}

/*
 * In a child, as nobody when we are root (root writes anywhere): the
 * read-only directory refuses a new file, and the write says why and
 * stays dirty. Exit status: 0 fine, 10 cannot drop root, else which check.
 */
static int read_only_child(struct hk_prom *p, const char *dir, const char *other)
{
	char want[512], err[512];

	if (geteuid() == 0 && (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
		return 10;
	snprintf(want, sizeof(want), "%s: cannot create a file there: Permission denied", dir);
	if (strcmp(prom_refused(other), want))
		return 1;
	if (hk_prom__write(p, NULL, "wq", err, sizeof(err)) != -EACCES ||
	    strcmp(err, "Permission denied"))
		return 2;
	if (!hk_prom__dirty(p, NULL))
		return 3;
	return 0;
}

static void test_write_errors(void)
{
	static const char *const only_path[] = { "hk.prom", NULL };
	static const char *const nothing[] = { NULL };
	char *sub, *path, want[512], err[512];
	struct hk_prom *p;
	int status;
	pid_t pid;
	FILE *f;

	tmp_dir_make();
	sub = strdup(tmp_path("sub"));
	path = strdup(tmp_path("sub/hk.prom"));
	CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0755), 0);
	p = prom_new(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(prom_write(p, NULL, "wq"), 0);

	/* PATH became a directory: the rename fails and takes its temporary along */
	CU_ASSERT_EQUAL(unlink(path), 0);
	CU_ASSERT_EQUAL(mkdir(path, 0755), 0);
	event(p, ev_cpu, 4250, HK_OK, HK_CPU_BOUND, NULL, NULL);
	CU_ASSERT_EQUAL(hk_prom__write(p, NULL, "wq", err, sizeof(err)), -EISDIR);
	ASSERT_STR(err, "Is a directory");
	CU_ASSERT_TRUE(hk_prom__dirty(p, NULL));
	CU_ASSERT_EQUAL(others_in(sub, only_path), 0);
	CU_ASSERT_EQUAL(rmdir(path), 0);

	/* a read-only directory */
	CU_ASSERT_EQUAL(chmod(tmp_dir, 0755), 0);
	CU_ASSERT_EQUAL(chmod(sub, 0555), 0);
	fflush(NULL);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid)
		_exit(read_only_child(p, sub, tmp_path("sub/other.prom")));
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 10)
		fprintf(stderr, "\n    cannot drop root to uid 65534: "
			"read-only directory not tried ");
	else
		CU_ASSERT_EQUAL(WEXITSTATUS(status), 0);
	CU_ASSERT_EQUAL(chmod(sub, 0755), 0);
	CU_ASSERT_EQUAL(access(tmp_path("sub/hk.prom"), F_OK), -1);

	/* a stream that fails says why */
	f = fopen("/dev/full", "w");
	if (f) {
		CU_ASSERT_EQUAL(hk_prom__format(p, NULL, "wq", f), -ENOSPC);
		fclose(f);
	}
	CU_ASSERT_EQUAL(prom_write(p, NULL, "wq"), 0);
	CU_ASSERT_FALSE(hk_prom__dirty(p, NULL));

	/* the directory went away: said, dirty; one made again at its path
	 * is not looked up (whoever could replace it could point root
	 * anywhere): nothing goes there */
	CU_ASSERT_EQUAL(unlink(path), 0);
	CU_ASSERT_EQUAL(rmdir(sub), 0);
	event(p, ev_ok, 4250, HK_CPU_BOUND, HK_OK, NULL, NULL);
	snprintf(want, sizeof(want), "the directory %s was removed since it was checked; "
		 "hotspot-k does not follow its path again (restart it to write into a new "
		 "one)", sub);
	CU_ASSERT_EQUAL(hk_prom__write(p, NULL, "wq", err, sizeof(err)), -ENOENT);
	ASSERT_STR(err, want);
	CU_ASSERT_TRUE(hk_prom__dirty(p, NULL));
	CU_ASSERT_EQUAL(mkdir(sub, 0755), 0);
	CU_ASSERT_EQUAL(hk_prom__write(p, NULL, "wq", err, sizeof(err)), -ENOENT);
	CU_ASSERT_EQUAL(others_in(sub, nothing), 0);
	hk_prom__free(p);
	free(sub);
	free(path);
	tmp_dir_remove();
}

/* The strict reader fails what it should: it is not a test that cannot fail. */
static void test_checker(void)
{
#define HT "# HELP m x\n# TYPE m gauge\n"
	static const char *const bad[] = {
		"m 1\n",					/* no HELP */
		"# HELP m x\nm 1\n",				/* no TYPE */
		"# HELP m x\n",					/* HELP alone */
		"# TYPE m gauge\n# HELP m x\nm 1\n",		/* TYPE first */
		HT "m 1",					/* not ended */
		HT "\nm 1\n",					/* blank line */
		HT "# a comment\nm 1\n",
		HT "n 1\n",					/* another family */
		HT "m 1\n# HELP n x\n# TYPE n gauge\nn 1\n" HT,	/* m twice */
		HT "m{a=\"1\"} 1\nm{a=\"1\"} 2\n",		/* a series twice */
		HT "m{a=\"1\",a=\"2\"} 1\n",			/* a label twice */
		HT "m{a=\"1\",} 1\n",				/* trailing comma */
		HT "m{__a=\"1\"} 1\n",				/* reserved */
		HT "m{1a=\"1\"} 1\n",				/* bad label name */
		HT "m{a=\"\\x41\"} 1\n",			/* \x escape */
		HT "m{a=\"\\u0041\"} 1\n",			/* \u escape */
		HT "m{a=\"\xff\"} 1\n",				/* not UTF-8 */
		HT "m{a=\"\xc0\xaf\"} 1\n",			/* overlong */
		HT "m{a=\"\t\"} 1\n",				/* control */
		HT "m{a=\"\xe2\x80\xae\"} 1\n",			/* bidi */
		HT "m{a=\"1} 1\n",				/* unterminated */
		HT "m{a=1} 1\n",				/* unquoted */
		HT "m 1,5\n",
		HT "m 1.\n",
		HT "m\n",
		HT "m 1 2 3\n",
		"# HELP m x\n# TYPE m counter\nm 1\n",		/* counter, no _total */
		"# HELP m_total x\n# TYPE m_total gauge\nm_total 1\n",
		"# HELP m x\n# TYPE m histogram\nm 1\n",
		"# HELP m a\\tb\n# TYPE m gauge\nm 1\n",	/* docstring escape */
		"# HELP 1m x\n# TYPE 1m gauge\n1m 1\n",
	};
#undef HT
	const char *good = "# HELP m_total a \"quoted\" \\\\ and \\n\n# TYPE m_total counter\n"
			   "m_total{a=\"\\\\\\\"\\n\xc3\xa9" FFFD "\",b=\"\"} "
			   "1.5e+03 1700000000000\n"
			   "m_total -7\n# HELP n:x y\n# TYPE n:x untyped\nn:x NaN\n";
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!pc_check(bad[i]))
			fprintf(stderr, "\n    prom_check took bad text %zu", i);
		CU_ASSERT_PTR_NOT_NULL(pc_check(bad[i]));
	}
	CU_ASSERT_PTR_NULL(pc_check(good));
	CU_ASSERT_PTR_NULL(pc_check(""));
	CU_ASSERT_EQUAL(pc_count_samples(good, "m_total"), 2);
	CU_ASSERT_EQUAL(pc_count_samples(good, "m"), 0);
}

/* who a process is, on its info series (and only there: its gauges stay
 * per PID and label) */
static void test_workload(void)
{
	static const struct hk_workload wl = {
		.unit = "cri-containerd-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
		.container_id = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
		.pod_uid = "1c2d3e4f-aaaa-bbbb-cccc-123456789abc",
	};
	struct hk_prom *p;
	struct hk_event e;
	char *text;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	ev_cpu(&e);
	e.from = HK_OK;
	hk_prom__event(p, &e, "/kubepods.slice/c.scope", &wl);
	text = text_of(p, NULL, "wq");
	ASSERT_HAS(text, "\nhotspot_k_process_info{pid=\"4250\",comm=\"yes\","
		   "cgroup=\"/kubepods.slice/c.scope\",unit=\"cri-containerd-0123456789abcdef"
		   "0123456789abcdef0123456789abcdef0123456789abcdef.scope\",container_id=\""
		   "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\","
		   "pod_uid=\"1c2d3e4f-aaaa-bbbb-cccc-123456789abc\"} 1\n");
	ASSERT_HAS(text, "\nhotspot_k_process_flagged{pid=\"4250\",comm=\"yes\","
		   "label=\"cpu_bound\"} 1\n");
	check_text(text, NULL);
	free(text);
	hk_prom__free(p);
	tmp_dir_remove();
}

/* The stall ledger: a counter per cause above 0 of each listed process,
 * with its gauges' labels, resource and cause; promtool takes it; and the
 * node's CPU wait by cause from hk_stats. */
static void test_stall(void)
{
	struct hk_stats st = {};
	struct hk_prom *p;
	struct hk_event e;
	char *text;

	tmp_dir_make();
	p = prom_new(tmp_path("hk.prom"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	ev_cpu(&e);
	e.from = HK_OK;
	e.ev.stall_ns.ns[HK_STALL_QUOTA] = 1500 * HK_NSEC_PER_MSEC;
	e.ev.stall_ns.ns[HK_STALL_SELF] = 7;
	e.ev.stall_ns.ns[HK_STALL_REFAULT] = 12 * HK_NSEC_PER_SEC;
	hk_prom__event(p, &e, "/user.slice", NULL);
	st.node_cpu_wait_ns[HK_STALL_NEIGHBOR] = 2 * HK_NSEC_PER_SEC + 5;
	text = text_of(p, &st, "wq");
	ASSERT_HAS(text, "# TYPE hotspot_k_stall_seconds_total counter\n"
		   "hotspot_k_stall_seconds_total{pid=\"4250\",comm=\"yes\",label=\"cpu_bound\","
		   "resource=\"cpu\",cause=\"self\"} 0.000000007\n"
		   "hotspot_k_stall_seconds_total{pid=\"4250\",comm=\"yes\",label=\"cpu_bound\","
		   "resource=\"cpu\",cause=\"quota\"} 1.500000000\n"
		   "hotspot_k_stall_seconds_total{pid=\"4250\",comm=\"yes\",label=\"cpu_bound\","
		   "resource=\"memory\",cause=\"refault\"} 12.000000000\n#");
	ASSERT_HAS(text, "\nhotspot_k_node_cpu_wait_seconds_total{cause=\"neighbor\"} "
		   "2.000000005\nhotspot_k_node_cpu_wait_seconds_total{cause=\"self\"} "
		   "0.000000000\n");
	check_text(text, NULL);
	free(text);
	hk_prom__free(p);
	tmp_dir_remove();
}

int hk_add_prometheus_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "empty", test_empty },
		{ "transitions", test_transitions },
		{ "hostile names", test_hostile },
		{ "label values cut at 256 bytes", test_value_cap },
		{ "counters", test_stats },
		{ "cap", test_cap },
		{ "the review's amplification case: sizes", test_amplification },
		{ "the widest processes: the byte cap", test_bytes_cap },
		{ "stopped: hotspot_k_up 0", test_down },
		{ "write", test_write },
		{ "write is atomic", test_write_atomic },
		{ "new errors", test_new_errors },
		{ "write errors", test_write_errors },
		{ "strict reader", test_checker },
		{ "unit, container, pod on the info series", test_workload },
		{ "the stall ledger: per process and the node", test_stall },
	};

	return HK_ADD_SUITE("prometheus", tests);
}
