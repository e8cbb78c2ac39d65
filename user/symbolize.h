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

/* Read /proc/PID/maps now (call again later to refresh); NULL + errno on failure. */
struct hk_usyms *hk_usyms__open(int pid);

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
