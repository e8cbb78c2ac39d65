/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_hyst.h - hysteresis: how many windows in a row a diagnosis must
 * match before it becomes the label, and miss before the label goes. The
 * caller commits a label only once its transition went out, so a lost event
 * is decided again in the next window.
 */
#ifndef HK_SHARED_CLASSIFY_HYST_H
#define HK_SHARED_CLASSIFY_HYST_H

#include "hotspot.h"

/*
 * Windows in a row a match needs before it becomes the label. An OOM risk
 * rests on a trend that already spans several windows, and a Noisy
 * neighbor on a victim that entered Starved (which took its own windows):
 * neither waits again, so both sides of a pair change in the same window.
 */
static inline __u32 hk_enter_windows(const struct hk_config *c, __u32 match,
				     const struct hk_evidence *ev)
{
	if (match == HK_OOM_RISK ||
	    (match == HK_NOISY_NEIGHBOR && ev->victim_starved))
		return 1;
	return c->enter_windows;
}

/*
 * Feed one window's match; returns the label to move to (the current label
 * when nothing changes). The caller commits it with hk_hyst_commit only once
 * the transition was emitted, so a lost event is decided again next window.
 */
static inline __u32 hk_hyst_next(struct hk_hyst *h, __u32 match,
				 __u32 enter_windows, __u32 exit_windows)
{
	h->match = match;
	if (match == h->cand) {
		if (h->cand_windows < 0xffffffffU)
			h->cand_windows++;
	} else {
		h->cand = match;
		h->cand_windows = 1;
	}
	if (match == h->label) {
		h->miss_windows = 0;
		return h->label;
	}
	if (h->miss_windows < 0xffffffffU)
		h->miss_windows++;
	if (match != HK_OK && h->cand_windows >= enter_windows)
		return match;
	if (h->label != HK_OK && h->miss_windows >= exit_windows)
		return HK_OK;
	return h->label;
}

static inline void hk_hyst_commit(struct hk_hyst *h, __u32 label)
{
	if (label != h->label)
		h->miss_windows = 0;
	h->label = label;
}

/* Does this process need a window even when none of its threads ran? */
static inline int hk_needs_attention(const struct hk_proc *p)
{
	return p->hyst.label != HK_OK || p->hyst.cand != HK_OK;
}

#endif /* HK_SHARED_CLASSIFY_HYST_H */
