// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_leaf.c - the caller of a leaf without a frame pointer, put back
 * (user/profile/leaf.h): the choice among a stack's top words on a
 * synthetic address space, exact; the call-instruction test on x86-64 and
 * arm64 encodings; and the code read from this process's own mappings.
 */
#include <string.h>
#include <unistd.h>
#include "suites.h"
#include "profile/leaf.h"
#include "profile/symbolize.h"

/*
 * A program (module 0) calling into a libc without frame pointers
 * (module 1); the stack and the heap belong to no file.
 */
struct fn {
	__u64 start, end;
	long mod;
	const char *name;
};

static const struct fn fns[] = {
	{ 0x1000, 0x1100, 0, "main" },
	{ 0x1100, 0x1200, 0, "leak_here" },
	{ 0x1200, 0x1300, 0, "sleep_here" },
	{ 0x10000, 0x10100, 1, "memset" },
	{ 0x10100, 0x10200, 1, "clock_nanosleep" },
	{ 0x10200, 0x10300, 1, "malloc" },
	{ 0x10300, 0x10400, 1, "_int_malloc" },
	{ 0x10400, 0x10500, 1, "f4" },
	{ 0x10500, 0x10600, 1, "f5" },
	{ 0x10600, 0x10700, 1, "f6" },
	{ 0x10700, 0x10800, 1, "f7" },
	{ 0x10800, 0x10900, 1, "f8" },
};

/* the addresses just after a call */
static const __u64 returns[] = {
	0x1050, 0x1055, 0x1150, 0x1250, 0x10150, 0x10250, 0x10450, 0x10550, 0x10650,
	0x10750, 0x10850, 0x10860,
};

static const struct fn *fn_of(__u64 addr)
{
	size_t i;

	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (addr >= fns[i].start && addr < fns[i].end)
			return &fns[i];
	return NULL;
}

static int fake_is_return(void *ctx, __u64 addr)
{
	size_t i;

	(void)ctx;
	for (i = 0; i < sizeof(returns) / sizeof(returns[0]); i++)
		if (returns[i] == addr)
			return 1;
	return 0;
}

static long fake_module(void *ctx, __u64 addr)
{
	const struct fn *f = fn_of(addr);

	(void)ctx;
	return f ? f->mod : -1;
}

static const char *fake_name(void *ctx, __u64 addr, char *buf, size_t len)
{
	const struct fn *f = fn_of(addr);

	(void)ctx;
	snprintf(buf, len, "%s", f ? f->name : "[unknown]");
	return buf;
}

static const struct hk_leaf_space fake = {
	.is_return = fake_is_return, .module = fake_module, .name = fake_name,
};

/* the same, as the arm64 build asks: words may be signed (PAC) */
static const struct hk_leaf_space fake_pac = {
	.is_return = fake_is_return, .module = fake_module, .name = fake_name, .pac = 1,
};

#define NWORDS(w) (sizeof(w) / sizeof((w)[0]))

static void expect_in(const struct hk_leaf_space *sp, const __u64 *ips, size_t n,
		      const __u64 *words, size_t nwords, const __u64 *want, size_t nwant,
		      const char *what)
{
	__u64 out[HK_LEAF_MAX] = {};
	size_t k, i;

	k = hk_leaf__recover(ips, n, words, nwords, sp, out);
	if (k != nwant)
		fprintf(stderr, "\n%s: %zu frames put back, want %zu\n", what, k, nwant);
	CU_ASSERT_EQUAL(k, nwant);
	for (i = 0; i < k && i < nwant; i++) {
		if (out[i] != want[i])
			fprintf(stderr, "\n%s: frame %zu is %#llx, want %#llx\n", what, i,
				(unsigned long long)out[i], (unsigned long long)want[i]);
		CU_ASSERT_EQUAL(out[i], want[i]);
	}
}

static void expect(const __u64 *ips, size_t n, const __u64 *words, size_t nwords,
		   const __u64 *want, size_t nwant, const char *what)
{
	expect_in(&fake, ips, n, words, nwords, want, nwant, what);
}

static void test_caller_back(void)
{
	/* memset's fault, called by leak_here: the walk went on to main */
	const __u64 ips[] = { 0x10010, 0x1050 };
	const __u64 top[] = { 0x1150, 0x7ffc0000, 0x1050 };
	/* zeroes, a stack address, a word inside leak_here but not after a call */
	const __u64 noisy[] = { 0, 0x7ffc1234, 0x1160, 0x1150, 0x1050 };
	const __u64 want[] = { 0x1150 };

	expect(ips, 2, top, NWORDS(top), want, 1, "memset's caller");
	expect(ips, 2, noisy, NWORDS(noisy), want, 1, "memset's caller among noise");
	/* a walk that found nothing after the leaf */
	expect(ips, 1, top, NWORDS(top), want, 1, "memset alone");
}

static void test_not_needed(void)
{
	/* a leaf with a frame pointer: its caller is ips[1] already */
	const __u64 ips[] = { 0x1110, 0x1050 };
	const __u64 words[] = { 0x1250, 0x10150 };
	/* a leaf in no file (JIT, anonymous) */
	const __u64 jit[] = { 0x7f0000001000, 0x1050 };
	/* nothing but the walk's own frame, and what lies above it */
	const __u64 ips2[] = { 0x10010, 0x1050 };
	const __u64 above[] = { 0x1050, 0x1150 };

	expect(ips, 2, words, NWORDS(words), NULL, 0, "a leaf with a frame pointer");
	expect(jit, 2, words, NWORDS(words), NULL, 0, "a leaf in no file");
	expect(ips2, 2, above, NWORDS(above), NULL, 0, "words above the walk's frame");
	expect(ips2, 2, NULL, 0, NULL, 0, "no words");
	expect(ips2, 0, words, NWORDS(words), NULL, 0, "no frames");
}

static void test_skipped(void)
{
	/* clock_nanosleep's own stale return, main's (ips[1]'s function) at
	 * another call site: neither is taken */
	const __u64 ips[] = { 0x10110, 0x1050 };
	const __u64 words[] = { 0x10150, 0x1055, 0x1250 };
	const __u64 want[] = { 0x1250 };

	expect(ips, 2, words, NWORDS(words), want, 1, "clock_nanosleep's caller");
}

static void test_chain(void)
{
	/* _int_malloc's fault with a garbage frame pointer (the walk stopped):
	 * malloc, then leak_here out of libc, then the scan stops before main */
	const __u64 ips[] = { 0x10310 };
	const __u64 words[] = { 0x10250, 0x10250, 0x1150, 0x1050 };
	const __u64 want[] = { 0x10250, 0x1150 };
	/* libc all the way: at most HK_LEAF_MAX, each function once */
	const __u64 deep[] = { 0x10450, 0x10550, 0x10550, 0x10650, 0x10750, 0x10850, 0x1150 };
	const __u64 want_deep[] = { 0x10450, 0x10550, 0x10650, 0x10750 };
	/* two returns into one function (f8 at two call sites): once */
	const __u64 twice[] = { 0x10850, 0x10860, 0x1250 };
	const __u64 want_twice[] = { 0x10850, 0x1250 };

	expect(ips, 1, words, NWORDS(words), want, 2, "malloc's chain");
	expect(ips, 1, deep, NWORDS(deep), want_deep, HK_LEAF_MAX, "the cap");
	expect(ips, 1, twice, NWORDS(twice), want_twice, 2, "a function once");
}

/* arm64 with pointer authentication: the link register (words[0]) and the
 * saved return addresses signed in bits 48-54 (the kernel's walk strips
 * its own: ips are plain) */
static void test_pac(void)
{
	const __u64 ips[] = { 0x10010, 0x1050 };
	const __u64 signed_lr[] = { 0x0035000000001150ULL, 0x7ffc0000, 0x002a000000001050ULL };
	const __u64 want[] = { 0x1150 };

	CU_ASSERT_EQUAL(hk_leaf__strip_pac(0x0035000000001150ULL), 0x1150);
	CU_ASSERT_EQUAL(hk_leaf__strip_pac(0x00007f12345678abULL), 0x00007f12345678abULL);
	expect_in(&fake_pac, ips, 2, signed_lr, NWORDS(signed_lr), want, 1,
		  "memset's caller from a signed link register");
	/* the walk's own frame, signed on the stack, still ends the scan */
	expect_in(&fake_pac, ips, 2, signed_lr + 2, 1, NULL, 0, "a signed ips[1]");
	/* unstripped, a signed word is no return address */
	expect(ips, 2, signed_lr, NWORDS(signed_lr), NULL, 0, "signed words, not stripped");
}

static int x86(const unsigned char *code, size_t len)
{
	return hk_leaf__after_call(code, len, 0);
}

static void test_call_encodings(void)
{
	static const unsigned char rel32[] = { 0x90, 0x90, 0x90, 0xe8, 1, 2, 3, 4 };
	static const unsigned char reg[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0xd0 };
	static const unsigned char rex_reg[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x41, 0xff, 0xd0 };
	static const unsigned char rip[] = { 0x90, 0x90, 0xff, 0x15, 1, 2, 3, 4 };
	static const unsigned char disp8[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0x50, 8 };
	static const unsigned char sib8[] = { 0x90, 0x90, 0x90, 0x90, 0xff, 0x54, 0x24, 8 };
	static const unsigned char sib32[] = { 0x90, 0xff, 0x94, 0x24, 1, 2, 3, 4 };
	static const unsigned char sib[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0x14, 0x24 };
	static const unsigned char jmp[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0xe0 };
	static const unsigned char nops[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90 };
	/* e8 one byte too early: the call ends before the address */
	static const unsigned char early[] = { 0x90, 0x90, 0xe8, 1, 2, 3, 4, 0x90 };
	/* ff /2 whose length says it ends elsewhere */
	static const unsigned char short_rip[] = { 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xff, 0x15 };
	/* bl, blr x1; ret, b */
	static const __u32 bl = 0x94000010, blr = 0xd63f0020, ret = 0xd65f03c0, b = 0x14000010;

	CU_ASSERT_TRUE(x86(rel32, sizeof(rel32)));
	CU_ASSERT_TRUE(x86(reg, sizeof(reg)));
	CU_ASSERT_TRUE(x86(rex_reg, sizeof(rex_reg)));
	CU_ASSERT_TRUE(x86(rip, sizeof(rip)));
	CU_ASSERT_TRUE(x86(disp8, sizeof(disp8)));
	CU_ASSERT_TRUE(x86(sib8, sizeof(sib8)));
	CU_ASSERT_TRUE(x86(sib32, sizeof(sib32)));
	CU_ASSERT_TRUE(x86(sib, sizeof(sib)));
	CU_ASSERT_FALSE(x86(jmp, sizeof(jmp)));
	CU_ASSERT_FALSE(x86(nops, sizeof(nops)));
	CU_ASSERT_FALSE(x86(early, sizeof(early)));
	CU_ASSERT_FALSE(x86(short_rip, sizeof(short_rip)));
	CU_ASSERT_FALSE(x86(rel32 + 4, 4));
	CU_ASSERT_TRUE(hk_leaf__after_call((const unsigned char *)&bl, 4, 1));
	CU_ASSERT_TRUE(hk_leaf__after_call((const unsigned char *)&blr, 4, 1));
	CU_ASSERT_FALSE(hk_leaf__after_call((const unsigned char *)&ret, 4, 1));
	CU_ASSERT_FALSE(hk_leaf__after_call((const unsigned char *)&b, 4, 1));
	CU_ASSERT_FALSE(hk_leaf__after_call((const unsigned char *)&bl, 3, 1));
}

static __attribute__((noinline)) __u64 my_return(void)
{
	return (__u64)(unsigned long)__builtin_return_address(0);
}

static void test_own_code(void)
{
	struct hk_usyms *s = hk_usyms__open(getpid(), NULL);
	unsigned char code[8];
	__u64 ret = my_return();
	int on_stack = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(hk_usyms__code(s, ret, code, sizeof(code)), 0);
#if defined(__x86_64__)
	CU_ASSERT_TRUE(hk_leaf__after_call(code, sizeof(code), 0));
#elif defined(__aarch64__)
	CU_ASSERT_TRUE(hk_leaf__after_call(code, sizeof(code), 1));
#endif
	CU_ASSERT_TRUE(hk_usyms__module(s, ret) >= 0);
	/* not executable, and no file */
	CU_ASSERT_EQUAL(hk_usyms__code(s, (__u64)(unsigned long)&on_stack, code, sizeof(code)),
			-1);
	CU_ASSERT_NOT_EQUAL(hk_usyms__module(s, (__u64)(unsigned long)&on_stack),
			    hk_usyms__module(s, ret));
	CU_ASSERT_EQUAL(hk_usyms__code(s, 8, code, sizeof(code)), -1);
	hk_usyms__close(s);
}

int hk_add_leaf_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "a leaf's caller put back", test_caller_back },
		{ "nothing put back where nothing is lost", test_not_needed },
		{ "the leaf's and the walk's functions skipped", test_skipped },
		{ "a chain out of the library, capped", test_chain },
		{ "arm64: signed return addresses stripped", test_pac },
		{ "call instructions: x86-64 and arm64", test_call_encodings },
		{ "code read from this process's own mappings", test_own_code },
	};

	return HK_ADD_SUITE("leaf", tests);
}
