// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bn_tgid.c - bn-bpf's TGID table walk: the floor of the kptr-free
 * table-driven walk (kernel-2.md D), beside bn_table.c's kptr table and
 * bn_walk_iter's bare list walk; and its fork hook for figure 18.
 *
 * The bitmap is filled once (bn_tgid_fill, not timed); each sample then
 * scans it either in one run of bn_walk_tgid, or in chunks of ~1 ms, each
 * a BPF_PROG_TEST_RUN of its own resuming at the TGID after the last one
 * walked, as bn_table.c chunks its table: the chunks' own times summed,
 * the longest kept, a chunk as many processes as the last one-run sample
 * walked in 1 ms. The words scanned end at kernel.pid_max's; a one-run
 * sample also times the scan of the (empty) rest up to PID_MAX_LIMIT, what
 * a bitmap scanned to its end would add. Printed lines:
 *
 *   tgid fill procs=N words=N ns=N
 *   tgid t=SEC mode=one threads=N procs=N ns=N rest_words=N rest_ns=N
 *   tgid t=SEC mode=chunks threads=N procs=N ns=SUM max=NS chunks=N per=N
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "bench_tgid.skel.h"
#include "bn_table.h"
#include "bn_tgid.h"

static int run(struct bpf_program *prog, __u32 start, __u32 end, __u32 max,
	       struct bn_tgid_ctx *c)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	memset(c, 0, sizeof(*c));
	c->start = start;
	c->end = end;
	c->max = max;
	opts.ctx_in = c;
	opts.ctx_size_in = sizeof(*c);	/* a syscall program writes it back */
	return bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) ? -errno : 0;
}

/* the words holding PIDs below kernel.pid_max (all of them if unread), in
 * whole groups */
static __u32 pid_max_words(void)
{
	unsigned long long pid_max = 0;
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");

	if (f) {
		if (fscanf(f, "%llu", &pid_max) != 1)
			pid_max = 0;
		fclose(f);
	}
	if (!pid_max || pid_max > BN_TGID_WORDS * 64ULL)
		return BN_TGID_WORDS;
	return (pid_max + 64 * BN_TGID_GROUP - 1) / (64 * BN_TGID_GROUP) * BN_TGID_GROUP;
}

int bn_tgid__open(struct bn_tgid *t)
{
	struct bn_tgid_ctx c;
	int err;

	memset(t, 0, sizeof(*t));
	t->words = pid_max_words();
	t->skel = bench_tgid_bpf__open();
	if (!t->skel)
		return -errno;
	bpf_program__set_autoload(t->skel->progs.bn_tgid_fork, false);
	err = bench_tgid_bpf__load(t->skel);
	if (!err)
		err = run(t->skel->progs.bn_tgid_fill, 0, 0, 0, &c);
	if (err) {
		fprintf(stderr, "bn-bpf: TGID table walk not measured: this kernel (wanted:"
			" bpf_task_from_pid, BPF_TASK_ITER_PROC_THREADS): %s\n", strerror(-err));
		bench_tgid_bpf__destroy(t->skel);
		t->skel = NULL;
		return err;
	}
	printf("tgid fill procs=%llu words=%u ns=%llu\n", (unsigned long long)c.procs, t->words,
	       (unsigned long long)c.ns);
	/* cold code and a first chunk size; not a sample */
	if (!run(t->skel->progs.bn_walk_tgid, 0, t->words, 0, &c))
		t->chunk = bn_chunk_of(c.procs, c.ns);
	return 0;
}

static int sample_chunks(struct bn_tgid *t, struct bn_tsample *s)
{
	struct bn_tgid_ctx c;
	__u32 at;
	int err;

	s->per = t->chunk;
	for (at = 0; at < t->words * 64; at = c.next) {
		err = run(t->skel->progs.bn_walk_tgid, at, t->words, t->chunk, &c);
		if (err)
			return err;
		if (c.next <= at)	/* never: each chunk moves on */
			return -EPROTO;
		bn_tsample_add(s, c.threads, c.procs, c.ns);
	}
	return 0;
}

void bn_tgid__sample(struct bn_tgid *t)
{
	struct bn_tsample s = {};
	struct bn_tgid_ctx c, rest = {};
	int err;

	if (!t->skel)
		return;
	if (t->runs++ % 2) {
		err = sample_chunks(t, &s);
		if (!err) {
			bn_tsample_print("tgid", &s);
			printf("\n");
		}
	} else {
		err = run(t->skel->progs.bn_walk_tgid, 0, t->words, 0, &c);
		if (!err) {
			t->chunk = bn_chunk_of(c.procs, c.ns);
			s = (struct bn_tsample){ .threads = c.threads, .procs = c.procs, .ns = c.ns };
			/* after the sample: it finds the tasks as the others do */
			run(t->skel->progs.bn_walk_tgid, t->words * 64, BN_TGID_WORDS, 0, &rest);
			bn_tsample_print("tgid", &s);
			printf(" rest_words=%u rest_ns=%llu\n", BN_TGID_WORDS - t->words,
			       (unsigned long long)rest.ns);
		}
	}
	if (err)
		fprintf(stderr, "bn-bpf: TGID table walk: %s\n", strerror(-err));
}

void bn_tgid__close(struct bn_tgid *t)
{
	if (!t->skel)
		return;
	bench_tgid_bpf__destroy(t->skel);
	t->skel = NULL;
}

int bn_tgid__attach_fork(volatile sig_atomic_t *exiting)
{
	struct bench_tgid_bpf *skel = bench_tgid_bpf__open();
	struct bpf_program *prog;
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int err;

	if (!skel)
		return 1;
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, prog == skel->progs.bn_tgid_fork);
	err = bench_tgid_bpf__load(skel);
	if (!err && !bpf_program__attach(skel->progs.bn_tgid_fork))
		err = -errno;
	if (!err)
		err = bpf_obj_get_info_by_fd(bpf_program__fd(skel->progs.bn_tgid_fork), &info, &len);
	if (err) {
		fprintf(stderr, "bn-bpf: attach forkhook: %s\n", strerror(-err));
		bench_tgid_bpf__destroy(skel);
		return 1;
	}
	printf("ready prog_id=%u\n", info.id);
	fflush(stdout);
	while (!*exiting)
		pause();
	bench_tgid_bpf__destroy(skel);
	return 0;
}
