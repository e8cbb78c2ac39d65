// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench.bpf.c - the yardsticks hotspot-k is measured against.
 *
 *  - bn_empty (tp_btf/sched_switch): does nothing; the floor of any
 *    sched_switch hook (dispatch + the kernel's BPF stats).
 *  - bn_exit_empty (tp_btf/sched_process_exit): does nothing; the floor of
 *    any exit hook, beside hotspot-k's hk_exit (figure 18).
 *  - bn_tgid (tp_btf/sched_switch): what per-event collectors such as
 *    hotspot-bpf do: a per-CPU switch-in timestamp and a per-TGID hash
 *    update on every switch (on-CPU ns, switches, preemptions), plus the
 *    aggressor's entry on an involuntary switch.
 *  - bn_filter (tp_btf/sched_switch): hotspot-k's hk_switch up to its
 *    filter only (the voluntary check, prev's kernel-thread flag, then
 *    prev's TID tested against a bitmap as big as hk_watch, with no bit
 *    set), then returns: what hk_switch costs on a switch it does not
 *    record.
 *  - bn_walk_* (SEC("syscall"), run with BPF_PROG_TEST_RUN): walk every
 *    thread with the open-coded task iterator, as hotspot-k's window does,
 *    and time themselves with bpf_ktime_get_ns. bn_walk_iter only iterates
 *    (the floor); the others add, piece by piece, what a real walk does
 *    (bn_walk_direct reads the fields with direct loads instead of
 *    BPF_CORE_READ), so that the differences say where a walk's time goes.
 *    bn_walk_delays reads each thread's block I/O delay as io_blocked does
 *    (core_fixes.bpf.h's hk_task_io_ns), bn_walk_stall its memory-stall
 *    delays too (hk_task_stall_read): the stall counters' own cost per
 *    thread read (figure 13).
 *  - bn_walk_task (iter/task, read() through an iterator): iterates every
 *    thread as hotspot-k's iter driver meets them, by TID, and does
 *    nothing else: that driver's floor, beside bn_walk_iter's.
 *  - bn_host_read (SEC("syscall"), BPF_PROG_TEST_RUN): hotspot-k's own
 *    host headroom read (bpf/host_mem.bpf.h's hk_host_read, compiled in
 *    here), called ctx->reads times through bpf_loop and timed around the
 *    loop; returns what the last read found (figure 13).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "bench.h"
#include "bench_walk.bpf.h"
#include "shared/hotspot.h"

/*
 * host_mem.bpf.h needs one thing of the walk's state, the walk number it
 * stamps each read with: declared here, and walk_state.bpf.h (which would
 * bring every hotspot-k map into this object) kept out by its guard.
 */
#define HK_BPF_WALK_STATE_H
static __u64 hk_walk_no;
#include "../../bpf/host_mem.bpf.h"
#include "../../bpf/core_fixes.bpf.h"

#define TASK_RUNNING 0
#define BN_PF_KTHREAD 0x00200000	/* include/linux/sched.h */

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* --- sched_switch yardsticks ------------------------------------------- */

struct bn_cpu {
	__u64 ts_ns;		/* when next got this CPU */
	__u32 pid;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bn_cpu);
} bn_cpu SEC(".maps");

/* 64 bytes per process, as in a typical per-TGID collector */
struct bn_tgid_val {
	__u64 cpu_ns;
	__u64 switches;
	__u64 preempted;
	__u64 preempts_others;
	__u64 last_ns;
	__u32 last_cpu;
	__u32 pad;
	__u64 spare[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct bn_tgid_val);
} bn_tgid_map SEC(".maps");

static const struct bn_tgid_val bn_tgid_zero;

#define BN_WATCH_WORDS (HK_WATCH_BITS / 64)

/* never written: not static, so that clang keeps the load, as in hk_watch */
__u64 bn_watch[BN_WATCH_WORDS];
/* switches past the filter: stays 0, but keeps the test from being folded */
__u64 bn_filter_passed;

SEC("tp_btf/sched_switch")
int BPF_PROG(bn_empty, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(bn_exit_empty, struct task_struct *t)
{
	return 0;
}

/* hk_switch's first lines (bpf/hotspot.bpf.c), the same tests in the same
 * order; with no bit set every switch returns at one or the other */
SEC("tp_btf/sched_switch")
int BPF_PROG(bn_filter, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u32 bit;

	if (!preempt && prev_state != TASK_RUNNING)
		return 0;
	if (prev->flags & BN_PF_KTHREAD)
		return 0;
	bit = prev->pid & (HK_WATCH_BITS - 1);
	if (!(bn_watch[(bit / 64) & (BN_WATCH_WORDS - 1)] & (1ULL << (bit & 63))))
		return 0;
	__sync_fetch_and_add(&bn_filter_passed, 1);
	return 0;
}

static __always_inline struct bn_tgid_val *bn_tgid_get(__u32 tgid)
{
	struct bn_tgid_val *v = bpf_map_lookup_elem(&bn_tgid_map, &tgid);

	if (v)
		return v;
	bpf_map_update_elem(&bn_tgid_map, &tgid, &bn_tgid_zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&bn_tgid_map, &tgid);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(bn_tgid, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u64 now = bpf_ktime_get_ns();
	struct bn_tgid_val *v, *a;
	struct bn_cpu *c;
	__u32 zero = 0;

	c = bpf_map_lookup_elem(&bn_cpu, &zero);
	if (!c)
		return 0;
	v = bn_tgid_get(prev->tgid);
	if (v) {
		if (c->pid == prev->pid && c->ts_ns && now > c->ts_ns)
			__sync_fetch_and_add(&v->cpu_ns, now - c->ts_ns);
		__sync_fetch_and_add(&v->switches, 1);
		v->last_ns = now;
		v->last_cpu = bpf_get_smp_processor_id();
		if (preempt || prev_state == TASK_RUNNING) {
			__sync_fetch_and_add(&v->preempted, 1);
			a = bn_tgid_get(next->tgid);
			if (a)
				__sync_fetch_and_add(&a->preempts_others, 1);
		}
	}
	c->ts_ns = now;
	c->pid = next->pid;
	return 0;
}

/* --- bare walks ---------------------------------------------------------- */

/* per-thread state of the storage variant (hotspot-k keeps 40 bytes) */
struct bn_task {
	__u64 runtime_ns;
	__u64 wait_ns;
	__u64 walk;
	__u64 spare[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct bn_task);
} bn_tasks SEC(".maps");

/* per-process state of the hash variant, as big as hotspot-k's entry;
 * userspace sizes it (1 when only attaching a hook) */
struct bn_proc {
	__u64 v[BN_PROC_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bn_proc);
} bn_procs SEC(".maps");

static const struct bn_proc bn_proc_zero;

/* the cursor lives in globals: the loop head carries no varying scalar */
static __u64 bn_walk_no;
static __u64 bn_threads;
static __u64 bn_procs_seen;
static __u64 bn_sum;
static __u32 bn_cur_tgid;

/* the same fields as direct loads from the iterator's trusted pointer */
static __noinline int bn_fields_direct(struct task_struct *t)
{
	bn_sum += bn_fields_direct_sum(t);
	return 0;
}

/* the per-thread fields hotspot-k's walk reads, as it read them */
static __noinline int bn_fields(struct task_struct *t)
{
	bn_sum += bn_fields_core_sum(t);
	return 0;
}

static __noinline int bn_storage(struct task_struct *t)
{
	struct bn_task *ts;

	ts = bpf_task_storage_get(&bn_tasks, t, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts)
		return 0;
	ts->runtime_ns = bn_sum;
	ts->wait_ns = bn_threads;
	ts->walk = bn_walk_no;
	return 0;
}

static __noinline int bn_proc(__u32 tgid)
{
	struct bn_proc *p = bpf_map_lookup_elem(&bn_procs, &tgid);

	if (!p) {
		bpf_map_update_elem(&bn_procs, &tgid, &bn_proc_zero, BPF_NOEXIST);
		p = bpf_map_lookup_elem(&bn_procs, &tgid);
		if (!p)
			return 0;
	}
	p->v[0] = bn_walk_no;
	p->v[1] += 1;
	return 0;
}

/*
 * One thread. Levels: 1 iterate only; 2 + the fields as direct loads;
 * 3 + the fields through BPF_CORE_READ (as hotspot-k's walk reads them);
 * 4 = 3 + task storage; 5 = 4 + a per-process hash entry. 6 iterate +
 * the block I/O delay (io_blocked's read); 7 = 6 + the memory-stall delays.
 */
/* the memory-stall delays read by level 7: in .bss, off the stack */
static struct hk_stall_ns bn_stall;

static __noinline int bn_visit(struct task_struct *t, int level)
{
	__u32 tgid;

	bn_threads++;
	if (level < 2)
		return 0;
	if (level >= 6) {
		bn_sum += hk_task_io_ns(t, bn_walk_no);
		if (level == 7) {
			hk_task_stall_read(t, &bn_stall);
			bn_sum += bn_stall.thrashing_ns + bn_stall.swapin_ns + bn_stall.other_ns;
		}
		return 0;
	}
	if (level == 2) {
		if (t->flags & BN_PF_KTHREAD)
			return 0;
		tgid = t->tgid;
		if (tgid != bn_cur_tgid) {
			bn_cur_tgid = tgid;
			bn_procs_seen++;
		}
		return bn_fields_direct(t);
	}
	if (BPF_CORE_READ(t, flags) & BN_PF_KTHREAD)
		return 0;
	tgid = BPF_CORE_READ(t, tgid);
	if (tgid != bn_cur_tgid) {
		bn_cur_tgid = tgid;
		bn_procs_seen++;
		if (level >= 5)
			bn_proc(tgid);
	}
	bn_fields(t);
	if (level >= 4)
		bn_storage(t);
	return 0;
}

static __always_inline int bn_walk(struct bn_walk_ctx *ctx, int level)
{
	struct task_struct *t;

	bn_walk_no++;
	bn_threads = 0;
	bn_procs_seen = 0;
	bn_cur_tgid = 0;
	ctx->ns = BN_WALK_ALL_THREADS(t, bn_visit(t, level));
	ctx->threads = bn_threads;
	ctx->procs = bn_procs_seen;
	return 0;
}

SEC("syscall")
int bn_walk_iter(struct bn_walk_ctx *ctx)
{
	return bn_walk(ctx, 1);
}

SEC("syscall")
int bn_walk_direct(struct bn_walk_ctx *ctx)
{
	return bn_walk(ctx, 2);
}

SEC("syscall")
int bn_walk_fields(struct bn_walk_ctx *ctx)
{
	return bn_walk(ctx, 3);
}

SEC("syscall")
int bn_walk_store(struct bn_walk_ctx *ctx)
{
	return bn_walk(ctx, 4);
}

SEC("syscall")
int bn_walk_hash(struct bn_walk_ctx *ctx)
{
	return bn_walk(ctx, 5);
}

SEC("syscall")
int bn_walk_delays(struct bn_walk_ctx *ctx)
{
	return bn_walk(ctx, 6);
}

SEC("syscall")
int bn_walk_stall(struct bn_walk_ctx *ctx)
{
	return bn_walk(ctx, 7);
}

/*
 * The iter driver's floor: the kernel's iter/task, by TID, one run of this
 * program per thread, timed from the first thread to the end (the run
 * with no task). Not static: the tool reads them from .bss.
 */
__u64 bn_task_threads;
__u64 bn_task_start_ns;
__u64 bn_task_ns;

SEC("iter/task")
int bn_walk_task(struct bpf_iter__task *ctx)
{
	if (!ctx->task) {
		bn_task_ns = bpf_ktime_get_ns() - bn_task_start_ns;
		return 0;
	}
	if (ctx->meta->seq_num == 0) {
		bn_task_start_ns = bpf_ktime_get_ns();
		bn_task_threads = 0;
	}
	bn_task_threads++;
	return 0;
}

/* --- the host headroom read (figure 13) ---------------------------------- */

static __u64 bn_host_cset;	/* this task's css_set, as the walk passes one */
static __u32 bn_host_nodes;

static long bn_host_cb(__u64 i, void *ctx)
{
	hk_walk_no++;
	hk_host_read(bn_host_cset, bn_host_nodes);
	return 0;
}

SEC("syscall")
int bn_host_read(struct bn_host_ctx *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	__u64 start;

	bn_host_cset = (__u64)BPF_CORE_READ(t, cgroups);
	bn_host_nodes = ctx->nr_nodes;
	start = bpf_ktime_get_ns();
	bpf_loop(ctx->reads, bn_host_cb, NULL, 0);
	ctx->ns = bpf_ktime_get_ns() - start;
	ctx->avail_pages = hk_host_avail_pages;
	ctx->known = hk_host_known;
	/* the not-yet-initialised pages hk_host_read added */
	ctx->deferred_pages = hk_host_deferred_pages;
	return 0;
}
