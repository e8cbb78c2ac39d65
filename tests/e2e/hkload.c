// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hkload.c - deterministic workloads for the end-to-end tests.
 *
 * Each subcommand recreates one situation hotspot-k must diagnose, at the
 * rate the test asks for, never the rate the machine happens to allow:
 *  - memory comes from anonymous private mmap(MAP_POPULATE): first-touching
 *    1.5 GiB from user space takes 6.8 s on our VMs, populating it 0.2 s, so
 *    a step costs milliseconds and cannot stretch its period;
 *  - periodic steps sleep to absolute CLOCK_MONOTONIC deadlines, so the time
 *    a step takes is absorbed by the next sleep and the mean rate never drifts.
 * Every subcommand dies with its parent (PR_SET_PDEATHSIG), prints "ready"
 * once its initial state exists, then runs until killed.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include "shared/units.h"

#define TICKS_PER_S	10		/* write, mmapread: a step every 100 ms */
#define READ_STRIDE	4096		/* mmapread reads one byte per 4 KiB page */
#define FILL_CHUNK	(1 << 20)	/* mmapread extends its file 1 MiB a time */
#define SIZE_LIMIT	(1ULL << 46)	/* 64 TiB: rate sums stay far from overflow */
#define COUNT_LIMIT	1000000
#define DUR_LIMIT_S	1000000ULL	/* ~11 days: ns still fit in 64 bits */
#define SLEEPER_STACK	(64 * 1024)
#define MAX_OPTS	7		/* options per subcommand, --help aside */
#define ARRAY_SIZE(a)	((int)(sizeof(a) / sizeof((a)[0])))

enum opt_kind { OPT_SIZE, OPT_DUR, OPT_COUNT, OPT_PATH, OPT_FLAG };

struct opt_spec {
	const char *name;
	enum opt_kind kind;
	void *dst;
};

static const char *const kind_hint[] = {	/* PATH and FLAG never fail */
	"a size such as 4096, 64K, 10M or 1G", "a duration such as 250ms or 1.5s",
	"a count from 1 to 1000000",
};

static const char usage_text[] =
"Usage: hkload SUBCOMMAND [OPTIONS]   (each prints \"ready\", then runs until killed)\n"
"  grow [--start SIZE] [--step SIZE] [--every DUR] [--max SIZE] [--main-exit]\n"
"      anonymous memory: --start (0) at once, then --step (10M) every --every\n"
"      (250ms) up to --max (none); --main-exit leaves a zombie main thread\n"
"  write --file PATH [--rate SIZE] [--wrap SIZE] [--leak SIZE]\n"
"      page-cache writes at --rate/s (30M), back to offset 0 at --wrap (1G),\n"
"      plus --leak/s (0) of anonymous memory\n"
"  mmapread --file PATH [--size SIZE] [--rate SIZE]\n"
"      fill PATH to --size (512M), map it, read a byte per 4 KiB at --rate/s (30M)\n"
"  spin [--threads N] [--spread] [--idle-first M]   N busy threads (1), main\n"
"      included; --spread: thread i pinned to the i-th CPU it may use (round\n"
"      robin); --idle-first: M sleeping threads made first, then the N busy\n"
"      ones, the main thread asleep: the busy ones end the thread list\n"
"  sleepers --procs N --threads M     N processes of M sleeping threads\n"
"  interleaved --procs N --threads M [--sleep] [--exit-every DUR]\n"
"      N processes of M busy (or sleeping) threads, made in turn, one thread\n"
"      of each process after the other, so that their TIDs interleave; prints\n"
"      each process's PID on a line of its own before \"ready\"; --exit-every:\n"
"      then one thread of the first process, any, exits every DUR (a pool\n"
"      shrinking), until only its main thread is left\n"
"  latethread                         a busy thread beside a sleeping main one;\n"
"      each SIGUSR1 adds a sleeping thread (make its TID low first, through\n"
"      kernel.ns_last_pid, to mimic a PID counter that wrapped)\n"
"  dio --file PATH [--size SIZE] [--block SIZE]\n"
"      fill PATH to --size (64M), then read --block (1M) at random offsets with\n"
"      O_DIRECT, back to back: asleep in I/O wait nearly all the time\n"
"  diopool --file PATH [--threads N] [--every DUR] [--io DUR] [--block SIZE]\n"
"      [--size SIZE] [--fifo]   N threads (100) that each read --block (16K)\n"
"      O_DIRECT blocks for --io (1ms) every --every (100ms): a pool doing a\n"
"      little I/O; --fifo: its threads SCHED_FIFO 1\n"
"  nap [--every DUR]                  sleep --every (1ms) in nanosleep and poll,\n"
"      by turns: asleep, interruptibly, nearly all the time\n"
"  vforkwait [--every DUR]            vfork a child that sleeps --every (200ms):\n"
"      the parent waits uninterruptibly, and not on I/O\n"
"SIZE: bytes, or with K, M, G (1M = 1048576). DUR: 250ms, 1.5s.\n"
"Examples:\n"
"  hkload grow --step 10M --every 250ms      # a 40 MiB/s leak\n"
"  hkload grow --step 64M --every 250ms --max 1536M\n"
"  hkload sleepers --procs 1000 --threads 10\n";

static char err_prefix[32] = "hkload";

static void __attribute__((noreturn, format(printf, 2, 3)))
fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", err_prefix);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

#define die(...)		fail(1, __VA_ARGS__)
#define usage_error(...)	fail(2, __VA_ARGS__)

/* Leading digits of *s; checked first, as strtoull would skip a space or a sign. */
static bool take_digits(const char **s, uint64_t limit, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	*v = strtoull(*s, &end, 10);
	*s = end;
	return !errno && *v <= limit;
}

/* Digits with an optional binary K/M/G suffix; integers only, capped. */
static bool parse_size(const char *s, uint64_t *out)
{
	uint64_t v;
	int shift = 0;

	if (!take_digits(&s, SIZE_LIMIT, &v))
		return false;
	switch (*s) {
	case 'K': case 'k': shift = 10; s++; break;
	case 'M': case 'm': shift = 20; s++; break;
	case 'G': case 'g': shift = 30; s++; break;
	}
	if (*s || v > SIZE_LIMIT >> shift)
		return false;
	*out = v << shift;
	return true;
}

/* "250ms", "1.5s": whole and fraction kept as integers, no float rounding. */
static bool parse_dur(const char *s, uint64_t *ns)
{
	uint64_t whole, frac = 0, frac_div = 1, unit;

	if (!take_digits(&s, DUR_LIMIT_S * 1000, &whole))
		return false;
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++) {
			if (frac_div == HK_NSEC_PER_SEC)	/* finer than 1 ns */
				return false;
			frac = frac * 10 + (*s - '0');
			frac_div *= 10;
		}
	}
	if (!strcmp(s, "ms"))
		unit = HK_NSEC_PER_MSEC;
	else if (!strcmp(s, "s") && whole <= DUR_LIMIT_S)
		unit = HK_NSEC_PER_SEC;
	else
		return false;
	*ns = whole * unit + frac * unit / frac_div;
	return *ns > 0;
}

static void set_opt(const struct opt_spec *o, const char *arg)
{
	const char *p = arg;
	bool ok = true;
	uint64_t v;

	switch (o->kind) {
	case OPT_SIZE: ok = parse_size(arg, o->dst); break;
	case OPT_DUR: ok = parse_dur(arg, o->dst); break;
	case OPT_COUNT:
		ok = take_digits(&p, COUNT_LIMIT, &v) && !*p && v;
		*(int *)o->dst = (int)v;
		break;
	case OPT_PATH: *(const char **)o->dst = arg; break;
	case OPT_FLAG: *(bool *)o->dst = true; break;
	}
	if (!ok)
		usage_error("bad value '%s' for --%s (want %s)", arg, o->name,
			    kind_hint[o->kind]);
}

/* One getopt_long loop for every subcommand, driven by its option table. */
static void parse_opts(int argc, char **argv, const struct opt_spec *spec, int n)
{
	struct option lo[MAX_OPTS + 2];
	int i, c;

	if (n > MAX_OPTS)
		die("option table too long");
	for (i = 0; i < n; i++)
		lo[i] = (struct option){ spec[i].name,
			spec[i].kind == OPT_FLAG ? no_argument : required_argument,
			NULL, i + 1 };
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n + 1] = (struct option){ NULL, 0, NULL, 0 };
	opterr = 0;	/* our own one-line messages instead of getopt's */
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			exit(0);
		}
		if (c == ':')
			usage_error("option '%s' needs a value", argv[optind - 1]);
		if (c == '?')
			usage_error("unknown option '%s' (see --help)", argv[optind - 1]);
		set_opt(&spec[c - 1], optarg);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
}

static void die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		die("prctl(PR_SET_PDEATHSIG): %s", strerror(errno));
	/* The parent may have exited before the prctl took effect. */
	if (getppid() != parent)
		die("parent exited before start");
}

static void say_ready(void)
{
	if (puts("ready") == EOF || fflush(stdout) == EOF)
		die("writing 'ready' to stdout: %s", strerror(errno));
}

static void __attribute__((noreturn)) hold_forever(void)
{
	for (;;)
		pause();
}

/* Memory that is resident when mmap returns: milliseconds, not seconds. */
static void *alloc_populated(uint64_t len)
{
	void *p;

	if (!len)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		die("mmap of %llu bytes: %s", (unsigned long long)len, strerror(errno));
	return p;
}

struct pacer {
	uint64_t period_ns;
	bool started;		/* the first wait starts the clock */
	struct timespec next;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime: %s", strerror(errno));
	return (uint64_t)ts.tv_sec * HK_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Absolute deadlines: a slow step shortens the next sleep, not the rate. */
static void pacer_wait(struct pacer *p)
{
	uint64_t ns;
	int err;

	if (!p->started && clock_gettime(CLOCK_MONOTONIC, &p->next))
		die("clock_gettime: %s", strerror(errno));
	p->started = true;
	ns = (uint64_t)p->next.tv_nsec + p->period_ns;
	p->next.tv_sec += (time_t)(ns / HK_NSEC_PER_SEC);
	p->next.tv_nsec = (long)(ns % HK_NSEC_PER_SEC);
	do
		err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &p->next, NULL);
	while (err == EINTR);
	if (err)
		die("clock_nanosleep: %s", strerror(err));
}

/* Bytes due this tick; the remainder carries, so 10 ticks give per_s exactly. */
struct rate {
	uint64_t per_s;
	uint64_t carry;
};

static uint64_t rate_take(struct rate *r)
{
	uint64_t n;

	r->carry += r->per_s;
	n = r->carry / TICKS_PER_S;
	r->carry -= n * TICKS_PER_S;
	return n;
}

struct grow_opts {
	uint64_t start, step, every_ns, max;
	bool main_exit;
};

static void *grow_run(void *arg)
{
	const struct grow_opts *o = arg;
	struct pacer p = { .period_ns = o->every_ns };
	uint64_t total = o->start, n, t0 = now_ns();

	alloc_populated(o->start);
	say_ready();
	while (o->step && total < o->max) {
		n = o->max - total < o->step ? o->max - total : o->step;
		pacer_wait(&p);
		alloc_populated(n);
		total += n;
	}
	/* how long the growth really took: a test's premise ("born at once",
	 * "a warm-up shorter than the trend") holds only if the machine could
	 * keep the pace asked for */
	if (o->max != UINT64_MAX && (printf("grown %llu ms\n", (unsigned long long)
					    ((now_ns() - t0) / HK_NSEC_PER_MSEC)) < 0 ||
				     fflush(stdout) == EOF))
		die("writing to stdout: %s", strerror(errno));
	hold_forever();
}

static int cmd_grow(int argc, char **argv)
{
	/* static: the grow thread outlives main's frame with --main-exit */
	static struct grow_opts o = {
		.step = 10 << 20, .every_ns = 250 * HK_NSEC_PER_MSEC, .max = UINT64_MAX,
	};
	const struct opt_spec spec[] = {
		{ "start", OPT_SIZE, &o.start }, { "step", OPT_SIZE, &o.step },
		{ "every", OPT_DUR, &o.every_ns }, { "max", OPT_SIZE, &o.max },
		{ "main-exit", OPT_FLAG, &o.main_exit },
	};
	pthread_t t;
	int err;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (o.start > o.max)
		usage_error("--start is above --max");
	if (!o.main_exit)
		grow_run(&o);
	err = pthread_create(&t, NULL, grow_run, &o);
	if (err)
		die("pthread_create: %s", strerror(err));
	/* A zombie main thread: the tool must read RSS from a live thread. */
	pthread_exit(NULL);
}

static void pwrite_all(int fd, const char *buf, uint64_t len, uint64_t off)
{
	ssize_t n;

	while (len) {
		n = pwrite(fd, buf, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write: %s", n ? strerror(errno) : "no progress");
		buf += n;
		len -= (uint64_t)n;
		off += (uint64_t)n;
	}
}

struct writer {
	int fd;
	const char *buf;	/* one chunk of pattern; every write reuses it */
	uint64_t off, wrap;
	struct rate data, leak;
};

static void write_tick(struct writer *w)
{
	uint64_t len = rate_take(&w->data), n;

	while (len) {
		/* Restart at 0 on reaching --wrap: the file never exceeds it. */
		n = w->wrap - w->off < len ? w->wrap - w->off : len;
		pwrite_all(w->fd, w->buf, n, w->off);
		w->off = (w->off + n) % w->wrap;
		len -= n;
	}
	alloc_populated(rate_take(&w->leak));
}

static int cmd_write(int argc, char **argv)
{
	const char *file = NULL;
	struct writer w = { .wrap = 1ULL << 30, .data.per_s = 30 << 20 };
	const struct opt_spec spec[] = {
		{ "file", OPT_PATH, &file }, { "rate", OPT_SIZE, &w.data.per_s },
		{ "wrap", OPT_SIZE, &w.wrap }, { "leak", OPT_SIZE, &w.leak.per_s },
	};
	struct pacer p = { .period_ns = HK_NSEC_PER_SEC / TICKS_PER_S };
	uint64_t chunk;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (!file)
		usage_error("--file is required");
	if (!w.wrap)
		usage_error("--wrap must be above 0");
	chunk = w.data.per_s / TICKS_PER_S + 1;
	w.buf = memset(alloc_populated(chunk), 0xa5, chunk);
	w.fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w.fd < 0)
		die("open %s: %s", file, strerror(errno));
	write_tick(&w);
	say_ready();
	for (;;) {
		pacer_wait(&p);
		write_tick(&w);
	}
}

/* Real data, not a hole, so the pages end up in the page cache. */
static void fill_file(int fd, const char *file, uint64_t size)
{
	struct stat st;
	uint64_t off, n;
	char *buf;

	if (fstat(fd, &st))
		die("stat %s: %s", file, strerror(errno));
	if ((uint64_t)st.st_size >= size)
		return;
	buf = memset(alloc_populated(FILL_CHUNK), 0x5a, FILL_CHUNK);
	for (off = (uint64_t)st.st_size; off < size; off += n) {
		n = size - off < FILL_CHUNK ? size - off : FILL_CHUNK;
		pwrite_all(fd, buf, n, off);
	}
	/* Unmapped before "ready": RssAnon must stay flat from then on. */
	if (munmap(buf, FILL_CHUNK))
		die("munmap: %s", strerror(errno));
}

/* FILE made SIZE bytes long and on disk, then opened for O_DIRECT reads:
 * every read is the device's, never the page cache's. */
static int open_direct(const char *file, uint64_t size)
{
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		die("open %s: %s", file, strerror(errno));
	fill_file(fd, file, size);
	if (fsync(fd))
		die("fsync %s: %s", file, strerror(errno));
	close(fd);
	fd = open(file, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		die("open %s with O_DIRECT: %s (a tmpfs cannot: use a disk)", file,
		    strerror(errno));
	return fd;
}

struct reader {
	const unsigned char *map;
	uint64_t size, off, budget;
	struct rate rate;
};

/* volatile: the compiler must not drop the reads that fault pages in */
static volatile uint64_t read_sum;

static void read_tick(struct reader *r)
{
	r->budget += rate_take(&r->rate);
	while (r->budget >= READ_STRIDE) {
		read_sum += r->map[r->off];
		r->budget -= READ_STRIDE;
		r->off += READ_STRIDE;
		if (r->off >= r->size)
			r->off = 0;
	}
}

static int cmd_mmapread(int argc, char **argv)
{
	const char *file = NULL;
	struct reader r = { .size = 512ULL << 20, .rate.per_s = 30 << 20 };
	const struct opt_spec spec[] = {
		{ "file", OPT_PATH, &file }, { "size", OPT_SIZE, &r.size },
		{ "rate", OPT_SIZE, &r.rate.per_s },
	};
	struct pacer p = { .period_ns = HK_NSEC_PER_SEC / TICKS_PER_S };
	void *map;
	int fd;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (!file)
		usage_error("--file is required");
	if (!r.size)
		usage_error("--size must be above 0");
	fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		die("open %s: %s", file, strerror(errno));
	fill_file(fd, file, r.size);
	/* No MAP_POPULATE: RssFile must grow only as the reader advances. */
	map = mmap(NULL, r.size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		die("mmap %s: %s", file, strerror(errno));
	r.map = map;
	if (close(fd))
		die("close %s: %s", file, strerror(errno));
	say_ready();
	for (;;) {
		read_tick(&r);
		pacer_wait(&p);
	}
}

static void *spin_loop(void *arg)
{
	/* volatile: a real busy loop, never optimised away, never a syscall */
	volatile unsigned long n = 0;

	for (;;)
		n++;
	return NULL;
}

/* Pin thread t to the i-th CPU of the affinity it was started with. */
static void spread_one(pthread_t t, const cpu_set_t *allowed, int i)
{
	int n = CPU_COUNT(allowed), cpu, k = -1, err;
	cpu_set_t one;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, allowed) && ++k == i % n)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	err = pthread_setaffinity_np(t, sizeof(one), &one);
	if (err)
		die("pthread_setaffinity_np: %s", strerror(err));
}

static void *sleep_loop(void *arg);

/* count threads running fn, with small stacks when they only sleep */
static void spin_make(int count, void *(*fn)(void *), size_t stack)
{
	pthread_attr_t attr;
	pthread_t t;
	int i, err;

	err = pthread_attr_init(&attr);
	if (!err && stack)
		err = pthread_attr_setstacksize(&attr, stack);
	for (i = 0; !err && i < count; i++)
		err = pthread_create(&t, &attr, fn, NULL);
	if (err)
		die("pthread_create: %s", strerror(err));
	pthread_attr_destroy(&attr);
}

static int cmd_spin(int argc, char **argv)
{
	int threads = 1, idle_first = 0, i, err;
	bool spread = false;
	const struct opt_spec spec[] = { { "threads", OPT_COUNT, &threads },
					 { "spread", OPT_FLAG, &spread },
					 { "idle-first", OPT_COUNT, &idle_first } };
	cpu_set_t allowed;
	pthread_t t;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (idle_first) {
		if (spread)
			usage_error("--spread and --idle-first do not go together");
		spin_make(idle_first, sleep_loop,
			  SLEEPER_STACK > PTHREAD_STACK_MIN ? SLEEPER_STACK : PTHREAD_STACK_MIN);
		spin_make(threads, spin_loop, 0);
		say_ready();
		hold_forever();
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		die("sched_getaffinity: %s", strerror(errno));
	for (i = 1; i < threads; i++) {
		err = pthread_create(&t, NULL, spin_loop, NULL);
		if (err)
			die("pthread_create: %s", strerror(err));
		if (spread)
			spread_one(t, &allowed, i);
	}
	if (spread)
		spread_one(pthread_self(), &allowed, 0);
	say_ready();
	spin_loop(NULL);
	return 0;
}

static void *sleep_loop(void *arg)
{
	hold_forever();
}

/* Child: make the threads, then send 0 or the pthread error as one byte. */
static void __attribute__((noreturn)) sleeper_child(const int *fds, int threads, pid_t parent)
{
	size_t stack = SLEEPER_STACK > PTHREAD_STACK_MIN ? SLEEPER_STACK : PTHREAD_STACK_MIN;
	pthread_attr_t attr;
	unsigned char status;
	pthread_t t;
	int i, err;

	die_with_parent(parent);
	if (close(fds[0]))
		die("close: %s", strerror(errno));
	err = pthread_attr_init(&attr);
	if (!err)
		err = pthread_attr_setstacksize(&attr, stack);
	for (i = 1; i < threads && !err; i++)
		err = pthread_create(&t, &attr, sleep_loop, NULL);
	status = (unsigned char)err;
	if (write(fds[1], &status, 1) != 1 || close(fds[1]) || err)
		_exit(1);
	hold_forever();
}

static void __attribute__((noreturn))
kill_and_die(const pid_t *pids, int n, const char *what, int err)
{
	while (n--)
		kill(pids[n], SIGKILL);
	die(err ? "%s: %s" : "%s%s", what, err ? strerror(err) : "");
}

/* One byte per child; EOF first means a child died before reporting. */
static void wait_children(int rfd, const pid_t *pids, int procs)
{
	unsigned char status;
	ssize_t n;
	int i;

	for (i = 0; i < procs; i++) {
		do
			n = read(rfd, &status, 1);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			kill_and_die(pids, procs, "read from children", errno);
		if (n == 0)
			kill_and_die(pids, procs, "a child exited before its threads were ready", 0);
		if (status)
			kill_and_die(pids, procs, "pthread_create in a child", status);
	}
}

static int cmd_sleepers(int argc, char **argv)
{
	int procs = 0, threads = 0, fds[2], i;
	const struct opt_spec spec[] = {
		{ "procs", OPT_COUNT, &procs }, { "threads", OPT_COUNT, &threads },
	};
	pid_t self = getpid(), *pids;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (!procs || !threads)
		usage_error("--procs and --threads are required");
	pids = calloc((size_t)procs, sizeof(*pids));
	if (!pids)
		die("calloc: %s", strerror(errno));
	if (pipe(fds))
		die("pipe: %s", strerror(errno));
	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			kill_and_die(pids, i, "fork", errno);
		if (pids[i] == 0)
			sleeper_child(fds, threads, self);
	}
	/* Only the children hold the write end now: EOF means one died. */
	if (close(fds[1]))
		kill_and_die(pids, procs, "close", errno);
	wait_children(fds[0], pids, procs);
	say_ready();
	hold_forever();
}

/*
 * Child of `interleaved`: one more thread each time the parent sends a
 * byte, answered with 0 or the pthread error; the main thread then does
 * what its threads do.
 */
/* --exit-every: the threads wait for a byte here; whichever gets it exits */
static int exit_token_fd = -1;

static void *exit_wait_loop(void *arg)
{
	unsigned char token;
	ssize_t n;

	do
		n = read(exit_token_fd, &token, 1);
	while (n < 0 && errno == EINTR);
	return NULL;
}

static void __attribute__((noreturn))
interleaved_child(int token_fd, int reply_fd, int threads, bool sleeping, pid_t parent,
		  uint64_t exit_every_ns)
{
	void *(*body)(void *) = sleeping ? sleep_loop : spin_loop;
	unsigned char token, status;
	struct timespec ts;
	int i, err, ex[2];
	pthread_t t;

	die_with_parent(parent);
	if (exit_every_ns) {
		if (pipe(ex))
			_exit(1);
		exit_token_fd = ex[0];
		body = exit_wait_loop;
	}
	for (i = 1; i < threads; i++) {
		if (read(token_fd, &token, 1) != 1)
			_exit(1);
		err = pthread_create(&t, NULL, body, NULL);
		if (!err)
			err = pthread_detach(t);
		status = (unsigned char)err;
		if (write(reply_fd, &status, 1) != 1 || err)
			_exit(1);
	}
	if (!exit_every_ns)
		body(NULL);
	/* one thread a turn: the pool shrinks to the main thread */
	ts.tv_sec = (time_t)(exit_every_ns / 1000000000u);
	ts.tv_nsec = (long)(exit_every_ns % 1000000000u);
	for (i = 1; i < threads; i++) {
		nanosleep(&ts, NULL);
		token = 1;
		if (write(ex[1], &token, 1) != 1)
			_exit(1);
	}
	hold_forever();
}

static int cmd_interleaved(int argc, char **argv)
{
	int procs = 0, threads = 0, reply[2], i, r;
	uint64_t exit_every_ns = 0;
	bool sleeping = false;
	const struct opt_spec spec[] = {
		{ "procs", OPT_COUNT, &procs }, { "threads", OPT_COUNT, &threads },
		{ "sleep", OPT_FLAG, &sleeping }, { "exit-every", OPT_DUR, &exit_every_ns },
	};
	pid_t self = getpid(), *pids;
	int *tokens;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (!procs || !threads)
		usage_error("--procs and --threads are required");
	pids = calloc((size_t)procs, sizeof(*pids));
	tokens = calloc((size_t)procs, sizeof(*tokens));
	if (!pids || !tokens)
		die("calloc: %s", strerror(errno));
	if (pipe(reply))
		die("pipe: %s", strerror(errno));
	for (i = 0; i < procs; i++) {
		int tok[2];

		if (pipe(tok))
			kill_and_die(pids, i, "pipe", errno);
		pids[i] = fork();
		if (pids[i] < 0)
			kill_and_die(pids, i, "fork", errno);
		if (pids[i] == 0) {
			close(tok[1]);
			interleaved_child(tok[0], reply[1], threads, sleeping, self,
					  i ? 0 : exit_every_ns);
		}
		close(tok[0]);
		tokens[i] = tok[1];
	}
	close(reply[1]);
	/* round by round: thread r of process 0, of process 1, ... */
	for (r = 1; r < threads; r++) {
		for (i = 0; i < procs; i++) {
			unsigned char token = 1, status;
			ssize_t n;

			if (write(tokens[i], &token, 1) != 1)
				kill_and_die(pids, procs, "write to a child", errno);
			do
				n = read(reply[0], &status, 1);
			while (n < 0 && errno == EINTR);
			if (n != 1)
				kill_and_die(pids, procs, "a child died making its threads", 0);
			if (status)
				kill_and_die(pids, procs, "pthread_create in a child", status);
		}
	}
	for (i = 0; i < procs; i++)
		printf("%d\n", (int)pids[i]);
	say_ready();
	hold_forever();
}

/*
 * A process that adds a thread after its busy one: once the PID counter has
 * wrapped, the newest thread (the end of its thread list) has a lower TID
 * than the older ones, and a walk in TID order meets it first. SIGUSR1 is
 * taken by sigwait() in the main thread, so the thread is made outside a
 * signal handler.
 */
static int cmd_latethread(int argc, char **argv)
{
	sigset_t usr1;
	pthread_t t;
	int err, sig;

	parse_opts(argc, argv, NULL, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* blocked before the threads exist: they inherit the mask */
	err = pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	if (err)
		die("pthread_sigmask: %s", strerror(err));
	err = pthread_create(&t, NULL, spin_loop, NULL);
	if (err)
		die("pthread_create: %s", strerror(err));
	say_ready();
	for (;;) {
		err = sigwait(&usr1, &sig);
		if (err)
			die("sigwait: %s", strerror(err));
		err = pthread_create(&t, NULL, sleep_loop, NULL);
		if (err)
			die("pthread_create: %s", strerror(err));
	}
}

/*
 * Blocked on a disk: O_DIRECT reads sleep in io_schedule until the device
 * answers, and no page cache answers for it. The block is read at an
 * aligned random offset so that no device cache of the last one helps.
 */
static int cmd_dio(int argc, char **argv)
{
	const char *file = NULL;
	uint64_t size = 64 << 20, block = 1 << 20, blocks, n = 1;
	const struct opt_spec spec[] = {
		{ "file", OPT_PATH, &file }, { "size", OPT_SIZE, &size },
		{ "block", OPT_SIZE, &block },
	};
	void *buf;
	int fd;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (!file)
		usage_error("--file is required");
	if (!block || block % 4096 || size < block)
		usage_error("--block must be a multiple of 4K, at most --size");
	fd = open_direct(file, size);
	if (posix_memalign(&buf, 4096, block))
		die("out of memory");
	blocks = size / block;
	say_ready();
	for (;;) {
		/* a 64-bit LCG: no libc state, the same walk every run */
		n = n * 6364136223846793005ULL + 1442695040888963407ULL;
		if (pread(fd, buf, block, (off_t)((n >> 33) % blocks * block)) < 0)
			die("read %s: %s", file, strerror(errno));
	}
}

/*
 * A pool of threads that each do a little disk I/O: every --every, a
 * thread reads O_DIRECT blocks for --io (the last read may overrun it),
 * then sleeps to its next deadline. 100 threads at 1 ms per 100 ms are
 * blocked a whole thread's time in sum, each 1 % of its own.
 */
struct diopool {
	int fd;
	uint64_t blocks, block, every_ns, io_ns;
	uint64_t threads;
	uint64_t next;		/* threads started */
};

static void *diopool_loop(void *arg)
{
	struct diopool *d = arg;
	struct pacer pc = { .period_ns = d->every_ns };
	uint64_t n = (uint64_t)syscall(SYS_gettid), start;
	uint64_t i = __atomic_fetch_add(&d->next, 1, __ATOMIC_RELAXED);
	struct timespec ts;
	void *buf;

	if (posix_memalign(&buf, 4096, d->block))
		die("out of memory");
	/* spread over the period: threads that wake together queue behind
	 * each other for a CPU, which is not what a pool at 1 % looks like */
	start = d->every_ns * i / d->threads;
	ts.tv_sec = (time_t)(start / HK_NSEC_PER_SEC);
	ts.tv_nsec = (long)(start % HK_NSEC_PER_SEC);
	nanosleep(&ts, NULL);
	for (;;) {
		start = now_ns();
		do {
			n = n * 6364136223846793005ULL + 1442695040888963407ULL;
			if (pread(d->fd, buf, d->block,
				  (off_t)((n >> 33) % d->blocks * d->block)) < 0)
				die("read: %s", strerror(errno));
		} while (now_ns() - start < d->io_ns);
		pacer_wait(&pc);
	}
	return NULL;
}

static int cmd_diopool(int argc, char **argv)
{
	static struct diopool d = { .block = 16 << 10, .every_ns = 100 * HK_NSEC_PER_MSEC,
				    .io_ns = HK_NSEC_PER_MSEC };
	const char *file = NULL;
	uint64_t size = 64 << 20;
	int threads = 100, i, err;
	bool fifo = false;
	const struct opt_spec spec[] = {
		{ "file", OPT_PATH, &file }, { "threads", OPT_COUNT, &threads },
		{ "every", OPT_DUR, &d.every_ns }, { "io", OPT_DUR, &d.io_ns },
		{ "block", OPT_SIZE, &d.block }, { "size", OPT_SIZE, &size },
		{ "fifo", OPT_FLAG, &fifo },
	};
	struct sched_param sp = { .sched_priority = 1 };
	pthread_attr_t attr;
	pthread_t t;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	if (!file)
		usage_error("--file is required");
	if (!d.block || d.block % 4096 || size < d.block)
		usage_error("--block must be a multiple of 4K, at most --size");
	if (!d.every_ns || d.io_ns >= d.every_ns)
		usage_error("--io must be shorter than --every");
	d.fd = open_direct(file, size);
	d.blocks = size / d.block;
	d.threads = (uint64_t)threads;
	if ((err = pthread_attr_init(&attr)) ||
	    (err = pthread_attr_setstacksize(&attr, SLEEPER_STACK)))
		die("pthread_attr: %s", strerror(err));
	/* SCHED_FIFO: never dequeued late by EEVDF (see test_io.t_io_pool) */
	if (fifo && ((err = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED)) ||
		     (err = pthread_attr_setschedpolicy(&attr, SCHED_FIFO)) ||
		     (err = pthread_attr_setschedparam(&attr, &sp))))
		die("pthread_attr SCHED_FIFO: %s", strerror(err));
	for (i = 0; i < threads; i++) {
		err = pthread_create(&t, &attr, diopool_loop, &d);
		if (err)
			die("pthread_create: %s", strerror(err));
	}
	say_ready();
	hold_forever();
}

/* Asleep, interruptibly: what a process waiting for work looks like. */
static int cmd_nap(int argc, char **argv)
{
	uint64_t every_ns = HK_NSEC_PER_MSEC;
	const struct opt_spec spec[] = { { "every", OPT_DUR, &every_ns } };
	struct timespec ts;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	ts.tv_sec = (time_t)(every_ns / HK_NSEC_PER_SEC);
	ts.tv_nsec = (long)(every_ns % HK_NSEC_PER_SEC);
	say_ready();
	for (;;) {
		nanosleep(&ts, NULL);
		if (ppoll(NULL, 0, &ts, NULL) < 0 && errno != EINTR)
			die("ppoll: %s", strerror(errno));
	}
	return 0;
}

/*
 * Uninterruptible, not I/O: a vfork parent sleeps in D state until its
 * child execs or exits. The child only makes system calls (it shares the
 * parent's memory and stack).
 */
static int cmd_vforkwait(int argc, char **argv)
{
	uint64_t every_ns = 200 * HK_NSEC_PER_MSEC;
	const struct opt_spec spec[] = { { "every", OPT_DUR, &every_ns } };
	struct timespec ts;
	pid_t pid;

	parse_opts(argc, argv, spec, ARRAY_SIZE(spec));
	ts.tv_sec = (time_t)(every_ns / HK_NSEC_PER_SEC);
	ts.tv_nsec = (long)(every_ns % HK_NSEC_PER_SEC);
	say_ready();
	for (;;) {
		pid = vfork();
		if (pid < 0)
			die("vfork: %s", strerror(errno));
		if (!pid) {
			syscall(SYS_nanosleep, &ts, NULL);
			syscall(SYS_exit, 0);
		}
		waitpid(pid, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} cmds[] = {
		{ "grow", cmd_grow }, { "write", cmd_write },
		{ "mmapread", cmd_mmapread }, { "spin", cmd_spin },
		{ "sleepers", cmd_sleepers }, { "interleaved", cmd_interleaved },
		{ "latethread", cmd_latethread }, { "dio", cmd_dio }, { "diopool", cmd_diopool },
		{ "nap", cmd_nap }, { "vforkwait", cmd_vforkwait },
	};
	pid_t parent = getppid();
	int i;

	if (argc < 2)
		usage_error("missing subcommand (see --help)");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		snprintf(err_prefix, sizeof(err_prefix), "hkload %s", cmds[i].name);
		die_with_parent(parent);
		return cmds[i].run(argc - 1, argv + 1);
	}
	usage_error("unknown subcommand '%s' (see --help)", argv[1]);
}
