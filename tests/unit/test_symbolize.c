// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_symbolize.c - names for addresses of this very process: functions
 * of the test binary, of libc (inside the binary under make STATIC=1), the
 * vdso, anonymous memory, a JIT's perf map, a deleted copy of the binary;
 * the kernel's from /proc/kallsyms; and the sorted table and the frame
 * name rules they share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include "format_fixtures.h"
#include "flame/frame_name.h"
#include "suites.h"
#include "profile/symbolize.h"
#include "profile/symtab.h"

#define NAME_LEN 256

/* noclone: a clone would be named "hk_sym_target.constprop.0" (clang makes none) */
#ifdef __clang__
#define NOCLONE
#else
#define NOCLONE __attribute__((noclone))
#endif

static __attribute__((noinline, used)) NOCLONE int hk_sym_target(volatile int *x)
{
	int i, sum = 0;

	for (i = 0; i < *x; i++)
		sum += i * *x;
	return sum;
}

__attribute__((noinline)) NOCLONE int hk_sym_global_target(volatile int *x)
{
	return hk_sym_target(x) + 1;
}

static __u64 addr_of(const void *p, unsigned int plus)
{
	return (__u64)(unsigned long)p + plus;
}

static struct hk_usyms *open_self(void)
{
	struct hk_usyms *s = hk_usyms__open(getpid(), NULL);

	if (!s)
		fprintf(stderr, "hk_usyms__open(self): %s\n", strerror(errno));
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	return s;
}

static void test_own_functions(void)
{
	struct hk_usyms *s = open_self();
	char name[NAME_LEN];

	ASSERT_STR(hk_usyms__name(s, addr_of(hk_sym_target, 5), name, sizeof(name)),
		   "hk_sym_target");
	ASSERT_STR(hk_usyms__name(s, addr_of(hk_sym_target, 0), name, sizeof(name)),
		   "hk_sym_target");
	ASSERT_STR(hk_usyms__name(s, addr_of(hk_sym_global_target, 3), name, sizeof(name)),
		   "hk_sym_global_target");
	/* cut to the buffer */
	ASSERT_STR(hk_usyms__name(s, addr_of(hk_sym_target, 5), name, 7), "hk_sym");
	hk_usyms__close(s);
}

/* libc's getpid: from libc.so.6's .dynsym, or the static binary's .symtab */
static void test_libc(void)
{
	struct hk_usyms *s = open_self();
	char name[NAME_LEN];

	hk_usyms__name(s, addr_of(getpid, 2), name, sizeof(name));
	if (!strstr(name, "getpid"))
		fprintf(stderr, "getpid resolved as \"%s\"\n", name);
	CU_ASSERT_PTR_NOT_NULL(strstr(name, "getpid"));
	hk_usyms__name(s, addr_of(strtoull, 1), name, sizeof(name));
	CU_ASSERT(name[0] != '[' || !strcmp(name, "[libc.so.6]"));
	hk_usyms__close(s);
}

static void test_unknown_and_anon(void)
{
	struct hk_usyms *s = open_self();
	char name[NAME_LEN];
	void *anon;

	/* below mmap_min_addr: never mapped */
	ASSERT_STR(hk_usyms__name(s, 4096, name, sizeof(name)), "[unknown]");
	ASSERT_STR(hk_usyms__name(s, 0, name, sizeof(name)), "[unknown]");
	ASSERT_STR(hk_usyms__name(s, ~0ULL, name, sizeof(name)), "[unknown]");
	hk_usyms__close(s);

	anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CU_ASSERT_FATAL(anon != MAP_FAILED);
	/* the old snapshot does not know it; a new one does */
	s = open_self();
	ASSERT_STR(hk_usyms__name(s, addr_of(anon, 100), name, sizeof(name)), "[anon]");
	munmap(anon, 4096);
	hk_usyms__close(s);
	s = open_self();
	ASSERT_STR(hk_usyms__name(s, addr_of(anon, 100), name, sizeof(name)), "[unknown]");
	ASSERT_STR(hk_usyms__name(s, 0, name, 0), "");
	hk_usyms__close(s);
}

/* a JIT's /tmp/perf-PID.map names anonymous code, hostile names cleaned */
static void test_perf_map(void)
{
	char path[64], name[NAME_LEN];
	struct hk_usyms *s;
	void *code;
	FILE *f;

	code = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CU_ASSERT_FATAL(code != MAP_FAILED);
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "%llx 1000 LazyCompile:~old x.js:1\n", addr_of(code, 0));
	fprintf(f, "%llx 100 LazyCompile:~handler;evil x.js:7\n", addr_of(code, 0));
	fprintf(f, "%llx 10 stub\n", addr_of(code, 0x1000));
	fclose(f);
	s = open_self();
	/* the later line wins: the JIT reused the address */
	ASSERT_STR(hk_usyms__name(s, addr_of(code, 0x20), name, sizeof(name)),
		   "LazyCompile:~handler:evil_x.js:7");
	ASSERT_STR(hk_usyms__name(s, addr_of(code, 0x200), name, sizeof(name)), "[anon]");
	ASSERT_STR(hk_usyms__name(s, addr_of(code, 0x1004), name, sizeof(name)), "stub");
	/* past a size: not that function */
	ASSERT_STR(hk_usyms__name(s, addr_of(code, 0x1010), name, sizeof(name)), "[anon]");
	hk_usyms__close(s);
	unlink(path);
	munmap(code, 8192);
}

/* The mapping of this binary that holds p: start and file offset. */
static int own_mapping(const void *p, __u64 *start, __u64 *end, __u64 *pgoff)
{
	unsigned long long a, b, off;
	__u64 addr = addr_of(p, 0);
	char line[4096];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %*s %llx", &a, &b, &off) == 3 &&
		    addr >= a && addr < b) {
			*start = a;
			*end = b;
			*pgoff = off;
			found = 1;
		}
	fclose(f);
	return found;
}

/*
 * A copy of this binary, mapped at another place and deleted: only
 * /proc/PID/map_files still reaches it, and its PT_LOAD segments still
 * turn the offset into the function.
 */
static void test_deleted_copy(void)
{
	char tmp[] = "/tmp/hk-symtest-XXXXXX", name[NAME_LEN], buf[65536];
	__u64 start, end, pgoff;
	struct hk_usyms *s;
	int in, out;
	ssize_t n;
	void *copy;

	CU_ASSERT_FATAL(own_mapping(hk_sym_target, &start, &end, &pgoff));
	in = open("/proc/self/exe", O_RDONLY);
	out = mkstemp(tmp);
	CU_ASSERT_FATAL(in >= 0 && out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		CU_ASSERT_FATAL(write(out, buf, (size_t)n) == n);
	close(in);
	copy = mmap(NULL, end - start, PROT_READ, MAP_PRIVATE, out, (off_t)pgoff);
	close(out);
	unlink(tmp);
	CU_ASSERT_FATAL(copy != MAP_FAILED);
	s = open_self();
	ASSERT_STR(hk_usyms__name(s, addr_of(copy, addr_of(hk_sym_target, 5) - start),
				  name, sizeof(name)), "hk_sym_target");
	hk_usyms__close(s);
	munmap(copy, end - start);
}

/* read from memory: some address of the vdso is its clock_gettime */
static void test_vdso(void)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	__u64 start, end, pgoff, a;
	char name[NAME_LEN];
	struct hk_usyms *s;
	int named = 0;

	if (!base || !own_mapping((void *)base, &start, &end, &pgoff))
		return;	/* vdso=0 on the kernel command line */
	s = open_self();
	for (a = start; a < end && !named; a += 4)
		named = !!strstr(hk_usyms__name(s, a, name, sizeof(name)), "clock_gettime");
	CU_ASSERT(named);
	hk_usyms__close(s);
}

static void test_open_errors(void)
{
	errno = 0;
	CU_ASSERT_PTR_NULL(hk_usyms__open(0, NULL));
	CU_ASSERT_EQUAL(errno, EINVAL);
	/* pid_max is at most 4 M: this one never exists */
	CU_ASSERT_PTR_NULL(hk_usyms__open(0x7ffffff0, NULL));
	CU_ASSERT_EQUAL(errno, ENOENT);
	hk_usyms__close(NULL);
}

/* The kernel's schedule(), looked up in kallsyms by the test itself. */
static void test_kernel(void)
{
	unsigned long long addr = 0, a;
	char line[512], sym[256], type, name[NAME_LEN];
	struct hk_ksyms *k;
	int nonzero = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) == 3) {
			nonzero |= a != 0;
			if (type == 'T' && !strcmp(sym, "schedule"))
				addr = a;
		}
	fclose(f);
	k = hk_ksyms__load();
	if (!nonzero) {
		/* kptr_restrict: every address 0, which would name nothing */
		CU_ASSERT_PTR_NULL(k);
		CU_ASSERT_EQUAL(errno, EPERM);
		return;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_FATAL(addr != 0);
	ASSERT_STR(hk_ksyms__name(k, addr, name, sizeof(name)), "schedule");
	ASSERT_STR(hk_ksyms__name(k, addr + 5, name, sizeof(name)), "schedule");
	ASSERT_STR(hk_ksyms__name(k, 4096, name, sizeof(name)), "[kernel]");
	ASSERT_STR(hk_ksyms__name(NULL, addr, name, sizeof(name)), "[kernel]");
	hk_ksyms__free(k);
	hk_ksyms__free(NULL);
}

static void add(struct hk_symtab *t, __u64 addr, __u64 size, const char *name, __u32 rank)
{
	CU_ASSERT_EQUAL_FATAL(hk_symtab__add(t, addr, size, name, strlen(name), rank), 0);
}

#define FIND(t, addr) ({ const char *n_ = hk_symtab__find((t), (addr)); n_ ? n_ : "(none)"; })

static void test_symtab(void)
{
	struct hk_symtab t = { 0 };

	add(&t, 0x3000, 0, "sized_zero", HK_SYM_LOCAL);
	add(&t, 0x1000, 0x100, "__libc_malloc", HK_SYM_GLOBAL);
	add(&t, 0x1000, 0, "malloc", HK_SYM_GLOBAL);
	add(&t, 0x1000, 0x100, "malloc_local", HK_SYM_LOCAL);
	add(&t, 0x2000, 0x10, "beta", HK_SYM_WEAK);
	add(&t, 0x2000, 0x10, "alfa", HK_SYM_WEAK);
	hk_symtab__sort(&t);
	CU_ASSERT_EQUAL(t.n, 3);
	ASSERT_STR(FIND(&t, 0xfff), "(none)");
	/* aliases: the global with the fewest underscores, an alias's size */
	ASSERT_STR(FIND(&t, 0x1000), "malloc");
	ASSERT_STR(FIND(&t, 0x10ff), "malloc");
	ASSERT_STR(FIND(&t, 0x1100), "(none)");
	/* equal rank and shape: byte order */
	ASSERT_STR(FIND(&t, 0x2008), "alfa");
	ASSERT_STR(FIND(&t, 0x2010), "(none)");
	/* no size: to the end of the table */
	ASSERT_STR(FIND(&t, 0x3000), "sized_zero");
	ASSERT_STR(FIND(&t, ~0ULL), "sized_zero");
	hk_symtab__free(&t);
	ASSERT_STR(FIND(&t, 0x1000), "(none)");
}

static void test_frame_names(void)
{
	char buf[64];

	ASSERT_STR(hk_frame_name__copy(buf, sizeof(buf), "a;b c\td\n"), "a:b_c_d_");
	/* DEL, a C1 control (2 bytes), a lone continuation byte, a bad lead */
	ASSERT_STR(hk_frame_name__copy(buf, sizeof(buf), "x\x7f\xc2\x85y\x80\xffz"),
		   "x___y??z");
	ASSERT_STR(hk_frame_name__copy(buf, sizeof(buf), "caf\xc3\xa9"), "caf\xc3\xa9");
	/* a cut never splits a sequence: "é" is 2 bytes, "€" 3 */
	ASSERT_STR(hk_frame_name__copy(buf, 5, "caf\xc3\xa9"), "caf");
	ASSERT_STR(hk_frame_name__copy(buf, 6, "caf\xc3\xa9"), "caf\xc3\xa9");
	ASSERT_STR(hk_frame_name__copy(buf, 4, "a\xe2\x82\xac"), "a");
	ASSERT_STR(hk_frame_name__copy(buf, 1, "abc"), "");
	/* continuation bytes only: cut where asked, each one '?' */
	ASSERT_STR(hk_frame_name__copy(buf, 6, "\x80\x80\x80\x80\x80\x80\x80"), "?????");
}

int hk_add_symbolize_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "functions of the test binary", test_own_functions },
		{ "a libc function", test_libc },
		{ "no mapping, anonymous memory, snapshots", test_unknown_and_anon },
		{ "JIT code through /tmp/perf-PID.map", test_perf_map },
		{ "a deleted copy through map_files", test_deleted_copy },
		{ "the vdso read from memory", test_vdso },
		{ "open errors", test_open_errors },
		{ "kernel: kallsyms", test_kernel },
		{ "symbol table: aliases, sizes", test_symtab },
		{ "frame names: cleaned and cut", test_frame_names },
	};

	return HK_ADD_SUITE("symbolize", tests);
}
