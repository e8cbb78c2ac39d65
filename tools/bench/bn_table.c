// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn_table.c - bn-bpf's table walk: the floor of the table-driven walk
 * (kernel-2.md D), beside bn_walk_iter's bare list walk.
 *
 * The table is filled once (bn_table_fill, not timed); each sample then
 * walks it either in one run of bn_walk_table, or in chunks of ~1 ms
 * (the design's budget), each chunk a BPF_PROG_TEST_RUN of its own from
 * where the last one stopped; the chunks' own times are summed and the
 * longest kept. The chunk size is the processes the last one-run sample
 * walked in 1 ms. Printed lines:
 *
 *   table t=SEC mode=one threads=N procs=N ns=N
 *   table t=SEC mode=chunks threads=N procs=N ns=SUM max=NS chunks=N per=N
 *   table fill procs=N full=0|1 ns=N
 *   table clear released=N left=N
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_table.skel.h"
#include "bn_table.h"
#include "kernel/loader_kptr.h"

#define BN_CHUNK_NS 1000000ULL	/* the design's budget per chunk */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run(struct bpf_program *prog, __u32 start, __u32 end, struct bn_table_ctx *c)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	memset(c, 0, sizeof(*c));
	c->start = start;
	c->end = end;
	opts.ctx_in = c;
	opts.ctx_size_in = sizeof(*c);	/* a syscall program writes it back */
	return bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) ? -errno : 0;
}

__u32 bn_chunk_of(__u64 procs, __u64 ns)
{
	__u64 per = ns ? procs * BN_CHUNK_NS / ns : procs;

	return per ? per : 1;
}

void bn_tsample_add(struct bn_tsample *s, __u64 threads, __u64 procs, __u64 ns)
{
	s->threads += threads;
	s->procs += procs;
	s->ns += ns;
	if (ns > s->max)
		s->max = ns;
	s->chunks++;
}

void bn_tsample_print(const char *tag, const struct bn_tsample *s)
{
	printf("%s t=%.3f mode=%s threads=%llu procs=%llu ns=%llu", tag, now_s(),
	       s->chunks ? "chunks" : "one", (unsigned long long)s->threads,
	       (unsigned long long)s->procs, (unsigned long long)s->ns);
	if (s->chunks)
		printf(" max=%llu chunks=%u per=%u", (unsigned long long)s->max, s->chunks, s->per);
}

int bn_table__open(struct bn_table *t, __u32 max_procs)
{
	struct bn_table_ctx c;
	int err;

	memset(t, 0, sizeof(*t));
	t->skel = bench_table_bpf__open();
	if (!t->skel)
		return -errno;
	bpf_map__set_max_entries(t->skel->maps.bn_ptab, max_procs);
	/* clang 14 drops bn_slot.task's kptr tag: the tool's loader's fix */
	err = hk_loader__kptr_tag(t->skel->obj, "bn_slot", "task");
	if (!err)
		err = bench_table_bpf__load(t->skel);
	if (!err)
		err = run(t->skel->progs.bn_table_fill, 0, 0, &c);
	if (err) {
		fprintf(stderr, "bn-bpf: table walk not measured: this kernel (6.10+ wanted: task"
			" kptrs in an array map, BPF_TASK_ITER_PROC_THREADS): %s\n",
			strerror(-err));
		bench_table_bpf__destroy(t->skel);
		t->skel = NULL;
		return err;
	}
	t->slots = c.procs;
	printf("table fill procs=%llu full=%u ns=%llu\n", (unsigned long long)c.procs,
	       c.full, (unsigned long long)c.ns);
	/* cold code and a first chunk size; not a sample */
	if (!run(t->skel->progs.bn_walk_table, 0, t->slots, &c))
		t->chunk = bn_chunk_of(c.procs, c.ns);
	return 0;
}

static int sample_chunks(struct bn_table *t, struct bn_tsample *s)
{
	struct bn_table_ctx c;
	__u32 at, end;
	int err;

	s->per = t->chunk;
	for (at = 0; at < t->slots; at = end) {
		end = t->slots - at > t->chunk ? at + t->chunk : t->slots;
		err = run(t->skel->progs.bn_walk_table, at, end, &c);
		if (err)
			return err;
		bn_tsample_add(s, c.threads, c.procs, c.ns);
	}
	return 0;
}

void bn_table__sample(struct bn_table *t)
{
	struct bn_tsample s = {};
	struct bn_table_ctx c;
	int err;

	if (!t->skel)
		return;
	if (t->runs++ % 2 == 0) {
		err = run(t->skel->progs.bn_walk_table, 0, t->slots, &c);
		if (!err) {
			t->chunk = bn_chunk_of(c.procs, c.ns);
			s = (struct bn_tsample){ .threads = c.threads, .procs = c.procs, .ns = c.ns };
		}
	} else {
		err = sample_chunks(t, &s);
	}
	if (!err) {
		bn_tsample_print("table", &s);
		printf("\n");
	} else {
		fprintf(stderr, "bn-bpf: table walk: %s\n", strerror(-err));
	}
}

void bn_table__close(struct bn_table *t)
{
	struct bn_table_ctx c;
	__u64 released = 0, left = 0;
	__u32 max;

	if (!t->skel)
		return;
	/* every slot, not only the filled ones: none may keep a task */
	max = bpf_map__max_entries(t->skel->maps.bn_ptab);
	if (!run(t->skel->progs.bn_table_clear, 0, max, &c))
		released = c.procs;
	/* a second pass finds what the first left: 0 */
	if (!run(t->skel->progs.bn_table_clear, 0, max, &c))
		left = c.procs;
	else
		left = -1ULL;
	printf("table clear released=%llu left=%lld\n", (unsigned long long)released,
	       (long long)left);
	fflush(stdout);
	bench_table_bpf__destroy(t->skel);
	t->skel = NULL;
}
