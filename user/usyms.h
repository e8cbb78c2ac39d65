/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * usyms.h - inside struct hk_usyms: the mappings of /proc/PID/maps and
 * the files behind them, each file's symbols read on first use
 * (user/symbolize.c), and the readers of those symbols (user/usym_load.c).
 */
#ifndef HK_USER_USYMS_H
#define HK_USER_USYMS_H

#include <linux/types.h>
#include "elf_syms.h"
#include "symtab.h"

enum hk_umod_kind {
	HK_UMOD_FILE,		/* a path: an ELF file, or not */
	HK_UMOD_VDSO,		/* [vdso]: an ELF image in memory only */
	HK_UMOD_LABEL,		/* [heap], [stack], [anon:NAME], anon_inode:... */
};

/* What a symbol table is: not read yet, read, or not to be had. */
enum hk_load_state {
	HK_LOAD_NOT_YET = 0,
	HK_LOAD_DONE = 1,
	HK_LOAD_FAILED = -1,
};

/* One file (or labelled memory) that one or more mappings show. */
struct hk_umod {
	char *path;		/* as maps shows it, " (deleted)" cut */
	__u64 dev, inode;
	int kind;		/* enum hk_umod_kind */
	int state;		/* enum hk_load_state */
	struct hk_elf_syms elf;
};

struct hk_umap {
	__u64 start, end, pgoff;
	long mod;		/* index into hk_usyms.mods, -1: anonymous */
};

struct hk_usyms {
	int pid;
	struct hk_umap *maps;
	size_t nmaps, maps_cap;
	struct hk_umod *mods;
	size_t nmods, mods_cap;
	int perfmap_state;	/* enum hk_load_state */
	struct hk_symtab perfmap;	/* JIT functions, absolute addresses */
};

/* Read mod's symbols through map, one of its mappings; sets mod->state. */
void hk_umod__load(const struct hk_usyms *s, struct hk_umod *mod,
		   const struct hk_umap *map);

/* Read the process's /tmp/perf-PID.map; sets s->perfmap_state. */
void hk_usyms__load_perfmap(struct hk_usyms *s);

#endif /* HK_USER_USYMS_H */
