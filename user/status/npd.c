// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * npd.c - the checks of `hotspot-k status --npd`: for each, the exit
 * status NPD maps to a node condition (0 False, 1 True, 2+ Unknown) and
 * the line it shows, the worst offender first so that NPD's 80-byte cut
 * keeps who it is. A table of checks, one function each: #33 adds a row.
 */
#include <stdio.h>
#include <string.h>
#include "lib/units.h"
#include "output/format.h"
#include "npd.h"

struct check {
	const char *name;
	/* over a running instance (in->v set), but up's, which takes none */
	int (*fn)(const struct hk_npd_in *in, char *msg, size_t len);
	const char *label;	/* what it cannot tell when none runs */
};

/* "python3", its bytes outside printable ASCII as '?': NPD cuts the line
 * by bytes and puts it in a node condition as it is */
static void comm_ascii(char *out, const char *comm)
{
	size_t i;

	for (i = 0; i < HK_COMM_LEN - 1 && comm[i]; i++)
		out[i] = comm[i] >= 0x20 && comm[i] < 0x7f ? comm[i] : '?';
	out[i] = '\0';
}

/* " container 0123456789ab", " unit nginx.service" or nothing; a unit's
 * bytes are systemd's (ASCII), a container id hex */
static void who(char *out, size_t len, const struct hk_npd_in *in,
		const struct hk_status_row *r)
{
	struct hk_workload wl;

	out[0] = '\0';
	if (!in->who)
		return;
	in->who(&wl, r->pid, r->p->start_boottime_ns);
	if (wl.container_id[0])
		snprintf(out, len, " container %.*s", HK_WORKLOAD_CONTAINER_ID_SHORT,
			 wl.container_id);
	else if (wl.unit[0])
		snprintf(out, len, " unit %s", wl.unit);
}

/* "; 2 more" after the one named, or nothing */
static void more(char *out, size_t len, size_t n)
{
	out[0] = '\0';
	if (n > 1)
		snprintf(out, len, "; %zu more", n - 1);
}

static int up(const struct hk_npd_in *in, char *msg, size_t len)
{
	const struct hk_status_snap *s;
	char every[32], quiet[32];
	__u64 ns, stall_ns;

	if (!in->v) {
		snprintf(msg, len, "hotspot-k not running%s", in->stale_pin ?
			 ": a gone one left its pins (hotspot-k unpin)" : "");
		return HK_NPD_PROBLEM;
	}
	s = in->v->snap;
	hk_units__print(every, sizeof(every), HK_UNIT_DURATION_NS, s->cfg.interval_ns);
	stall_ns = HK_NPD_STALL_INTERVALS * s->cfg.interval_ns;
	if (!s->stats.windows) {
		if (in->since_load_ns <= stall_ns) {
			snprintf(msg, len, "hotspot-k starting: no window yet (every %s)", every);
			return HK_NPD_OK;
		}
		hk_format__duration(quiet, sizeof(quiet), in->since_load_ns / HK_NSEC_PER_SEC);
		snprintf(msg, len, "hotspot-k stalled: no window %s after its start (every %s)",
			 quiet, every);
		return HK_NPD_PROBLEM;
	}
	ns = in->now_mono_ns > s->stats.last_walk_end_ns ?
	     in->now_mono_ns - s->stats.last_walk_end_ns : 0;
	if (ns > stall_ns) {
		hk_format__duration(quiet, sizeof(quiet), ns / HK_NSEC_PER_SEC);
		snprintf(msg, len, "hotspot-k stalled: no window for %s (every %s, driver %s)",
			 quiet, every, hk_driver__name(s->stats.driver));
		return HK_NPD_PROBLEM;
	}
	snprintf(msg, len, "hotspot-k up: %llu windows every %s (driver %s), %zu flagged",
		 (unsigned long long)s->stats.windows, every, hk_driver__name(s->stats.driver),
		 in->v->nr_flagged);
	return HK_NPD_OK;
}

/* The sooner the limit, the worse; no ETA (not growing now) last. */
static bool sooner(const struct hk_status_row *a, const struct hk_status_row *b)
{
	return a->p->ev.eta_s < b->p->ev.eta_s;		/* HK_ETA_NONE is the top */
}

static int oom_risk(const struct hk_npd_in *in, char *msg, size_t len)
{
	const struct hk_status_row *r, *worst = NULL;
	char comm[HK_COMM_LEN], eta[40] = "", wl[HK_WORKLOAD_UNIT_LEN + 8], n_more[32];
	size_t i, n = 0;

	/* flagged is by label, then PID: the first of the soonest wins */
	for (i = 0; i < in->v->nr_flagged; i++) {
		r = in->v->flagged[i];
		if (r->p->hyst.label != HK_OOM_RISK)
			continue;
		n++;
		if (!worst || sooner(r, worst))
			worst = r;
	}
	if (!worst) {
		snprintf(msg, len, "no process in OOM risk (%zu tracked)", in->v->n);
		return HK_NPD_OK;
	}
	comm_ascii(comm, worst->p->comm);
	if (worst->p->ev.eta_s != (__u64)HK_ETA_NONE) {
		strcpy(eta, " ETA ");
		hk_format__duration(eta + 5, sizeof(eta) - 5, worst->p->ev.eta_s);
	}
	who(wl, sizeof(wl), in, worst);
	more(n_more, sizeof(n_more), n);
	snprintf(msg, len, "OOM risk: pid %u %s%s%s%s", worst->pid, comm, eta, wl, n_more);
	return HK_NPD_PROBLEM;
}

static int noisy_neighbor(const struct hk_npd_in *in, char *msg, size_t len)
{
	const struct hk_status_row *r, *worst = NULL;
	char comm[HK_COMM_LEN], vcomm[HK_COMM_LEN], victim[HK_COMM_LEN + 32];
	char wl[HK_WORKLOAD_UNIT_LEN + 8];
	char n_more[32];
	const char *vc;
	size_t i, n = 0, asked = 0;

	for (i = 0; i < in->v->nr_flagged; i++) {
		r = in->v->flagged[i];
		if (r->p->hyst.label != HK_NOISY_NEIGHBOR)
			continue;
		/* a victim that asked for less (nice, SCHED_IDLE, cpu.idle, a
		 * low weight) gets what it asked for: news, not a node problem */
		if (r->p->ev.victim_deprioritised) {
			asked++;
			continue;
		}
		n++;
		/* the one that took its victim's CPU most often */
		if (!worst || r->p->ev.victim_switches > worst->p->ev.victim_switches)
			worst = r;
	}
	if (!worst) {
		if (asked)
			snprintf(msg, len, "no Noisy neighbor but %zu whose victim asked for less",
				 asked);
		else
			snprintf(msg, len, "no Noisy neighbor (%zu tracked)", in->v->n);
		return HK_NPD_OK;
	}
	comm_ascii(comm, worst->p->comm);
	victim[0] = '\0';
	if (worst->p->ev.victim_tgid) {
		vc = hk_status_view__comm(in->v, worst->p->ev.victim_tgid);
		comm_ascii(vcomm, vc ? vc : "");
		snprintf(victim, sizeof(victim), " starves pid %u%s%s", worst->p->ev.victim_tgid,
			 vcomm[0] ? " " : "", vcomm);
	}
	who(wl, sizeof(wl), in, worst);
	more(n_more, sizeof(n_more), n);
	snprintf(msg, len, "Noisy neighbor: pid %u %s%s%s%s", worst->pid, comm, victim, wl,
		 n_more);
	return HK_NPD_PROBLEM;
}

/* ns as seconds with `decimals` (1 or 2) places: "0.48" */
static void secs(char *out, size_t len, __u64 ns, unsigned int decimals)
{
	__u64 unit = decimals > 1 ? HK_NSEC_PER_SEC / 100 : HK_NSEC_PER_SEC / 10;
	__u64 n = ns / unit, scale = decimals > 1 ? 100 : 10;

	snprintf(out, len, "%llu.%0*llu", (unsigned long long)(n / scale), (int)decimals,
		 (unsigned long long)(n % scale));
}

/* part of whole in whole percent, rounded */
static unsigned int pct(__u64 part, __u64 whole)
{
	return whole ? (unsigned int)((part * 100 + whole / 2) / whole) : 0;
}

/*
 * The node's CPU wait in the latest window (every process the latest walk
 * sampled: a quiet one's window is older), by the stall ledger's causes: a
 * problem only when other workloads cause it (neighbor), not a quota, a
 * process's own threads or its weight (HK_NPD_CONTENTION_CPU_PCT). The
 * process that waited longest for others is named, with its aggressor
 * when the sched_switch hook saw one (it watches threads that wait most
 * of a window), else with the one that waited next longest.
 */
static int cpu_contention(const struct hk_npd_in *in, char *msg, size_t len)
{
	const struct hk_status_row *r, *worst = NULL, *next = NULL;
	char comm[HK_COMM_LEN], acomm[HK_COMM_LEN], aggr[HK_COMM_LEN + 48];
	char total_s[32], wait_s[32], n_more[32];
	__u64 cause[HK_STALL_CPU_NR] = {}, total = 0, floor_ns;
	const char *ac;
	size_t i, n = 0, c;

	for (i = 0; i < in->v->n; i++) {
		r = &in->v->rows[i];
		if (r->quiet)
			continue;
		for (c = 0; c < HK_STALL_CPU_NR; c++) {
			cause[c] += r->p->ev.stall_win.ns[c];
			total += r->p->ev.stall_win.ns[c];
		}
		if (!r->p->ev.stall_win.ns[HK_STALL_NEIGHBOR])
			continue;
		n++;
		if (!worst || r->p->ev.stall_win.ns[HK_STALL_NEIGHBOR] >
			      worst->p->ev.stall_win.ns[HK_STALL_NEIGHBOR]) {
			next = worst;
			worst = r;
		} else if (!next || r->p->ev.stall_win.ns[HK_STALL_NEIGHBOR] >
				    next->p->ev.stall_win.ns[HK_STALL_NEIGHBOR]) {
			next = r;
		}
	}
	if (!total) {
		snprintf(msg, len, "no CPU wait in the last window (%zu tracked)", in->v->n);
		return HK_NPD_OK;
	}
	secs(total_s, sizeof(total_s), total, 1);
	floor_ns = in->v->snap->cfg.interval_ns * HK_NPD_CONTENTION_CPU_PCT / 100;
	if (!worst || cause[HK_STALL_NEIGHBOR] < floor_ns ||
	    cause[HK_STALL_NEIGHBOR] * 2 < total) {
		snprintf(msg, len, "no CPU contention: last window's CPU wait %s s: %u%% neighbor, "
			 "%u%% quota, %u%% self", total_s, pct(cause[HK_STALL_NEIGHBOR], total),
			 pct(cause[HK_STALL_QUOTA], total), pct(cause[HK_STALL_SELF], total));
		return HK_NPD_OK;
	}
	comm_ascii(comm, worst->p->comm);
	secs(wait_s, sizeof(wait_s), worst->p->ev.stall_win.ns[HK_STALL_NEIGHBOR], 2);
	aggr[0] = '\0';
	if (worst->p->ev.aggressor_tgid) {
		ac = hk_status_view__comm(in->v, worst->p->ev.aggressor_tgid);
		comm_ascii(acomm, ac ? ac : "");
		snprintf(aggr, sizeof(aggr), " for pid %u%s%s", worst->p->ev.aggressor_tgid,
			 acomm[0] ? " " : "", acomm);
	} else if (next) {
		comm_ascii(acomm, next->p->comm);
		secs(total_s, sizeof(total_s), next->p->ev.stall_win.ns[HK_STALL_NEIGHBOR], 2);
		snprintf(aggr, sizeof(aggr), ", pid %u %s %s s", next->pid, acomm, total_s);
		secs(total_s, sizeof(total_s), total, 1);
		n--;
	}
	more(n_more, sizeof(n_more), n);
	snprintf(msg, len, "CPU contention: pid %u %s waited %s s%s; neighbor %u%% of %s s%s",
		 worst->pid, comm, wait_s, aggr, pct(cause[HK_STALL_NEIGHBOR], total), total_s,
		 n_more);
	return HK_NPD_PROBLEM;
}

static const struct check checks[HK_NPD_NR_CHECKS] = {
	[HK_NPD_UP]		= { "up", up, NULL },
	[HK_NPD_OOM_RISK]	= { "oom-risk", oom_risk, "OOM risk" },
	[HK_NPD_NOISY_NEIGHBOR]	= { "noisy-neighbor", noisy_neighbor, "Noisy neighbor" },
	[HK_NPD_CPU_CONTENTION]	= { "cpu-contention", cpu_contention, "CPU contention" },
};

enum hk_npd_check hk_npd__parse(const char *name)
{
	int c;

	for (c = 0; c < HK_NPD_NR_CHECKS; c++)
		if (!strcmp(name, checks[c].name))
			return c;
	return HK_NPD_NR_CHECKS;
}

const char *hk_npd__name(enum hk_npd_check c)
{
	return c < HK_NPD_NR_CHECKS ? checks[c].name : "?";
}

const char *hk_npd__names(void)
{
	return "up, oom-risk, noisy-neighbor, cpu-contention";
}

int hk_npd__check(enum hk_npd_check c, const struct hk_npd_in *in, char *msg, size_t len)
{
	if (len > HK_NPD_MSG_LEN + 1)
		len = HK_NPD_MSG_LEN + 1;
	if (c >= HK_NPD_NR_CHECKS) {
		snprintf(msg, len, "unknown check");
		return HK_NPD_CANNOT;
	}
	/* no instance: the problem up is for, the others cannot tell */
	if (!in->v && checks[c].label) {
		snprintf(msg, len, "hotspot-k not running: %s unknown", checks[c].label);
		return HK_NPD_NO_TOOL;
	}
	return checks[c].fn(in, msg, len);
}
