// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prom_stats.c - the tool's own counters (hk_stats) as Prometheus families
 * (prom_stats.h): one table, so that a new hk_stats field is exported or
 * skipped on purpose (the build fails otherwise).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "prom_stats.h"
#include "format.h"
#include "shared/units.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* An hk_stats field: a counter ("_total") or a maximum (a gauge). */
struct stat_metric {
	const char *name;
	const char *type;
	size_t off;			/* in struct hk_stats */
	bool ns;			/* nanoseconds, written as seconds */
	const char *help;
};

#define ST(field) offsetof(struct hk_stats, field)

static const struct stat_metric stat_metrics[] = {
	{ "hotspot_k_windows_total", "counter", ST(windows), false,
	  "Walks completed: one a window." },
	{ "hotspot_k_threads_walked_total", "counter", ST(threads_walked), false,
	  "Threads the walks went over." },
	{ "hotspot_k_threads_visited_total", "counter", ST(threads_visited), false,
	  "Threads whose task storage the walks read." },
	{ "hotspot_k_processes_walked_total", "counter", ST(procs_walked), false,
	  "Processes the walks went over." },
	{ "hotspot_k_process_windows_quiet_total", "counter", ST(procs_quiet), false,
	  "Process-windows skipped as quiet: none of its threads ran." },
	{ "hotspot_k_process_windows_untracked_total", "counter", ST(procs_untracked), false,
	  "Process-windows not tracked: hk_procs was full (see --max-procs)." },
	{ "hotspot_k_thread_visits_unstored_total", "counter", ST(threads_unstored), false,
	  "Thread-visits skipped: the kernel could not allocate the thread's task storage." },
	{ "hotspot_k_processes_parked_total", "counter", ST(procs_parked), false,
	  "Processes the iter driver set aside until their next thread." },
	{ "hotspot_k_samples_skipped_total", "counter", ST(samples_skipped), false,
	  "Process-windows without a sample: the walk missed its last thread, "
	  "or it had no mm." },
	{ "hotspot_k_entries_created_total", "counter", ST(entries_created), false,
	  "Entries created in hk_procs." },
	{ "hotspot_k_walk_seconds_total", "counter", ST(walk_ns_total), true,
	  "Time from the first stretch of each walk to its last, yields included." },
	{ "hotspot_k_walk_cpu_seconds_total", "counter", ST(walk_cpu_ns_total), true,
	  "Time the walks held a CPU, without the iter driver's yields." },
	{ "hotspot_k_walk_max_seconds", "gauge", ST(walk_ns_max), true,
	  "Longest single walk." },
	{ "hotspot_k_stretch_max_seconds", "gauge", ST(stretch_ns_max), true,
	  "Longest time a walk held a CPU with no preemption point." },
	{ "hotspot_k_walk_end_max_seconds", "gauge", ST(walk_end_ns_max), true,
	  "Longest end of an iter walk (stop(): exits, victims, a sweep)." },
	{ "hotspot_k_stretches_total", "counter", ST(stretches), false,
	  "Stretches the walks held a CPU for." },
	{ "hotspot_k_long_stretches_total", "counter", ST(stretches_over_2ms), false,
	  "Stretches longer than 2 ms." },
	{ "hotspot_k_chunks_total", "counter", ST(chunks), false,
	  "Times the iter driver's walker let go of the CPU mid-walk; under the table "
	  "driver, work items that queued the walk's next chunk." },
	{ "hotspot_k_switches_recorded_total", "counter", ST(switches_recorded), false,
	  "Involuntary context switches the sched_switch hook recorded." },
	{ "hotspot_k_events_emitted_total", "counter", ST(events_emitted), false,
	  "Transitions sent over the ring buffer." },
	{ "hotspot_k_events_dropped_total", "counter", ST(events_dropped), false,
	  "Transitions the full ring buffer refused, retried the next window." },
	{ "hotspot_k_exits_lost_total", "counter", ST(exits_lost), false,
	  "Process exits hk_exits had no room for, found by a sweep instead." },
	{ "hotspot_k_sweeps_total", "counter", ST(sweeps), false,
	  "Full walks that dropped processes whose exit was lost." },
	{ "hotspot_k_defer_overflows_total", "counter", ST(defer_overflows), false,
	  "Processes the aggressor pass had no room for." },
	{ "hotspot_k_stale_run_delays_total", "counter", ST(stale_waits), false,
	  "Run delays the kernel credited from a stale queue time, dropped." },
	{ "hotspot_k_timer_rearm_failures_total", "counter", ST(timer_rearm_failures), false,
	  "Times the walk's timer failed to re-arm." },
	{ "hotspot_k_wq_start_failures_total", "counter", ST(wq_start_failures), false,
	  "Times the timer failed to start the walk's work item (wq driver)." },
	{ "hotspot_k_oom_kills_lost_total", "counter", ST(oom_kills_lost), false,
	  "OOM kills whose line was lost (ring buffer full, or no room to keep the "
	  "kill until the victim exited); counted with flagged false." },
	{ "hotspot_k_oom_marks_not_kills_total", "counter", ST(oom_marks_not_kills), false,
	  "OOM killer marks of a task exiting or SIGKILLed already: no kill, not in "
	  "hotspot_k_oom_kills_total." },
	{ "hotspot_k_thread_visits_no_delays_total", "counter", ST(threads_no_delays), false,
	  "Thread-visits of threads without delay accounting (started before "
	  "kernel.task_delayacct was 1): their I/O wait and memory stall sampled." },
	{ "hotspot_k_processes_no_delays", "gauge", ST(procs_no_delays), false,
	  "Processes without delay accounting at the last full walk: their I/O wait "
	  "and memory stall sampled." },
	{ "hotspot_k_processes_evicted_total", "counter", ST(procs_evicted), false,
	  "Quiet processes whose hk_procs entry was given up to make room (they "
	  "are met as new when they run again)." },
	{ "hotspot_k_table_repaired_total", "counter", ST(table_repaired), false,
	  "Table driver: summary words whose lost bits the walk's audit found (a "
	  "race of unordered atomics; each such process missed up to 64 windows)." },
	{ "hotspot_k_table_resumes_total", "counter", ST(table_resumes), false,
	  "Table driver: chunks that began inside a process the budget cut, at "
	  "the thread the cut came after." },
	{ "hotspot_k_table_restarts_total", "counter", ST(table_restarts), false,
	  "Table driver: resumes whose thread had exited since: the process walked "
	  "again from its leader, the threads walked already skipped." },
};

/*
 * Every hk_stats field is in stat_metrics[] or one of these five: driver
 * (hotspot_k_driver), last_walk_ns and last_walk_end_ns (monotonic clock
 * stamps, meaningless to Prometheus), oom_kills_flagged and
 * oom_kills_missed (one family with a label, below); node_cpu_wait_ns (one
 * family with a cause label, below); cost, the tool's own (hotspot_k_own_*,
 * its own table); and budget (hotspot_k_budget_*, below). A new field
 * breaks the build here.
 */
HK_STATIC_ASSERT(ARRAY_SIZE(stat_metrics) + 5 + HK_STALL_CPU_NR +
		 sizeof(struct hk_cost) / sizeof(__u64) +
		 sizeof(struct hk_budget_use) / sizeof(__u64) ==
		 sizeof(struct hk_stats) / sizeof(__u64),
		 "an hk_stats field is neither exported nor skipped");

/* base: the struct m->off is in (hk_stats, hk_cost) */
static void stat_value(FILE *f, const struct stat_metric *m, const void *base)
{
	__u64 v;

	memcpy(&v, (const char *)base + m->off, sizeof(v));
	if (m->ns)
		fprintf(f, "%s %llu.%09llu\n", m->name, (unsigned long long)(v / HK_NSEC_PER_SEC),
			(unsigned long long)(v % HK_NSEC_PER_SEC));
	else
		fprintf(f, "%s %llu\n", m->name, (unsigned long long)v);
}

/* A family for each of a table's n metrics, their values read in base. */
static void write_table(FILE *out, const struct stat_metric *m, size_t n, const void *base)
{
	size_t j;

	for (j = 0; j < n; j++) {
		fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", m[j].name, m[j].help, m[j].name,
			m[j].type);
		stat_value(out, &m[j], base);
	}
}

/* The node's CPU wait by cause: every process's, not only those listed. */
static void hk_prom_stats__write_node_wait(FILE *out, const struct hk_stats *st)
{
	__u32 i;
	__u64 v;

	fprintf(out, "# HELP hotspot_k_node_cpu_wait_seconds_total Time the node's "
		"threads waited for a CPU, every process's stall ledger summed, by cause: "
		"neighbor (another process held the CPU), self (its own threads), quota "
		"(its cgroup's cpu.max), steal_irq, weight (it asked for less).\n"
		"# TYPE hotspot_k_node_cpu_wait_seconds_total counter\n");
	for (i = 0; i < HK_STALL_CPU_NR; i++) {
		v = st->node_cpu_wait_ns[i];
		fprintf(out, "hotspot_k_node_cpu_wait_seconds_total{cause=\"%s\"} %llu.%09llu\n",
			hk_stall__cause(i), (unsigned long long)(v / HK_NSEC_PER_SEC),
			(unsigned long long)(v % HK_NSEC_PER_SEC));
	}
}

void hk_prom_stats__write(FILE *out, const struct hk_stats *st)
{
	write_table(out, stat_metrics, ARRAY_SIZE(stat_metrics), st);
	/* the tool's recall, measured by the kernel: flagged="false" are the
	 * OOM kills it missed */
	fprintf(out, "# HELP hotspot_k_oom_kills_total Processes the kernel's OOM killer "
		"killed, by whether hotspot-k had flagged them OOM risk in time (held at "
		"the kill, or left at most %d windows before).\n"
		"# TYPE hotspot_k_oom_kills_total counter\n", HK_OOM_FLAG_WINDOWS);
	fprintf(out, "hotspot_k_oom_kills_total{flagged=\"true\"} %llu\n",
		(unsigned long long)st->oom_kills_flagged);
	fprintf(out, "hotspot_k_oom_kills_total{flagged=\"false\"} %llu\n",
		(unsigned long long)st->oom_kills_missed);
	hk_prom_stats__write_node_wait(out, st);
	hk_prom_stats__write_cost(out, &st->cost);
	hk_prom_stats__write_budget(out, &st->budget);
}

#define CO(field) offsetof(struct hk_cost, field)

static const struct stat_metric cost_metrics[] = {
	{ "hotspot_k_own_start_cpu_seconds", "gauge", CO(start_cpu_ns), true,
	  "CPU time the tool's start took: loading, the verifier, the first walk." },
	{ "hotspot_k_own_cpu_seconds_total", "counter", CO(total_ns), true,
	  "CPU time the tool cost since its start: walks, userspace and its programs' "
	  "runs (see hotspot_k_own_cost_source)." },
	{ "hotspot_k_own_walk_cpu_seconds_total", "counter", CO(walk_cpu_ns), true,
	  "CPU time of the walks since the start." },
	{ "hotspot_k_own_user_cpu_seconds_total", "counter", CO(user_cpu_ns), true,
	  "CPU time of the tool's process since the start (user + system), less the "
	  "walks it ran." },
	{ "hotspot_k_own_hook_runs_total", "counter", CO(hook_runs), false,
	  "Runs of the sched_switch hook (attached only while a thread is watched)." },
	{ "hotspot_k_own_hook_run_seconds_total", "counter", CO(hook_run_ns), true,
	  "Time the sched_switch hook's runs took." },
	{ "hotspot_k_own_hook_attached", "gauge", CO(hook_attached), false,
	  "1 while the sched_switch hook is attached." },
	{ "hotspot_k_own_hook_attaches_total", "counter", CO(hook_attaches), false,
	  "Times the sched_switch hook was attached, at a walk's ask." },
	{ "hotspot_k_own_hook_attached_seconds_total", "counter", CO(hook_attached_ns), true,
	  "Time the sched_switch hook was attached, all in all." },
	{ "hotspot_k_own_hook_attach_max_seconds", "gauge", CO(hook_attach_ns_max), true,
	  "Longest time from a walk's ask to the hook attached." },
	{ "hotspot_k_own_exit_hook_runs_total", "counter", CO(exit_runs), false,
	  "Runs of the sched_process_exit hook." },
	{ "hotspot_k_own_exit_hook_run_seconds_total", "counter", CO(exit_run_ns), true,
	  "Time the sched_process_exit hook's runs took." },
	{ "hotspot_k_own_oom_hook_runs_total", "counter", CO(oom_runs), false,
	  "Runs of the OOM kill hook." },
	{ "hotspot_k_own_oom_hook_run_seconds_total", "counter", CO(oom_run_ns), true,
	  "Time the OOM kill hook's runs took." },
	{ "hotspot_k_own_fork_hook_runs_total", "counter", CO(fork_runs), false,
	  "Runs of the sched_process_fork hook (the table driver's; 0 under the others)." },
	{ "hotspot_k_own_fork_hook_run_seconds_total", "counter", CO(fork_run_ns), true,
	  "Time the sched_process_fork hook's runs took." },
	{ "hotspot_k_own_lifetime_seconds", "gauge", CO(lifetime_ns), true,
	  "Time since the tool's start ended: the span the cost counters cover." },
};

/* Every hk_cost field is in cost_metrics[] but source (hotspot_k_own_cost_source). */
HK_STATIC_ASSERT(ARRAY_SIZE(cost_metrics) + 1 == sizeof(struct hk_cost) / sizeof(__u64),
		 "an hk_cost field is neither exported nor skipped");

void hk_prom_stats__write_cost(FILE *out, const struct hk_cost *c)
{
	write_table(out, cost_metrics, ARRAY_SIZE(cost_metrics), c);
	fprintf(out, "# HELP hotspot_k_own_cost_source How the runs' time is known: "
		"stats (BPF_ENABLE_STATS held by the tool: --bpf-stats), sysctl "
		"(kernel.bpf_stats_enabled), estimate (runs counted x ns per run measured "
		"by make bench).\n# TYPE hotspot_k_own_cost_source gauge\n");
	fprintf(out, "hotspot_k_own_cost_source{source=\"%s\"} 1\n",
		c->source == HK_COST_STATS ? "stats" : c->source == HK_COST_SYSCTL ? "sysctl" :
		c->source == HK_COST_ESTIMATE ? "estimate" : "unknown");
}

/*
 * [budget]: each step 1 while in effect (budget.h's order; a step keeps
 * the ones before it), the steps taken each way, and what was judged.
 * Short: every file carries these families (test_prometheus.c's cap).
 */
void hk_prom_stats__write_budget(FILE *out, const struct hk_budget_use *b)
{
	static const char *const steps[] = { "no_profiles", "ring_lazy", "interval_x2",
					     "interval_x4", "no_hook" };
	size_t i;

	fprintf(out, "# HELP hotspot_k_budget_degraded 1 while this step is given up to "
		"stay within [budget].\n# TYPE hotspot_k_budget_degraded gauge\n");
	for (i = 0; i < ARRAY_SIZE(steps); i++)
		fprintf(out, "hotspot_k_budget_degraded{step=\"%s\"} %d\n", steps[i],
			b->step > i);
	fprintf(out, "# HELP hotspot_k_budget_steps_total Steps taken for [budget].\n"
		"# TYPE hotspot_k_budget_steps_total counter\n"
		"hotspot_k_budget_steps_total{direction=\"down\"} %llu\n"
		"hotspot_k_budget_steps_total{direction=\"up\"} %llu\n"
		"# HELP hotspot_k_budget_cpu_ratio Own CPU over [budget] span, of one CPU.\n"
		"# TYPE hotspot_k_budget_cpu_ratio gauge\n"
		"hotspot_k_budget_cpu_ratio %llu.%04llu\n"
		"# HELP hotspot_k_own_rss_bytes The tool's resident memory.\n"
		"# TYPE hotspot_k_own_rss_bytes gauge\nhotspot_k_own_rss_bytes %llu\n",
		(unsigned long long)b->degrades, (unsigned long long)b->recovers,
		(unsigned long long)(b->cpu_pct_x100 / 10000),
		(unsigned long long)(b->cpu_pct_x100 % 10000), (unsigned long long)b->rss_bytes);
}

#define HT(field) offsetof(struct hk_prom_http, field)

static const struct stat_metric http_metrics[] = {
	{ "hotspot_k_metrics_scrapes_total", "counter", HT(scrapes), false,
	  "Scrapes --metrics-listen answered with the metrics, written whole "
	  "(counted up to when this text was made: once a window)." },
	{ "hotspot_k_metrics_clients_refused_total", "counter", HT(refused), false,
	  "Connections to --metrics-listen closed at once: 8 were open already." },
	{ "hotspot_k_metrics_clients_dropped_total", "counter", HT(dropped), false,
	  "Connections to --metrics-listen dropped: no whole request within 2 s, "
	  "one over 4 KiB, or a reader that took nothing for 2 s." },
};

HK_STATIC_ASSERT(ARRAY_SIZE(http_metrics) == sizeof(struct hk_prom_http) / sizeof(__u64),
		 "an hk_prom_http field is not exported");

void hk_prom_stats__write_http(FILE *out, const struct hk_prom_http *h)
{
	write_table(out, http_metrics, ARRAY_SIZE(http_metrics), h);
}
