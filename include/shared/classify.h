/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify.h - the window step: one process's counters for one window in,
 * its evidence (rates, shares, RSS trend, ETA) and its diagnosis out.
 *
 * Pure, helper-free static inline functions compiled into the BPF object and
 * into the CUnit tests alike: one source of truth for the rules. Integers
 * only. This file holds the order of the rules (hk_classify) and the step
 * that strings the parts together (hk_window_step); the parts, one subject
 * each, are included below, most basic first.
 */
#ifndef HK_SHARED_CLASSIFY_H
#define HK_SHARED_CLASSIFY_H

#include "hotspot.h"
#include "classify_math.h"
#include "classify_sched.h"
#include "classify_trend.h"
#include "classify_io.h"
#include "classify_cpu.h"
#include "classify_mem.h"
#include "classify_hyst.h"
#include "classify_stall.h"

/*
 * The diagnosis of one window, first match wins. Noisy neighbor needs the
 * other side of the pair: the walk sets victim_tgid once the window's
 * Starved processes are known, and classifies again.
 */
static inline __u32 hk_classify(const struct hk_config *c,
				const struct hk_evidence *ev)
{
	if (hk_oom_risk(c, ev))
		return HK_OOM_RISK;
	/* before Mem-thrashing: held at high with swap, it faults its own
	 * pages back in, and memory.high is then the cause */
	if (hk_mem_throttled(c, ev))
		return HK_MEM_THROTTLED;
	if (hk_mem_thrashing(c, ev, hk_cpu_busy(c, ev)))
		return HK_MEM_THRASHING;
	/* its own cgroup's quota held it back: nobody else is to blame */
	if (hk_throttled(c, ev))
		return HK_THROTTLED;
	/* one thread waited most of the window, and the process waited more
	 * than it ran: ten threads waiting 10 % each are not starved; nor is
	 * a process that got all the CPUs it may use */
	if (hk_starved(c, ev))
		return HK_STARVED;
	if (ev->victim_tgid && ev->cpu_pct_x100 >= c->noisy_cpu_pct_x100)
		return HK_NOISY_NEIGHBOR;
	/*
	 * Blocked on I/O (hk_io_blocked). After the memory labels: a
	 * thrashing process waits on I/O too, and memory is then the cause.
	 * Before CPU-bound: a process with a spinning thread and one stuck
	 * on a disk is held back by the disk.
	 */
	if (hk_io_blocked(c, ev))
		return HK_IO_BLOCKED;
	/* faults that its RSS growth explains are its work too: a compiler or
	 * a data loader at 100 % CPU that keeps what it computes */
	if (hk_cpu_hungry(c, ev) &&
	    ev->unexplained_faults_per_s + ev->major_faults_per_s < c->cpu_max_faults_per_s)
		return HK_CPU_BOUND;
	return HK_OK;
}

/* Could this process still become a Noisy neighbor in this window? */
static inline int hk_may_be_noisy(const struct hk_config *c,
				  const struct hk_evidence *ev, __u32 match)
{
	return (match == HK_OK || match == HK_IO_BLOCKED || match == HK_CPU_BOUND) &&
	       ev->cpu_pct_x100 >= c->noisy_cpu_pct_x100;
}

/* The sample's cumulative counters become the next window's baseline. */
static inline void hk_proc_take_counters(struct hk_proc *p, const struct hk_sample *s)
{
	p->sample_ns = s->now_ns;
	p->runtime_ns = s->runtime_ns;
	p->minor_faults = s->minor_faults;
	p->major_faults = s->major_faults;
	p->nvcsw = s->nvcsw;
	p->nivcsw = s->nivcsw;
	p->rss_pages = s->rss_pages;
	p->owned_pages = hk_owned_pages(s);
	p->throttled_ns = s->throttled_ns;
	/* a count is a cgroup's: its id says which (see hk_mem_high) */
	p->mem_high_events = s->mem_high_events;
	p->ev.mem_high_cgroup_id = s->mem_high_cgroup_id;
	p->ns_pid = s->ns_pid;
	p->ns_ino = s->ns_ino;
}

/* Forget everything and take this sample as the baseline. */
static inline void hk_proc_baseline(struct hk_proc *p, const struct hk_sample *s)
{
	p->start_time_ns = s->start_time_ns;
	hk_proc_take_counters(p, s);
	hk_trend_push(p, s->now_ns / HK_NSEC_PER_MSEC, hk_owned_pages(s));
}

/*
 * One window for one process: rates from the counters' deltas, the RSS
 * trend, and this window's diagnosis (Noisy neighbor aside). Returns 1 when
 * the process has a diagnosis, 0 when this was its first sample (a baseline
 * only) or the window was too short to mean anything. Its stall ledger is
 * the next step (hk_stall_window, after a 1), apart: inlined here, it took
 * the test entry's bounded-loop build past the verifier's 1M instructions.
 */
static inline int hk_window_step(const struct hk_config *c, struct hk_proc *p,
				 const struct hk_sample *s, __u32 *match)
{
	struct hk_evidence *ev = &p->ev;
	__u64 window_ns, start_ns;

	*match = HK_OK;
	if (!p->windows++) {
		hk_proc_baseline(p, s);
		if (!s->fresh)
			return 0;
		/* born in this window: its whole life is its first window,
		 * measured from zero counters at its start. Not its RSS
		 * trend: a birth at zero pages is no evidence of growth. */
		p->sample_ns = s->start_time_ns;
		p->runtime_ns = 0;
		p->minor_faults = 0;
		p->major_faults = 0;
		p->nvcsw = 0;
		p->nivcsw = 0;
		p->rss_pages = 0;
		p->owned_pages = 0;
	}
	/* skipped as quiet until then: nothing it counts moved before */
	start_ns = s->quiet_until_ns > p->sample_ns ? s->quiet_until_ns : p->sample_ns;
	window_ns = hk_sub_clamp(s->now_ns, start_ns);
	/* a window shorter than a tenth of the interval carries no rate;
	 * its wait (per-thread deltas, already consumed) carries over */
	if (window_ns < c->interval_ns / 10 || window_ns < HK_NSEC_PER_MSEC) {
		p->windows--;
		p->carry_wait_ns += s->wait_delta_ns;
		p->carry_thread_wait_ns += s->thread_wait_delta_ns;
		p->carry_io_ns += s->io_delta_ns;
		p->carry_thread_io_ns += s->thread_io_delta_ns;
		p->carry_io_bytes += s->io_delta_bytes;
		return 0;
	}

	ev->window_ns = window_ns;
	ev->nr_threads = s->nr_threads;
	hk_cpu_shares(c, p, s, window_ns, ev);
	ev->minor_faults_per_s = hk_per_s(hk_sub_clamp(s->minor_faults, p->minor_faults),
					  window_ns);
	ev->major_faults_per_s = hk_per_s(hk_sub_clamp(s->major_faults, p->major_faults),
					  window_ns);
	ev->vcsw_per_s = hk_per_s(hk_sub_clamp(s->nvcsw, p->nvcsw), window_ns);
	ev->ivcsw_per_s = hk_per_s(hk_sub_clamp(s->nivcsw, p->nivcsw), window_ns);
	ev->aggressor_tgid = s->aggressor_tgid;
	ev->aggressor_switches = s->aggressor_switches;
	ev->victim_tgid = 0;
	ev->victim_switches = 0;
	ev->victim_starved = 0;
	ev->victim_deprioritised = 0;
	ev->memcg_id = s->memcg_id;
	hk_mem_high(p, s, window_ns, ev);

	hk_rss(c, p, s, window_ns, ev);
	hk_mem_stall(s, window_ns, ev);
	hk_trend(c, p, s, ev);
	hk_limit(c, s, ev);
	ev->eta_s = ev->trend_samples < HK_TREND_MIN_SAMPLES ? (__u64)HK_ETA_NONE :
		    hk_eta_s(ev->headroom_bytes, ev->rss_slope_bytes_per_s);

	hk_proc_take_counters(p, s);
	*match = hk_classify(c, ev);
	ev->thrash_stalled = hk_thrash_stalled(c, ev);
	return 1;
}

#endif /* HK_SHARED_CLASSIFY_H */
