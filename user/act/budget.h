/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * budget.h - the tool's own cost against [budget] (its CPU as a share of
 * one CPU over a sliding span, its RSS), and the steps it gives up when
 * over it: pure, so that the unit tests drive it window by window. The
 * run loop (cmd/run_budget.c) measures and applies.
 *
 * The steps, in order: each costs the diagnosis more than the one before;
 * a step that would save nothing here (profiles off, no hook loaded) is
 * passed over both ways.
 *   1. no profiles: a profile costs most of the userspace CPU the tool can
 *      shed (99 Hz stacks, symbols, a flame graph) and its memory; no
 *      diagnosis needs one.
 *   2. the ring buffer read once a window, not at each record: an OOM-kill
 *      storm costs the loop a wake-up and /proc reads of the killed
 *      process per kill (its owner, its unit), each contending with the
 *      victim's teardown (perf: half the loop's time); read a window
 *      later, the victim is gone. Every diagnosis still comes in time, its
 *      line up to a window late; a killed process's line says less (no
 *      unit, no owner).
 *   3. windows twice as long: the walk, the bulk of the cost at many
 *      threads, halves; every diagnosis comes a window later.
 *   4. windows four times as long (at most HK_BUDGET_INTERVAL_MAX_NS).
 *   5. the sched_switch hook held detached: nothing on a context switch
 *      (a fork or switch storm); Starved still comes, but nobody is named
 *      as its aggressor: the one diagnosis lost.
 * Over for HK_BUDGET_OVER_WINDOWS judgements in a row: one step more;
 * under half the budget (a step back doubles the walk's share at most)
 * for HK_BUDGET_UNDER_WINDOWS in a row: one step back. A step that
 * removes a storm's cost (records once a window in an OOM-kill storm)
 * measures ~0 while the storm goes on: stepping back, it is over again at
 * once; so a step down right after a step back doubles the wait for the
 * next step back (6, 12, 24... windows), and full service held that long
 * puts it back to 6. Each step starts
 * the span anew, so that it is judged on what it costs.
 */
#ifndef HK_USER_BUDGET_H
#define HK_USER_BUDGET_H

#include <stddef.h>
#include "shared/hotspot.h"

enum hk_budget_step {
	HK_BUDGET_FULL = 0,
	HK_BUDGET_NO_PROFILES = 1,
	HK_BUDGET_RING_LAZY = 2,
	HK_BUDGET_INTERVAL_X2 = 3,
	HK_BUDGET_INTERVAL_X4 = 4,
	HK_BUDGET_NO_HOOK = 5,
	HK_BUDGET_LAST = HK_BUDGET_NO_HOOK,
};

#define HK_BUDGET_OVER_WINDOWS 2
#define HK_BUDGET_UNDER_WINDOWS 6
#define HK_BUDGET_UNDER_MAX 96
/* under: at most this share of the budget */
#define HK_BUDGET_UNDER_PCT 50
/* samples the span keeps: at short intervals it covers fewer windows */
#define HK_BUDGET_SAMPLES 64
/* longer windows never past this */
#define HK_BUDGET_INTERVAL_MAX_NS (60 * HK_NSEC_PER_SEC)

/* The tool's cost at each window's end since the span began. */
struct hk_budget_span {
	__u32 n;
	__u64 t_ns[HK_BUDGET_SAMPLES];		/* CLOCK_MONOTONIC */
	__u64 cost_ns[HK_BUDGET_SAMPLES];	/* hk_cost.total_ns */
};

/* Why the last judgement was over (or none): said in the step's line. */
enum hk_budget_why {
	HK_BUDGET_WHY_NONE = 0,
	HK_BUDGET_WHY_CPU = 1,
	HK_BUDGET_WHY_RSS = 2,
};

struct hk_budget_state {
	__u32 step;			/* enum hk_budget_step in effect */
	__u32 over, under;		/* judgements in a row */
	__u32 why;			/* enum hk_budget_why of the last over */
	__u32 from;			/* the step before the last change */
	__u32 under_need;		/* under this many in a row: a step back
					 * (0: HK_BUDGET_UNDER_WINDOWS); doubled
					 * by a step down right after one back (a
					 * storm still on: it flapped), at most
					 * HK_BUDGET_UNDER_MAX */
	__u32 last_dir;			/* 1: the last change was down; 2: up */
	__u32 pad;
	__u64 degrades, recovers;	/* steps taken each way */
	__u64 cpu_pct_x100;		/* the last measure: of one CPU */
	__u64 span_ns;			/* ... over this */
	__u64 rss_bytes;
};

/* Forget the span (a step taken, a reload): the next sample starts it. */
void hk_budget__span_reset(struct hk_budget_span *s);

/* A window's end: its cost added, samples older than span_ns dropped but
 * the newest of them (the span's start). */
void hk_budget__sample(struct hk_budget_span *s, __u64 t_ns, __u64 cost_ns, __u64 span_ns);

/* Own CPU over the span, in hundredths of a percent of one CPU, and the
 * time it covers; -1 with fewer than 2 samples. */
int hk_budget__cpu(const struct hk_budget_span *s, __u64 *pct_x100, __u64 *covered_ns);

/*
 * One judgement: cpu_pct_x100 and rss_bytes against the config's
 * budget_* (0: no budget on that). +1: take the next step; -1: step
 * back; 0: stay. Steps whose bit (1 << step) is in void_steps save
 * nothing here: passed over, in effect or not with the ones around them.
 * Updates st's counts, step and why.
 */
int hk_budget__decide(struct hk_budget_state *st, const struct hk_config *cfg,
		      __u64 cpu_pct_x100, __u64 rss_bytes, __u32 void_steps);

/* The config a step runs with, from the one asked for (base). */
void hk_budget__config(const struct hk_config *base, __u32 step, struct hk_config *out);

/* "no profiles", "windows 10s": what a step gives up, for lines and status. */
const char *hk_budget__step_name(__u32 step);

/*
 * The line for a step just taken (dir +1 or -1) without the "hotspot-k: "
 * prefix: "over its CPU budget (3.10 % of one CPU over 30s, budget 1.00 %):
 * windows now 10s (asked 5s)". Returns snprintf's.
 */
int hk_budget__format_step(const struct hk_budget_state *st, const struct hk_config *cfg,
			   const struct hk_config *base, int dir, char *buf, size_t len);

/*
 * `status`'s line for what the tool wrote of its budget: "budget: step 2
 * of 4 (windows x 2): own CPU 3.1% of one CPU (budget 1%), RSS 9MiB
 * (budget 16MiB); 2 steps down, 0 back". 0 when it wrote no budget.
 */
int hk_budget__format_use(const struct hk_budget_use *u, char *buf, size_t len);

#endif /* HK_USER_BUDGET_H */
