/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * elf_syms.h - the functions of one ELF file (executable, shared library,
 * or the vdso image read from memory) and its PT_LOAD segments, which map
 * a file offset to the address its symbols are given in.
 */
#ifndef HK_USER_ELF_SYMS_H
#define HK_USER_ELF_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "symtab.h"

/* PT_LOAD segments kept of a file: every lookup walks them */
#define HK_ELF_LOADS_MAX 64

struct hk_elf_load {
	__u64 offset;		/* p_offset */
	__u64 vaddr;		/* p_vaddr */
	__u64 filesz;		/* p_filesz */
};

struct hk_elf_syms {
	struct hk_symtab tab;
	struct hk_elf_load *loads;
	size_t nloads;
};

/*
 * Read the STT_FUNC and STT_GNU_IFUNC symbols of .symtab, or of .dynsym
 * when .symtab has none (a stripped file), and the PT_LOAD segments, from
 * the file open on fd or from the image in memory. 0 or -errno: -ENOEXEC
 * not ELF; -EFBIG a symbol table or its string table is over max bytes
 * (not read); -E2BIG more sections or segments than 16-bit counts hold,
 * or more than HK_ELF_LOADS_MAX PT_LOAD segments; -ENOSPC the sections
 * read (all of them, however many) or the table built would pass budget
 * bytes. In this process: for a file that is not anyone's (tests).
 */
int hk_elf_syms__read_fd(struct hk_elf_syms *e, int fd, size_t max, size_t budget);
int hk_elf_syms__read_mem(struct hk_elf_syms *e, void *image, size_t size, size_t max,
			  size_t budget);

/*
 * The same (fd, or image of size bytes when fd is -1), parsed in a child
 * confined by sandbox.h: what a process maps is anyone's to shape, and
 * libelf's parsing is no place for root. The table comes back checked;
 * -EIO: the child died or its answer was unsound (nothing kept).
 */
int hk_elf_syms__read_confined(struct hk_elf_syms *e, int fd, void *image, size_t size,
			       size_t max, size_t budget);

/*
 * The function holding the byte at file offset off, through the segment
 * that loaded it (the same for PIE, non-PIE and shared objects); NULL when
 * no segment or no symbol covers it.
 */
const char *hk_elf_syms__find(const struct hk_elf_syms *e, __u64 off);

void hk_elf_syms__free(struct hk_elf_syms *e);

#endif /* HK_USER_ELF_SYMS_H */
