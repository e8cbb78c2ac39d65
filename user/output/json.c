// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * json.c - one transition as a JSON object on one line: every field
 * always present (null when it does not apply), numbers with their unit in
 * the key, strings valid UTF-8 whatever the process named itself.
 */
#include <stdbool.h>
#include <string.h>
#include "format.h"
#include "humanize.h"
#include "lib/cut.h"
#include "lib/escape.h"
#include "lib/json_out.h"
#include "oom_memcg.h"
#include "shared/oom_kill.h"

/*
 * A path as a JSON string, at most HK_FORMAT_PATH_MAX bytes of it as
 * written (escapes counted: a control byte takes 6), cut with a hash
 * (cut.h): true when cut. No path makes the line longer than journald's
 * LineMax, where the rest would be read as a new entry. Only the bytes that
 * can reach the cut are escaped (each makes at least one), the hash is of
 * all of them.
 */
static bool path_str(struct hk_out *o, const char *path, __u64 *paths_cut)
{
	char esc[6 * (HK_FORMAT_PATH_MAX + 4) + 3];
	size_t n = strlen(path);
	struct hk_out e;
	bool cut;
	int len;

	hk_out__init(&e, esc, sizeof(esc));
	hk_out__json_str(&e, path, n < HK_FORMAT_PATH_MAX + 4 ? n : HK_FORMAT_PATH_MAX + 4);
	len = hk_out__finish(&e);
	if (len < 2)
		len = 2;	/* cannot happen (esc holds 6 per byte): "" */
	hk_out__mem(o, "\"", 1);
	cut = hk_cut__write(o, esc + 1, (size_t)len - 2, HK_FORMAT_PATH_MAX, path, n);
	hk_out__mem(o, "\"", 1);
	if (cut && paths_cut)
		(*paths_cut)++;
	return cut;
}

void hk_format__json_stall(struct hk_out *o, const char *key, const struct hk_ledger *l)
{
	__u64 ms;
	__u32 c;

	hk_out__printf(o, ",\"%s\":{", key);
	for (c = 0; c < HK_STALL_NR; c++) {
		ms = l->ns[c] / HK_NSEC_PER_MSEC;
		hk_out__printf(o, "%s\"%s_s\":%llu.%03llu", c ? "," : "", hk_stall__cause(c),
			       (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000));
	}
	hk_out__str(o, "}");
}

/*
 * An OOM kill: the memory cgroup whose limit was hit ("host": none), its
 * limit, whether the tool had flagged the victim OOM risk in time and how
 * long before; null in every other transition.
 */
static void json_oom(struct hk_out *o, const struct hk_event *e,
		     const struct hk_format_ctx *ctx)
{
	const struct hk_oom_kill *k = &e->oom;
	char name[HK_OOM_NAME_LEN + 32];

	if (e->to != HK_OOM_KILLED) {
		hk_out__str(o, ",\"oom_memcg\":null,\"oom_memcg_id\":null,"
			    "\"oom_limit_bytes\":null,\"oom_usage_bytes\":null,"
			    "\"flagged\":null,\"flagged_for_s\":null,\"tracked\":null");
		return;
	}
	hk_out__str(o, ",\"oom_memcg\":");
	if (!ctx->oom_memcg)
		hk_oom_memcg__name(name, sizeof(name), k, NULL);
	path_str(o, ctx->oom_memcg ? ctx->oom_memcg : name, ctx->paths_cut);
	hk_json__u64(o, "oom_memcg_id", k->memcg_id);
	hk_json__u64(o, "oom_limit_bytes", k->limit_bytes);
	hk_json__u64(o, "oom_usage_bytes", k->usage_bytes);
	hk_json__bool(o, "flagged", k->flagged);
	if (k->flagged)
		hk_json__u64(o, "flagged_for_s", hk_oom_flagged_for_s(k));
	else
		hk_out__str(o, ",\"flagged_for_s\":null");
	hk_json__bool(o, "tracked", k->tracked);
}

/* A stall transition's growers under its limit (null: not sought). */
static void json_growers(struct hk_out *o, const struct hk_mem_blame *b)
{
	__u32 i;

	if (!b || !b->looked) {
		hk_out__str(o, ",\"limit_growth_bytes\":null,\"growers\":null,"
			    "\"growers_cut\":null");
		return;
	}
	hk_json__s64(o, "limit_growth_bytes", b->limit_growth_bytes);
	hk_out__str(o, ",\"growers\":[");
	for (i = 0; i < b->n; i++) {
		hk_out__printf(o, "%s{\"pid\":%u,\"comm\":", i ? "," : "", b->g[i].tgid);
		hk_out__json_str(o, b->g[i].comm, hk_comm__len(b->g[i].comm));
		hk_json__u64(o, "growth_bytes", b->g[i].growth_bytes);
		hk_json__pct(o, "share_pct", b->g[i].share_pct_x100);
		hk_out__str(o, "}");
	}
	hk_out__str(o, "]");
	hk_json__u64(o, "growers_cut", b->cut);
}

int hk_format__json(char *buf, size_t len, const struct hk_event *e,
		   const char *cgroup, const struct hk_format_ctx *ctx)
{
	static const struct hk_workload none;
	const struct hk_workload *wl = ctx->workload ? ctx->workload : &none;
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
		hk_json__bool(&o, "cgroup_truncated", path_str(&o, cgroup, ctx->paths_cut));
	} else {
		hk_out__str(&o, "null,\"cgroup_truncated\":false");
	}
	hk_out__str(&o, ",\"unit\":");
	hk_out__json_str(&o, wl->unit, strlen(wl->unit));
	hk_out__printf(&o, ",\"container_id\":\"%s\",\"pod_uid\":\"%s\"",
		       wl->container_id, wl->pod_uid);
	hk_out__str(&o, ",\"quota_cgroup\":");
	path_str(&o, ctx->quota_cgroup ? ctx->quota_cgroup : "", ctx->paths_cut);
	hk_out__str(&o, ",\"mem_high_cgroup\":");
	path_str(&o, ctx->mem_high_cgroup ? ctx->mem_high_cgroup : "",
		 ctx->paths_cut);
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
	hk_json__pct(&o, "thread_cpu_lost_pct", ev->cpu_lost_pct_x100);
	hk_json__pct(&o, "run_delay_pct", ev->wait_pct_x100);
	hk_json__pct(&o, "thread_run_delay_pct", ev->thread_wait_pct_x100);
	hk_json__u64(&o, "run_delay_tid", ev->wait_tid);
	/* what that thread asked the scheduler for */
	hk_json__s64(&o, "wait_nice", ev->wait_nice);
	if (hk_policy__name(ev->wait_policy))
		hk_out__printf(&o, ",\"wait_policy\":\"%s\"", hk_policy__name(ev->wait_policy));
	else
		hk_json__u64(&o, "wait_policy", ev->wait_policy);
	hk_json__u64(&o, "wait_group_weight", ev->wait_group_weight);
	hk_json__bool(&o, "wait_group_idle", ev->wait_group_idle);
	hk_json__pct(&o, "throttled_pct", ev->throttled_pct_x100);
	hk_json__pct(&o, "throttled_per_cpu_pct", ev->throttled_norm_pct_x100);
	hk_json__u64(&o, "cpus_allowed", ev->cpus_allowed);
	hk_json__pct(&o, "usable_cpus", ev->usable_cpus_x100);
	hk_json__pct(&o, "quota_cpus", ev->quota_cpus_x100);
	hk_json__u64(&o, "quota_cgroup_id", ev->quota_cgroup_id);
	hk_json__pct(&o, "io_blocked_pct", ev->io_pct_x100);
	hk_json__pct(&o, "thread_io_blocked_pct", ev->thread_io_pct_x100);
	hk_json__u64(&o, "io_blocked_tid", ev->io_tid);
	/* null: this kernel does not count them (no task I/O accounting) */
	if (ev->io_bytes_known)
		hk_json__u64(&o, "io_bytes_per_s", ev->io_bytes_per_s);
	else
		hk_out__str(&o, ",\"io_bytes_per_s\":null");
	hk_json__u64(&o, "io_stuck_threads", ev->io_stuck_threads);
	/* delay accounting's, or sampled at each walk: the thread had none */
	hk_out__printf(&o, ",\"io_source\":\"%s\"", hk_source__name(ev->sampled,
								 HK_SRC_IO_SAMPLED));
	hk_json__u64(&o, "nr_threads", ev->nr_threads);
	/* minor + major, as on the human line (cpu_bound.max_faults_per_s
	 * counts the unexplained minor ones + major: classify.h) */
	hk_json__u64(&o, "faults_per_s", ev->minor_faults_per_s + ev->major_faults_per_s);
	hk_json__u64(&o, "minor_faults_per_s", ev->minor_faults_per_s);
	hk_json__u64(&o, "major_faults_per_s", ev->major_faults_per_s);
	hk_json__u64(&o, "unexplained_faults_per_s", ev->unexplained_faults_per_s);
	hk_json__u64(&o, "vcsw_per_s", ev->vcsw_per_s);
	hk_json__u64(&o, "ivcsw_per_s", ev->ivcsw_per_s);
	hk_json__u64(&o, "rss_bytes", ev->rss_bytes);
	hk_json__u64(&o, "rss_anon_bytes", ev->rss_anon_bytes);
	hk_json__u64(&o, "swap_bytes", ev->swap_bytes);
	hk_json__s64(&o, "rss_growth_bytes_per_s", ev->rss_growth_bytes_per_s);
	hk_json__s64(&o, "rss_slope_bytes_per_s", ev->rss_slope_bytes_per_s);
	hk_json__s64(&o, "rss_net_growth_bytes", ev->rss_net_growth_bytes);
	hk_json__milli(&o, "rss_trend_s", ev->rss_trend_ms);
	hk_json__milli(&o, "rss_growing_s", ev->rss_growing_ms);
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
	/* the memory.high that binds (0: none set) and how hard it holds */
	hk_json__u64(&o, "mem_high_bytes", ev->mem_high_bytes);
	hk_json__u64(&o, "mem_high_usage_bytes", ev->mem_high_usage_bytes);
	hk_json__u64(&o, "mem_high_file_bytes", ev->mem_high_file_bytes);
	hk_json__u64(&o, "mem_high_events_per_s", ev->mem_high_events_per_s);
	hk_json__u64(&o, "mem_high_cgroup_id", ev->mem_high_cgroup_id);
	hk_json__bool(&o, "mem_stalled", ev->mem_stalled);
	/* the kernel's own stall time: refaults, swap-in, reclaim, compaction */
	hk_json__pct(&o, "memory_stall_pct", ev->mem_stall_pct_x100);
	hk_json__u64(&o, "memory_stall_tid", ev->mem_stall_tid);
	hk_out__printf(&o, ",\"stall_source\":\"%s\"", hk_source__name(ev->sampled,
								    HK_SRC_STALL_SAMPLED));
	hk_json__peer(&o, "aggressor", ev->aggressor_tgid, e->aggressor_comm);
	hk_json__peer(&o, "victim", ev->victim_tgid, e->victim_comm);
	hk_json__bool(&o, "victim_deprioritised", ev->victim_deprioritised);
	/* the stall ledger: the window that decided, and the running total */
	hk_format__json_stall(&o, "stall", &ev->stall_win);
	hk_format__json_stall(&o, "stall_total", &ev->stall_ns);
	json_growers(&o, ctx->blame);
	json_oom(&o, e, ctx);
	hk_out__str(&o, "}\n");
	return hk_out__finish(&o);
}
