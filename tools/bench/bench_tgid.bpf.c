// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench_tgid.bpf.c - the floor of the kptr-free table walk (kernel-2.md D,
 * "a cheaper variant without kptrs", issue #34): a bitmap with a bit per
 * PID, set for each process's TGID, and each process found again by
 * bpf_task_from_pid() and its threads walked with the per-process
 * open-coded iterator. Its own object, so that a kernel without
 * bpf_task_from_pid or BPF_TASK_ITER_PROC_THREADS skips it and keeps
 * bench.bpf.o and bench_table.bpf.o.
 *
 *  - bn_tgid_fill: walks ALL_PROCS once and sets each process's bit (not
 *    timed: in the design, the fork hook sets it and the exit hook clears
 *    it), the same processes bench_table.bpf.c's fill stores.
 *  - bn_walk_tgid: scans the bitmap's words from TGID start up to word
 *    end (a multiple of 8: empty words are skipped 8 at a time), under one
 *    bpf_rcu_read_lock; per set bit a reference to the task
 *    of that PID (bpf_task_from_pid, the global PID namespace), skipped
 *    unless it is its group's leader (the PID may be a thread's now), its
 *    threads iterated and counted as bn_walk_iter counts every thread (a
 *    call per thread), the reference dropped; at most max processes, then
 *    the TGID to resume from; timed with bpf_ktime_get_ns.
 *  - bn_tgid_fork (tp_btf/sched_process_fork): the design's fork hook, a
 *    new process's bit set with an atomic OR; figure 18's "fork hook".
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bench.h"
#include "bench_proc.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;
extern struct task_struct *bpf_task_from_pid(s32 pid) __weak __ksym;
extern void bpf_task_release(struct task_struct *p) __weak __ksym;

#define BN_PF_KTHREAD 0x00200000	/* PF_KTHREAD */

/* a bit per PID below PID_MAX_LIMIT: 512 KiB */
static __u64 bn_tgid_bits[BN_TGID_WORDS];

/* the walk's state in globals: the loop heads carry no varying scalar */
static __u64 bn_word;
static __u32 bn_word_no;
static __u32 bn_next;		/* end * 64 until a limit stops the walk */

/* a process's bit (PIDs are below PID_MAX_LIMIT) */
static __always_inline void bn_bit_set(__u32 tgid)
{
	__sync_fetch_and_or(&bn_tgid_bits[(tgid / 64) & (BN_TGID_WORDS - 1)], 1ULL << (tgid & 63));
}

SEC("syscall")
int bn_tgid_fill(struct bn_tgid_ctx *ctx)
{
	struct task_struct *t;

	bn_procs = 0;
	ctx->ns = BN_WALK_TASKS(t, BPF_TASK_ITER_ALL_PROCS, ({ bn_bit_set(t->tgid); bn_procs++; }));
	ctx->procs = bn_procs;
	return 0;
}

/* the lowest set bit of a word that has one: no ctz instruction in BPF */
static __always_inline __u32 bn_low_bit(__u64 w)
{
	__u32 n = 0;

	if (!(w & 0xffffffffULL)) { n += 32; w >>= 32; }
	if (!(w & 0xffffULL)) { n += 16; w >>= 16; }
	if (!(w & 0xffULL)) { n += 8; w >>= 8; }
	if (!(w & 0xfULL)) { n += 4; w >>= 4; }
	if (!(w & 0x3ULL)) { n += 2; w >>= 2; }
	if (!(w & 0x1ULL))
		n += 1;
	return n;
}

/* the process of that TGID, its threads counted; under bpf_rcu_read_lock */
static __always_inline void bn_tgid_proc(__u32 tgid)
{
	struct task_struct *leader = bpf_task_from_pid(tgid);

	if (!leader)
		return;
	/* the PID may have been reused by another process's thread */
	if (leader->pid == leader->tgid)
		bn_proc_threads(leader);
	bpf_task_release(leader);
}

/*
 * The processes of one word's set bits from start on; false once max
 * processes were walked (bn_next: the TGID after the last one).
 */
static __always_inline bool bn_tgid_word(struct bn_tgid_ctx *ctx)
{
	struct bpf_iter_num bits;

	bn_word = bn_tgid_bits[bn_word_no & (BN_TGID_WORDS - 1)];
	/* the first word: only the TGIDs from start on */
	if (bn_word_no < ctx->start / 64)
		bn_word = 0;
	else if (bn_word_no == ctx->start / 64)
		bn_word &= ~0ULL << (ctx->start & 63);
	if (!bn_word)
		return true;
	bpf_iter_num_new(&bits, 0, 64);
	while (bpf_iter_num_next(&bits) && bn_word) {
		__u32 tgid = bn_word_no * 64 + bn_low_bit(bn_word);

		bn_word &= bn_word - 1;
		bn_tgid_proc(tgid);
		if (ctx->max && bn_procs >= ctx->max) {
			bn_next = tgid + 1;
			break;
		}
	}
	bpf_iter_num_destroy(&bits);
	return bn_next == ctx->end * 64;
}

/* any bit in words [group * 8, group * 8 + 8) */
static __always_inline __u64 bn_tgid_group(__u32 group)
{
	__u64 any = 0;
	int k;

#pragma unroll
	for (k = 0; k < BN_TGID_GROUP; k++)
		any |= bn_tgid_bits[(group * BN_TGID_GROUP + k) & (BN_TGID_WORDS - 1)];
	return any;
}

/* empty words 8 at a time: one iterator step per 8 (a step costs ~10 ns) */
SEC("syscall")
int bn_walk_tgid(struct bn_tgid_ctx *ctx)
{
	struct bpf_iter_num groups, words;
	__u64 start;
	int *g, *i;

	bn_threads = 0;
	bn_procs = 0;
	bn_next = ctx->end * 64;
	start = bpf_ktime_get_ns();
	bpf_rcu_read_lock();
	bpf_iter_num_new(&groups, ctx->start / 64 / BN_TGID_GROUP, ctx->end / BN_TGID_GROUP);
	while ((g = bpf_iter_num_next(&groups))) {
		if (!bn_tgid_group(*g))
			continue;
		bpf_iter_num_new(&words, *g * BN_TGID_GROUP, *g * BN_TGID_GROUP + BN_TGID_GROUP);
		while ((i = bpf_iter_num_next(&words))) {
			bn_word_no = *i;
			if (!bn_tgid_word(ctx))
				break;
		}
		bpf_iter_num_destroy(&words);
		if (bn_next != ctx->end * 64)
			break;
	}
	bpf_iter_num_destroy(&groups);
	bpf_rcu_read_unlock();
	ctx->ns = bpf_ktime_get_ns() - start;
	ctx->threads = bn_threads;
	ctx->procs = bn_procs;
	ctx->next = bn_next;
	return 0;
}

/* the design's fork hook: a new process's bit (a thread's TGID has one) */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(bn_tgid_fork, struct task_struct *parent, struct task_struct *child)
{
	if (child->pid != child->tgid || (child->flags & BN_PF_KTHREAD))
		return 0;
	bn_bit_set(child->tgid);
	return 0;
}
