// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * folded.c - the tree as folded stacks, "root;...;leaf COUNT", in
 * byte order (see flamegraph.h).
 *
 * The tree's own order (each level by name) is not byte order: "foo"'s
 * line sorts before "foo.cold"'s and its callees' after them ("foo 5",
 * "foo.cold 2", "foo;bar 1", as ' ' < '.' < ';'). So each level sorts its
 * lines and its subtrees together, a name followed by ' ' for the line
 * that ends there and by ';' for the lines that go on: the file comes out
 * sorted without holding it in memory. Frames hold neither ' ' nor ';'.
 */
#include <errno.h>
#include <stdlib.h>
#include "flamegraph.h"
#include "tree.h"

struct folded {
	struct hk_flame_out out;
	/* the frames above the current level; one more for [off-cpu] */
	const struct hk_flame_node *path[HK_FLAME_MAX_DEPTH + 1];
};

/* The line that ends at n (self), or all the lines that go on past it. */
struct entry {
	const struct hk_flame_node *n;
	int self;
};

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	const unsigned char *x = (const unsigned char *)a->n->name;
	const unsigned char *y = (const unsigned char *)b->n->name;
	int cx, cy;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	cx = *x ? *x : (a->self ? ' ' : ';');
	cy = *y ? *y : (b->self ? ' ' : ';');
	return cx - cy;
}

static void write_line(struct folded *w, size_t depth, __u64 count_us)
{
	size_t i;

	for (i = 0; i <= depth; i++) {
		if (i)
			hk_flame_out__str(&w->out, ";");
		hk_flame_out__str(&w->out, w->path[i]->name);
	}
	hk_flame_out__printf(&w->out, " %llu\n", (unsigned long long)count_us);
}

/* The lines below parent, whose children go at path[depth]. */
static void write_below(struct folded *w, const struct hk_flame_node *parent, size_t depth)
{
	struct entry *e;
	size_t i, n = 0;

	if (!parent->nkids || w->out.err)
		return;
	e = calloc(2 * parent->nkids, sizeof(*e));
	if (!e) {
		w->out.err = -ENOMEM;
		return;
	}
	for (i = 0; i < parent->nkids; i++) {
		if (parent->kids[i]->self_us)
			e[n++] = (struct entry){ parent->kids[i], 1 };
		if (parent->kids[i]->nkids)
			e[n++] = (struct entry){ parent->kids[i], 0 };
	}
	qsort(e, n, sizeof(*e), entry_cmp);
	for (i = 0; i < n && !w->out.err; i++) {
		w->path[depth] = e[i].n;
		if (e[i].self)
			write_line(w, depth, e[i].n->self_us);
		else
			write_below(w, e[i].n, depth + 1);
	}
	free(e);
}

int hk_flame__write_folded(const struct hk_flame *f, FILE *out)
{
	struct folded *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	w->out.f = out;
	write_below(w, f->root, 0);
	err = hk_flame_out__finish(&w->out);
	free(w);
	return err;
}
