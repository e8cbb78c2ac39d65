/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * run_budget.h - [budget] held while the tool runs (run_budget.c): once a
 * window the run loop has it measure the tool's own CPU (hk_cost) and RSS,
 * judge them (act/budget.h) and apply the step: the profiler's duration,
 * the interval, the sched_switch hook.
 */
#ifndef HK_USER_RUN_BUDGET_H
#define HK_USER_RUN_BUDGET_H

#include "act/act.h"
#include "act/budget.h"
#include "kernel/loader.h"

struct hk_run_budget {
	struct hk_budget_state st;
	struct hk_budget_span span;
	struct hk_config base;		/* as asked: the file and the flags */
	__u64 windows;			/* hk_stats.windows last judged */
	int last_said;			/* over at the last step: said once */
};

/* The config the loader runs with is the one asked for. */
void hk_run_budget__init(struct hk_run_budget *b, struct hk_loader *l);

/*
 * A window ended since the last call: judged, and a step taken or undone
 * said in one line. 1 when the interval changed (the loop's paces follow
 * hk_loader__interval_ns()), else 0.
 */
int hk_run_budget__tick(struct hk_run_budget *b, struct hk_loader *l, struct hk_act *a);

/* 1 while the ring buffer is read once a window (HK_BUDGET_RING_LAZY). */
static inline int hk_run_budget__ring_lazy(const struct hk_run_budget *b)
{
	return b->st.step >= HK_BUDGET_RING_LAZY;
}

/* What a reload diffs against: the loader's config with what the budget
 * changed put back as asked. */
void hk_run_budget__asked(const struct hk_run_budget *b, struct hk_loader *l,
			  struct hk_config *out);

/* After a reload wrote the new config as asked: the budget's step put back
 * on it, or full service again when [budget] changed. */
void hk_run_budget__reloaded(struct hk_run_budget *b, struct hk_loader *l, struct hk_act *a);

#endif /* HK_USER_RUN_BUDGET_H */
