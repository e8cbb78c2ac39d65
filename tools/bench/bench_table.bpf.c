// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench_table.bpf.c - the floor of a table-driven walk (kernel-2.md D,
 * issue #34): every process held in an array map by a referenced task
 * kptr, and each process's threads walked with the per-process open-coded
 * iterator. Its own object, so that a kernel without task kptrs in array
 * maps or BPF_TASK_ITER_PROC_THREADS skips this and keeps bench.bpf.o.
 *
 *  - bn_table_fill: walks ALL_PROCS once and stores a reference to each
 *    process in the next slot (not timed: in the design, fork and exit
 *    hooks keep the table).
 *  - bn_walk_table: slots [start, end) under one bpf_rcu_read_lock, each
 *    live process's threads iterated and counted as bn_walk_iter counts
 *    every thread (a call per thread), timed with bpf_ktime_get_ns. The
 *    iterator wants a trusted task: a reference taken and dropped around
 *    each process (bpf_task_acquire/release).
 *  - bn_table_clear: slots [start, end) emptied, their references dropped.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bench.h"
#include "bench_proc.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;
extern struct task_struct *bpf_task_acquire(struct task_struct *p) __weak __ksym;
extern void bpf_task_release(struct task_struct *p) __weak __ksym;

/* one process: 16 bytes, as the design's hk_ptab entry */
struct bn_slot {
	struct task_struct __kptr *task;
	__u32 tgid;
	__u32 pad;
};

/* userspace sizes it (-m) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bn_slot);
} bn_ptab SEC(".maps");

static __u32 bn_slot_no;

/* a reference to the process in the next slot; false once the table is full */
static __always_inline bool bn_table_store(struct bn_table_ctx *ctx, struct task_struct *t)
{
	struct task_struct *ref, *old;
	struct bn_slot *s = bpf_map_lookup_elem(&bn_ptab, &bn_slot_no);

	if (!s) {
		ctx->full = 1;
		return false;
	}
	ref = bpf_task_acquire(t);
	if (!ref)
		return true;
	s->tgid = t->tgid;
	old = bpf_kptr_xchg(&s->task, ref);
	if (old)
		bpf_task_release(old);
	bn_slot_no++;
	return true;
}

SEC("syscall")
int bn_table_fill(struct bn_table_ctx *ctx)
{
	struct task_struct *t;

	bn_slot_no = 0;
	ctx->ns = BN_WALK_TASKS(t, BPF_TASK_ITER_ALL_PROCS, if (!bn_table_store(ctx, t)) break);
	ctx->procs = bn_slot_no;
	return 0;
}

/* the slot of the next number of an iteration; NULL at its end */
static __always_inline struct bn_slot *bn_slot_next(struct bpf_iter_num *it)
{
	int *i = bpf_iter_num_next(it);

	if (!i)
		return NULL;
	bn_slot_no = *i;
	return bpf_map_lookup_elem(&bn_ptab, &bn_slot_no);
}

SEC("syscall")
int bn_walk_table(struct bn_table_ctx *ctx)
{
	struct task_struct *leader;
	struct bpf_iter_num slots;
	struct bn_slot *s;
	__u64 start;

	bn_threads = 0;
	bn_procs = 0;
	start = bpf_ktime_get_ns();
	bpf_rcu_read_lock();
	bpf_iter_num_new(&slots, ctx->start, ctx->end);
	while ((s = bn_slot_next(&slots))) {
		/*
		 * The slot's kptr read under RCU is not trusted, and
		 * bpf_iter_task_new takes only a trusted task (6.18: "R2
		 * must be referenced or trusted"): a reference per process.
		 */
		leader = s->task;
		leader = leader ? bpf_task_acquire(leader) : NULL;
		if (!leader)
			continue;
		/* pid_alive(): a process that has exited is off its lists */
		if (leader->thread_pid)
			bn_proc_threads(leader);
		bpf_task_release(leader);
	}
	bpf_iter_num_destroy(&slots);
	bpf_rcu_read_unlock();
	ctx->ns = bpf_ktime_get_ns() - start;
	ctx->threads = bn_threads;
	ctx->procs = bn_procs;
	return 0;
}

SEC("syscall")
int bn_table_clear(struct bn_table_ctx *ctx)
{
	struct bpf_iter_num slots;
	struct task_struct *old;
	struct bn_slot *s;

	bn_procs = 0;
	bpf_iter_num_new(&slots, ctx->start, ctx->end);
	while ((s = bn_slot_next(&slots))) {
		s->tgid = 0;
		old = bpf_kptr_xchg(&s->task, NULL);
		if (!old)
			continue;
		bpf_task_release(old);
		bn_procs++;
	}
	bpf_iter_num_destroy(&slots);
	ctx->procs = bn_procs;
	return 0;
}
