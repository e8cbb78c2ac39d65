// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * elf_syms.c - one ELF file's functions and load segments through libelf
 * (see elf_syms.h). The names are copied into the table, so the file is
 * closed as soon as it is read: a process with 300 libraries costs no
 * file descriptors afterwards.
 *
 * The files are the profiled process's, so anyone's: libelf reads them
 * with pread (ELF_C_READ), section by section, never mapping or reading
 * the whole file; a symbol table or string table over the caller's cap
 * is not read at all, and a header that announces more than 65279
 * sections or segments (extended numbering) is refused before libelf
 * allocates a descriptor for each, and one of more than 64 PT_LOAD
 * segments (each lookup walks them) after.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elf_syms.h"

/* the bytes of the ELF header read before libelf sees the file */
#define EHDR_MAX 64

static __u32 bind_rank(unsigned char info)
{
	switch (GELF_ST_BIND(info)) {
	case STB_GLOBAL:
		return HK_SYM_GLOBAL;
	case STB_WEAK:
		return HK_SYM_WEAK;
	default:
		return HK_SYM_LOCAL;
	}
}

static __u64 get_n(const unsigned char *p, int bytes, int big)
{
	__u64 v = 0;
	int i;

	for (i = 0; i < bytes; i++)
		v |= (__u64)p[big ? bytes - 1 - i : i] << (8 * i);
	return v;
}

/*
 * 0 for an ELF header libelf may be given; -ENOEXEC: not ELF; -E2BIG:
 * extended numbering (e_shnum 0 with section headers, e_phnum PN_XNUM),
 * whose real count, up to 2^32, would size libelf's arrays.
 */
static int header_ok(const unsigned char *h, size_t n)
{
	int big, is64;
	__u64 shoff, shnum, phnum;

	if (n < EI_NIDENT || memcmp(h, ELFMAG, SELFMAG))
		return -ENOEXEC;
	is64 = h[EI_CLASS] == ELFCLASS64;
	if (!is64 && h[EI_CLASS] != ELFCLASS32)
		return -ENOEXEC;
	if (n < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return -ENOEXEC;
	big = h[EI_DATA] == ELFDATA2MSB;
	if (is64) {
		shoff = get_n(h + offsetof(Elf64_Ehdr, e_shoff), 8, big);
		phnum = get_n(h + offsetof(Elf64_Ehdr, e_phnum), 2, big);
		shnum = get_n(h + offsetof(Elf64_Ehdr, e_shnum), 2, big);
	} else {
		shoff = get_n(h + offsetof(Elf32_Ehdr, e_shoff), 4, big);
		phnum = get_n(h + offsetof(Elf32_Ehdr, e_phnum), 2, big);
		shnum = get_n(h + offsetof(Elf32_Ehdr, e_shnum), 2, big);
	}
	if ((!shnum && shoff) || phnum == PN_XNUM)
		return -E2BIG;
	return 0;
}

/* A section header's size, by index; 0 when there is no such section. */
static __u64 section_size(Elf *elf, size_t index)
{
	Elf_Scn *scn = elf_getscn(elf, index);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) ? sh.sh_size : 0;
}

/*
 * The functions of every section of type sh_type; 0, -ENOMEM, or -EFBIG
 * when a symbol table or its strings are over max bytes (nothing of
 * that section is read), -ENOSPC when the sections read so far (libelf
 * keeps each until elf_end) or the table would pass budget: a file may
 * hold any number of symbol tables of max bytes each.
 */
static int read_symbols(struct hk_symtab *t, Elf *elf, Elf64_Word sh_type, size_t max,
			size_t budget)
{
	size_t read_bytes = 0, strs;
	size_t sym_bytes = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *data;
	const char *name;
	size_t i, n;
	int type;

	if (!sym_bytes)
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != sh_type)
			continue;
		strs = section_size(elf, sh.sh_link);
		if (sh.sh_size > max || strs > max)
			return -EFBIG;
		/* the strings counted once per table: shared ones are over-counted */
		read_bytes += sh.sh_size + strs;
		if (read_bytes > budget)
			return -ENOSPC;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		/* from the data's size, not sh_entsize, which a file may zero */
		n = data->d_size / sym_bytes;
		for (i = 0; i < n; i++) {
			if (!gelf_getsym(data, (int)i, &sym))
				break;
			type = GELF_ST_TYPE(sym.st_info);
			if (type != STT_FUNC && type != STT_GNU_IFUNC)
				continue;
			if (sym.st_shndx == SHN_UNDEF || !sym.st_value)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			if (hk_symtab__add(t, sym.st_value, sym.st_size, name,
					   strlen(name), bind_rank(sym.st_info)))
				return -ENOMEM;
			if (t->cap * sizeof(*t->syms) + t->names_cap > budget)
				return -ENOSPC;
		}
	}
	return 0;
}

static int read_loads(struct hk_elf_syms *e, Elf *elf)
{
	size_t nph, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &nph))
		return -ENOEXEC;
	e->loads = calloc(nph ? nph : 1, sizeof(*e->loads));
	if (!e->loads)
		return -ENOMEM;
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		/* every lookup walks them: a real file has a handful */
		if (e->nloads == HK_ELF_LOADS_MAX)
			return -E2BIG;
		e->loads[e->nloads].offset = ph.p_offset;
		e->loads[e->nloads].vaddr = ph.p_vaddr;
		e->loads[e->nloads].filesz = ph.p_filesz;
		e->nloads++;
	}
	return 0;
}

static int read_elf(struct hk_elf_syms *e, Elf *elf, size_t max, size_t budget)
{
	size_t loads;
	int err;

	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto end_elf;
	}
	err = read_loads(e, elf);
	loads = e->nloads * sizeof(*e->loads);
	if (!err && loads > budget)
		err = -ENOSPC;
	if (!err)
		err = read_symbols(&e->tab, elf, SHT_SYMTAB, max, budget - loads);
	if (!err && !e->tab.n)
		err = read_symbols(&e->tab, elf, SHT_DYNSYM, max, budget - loads);
	if (!err)
		hk_symtab__sort(&e->tab);
end_elf:
	elf_end(elf);
	if (err)
		hk_elf_syms__free(e);
	return err;
}

int hk_elf_syms__read_fd(struct hk_elf_syms *e, int fd, size_t max, size_t budget)
{
	unsigned char h[EHDR_MAX];
	ssize_t n;
	int err;

	/* libelf refuses every call until the version is set; idempotent */
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	n = pread(fd, h, sizeof(h), 0);
	err = header_ok(h, n > 0 ? (size_t)n : 0);
	if (err)
		return err;
	return read_elf(e, elf_begin(fd, ELF_C_READ, NULL), max, budget);
}

int hk_elf_syms__read_mem(struct hk_elf_syms *e, void *image, size_t size, size_t max,
			  size_t budget)
{
	int err;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	err = header_ok(image, size);
	if (err)
		return err;
	return read_elf(e, elf_memory(image, size), max, budget);
}

const char *hk_elf_syms__find(const struct hk_elf_syms *e, __u64 off)
{
	const struct hk_elf_load *l;
	size_t i;

	for (i = 0; i < e->nloads; i++) {
		l = &e->loads[i];
		if (off >= l->offset && off - l->offset < l->filesz)
			return hk_symtab__find(&e->tab, off - l->offset + l->vaddr);
	}
	return NULL;
}

void hk_elf_syms__free(struct hk_elf_syms *e)
{
	hk_symtab__free(&e->tab);
	free(e->loads);
	e->loads = NULL;
	e->nloads = 0;
}
