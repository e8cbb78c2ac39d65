// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * memload.c - the memory workloads of issue #19's end-to-end tests
 * (tests/e2e/test_memtruth.py), beside hkload's leaks and churn.
 *
 * Each one is a shape the kernel review (findings 1, 2, 4, 6) says a fault
 * count or an RSS counter reads wrong: a big holder that takes the host's
 * headroom, copy-on-write after fork, a working set larger than its memory
 * cgroup, mapped shared memory, a leak that swaps, a leak whose rate rises;
 * and issue #33's steady service, stalled by a leak beside it.
 * As in hkload, rates are set by the test, not the machine: steps wait for
 * absolute CLOCK_MONOTONIC deadlines, so a slow step shortens the next sleep
 * and the mean rate never drifts (thrash alone runs flat out: being busy
 * while it stalls is its point). Each dies with its parent (PR_SET_PDEATHSIG), prints
 * "ready" once its initial state exists, then runs until killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "shared/units.h"

#define PAGE_BYTES	4096ULL
#define TICK_NS		(10 * HK_NSEC_PER_MSEC)	/* cow, shmmap: 100 steps a second */
#define TICKS_PER_S	(HK_NSEC_PER_SEC / TICK_NS)
#define COW_STRIDE	(4 * PAGE_BYTES)	/* cow writes one page in four */

static const char usage_text[] =
"Usage: memload SUBCOMMAND [OPTIONS]  (each prints \"ready\", then runs until killed)\n"
"  hold --size SIZE                    SIZE of anonymous memory, touched, kept\n"
"  cow --size SIZE [--rate N]          SIZE populated; fork a child that sleeps,\n"
"      write one page in four at N pages/s (25000), and at the end of each\n"
"      pass kill the child and fork again: copy-on-write faults, no growth\n"
"  thrash --size SIZE                  SIZE filled with pseudo-random bytes, then\n"
"      one byte of each page incremented in turn, flat out, forever: run it in\n"
"      a memory cgroup smaller than SIZE, with swap, and it swaps in each page\n"
"  service --size SIZE [--rate SIZE]   SIZE filled with pseudo-random bytes,\n"
"      then a byte of each page written in turn at --rate/s (32M), over and\n"
"      over: a steady service touching its working set; it grows by nothing\n"
"  shmmap --file PATH [--rate SIZE]    map PATH (an existing /dev/shm file),\n"
"      read a byte per page at --rate/s (100M): mapped shmem, nothing allocated\n"
"  leak --step SIZE [--every DUR] [--then SIZE --after DUR] [--max SIZE]\n"
"      leak --step every --every (250ms), in pages touched, not populated (a\n"
"      memory cgroup at its limit can swap them out); --after DUR from\n"
"      \"ready\" print \"then\" and leak --then instead; up to --max (none)\n"
"SIZE: bytes, or with K, M, G (1M = 1048576). DUR: 250ms, 8s. N: a count.\n"
"Examples:\n"
"  memload hold --size 20G\n"
"  memload leak --step 2M --then 10M --after 10s --max 900M\n";

static const char *cmd_name = "memload";

static void __attribute__((noreturn, format(printf, 2, 3)))
quit(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "memload %s: ", cmd_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

/* What every subcommand may be given; each checks the ones it needs. */
struct opts {
	uint64_t size, rate, step, then, every_ns, after_ns, max;
	const char *file;
};

/* "64M", "8s", "250ms", "25000": digits and one suffix from the table. */
static uint64_t parse_num(const char *arg, const char *opt, bool dur)
{
	static const struct {
		const char *sfx;
		uint64_t mul;
		bool dur;
	} units[] = {
		{ "", 1, false }, { "K", HK_KIB, false }, { "M", HK_MIB, false },
		{ "G", HK_GIB, false }, { "ms", HK_NSEC_PER_MSEC, true },
		{ "s", HK_NSEC_PER_SEC, true },
	};
	unsigned long long v;
	char *end;
	size_t i;

	errno = 0;
	v = arg[0] >= '0' && arg[0] <= '9' ? strtoull(arg, &end, 10) : 0;
	for (i = 0; !errno && v && i < sizeof(units) / sizeof(units[0]); i++)
		/* a cap far below overflow: 1 TiB, or ~11 days */
		if (units[i].dur == dur && !strcmp(end, units[i].sfx) &&
		    v <= (dur ? 1000000ULL * HK_NSEC_PER_SEC : HK_TIB) / units[i].mul)
			return v * units[i].mul;
	quit(2, "bad value '%s' for --%s (want %s)", arg, opt,
	     dur ? "a duration such as 250ms or 8s" : "a number such as 25000, 64K or 1G");
}

static void parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "size", required_argument, NULL, 's' }, { "rate", required_argument, NULL, 'r' },
		{ "step", required_argument, NULL, 'S' }, { "then", required_argument, NULL, 't' },
		{ "every", required_argument, NULL, 'e' }, { "after", required_argument, NULL, 'a' },
		{ "max", required_argument, NULL, 'm' }, { "file", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;	/* our own one-line messages instead of getopt's */
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		switch (c) {
		case 's': o->size = parse_num(optarg, "size", false); break;
		case 'r': o->rate = parse_num(optarg, "rate", false); break;
		case 'S': o->step = parse_num(optarg, "step", false); break;
		case 't': o->then = parse_num(optarg, "then", false); break;
		case 'e': o->every_ns = parse_num(optarg, "every", true); break;
		case 'a': o->after_ns = parse_num(optarg, "after", true); break;
		case 'm': o->max = parse_num(optarg, "max", false); break;
		case 'F': o->file = optarg; break;
		case 'h': fputs(usage_text, stdout); exit(0);
		case ':': quit(2, "option '%s' needs a value", argv[optind - 1]);
		default: quit(2, "unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (optind < argc)
		quit(2, "unexpected argument '%s'", argv[optind]);
}

static void say(const char *what)
{
	if (puts(what) == EOF || fflush(stdout) == EOF)
		quit(1, "writing '%s' to stdout: %s", what, strerror(errno));
}

static void dies_with(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		quit(1, "prctl(PR_SET_PDEATHSIG): %s", strerror(errno));
	/* the parent may have gone before the prctl took effect */
	if (getppid() != parent)
		quit(1, "parent exited before start");
}

/* Anonymous and resident when mmap returns: populating is ~30x faster
 * than touching from user space, so a step cannot stretch its period. */
static unsigned char *anon_populated(uint64_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		quit(1, "mmap of %llu bytes: %s", (unsigned long long)len, strerror(errno));
	return p;
}

/* Anonymous, touched a page at a time from user space: the pages start on
 * the inactive list. (MAP_POPULATE's start active: a memory cgroup at its
 * limit then OOM-kills, seen here, before reclaim has aged them to swap.)
 * A byte of each page is set, so none is zero-filled and stored for free. */
static volatile unsigned char *anon_touched(uint64_t len)
{
	volatile unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t off;

	if (p == MAP_FAILED)
		quit(1, "mmap of %llu bytes: %s", (unsigned long long)len, strerror(errno));
	for (off = 0; off < len; off += PAGE_BYTES)
		p[off] = 1;
	return p;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * HK_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Sleep to deadline *next_ns, then move it one period on. */
static void sleep_until(uint64_t *next_ns, uint64_t period_ns)
{
	struct timespec ts;
	int err;

	if (!*next_ns)
		*next_ns = mono_ns();
	*next_ns += period_ns;
	ts.tv_sec = (time_t)(*next_ns / HK_NSEC_PER_SEC);
	ts.tv_nsec = (long)(*next_ns % HK_NSEC_PER_SEC);
	while ((err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
		;
	if (err)
		quit(1, "clock_nanosleep: %s", strerror(err));
}

static void __attribute__((noreturn)) stay(void)
{
	for (;;)
		pause();
}

static void need(uint64_t v, const char *what)
{
	if (!v)
		quit(2, "%s is required (and above 0)", what);
}

/* Huge pages where the host allows them: 512 times fewer faults, and
 * gigabytes held in seconds rather than half a minute on a cold VM. */
static int cmd_hold(struct opts *o)
{
	volatile unsigned char *p;
	uint64_t off;

	need(o->size, "--size");
	p = mmap(NULL, o->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		quit(1, "mmap of %llu bytes: %s", (unsigned long long)o->size, strerror(errno));
	madvise((void *)p, o->size, MADV_HUGEPAGE);	/* a hint: 4 KiB pages otherwise */
	for (off = 0; off < o->size; off += PAGE_BYTES)
		p[off] = 1;
	say("ready");
	stay();
}

/* A child that holds the parent's pages shared until killed. */
static pid_t fork_sleeper(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		quit(1, "fork: %s", strerror(errno));
	if (!pid) {
		dies_with(parent);
		stay();
	}
	return pid;
}

/* Redis' BGSAVE in small: every write after a fork copies a page the child
 * still maps. The parent's anon RSS stays flat (a copy replaces a page), so
 * each fault is one that "RSS growth does not explain" (finding 1). */
static int cmd_cow(struct opts *o)
{
	uint64_t per_tick, off, n = 0, next = 0;
	unsigned char *m;
	pid_t child;

	need(o->size, "--size");
	per_tick = (o->rate ? o->rate : 25000) / TICKS_PER_S;
	need(per_tick, "--rate of at least 100");
	m = anon_populated(o->size);
	say("ready");
	for (;;) {
		child = fork_sleeper();
		for (off = 0; off < o->size; off += COW_STRIDE) {
			m[off]++;
			if (++n < per_tick)
				continue;
			n = 0;
			sleep_until(&next, TICK_NS);
		}
		if (kill(child, SIGKILL) || waitpid(child, NULL, 0) != child)
			quit(1, "ending the child %d: %s", (int)child, strerror(errno));
	}
}

/* SIZE of pseudo-random bytes (zram cannot store them as same-filled) */
static volatile unsigned char *random_set(uint64_t size)
{
	volatile unsigned char *m = anon_touched(size);
	uint64_t x = 0x9e3779b97f4a7c15ULL, i;

	for (i = 0; i < size / sizeof(x); i++) {
		x ^= x << 13;	/* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		((volatile uint64_t *)m)[i] = x;
	}
	return m;
}

/* The page LRU's worst case: a loop over more pages than the memory cgroup
 * holds evicts each page just before it is needed again, so each touch is a
 * swap-in (a decompression with zram) after a reclaim. Random bytes keep
 * zram from storing pages as "same-filled" for free. */
static int __attribute__((noreturn)) cmd_thrash(struct opts *o)
{
	volatile unsigned char *m;
	uint64_t off;

	need(o->size, "--size");
	m = random_set(o->size);
	say("ready");
	for (off = 0;; off = off + PAGE_BYTES < o->size ? off + PAGE_BYTES : 0)
		m[off]++;
}

/* Issue #33's victim: a service whose working set is steady, touched at a
 * pace of its own. Alone under its limit it never waits; beside a leak
 * that fills the limit, its pages are reclaimed and each touch of one is a
 * swap-in: it stalls without growing. */
static int __attribute__((noreturn)) cmd_service(struct opts *o)
{
	uint64_t rate = o->rate ? o->rate : 32 * HK_MIB, budget = 0, off = 0, next = 0;
	volatile unsigned char *m;

	need(o->size, "--size");
	m = random_set(o->size);
	say("ready");
	for (;;) {
		sleep_until(&next, TICK_NS);
		for (budget += rate / TICKS_PER_S; budget >= PAGE_BYTES; budget -= PAGE_BYTES) {
			m[off]++;
			off = off + PAGE_BYTES < o->size ? off + PAGE_BYTES : 0;
		}
	}
}

/* Finding 4's workload: an existing /dev/shm file (written by someone
 * else, charged then: dd, or a database creating shared_buffers), mapped
 * page by page as a backend touching it would. Nothing is allocated; only
 * this mm's count of mapped shmem pages grows. */
static int cmd_shmmap(struct opts *o)
{
	uint64_t rate = o->rate ? o->rate : 100 * HK_MIB, budget = 0, off = 0, next = 0;
	volatile unsigned char *m;	/* volatile: the reads that map pages stay */
	struct stat st;
	int fd;

	if (!o->file)
		quit(2, "--file is required");
	fd = open(o->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		quit(1, "open %s: %s", o->file, strerror(errno));
	if (st.st_size < (off_t)PAGE_BYTES)
		quit(1, "%s is empty", o->file);
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		quit(1, "mmap %s: %s", o->file, strerror(errno));
	close(fd);
	say("ready");
	while (off < (uint64_t)st.st_size) {
		sleep_until(&next, TICK_NS);
		for (budget += rate / TICKS_PER_S; budget >= PAGE_BYTES && off < (uint64_t)st.st_size;
		     budget -= PAGE_BYTES, off += PAGE_BYTES)
			(void)m[off];
	}
	say("mapped");
	stay();
}

/* A leak, touched page by page; with --then, one that speeds up: its ETA
 * starts far and falls fast, the case of a freeze decided every window
 * rather than once at entry. */
static int cmd_leak(struct opts *o)
{
	uint64_t every = o->every_ns ? o->every_ns : 250 * HK_NSEC_PER_MSEC;
	uint64_t max = o->max ? o->max : UINT64_MAX, total = 0, step, t_then, next = 0;
	bool then = false;

	need(o->step, "--step");
	if (!o->then != !o->after_ns)
		quit(2, "--then and --after go together");
	say("ready");
	t_then = o->after_ns ? mono_ns() + o->after_ns : UINT64_MAX;
	while (total < max) {
		sleep_until(&next, every);
		if (!then && mono_ns() >= t_then) {
			then = true;
			say("then");
		}
		step = then ? o->then : o->step;
		step = max - total < step ? max - total : step;
		anon_touched(step);
		total += step;
	}
	stay();
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(struct opts *o);
	} cmds[] = {
		{ "hold", cmd_hold }, { "cow", cmd_cow }, { "thrash", cmd_thrash },
		{ "shmmap", cmd_shmmap }, { "leak", cmd_leak }, { "service", cmd_service },
	};
	struct opts o = { 0 };
	pid_t parent = getppid();
	size_t i;

	if (argc < 2)
		quit(2, "missing subcommand (see --help)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		cmd_name = cmds[i].name;
		parse_opts(argc - 1, argv + 1, &o);
		dies_with(parent);
		return cmds[i].run(&o);
	}
	quit(2, "unknown subcommand '%s' (see --help)", argv[1]);
}
