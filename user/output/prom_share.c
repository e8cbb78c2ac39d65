// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prom_share.c - the Prometheus file's fair shares (prom_share.h): a plan
 * of who to take out, made on a copy of the counts, so that nothing is
 * taken out unless the newcomer then fits.
 */
#include <string.h>
#include "prom_share.h"
#include "shared/hotspot.h"

void hk_prom_share__member(struct hk_prom_member *m, const struct hk_workload *wl,
			   __u32 label, size_t bytes, __u64 seq)
{
	bool known = wl && wl->owner_known;

	m->owner = known ? wl->owner_uid : HK_PROM_OWNER_UNKNOWN;
	m->reserved = (known && !wl->owner_uid) || (wl && wl->system) || label == HK_OOM_RISK;
	m->bytes = bytes;
	m->seq = seq;
}

struct totals {
	size_t n, bytes;		/* all members */
	size_t un, ubytes;		/* the members not reserved */
	size_t own_n, own_bytes;	/* the newcomer's owner's */
};

static void totals(const struct hk_prom_member *m, size_t nr, const bool *gone,
		   __u32 owner, struct totals *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nr; i++) {
		if (gone[i])
			continue;
		t->n++;
		t->bytes += m[i].bytes;
		if (!m[i].reserved) {
			t->un++;
			t->ubytes += m[i].bytes;
		}
		if (m[i].owner == owner) {
			t->own_n++;
			t->own_bytes += m[i].bytes;
		}
	}
}

/* The oldest member of owner still in (reserved ones too, or not);
 * REFUSE when it has none. */
static long oldest(const struct hk_prom_member *m, size_t nr, const bool *gone, __u32 owner,
		   bool reserved_too)
{
	long best = HK_PROM_SHARE_REFUSE;
	size_t i;

	for (i = 0; i < nr; i++)
		if (!gone[i] && m[i].owner == owner && (reserved_too || !m[i].reserved) &&
		    (best < 0 || m[i].seq < m[best].seq))
			best = (long)i;
	return best;
}

/* The owner with the most bytes in members not reserved still in (a tie:
 * the one with the oldest member) into *owner, its bytes into *most;
 * false when there is none. */
static bool largest(const struct hk_prom_member *m, size_t nr, const bool *gone,
		    __u32 *owner, size_t *most)
{
	__u64 seq = 0;
	size_t i, j, sum;

	*most = 0;
	for (i = 0; i < nr; i++) {
		if (gone[i] || m[i].reserved)
			continue;
		for (sum = 0, j = 0; j < nr; j++)
			if (!gone[j] && !m[j].reserved && m[j].owner == m[i].owner)
				sum += m[j].bytes;
		if (sum > *most || (sum == *most && m[i].seq < seq)) {
			*most = sum;
			*owner = m[i].owner;
			seq = m[i].seq;
		}
	}
	return *most > 0;
}

/* The next member to take out for c, or FITS or REFUSE. */
static long step(const struct hk_prom_member *m, size_t nr, const bool *gone,
		 const struct hk_prom_member *c)
{
	bool total_ok, pool_ok;
	struct totals t;
	size_t most;
	__u32 owner;

	totals(m, nr, gone, c->owner, &t);
	/* its owner's share: its own oldest makes room */
	if (t.own_n + 1 > HK_PROM_OWNER_PROCS_MAX ||
	    t.own_bytes + c->bytes > HK_PROM_OWNER_BYTES_MAX)
		return oldest(m, nr, gone, c->owner, true);
	total_ok = t.n + 1 <= HK_PROM_PROCS_MAX && t.bytes + c->bytes <= HK_PROM_SERIES_BYTES_MAX;
	pool_ok = t.un + 1 <= HK_PROM_PROCS_MAX - HK_PROM_RESERVED_PROCS &&
		  t.ubytes + c->bytes <= HK_PROM_SERIES_BYTES_MAX - HK_PROM_RESERVED_BYTES;
	if (total_ok && (pool_ok || c->reserved))
		return HK_PROM_SHARE_FITS;
	/* the owner with the most makes room, a member not reserved: for one
	 * reserved, or for another owner that then still has less */
	if (!largest(m, nr, gone, &owner, &most) ||
	    (!c->reserved && (owner == c->owner || most <= t.own_bytes + c->bytes)))
		return HK_PROM_SHARE_REFUSE;
	return oldest(m, nr, gone, owner, false);
}

long hk_prom_share__victim(const struct hk_prom_member *m, size_t nr,
			   const struct hk_prom_member *newcomer)
{
	bool gone[HK_PROM_PROCS_MAX] = { false };
	long first = HK_PROM_SHARE_FITS, v;

	if (nr > HK_PROM_PROCS_MAX)
		return HK_PROM_SHARE_REFUSE;
	/* each step takes one out: at most nr of them */
	for (;;) {
		v = step(m, nr, gone, newcomer);
		if (v < 0)
			return v == HK_PROM_SHARE_FITS ? first : HK_PROM_SHARE_REFUSE;
		if (first == HK_PROM_SHARE_FITS)
			first = v;
		gone[v] = true;
	}
}
