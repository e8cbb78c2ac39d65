// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_symbolize_caps.c - what the symbolizer reads of a process that
 * may be hostile: the caps on the perf map (bytes, lines, line length),
 * on /proc/PID/maps (mappings, files, path bytes), on symbol tables
 * (section size, the budget of all files), each cut said exactly once in
 * hk_usyms__cuts; the hashed lookup of files in maps of 400 k files; and
 * a read kept only while the pidref still holds the PID.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include "profile/elf_syms.h"
#include "format_fixtures.h"
#include "lib/pidref.h"
#include "suites.h"
#include "profile/symbolize.h"
#include "profile/usyms.h"

#define NAME_LEN 256

/* an hk_usyms with only limits, for the perf map reader */
static struct hk_usyms *bare(const struct hk_usyms_limits *lim)
{
	struct hk_usyms *s = calloc(1, sizeof(*s));

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	s->lim = lim ? *lim : hk_usyms_limits_default;
	return s;
}

/* text into an unlinked temporary file, its fd at offset 0 */
static int file_of(const char *text, size_t len)
{
	char tmp[] = "/tmp/hk-caps-XXXXXX";
	int fd = mkstemp(tmp);

	CU_ASSERT_FATAL(fd >= 0);
	unlink(tmp);
	CU_ASSERT_FATAL(write(fd, text, len) == (ssize_t)len);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* read text as a perf map under lim: the symbols kept, the cuts said */
static struct hk_usyms *perfmap_of(const char *text, const struct hk_usyms_limits *lim)
{
	struct hk_usyms *s = bare(lim);
	int fd = file_of(text, strlen(text));

	CU_ASSERT_EQUAL(hk_usyms__read_perfmap(s, fd, strlen(text)), 0);
	close(fd);
	return s;
}

static const char *cuts(const struct hk_usyms *s)
{
	static char buf[640];

	return hk_usyms__cuts(s, buf, sizeof(buf));
}

/* text as a perf map under lim: want symbols kept, want_cut said */
static void expect_perfmap(const char *text, const struct hk_usyms_limits *lim, size_t want,
			   const char *want_cut)
{
	struct hk_usyms *s = perfmap_of(text, lim);

	CU_ASSERT_EQUAL(s->perfmap.n, want);
	ASSERT_STR(cuts(s), want_cut);
	hk_usyms__close(s);
}

static void test_perfmap_lines(void)
{
	struct hk_usyms_limits lim = hk_usyms_limits_default;

	lim.perfmap_lines = 3;
	/* exactly the cap: all kept, nothing said */
	expect_perfmap("1000 10 a\n2000 10 b\n3000 10 c\n", &lim, 3, "");
	/* the last line without its '\n' is a line */
	expect_perfmap("1000 10 a\n2000 10 b\n3000 10 c", &lim, 3, "");
	/* one more, even unfinished: cut, said once */
	expect_perfmap("1000 10 a\n2000 10 b\n3000 10 c\n4000 10 d\n5000 10 e\n", &lim, 3,
		       "perf map cut at 3 lines");
	expect_perfmap("1000 10 a\n2000 10 b\n3000 10 c\n4", &lim, 3, "perf map cut at 3 lines");
}

static void test_perfmap_line_length(void)
{
	struct hk_usyms_limits lim = hk_usyms_limits_default;
	char text[256];
	struct hk_usyms *s;

	lim.line_bytes = 20;
	/* "1000 10 " is 8 bytes: a name of 12 fills the line, of 13 is over */
	snprintf(text, sizeof(text), "1000 10 %s\n2000 10 %s\n3000 10 %s\n%s", "abcdefghijkl",
		 "abcdefghijklm", "ok", "4000 10 abcdefghijklmnopqrstuvwxyz");
	s = perfmap_of(text, &lim);
	CU_ASSERT_EQUAL(s->perfmap.n, 2);
	hk_symtab__sort(&s->perfmap);
	ASSERT_STR(hk_symtab__find(&s->perfmap, 0x1001) ?: "(none)", "abcdefghijkl");
	ASSERT_STR(hk_symtab__find(&s->perfmap, 0x2001) ?: "(none)", "(none)");
	ASSERT_STR(hk_symtab__find(&s->perfmap, 0x3001) ?: "(none)", "ok");
	ASSERT_STR(cuts(s), "2 perf map lines over 20 bytes skipped");
	hk_usyms__close(s);
}

static void test_perfmap_bytes(void)
{
	struct hk_usyms_limits lim = hk_usyms_limits_default;
	const char *text = "1000 10 a\n2000 10 b\n3000 10 c\n";	/* 30 bytes */

	lim.perfmap_bytes = 30;
	expect_perfmap(text, &lim, 3, "");
	/* cut in the third line: that one is not half read */
	lim.perfmap_bytes = 25;
	expect_perfmap(text, &lim, 2, "perf map cut at 25 bytes of 30 bytes");
}

/* The attack: a sparse 64 GiB file of NULs, one line; 64 MiB read. */
static void test_perfmap_sparse_64g(void)
{
	char tmp[] = "/var/tmp/hk-caps-XXXXXX";
	struct hk_usyms *s = bare(NULL);
	struct timespec t0, t1;
	int fd = mkstemp(tmp);

	CU_ASSERT_FATAL(fd >= 0);
	unlink(tmp);
	if (ftruncate(fd, 64LL << 30)) {
		fprintf(stderr, "no sparse 64 GiB file here (%s): skipped\n", strerror(errno));
		close(fd);
		hk_usyms__close(s);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(hk_usyms__read_perfmap(s, fd, 64ULL << 30), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);
	CU_ASSERT_EQUAL(s->perfmap.n, 0);
	ASSERT_STR(cuts(s), "perf map cut at 64 MiB of 64 GiB");
	/* 64 MiB of holes: well under a second anywhere (the cap is the point) */
	CU_ASSERT(t1.tv_sec - t0.tv_sec < 10);
	hk_usyms__close(s);
}

static struct hk_usyms *maps_of(const char *text, const struct hk_usyms_limits *lim)
{
	struct hk_usyms_opts o = { .limits = lim };
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct hk_usyms *s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	s = hk_usyms__parse(f, 1, &o);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	return s;
}

#define MAPLINE(a, path, ino) a "000-" a "fff r-xp 00000000 08:01 " #ino " " path "\n"

/* MAPS under lim: the mappings and files kept, the cut said; kept open */
static struct hk_usyms *expect_maps(const struct hk_usyms_limits *lim, size_t nmaps,
				    size_t nmods, const char *want_cut)
{
	static const char text[] = MAPLINE("1", "/lib/a.so", 11) MAPLINE("2", "/lib/b.so", 12)
				   MAPLINE("3", "/lib/c.so", 13) MAPLINE("4", "/lib/a.so", 11)
				   MAPLINE("5", "[heap]", 0);
	struct hk_usyms *s = maps_of(text, lim);

	CU_ASSERT_EQUAL(s->nmaps, nmaps);
	CU_ASSERT_EQUAL(s->nmods, nmods);
	ASSERT_STR(cuts(s), want_cut);
	return s;
}

static void test_maps_caps(void)
{
	struct hk_usyms_limits lim = hk_usyms_limits_default;
	char name[NAME_LEN];
	struct hk_usyms *s;

	lim.maps = 3;
	hk_usyms__close(expect_maps(&lim, 3, 3, "maps cut at 3 mappings"));
	/* c.so and [heap] are new files past the cap; a.so again is not */
	lim = hk_usyms_limits_default;
	lim.files = 2;
	s = expect_maps(&lim, 3, 2, "2 mappings past 2 files or 16 MiB of paths left unnamed");
	ASSERT_STR(hk_usyms__name(s, 0x3010, name, sizeof(name)), "[unknown]");
	ASSERT_STR(hk_usyms__name(s, 0x4010, name, sizeof(name)), "[a.so]");
	hk_usyms__close(s);
	/* "/lib/a.so" and "/lib/b.so" take 20 bytes with their NULs */
	lim = hk_usyms_limits_default;
	lim.path_bytes = 20;
	hk_usyms__close(expect_maps(&lim, 3, 2, "2 mappings past 16384 files or 20 bytes of "
				    "paths left unnamed"));
}

/* 400 k files, each mapped twice, the second time far from the first */
static void test_maps_hashed(void)
{
	struct hk_usyms_limits lim = hk_usyms_limits_default;
	const size_t files = 400000, lines = 2 * files;
	size_t len = lines * 80, at = 0, i, bad = 0;
	struct timespec t0, t1;
	char *text = malloc(len), want[64];
	struct hk_usyms *s;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	for (i = 0; i < lines; i++) {
		size_t file = i < files ? i : i - files;

		/* each file shares its inode with one neighbour, its path
		 * with the other: every (inode, path) is another file */
		at += (size_t)snprintf(text + at, len - at,
				       "%zx000-%zx000 r--s 00000000 00:01 %zu /memfd:m%zu\n",
				       2 * i + 16, 2 * i + 17, file / 2, (file + 1) / 2);
	}
	lim.maps = lines;
	lim.files = files;
	lim.path_bytes = 64 << 20;
	f = fmemopen(text, at, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	s = hk_usyms__parse(f, 1, &(struct hk_usyms_opts){ .limits = &lim });
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fclose(f);
	free(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->nmaps, lines);
	CU_ASSERT_EQUAL(s->nmods, files);
	for (i = 0; i < lines; i++) {
		size_t file = i < files ? i : i - files;
		const struct hk_umod *m = &s->mods[s->maps[i].mod];

		snprintf(want, sizeof(want), "/memfd:m%zu", (file + 1) / 2);
		bad += m->inode != file / 2 || strcmp(m->path, want) ||
		       s->maps[i].mod != s->maps[i % files].mod;
	}
	CU_ASSERT_EQUAL(bad, 0);
	ASSERT_STR(cuts(s), "");
	/* a linear search per line is 8 x 10^10 compares here: minutes */
	fprintf(stderr, "(800 k lines of maps in %.2f s) ", (double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	CU_ASSERT(t1.tv_sec - t0.tv_sec < 20);
	hk_usyms__close(s);
}

static __attribute__((noinline)) int caps_target(volatile int *x)
{
	return *x + 1;
}

/* A symbol table over the cap is not read; the budget stops a file once past it. */
static void test_elf_caps(void)
{
	struct hk_usyms_limits lim = hk_usyms_limits_default;
	struct hk_usyms_opts o = { .limits = &lim };
	unsigned char h[64] = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, 1 };
	struct hk_elf_syms e = { 0 };
	char name[NAME_LEN], copy_name[NAME_LEN];
	struct hk_usyms *s;
	int fd;

	fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(hk_elf_syms__read_fd(&e, fd, 1024, 256 << 20), -EFBIG);
	CU_ASSERT_EQUAL(hk_elf_syms__read_fd(&e, fd, 64 << 20, 256 << 20), 0);
	hk_elf_syms__free(&e);
	/* the budget, inside the file: its table is past 4 KiB */
	CU_ASSERT_EQUAL(hk_elf_syms__read_fd(&e, fd, 64 << 20, 4096), -ENOSPC);
	close(fd);
	/* extended numbering: e_shnum 0 with section headers, e_phnum PN_XNUM */
	h[0x28] = 64;	/* e_shoff */
	CU_ASSERT_EQUAL(hk_elf_syms__read_mem(&e, h, sizeof(h), 1 << 20, 256 << 20), -E2BIG);
	h[0x28] = 0;
	h[0x38] = h[0x39] = 0xff;	/* e_phnum */
	CU_ASSERT_EQUAL(hk_elf_syms__read_mem(&e, h, sizeof(h), 1 << 20, 256 << 20), -E2BIG);

	lim.section_bytes = 1024;
	s = hk_usyms__open(getpid(), &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	ASSERT_STR(hk_usyms__name(s, (__u64)(unsigned long)caps_target + 1, name,
				  sizeof(name)), "[unit-tests]");
	ASSERT_STR(cuts(s), "symbols of 1 file over 1 KiB skipped (unit-tests)");
	hk_usyms__close(s);

	/* the budget, counted inside a file too: with 1 byte, not even the
	 * first file is read (it used to be, whole, as nothing was held yet) */
	lim = hk_usyms_limits_default;
	lim.sym_bytes = 1;
	{
		void *copy;
		char tmp[] = "/tmp/hk-caps-exe-XXXXXX", buf[65536];
		int in = open("/proc/self/exe", O_RDONLY), out = mkstemp(tmp);
		ssize_t n;

		CU_ASSERT_FATAL(in >= 0 && out >= 0);
		while ((n = read(in, buf, sizeof(buf))) > 0)
			CU_ASSERT_FATAL(write(out, buf, (size_t)n) == n);
		close(in);
		copy = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, out, 0);
		close(out);
		CU_ASSERT_FATAL(copy != MAP_FAILED);
		s = hk_usyms__open(getpid(), &o);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		ASSERT_STR(hk_usyms__name(s, (__u64)(unsigned long)caps_target + 1, name,
					  sizeof(name)), "[unit-tests]");
		snprintf(copy_name, sizeof(copy_name), "[%s]", strrchr(tmp, '/') + 1);
		ASSERT_STR(hk_usyms__name(s, (__u64)(unsigned long)copy + 16, name,
					  sizeof(name)), copy_name);
		ASSERT_STR(cuts(s), "symbols of 2 files not read: past 1 bytes of symbols in all");
		hk_usyms__close(s);
		munmap(copy, 4096);
		unlink(tmp);
	}
}

/* The PID's maps read with the pidref of another process: not kept. */
static void test_stale_ref(void)
{
	struct hk_pidref ref;
	struct hk_usyms_opts o = { .ref = &ref };
	unsigned long long ticks;
	long hz = sysconf(_SC_CLK_TCK);
	pid_t pid = fork();

	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		pause();
		_exit(0);
	}
	ticks = hk_pidref__start_ticks((__u32)pid);
	CU_ASSERT_EQUAL_FATAL(hk_pidref__open(&ref, (__u32)pid,
					      ticks * (1000000000ULL / (unsigned long long)hz)),
			      0);
	/* alive: a read through it is kept */
	CU_ASSERT(hk_pidref__held(&ref));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* reaped: its PID is free, and what is read now is someone else's */
	errno = 0;
	CU_ASSERT_PTR_NULL(hk_usyms__open(getpid(), &o));
	CU_ASSERT_EQUAL(errno, ESTALE);
	hk_pidref__close(&ref);
}

/* The path of a mapping that map_files cannot give: the file there is
 * taken with the mapped inode on the mapped device, not the inode alone
 * (review 2, L4: a user's tmpfs numbers its inodes from 1). */
static int load_as(const char *path, unsigned int maj, unsigned int min, __u64 ino)
{
	char text[1024];
	struct hk_usyms *s;
	FILE *f;
	int state;

	/* an address range this process does not map: no map_files entry */
	snprintf(text, sizeof(text), "10000-11000 r-xp 00000000 %x:%x %llu %s\n", maj, min,
		 (unsigned long long)ino, path);
	f = fmemopen(text, strlen(text), "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	s = hk_usyms__parse(f, getpid(), NULL);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(s->nmods, 1);
	hk_umod__load(s, &s->mods[0], &s->maps[0]);
	state = s->mods[0].state;
	hk_usyms__close(s);
	return state;
}

static void test_file_identity(void)
{
	char exe[1024];
	struct stat st;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CU_ASSERT_FATAL(n > 0);
	exe[n] = 0;
	CU_ASSERT_FATAL(!stat(exe, &st));
	CU_ASSERT_EQUAL(load_as(exe, major(st.st_dev), minor(st.st_dev), st.st_ino),
			HK_LOAD_DONE);
	/* its inode number on another device: another file */
	CU_ASSERT_EQUAL(load_as(exe, 0xfe, 0xfa, st.st_ino), HK_LOAD_FAILED);
	CU_ASSERT_EQUAL(load_as(exe, major(st.st_dev), minor(st.st_dev), st.st_ino + 1),
			HK_LOAD_FAILED);
}

int hk_add_symbolize_caps_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "perf map: the line cap, exact", test_perfmap_lines },
		{ "perf map: the line length cap, exact", test_perfmap_line_length },
		{ "perf map: the byte cap, exact", test_perfmap_bytes },
		{ "perf map: a sparse 64 GiB file", test_perfmap_sparse_64g },
		{ "maps: mappings, files, path bytes", test_maps_caps },
		{ "maps: 400 k files, hashed", test_maps_hashed },
		{ "ELF: section cap, numbering, budget", test_elf_caps },
		{ "a stale pidref: nothing kept", test_stale_ref },
		{ "a file by device and inode, not inode alone", test_file_identity },
	};

	return HK_ADD_SUITE("symbolize caps", tests);
}
