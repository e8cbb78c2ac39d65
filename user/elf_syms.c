// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * elf_syms.c - one ELF file's functions and load segments through libelf
 * (see elf_syms.h). The names are copied into the table, so the file is
 * closed as soon as it is read: a process with 300 libraries costs no
 * file descriptors afterwards.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include "elf_syms.h"

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

/* The functions of every section of type sh_type; 0 or -ENOMEM. */
static int read_symbols(struct hk_symtab *t, Elf *elf, Elf64_Word sh_type)
{
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
		e->loads[e->nloads].offset = ph.p_offset;
		e->loads[e->nloads].vaddr = ph.p_vaddr;
		e->loads[e->nloads].filesz = ph.p_filesz;
		e->nloads++;
	}
	return 0;
}

static int read_elf(struct hk_elf_syms *e, Elf *elf)
{
	int err;

	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto end_elf;
	}
	err = read_loads(e, elf);
	if (!err)
		err = read_symbols(&e->tab, elf, SHT_SYMTAB);
	if (!err && !e->tab.n)
		err = read_symbols(&e->tab, elf, SHT_DYNSYM);
	if (!err)
		hk_symtab__sort(&e->tab);
end_elf:
	elf_end(elf);
	if (err)
		hk_elf_syms__free(e);
	return err;
}

int hk_elf_syms__read_fd(struct hk_elf_syms *e, int fd)
{
	/* libelf refuses every call until the version is set; idempotent */
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	return read_elf(e, elf_begin(fd, ELF_C_READ_MMAP, NULL));
}

int hk_elf_syms__read_mem(struct hk_elf_syms *e, void *image, size_t size)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	return read_elf(e, elf_memory(image, size));
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
