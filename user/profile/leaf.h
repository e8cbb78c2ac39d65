/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * leaf.h - the caller of a leaf that keeps no frame pointer, put back.
 *
 * The kernel walks a user stack by frame pointers. A leaf function built
 * without them (Debian's libc: memset, memcpy, read, clock_nanosleep)
 * does not set one up, so the walk goes from the leaf straight to its
 * caller's caller: the function that leaks or sleeps is missing. Its
 * return address is still near the stack pointer, which the profiler
 * copies with each new stack (HK_PROF_TOP_WORDS words): the first words
 * there that are return addresses (just after a call instruction, in
 * executable memory) are the frames the walk skipped.
 */
#ifndef HK_USER_LEAF_H
#define HK_USER_LEAF_H

#include <stddef.h>
#include <linux/types.h>

/* frames put back between a leaf and the frame-pointer walk's next frame */
#define HK_LEAF_MAX 4

/* What the choice asks of the process's address space (usyms.c's, or a
 * test's). */
struct hk_leaf_space {
	void *ctx;
	/* 1: addr is just after a call instruction in executable memory */
	int (*is_return)(void *ctx, __u64 addr);
	/* the file mapped at addr, as any number; -1: none (anonymous, unmapped) */
	long (*module)(void *ctx, __u64 addr);
	/* the function holding addr, into buf (NUL-terminated); returns buf */
	const char *(*name)(void *ctx, __u64 addr, char *buf, size_t len);
	/* 1: words may carry arm64's pointer authentication codes (stripped
	 * with hk_leaf__strip_pac before anything else) */
	int pac;
};

/* user code lies below 2^48 on arm64 (and on x86-64) */
#define HK_LEAF_USER_VA_BITS 48

/*
 * A user address without arm64's pointer authentication code. Code built
 * with -mbranch-protection (PACIASP at entry) signs the link register, so
 * a saved return address, and x30 itself inside such a function, carry a
 * code in the bits above the virtual address; the kernel strips the same
 * bits from the frame walk's addresses (ptrauth_strip_user_insn_pac), not
 * from the words the profiler copies.
 */
static inline __u64 hk_leaf__strip_pac(__u64 addr)
{
	return addr & ((1ULL << HK_LEAF_USER_VA_BITS) - 1);
}

/*
 * The frames to put between ips[0] (the leaf, where the thread was
 * stopped) and ips[1] (the next frame the walk found, a return address),
 * chosen among words[0..nwords) (the stack from its pointer up; on arm64
 * the link register first, each stripped of its PAC when sp->pac), into
 * out[0..HK_LEAF_MAX), outermost last; their number.
 *
 * Only when the leaf's file is not ips[1]'s (a library without frame
 * pointers, called from code with them: code that keeps them has its
 * caller in the chain already). A word is taken when it is a return
 * address whose function is none of the leaf's, ips[1]'s or one taken
 * already; the scan stops at the first taken word of another file than
 * the leaf's (the caller out of the library), at a word equal to ips[1]
 * (the walk's own frame: the rest is above it), or at HK_LEAF_MAX.
 */
size_t hk_leaf__recover(const __u64 *ips, size_t n, const __u64 *words, size_t nwords,
			const struct hk_leaf_space *sp, __u64 *out);

/*
 * Do the bytes code[0..len), which end at a return address, end with a
 * call instruction? x86-64: e8 rel32, ff /2 (register, memory, disp8,
 * disp32, SIB, RIP-relative); arm64 (aarch64 1): bl, blr. 1 or 0.
 */
int hk_leaf__after_call(const unsigned char *code, size_t len, int aarch64);

#endif /* HK_USER_LEAF_H */
