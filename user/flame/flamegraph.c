// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * flamegraph.c - stacks merged into a tree of frames, and the folded
 * output (see flamegraph.h).
 *
 * A node is one frame at one place in the call tree; its children are kept
 * sorted so that adding a stack is a binary search per frame, and an
 * off-CPU stack is the same stack with one more node, "[off-cpu]", so that
 * both kinds share their frames.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph.h"
#include "frame_name.h"
#include "lib/grow.h"
#include "tree.h"

static struct hk_flame_node *node_new(const char *name)
{
	size_t len = strlen(name);
	struct hk_flame_node *n = calloc(1, sizeof(*n) + len + 1);

	if (n) {
		memcpy(n->name, name, len + 1);
		n->len = len;
	}
	return n;
}

void hk_flame_node__free(struct hk_flame_node *n)
{
	size_t i;

	for (i = 0; i < n->nkids; i++)
		hk_flame_node__free(n->kids[i]);
	free(n->kids);
	free(n);
}

struct hk_flame *hk_flame__new(void)
{
	struct hk_flame *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->root = node_new("all");
	if (!f->root) {
		free(f);
		return NULL;
	}
	return f;
}

void hk_flame__free(struct hk_flame *f)
{
	if (!f)
		return;
	hk_flame_node__free(f->root);
	free(f->scratch);
	free(f);
}

/* name cleaned into f->scratch; NULL on ENOMEM */
static const char *clean(struct hk_flame *f, const char *name)
{
	size_t len = strlen(name);

	if (hk_array__grow((void **)&f->scratch, &f->scratch_cap, len + 1, 1))
		return NULL;
	memcpy(f->scratch, name, len + 1);
	hk_frame_name__clean(f->scratch);
	return f->scratch;
}

struct hk_flame_node *hk_flame_node__kid(struct hk_flame_node *parent, const char *name)
{
	size_t lo = 0, hi = parent->nkids;
	struct hk_flame_node *n;
	int c;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		c = strcmp(parent->kids[mid]->name, name);
		if (!c)
			return parent->kids[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (hk_array__grow((void **)&parent->kids, &parent->kids_cap, parent->nkids + 1,
		    sizeof(*parent->kids)))
		return NULL;
	n = node_new(name);
	if (!n)
		return NULL;
	memmove(parent->kids + lo + 1, parent->kids + lo,
		(parent->nkids - lo) * sizeof(*parent->kids));
	parent->kids[lo] = n;
	parent->nkids++;
	return n;
}

int hk_flame__add(struct hk_flame *f, const char *const *frames, size_t n,
		  __u64 weight_us, int off_cpu)
{
	static const char *const unknown[] = { "[unknown]" };
	struct hk_flame_node *path[HK_FLAME_MAX_DEPTH + 2];	/* root, frames, [off-cpu] */
	size_t i, depth = 0;
	const char *name;

	if (!weight_us)
		return 0;
	if (!n) {
		frames = unknown;
		n = 1;
	}
	/* deeper than any real stack: keep the leaf end, where time is spent */
	if (n > HK_FLAME_MAX_DEPTH) {
		frames += n - HK_FLAME_MAX_DEPTH;
		n = HK_FLAME_MAX_DEPTH;
	}
	path[depth++] = f->root;
	/* the whole path first: on ENOMEM no total has been touched */
	for (i = 0; i < n + !!off_cpu; i++) {
		name = i < n ? frames[i] : HK_FLAME_OFF_CPU;
		name = clean(f, name && *name ? name : "[unknown]");
		if (!name)
			return -ENOMEM;
		path[depth] = hk_flame_node__kid(path[depth - 1], name);
		if (!path[depth])
			return -ENOMEM;
		depth++;
	}
	for (i = 0; i < depth; i++) {
		if (off_cpu)
			path[i]->off_us += weight_us;
		else
			path[i]->on_us += weight_us;
	}
	path[depth - 1]->self_us += weight_us;
	return 0;
}

__u64 hk_flame__total_us(const struct hk_flame *f, int off_cpu)
{
	return off_cpu ? f->root->off_us : f->root->on_us;
}

static __u64 frame_us(const struct hk_flame_node *n, const char *name, int off_cpu)
{
	__u64 sum = 0;
	size_t i;

	for (i = 0; i < n->nkids; i++) {
		if (!strcmp(n->kids[i]->name, name))
			sum += off_cpu ? n->kids[i]->off_us : n->kids[i]->on_us;
		else
			sum += frame_us(n->kids[i], name, off_cpu);
	}
	return sum;
}

__u64 hk_flame__frame_us(const struct hk_flame *f, const char *name, int off_cpu)
{
	char *cleaned = strdup(name);
	__u64 sum;

	if (!cleaned)
		return 0;
	hk_frame_name__clean(cleaned);
	sum = frame_us(f->root, cleaned, off_cpu);
	free(cleaned);
	return sum;
}

/* --- output --------------------------------------------------------- */

void hk_flame_out__printf(struct hk_flame_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->err)
		return;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->err = errno ? -errno : -EIO;
	va_end(ap);
}

void hk_flame_out__str(struct hk_flame_out *o, const char *s)
{
	if (!o->err && fputs(s, o->f) == EOF)
		o->err = errno ? -errno : -EIO;
}

int hk_flame_out__finish(struct hk_flame_out *o)
{
	if (!o->err && (fflush(o->f) || ferror(o->f)))
		o->err = errno ? -errno : -EIO;
	return o->err;
}
