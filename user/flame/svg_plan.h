/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * svg_plan.h - which frames the SVG writer (svg.c) draws: those at least
 * MIN_FRAME_PX wide, and, within HK_FLAME_SVG_MAX_FRAMES and
 * HK_FLAME_SVG_MAX_BYTES (flamegraph.h), the heaviest (cap.c finds the
 * weight under which none is).
 */
#ifndef HK_USER_FLAME_SVG_PLAN_H
#define HK_USER_FLAME_SVG_PLAN_H

#include "tree.h"

#define HK_FLAME_SVG_MIN_FRAME_PX	0.1
/* a name is written twice (title, label), each byte as at most 6
 * ("&quot;"; a byte outside UTF-8 as U+FFFD's 3) */
#define HK_FLAME_SVG_BYTES_PER_NAME_BYTE	12

struct hk_flame_svg_plan {
	const struct hk_flame_node *root;
	double px_per_us;
	__u64 frame_bytes;	/* the most a frame writes but its name */
	__u64 frames_max_bytes;	/* what the frames may write in all */
	__u64 min_us;		/* lighter frames are not drawn: the caps */
};

static inline int hk_flame_svg_plan__drawn(const struct hk_flame_svg_plan *p,
					   const struct hk_flame_node *n, __u64 min_us)
{
	__u64 us = hk_flame_node__us(n);

	return us && us >= min_us && (double)us * p->px_per_us >= HK_FLAME_SVG_MIN_FRAME_PX;
}

/* p->min_us for p's other fields: 0 when every frame wide enough fits. */
void hk_flame_svg_plan__min_us(struct hk_flame_svg_plan *p);

#endif /* HK_USER_FLAME_SVG_PLAN_H */
