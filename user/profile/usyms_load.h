/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * usyms_load.h - inside struct hk_usyms: the mappings of /proc/PID/maps
 * and the files behind them, and the readers of those files' symbols
 * (usyms_load.c). Below usyms.h: usyms.c parses the maps and names
 * addresses, and reads a file's symbols through these on first use.
 */
#ifndef HK_USER_USYMS_LOAD_H
#define HK_USER_USYMS_LOAD_H

#include <stdio.h>
#include <linux/types.h>
#include "elf_syms.h"
#include "symbolize.h"
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
	int exec;		/* mapped executable ('x') */
};

/* What the caps left out (hk_usyms__cuts says it). */
struct hk_usyms_cut {
	int maps_unread;	/* maps read up to the cap on mappings */
	__u64 maps;		/* mappings past the caps on files: not kept */
	__u64 perfmap_size;	/* the perf map's size, when cut by bytes */
	int perfmap_lines;	/* cut by lines */
	__u64 long_lines;	/* perf map lines over the length cap */
	__u64 big_files;	/* symbol sections over the cap: not read */
	char big_file[64];	/* the first one's name */
	__u64 unread_files;	/* not read: the symbol budget was spent */
};

struct hk_usyms {
	int pid;
	const struct hk_pidref *ref;	/* NULL: reads are not checked */
	struct hk_usyms_limits lim;
	struct hk_umap *maps;
	size_t nmaps, maps_cap;
	struct hk_umod *mods;
	size_t nmods, mods_cap;
	__u32 *mod_hash;	/* open addressing: index + 1 into mods, 0 empty */
	size_t hash_size;	/* a power of two, at least twice nmods */
	size_t path_bytes;
	size_t sym_bytes;	/* symbol tables held, all files */
	int perfmap_state;	/* enum hk_load_state */
	struct hk_symtab perfmap;	/* JIT functions, absolute addresses */
	struct hk_usyms_cut cut;
	int same_mnt;		/* in the tool's mount namespace when opened: its
				 * paths are the tool's, even once it exited */
	long code_mod;		/* 1 + the file code_fd reads (hk_usyms__code);
				 * 0: none open (a zeroed struct has none) */
	int code_fd;
};

/* Does the process see the files the tool sees at the same paths? */
int hk_usyms__same_mnt_ns(const struct hk_usyms *s);

/* Whether what was just read of /proc/PID was the process's (s->ref). */
int hk_usyms__held(const struct hk_usyms *s);

/* The mapping holding addr; NULL: none. */
const struct hk_umap *hk_usyms__find_map(const struct hk_usyms *s, __u64 addr);

/* Read mod's symbols through map, one of its mappings; sets mod->state. */
void hk_umod__load(struct hk_usyms *s, struct hk_umod *mod, const struct hk_umap *map);

/* Read the process's /tmp/perf-PID.map; sets s->perfmap_state. */
void hk_usyms__load_perfmap(struct hk_usyms *s);

/*
 * The perf map's lines, "START SIZE NAME" in hex, NAME to the end of the
 * line, later lines winning, from fd, within s's caps (noted in s->cut);
 * size: the file's, for the note. 0 or -ENOMEM.
 */
int hk_usyms__read_perfmap(struct hk_usyms *s, int fd, __u64 size);

#endif /* HK_USER_USYMS_LOAD_H */
