/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * symtab.h - a sorted table of functions (start, size, name) for one ELF
 * file, a perf map or the kernel: the lookup that usyms.c and
 * ksyms.c share. Names live in one pool so that a kernel's 120 k
 * symbols take two allocations, not 120 k.
 */
#ifndef HK_USER_SYMTAB_H
#define HK_USER_SYMTAB_H

#include <stddef.h>
#include <linux/types.h>

/* Which of several names at one address wins: the higher rank. */
enum hk_sym_rank {
	HK_SYM_LOCAL = 0,
	HK_SYM_WEAK = 1,
	HK_SYM_GLOBAL = 2,
};

struct hk_sym {
	__u64 addr;
	__u64 size;		/* 0: unknown, the symbol runs to the next one */
	__u32 name_off;		/* into hk_symtab.names */
	__u32 rank;
};

struct hk_symtab {
	struct hk_sym *syms;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};

/* Append a function (name_len bytes of name); 0 or -ENOMEM. */
int hk_symtab__add(struct hk_symtab *t, __u64 addr, __u64 size, const char *name,
		   size_t name_len, __u32 rank);

/*
 * Sort by address and keep one name per address: the highest rank, then
 * the fewest leading underscores ("malloc" over "__libc_malloc"), the
 * shortest, the first in byte order, so that a name is the same each run;
 * its size, or an alias's when it has none.
 */
void hk_symtab__sort(struct hk_symtab *t);

/*
 * The function containing addr: the nearest start at or below it, if its
 * size covers addr or its size is 0. NULL when none does.
 */
const char *hk_symtab__find(const struct hk_symtab *t, __u64 addr);

/* Free the arrays; the table is empty and usable again. */
void hk_symtab__free(struct hk_symtab *t);

#endif /* HK_USER_SYMTAB_H */
