/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * tree.h - inside struct hk_flame: the merged tree of stacks
 * (flamegraph.c) that the SVG writer (svg.c) draws, and
 * the writer both outputs share, which keeps the first write error.
 */
#ifndef HK_USER_FLAME_TREE_H
#define HK_USER_FLAME_TREE_H

#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct hk_flame_node {
	struct hk_flame_node **kids;	/* sorted by name, strcmp */
	size_t nkids, kids_cap;
	__u64 on_us, off_us;	/* this frame and all it called */
	__u64 self_us;		/* stacks ending here: one folded line */
	size_t len;		/* strlen(name) */
	char name[];		/* cleaned (frame_name.h) */
};

struct hk_flame {
	struct hk_flame_node *root;	/* "all" */
	char *scratch;			/* a frame being cleaned */
	size_t scratch_cap;
};

/* The child of parent named name (cleaned), made if new, kept sorted;
 * NULL on ENOMEM. */
struct hk_flame_node *hk_flame_node__kid(struct hk_flame_node *parent, const char *name);

/* n and all below it. */
void hk_flame_node__free(struct hk_flame_node *n);

static inline __u64 hk_flame_node__us(const struct hk_flame_node *n)
{
	return n->on_us + n->off_us;
}

/* Output that stops at the first error and remembers it. */
struct hk_flame_out {
	FILE *f;
	int err;	/* 0 or -errno */
};

void hk_flame_out__printf(struct hk_flame_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hk_flame_out__str(struct hk_flame_out *o, const char *s);
/* Flush; 0 or the first error, as -errno. */
int hk_flame_out__finish(struct hk_flame_out *o);

#endif /* HK_USER_FLAME_TREE_H */
