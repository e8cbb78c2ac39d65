// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * config_check.c - checks across keys, and the values derived from them,
 * after the file and the command line are both applied.
 */
#include <stdio.h>
#include "config_keys.h"
#include "msg.h"

int hk_config__validate(const struct hk_config *c, char *err, size_t err_len)
{
	char val[32], range[80], span[32];
	const struct hk_key *k;
	size_t i;
	__u64 v;

	/* command-line overrides bypass the parser's range checks */
	for (i = 0; i < hk_nr_keys; i++) {
		k = &hk_keys[i];
		v = hk_key__get(k, c);
		if (v >= k->min && v <= k->max)
			continue;
		hk_units__print(val, sizeof(val), k->kind, v);
		hk_key__print_range(k, range, sizeof(range));
		return hk_msg__fail(err, err_len, "%s.%s %s out of range (%s)",
			    k->section, k->name, val, range);
	}

	/* the trend needs HK_TREND_MIN_SAMPLES points inside its span */
	if (c->oom_trend_span_ns < (HK_TREND_MIN_SAMPLES - 1) * c->interval_ns) {
		hk_units__print(span, sizeof(span), HK_UNIT_DURATION_NS, c->oom_trend_span_ns);
		hk_units__print(val, sizeof(val), HK_UNIT_DURATION_NS, c->interval_ns);
		return hk_msg__fail(err, err_len,
			    "oom_risk.trend_span %s must cover at least %d intervals of %s",
			    span, HK_TREND_MIN_SAMPLES - 1, val);
	}
	if (c->oom_min_trend_ns > c->oom_trend_span_ns) {
		hk_units__print(val, sizeof(val), HK_UNIT_DURATION_NS, c->oom_min_trend_ns);
		hk_units__print(span, sizeof(span), HK_UNIT_DURATION_NS, c->oom_trend_span_ns);
		return hk_msg__fail(err, err_len,
			    "oom_risk.min_trend %s is longer than oom_risk.trend_span %s",
			    val, span);
	}
	return 0;
}

void hk_config__derive(struct hk_config *c)
{
	__u64 stride = c->oom_trend_span_ns / (HK_TREND_SLOTS - 1);

	/* spread the ring's samples over the whole span, at most one per
	 * window; half an interval early, so that a window closing a little
	 * before its time still takes its sample */
	if (stride < c->interval_ns)
		stride = c->interval_ns;
	c->trend_stride_ns = stride - c->interval_ns / 2;
	/* a thread that waited what Starved takes: the hook names who
	 * preempts it from the next window on, the one in which it can enter
	 * Starved (a fair share of a busy CPU is never watched: on some hosts
	 * every recorded switch costs ~100 ns) */
	c->watch_wait_pct_x100 = c->starved_wait_pct_x100;
}
