// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * run_budget.c - [budget] held while the tool runs: the measures taken
 * once a window, the judgement (act/budget.c, pure), and each step applied
 * where it acts: the profiler's duration, the loader's interval, the
 * sched_switch hook. Apart from the loop so that the loop only asks.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/clock.h"
#include "lib/log.h"
#include "run_budget.h"

/* The tool's resident memory now: /proc/self/statm's second field. */
static __u64 rss_bytes(void)
{
	unsigned long long size = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &rss) != 2)
		rss = 0;
	fclose(f);
	return rss * (__u64)sysconf(_SC_PAGESIZE);
}

void hk_run_budget__asked(const struct hk_run_budget *b, struct hk_loader *l,
			  struct hk_config *out)
{
	/* the rest as the loader has it: the cgroup watch may have changed
	 * the filter's id since */
	hk_loader__config(l, out);
	out->interval_ns = b->base.interval_ns;
	out->oom_trend_span_ns = b->base.oom_trend_span_ns;
	out->profile_ns = b->base.profile_ns;
	hk_config__derive(out);
}

void hk_run_budget__init(struct hk_run_budget *b, struct hk_loader *l)
{
	memset(b, 0, sizeof(*b));
	hk_loader__config(l, &b->base);
}

/* The step in st applied; 1 when the interval changed. */
static int apply(struct hk_run_budget *b, struct hk_loader *l, struct hk_act *a,
		 struct hk_config *now)
{
	struct hk_config asked, cur;
	char err[HK_ERR_LEN + 512];
	__u64 was = hk_loader__interval_ns(l);

	hk_run_budget__asked(b, l, &asked);
	hk_budget__config(&asked, b->st.step, now);
	if (a)
		a->profile_ns = now->profile_ns;
	hk_loader__hook_hold(l, b->st.step >= HK_BUDGET_NO_HOOK);
	hk_loader__config(l, &cur);
	if (cur.interval_ns != now->interval_ns &&
	    hk_loader__reconfigure(l, now, err, sizeof(err)))
		hk_log__print(HK_LOG_ERR, "budget: %s; the windows stay\n", err);
	return hk_loader__interval_ns(l) != was;
}

/* Steps that would save nothing here: no profiles asked for, no
 * on-demand hook loaded (--no-hook; --pin's is the user's to keep). */
static __u32 void_steps(const struct hk_run_budget *b, struct hk_loader *l)
{
	__u32 v = 0;

	if (!b->base.profile_ns)
		v |= 1U << HK_BUDGET_NO_PROFILES;
	if (!hk_loader__hook_prog(l) || b->base.hook != HK_HOOK_ON_DEMAND)
		v |= 1U << HK_BUDGET_NO_HOOK;
	return v;
}

/* What `status` and the Prometheus file show of the budget. */
static void publish(const struct hk_run_budget *b, struct hk_loader *l)
{
	struct hk_budget_use u = {
		.step = b->st.step,
		.degrades = b->st.degrades,
		.recovers = b->st.recovers,
		.cpu_pct_x100 = b->st.cpu_pct_x100,
		.cpu_budget_pct_x100 = b->base.budget_cpu_pct_x100,
		.rss_bytes = b->st.rss_bytes,
		.rss_budget_bytes = b->base.budget_rss_bytes,
	};

	hk_loader__budget(l, &u);
}

int hk_run_budget__tick(struct hk_run_budget *b, struct hk_loader *l, struct hk_act *a)
{
	struct hk_config now;
	struct hk_stats st;
	struct hk_cost cost;
	char line[512];
	__u64 pct, covered;
	int dir, changed;

	if (hk_loader__stats(l, &st) || st.windows == b->windows)
		return 0;
	b->windows = st.windows;
	if (!b->base.budget_cpu_pct_x100 && !b->base.budget_rss_bytes)
		return 0;
	hk_loader__cost(l, &cost);
	hk_budget__sample(&b->span, mono_ns(), cost.total_ns, b->base.budget_span_ns);
	b->st.rss_bytes = rss_bytes();
	if (hk_budget__cpu(&b->span, &pct, &covered)) {
		publish(b, l);
		return 0;
	}
	b->st.span_ns = covered;
	dir = hk_budget__decide(&b->st, &b->base, pct, b->st.rss_bytes, void_steps(b, l));
	if (!dir) {
		if (b->st.over && b->st.step == HK_BUDGET_LAST && !b->last_said) {
			b->last_said = 1;
			hk_budget__format_step(&b->st, &b->base, &b->base, 1, line, sizeof(line));
			hk_log__print(HK_LOG_WARNING, "still %s; nothing more to give up\n",
				      line);
		}
		publish(b, l);
		return 0;
	}
	changed = apply(b, l, a, &now);
	if (dir < 0)
		b->last_said = 0;
	/* the next judgement is of what this step costs */
	hk_budget__span_reset(&b->span);
	hk_budget__format_step(&b->st, &now, &b->base, dir, line, sizeof(line));
	hk_log__print(dir > 0 ? HK_LOG_WARNING : HK_LOG_NOTICE, "%s", line);
	publish(b, l);
	return changed;
}

void hk_run_budget__reloaded(struct hk_run_budget *b, struct hk_loader *l, struct hk_act *a)
{
	struct hk_config now, old = b->base;

	hk_loader__config(l, &b->base);
	if (b->st.step && (old.budget_cpu_pct_x100 != b->base.budget_cpu_pct_x100 ||
			   old.budget_rss_bytes != b->base.budget_rss_bytes ||
			   old.budget_span_ns != b->base.budget_span_ns)) {
		hk_log__print(HK_LOG_NOTICE, "reload: [budget] changed: back to full service "
			      "from step %u (%s), judged anew\n", b->st.step,
			      hk_budget__step_name(b->st.step));
		/* counted as the steps back it makes at once */
		b->st.recovers = b->st.degrades;
		b->st.step = HK_BUDGET_FULL;
		b->st.over = b->st.under = b->st.under_need = b->st.last_dir = 0;
		b->last_said = 0;
	}
	hk_budget__span_reset(&b->span);
	apply(b, l, a, &now);
	publish(b, l);
}
