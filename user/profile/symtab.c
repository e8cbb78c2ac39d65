// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * symtab.c - a sorted table of functions (see symtab.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/grow.h"
#include "symtab.h"

int hk_symtab__add(struct hk_symtab *t, __u64 addr, __u64 size, const char *name,
		   size_t name_len, __u32 rank)
{
	struct hk_sym *s;

	/* name offsets are 32-bit: 4 GiB of names is no real file */
	if (t->names_len + name_len + 1 > 0xffffffffULL)
		return -ENOMEM;
	if (hk_array__grow((void **)&t->syms, &t->cap, t->n + 1, sizeof(*t->syms)) ||
	    hk_array__grow((void **)&t->names, &t->names_cap, t->names_len + name_len + 1, 1))
		return -ENOMEM;
	s = &t->syms[t->n++];
	s->addr = addr;
	s->size = size;
	s->name_off = (__u32)t->names_len;
	s->rank = rank;
	memcpy(t->names + t->names_len, name, name_len);
	t->names[t->names_len + name_len] = '\0';
	t->names_len += name_len + 1;
	return 0;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

static int sym_cmp(const void *pa, const void *pb, void *names)
{
	const struct hk_sym *a = pa, *b = pb;
	const char *na = (char *)names + a->name_off, *nb = (char *)names + b->name_off;
	size_t ua, ub, la, lb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	ua = underscores(na);
	ub = underscores(nb);
	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(na);
	lb = strlen(nb);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(na, nb);
}

void hk_symtab__sort(struct hk_symtab *t)
{
	size_t i, out = 0;

	if (!t->n)
		return;
	qsort_r(t->syms, t->n, sizeof(*t->syms), sym_cmp, t->names);
	/* the first name at an address wins, with an alias's size if it has none */
	for (i = 1; i < t->n; i++) {
		if (t->syms[i].addr == t->syms[out].addr) {
			if (!t->syms[out].size)
				t->syms[out].size = t->syms[i].size;
			continue;
		}
		t->syms[++out] = t->syms[i];
	}
	t->n = out + 1;
}

const char *hk_symtab__find(const struct hk_symtab *t, __u64 addr)
{
	size_t lo = 0, hi = t->n;
	const struct hk_sym *s;

	/* the first start above addr; the one before it is the candidate */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->syms[lo - 1];
	if (s->size && addr - s->addr >= s->size)
		return NULL;
	return t->names + s->name_off;
}

void hk_symtab__free(struct hk_symtab *t)
{
	free(t->syms);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
