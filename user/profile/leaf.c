// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * leaf.c - a leaf's caller put back from the stack's top words (leaf.h).
 *
 * The words above the stack pointer are the leaf's own frame (saved
 * registers, locals) and then its callers'; a local may hold a stale
 * return address, so a word is taken only when it is just after a call,
 * and the scan stops at the first taken word out of the leaf's file: a
 * wrong frame then costs one frame, never a chain.
 */
#include <stdio.h>
#include <string.h>
#include "leaf.h"

#define NAME_LEN 160

/* the length ff's ModRM byte m gives the instruction (ff, m and what follows) */
static size_t ff_len(unsigned char m, unsigned char sib)
{
	unsigned int mod = m >> 6, rm = m & 7;

	if (mod == 3)
		return 2;
	if (mod == 0) {
		if (rm == 5)
			return 6;		/* RIP-relative disp32 */
		if (rm == 4)
			return (sib & 7) == 5 ? 7 : 3;	/* SIB, disp32 when no base */
		return 2;
	}
	if (mod == 1)
		return rm == 4 ? 4 : 3;		/* disp8 */
	return rm == 4 ? 7 : 6;			/* disp32 */
}

int hk_leaf__after_call(const unsigned char *code, size_t len, int aarch64)
{
	size_t l;
	__u32 insn;

	if (aarch64) {
		if (len < 4)
			return 0;
		memcpy(&insn, code + len - 4, 4);	/* little-endian, as Linux runs it */
		return (insn & 0xfc000000u) == 0x94000000u ||	/* bl */
		       (insn & 0xfffffc1fu) == 0xd63f0000u;	/* blr */
	}
	if (len >= 5 && code[len - 5] == 0xe8)
		return 1;
	/* call r/m64: ff /2, 2 to 7 bytes long */
	for (l = 2; l <= 7 && l <= len; l++) {
		unsigned char m = code[len - l + 1];

		if (code[len - l] == 0xff && ((m >> 3) & 7) == 2 &&
		    ff_len(m, l > 2 ? code[len - l + 2] : 0) == l)
			return 1;
	}
	return 0;
}

size_t hk_leaf__recover(const __u64 *ips, size_t n, const __u64 *words, size_t nwords,
			const struct hk_leaf_space *sp, __u64 *out)
{
	char leaf[NAME_LEN], next[NAME_LEN], taken[HK_LEAF_MAX][NAME_LEN], name[NAME_LEN];
	long leaf_mod, mod;
	size_t i, j, k = 0;
	__u64 w;

	if (!n || !nwords)
		return 0;
	leaf_mod = sp->module(sp->ctx, ips[0]);
	if (leaf_mod < 0 || (n > 1 && sp->module(sp->ctx, ips[1] - 1) == leaf_mod))
		return 0;
	sp->name(sp->ctx, ips[0], leaf, sizeof(leaf));
	next[0] = '\0';
	if (n > 1)
		sp->name(sp->ctx, ips[1] - 1, next, sizeof(next));
	for (i = 0; i < nwords && k < HK_LEAF_MAX; i++) {
		w = sp->pac ? hk_leaf__strip_pac(words[i]) : words[i];
		if (n > 1 && w == ips[1])
			break;
		if (!w || !sp->is_return(sp->ctx, w))
			continue;
		sp->name(sp->ctx, w - 1, name, sizeof(name));
		if (!strcmp(name, leaf) || !strcmp(name, next))
			continue;
		for (j = 0; j < k && strcmp(name, taken[j]); j++)
			;
		if (j < k)
			continue;
		snprintf(taken[k], sizeof(taken[k]), "%s", name);
		out[k++] = w;
		mod = sp->module(sp->ctx, w - 1);
		if (mod != leaf_mod)
			break;
	}
	return k;
}
