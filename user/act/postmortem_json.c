// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * postmortem_json.c - an OOM kill's post-mortem record (postmortem.h), a
 * pure function of the kill's event and the victim's history, so that the
 * unit tests compare it byte for byte. One JSON object on one line:
 *
 *   {"version":1,"pid":4242,"comm":"leak","killed_unix_s":1764396000,
 *    "flagged":true,"killed":"2026-11-29T06:00:00Z","flagged_for_s":9,
 *    "tracked":true,"memcg":"/pod/leak","memcg_id":812,
 *    "limit_bytes":419430400,"usage_bytes":419168256,"high_bytes":"max",
 *    "swap_max_bytes":0,"memory_events":{"low":0,...,"oom_kill":1},
 *    "growth_bytes_per_s":20971520,"eta_s":1,"trend_span_ms":15000,
 *    "labels":[{"t_ms":-11000,"from":"ok","to":"oom_risk"}],
 *    "trend":[{"t_ms":-16000,"rss_bytes":...,"slope_bytes_per_s":...,
 *              "eta_s":...,"limit_bytes":...},...],
 *    "left_out":{"labels":0,"samples":0,"profile":false},
 *    "profile":{"folded":"PREFIX.folded","svg":"PREFIX.svg"}}
 *
 * Its first members, up to "flagged", are what `status` reads back
 * (postmortem_dir.c): their order is part of the format. Times are ms
 * relative to the kill (t_ms <= 0), the kill's own on the wall clock.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/escape.h"
#include "lib/json_out.h"
#include "lib/outbuf.h"
#include "output/format.h"
#include "postmortem_json.h"
#include "shared/oom_kill.h"

__s64 hk_pm__kill_unix_s(const struct hk_event *e, __s64 wall_offset_ns)
{
	__u64 mono = e->oom.time_ns ? e->oom.time_ns : e->time_ns;
	__s64 wall = (__s64)mono + wall_offset_ns;

	return wall < 0 ? 0 : wall / (__s64)HK_NSEC_PER_SEC;
}

static __u64 kill_ns(const struct hk_event *e)
{
	return e->oom.time_ns ? e->oom.time_ns : e->time_ns;
}

/* ,"key":N, "max" (the cgroup sets none) or null (not read) */
static void limit(struct hk_out *o, const char *key, __u64 bytes, bool known)
{
	if (!known)
		hk_out__printf(o, ",\"%s\":null", key);
	else if (bytes == HK_OOM_UNSET_BYTES)
		hk_out__printf(o, ",\"%s\":\"max\"", key);
	else
		hk_json__u64(o, key, bytes);
}

static void eta(struct hk_out *o, __u64 eta_s)
{
	if (eta_s == (__u64)HK_ETA_NONE)
		hk_out__str(o, ",\"eta_s\":null");
	else
		hk_json__u64(o, "eta_s", eta_s);
}

static void memory_events(struct hk_out *o, const struct hk_oom_kill *k)
{
	static const char *const name[HK_OOM_EVENTS] = {
		[HK_OOM_EV_LOW] = "low", [HK_OOM_EV_HIGH] = "high", [HK_OOM_EV_MAX] = "max",
		[HK_OOM_EV_OOM] = "oom", [HK_OOM_EV_OOM_KILL] = "oom_kill",
		[HK_OOM_EV_OOM_GROUP_KILL] = "oom_group_kill",
	};
	const char *sep = "{";
	int i;

	hk_out__str(o, ",\"memory_events\":");
	if (!k->events_known) {
		hk_out__str(o, "null");
		return;
	}
	for (i = 0; i < HK_OOM_EVENTS; i++) {
		if (!(k->events_known & (1U << i)))
			continue;
		hk_out__printf(o, "%s\"%s\":%llu", sep, name[i], (unsigned long long)k->events[i]);
		sep = ",";
	}
	hk_out__str(o, "}");
}

/* ms from the kill to t: <= 0 for what came before it */
static __s64 rel_ms(__u64 t, __u64 kill)
{
	if (t >= kill)
		return (__s64)((t - kill) / HK_NSEC_PER_MSEC);
	return -(__s64)((kill - t) / HK_NSEC_PER_MSEC);
}

/* What of a history goes in: the samples up to the kill, oldest first. */
struct span {
	__u32 first, n;			/* ring positions [first, first + n) */
};

static struct span samples_of(const struct hk_pm_proc *h, __u64 kill)
{
	struct span s = { 0, 0 };
	__u32 i;

	if (!h)
		return s;
	s.first = h->nr_samples > HK_PM_SAMPLES ? h->nr_samples - HK_PM_SAMPLES : 0;
	for (i = s.first; i < h->nr_samples; i++)
		if (h->samples[i % HK_PM_SAMPLES].time_ns <= kill)
			s.n = i - s.first + 1;
	return s;
}

static struct span labels_of(const struct hk_pm_proc *h)
{
	struct span s = { 0, 0 };

	if (!h)
		return s;
	s.first = h->nr_labels > HK_PM_LABELS ? h->nr_labels - HK_PM_LABELS : 0;
	s.n = h->nr_labels - s.first;
	return s;
}

static void head(struct hk_out *o, const struct hk_pm_record_in *in)
{
	const struct hk_event *e = in->e;
	const struct hk_oom_kill *k = &e->oom;
	__s64 unix_s = hk_pm__kill_unix_s(e, in->wall_offset_ns);
	time_t t = (time_t)unix_s;
	char when[32] = "";
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	hk_out__printf(o, "{\"version\":1,\"pid\":%u,\"comm\":", e->tgid);
	hk_out__json_str(o, e->comm, hk_comm__len(e->comm));
	hk_json__s64(o, "killed_unix_s", unix_s);
	hk_json__bool(o, "flagged", k->flagged);
	hk_out__printf(o, ",\"killed\":\"%s\"", when);
	if (k->flagged)
		hk_json__u64(o, "flagged_for_s", hk_oom_flagged_for_s(k));
	else
		hk_out__str(o, ",\"flagged_for_s\":null");
	hk_json__bool(o, "tracked", k->tracked);
	hk_out__str(o, ",\"memcg\":");
	if (in->memcg)
		hk_out__json_str(o, in->memcg, strlen(in->memcg));
	else
		hk_out__str(o, "null");
	hk_json__u64(o, "memcg_id", k->memcg_id);
	limit(o, "limit_bytes", k->limit_bytes, k->memcg_id);
	limit(o, "usage_bytes", k->usage_bytes, k->memcg_id);
	limit(o, "high_bytes", k->high_bytes, k->limits_known & HK_OOM_HIGH_KNOWN);
	limit(o, "swap_max_bytes", k->swap_max_bytes, k->limits_known & HK_OOM_SWAP_KNOWN);
	memory_events(o, k);
}

/* The record with the oldest skip_l transitions and skip_s samples left
 * out, and the profile's paths when profile: the outbuf says if it fit. */
static void build(struct hk_out *o, const struct hk_pm_record_in *in, __u32 skip_l,
		  __u32 skip_s, bool profile)
{
	const struct hk_pm_proc *h = in->h;
	__u64 kill = kill_ns(in->e);
	struct span ls = labels_of(h), ss = samples_of(h, kill);
	const struct hk_pm_sample *s, *last = NULL, *first = NULL;
	const char *sep = "";
	__u32 i;

	head(o, in);
	if (ss.n) {
		first = &h->samples[(ss.first + skip_s) % HK_PM_SAMPLES];
		last = &h->samples[(ss.first + ss.n - 1) % HK_PM_SAMPLES];
	}
	if (last && skip_s < ss.n) {
		hk_json__s64(o, "growth_bytes_per_s", last->slope_bytes_per_s);
		eta(o, last->eta_s);
		/* as the samples' own t_ms say it */
		hk_json__s64(o, "trend_span_ms", rel_ms(last->time_ns, kill) -
			     rel_ms(first->time_ns, kill));
	} else {
		hk_out__str(o, ",\"growth_bytes_per_s\":null,\"eta_s\":null,\"trend_span_ms\":0");
	}
	hk_out__str(o, ",\"labels\":[");
	for (i = skip_l; i < ls.n; i++) {
		const struct hk_pm_label *l = &h->labels[(ls.first + i) % HK_PM_LABELS];

		hk_out__printf(o, "%s{\"t_ms\":%lld,\"from\":\"%s\",\"to\":\"%s\"}", sep,
			       (long long)rel_ms(l->time_ns, kill), hk_label__id(l->from),
			       hk_label__id(l->to));
		sep = ",";
	}
	hk_out__str(o, "],\"trend\":[");
	sep = "";
	for (i = skip_s; i < ss.n; i++) {
		s = &h->samples[(ss.first + i) % HK_PM_SAMPLES];
		hk_out__printf(o, "%s{\"t_ms\":%lld", sep, (long long)rel_ms(s->time_ns, kill));
		hk_json__u64(o, "rss_bytes", s->rss_bytes);
		hk_json__s64(o, "slope_bytes_per_s", s->slope_bytes_per_s);
		eta(o, s->eta_s);
		hk_json__u64(o, "limit_bytes", s->limit_bytes);
		hk_out__str(o, "}");
		sep = ",";
	}
	/* what the rings dropped, and what is cut here (windows after the
	 * kill are not the victim's: not counted) */
	hk_out__printf(o, "],\"left_out\":{\"labels\":%u,\"samples\":%u,\"profile\":%s}",
		       ls.first + skip_l, ss.first + skip_s,
		       h && h->profile[0] && !profile ? "true" : "false");
	hk_out__str(o, ",\"profile\":");
	if (h && h->profile[0] && profile) {
		static const char *const ext[] = { "folded", "svg" };
		char path[HK_PM_PATH_MAX + 8];

		for (i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s.%s", h->profile, ext[i]);
			hk_out__printf(o, "%s\"%s\":", i ? "," : "{", ext[i]);
			hk_out__json_str(o, path, strlen(path));
		}
		hk_out__str(o, "}");
	} else {
		hk_out__str(o, "null");
	}
	hk_out__str(o, "}\n");
}

int hk_pm__record(char *buf, size_t len, const struct hk_pm_record_in *in)
{
	__u64 kill = kill_ns(in->e);
	__u32 nl = labels_of(in->h).n, ns = samples_of(in->h, kill).n, l = 0, s = 0;
	bool profile = true;
	struct hk_out o;
	int n;

	/* the oldest samples first, then transitions, then the paths */
	for (;;) {
		hk_out__init(&o, buf, len);
		build(&o, in, l, s, profile);
		n = hk_out__finish(&o);
		if (n >= 0)
			return n;
		if (s < ns)
			s++;
		else if (l < nl)
			l++;
		else if (profile)
			profile = false;
		else
			return -1;
	}
}
