/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mem_blame.c - the pure part of memory-pressure blame (mem_blame.h): the
 * candidates under one limit, and each grower's share of its growth.
 * Integer arithmetic only: shares are floored x100, never over 100 %
 * summed.
 */
#include <stdlib.h>
#include <string.h>
#include "shared/units.h"
#include "mem_blame.h"

/* Whether a ranks before b: more growth, or as much and a lower TGID. */
static int ranks_before(const struct hk_blame_cand *a, const struct hk_grower *b)
{
	__u64 g = (__u64)a->growth_bytes;

	return g > b->growth_bytes || (g == b->growth_bytes && a->tgid < b->tgid);
}

/* A share of total in hundredths of a percent, floored. part <= total;
 * past 2^50 bytes both are scaled down first, so that part * 10000 fits
 * 64 bits (a grown total that large is not a real machine's). */
static __u32 share_x100(__u64 part, __u64 total)
{
	while (total >> 50) {
		part >>= 1;
		total >>= 1;
	}
	return total ? (__u32)(part * 10000 / total) : 0;
}

__u32 hk_mem_blame__shares(const struct hk_blame_cand *c, size_t n,
			   __u64 min_growth_bytes, struct hk_mem_blame *b)
{
	__u64 grown = 0;
	__s64 net = 0;
	size_t i;
	__u32 k, j;

	b->n = 0;
	for (i = 0; i < n; i++) {
		net += c[i].growth_bytes;
		if (c[i].growth_bytes > 0)
			grown += (__u64)c[i].growth_bytes;
	}
	b->limit_growth_bytes = net;
	if (net < 0 || (__u64)net < min_growth_bytes || !grown)
		return 0;
	/* insertion into the top HK_GROWERS: n is capped by the caller */
	for (i = 0; i < n; i++) {
		if (c[i].growth_bytes <= 0)
			continue;
		for (k = 0; k < b->n && !ranks_before(&c[i], &b->g[k]); k++)
			;
		if (k >= HK_GROWERS)
			continue;
		j = b->n < HK_GROWERS ? b->n : HK_GROWERS - 1;
		for (; j > k; j--)
			b->g[j] = b->g[j - 1];
		b->g[k].tgid = c[i].tgid;
		b->g[k].growth_bytes = (__u64)c[i].growth_bytes;
		memcpy(b->g[k].comm, c[i].comm, HK_COMM_LEN);
		if (b->n < HK_GROWERS)
			b->n++;
	}
	for (k = 0; k < b->n; k++)
		b->g[k].share_pct_x100 = share_x100(b->g[k].growth_bytes, grown);
	return b->n;
}

static int cmp_id(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

void hk_mem_blame__sort_ids(__u64 *ids, size_t n)
{
	if (n > 1)
		qsort(ids, n, sizeof(*ids), cmp_id);
}

int hk_mem_blame__in_scope(const struct hk_blame_scope *s, __u64 memcg_id)
{
	if (s->all)
		return 1;
	return memcg_id && s->nr_ids &&
	       bsearch(&memcg_id, s->ids, s->nr_ids, sizeof(*s->ids), cmp_id) != NULL;
}

size_t hk_mem_blame__cands(const __u32 *pids, const struct hk_proc *procs, size_t n,
			   const struct hk_blame_scope *s, __u64 newest_ns,
			   struct hk_blame_cand *out, size_t cap, __u64 *cut)
{
	const struct hk_evidence *ev;
	size_t i, k = 0;
	__u64 ms;

	*cut = 0;
	for (i = 0; i < n; i++) {
		ev = &procs[i].ev;
		/* sampled in the walk of newest_ns, or it is an old window */
		if (procs[i].sample_ns + ev->window_ns / 2 < newest_ns ||
		    !hk_mem_blame__in_scope(s, ev->memcg_id))
			continue;
		if (k >= cap) {
			(*cut)++;
			continue;
		}
		/* bytes/s x ms: fits 64 bits up to 1 TB/s over 2 h */
		ms = ev->window_ns / HK_NSEC_PER_MSEC;
		out[k].tgid = pids[i];
		out[k].growth_bytes = ev->rss_growth_bytes_per_s < 0 ?
			-(__s64)((__u64)-ev->rss_growth_bytes_per_s * ms / 1000) :
			(__s64)((__u64)ev->rss_growth_bytes_per_s * ms / 1000);
		memcpy(out[k].comm, procs[i].comm, HK_COMM_LEN);
		k++;
	}
	return k;
}
