// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * json.c - `hotspot-k status --json`: one JSON object on one line,
 *
 *   {"instance":{...},"flagged":[{...}],"top_cpu":null,...}
 *
 * the instance (interval, driver, pinned, windows, processes tracked), the flagged
 * processes, and with -a the top lists (null without). A process carries
 * the same keys, with the same units, as a transition's JSON line does;
 * every key is always there, null when it does not apply. Each process is
 * made in a bounded buffer and written whole.
 */
#include <errno.h>
#include <string.h>
#include "act/budget.h"
#include "act/freeze.h"
#include "act/postmortem_dir.h"
#include "lib/escape.h"
#include "lib/json_out.h"
#include "output/format.h"
#include "view.h"

/* The keys below, two escaped comms (16 bytes at 6 each) and the evidence
 * with its comms escaped again. */
#define OBJ_MAX_LEN	4096

static void json_evidence(struct hk_out *o, const struct hk_status_view *v,
			  const struct hk_status_row *r)
{
	char buf[1024];
	struct hk_out e;
	int n;

	hk_out__str(o, ",\"evidence\":");
	if (r->p->hyst.label == HK_OK) {
		hk_out__str(o, "null");
		return;
	}
	hk_out__init(&e, buf, sizeof(buf));
	hk_status__evidence(&e, v, r, true);
	n = hk_out__finish(&e);
	if (n < 0)
		o->full = true;
	else
		hk_out__json_str(o, buf, (size_t)n);
}

static void json_row(struct hk_out *o, const struct hk_status_view *v,
		     const struct hk_status_row *r)
{
	static const struct hk_ledger no_stall;
	const struct hk_proc *p = r->p;
	const struct hk_evidence *ev = &p->ev;
	__u64 s;

	hk_out__printf(o, "{\"pid\":%u,\"comm\":", r->pid);
	hk_out__json_str(o, p->comm, hk_comm__len(p->comm));
	if (p->ns_ino) {
		hk_json__u64(o, "ns_pid", p->ns_pid);
		hk_json__u64(o, "pidns_ino", p->ns_ino);
	}
	/* who it is, as on a transition's line */
	hk_out__str(o, ",\"unit\":");
	hk_out__json_str(o, r->wl->unit, strlen(r->wl->unit));
	hk_out__printf(o, ",\"container_id\":\"%s\",\"pod_uid\":\"%s\"",
		       r->wl->container_id, r->wl->pod_uid);
	hk_out__printf(o, ",\"label\":\"%s\",\"match\":\"%s\"",
		   hk_label__id(p->hyst.label), hk_label__id(p->hyst.cand));
	if (hk_status_row__label_for_s(r, &v->snap->cfg, &s))
		hk_json__u64(o, "for_s", s);
	else
		hk_out__str(o, ",\"for_s\":null");
	hk_json__u64(o, "missed_windows", p->hyst.label == HK_OK ? 0 : p->hyst.miss_windows);
	hk_json__u64(o, "windows", p->windows);
	hk_json__bool(o, "quiet", r->quiet);
	hk_json__u64(o, "nr_threads", ev->nr_threads);
	hk_json__pct(o, "cpu_pct", r->cpu_pct_x100);
	hk_json__pct(o, "run_delay_pct", r->wait_pct_x100);
	hk_json__pct(o, "throttled_pct", r->quiet ? 0 : ev->throttled_pct_x100);
	hk_json__u64(o, "faults_per_s", r->quiet ? 0 :
		     ev->minor_faults_per_s + ev->major_faults_per_s);
	hk_json__u64(o, "rss_bytes", ev->rss_bytes);
	hk_json__u64(o, "rss_anon_bytes", ev->rss_anon_bytes);
	hk_json__s64(o, "rss_growth_bytes_per_s", r->rss_growth_bytes_per_s);
	hk_json__s64(o, "rss_slope_bytes_per_s", ev->rss_slope_bytes_per_s);
	hk_out__printf(o, ",\"limit_kind\":\"%s\"", hk_limit__name(ev->limit_kind, false));
	hk_json__u64(o, "limit_bytes", ev->limit_bytes);
	if (ev->eta_s == (__u64)HK_ETA_NONE)
		hk_out__str(o, ",\"eta_s\":null");
	else
		hk_json__u64(o, "eta_s", ev->eta_s);
	hk_json__peer(o, "aggressor", ev->aggressor_tgid,
		      hk_status_view__comm(v, ev->aggressor_tgid));
	hk_json__peer(o, "victim", ev->victim_tgid,
		      hk_status_view__comm(v, ev->victim_tgid));
	/* the stall ledger: the latest window's (none when quiet, as the
	 * rates above) and the running total */
	hk_format__json_stall(o, "stall", r->quiet ? &no_stall : &ev->stall_win);
	hk_format__json_stall(o, "stall_total", &ev->stall_ns);
	json_evidence(o, v, r);
	hk_out__mem(o, "}", 1);
}

/* ,"own_cost":{...}: the tool's own cost as it last wrote it; null before */
static void json_cost(struct hk_out *o, const struct hk_cost *c)
{
	if (c->source == HK_COST_UNKNOWN) {
		hk_out__str(o, ",\"own_cost\":null");
		return;
	}
	hk_out__printf(o, ",\"own_cost\":{\"source\":\"%s\"",
		       c->source == HK_COST_STATS ? "stats" :
		       c->source == HK_COST_SYSCTL ? "sysctl" : "estimate");
	hk_json__u64(o, "lifetime_ns", c->lifetime_ns);
	hk_json__u64(o, "start_cpu_ns", c->start_cpu_ns);
	hk_json__u64(o, "cpu_ns", c->total_ns);
	hk_json__u64(o, "walk_cpu_ns", c->walk_cpu_ns);
	hk_json__u64(o, "user_cpu_ns", c->user_cpu_ns);
	hk_json__bool(o, "hook_attached", c->hook_attached);
	hk_json__u64(o, "hook_attaches", c->hook_attaches);
	hk_json__u64(o, "hook_attached_ns", c->hook_attached_ns);
	hk_json__u64(o, "hook_attach_ns_max", c->hook_attach_ns_max);
	hk_json__u64(o, "hook_runs", c->hook_runs);
	hk_json__u64(o, "hook_run_ns", c->hook_run_ns);
	hk_json__u64(o, "exit_runs", c->exit_runs);
	hk_json__u64(o, "exit_run_ns", c->exit_run_ns);
	hk_json__u64(o, "oom_runs", c->oom_runs);
	hk_json__u64(o, "oom_run_ns", c->oom_run_ns);
	hk_json__u64(o, "fork_runs", c->fork_runs);
	hk_json__u64(o, "fork_run_ns", c->fork_run_ns);
	hk_out__mem(o, "}", 1);
}

/* ,"budget":{...}: its [budget] as it last judged it; null without one */
static void json_budget(struct hk_out *o, const struct hk_budget_use *u)
{
	if (!u->cpu_budget_pct_x100 && !u->rss_budget_bytes) {
		hk_out__str(o, ",\"budget\":null");
		return;
	}
	hk_out__printf(o, ",\"budget\":{\"step\":%llu,\"step_name\":\"%s\"",
		       (unsigned long long)u->step, hk_budget__step_name((__u32)u->step));
	hk_json__u64(o, "steps_down", u->degrades);
	hk_json__u64(o, "steps_up", u->recovers);
	hk_json__u64(o, "cpu_pct_x100", u->cpu_pct_x100);
	hk_json__u64(o, "cpu_budget_pct_x100", u->cpu_budget_pct_x100);
	hk_json__u64(o, "rss_bytes", u->rss_bytes);
	hk_json__u64(o, "rss_budget_bytes", u->rss_budget_bytes);
	hk_out__mem(o, "}", 1);
}

static void json_instance(struct hk_out *o, const struct hk_status_view *v)
{
	const struct hk_status_snap *s = v->snap;
	__u64 ms = s->cfg.interval_ns / HK_NSEC_PER_MSEC;

	hk_out__printf(o, "{\"instance\":{\"interval_s\":%llu.%03llu,\"driver\":",
		   (unsigned long long)ms / 1000, (unsigned long long)ms % 1000);
	if (s->stats.windows)
		hk_out__printf(o, "\"%s\"", hk_driver__name(s->stats.driver));
	else
		hk_out__str(o, "null");
	hk_json__bool(o, "pinned", s->pinned);
	hk_json__u64(o, "windows", s->stats.windows);
	hk_json__u64(o, "enter_windows", s->cfg.enter_windows);
	hk_json__u64(o, "exit_windows", s->cfg.exit_windows);
	hk_json__u64(o, "procs_tracked", s->n);
	if (s->max_procs)
		hk_json__u64(o, "max_procs", s->max_procs);
	else
		hk_out__str(o, ",\"max_procs\":null");
	hk_json__u64(o, "procs_flagged", v->nr_flagged);
	json_cost(o, &s->stats.cost);
	json_budget(o, &s->stats.budget);
	hk_out__mem(o, "}", 1);
}

/* Write what o holds and start it again: -1 (EOVERFLOW) if it overflowed. */
static int flush(FILE *f, struct hk_out *o)
{
	if (hk_out__finish(o) < 0) {
		errno = EOVERFLOW;
		return -1;
	}
	fputs(o->buf, f);
	hk_out__init(o, o->buf, o->len);
	return 0;
}

/* ,"KEY":[{...},{...}] */
static int json_list(FILE *f, struct hk_out *o, const struct hk_status_view *v,
		     const char *key, const struct hk_status_row *const *rows, size_t n)
{
	size_t i;

	hk_out__printf(o, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		if (i)
			hk_out__mem(o, ",", 1);
		json_row(o, v, rows[i]);
		if (flush(f, o))
			return -1;
	}
	hk_out__mem(o, "]", 1);
	return 0;
}

int hk_status__write_json(FILE *f, const struct hk_status_view *v,
			  const struct hk_status_opts *opts)
{
	char buf[OBJ_MAX_LEN];
	struct hk_out o;
	int t;

	hk_out__init(&o, buf, sizeof(buf));
	json_instance(&o, v);
	if (json_list(f, &o, v, "flagged", v->flagged, v->nr_flagged))
		return -1;
	for (t = 0; t < HK_NR_TOPS; t++) {
		if (!opts->all) {
			hk_out__printf(&o, ",\"%s\":null", hk_status_top__key(t));
			continue;
		}
		if (json_list(f, &o, v, hk_status_top__key(t), v->top[t], v->nr_top[t]))
			return -1;
	}
	/* what --freeze-on-oom froze, from its records (freeze_status.c) */
	if (opts->frozen_dir) {
		char why[256];

		if (flush(f, &o))
			return -1;
		if (hk_freeze_status__json(f, opts->frozen_dir, why, sizeof(why)))
			hk_out__str(&o, ",\"frozen\":null");
	}
	/* the OOM kills' post-mortems, newest first (act/postmortem_dir.c) */
	if (opts->postmortem_dir) {
		char why[256];

		if (flush(f, &o))
			return -1;
		if (hk_pm_dir__json(f, opts->postmortem_dir, why, sizeof(why)))
			hk_out__str(&o, ",\"postmortems\":null");
	}
	hk_out__str(&o, "}\n");
	return flush(f, &o);
}
