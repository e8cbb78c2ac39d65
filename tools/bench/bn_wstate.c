// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn-wstate - figure 17's walks (bench_wstate.bpf.c): per-thread reads as
 * direct loads or through the probe-read helper, and per-thread state in
 * task storage, a TID hash or a TID-indexed array, side by side.
 *
 *   bn-wstate [-r ROUNDS] [-g GAP_MS]
 *
 * Loads the object, makes every thread's state once (wst_fill, not timed),
 * then runs ROUNDS rounds of every level, one BPF_PROG_TEST_RUN each, GAP_MS
 * apart, each round in another order (rotated: no level always follows the
 * same one). Prints, the first round included (the caller drops it):
 *
 *   fill threads=N miss=N no_delays=N ns=N
 *   wst round=R level=NAME threads=N ns=N miss=N no_delays=N
 *   map name=NAME entries=N value=N memlock=BYTES
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bn_wstate.h"
#include "bench_wstate.skel.h"

enum { NR_LEVELS = 9 };

static const char *const level_names[NR_LEVELS] = {
	"iter", "direct", "core", "core_hot", "tool_dir", "tool_core", "tstore", "hash", "array",
};

static int run(struct bpf_program *prog, struct bn_wst_ctx *c)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	memset(c, 0, sizeof(*c));
	opts.ctx_in = c;
	opts.ctx_size_in = sizeof(*c);	/* a syscall program writes it back */
	return bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) ? -errno : 0;
}

/* the map's memlock line of its fdinfo (what bpftool shows as bytes_memlock) */
static unsigned long long memlock_of(const struct bpf_map *m)
{
	unsigned long long v = 0;
	char path[64], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", bpf_map__fd(m));
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

static void print_map(const struct bpf_map *m)
{
	printf("map name=%s entries=%u value=%u memlock=%llu\n", bpf_map__name(m),
	       bpf_map__max_entries(m), bpf_map__value_size(m), memlock_of(m));
}

int main(int argc, char **argv)
{
	struct bench_wstate_bpf *skel;
	struct bpf_program *progs[NR_LEVELS];
	struct timespec gap = { 0 };
	struct bn_wst_ctx c;
	int rounds = 21, gap_ms = 20, opt, r, i, l, err;

	while ((opt = getopt(argc, argv, "r:g:")) != -1) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'g':
			gap_ms = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: bn-wstate [-r ROUNDS] [-g GAP_MS]\n");
			return 2;
		}
	}
	gap.tv_sec = gap_ms / 1000;
	gap.tv_nsec = (gap_ms % 1000) * 1000000L;
	skel = bench_wstate_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "bn-wstate: load bench_wstate.bpf.o: %s\n", strerror(errno));
		return 1;
	}
	for (l = 0; l < NR_LEVELS; l++) {
		char name[32];

		snprintf(name, sizeof(name), "wst_%s", level_names[l]);
		progs[l] = bpf_object__find_program_by_name(skel->obj, name);
	}
	err = run(skel->progs.wst_fill, &c);
	if (err) {
		fprintf(stderr, "bn-wstate: fill: %s\n", strerror(-err));
		bench_wstate_bpf__destroy(skel);
		return 1;
	}
	printf("fill threads=%llu miss=%llu no_delays=%llu ns=%llu\n",
	       (unsigned long long)c.threads, (unsigned long long)c.miss,
	       (unsigned long long)c.no_delays, (unsigned long long)c.ns);
	for (r = 0; r < rounds && !err; r++) {
		for (i = 0; i < NR_LEVELS; i++) {
			l = (i + r) % NR_LEVELS;
			nanosleep(&gap, NULL);
			err = run(progs[l], &c);
			if (err) {
				fprintf(stderr, "bn-wstate: %s: %s\n", level_names[l], strerror(-err));
				break;
			}
			printf("wst round=%d level=%s threads=%llu ns=%llu miss=%llu no_delays=%llu\n",
			       r, level_names[l], (unsigned long long)c.threads,
			       (unsigned long long)c.ns, (unsigned long long)c.miss,
			       (unsigned long long)c.no_delays);
		}
	}
	print_map(skel->maps.wst_hash_m);
	print_map(skel->maps.wst_arr);
	fflush(stdout);
	bench_wstate_bpf__destroy(skel);
	return err ? 1 : 0;
}
