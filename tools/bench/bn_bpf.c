// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn-bpf - the benchmark's BPF side, in one binary:
 *
 *   bn-bpf attach empty|filter|tgid  attach a sched_switch yardstick, print
 *                                    "ready prog_id=N", wait for SIGTERM
 *   bn-bpf attach exitempty          ... an empty sched_process_exit one
 *   bn-bpf attach forkhook           ... the TGID table's fork hook (bn_tgid.c)
 *   bn-bpf walk [-r REPS] [-l LEVELS] run the bare walks (BPF_PROG_TEST_RUN)
 *                                    (LEVELS: iter,direct,fields,store,hash
 *                                    or all of those; delays,stall; task:
 *                                    the kernel's iter/task, by TID; watch
 *                                    only: table, bn_table.c's table walk;
 *                                    tgidtable, bn_tgid.c's)
 *   bn-bpf stats -p PID              hk_stats of the hotspot-k with that PID
 *   bn-bpf watch -p PID[,PID] -d SEC [-n N[,N]] [-b MS] [-l LEVELS]
 *                                    print hk_stats each time a window
 *                                    closes and, MS, 2 x MS, ... after each
 *                                    window of the first PID, a bare walk (iter,
 *                                    table and tgidtable in turn, then the other
 *                                    levels in turn); stop
 *                                    after SEC or once each PID had N more
 *                                    windows
 *   bn-bpf host [-r READS] [-s SAMPLES] [-b MS]
 *                                    hotspot-k's host headroom read
 *                                    (bn_host_read): READS back to back,
 *                                    5 times ("hot"), then SAMPLES single
 *                                    reads MS apart, each between two reads
 *                                    of /proc/meminfo ("host")
 *
 * hk_stats is found among the PID's own BPF file descriptors (there may be
 * several hotspot-k instances on the machine) and read by field name through
 * the map's BTF, so this does not depend on struct hk_stats's layout.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench.skel.h"
#include "bn_table.h"
#include "bn_tgid.h"

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN || getenv("BN_VERBOSE"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* --- attach -------------------------------------------------------------- */

static int cmd_attach(const char *which)
{
	struct bench_bpf *skel;
	struct bpf_program *prog, *want;
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int err;

	if (!strcmp(which, "forkhook"))
		return bn_tgid__attach_fork(&exiting);
	skel = bench_bpf__open();
	if (!skel)
		return 1;
	want = !strcmp(which, "empty") ? skel->progs.bn_empty :
	       !strcmp(which, "filter") ? skel->progs.bn_filter :
	       !strcmp(which, "tgid") ? skel->progs.bn_tgid :
	       !strcmp(which, "exitempty") ? skel->progs.bn_exit_empty : NULL;
	if (!want) {
		fprintf(stderr, "bn-bpf: attach empty|filter|tgid|exitempty|forkhook\n");
		bench_bpf__destroy(skel);
		return 2;
	}
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, prog == want);
	err = bench_bpf__load(skel);
	if (!err && !bpf_program__attach(want))
		err = -errno;
	if (!err)
		err = bpf_obj_get_info_by_fd(bpf_program__fd(want), &info, &len);
	if (err) {
		fprintf(stderr, "bn-bpf: attach %s: %s\n", which, strerror(-err));
		bench_bpf__destroy(skel);
		return 1;
	}
	printf("ready prog_id=%u\n", info.id);
	fflush(stdout);
	while (!exiting)
		pause();
	bench_bpf__destroy(skel);
	return 0;
}

/* --- bare walks ---------------------------------------------------------- */

/* "all": the five levels of figure 3; delays and stall (figure 13) and
 * task (the iter driver's floor) apart */
enum { NR_LEVELS = 8, ALL_LEVELS = (1 << 5) - 1, NR_SLOTS = 4, LEVEL_TASK = 7, TABLE = 1 << 8,
       TGID_TABLE = 1 << 9 };

static const char *const level_names[NR_LEVELS] = {
	"iter", "direct", "fields", "store", "hash", "delays", "stall", "task",
};

struct walker {
	struct bench_bpf *skel;
	struct bpf_link *task_link;	/* bn_walk_task's, for its iterators */
	int fd[NR_LEVELS];
};

static int walker__open(struct walker *w, __u32 max_procs)
{
	struct bpf_program *prog;
	char name[32];
	int err, l;

	w->skel = bench_bpf__open();
	if (!w->skel)
		return -errno;
	bpf_object__for_each_program(prog, w->skel->obj)
		bpf_program__set_autoload(prog, !strncmp(bpf_program__name(prog), "bn_walk_", 8));
	bpf_map__set_max_entries(w->skel->maps.bn_procs, max_procs);
	err = bench_bpf__load(w->skel);
	if (err) {
		bench_bpf__destroy(w->skel);
		w->skel = NULL;
		return err;
	}
	for (l = 0; l < LEVEL_TASK; l++) {	/* bn_walk_iter, bn_walk_direct, ... */
		snprintf(name, sizeof(name), "bn_walk_%s", level_names[l]);
		w->fd[l] = bpf_program__fd(bpf_object__find_program_by_name(w->skel->obj, name));
	}
	w->task_link = bpf_program__attach_iter(w->skel->progs.bn_walk_task, NULL);
	if (!w->task_link) {
		err = -errno;
		bench_bpf__destroy(w->skel);
		w->skel = NULL;
		return err;
	}
	return 0;
}

static void walker__close(struct walker *w)
{
	bpf_link__destroy(w->task_link);
	bench_bpf__destroy(w->skel);
	w->task_link = NULL;
	w->skel = NULL;
}

/* The iter/task floor: one iterator read to its end (the program writes
 * nothing, so one read() walks every thread). */
static int walker__run_task(struct walker *w, struct bn_walk_ctx *out)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = bpf_iter_create(bpf_link__fd(w->task_link));
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	if (n < 0)
		return -errno;
	out->threads = w->skel->bss->bn_task_threads;
	out->procs = 0;
	out->ns = w->skel->bss->bn_task_ns;
	return 0;
}

static int walker__run(struct walker *w, int level, struct bn_walk_ctx *out)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct bn_walk_ctx ctx = {};
	int err;

	if (level == LEVEL_TASK)
		return walker__run_task(w, out);
	opts.ctx_in = &ctx;
	opts.ctx_size_in = sizeof(ctx);
	err = bpf_prog_test_run_opts(w->fd[level], &opts);
	if (err)
		return -errno;
	*out = ctx;
	return 0;
}

static void walker__print(struct walker *w, int level, const char *tag)
{
	struct bn_walk_ctx c = {};
	int err = walker__run(w, level, &c);

	if (err) {
		fprintf(stderr, "bn-bpf: walk %s: %s\n", level_names[level], strerror(-err));
		return;
	}
	printf("bare%s t=%.3f level=%s threads=%llu procs=%llu ns=%llu\n", tag,
	       now_ns() / 1e9, level_names[level], (unsigned long long)c.threads,
	       (unsigned long long)c.procs, (unsigned long long)c.ns);
}

/* "iter,store" -> bit mask of levels */
static int parse_levels(const char *s)
{
	char buf[128], *tok, *save;
	int mask = 0, i;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_LEVELS; i++)
			if (!strcmp(tok, level_names[i]))
				mask |= 1 << i;
		if (!strcmp(tok, "all"))
			mask |= ALL_LEVELS;
		if (!strcmp(tok, "table"))
			mask |= TABLE;
		if (!strcmp(tok, "tgidtable"))
			mask |= TGID_TABLE;
	}
	return mask;
}

/* --- hk_stats of a given hotspot-k -------------------------------------- */

enum { MAX_FIELDS = 64, MAX_WATCH = 4 };

struct hkstats {
	int pid;
	int fd;
	__u32 value_size;
	int nr;
	char name[MAX_FIELDS][32];
	__u32 off[MAX_FIELDS];
	__u64 windows;		/* last seen */
	unsigned char *buf;
};

/* the bpf map fd named hk_stats held by pid, opened by map id */
static int hkstats__open(struct hkstats *s, int pid)
{
	char dir[64], path[320], line[256];
	struct bpf_map_info info;
	struct dirent *de;
	struct btf *btf;
	const struct btf_type *t;
	const struct btf_member *m;
	__u32 len;
	DIR *d;
	int i;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->fd = -1;
	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && s->fd < 0) {
		unsigned int id = 0;
		FILE *f;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "map_id: %u", &id) == 1)
				break;
		fclose(f);
		if (!id)
			continue;
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    !strcmp(info.name, "hk_stats") && info.btf_id) {
			s->fd = fd;
			break;
		}
		close(fd);
	}
	closedir(d);
	if (s->fd < 0)
		return -ENOENT;
	s->value_size = info.value_size;
	s->buf = calloc(1, info.value_size);
	btf = btf__load_from_kernel_by_id(info.btf_id);
	if (!btf || !s->buf)
		return -ENOMEM;
	t = btf__type_by_id(btf, info.btf_value_type_id);
	if (!t || !btf_is_struct(t)) {
		btf__free(btf);
		return -EINVAL;
	}
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t) && s->nr < MAX_FIELDS; i++, m++) {
		const struct btf_type *mt;

		mt = btf__type_by_id(btf, btf__resolve_type(btf, m->type));
		if (!mt || !btf_is_int(mt) || mt->size != 8)
			continue;
		snprintf(s->name[s->nr], sizeof(s->name[0]), "%s",
			 btf__name_by_offset(btf, m->name_off));
		s->off[s->nr] = btf_member_bit_offset(t, i) / 8;
		s->nr++;
	}
	btf__free(btf);
	return 0;
}

static int hkstats__read(struct hkstats *s)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(s->fd, &zero, s->buf) ? -errno : 0;
}

static __u64 hkstats__get(const struct hkstats *s, const char *name)
{
	__u64 v;
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->name[i], name)) {
			memcpy(&v, s->buf + s->off[i], sizeof(v));
			return v;
		}
	return 0;
}

static void hkstats__print(const struct hkstats *s, const char *tag)
{
	__u64 v;
	int i;

	printf("%s t=%.3f pid=%d", tag, now_ns() / 1e9, s->pid);
	for (i = 0; i < s->nr; i++) {
		memcpy(&v, s->buf + s->off[i], sizeof(v));
		printf(" %s=%llu", s->name[i], (unsigned long long)v);
	}
	printf("\n");
	fflush(stdout);
}

static int cmd_stats(int pid)
{
	struct hkstats s;
	int err = hkstats__open(&s, pid);

	if (!err)
		err = hkstats__read(&s);
	if (err) {
		fprintf(stderr, "bn-bpf: hk_stats of pid %d: %s\n", pid, strerror(-err));
		return 1;
	}
	hkstats__print(&s, "stats");
	return 0;
}

static int cmd_watch(char *pids, char *min_windows, double secs, int bare_ms,
		     int levels, __u32 max_procs)
{
	struct hkstats s[MAX_WATCH];
	__u64 want[MAX_WATCH] = {}, first[MAX_WATCH];
	int done;
	struct walker w = {};
	struct bn_table tab = {};
	struct bn_tgid tg = {};
	__u64 end = now_ns() + (__u64)(secs * 1e9), slot[NR_SLOTS] = {};
	char *tok, *save;
	int n = 0, i, l, err, next = 1, pending, nslots = levels & (TABLE | TGID_TABLE) ? 4 : 3;
	int tables = 0;

	/* load first: hotspot-k is running already, its first window is due */
	if (levels) {
		err = walker__open(&w, max_procs);
		if (err) {
			fprintf(stderr, "bn-bpf: load bare walks: %s\n", strerror(-err));
			return 1;
		}
	}
	if (levels & TABLE)
		bn_table__open(&tab, max_procs);
	if (levels & TGID_TABLE)
		bn_tgid__open(&tg);
	for (tok = strtok_r(pids, ",", &save); tok && n < MAX_WATCH;
	     tok = strtok_r(NULL, ",", &save)) {
		err = hkstats__open(&s[n], atoi(tok));
		if (err) {
			fprintf(stderr, "bn-bpf: hk_stats of pid %s: %s\n", tok, strerror(-err));
			return 1;
		}
		hkstats__read(&s[n]);
		s[n].windows = hkstats__get(&s[n], "windows");
		first[n] = s[n].windows;
		/* a window before we looked (hotspot-k walks once at start) */
		if (s[n].windows)
			hkstats__print(&s[n], "win");
		n++;
	}
	for (i = 0, tok = min_windows ? strtok_r(min_windows, ",", &save) : NULL;
	     tok && i < n; tok = strtok_r(NULL, ",", &save), i++)
		want[i] = strtoull(tok, NULL, 10);
	while (!exiting && now_ns() < end) {
		for (i = 0, pending = 0; i < NR_SLOTS; i++)
			pending |= !!slot[i];
		for (i = 0, done = !!min_windows; i < n; i++)
			done &= s[i].windows - first[i] >= want[i];
		if (done && !pending)
			break;
		for (i = 0; i < n; i++) {
			if (hkstats__read(&s[i]))
				continue;
			if (hkstats__get(&s[i], "windows") == s[i].windows)
				continue;
			s[i].windows = hkstats__get(&s[i], "windows");
			hkstats__print(&s[i], "win");
			/*
			 * Bare walks in slots MS apart after each window of
			 * the first instance: the floor (iter) in the first,
			 * the other levels in turn in the next ones, so that
			 * every walk finds the threads untouched for about
			 * MS, as hotspot-k's own walk does.
			 */
			if (i == 0 && levels)
				for (l = 0; l < nslots; l++)
					slot[l] = now_ns() + (l + 1) * bare_ms * 1000000ULL;
		}
		if (slot[0] && now_ns() >= slot[0]) {
			slot[0] = 0;
			if (levels & 1)
				walker__print(&w, 0, "");
		}
		for (i = 1; i < nslots; i++) {
			if (!slot[i] || now_ns() < slot[i])
				continue;
			slot[i] = 0;
			/* the tables' own slot, one then the other: each
			 * finds the threads as untouched as the other does */
			if (i == 1 && (levels & (TABLE | TGID_TABLE))) {
				if ((levels & TGID_TABLE) && (!(levels & TABLE) || tables++ % 2))
					bn_tgid__sample(&tg);
				else
					bn_table__sample(&tab);
				continue;
			}
			/* the next level asked for, round robin over 1.. */
			for (l = 0; l < NR_LEVELS - 1; l++, next = next % (NR_LEVELS - 1) + 1)
				if (levels & (1 << next))
					break;
			if (levels & (1 << next))
				walker__print(&w, next, "");
			next = next % (NR_LEVELS - 1) + 1;
		}
		fflush(stdout);
		usleep(5000);
	}
	bn_table__close(&tab);
	bn_tgid__close(&tg);
	if (w.skel)
		walker__close(&w);
	return 0;
}

static int cmd_walk(int reps, int levels, __u32 max_procs)
{
	struct walker w = {};
	int r, l, err;

	err = walker__open(&w, max_procs);
	if (err) {
		fprintf(stderr, "bn-bpf: load bare walks: %s\n", strerror(-err));
		return 1;
	}
	for (r = 0; r < reps && !exiting; r++)
		for (l = 0; l < NR_LEVELS; l++)
			if (levels & (1 << l))
				walker__print(&w, l, "");
	walker__close(&w);
	return 0;
}

/* --- the host headroom read ---------------------------------------------- */

/* nr_node_ids, as hotspot-k passes it: the last number of node/possible + 1 */
static __u32 possible_nodes(void)
{
	FILE *f = fopen("/sys/devices/system/node/possible", "re");
	unsigned int a = 0, b = 0;
	char buf[256], *p;

	if (!f)
		return 1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	p = strrchr(buf, ',');
	if (sscanf(p ? p + 1 : buf, "%u-%u", &a, &b) == 2)
		a = b;
	return a < 1024 ? a + 1 : 1024;
}

/* a /proc/meminfo line's value, kB; -1 when missing */
static long long meminfo_kb(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			v = strtoll(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static int host_run(int fd, __u64 reads, struct bn_host_ctx *c)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	memset(c, 0, sizeof(*c));
	c->reads = reads;
	c->nr_nodes = possible_nodes();
	opts.ctx_in = c;
	opts.ctx_size_in = sizeof(*c);
	return bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
}

static int cmd_host(int reads, int samples, int gap_ms)
{
	struct bench_bpf *skel;
	struct bpf_program *prog;
	struct bn_host_ctx c;
	long long before, after, free_kb;
	long kb = sysconf(_SC_PAGESIZE) / 1024;
	int fd, err, i;

	skel = bench_bpf__open();
	if (!skel)
		return 1;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, prog == skel->progs.bn_host_read);
	err = bench_bpf__load(skel);
	fd = err ? -1 : bpf_program__fd(skel->progs.bn_host_read);
	/* the first read finds the root memory cgroup: not timed */
	if (!err)
		err = host_run(fd, 1, &c);
	if (!err && !c.known)
		err = -ENOENT;
	if (err) {
		fprintf(stderr, "bn-bpf: host read: %s\n", err == -ENOENT ?
			"no reading (no memory controller?)" : strerror(-err));
		bench_bpf__destroy(skel);
		return 1;
	}
	for (i = 0; i < 5 && !exiting && !err; i++) {
		err = host_run(fd, reads, &c);
		if (!err)
			printf("hot reads=%d ns=%llu nodes=%u\n", reads,
			       (unsigned long long)c.ns, c.known);
	}
	for (i = 0; i < samples && !exiting && !err; i++) {
		usleep(gap_ms * 1000);
		before = meminfo_kb("MemAvailable");
		err = host_run(fd, 1, &c);
		after = meminfo_kb("MemAvailable");
		free_kb = meminfo_kb("MemFree");
		if (!err)
			printf("host t=%.3f ns=%llu avail_kb=%llu deferred_kb=%llu"
			       " meminfo_before_kb=%lld meminfo_after_kb=%lld memfree_kb=%lld"
			       " cached_kb=%lld nodes=%u\n", now_ns() / 1e9,
			       (unsigned long long)c.ns,
			       (unsigned long long)c.avail_pages * kb,
			       (unsigned long long)c.deferred_pages * kb, before, after,
			       free_kb, meminfo_kb("Cached"), c.known);
		fflush(stdout);
	}
	bench_bpf__destroy(skel);
	if (err)
		fprintf(stderr, "bn-bpf: host read: %s\n", strerror(-err));
	return !!err;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bn-bpf attach empty|filter|tgid|exitempty|forkhook\n"
		"       bn-bpf walk [-r REPS] [-l iter,direct,fields,store,hash|all,delays,stall]\n"
		"                   [-m MAX_PROCS]\n"
		"       bn-bpf host [-r READS] [-s SAMPLES] [-b MS]\n"
		"       bn-bpf stats -p PID\n"
		"       bn-bpf watch -p PID[,PID] -d SECONDS [-n N[,N]] [-b MS] [-l LEVELS[,table,tgidtable]]\n"
		"                    [-m MAX_PROCS]\n");
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int reps = 1, levels = 0, bare_ms = 250, opt, pid = 0, samples = 10;
	__u32 max_procs = 131072;
	char *pids = NULL, *min_windows = NULL;
	double secs = 10;
	const char *cmd;

	if (argc < 2) {
		usage();
		return 2;
	}
	cmd = argv[1];
	libbpf_set_print(libbpf_quiet);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (!strcmp(cmd, "attach")) {
		if (argc != 3) {
			usage();
			return 2;
		}
		return cmd_attach(argv[2]);
	}
	optind = 2;
	while ((opt = getopt(argc, argv, "r:l:p:d:b:m:n:s:")) != -1) {
		switch (opt) {
		case 'r':
			reps = atoi(optarg);
			break;
		case 'l':
			levels = parse_levels(optarg);
			break;
		case 'p':
			pids = optarg;
			pid = atoi(optarg);
			break;
		case 'd':
			secs = atof(optarg);
			break;
		case 'b':
			bare_ms = atoi(optarg);
			break;
		case 'n':
			min_windows = optarg;
			break;
		case 'm':
			max_procs = strtoul(optarg, NULL, 10);
			break;
		case 's':
			samples = atoi(optarg);
			break;
		default:
			usage();
			return 2;
		}
	}
	if (!strcmp(cmd, "walk"))
		return cmd_walk(reps, levels ? levels : ALL_LEVELS, max_procs);
	if (!strcmp(cmd, "host"))
		return cmd_host(reps > 1 ? reps : 10000, samples, bare_ms);
	if (!strcmp(cmd, "stats") && pid)
		return cmd_stats(pid);
	if (!strcmp(cmd, "watch") && pids)
		return cmd_watch(pids, min_windows, secs, bare_ms, levels, max_procs);
	usage();
	return 2;
}
