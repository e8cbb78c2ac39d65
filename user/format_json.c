// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * format_json.c - one transition as a JSON object on one line: every field
 * always present (null when it does not apply), numbers with their unit in
 * the key, strings valid UTF-8 whatever the process named itself.
 */
#include <stdbool.h>
#include <string.h>
#include "escape.h"
#include "format.h"
#include "humanize.h"

/* Hundredths of a percent as a JSON number: 9712 -> 97.12. */
static void json_pct(struct hk_out *o, const char *key, __u32 pct_x100)
{
	hk_out__printf(o, ",\"%s\":%u.%02u", key, pct_x100 / 100, pct_x100 % 100);
}

static void json_u64(struct hk_out *o, const char *key, __u64 v)
{
	hk_out__printf(o, ",\"%s\":%llu", key, (unsigned long long)v);
}

static void json_s64(struct hk_out *o, const char *key, __s64 v)
{
	hk_out__printf(o, ",\"%s\":%lld", key, (long long)v);
}

/* Thousandths as a JSON number with three decimals: 12345 -> 12.345. */
static void json_milli(struct hk_out *o, const char *key, __u64 v)
{
	hk_out__printf(o, ",\"%s\":%llu.%03llu", key, (unsigned long long)v / 1000,
		   (unsigned long long)v % 1000);
}

/* "NAME_pid":N,"NAME_comm":"..." or both null when pid is 0. */
static void json_peer(struct hk_out *o, const char *name, __u32 pid,
		      const char *comm)
{
	if (!pid) {
		hk_out__printf(o, ",\"%s_pid\":null,\"%s_comm\":null", name, name);
		return;
	}
	hk_out__printf(o, ",\"%s_pid\":%u,\"%s_comm\":", name, pid, name);
	hk_out__json_str(o, comm, hk_comm__len(comm));
}

int hk_format__json(char *buf, size_t len, const struct hk_event *e,
		   const char *cgroup, const struct hk_format_ctx *ctx)
{
	const struct hk_evidence *ev = &e->ev;
	__u64 window_ms;
	struct hk_out o;

	hk_out__init(&o, buf, len);
	hk_out__str(&o, "{\"time\":\"");
	hk_out__rfc3339(&o, e, ctx);
	hk_out__printf(&o, "\",\"pid\":%u,\"comm\":", e->tgid);
	hk_out__json_str(&o, e->comm, hk_comm__len(e->comm));
	hk_out__printf(&o, ",\"from\":\"%s\",\"to\":\"%s\",\"cgroup\":",
		   hk_label__id(e->from), hk_label__id(e->to));
	if (cgroup) {
		size_t n = strlen(cgroup);
		bool cut = n > HK_FORMAT_CGROUP_MAX;

		if (cut) {
			n = HK_FORMAT_CGROUP_MAX;
			/* not inside a character: back to its first byte */
			while (n && ((unsigned char)cgroup[n] & 0xc0) == 0x80)
				n--;
		}
		hk_out__json_str(&o, cgroup, n);
		hk_out__printf(&o, ",\"cgroup_truncated\":%s", cut ? "true" : "false");
	} else {
		hk_out__str(&o, "null,\"cgroup_truncated\":false");
	}
	if (e->ns_ino) {
		json_u64(&o, "ns_pid", e->ns_pid);
		json_u64(&o, "pidns_ino", e->ns_ino);
	}
	json_u64(&o, "windows", e->windows);
	window_ms = ev->window_ns / HK_NSEC_PER_MSEC +
		    (ev->window_ns % HK_NSEC_PER_MSEC >= HK_NSEC_PER_MSEC / 2);
	json_milli(&o, "window_s", window_ms);
	json_pct(&o, "cpu_pct", ev->cpu_pct_x100);
	json_pct(&o, "thread_cpu_pct", ev->thread_cpu_pct_x100);
	json_pct(&o, "thread_queued_pct", ev->thread_queued_pct_x100);
	json_u64(&o, "thread_tid", ev->thread_tid);
	json_u64(&o, "thread_cpu", ev->thread_cpu);
	json_pct(&o, "run_delay_pct", ev->wait_pct_x100);
	json_pct(&o, "thread_run_delay_pct", ev->thread_wait_pct_x100);
	json_u64(&o, "run_delay_tid", ev->wait_tid);
	json_pct(&o, "throttled_pct", ev->throttled_pct_x100);
	json_u64(&o, "nr_threads", ev->nr_threads);
	/* minor + major, as on the human line and in cpu_bound.max_faults_per_s */
	json_u64(&o, "faults_per_s", ev->minor_faults_per_s + ev->major_faults_per_s);
	json_u64(&o, "minor_faults_per_s", ev->minor_faults_per_s);
	json_u64(&o, "major_faults_per_s", ev->major_faults_per_s);
	json_u64(&o, "unexplained_faults_per_s", ev->unexplained_faults_per_s);
	json_u64(&o, "vcsw_per_s", ev->vcsw_per_s);
	json_u64(&o, "ivcsw_per_s", ev->ivcsw_per_s);
	json_u64(&o, "rss_bytes", ev->rss_bytes);
	json_u64(&o, "rss_anon_bytes", ev->rss_anon_bytes);
	json_s64(&o, "rss_growth_bytes_per_s", ev->rss_growth_bytes_per_s);
	json_s64(&o, "rss_slope_bytes_per_s", ev->rss_slope_bytes_per_s);
	json_s64(&o, "rss_net_growth_bytes", ev->rss_net_growth_bytes);
	json_milli(&o, "rss_trend_s", ev->rss_trend_ms);
	json_u64(&o, "trend_samples", ev->trend_samples);
	hk_out__printf(&o, ",\"limit_kind\":\"%s\"", hk_limit__name(ev->limit_kind, false));
	json_u64(&o, "limit_bytes", ev->limit_bytes);
	json_u64(&o, "headroom_bytes", ev->headroom_bytes);
	if (ev->eta_s == (__u64)HK_ETA_NONE)
		hk_out__str(&o, ",\"eta_s\":null");
	else
		json_u64(&o, "eta_s", ev->eta_s);
	json_u64(&o, "memcg_id", ev->memcg_id);
	json_peer(&o, "aggressor", ev->aggressor_tgid, e->aggressor_comm);
	json_peer(&o, "victim", ev->victim_tgid, e->victim_comm);
	hk_out__str(&o, "}\n");
	return hk_out__finish(&o);
}
