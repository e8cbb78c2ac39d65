// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * budget.c - the tool's own cost against [budget] and the step it runs
 * at (budget.h): the span's measure, the judgement, the config of each
 * step and the line that says it. No clock, no file: the run loop
 * (cmd/run_budget.c) gives it what it measured.
 */
#include <stdio.h>
#include <string.h>
#include "config/config.h"
#include "lib/units.h"
#include "budget.h"

void hk_budget__span_reset(struct hk_budget_span *s)
{
	s->n = 0;
}

void hk_budget__sample(struct hk_budget_span *s, __u64 t_ns, __u64 cost_ns, __u64 span_ns)
{
	__u32 drop = 0;

	/* a full ring: the oldest goes */
	if (s->n == HK_BUDGET_SAMPLES)
		drop = 1;
	/* older than the span: gone, but the newest of them starts it */
	while (drop + 1 < s->n && t_ns >= span_ns && s->t_ns[drop + 1] <= t_ns - span_ns)
		drop++;
	if (drop) {
		memmove(s->t_ns, s->t_ns + drop, (s->n - drop) * sizeof(s->t_ns[0]));
		memmove(s->cost_ns, s->cost_ns + drop, (s->n - drop) * sizeof(s->cost_ns[0]));
		s->n -= drop;
	}
	s->t_ns[s->n] = t_ns;
	s->cost_ns[s->n] = cost_ns;
	s->n++;
}

int hk_budget__cpu(const struct hk_budget_span *s, __u64 *pct_x100, __u64 *covered_ns)
{
	__u64 dt, dc;

	if (s->n < 2)
		return -1;
	dt = s->t_ns[s->n - 1] - s->t_ns[0];
	dc = s->cost_ns[s->n - 1] > s->cost_ns[0] ? s->cost_ns[s->n - 1] - s->cost_ns[0] : 0;
	if (!dt)
		return -1;
	/* ns of CPU per ns of wall, x 10000; dc < 2^64 / 10000 for 58 years */
	*pct_x100 = dc * 10000 / dt;
	*covered_ns = dt;
	return 0;
}

/* The step past from, in dir, over the void ones; from itself at an end. */
static __u32 next_step(__u32 from, int dir, __u32 void_steps)
{
	__u32 s = from;

	do {
		if ((dir > 0 && s == HK_BUDGET_LAST) || (dir < 0 && s == HK_BUDGET_FULL))
			return from;
		s += dir;
	} while (s != HK_BUDGET_FULL && (void_steps & (1U << s)));
	return s;
}

int hk_budget__decide(struct hk_budget_state *st, const struct hk_config *cfg,
		      __u64 cpu_pct_x100, __u64 rss_bytes, __u32 void_steps)
{
	__u64 cpu_max = cfg->budget_cpu_pct_x100, rss_max = cfg->budget_rss_bytes;
	int cpu_over = cpu_max && cpu_pct_x100 > cpu_max;
	int rss_over = rss_max && rss_bytes > rss_max;
	int under = (!cpu_max || cpu_pct_x100 * 100 <= cpu_max * HK_BUDGET_UNDER_PCT) &&
		    (!rss_max || rss_bytes <= rss_max);
	__u32 next, need = st->under_need ? st->under_need : HK_BUDGET_UNDER_WINDOWS;

	st->cpu_pct_x100 = cpu_pct_x100;
	st->rss_bytes = rss_bytes;
	if (cpu_over || rss_over) {
		st->why = cpu_over ? HK_BUDGET_WHY_CPU : HK_BUDGET_WHY_RSS;
		st->under = 0;
		next = next_step(st->step, 1, void_steps);
		if (++st->over < HK_BUDGET_OVER_WINDOWS || next == st->step)
			return 0;
		/* down right after back: the storm was still on */
		if (st->last_dir == 2 && need < HK_BUDGET_UNDER_MAX)
			st->under_need = need * 2;
		st->over = 0;
		st->from = st->step;
		st->step = next;
		st->last_dir = 1;
		st->degrades++;
		return 1;
	}
	st->over = 0;
	if (!under) {
		st->under = 0;
		return 0;
	}
	if (++st->under < need)
		return 0;
	st->under = 0;
	/* full service held as long as it waited: the storm has passed */
	if (st->step == HK_BUDGET_FULL) {
		st->under_need = 0;
		st->last_dir = 0;
		return 0;
	}
	st->from = st->step;
	st->step = next_step(st->step, -1, void_steps);
	st->last_dir = 2;
	st->recovers++;
	return -1;
}

/* The interval a step runs at: the one asked for, x 2 or x 4, at most
 * HK_BUDGET_INTERVAL_MAX_NS (never shorter than asked). */
static __u64 step_interval_ns(__u64 asked_ns, __u32 step)
{
	__u64 ns = asked_ns << (step >= HK_BUDGET_INTERVAL_X4 ? 2 :
				step >= HK_BUDGET_INTERVAL_X2 ? 1 : 0);

	if (ns > HK_BUDGET_INTERVAL_MAX_NS)
		ns = HK_BUDGET_INTERVAL_MAX_NS;
	return ns < asked_ns ? asked_ns : ns;
}

void hk_budget__config(const struct hk_config *base, __u32 step, struct hk_config *out)
{
	__u64 min_span_ns;

	*out = *base;
	if (step >= HK_BUDGET_NO_PROFILES)
		out->profile_ns = 0;
	out->interval_ns = step_interval_ns(base->interval_ns, step);
	/* the trend keeps the samples it needs: its span stretched, if
	 * it must, to what config/check.c asks of one */
	min_span_ns = (HK_TREND_MIN_SAMPLES - 1) * out->interval_ns;
	if (out->oom_trend_span_ns < min_span_ns)
		out->oom_trend_span_ns = min_span_ns;
	hk_config__derive(out);
}

const char *hk_budget__step_name(__u32 step)
{
	switch (step) {
	case HK_BUDGET_FULL:
		return "full service";
	case HK_BUDGET_NO_PROFILES:
		return "no profiles";
	case HK_BUDGET_INTERVAL_X2:
		return "windows x 2";
	case HK_BUDGET_INTERVAL_X4:
		return "windows x 4";
	case HK_BUDGET_NO_HOOK:
		return "sched_switch hook off";
	case HK_BUDGET_RING_LAZY:
		return "records read once a window";
	}
	return "?";
}

/* What the step just taken changed, from the one before it. */
static void what_changed(__u32 step, __u32 from, int dir, const struct hk_config *cfg,
			 const struct hk_config *base, char *buf, size_t len)
{
	char now[32], asked[32];
	__u32 changed = dir > 0 ? step : from;

	hk_units__print(now, sizeof(now), HK_UNIT_DURATION_NS, cfg->interval_ns);
	hk_units__print(asked, sizeof(asked), HK_UNIT_DURATION_NS, base->interval_ns);
	switch (changed) {
	case HK_BUDGET_NO_PROFILES:
		snprintf(buf, len, dir > 0 ? "no profiles from now on (they cost the most "
			 "userspace CPU; no diagnosis needs one)" : "profiles again");
		break;
	case HK_BUDGET_INTERVAL_X2:
	case HK_BUDGET_INTERVAL_X4:
		snprintf(buf, len, "windows now %s (asked %s)", now, asked);
		break;
	case HK_BUDGET_NO_HOOK:
		snprintf(buf, len, dir > 0 ? "the sched_switch hook held detached: Starved "
			 "still works, but nobody is named as its aggressor" :
			 "the sched_switch hook attached again when a thread is watched");
		break;
	case HK_BUDGET_RING_LAZY:
		snprintf(buf, len, dir > 0 ? "records read once a window, not at each (lines "
			 "up to a window late; a killed process's unit and owner unknown)" :
			 "records read as they come");
		break;
	default:
		snprintf(buf, len, "%s", hk_budget__step_name(step));
	}
}

int hk_budget__format_step(const struct hk_budget_state *st, const struct hk_config *cfg,
			   const struct hk_config *base, int dir, char *buf, size_t len)
{
	char cpu[32], lim[32], span[32], rss[32], what[256];

	hk_units__print(cpu, sizeof(cpu), HK_UNIT_PCT_X100, st->cpu_pct_x100);
	hk_units__print(span, sizeof(span), HK_UNIT_DURATION_NS,
			st->span_ns / HK_NSEC_PER_SEC * HK_NSEC_PER_SEC);
	what_changed(st->step, st->from, dir, cfg, base, what, sizeof(what));
	if (dir > 0 && st->why == HK_BUDGET_WHY_RSS) {
		hk_units__print(rss, sizeof(rss), HK_UNIT_BYTES, st->rss_bytes);
		hk_units__print(lim, sizeof(lim), HK_UNIT_BYTES, base->budget_rss_bytes);
		return snprintf(buf, len, "over its memory budget (RSS %s, budget %s): %s "
				"(step %u of %u, %s)\n", rss, lim, what, st->step,
				HK_BUDGET_LAST, hk_budget__step_name(st->step));
	}
	hk_units__print(lim, sizeof(lim), HK_UNIT_PCT_X100, base->budget_cpu_pct_x100);
	return snprintf(buf, len, "%s its CPU budget (%s of one CPU over %s, budget %s): %s "
			"(step %u of %u, %s)\n", dir > 0 ? "over" : "back under", cpu, span, lim,
			what, st->step, HK_BUDGET_LAST, hk_budget__step_name(st->step));
}

int hk_budget__format_use(const struct hk_budget_use *u, char *buf, size_t len)
{
	char cpu[32], cpu_max[32], rss[32], rss_max[32];

	if (!u->cpu_budget_pct_x100 && !u->rss_budget_bytes) {
		if (len)
			buf[0] = '\0';
		return 0;
	}
	hk_units__print(cpu, sizeof(cpu), HK_UNIT_PCT_X100, u->cpu_pct_x100);
	hk_units__print(cpu_max, sizeof(cpu_max), HK_UNIT_PCT_X100, u->cpu_budget_pct_x100);
	hk_units__print(rss, sizeof(rss), HK_UNIT_BYTES, u->rss_bytes);
	hk_units__print(rss_max, sizeof(rss_max), HK_UNIT_BYTES, u->rss_budget_bytes);
	return snprintf(buf, len, "budget: step %llu of %u (%s): own CPU %s of one CPU (budget "
			"%s), RSS %s (budget %s); %llu steps down, %llu back",
			(unsigned long long)u->step, HK_BUDGET_LAST,
			hk_budget__step_name((__u32)u->step), cpu,
			u->cpu_budget_pct_x100 ? cpu_max : "none", rss,
			u->rss_budget_bytes ? rss_max : "none",
			(unsigned long long)u->degrades, (unsigned long long)u->recovers);
}
