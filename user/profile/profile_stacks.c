// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile_stacks.c - a profile's counts and stacks out of the BPF maps
 * (see profile_stacks.h).
 *
 * This runs in the tool's event loop, between two events: its cost is
 * bounded by the maps' sizes (HK_PROF_KEYS keys, HK_PROF_STACKS stacks of
 * HK_PROF_DEPTH frames: at most ~50 k bpf() calls and 16 MiB), whatever
 * the process did. What takes time with hostile input (reading its files
 * for names) comes after, in a child.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "lib/grow.h"
#include "profile_stacks.h"

/* The keys of pid, copied out first: deleting while iterating skips keys. */
static int keys_of(int counts_fd, __u32 pid, struct hk_profile_stacks *st)
{
	struct hk_prof_key key, next;
	void *prev = NULL;
	size_t n = 0, cap = 0;

	while (n < HK_PROF_KEYS && !bpf_map_get_next_key(counts_fd, prev, &next)) {
		if (next.tgid == pid) {
			if (hk_array__grow((void **)&st->counts, &cap, n + 1, sizeof(*st->counts)))
				return -ENOMEM;
			st->counts[n++].key = next;
		}
		key = next;
		prev = &key;
	}
	st->n = n;
	return 0;
}

static int trace_cmp(const void *a, const void *b)
{
	const struct hk_prof_trace *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static struct hk_prof_trace *find_trace(const struct hk_profile_stacks *st, __s32 id)
{
	struct hk_prof_trace want = { .id = id };

	if (!st->ntraces)
		return NULL;
	return bsearch(&want, st->traces, st->ntraces, sizeof(want), trace_cmp);
}

struct taking {
	unsigned char seen[(HK_PROF_STACKS + 7) / 8];	/* ids copied already */
	size_t cap, ips_cap;
};

/* Copy stack id out of the map, once. 0 or -ENOMEM. */
static int copy_trace(struct hk_profile_stacks *st, struct taking *tk, int stack_fd, __s32 id)
{
	__u64 ips[HK_PROF_DEPTH] = {};
	struct hk_prof_trace *t;
	__u32 n;

	/* ids are slots of the stack map: below its size */
	if (id < 0 || id >= HK_PROF_STACKS || (tk->seen[id / 8] & (1 << (id % 8))))
		return 0;
	tk->seen[id / 8] |= (unsigned char)(1 << (id % 8));
	if (bpf_map_lookup_elem(stack_fd, &id, ips))
		return 0;
	for (n = 0; n < HK_PROF_DEPTH && ips[n]; n++)
		;
	if (hk_array__grow((void **)&st->traces, &tk->cap, st->ntraces + 1,
			   sizeof(*st->traces)) ||
	    hk_array__grow((void **)&st->ips, &tk->ips_cap, st->nips + n + 1, sizeof(*st->ips)))
		return -ENOMEM;
	memcpy(st->ips + st->nips, ips, n * sizeof(*ips));
	t = &st->traces[st->ntraces++];
	t->id = id;
	t->n = n;
	t->at = st->nips;
	st->nips += n;
	return 0;
}

/* Delete the user stacks of st that no key left in the map names. */
static void release_user_stacks(const struct hk_profile_stacks *st, int counts_fd,
				int stack_fd)
{
	unsigned char *named = calloc((HK_PROF_STACKS + 7) / 8, 1);
	struct hk_prof_key key, next;
	void *prev = NULL;
	__s32 id;
	size_t i;

	if (!named)
		return;
	while (!bpf_map_get_next_key(counts_fd, prev, &next)) {
		id = next.user_stack;
		if (id >= 0 && id < HK_PROF_STACKS)
			named[id / 8] |= (unsigned char)(1 << (id % 8));
		key = next;
		prev = &key;
	}
	for (i = 0; i < st->n; i++) {
		id = st->counts[i].key.user_stack;
		if (id < 0 || id >= HK_PROF_STACKS || (named[id / 8] & (1 << (id % 8))))
			continue;
		bpf_map_delete_elem(stack_fd, &id);
		/* once */
		named[id / 8] |= (unsigned char)(1 << (id % 8));
	}
	free(named);
}

int hk_profile_stacks__take(struct hk_profile_stacks *st, int counts_fd, int stack_fd,
			    int tops_fd, __u32 pid)
{
	struct taking *tk = calloc(1, sizeof(*tk));
	size_t i, out = 0;
	int err;

	memset(st, 0, sizeof(*st));
	err = tk ? keys_of(counts_fd, pid, st) : -ENOMEM;
	for (i = 0; !err && i < st->n; i++) {
		struct hk_prof_count *c = &st->counts[i];

		if (bpf_map_lookup_elem(counts_fd, &c->key, &c->value))
			continue;
		bpf_map_delete_elem(counts_fd, &c->key);
		memset(&c->top, 0, sizeof(c->top));
		if (tops_fd >= 0 && !bpf_map_lookup_elem(tops_fd, &c->key, &c->top))
			bpf_map_delete_elem(tops_fd, &c->key);
		err = copy_trace(st, tk, stack_fd, c->key.user_stack);
		if (!err)
			err = copy_trace(st, tk, stack_fd, c->key.kern_stack);
		st->counts[out++] = *c;
	}
	free(tk);
	if (err) {
		hk_profile_stacks__free(st);
		return err;
	}
	st->n = out;
	if (st->ntraces)
		qsort(st->traces, st->ntraces, sizeof(*st->traces), trace_cmp);
	release_user_stacks(st, counts_fd, stack_fd);
	return 0;
}

const __u64 *hk_profile_stacks__trace(const struct hk_profile_stacks *st, __s32 id,
				      __u32 *n)
{
	const struct hk_prof_trace *t = id < 0 ? NULL : find_trace(st, id);

	*n = t ? t->n : 0;
	return t ? st->ips + t->at : NULL;
}

void hk_profile_stacks__free(struct hk_profile_stacks *st)
{
	free(st->counts);
	free(st->traces);
	free(st->ips);
	memset(st, 0, sizeof(*st));
}

int hk_profile_stacks__keys_per_tgid(int counts_fd, const __u32 *tgids, size_t n,
				     __u64 *keys)
{
	struct hk_prof_key key, next;
	void *prev = NULL;
	size_t i;

	memset(keys, 0, n * sizeof(*keys));
	while (!bpf_map_get_next_key(counts_fd, prev, &next)) {
		for (i = 0; i < n; i++)
			if (tgids[i] && next.tgid == tgids[i])
				keys[i]++;
		key = next;
		prev = &key;
	}
	return 0;
}
