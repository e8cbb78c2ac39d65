// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * cap.c - what a flame graph may write (flamegraph.h): the folded file
 * fitted to its bytes by merging the lightest subtrees, and the weight
 * under which the SVG draws nothing, for its frames and bytes.
 *
 * Both are a threshold on a frame's weight: a child is kept when it
 * weighs at least min_us, and a kept frame's children are all lighter
 * than it, so what is kept is a tree from the root. The cost of a
 * threshold is bounded from above by walking only what it keeps; the
 * least threshold that fits is found by bisection (at most 64 walks).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph.h"
#include "svg_plan.h"
#include "tree.h"

/* " COUNT\n" at its longest: 20 digits */
#define LINE_TAIL	22
/* ";[other]" and ";[other];[off-cpu]" */
#define OTHER_ON	(1 + sizeof(HK_FLAME_OTHER) - 1)
#define OTHER_OFF	(OTHER_ON + 1 + sizeof(HK_FLAME_OFF_CPU) - 1)

/* Kept at min_us: heavy enough, and not a frame named like the merged
 * one (such a frame is merged into it, so that names stay unique). */
static int keep(const struct hk_flame_node *k, __u64 min_us)
{
	return !min_us || (hk_flame_node__us(k) >= min_us && strcmp(k->name, HK_FLAME_OTHER));
}

/* Folded bytes of the lines at and below n, n's own path pathlen bytes
 * long ("a;b;n", 0 for the root, which no line names). */
static __u64 folded_cost(const struct hk_flame_node *n, __u64 min_us, size_t pathlen)
{
	__u64 sum = n->self_us ? pathlen + LINE_TAIL : 0, on = 0, off = 0;
	size_t i;

	for (i = 0; i < n->nkids; i++) {
		const struct hk_flame_node *k = n->kids[i];

		if (keep(k, min_us)) {
			sum += folded_cost(k, min_us, pathlen + !!pathlen + k->len);
		} else {
			on += k->on_us;
			off += k->off_us;
		}
	}
	if (on)
		sum += pathlen + OTHER_ON + LINE_TAIL;
	if (off)
		sum += pathlen + OTHER_OFF + LINE_TAIL;
	return sum;
}

static size_t count(const struct hk_flame_node *n)
{
	size_t i, sum = 1;

	for (i = 0; i < n->nkids; i++)
		sum += count(n->kids[i]);
	return sum;
}

/* The children of n lighter than min_us into one; frames removed, or
 * -ENOMEM (the tree then lacks weight: not to be written). */
static long merge(struct hk_flame_node *n, __u64 min_us)
{
	struct hk_flame_node *other, *off_node;
	__u64 on = 0, off = 0;
	size_t i, kept = 0;
	long gone = 0, r;

	for (i = 0; i < n->nkids; i++) {
		struct hk_flame_node *k = n->kids[i];

		if (keep(k, min_us)) {
			r = merge(k, min_us);
			if (r < 0)
				return r;
			gone += r;
			n->kids[kept++] = k;
			continue;
		}
		on += k->on_us;
		off += k->off_us;
		gone += (long)count(k);
		hk_flame_node__free(k);
	}
	n->nkids = kept;
	if (!on && !off)
		return gone;
	other = hk_flame_node__kid(n, HK_FLAME_OTHER);
	if (!other)
		return -ENOMEM;
	other->on_us = on;
	other->off_us = off;
	other->self_us = on;
	gone--;
	if (off) {
		off_node = hk_flame_node__kid(other, HK_FLAME_OFF_CPU);
		if (!off_node)
			return -ENOMEM;
		off_node->off_us = off_node->self_us = off;
		gone--;
	}
	return gone;
}

/* The least weight in [1, hi] at which fits(min_us) holds, hi if none. */
static __u64 least_fitting(__u64 hi, int (*fits)(const void *ctx, __u64 min_us),
			   const void *ctx)
{
	__u64 lo = 0, mid;

	while (lo + 1 < hi) {
		mid = lo + (hi - lo) / 2;
		if (fits(ctx, mid))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

struct folded_fit {
	const struct hk_flame_node *root;
	__u64 max_bytes;
};

static int folded_fits(const void *ctx, __u64 min_us)
{
	const struct folded_fit *c = ctx;

	return folded_cost(c->root, min_us, 0) <= c->max_bytes;
}

long hk_flame__cap_folded(struct hk_flame *f, __u64 max_bytes)
{
	struct folded_fit c = { .root = f->root, .max_bytes = max_bytes };

	if (folded_fits(&c, 0))
		return 0;
	/* past the root's weight every child of the root is merged: a line
	 * or two, which fits any cap worth the name */
	return merge(f->root, least_fitting(hk_flame_node__us(f->root) + 1, folded_fits, &c));
}

/* --- the SVG --------------------------------------------------------- */

struct svg_cost {
	size_t frames;
	__u64 bytes;
};

static void svg_cost(const struct hk_flame_svg_plan *p, const struct hk_flame_node *n,
		     __u64 min_us, struct svg_cost *c)
{
	size_t i;

	if (!hk_flame_svg_plan__drawn(p, n, min_us) || c->frames > HK_FLAME_SVG_MAX_FRAMES)
		return;
	c->frames++;
	c->bytes += p->frame_bytes + HK_FLAME_SVG_BYTES_PER_NAME_BYTE * n->len;
	for (i = 0; i < n->nkids; i++)
		svg_cost(p, n->kids[i], min_us, c);
}

static int svg_fits(const void *ctx, __u64 min_us)
{
	const struct hk_flame_svg_plan *p = ctx;
	struct svg_cost c = {};

	svg_cost(p, p->root, min_us, &c);
	return c.frames <= HK_FLAME_SVG_MAX_FRAMES && c.bytes <= p->frames_max_bytes;
}

void hk_flame_svg_plan__min_us(struct hk_flame_svg_plan *p)
{
	p->min_us = svg_fits(p, 0) ? 0 : least_fitting(hk_flame_node__us(p->root) + 1,
							   svg_fits, p);
}
