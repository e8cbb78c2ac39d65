// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * view.c - a snapshot of hk_procs put in order: every entry by PID
 * (to name peers), the flagged ones by severity, and with -a the top lists
 * by CPU, by run delay and by RSS growth.
 */
#include <errno.h>
#include <stdlib.h>
#include "view.h"
#include "shared/units.h"

static const struct {
	const char *title;
	const char *key;
} tops[HK_NR_TOPS] = {
	[HK_TOP_CPU]		= { "CPU", "top_cpu" },
	[HK_TOP_WAIT]		= { "run delay (wait)", "top_run_delay" },
	[HK_TOP_RSS_GROWTH]	= { "RSS growth", "top_rss_growth" },
};

const char *hk_status_top__title(enum hk_status_top t)
{
	return t < HK_NR_TOPS ? tops[t].title : "?";
}

const char *hk_status_top__key(enum hk_status_top t)
{
	return t < HK_NR_TOPS ? tops[t].key : "?";
}

/* Where the latest completed walk began; 0 before the first one. */
static __u64 last_walk_start_ns(const struct hk_stats *st)
{
	if (!st->windows || st->last_walk_end_ns < st->last_walk_ns)
		return 0;
	return st->last_walk_end_ns - st->last_walk_ns;
}

static void row_fill(struct hk_status_row *r, __u32 pid, const struct hk_proc *p,
		     __u64 walk_start_ns)
{
	r->pid = pid;
	r->p = p;
	/* sampled at or after the walk's start: this window's, or the walk
	 * under way's (its next) */
	r->quiet = p->sample_ns < walk_start_ns;
	r->cpu_pct_x100 = r->quiet ? 0 : p->ev.cpu_pct_x100;
	r->wait_pct_x100 = r->quiet ? 0 : p->ev.wait_pct_x100;
	r->rss_growth_bytes_per_s = r->quiet ? 0 : p->ev.rss_growth_bytes_per_s;
}

static int cmp_pid(__u32 a, __u32 b)
{
	return a < b ? -1 : a > b;
}

static int cmp_rows_pid(const void *a, const void *b)
{
	return cmp_pid(((const struct hk_status_row *)a)->pid,
		       ((const struct hk_status_row *)b)->pid);
}

static const struct hk_status_row *deref(const void *a)
{
	return *(const struct hk_status_row *const *)a;
}

/* Labels are numbered most severe first (hotspot.h). */
static int cmp_severity(const void *a, const void *b)
{
	const struct hk_status_row *x = deref(a), *y = deref(b);

	if (x->p->hyst.label != y->p->hyst.label)
		return x->p->hyst.label < y->p->hyst.label ? -1 : 1;
	return cmp_pid(x->pid, y->pid);
}

/* Highest first, then by PID: the same snapshot always prints the same. */
#define CMP_DESC(x, y, field) \
	((x)->field != (y)->field ? ((x)->field > (y)->field ? -1 : 1) : \
	 cmp_pid((x)->pid, (y)->pid))

static int cmp_cpu(const void *a, const void *b)
{
	return CMP_DESC(deref(a), deref(b), cpu_pct_x100);
}

static int cmp_wait(const void *a, const void *b)
{
	return CMP_DESC(deref(a), deref(b), wait_pct_x100);
}

static int cmp_growth(const void *a, const void *b)
{
	return CMP_DESC(deref(a), deref(b), rss_growth_bytes_per_s);
}

static bool top_has(const struct hk_status_row *r, enum hk_status_top t)
{
	switch (t) {
	case HK_TOP_CPU:
		return r->cpu_pct_x100 > 0;
	case HK_TOP_WAIT:
		return r->wait_pct_x100 > 0;
	default:
		return r->rss_growth_bytes_per_s > 0;
	}
}

static int (*const top_cmp[HK_NR_TOPS])(const void *, const void *) = {
	[HK_TOP_CPU] = cmp_cpu,
	[HK_TOP_WAIT] = cmp_wait,
	[HK_TOP_RSS_GROWTH] = cmp_growth,
};

/* The rows that rank at all, highest first, cut to top_n. */
static int build_top(struct hk_status_view *v, enum hk_status_top t,
		     unsigned int top_n)
{
	const struct hk_status_row **l;
	size_t i, n = 0;

	/* one more than the rows: never a zero-size allocation */
	l = calloc(v->n + 1, sizeof(*l));
	if (!l)
		return -1;
	for (i = 0; i < v->n; i++)
		if (top_has(&v->rows[i], t))
			l[n++] = &v->rows[i];
	qsort(l, n, sizeof(*l), top_cmp[t]);
	v->top[t] = l;
	v->nr_top[t] = n < top_n ? n : top_n;
	return 0;
}

static const struct hk_workload nobody;

/* Who a row shown is, once; false: no memory. */
static bool row_who(const struct hk_status_snap *s, struct hk_status_row *r)
{
	if (r->wl_own || !s->who)
		return true;
	r->wl_own = malloc(sizeof(*r->wl_own));
	if (!r->wl_own)
		return false;
	s->who(r->wl_own, r->pid, r->p->start_boottime_ns);
	r->wl = r->wl_own;
	return true;
}

/* The rows shown: flagged or in a top list (the others are not read: a
 * file per process, every refresh of --watch). */
static int fill_who(struct hk_status_view *v, const struct hk_status_snap *s)
{
	size_t i;
	int t;

	for (i = 0; i < v->nr_flagged; i++)
		if (!row_who(s, (struct hk_status_row *)v->flagged[i]))
			return -1;
	for (t = 0; t < HK_NR_TOPS; t++)
		for (i = 0; i < v->nr_top[t]; i++)
			if (!row_who(s, (struct hk_status_row *)v->top[t][i]))
				return -1;
	return 0;
}

int hk_status_view__build(struct hk_status_view *v, const struct hk_status_snap *s,
			  unsigned int top_n)
{
	__u64 walk_start_ns = last_walk_start_ns(&s->stats);
	size_t i;
	int t;

	*v = (struct hk_status_view){ .snap = s, .n = s->n };
	v->rows = calloc(s->n + 1, sizeof(*v->rows));
	v->flagged = calloc(s->n + 1, sizeof(*v->flagged));
	if (!v->rows || !v->flagged)
		goto fail;
	for (i = 0; i < s->n; i++) {
		row_fill(&v->rows[i], s->pids[i], &s->procs[i], walk_start_ns);
		v->rows[i].wl = &nobody;
	}
	qsort(v->rows, v->n, sizeof(*v->rows), cmp_rows_pid);
	for (i = 0; i < v->n; i++)
		if (v->rows[i].p->hyst.label != HK_OK)
			v->flagged[v->nr_flagged++] = &v->rows[i];
	qsort(v->flagged, v->nr_flagged, sizeof(*v->flagged), cmp_severity);
	for (t = 0; top_n && t < HK_NR_TOPS; t++)
		if (build_top(v, t, top_n))
			goto fail;
	if (fill_who(v, s))
		goto fail;
	return 0;
fail:
	hk_status_view__free(v);
	errno = ENOMEM;
	return -1;
}

void hk_status_view__free(struct hk_status_view *v)
{
	int t;

	size_t i;

	for (i = 0; v->rows && i < v->n; i++)
		free(v->rows[i].wl_own);
	for (t = 0; t < HK_NR_TOPS; t++)
		free(v->top[t]);
	free(v->flagged);
	free(v->rows);
	*v = (struct hk_status_view){};
}

const char *hk_status_view__comm(const struct hk_status_view *v, __u32 pid)
{
	struct hk_status_row key = { .pid = pid };
	const struct hk_status_row *r;

	if (!v->n)
		return NULL;
	r = bsearch(&key, v->rows, v->n, sizeof(*v->rows), cmp_rows_pid);
	return r ? r->p->comm : NULL;
}

bool hk_status_row__label_for_s(const struct hk_status_row *r,
				const struct hk_config *c, __u64 *s)
{
	const struct hk_hyst *h = &r->p->hyst;
	__u64 ns;

	/* the window step sets cand to each window's match: the run of
	 * matches the label rode in on, still unbroken */
	if (h->label == HK_OK || h->cand != h->label || !h->cand_windows)
		return false;
	ns = (__u64)h->cand_windows * c->interval_ns;
	*s = ns / HK_NSEC_PER_SEC + (ns % HK_NSEC_PER_SEC >= HK_NSEC_PER_SEC / 2);
	return true;
}
