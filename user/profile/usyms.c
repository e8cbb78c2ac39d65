// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * usyms.c - a process's instruction addresses to function names.
 *
 * open reads /proc/PID/maps once: every mapping, sorted as the kernel
 * gives them, each pointing at the file (module) it shows, found in a
 * hash of (device, inode, path): a process of 65 k memfd mappings costs
 * 65 k lookups, not 2 x 10^9 compares. A name costs a binary search for
 * the mapping; the module's symbols are read the first
 * time one of its addresses is asked for, and kept until close (one
 * libc.so.6: ~3 k functions from .dynsym, a few ms). The address becomes a
 * file offset (addr - start + pgoff), and the ELF's PT_LOAD segments turn
 * that into the address the symbols use (elf_syms.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include "flame/frame_name.h"
#include "lib/grow.h"
#include "symbolize.h"
#include "usyms.h"

#define DELETED_SUFFIX " (deleted)"
#define MIB (1024 * 1024)

const struct hk_usyms_limits hk_usyms_limits_default = {
	.maps = 65536,
	.files = 16384,
	.path_bytes = 16 * MIB,
	.perfmap_bytes = 64 * MIB,
	.perfmap_lines = 1024 * 1024,
	.line_bytes = 4096,
	.section_bytes = 64 * MIB,
	.sym_bytes = 256 * MIB,
};

static __u64 mod_hash(const char *path, __u64 dev, __u64 inode)
{
	__u64 h = 0xcbf29ce484222325ULL ^ (dev * 0x9e3779b97f4a7c15ULL) ^ inode;

	/* FNV-1a over the path */
	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

/* The slot of mods[i]'s key, or of the empty slot where it would go. */
static size_t hash_slot(const struct hk_usyms *s, const char *path, __u64 dev, __u64 inode)
{
	size_t mask = s->hash_size - 1, i = (size_t)mod_hash(path, dev, inode) & mask;
	const struct hk_umod *m;

	for (;; i = (i + 1) & mask) {
		if (!s->mod_hash[i])
			return i;
		m = &s->mods[s->mod_hash[i] - 1];
		if (m->dev == dev && m->inode == inode && !strcmp(m->path, path))
			return i;
	}
}

/* Room for one more module: the table stays at most half full. */
static int hash_grow(struct hk_usyms *s)
{
	size_t size = s->hash_size ? s->hash_size : 64, i;
	__u32 *old = s->mod_hash;

	if ((s->nmods + 1) * 2 <= s->hash_size)
		return 0;
	while ((s->nmods + 1) * 2 > size)
		size *= 2;
	s->mod_hash = calloc(size, sizeof(*s->mod_hash));
	if (!s->mod_hash) {
		s->mod_hash = old;
		return -ENOMEM;
	}
	s->hash_size = size;
	for (i = 0; i < s->nmods; i++)
		s->mod_hash[hash_slot(s, s->mods[i].path, s->mods[i].dev, s->mods[i].inode)] =
			(__u32)i + 1;
	free(old);
	return 0;
}

/*
 * The module for path (same file: same device, inode and path): -1 on
 * ENOMEM, -2 when a new one is past the caps on files or path bytes.
 */
static long module_of(struct hk_usyms *s, const char *path, __u64 dev, __u64 inode)
{
	size_t slot, len = strlen(path);
	struct hk_umod *m;

	if (s->hash_size) {
		slot = hash_slot(s, path, dev, inode);
		if (s->mod_hash[slot])
			return (long)s->mod_hash[slot] - 1;
	}
	if (s->nmods >= s->lim.files || len + 1 > s->lim.path_bytes - s->path_bytes)
		return -2;
	if (hash_grow(s) ||
	    hk_array__grow((void **)&s->mods, &s->mods_cap, s->nmods + 1, sizeof(*s->mods)))
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
	s->path_bytes += len + 1;
	s->mod_hash[hash_slot(s, path, dev, inode)] = (__u32)s->nmods + 1;
	return (long)s->nmods++;
}

/* "START-END PERMS PGOFF MAJ:MIN INODE [PATH]"; 0 or -ENOMEM. */
static int add_mapping(struct hk_usyms *s, char *line)
{
	unsigned long long start, end, pgoff, inode;
	unsigned int maj, min;
	char perms[5], *path;
	struct hk_umap *m;
	long mod = -1;
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
	if (path[0]) {
		mod = module_of(s, path, makedev(maj, min), inode);
		if (mod == -2) {
			s->cut.maps++;
			return 0;
		}
		if (mod < 0)
			return -ENOMEM;
	}
	if (hk_array__grow((void **)&s->maps, &s->maps_cap, s->nmaps + 1, sizeof(*s->maps)))
		return -ENOMEM;
	m = &s->maps[s->nmaps++];
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->mod = mod;
	m->exec = perms[2] == 'x';
	return 0;
}

struct hk_usyms *hk_usyms__parse(FILE *f, int pid, const struct hk_usyms_opts *o)
{
	struct hk_usyms *s = calloc(1, sizeof(*s));
	char *line = NULL;
	size_t cap = 0, lines = 0;
	int err = 0;

	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	s->pid = pid;
	s->ref = o ? o->ref : NULL;
	s->lim = o && o->limits ? *o->limits : hk_usyms_limits_default;
	while (!err && getline(&line, &cap, f) > 0) {
		/* lines, not mappings kept: skipped ones cost reading too */
		if (lines++ == s->lim.maps) {
			s->cut.maps_unread = 1;
			break;
		}
		err = add_mapping(s, line);
	}
	/* an exited process reads as an empty file or ESRCH */
	if (!err && (ferror(f) || !s->nmaps))
		err = ferror(f) && errno ? -errno : -ESRCH;
	free(line);
	if (err) {
		hk_usyms__close(s);
		errno = -err;
		return NULL;
	}
	return s;
}

struct hk_usyms *hk_usyms__open(int pid, const struct hk_usyms_opts *o)
{
	struct hk_usyms *s;
	char path[64];
	FILE *f;

	if (pid <= 0) {
		errno = EINVAL;
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	s = hk_usyms__parse(f, pid, o);
	fclose(f);
	if (s)
		s->same_mnt = hk_usyms__same_mnt_ns(s);
	/* the PID may have gone to another process while we read */
	if (s && !hk_usyms__held(s)) {
		hk_usyms__close(s);
		errno = ESTALE;
		return NULL;
	}
	return s;
}

long hk_usyms__module(const struct hk_usyms *s, __u64 addr)
{
	const struct hk_umap *m = hk_usyms__find_map(s, addr);

	return m ? m->mod : -1;
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
	const struct hk_umap *m = hk_usyms__find_map(s, addr);
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

static void clause(char *buf, size_t len, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void clause(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	if (*at) {
		n = snprintf(buf + *at, len - *at, "; ");
		*at += n > 0 ? (size_t)n : 0;
		if (*at >= len)
			return;
	}
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	*at += n > 0 ? (size_t)n : 0;
}

/* "64 GiB", "1.5 GiB", "64 MiB", "512 KiB", "100 bytes" */
static const char *bytes(char *buf, size_t len, __u64 n)
{
	if (n >= 1024ULL * MIB && !(n % (1024ULL * MIB)))
		snprintf(buf, len, "%llu GiB", (unsigned long long)(n / (1024ULL * MIB)));
	else if (n >= 1024ULL * MIB)
		snprintf(buf, len, "%.1f GiB", (double)n / (1024.0 * MIB));
	else if (n >= MIB && !(n % MIB))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(n / MIB));
	else if (n >= 1024 && !(n % 1024))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(n / 1024));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
	return buf;
}

static const char *plural(__u64 n)
{
	return n == 1 ? "" : "s";
}

const char *hk_usyms__cuts(const struct hk_usyms *s, char *buf, size_t len)
{
	const struct hk_usyms_cut *c = &s->cut;
	char a[32], b[32];
	size_t at = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (c->maps_unread)
		clause(buf, len, &at, "maps cut at %zu mappings", s->lim.maps);
	if (c->maps)
		clause(buf, len, &at, "%llu mapping%s past %zu files or %s of paths left unnamed",
		       (unsigned long long)c->maps, plural(c->maps), s->lim.files,
		       bytes(a, sizeof(a), s->lim.path_bytes));
	if (c->perfmap_size)
		clause(buf, len, &at, "perf map cut at %s of %s",
		       bytes(a, sizeof(a), s->lim.perfmap_bytes),
		       bytes(b, sizeof(b), c->perfmap_size));
	if (c->perfmap_lines)
		clause(buf, len, &at, "perf map cut at %zu lines", s->lim.perfmap_lines);
	if (c->long_lines)
		clause(buf, len, &at, "%llu perf map line%s over %zu bytes skipped",
		       (unsigned long long)c->long_lines, plural(c->long_lines), s->lim.line_bytes);
	if (c->big_files)
		clause(buf, len, &at, "symbols of %llu file%s over %s skipped (%s)",
		       (unsigned long long)c->big_files, plural(c->big_files),
		       bytes(a, sizeof(a), s->lim.section_bytes), c->big_file);
	if (c->unread_files)
		clause(buf, len, &at, "symbols of %llu file%s not read: past %s of symbols in all",
		       (unsigned long long)c->unread_files, plural(c->unread_files),
		       bytes(a, sizeof(a), s->lim.sym_bytes));
	/* a cut sentence ends within the buffer */
	if (at >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return buf;
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
	free(s->mod_hash);
	free(s->maps);
	hk_symtab__free(&s->perfmap);
	if (s->code_mod)
		close(s->code_fd);
	free(s);
}
