/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * symbolize.h - instruction addresses of one process, or of the kernel,
 * turned into function names for flame graphs. Every name returned is
 * fit to be a frame of a folded stack (frame_name.h): no ';', no
 * whitespace or control characters, valid UTF-8. Names are not demangled.
 *
 * Every frame of a stack but the leaf is a return address, the byte after
 * a call: look up addr - 1 for those, or a call that ends a function (to
 * a noreturn one) is named after the function that follows. A handle
 * fills its caches as it is asked: one thread at a time.
 */
#ifndef HK_USER_SYMBOLIZE_H
#define HK_USER_SYMBOLIZE_H

#include <stddef.h>
#include <linux/types.h>

struct hk_usyms;	/* one process's address space, as of open */
struct hk_pidref;

/*
 * What is read of a process, which may be anyone's: its maps, its perf
 * map and the symbol tables of the files it maps. Past a cap, the rest is
 * left unread and the cut is told (hk_usyms__cuts); what was read is used.
 */
struct hk_usyms_limits {
	size_t maps;		/* mappings kept of /proc/PID/maps */
	size_t files;		/* distinct files (and labels) they show */
	size_t path_bytes;	/* the paths of those files, together */
	size_t perfmap_bytes;	/* read of /tmp/perf-PID.map */
	size_t perfmap_lines;
	size_t line_bytes;	/* a perf map line longer is skipped */
	size_t section_bytes;	/* a file's symbol table or its strings: over, not read */
	size_t sym_bytes;	/* symbol tables held, all files together */
};

/*
 * The defaults: 65536 mappings (vm.max_map_count is 65530 unless raised),
 * 16384 files, 16 MiB of paths; a 64 MiB, 1 Mi-line perf map, lines of
 * 4 KiB at most; 64 MiB symbol sections, 256 MiB of symbols in all.
 */
extern const struct hk_usyms_limits hk_usyms_limits_default;

struct hk_usyms_opts {
	/* the process, checked after each read of /proc/PID/...: a read is
	 * used only if the PID was still its (NULL: not checked) */
	const struct hk_pidref *ref;
	const struct hk_usyms_limits *limits;	/* NULL: the defaults */
};

/*
 * Read /proc/PID/maps now (call again later to refresh); NULL + errno on
 * failure (ESTALE: the PID is no longer ref's process). o may be NULL.
 */
struct hk_usyms *hk_usyms__open(int pid, const struct hk_usyms_opts *o);

/*
 * The caps that cut what was read so far, one clause each ("perf map cut
 * at 64 MiB of 64 GiB; ..."), into buf; "" when none did. Returns buf.
 */
const char *hk_usyms__cuts(const struct hk_usyms *s, char *buf, size_t len);

/*
 * The function containing addr: its name; "[MODULE]" (basename of the
 * mapping, e.g. "[libc.so.6]") when that file has no symbol covering addr
 * or cannot be read; for memory backed by no file, a JIT's name from its
 * /tmp/perf-PID.map, else the name maps gives ("[heap]", "[stack]",
 * "[vdso]" when its image cannot be read) or "[anon]"; "[unknown]" when no
 * mapping contains addr. Writes into buf (always NUL-terminated, cut at a
 * UTF-8 boundary), returns buf ("" when len is 0).
 */
const char *hk_usyms__name(struct hk_usyms *s, __u64 addr, char *buf, size_t len);

/* The file (or label: [stack], [heap]) mapped at addr, as an index of s's
 * files; -1: none there, or anonymous. */
long hk_usyms__module(const struct hk_usyms *s, __u64 addr);

/*
 * The len bytes that end just before addr, read from the file mapped at
 * addr if it is mapped executable (the very file: map_files first): the
 * code before a return address. 0, or -1 (not executable, not a file,
 * unreadable, or the bytes cross the mapping's start).
 */
int hk_usyms__code(struct hk_usyms *s, __u64 addr, unsigned char *buf, size_t len);

void hk_usyms__close(struct hk_usyms *s);

struct hk_ksyms;

/*
 * /proc/kallsyms: text symbols (t, T, w, W), modules' included, the
 * "[module]" suffix dropped: a stack frame shows the function as the
 * kernel's own stack traces do. NULL + errno when unreadable, EPERM when
 * every address reads 0 (kptr_restrict, or not root).
 */
struct hk_ksyms *hk_ksyms__load(void);

/* "name" of the kernel function containing addr, or "[kernel]" (also when k is NULL). */
const char *hk_ksyms__name(const struct hk_ksyms *k, __u64 addr, char *buf, size_t len);

void hk_ksyms__free(struct hk_ksyms *k);

#endif /* HK_USER_SYMBOLIZE_H */
