// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * check.c - the config the tool runs with: the file and the flags
 * applied, the defaults that depend on the interval fitted to it, checks
 * across keys with messages that point at where a value came from, and
 * the values derived from the others.
 */
#include <stdio.h>
#include <string.h>
#include "keys.h"
#include "lib/msg.h"

/* Where the value of k came from: "t.conf:7", "--interval 16s", or NULL
 * for a default. */
static const char *origin_of(const struct hk_config_origin *o, const struct hk_key *k,
			     char *buf, size_t len)
{
	char val[32];

	if (!o)
		return NULL;
	if (!strcmp(k->name, "interval") && o->interval_flag_ns) {
		hk_units__print(val, sizeof(val), k->kind, o->interval_flag_ns);
		snprintf(buf, len, "--interval %s", val);
		return buf;
	}
	if (o->name && o->line[k - hk_keys]) {
		snprintf(buf, len, "%s:%u", o->name, o->line[k - hk_keys]);
		return buf;
	}
	return NULL;
}

/*
 * a's value breaks a rule with b's: the message starts at a's origin,
 * else at b's (a is then its default), and names b's when it differs.
 */
static int fail_pair(const struct hk_config_origin *o, const struct hk_key *a,
		     const struct hk_key *b, char *err, size_t err_len, const char *msg)
{
	char wa[HK_ERR_LEN], wb[HK_ERR_LEN];
	const char *oa = origin_of(o, a, wa, sizeof(wa));
	const char *ob = origin_of(o, b, wb, sizeof(wb));

	if (oa && ob && strcmp(oa, ob))
		return hk_msg__fail(err, err_len, "%s: %s (%s.%s from %s)", oa, msg,
				    b->section, b->name, ob);
	if (oa || ob)
		return hk_msg__fail(err, err_len, "%s: %s%s", oa ? oa : ob, msg,
				    oa ? "" : " (its default)");
	return hk_msg__fail(err, err_len, "%s", msg);
}

static int validate(const struct hk_config *c, const struct hk_config_origin *o,
		    char *err, size_t err_len)
{
	const struct hk_key *k, *interval, *span, *min_trend;
	char val[32], range[80], span_s[32], where[HK_ERR_LEN], msg[HK_ERR_LEN];
	const char *at;
	size_t i;
	__u64 v;

	/* command-line overrides bypass the parser's range checks */
	for (i = 0; i < hk_nr_keys; i++) {
		k = &hk_keys[i];
		if (hk_units__is_text(k->kind))
			continue;
		v = hk_key__get(k, c);
		if (v >= k->min && v <= k->max)
			continue;
		hk_units__print(val, sizeof(val), k->kind, v);
		hk_key__print_range(k, range, sizeof(range));
		at = origin_of(o, k, where, sizeof(where));
		return hk_msg__fail(err, err_len, "%s%s%s.%s %s out of range (%s)",
				    at ? at : "", at ? ": " : "", k->section, k->name,
				    val, range);
	}

	interval = hk_key__find("general", "interval");
	span = hk_key__find("oom_risk", "trend_span");
	min_trend = hk_key__find("oom_risk", "min_trend");
	/* the trend needs HK_TREND_MIN_SAMPLES points inside its span */
	if (c->oom_trend_span_ns < (HK_TREND_MIN_SAMPLES - 1) * c->interval_ns) {
		hk_units__print(span_s, sizeof(span_s), HK_UNIT_DURATION_NS, c->oom_trend_span_ns);
		hk_units__print(val, sizeof(val), HK_UNIT_DURATION_NS, c->interval_ns);
		snprintf(msg, sizeof(msg),
			 "oom_risk.trend_span %s must cover at least %d intervals of %s",
			 span_s, HK_TREND_MIN_SAMPLES - 1, val);
		return fail_pair(o, span, interval, err, err_len, msg);
	}
	if (c->oom_min_trend_ns > c->oom_trend_span_ns) {
		hk_units__print(val, sizeof(val), HK_UNIT_DURATION_NS, c->oom_min_trend_ns);
		hk_units__print(span_s, sizeof(span_s), HK_UNIT_DURATION_NS, c->oom_trend_span_ns);
		snprintf(msg, sizeof(msg),
			 "oom_risk.min_trend %s is longer than oom_risk.trend_span %s",
			 val, span_s);
		return fail_pair(o, min_trend, span, err, err_len, msg);
	}
	return 0;
}

int hk_config__validate(const struct hk_config *c, char *err, size_t err_len)
{
	return validate(c, NULL, err, err_len);
}

/*
 * A default that holds a number of intervals follows the interval: the
 * trend spans 6 of them (30 s at 5 s) and must cover 2 (10 s) before it
 * says anything, never less than their defaults, at most their maximum.
 */
static void fit_to_interval(struct hk_config *c, const struct hk_config_origin *o)
{
	static const struct {
		const char *section, *name;
		__u64 intervals;
	} follow[] = {
		{ "oom_risk", "trend_span", 6 },
		{ "oom_risk", "min_trend", 2 },
	};
	const struct hk_key *k;
	__u64 want;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(follow); i++) {
		k = hk_key__find(follow[i].section, follow[i].name);
		if (!k || o->line[k - hk_keys])
			continue;	/* the file said: its word stands */
		want = follow[i].intervals * c->interval_ns;
		if (want < k->def)
			want = k->def;
		if (want > k->max)
			want = k->max;
		hk_key__set(k, c, want);
	}
}

int hk_config__load(struct hk_config *c, const char *path, __u64 interval_ns,
		    char *err, size_t err_len)
{
	struct hk_config_origin o = { .interval_flag_ns = interval_ns };
	struct hk_config cfg;

	hk_config__defaults(&cfg);
	if (path && hk_config__parse_file_origin(&cfg, path, &o, err, err_len))
		return -1;
	/* the command line wins over the file; validate checks the range */
	if (interval_ns)
		cfg.interval_ns = interval_ns;
	fit_to_interval(&cfg, &o);
	if (validate(&cfg, &o, err, err_len))
		return -1;
	hk_config__derive(&cfg);
	*c = cfg;
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
