// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * text.c - `hotspot-k status` as tables for a terminal:
 *
 *   hotspot-k every 1s (driver wq): 14 windows, 22 of 4096 processes tracked, 3 flagged
 *       PID  COMM              UNIT                      CONTAINER     LABEL  ...  EVIDENCE
 *     14368  yes               nginx.service             -             CPU-bound  ...
 *
 * UNIT is the systemd unit, cut to 24 columns (its first 23 and "~");
 * CONTAINER the container id's first 12 digits, as `docker ps` shows it.
 *
 * then, with -a, the same columns (no evidence) for the top N by CPU, by run
 * delay and by RSS growth. Each line is made in a bounded buffer, then
 * written whole.
 */
#include <errno.h>
#include <string.h>
#include "lib/escape.h"
#include "lib/units.h"
#include "act/budget.h"
#include "kernel/self_cost.h"
#include "output/humanize.h"
#include "view.h"

/* Columns; a value wider than its column pushes the rest right. */
#define COL_PID		7
#define COL_COMM	16
#define COL_UNIT	24
#define COL_CONTAINER	HK_WORKLOAD_CONTAINER_ID_SHORT
#define COL_LABEL	14
#define COL_FOR		6
#define COL_PCT		6
#define COL_RSS		8
#define COL_RATE	11

/* A row: two comms of 16 bytes escaped at 4 columns each, and the rest. */
#define LINE_MAX_LEN	1024

/* The text of one cell, right-aligned in its column. */
struct cell {
	char s[48];
	struct hk_out o;
};

static struct hk_out *cell_start(struct cell *c)
{
	hk_out__init(&c->o, c->s, sizeof(c->s));
	return &c->o;
}

static void out_right(struct hk_out *o, struct cell *c, int width)
{
	if (hk_out__finish(&c->o) < 0)
		o->full = true;
	hk_out__printf(o, "  %*s", width, c->s);
}

static int put_line(FILE *f, struct hk_out *o)
{
	hk_out__mem(o, "\n", 1);
	if (hk_out__finish(o) < 0) {
		errno = EOVERFLOW;
		return -1;
	}
	fputs(o->buf, f);
	return 0;
}

static void out_header(struct hk_out *o, bool evidence)
{
	hk_out__printf(o, "%*s  %-*s  %-*s  %-*s  %-*s  %*s  %*s  %*s  %*s  %*s", COL_PID, "PID",
		   COL_COMM, "COMM", COL_UNIT, "UNIT", COL_CONTAINER, "CONTAINER",
		   COL_LABEL, "LABEL", COL_FOR, "FOR", COL_PCT, "CPU",
		   COL_PCT, "WAIT", COL_RSS, "RSS", COL_RATE, "RSS/s");
	if (evidence)
		hk_out__str(o, "  EVIDENCE");
}

/* UNIT and CONTAINER: "-" for none; a unit's bytes are systemd's (ASCII,
 * nothing a terminal acts on), a container id hex */
static void out_who(struct hk_out *o, const struct hk_workload *wl)
{
	size_t n = strlen(wl->unit);

	if (!n)
		hk_out__printf(o, "  %-*s", COL_UNIT, "-");
	else if (n <= COL_UNIT)
		hk_out__printf(o, "  %-*s", COL_UNIT, wl->unit);
	else
		hk_out__printf(o, "  %.*s~", COL_UNIT - 1, wl->unit);
	hk_out__printf(o, "  %-*.*s", COL_CONTAINER, COL_CONTAINER,
		   wl->container_id[0] ? wl->container_id : "-");
}

static void out_row(struct hk_out *o, const struct hk_status_view *v,
		    const struct hk_status_row *r, bool evidence)
{
	const char *label = hk_label__name(r->p->hyst.label);
	struct cell c;
	size_t cols;
	__u64 s;

	hk_out__printf(o, "%*u  ", COL_PID, r->pid);
	cols = hk_out__term_text(o, r->p->comm, hk_comm__len(r->p->comm));
	if (cols < COL_COMM)
		hk_out__chars(o, ' ', COL_COMM - cols);
	out_who(o, r->wl);
	hk_out__printf(o, "  %-*s", COL_LABEL, label);

	if (hk_status_row__label_for_s(r, &v->snap->cfg, &s)) {
		if (hk_format__duration(c.s, sizeof(c.s), s) < 0)
			o->full = true;
		hk_out__printf(o, "  %*s", COL_FOR, c.s);
	} else {
		hk_out__printf(o, "  %*s", COL_FOR, "-");
	}
	hk_out__pct(cell_start(&c), r->cpu_pct_x100);
	out_right(o, &c, COL_PCT);
	hk_out__pct(cell_start(&c), r->wait_pct_x100);
	out_right(o, &c, COL_PCT);
	hk_out__bytes(cell_start(&c), r->p->ev.rss_bytes);
	out_right(o, &c, COL_RSS);
	hk_out__bytes_rate(cell_start(&c), r->rss_growth_bytes_per_s);
	out_right(o, &c, COL_RATE);
	if (!evidence)
		return;
	hk_out__str(o, "  ");
	hk_status__evidence(o, v, r, false);
}

/* "hotspot-k every 1s (driver wq): 57 windows, 175 of 4096 processes
 * tracked, 1 flagged" */
static void out_instance(struct hk_out *o, const struct hk_status_view *v)
{
	const struct hk_status_snap *s = v->snap;
	char every[32];

	hk_units__print(every, sizeof(every), HK_UNIT_DURATION_NS, s->cfg.interval_ns);
	hk_out__printf(o, "hotspot-k every %s", every);
	if (s->stats.windows)
		hk_out__printf(o, " (driver %s%s): %llu window%s",
			   hk_driver__name(s->stats.driver), s->pinned ? ", pinned" : "",
			   (unsigned long long)s->stats.windows, s->stats.windows == 1 ? "" : "s");
	else
		hk_out__printf(o, "%s: no window yet", s->pinned ? " (pinned)" : "");
	hk_out__printf(o, ", %zu", s->n);
	if (s->max_procs)
		hk_out__printf(o, " of %u", s->max_procs);
	/* "1 process", but "1 of 4096 processes" */
	hk_out__printf(o, " process%s tracked, %zu flagged",
		   s->n == 1 && !s->max_procs ? "" : "es", v->nr_flagged);
}

/* " 12.34 s: quota 11.00, self 1.34": a ledger's sum and its causes
 * above 0 (first n causes), in seconds; false when it is all 0 */
static bool out_ledger(struct hk_out *o, const __u64 *ns, __u32 n)
{
	__u64 sum = 0, cs;
	const char *sep = ": ";
	__u32 c;

	for (c = 0; c < n; c++)
		sum += ns[c] / (HK_NSEC_PER_SEC / 100);
	if (!sum)
		return false;
	hk_out__printf(o, " %llu.%02llu s", (unsigned long long)(sum / 100),
		       (unsigned long long)(sum % 100));
	for (c = 0; c < n; c++) {
		cs = ns[c] / (HK_NSEC_PER_SEC / 100);
		if (!cs)
			continue;
		hk_out__printf(o, "%s%s %llu.%02llu", sep, hk_stall__cause(c),
			       (unsigned long long)(cs / 100), (unsigned long long)(cs % 100));
		sep = ", ";
	}
	return true;
}

/*
 * The stall ledger (docs/stall-ledger.md): the node's CPU wait since the
 * start, then each flagged process's waits since the tool first saw it and
 * in its latest window; nothing while all are 0.
 */
static int write_stall(FILE *f, const struct hk_status_view *v)
{
	char buf[LINE_MAX_LEN];
	const struct hk_status_row *r;
	bool head = false;
	struct hk_out o;
	size_t i;

	hk_out__init(&o, buf, sizeof(buf));
	hk_out__str(&o, "\nnode CPU wait since the start:");
	if (out_ledger(&o, v->snap->stats.node_cpu_wait_ns, HK_STALL_CPU_NR) && put_line(f, &o))
		return -1;
	for (i = 0; i < v->nr_flagged; i++) {
		r = v->flagged[i];
		hk_out__init(&o, buf, sizeof(buf));
		hk_out__printf(&o, "%*u  ", COL_PID, r->pid);
		hk_out__term_text(&o, r->p->comm, hk_comm__len(r->p->comm));
		hk_out__str(&o, " waited");
		if (!out_ledger(&o, r->p->ev.stall_ns.ns, HK_STALL_NR))
			continue;
		if (!r->quiet) {
			hk_out__str(&o, "; last window");
			if (!out_ledger(&o, r->p->ev.stall_win.ns, HK_STALL_NR))
				hk_out__str(&o, " none");
		}
		if (!head) {
			if (fputs("\nwaited since first seen, by cause (seconds):\n", f) < 0)
				return -1;
			head = true;
		}
		if (put_line(f, &o))
			return -1;
	}
	return 0;
}

static int write_top(FILE *f, const struct hk_status_view *v, enum hk_status_top t,
		     unsigned int top_n)
{
	char buf[LINE_MAX_LEN];
	struct hk_out o;
	size_t i;

	hk_out__init(&o, buf, sizeof(buf));
	hk_out__printf(&o, "\ntop %u by %s:", top_n, hk_status_top__title(t));
	if (!v->nr_top[t])
		hk_out__str(&o, " none above 0");
	if (put_line(f, &o))
		return -1;
	if (!v->nr_top[t])
		return 0;
	hk_out__init(&o, buf, sizeof(buf));
	out_header(&o, false);
	if (put_line(f, &o))
		return -1;
	for (i = 0; i < v->nr_top[t]; i++) {
		hk_out__init(&o, buf, sizeof(buf));
		out_row(&o, v, v->top[t][i], false);
		if (put_line(f, &o))
			return -1;
	}
	return 0;
}

int hk_status__write_text(FILE *f, const struct hk_status_view *v, const struct hk_status_opts *op)
{
	char buf[LINE_MAX_LEN], cost[512];
	struct hk_out o;
	size_t i;
	int t;

	hk_out__init(&o, buf, sizeof(buf));
	out_instance(&o, v);
	if (put_line(f, &o))
		return -1;
	/* what the tool costs the host, as it last wrote it */
	if (v->snap->stats.cost.source != HK_COST_UNKNOWN) {
		hk_out__init(&o, buf, sizeof(buf));
		hk_self_cost__format(&v->snap->stats.cost, cost, sizeof(cost));
		hk_out__str(&o, cost);
		if (put_line(f, &o))
			return -1;
	}
	/* ... and against its [budget], once it judged one */
	if (hk_budget__format_use(&v->snap->stats.budget, cost, sizeof(cost)) > 0) {
		hk_out__init(&o, buf, sizeof(buf));
		hk_out__str(&o, cost);
		if (put_line(f, &o))
			return -1;
	}
	hk_out__init(&o, buf, sizeof(buf));
	if (v->nr_flagged)
		out_header(&o, true);
	else
		hk_out__str(&o, "no process flagged");
	if (put_line(f, &o))
		return -1;
	for (i = 0; i < v->nr_flagged; i++) {
		hk_out__init(&o, buf, sizeof(buf));
		out_row(&o, v, v->flagged[i], true);
		if (put_line(f, &o))
			return -1;
	}
	if (write_stall(f, v))
		return -1;
	for (t = 0; op->all && t < HK_NR_TOPS; t++)
		if (write_top(f, v, t, op->top_n))
			return -1;
	return 0;
}
