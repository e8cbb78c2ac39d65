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
#include "json_out.h"

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
		hk_json__bool(&o, "cgroup_truncated", cut);
	} else {
		hk_out__str(&o, "null,\"cgroup_truncated\":false");
	}
	if (e->ns_ino) {
		hk_json__u64(&o, "ns_pid", e->ns_pid);
		hk_json__u64(&o, "pidns_ino", e->ns_ino);
	}
	hk_json__u64(&o, "windows", e->windows);
	window_ms = ev->window_ns / HK_NSEC_PER_MSEC +
		    (ev->window_ns % HK_NSEC_PER_MSEC >= HK_NSEC_PER_MSEC / 2);
	hk_json__milli(&o, "window_s", window_ms);
	hk_json__pct(&o, "cpu_pct", ev->cpu_pct_x100);
	hk_json__pct(&o, "thread_cpu_pct", ev->thread_cpu_pct_x100);
	hk_json__pct(&o, "thread_queued_pct", ev->thread_queued_pct_x100);
	hk_json__u64(&o, "thread_tid", ev->thread_tid);
	hk_json__u64(&o, "thread_cpu", ev->thread_cpu);
	hk_json__pct(&o, "run_delay_pct", ev->wait_pct_x100);
	hk_json__pct(&o, "thread_run_delay_pct", ev->thread_wait_pct_x100);
	hk_json__u64(&o, "run_delay_tid", ev->wait_tid);
	hk_json__pct(&o, "throttled_pct", ev->throttled_pct_x100);
	hk_json__pct(&o, "io_blocked_pct", ev->io_pct_x100);
	hk_json__pct(&o, "thread_io_blocked_pct", ev->thread_io_pct_x100);
	hk_json__u64(&o, "io_blocked_tid", ev->io_tid);
	/* null: this kernel does not count them (no task I/O accounting) */
	if (ev->io_bytes_known)
		hk_json__u64(&o, "io_bytes_per_s", ev->io_bytes_per_s);
	else
		hk_out__str(&o, ",\"io_bytes_per_s\":null");
	hk_json__u64(&o, "io_stuck_threads", ev->io_stuck_threads);
	hk_json__u64(&o, "nr_threads", ev->nr_threads);
	/* minor + major, as on the human line and in cpu_bound.max_faults_per_s */
	hk_json__u64(&o, "faults_per_s", ev->minor_faults_per_s + ev->major_faults_per_s);
	hk_json__u64(&o, "minor_faults_per_s", ev->minor_faults_per_s);
	hk_json__u64(&o, "major_faults_per_s", ev->major_faults_per_s);
	hk_json__u64(&o, "unexplained_faults_per_s", ev->unexplained_faults_per_s);
	hk_json__u64(&o, "vcsw_per_s", ev->vcsw_per_s);
	hk_json__u64(&o, "ivcsw_per_s", ev->ivcsw_per_s);
	hk_json__u64(&o, "rss_bytes", ev->rss_bytes);
	hk_json__u64(&o, "rss_anon_bytes", ev->rss_anon_bytes);
	hk_json__s64(&o, "rss_growth_bytes_per_s", ev->rss_growth_bytes_per_s);
	hk_json__s64(&o, "rss_slope_bytes_per_s", ev->rss_slope_bytes_per_s);
	hk_json__s64(&o, "rss_net_growth_bytes", ev->rss_net_growth_bytes);
	hk_json__milli(&o, "rss_trend_s", ev->rss_trend_ms);
	hk_json__u64(&o, "trend_samples", ev->trend_samples);
	hk_out__printf(&o, ",\"limit_kind\":\"%s\"", hk_limit__name(ev->limit_kind, false));
	hk_json__u64(&o, "limit_bytes", ev->limit_bytes);
	hk_json__u64(&o, "headroom_bytes", ev->headroom_bytes);
	hk_json__u64(&o, "limit_levels_unread", ev->limit_partial);
	if (ev->eta_s == (__u64)HK_ETA_NONE)
		hk_out__str(&o, ",\"eta_s\":null");
	else
		hk_json__u64(&o, "eta_s", ev->eta_s);
	hk_json__u64(&o, "memcg_id", ev->memcg_id);
	hk_json__peer(&o, "aggressor", ev->aggressor_tgid, e->aggressor_comm);
	hk_json__peer(&o, "victim", ev->victim_tgid, e->victim_comm);
	hk_out__str(&o, "}\n");
	return hk_out__finish(&o);
}
