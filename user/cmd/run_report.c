// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * run_report.c - what a run says of itself: at its start, which driver
 * walks, why and at what cost, and what this host hides from it; at its
 * end, the summary (windows, events, the walk's and the hook's cost, the
 * freezes and profiles).
 */
#include <stdio.h>
#include "act/act.h"
#include "act/freeze.h"
#include "kernel/self_cost.h"
#include "lib/log.h"
#include "lib/stopguard.h"
#include "lib/sysinfo.h"
#include "output/linelimit.h"
#include "run_loop.h"
#include "run_report.h"

void hk_run__print_summary(struct hk_loader *l, const struct hk_printer *pr)
{
	static int said;
	const struct hk_act *a = pr->act;
	struct hk_stats st = {};
	struct hk_hook_use hu;
	struct hk_cost cost;
	char hook[96], line[512];

	/* once: from the loop's cleanup, or from a stuck one's (stopguard.h) */
	if (!hk_stopguard__once(&said) || hk_loader__stats(l, &st))
		return;
	/* each line in the journal with the summary's MESSAGE_ID */
	hk_log__kind(HK_JMSG_SUMMARY);
	hk_loader__cost(l, &cost);
	if (!hk_loader__hook_prog(l))
		snprintf(hook, sizeof(hook), "no hook");
	else if (cost.hook_runs && cost.source != HK_COST_ESTIMATE)
		snprintf(hook, sizeof(hook), "hook %llu ns/switch while attached",
			 (unsigned long long)(cost.hook_run_ns / cost.hook_runs));
	else
		snprintf(hook, sizeof(hook), "hook %s", cost.hook_attaches ?
			 "cost not measured (estimated below)" : "never attached");
	hk_log__print(HK_LOG_INFO,
		"%llu windows, %llu events (%llu dropped, retried), "
		"driver %s, walk %llu ns/thread avg, longest walk %llu us, "
		"longest stretch on a CPU %llu us (%llu of %llu over 2 ms), "
		"longest walk end %llu us, %s, "
		"%llu of %llu process-windows quiet, %llu samples skipped, "
		"%llu stale run delays dropped\n",
		(unsigned long long)st.windows, (unsigned long long)st.events_emitted,
		(unsigned long long)st.events_dropped,
		hk_driver__name(hk_loader__driver(l, NULL)),
		(unsigned long long)(st.threads_walked ? st.walk_cpu_ns_total / st.threads_walked : 0),
		(unsigned long long)(st.walk_ns_max / HK_NSEC_PER_USEC),
		(unsigned long long)(st.stretch_ns_max / HK_NSEC_PER_USEC),
		(unsigned long long)st.stretches_over_2ms, (unsigned long long)st.stretches,
		(unsigned long long)(st.walk_end_ns_max / HK_NSEC_PER_USEC), hook,
		(unsigned long long)st.procs_quiet, (unsigned long long)st.procs_walked,
		(unsigned long long)st.samples_skipped,
		(unsigned long long)st.stale_waits);
	/* every way a diagnosis can be late, lost or cut short, even at 0:
	 * a count that is absent cannot be told from one that is zero */
	hk_log__print(HK_LOG_INFO,
		"losses: %llu events dropped (ring buffer full, retried), "
		"%llu exits lost (swept), %llu aggressor pairs over the cap, "
		"%llu process-windows untracked (hk_procs full, see --max-procs), "
		"%llu thread-visits without task storage (ENOMEM), "
		"%llu without delay accounting (I/O wait and memory stall sampled), "
		"%llu timer re-arm failures, %llu wq start failures, "
		"%llu lines not written (%llu of them: the output was not read), "
		"%llu cgroup paths cut to %d bytes, "
		"%llu lines held back (a user's past %d in %llu s), "
		"%llu OOM kills' memory cgroups not searched in full (budget)\n",
		(unsigned long long)st.events_dropped, (unsigned long long)st.exits_lost,
		(unsigned long long)st.defer_overflows, (unsigned long long)st.procs_untracked,
		(unsigned long long)st.threads_unstored,
		(unsigned long long)st.threads_no_delays,
		(unsigned long long)st.timer_rearm_failures,
		(unsigned long long)st.wq_start_failures,
		(unsigned long long)pr->lines_lost, (unsigned long long)pr->lines_stalled,
		(unsigned long long)pr->cgroups_cut,
		HK_FORMAT_PATH_MAX, (unsigned long long)pr->limit.held_total,
		HK_LINELIMIT_LINES, HK_LINELIMIT_INTERVAL_NS / HK_NSEC_PER_SEC,
		(unsigned long long)pr->oom_memcgs.searches_cut);
	if (pr->journal.fd >= 0)
		hk_log__print(HK_LOG_INFO, "journal: %llu entries sent to %s, %llu not (%llu "
			      "of them: its socket was full), %llu fields left out\n",
			      (unsigned long long)pr->journal.sent, pr->journal.path,
			      (unsigned long long)(pr->journal.full + pr->journal.failed),
			      (unsigned long long)pr->journal.full,
			      (unsigned long long)pr->journal.fields_left_out);
	hk_self_cost__format(&cost, line, sizeof(line));
	hk_log__print(HK_LOG_INFO, "%s\n", line);
	if (hk_loader__hook_use(l, &hu) >= 0 && hu.failures)
		hk_log__print(HK_LOG_WARNING, "the sched_switch hook failed to attach %llu "
			      "times (last: %s): aggressors went unnamed meanwhile\n",
			      (unsigned long long)hu.failures, strerror(hu.last_errno));
	/* the tool's recall, measured by the kernel itself; apart, the marks
	 * of a task dying already, which killed nothing */
	hk_log__print(HK_LOG_INFO, "OOM kills: %llu flagged OOM risk in time, %llu missed "
		      "(%llu of them lines lost; %llu in memory cgroups a user owns); %llu %s%s\n",
		      (unsigned long long)st.oom_kills_flagged,
		      (unsigned long long)st.oom_kills_missed,
		      (unsigned long long)st.oom_kills_lost,
		      (unsigned long long)pr->oom_kills_delegated,
		      (unsigned long long)st.oom_marks_not_kills,
		      st.oom_marks_not_kills == 1 ? "mark of a task dying already, not a kill" :
		      "marks of tasks dying already, not kills",
		      hk_loader__oom_note(l) ? " - not seen on this kernel" : "");
	if (a && a->freeze && (a->freeze->eta_s || a->freeze->frozen || a->freeze->refused ||
			       a->freeze->failed))
		hk_log__print(HK_LOG_INFO, "freeze: %llu cgroups frozen (or freezing), "
			"%llu refused, %llu failed\n", (unsigned long long)a->freeze->frozen,
			(unsigned long long)a->freeze->refused,
			(unsigned long long)a->freeze->failed);
	if (a && (a->profile_ns || a->profiles_written || a->profiles_failed))
		hk_log__print(HK_LOG_INFO, "profiles: %llu written, %llu failed, %llu not "
			"started (%d at once at most)\n", (unsigned long long)a->profiles_written,
			(unsigned long long)a->profiles_failed,
			(unsigned long long)a->profiles_skipped, HK_PROF_TARGETS);
	hk_log__kind(-1);
}

void hk_run__print_start(struct hk_loader *l, __u64 interval_ns)
{
	struct hk_walk_cost first;
	const char *why;
	enum hk_driver d = hk_loader__driver(l, &why);
	char cost[200];

	hk_loader__walk_cost(l, &first, NULL);
	/* each line in the journal with the start's MESSAGE_ID */
	hk_log__kind(HK_JMSG_START);
	if (d == HK_DRIVER_ITER)
		snprintf(cost, sizeof(cost),
			 "walked from here each window; the first walk took %u system calls, %llu us",
			 first.syscalls, (unsigned long long)(first.wall_ns / HK_NSEC_PER_USEC));
	else
		snprintf(cost, sizeof(cost),
			 "walked by the kernel's timer, %s; from here a watchdog, woken when "
			 "%d intervals pass without a window",
			 d == HK_DRIVER_WQ ? "in a kworker" :
			 d == HK_DRIVER_TABLE ? "in a kworker, in chunks" : "in softirq",
			 HK_WATCHDOG_INTERVALS);
	hk_log__print(HK_LOG_INFO, "diagnosing every %llu ms; driver %s (%s): %s%s; "
		      "Ctrl-C to stop\n", (unsigned long long)(interval_ns / HK_NSEC_PER_MSEC),
		      hk_driver__name(d), why, cost,
		      hk_loader__bounded_loops(l) ? "; bounded loops (no bpf_loop before 5.17)" : "");
	if (hk_loader__oom_note(l))
		hk_log__print(HK_LOG_INFO, "OOM kills not seen (no oom_killed lines): %s\n",
			      hk_loader__oom_note(l));
	if (hk_loader__blind(l))
		hk_log__print(HK_LOG_INFO, "%s\n", hk_loader__blind(l));
	if (hk_loader__bounded_loops(l) && hk_sysinfo__nr_nodes() > HK_HOST_NODES_BOUNDED)
		hk_log__print(HK_LOG_INFO, "host headroom: NUMA nodes %u and up of %u not read "
			      "(bounded loops, no bpf_loop before 5.17): OOM risk's ETA against "
			      "the host is shorter\n", HK_HOST_NODES_BOUNDED,
			      hk_sysinfo__nr_nodes());
	if (!hk_sysinfo__psi_memory())
		hk_log__print(HK_LOG_INFO, "PSI is off (no /proc/pressure/memory; boot with "
			      "psi=1): Mem-throttled sees memory.high's events, not a process "
			      "asleep in its penalty sleep\n");
	hk_log__kind(-1);
}
