// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * symbolize.c - a process's instruction addresses to function names.
 *
 * open reads /proc/PID/maps once: every mapping, sorted as the kernel
 * gives them, each pointing at the file (module) it shows. A name costs a
 * binary search for the mapping; the module's symbols are read the first
 * time one of its addresses is asked for, and kept until close (one
 * libc.so.6: ~3 k functions from .dynsym, a few ms). The address becomes a
 * file offset (addr - start + pgoff), and the ELF's PT_LOAD segments turn
 * that into the address the symbols use (user/elf_syms.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "frame_name.h"
#include "grow.h"
#include "symbolize.h"
#include "usyms.h"

#define DELETED_SUFFIX " (deleted)"

/* The module for path (same file: same device, inode and path); -1 on ENOMEM. */
static long module_of(struct hk_usyms *s, const char *path, __u64 dev, __u64 inode)
{
	struct hk_umod *m;
	size_t i;

	/* a file's mappings are adjacent: the last module, most often */
	for (i = s->nmods; i-- > 0;) {
		m = &s->mods[i];
		if (m->dev == dev && m->inode == inode && !strcmp(m->path, path))
			return (long)i;
	}
	if (hk_array__grow((void **)&s->mods, &s->mods_cap, s->nmods + 1, sizeof(*s->mods)))
		return -1;
	m = &s->mods[s->nmods];
	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	if (!m->path)
		return -1;
	m->dev = dev;
	m->inode = inode;
	if (path[0] == '/')
		m->kind = HK_UMOD_FILE;
	else if (!strcmp(path, "[vdso]"))
		m->kind = HK_UMOD_VDSO;
	else
		m->kind = HK_UMOD_LABEL;
	return (long)s->nmods++;
}

/* "START-END PERMS PGOFF MAJ:MIN INODE [PATH]"; 0 or -ENOMEM. */
static int add_mapping(struct hk_usyms *s, char *line)
{
	unsigned long long start, end, pgoff, inode;
	unsigned int maj, min;
	char perms[5], *path;
	struct hk_umap *m;
	size_t n;
	int pos = -1;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms,
		   &pgoff, &maj, &min, &inode, &pos) < 7 || pos < 0 || start >= end)
		return 0;
	/* the kernel sorts them; a line that is not is a line we cannot use */
	if (s->nmaps && start < s->maps[s->nmaps - 1].end)
		return 0;
	path = line + pos;
	n = strcspn(path, "\n");
	path[n] = '\0';
	if (path[0] == '/' && n > strlen(DELETED_SUFFIX) &&
	    !strcmp(path + n - strlen(DELETED_SUFFIX), DELETED_SUFFIX))
		path[n - strlen(DELETED_SUFFIX)] = '\0';
	if (hk_array__grow((void **)&s->maps, &s->maps_cap, s->nmaps + 1, sizeof(*s->maps)))
		return -ENOMEM;
	m = &s->maps[s->nmaps];
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->mod = -1;
	if (path[0]) {
		m->mod = module_of(s, path, makedev(maj, min), inode);
		if (m->mod < 0)
			return -ENOMEM;
	}
	s->nmaps++;
	return 0;
}

struct hk_usyms *hk_usyms__open(int pid)
{
	struct hk_usyms *s = NULL;
	char path[64], *line = NULL;
	size_t cap = 0;
	int err = 0;
	FILE *f;

	if (pid <= 0) {
		errno = EINVAL;
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		err = -ENOMEM;
		goto close_maps;
	}
	s->pid = pid;
	while (!err && getline(&line, &cap, f) > 0)
		err = add_mapping(s, line);
	/* an exited process reads as an empty file or ESRCH */
	if (!err && (ferror(f) || !s->nmaps))
		err = ferror(f) && errno ? -errno : -ESRCH;
close_maps:
	free(line);
	fclose(f);
	if (err) {
		hk_usyms__close(s);
		errno = -err;
		return NULL;
	}
	return s;
}

static const struct hk_umap *find_map(const struct hk_usyms *s, __u64 addr)
{
	size_t lo = 0, hi = s->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= s->maps[lo - 1].end)
		return NULL;
	return &s->maps[lo - 1];
}

/* "[libc.so.6]" for a file, "[heap]" as is, "[anon_inode:x]" bracketed. */
static const char *module_label(const struct hk_umod *mod, char *tmp, size_t len)
{
	const char *base = strrchr(mod->path, '/');

	if (mod->kind == HK_UMOD_FILE)
		snprintf(tmp, len, "[%s]", base[1] ? base + 1 : mod->path);
	else if (mod->path[0] == '[')
		snprintf(tmp, len, "%s", mod->path);
	else
		snprintf(tmp, len, "[%s]", mod->path);
	return tmp;
}

const char *hk_usyms__name(struct hk_usyms *s, __u64 addr, char *buf, size_t len)
{
	const struct hk_umap *m = find_map(s, addr);
	struct hk_umod *mod = NULL;
	const char *name = NULL;
	char tmp[512];

	if (!len)
		return "";
	if (!m)
		return hk_frame_name__copy(buf, len, "[unknown]");
	if (m->mod >= 0)
		mod = &s->mods[m->mod];
	if (mod && mod->kind != HK_UMOD_LABEL) {
		if (mod->state == HK_LOAD_NOT_YET)
			hk_umod__load(s, mod, m);
		if (mod->state == HK_LOAD_DONE)
			name = hk_elf_syms__find(&mod->elf, addr - m->start + m->pgoff);
	}
	/* JIT code: anonymous or memfd memory the runtime names in its map */
	if (!name && (!mod || mod->state != HK_LOAD_DONE)) {
		if (s->perfmap_state == HK_LOAD_NOT_YET)
			hk_usyms__load_perfmap(s);
		if (s->perfmap_state == HK_LOAD_DONE)
			name = hk_symtab__find(&s->perfmap, addr);
	}
	if (!name)
		name = mod ? module_label(mod, tmp, sizeof(tmp)) : "[anon]";
	return hk_frame_name__copy(buf, len, name);
}

void hk_usyms__close(struct hk_usyms *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nmods; i++) {
		free(s->mods[i].path);
		hk_elf_syms__free(&s->mods[i].elf);
	}
	free(s->mods);
	free(s->maps);
	hk_symtab__free(&s->perfmap);
	free(s);
}
