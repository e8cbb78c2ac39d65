// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench_wstate.bpf.c - figure 17 (issue #34): what a walk's per-thread
 * reads and per-thread state cost, each level a SEC("syscall") program run
 * with BPF_PROG_TEST_RUN that walks every thread with the open-coded task
 * iterator (a trusted pointer) under bpf_rcu_read_lock, as figure 3's bare
 * walks do, and times itself with bpf_ktime_get_ns. Its own object, as
 * bench_table.bpf.c: figure 3's programs stay as they are.
 *
 * Reads, each level on top of the bare walk (a call per thread):
 *  - wst_direct: figure 3's eight fields (9 loads: signal, then its field)
 *    as direct loads; wst_core: the same through BPF_CORE_READ, one
 *    bpf_probe_read_kernel per load (9 calls); wst_core_hot: one field
 *    loaded directly, then the same 8 bytes read 8 times more with
 *    bpf_core_read: the helper's own cost, its line already in cache.
 *  - wst_tool_dir / wst_tool_core: the per-thread fields hotspot-k still
 *    reads with helpers (core_fixes.bpf.h: task->delays' blkio, thrashing,
 *    swapin, freepages and compact delays; ioac.read_bytes, write_bytes):
 *    7 fields, as direct loads or as the tool reads them (7 calls).
 * State, each on top of wst_direct (the floor), 3 writes per thread:
 *  - wst_tstore: task local storage, get without create (made by wst_fill);
 *  - wst_hash: a hash map keyed by TID (filled by wst_fill);
 *  - wst_array: an array map at TID & (2^20 - 1), its slot tagged with
 *    the TID (another TID there: a miss, the slot taken over).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "bn_wstate.h"
#include "bench_walk.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct bn_wst_val);
} wst_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BN_WST_HASH_ENTRIES);
	__type(key, __u32);
	__type(value, struct bn_wst_val);
} wst_hash_m SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1 << BN_WST_ARRAY_BITS);
	__type(key, __u32);
	__type(value, struct bn_wst_val);
} wst_arr SEC(".maps");

enum {
	L_ITER, L_DIRECT, L_CORE, L_CORE_HOT, L_TOOL_DIR, L_TOOL_CORE,
	L_TSTORE, L_HASH, L_ARRAY, L_FILL,
};

static const struct bn_wst_val wst_zero;

/* the cursor lives in globals: the loop head carries no varying scalar */
static __u64 wst_walk_no;
static struct bn_wst_ctx wst_cnt;	/* this walk's counts */
static __u64 wst_sum;
static __u32 wst_key;

/* the helper alone: a line the direct load just brought in, read 8 times */
static __always_inline void wst_helper_hot(struct task_struct *t)
{
	__u64 v = 0;
	int i;

	wst_sum += t->se.sum_exec_runtime;
	for (i = 0; i < 8; i++) {
		bpf_core_read(&v, sizeof(v), &t->se.sum_exec_runtime);
		wst_sum += v;
	}
}

/* core_fixes.bpf.h's helper reads (hk_task_io_ns without a pending I/O
 * wait, hk_task_stall_read, hk_task_io_bytes), 7 fields; the delays
 * pointer is a direct load in the tool too */
static __always_inline void wst_tool_fields(struct task_struct *t, const int direct)
{
	struct task_delay_info *d = t->delays;

	if (direct) {
		wst_sum += t->ioac.read_bytes + t->ioac.write_bytes;
		if (!d) {
			wst_cnt.no_delays++;
			return;
		}
		wst_sum += d->blkio_delay + d->thrashing_delay + d->swapin_delay +
			   d->freepages_delay + d->compact_delay;
		return;
	}
	wst_sum += BPF_CORE_READ(t, ioac.read_bytes) + BPF_CORE_READ(t, ioac.write_bytes);
	if (!d) {
		wst_cnt.no_delays++;
		return;
	}
	wst_sum += BPF_CORE_READ(d, blkio_delay) + BPF_CORE_READ(d, thrashing_delay) +
		   BPF_CORE_READ(d, swapin_delay) + BPF_CORE_READ(d, freepages_delay) +
		   BPF_CORE_READ(d, compact_delay);
}

static __always_inline void wst_write(struct bn_wst_val *v)
{
	v->runtime_ns = wst_sum;
	v->wait_ns = wst_cnt.threads;
	v->walk = wst_walk_no;
}

/* the state of a thread, created (not timed) or looked up (a level) */
static __always_inline int wst_state(struct task_struct *t, int level)
{
	struct bn_wst_val *v;

	if (level == L_TSTORE || level == L_FILL) {
		v = bpf_task_storage_get(&wst_tasks, t, NULL,
					 level == L_FILL ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
		if (!v)
			return 1;
		wst_write(v);
	}
	wst_key = t->pid;
	if (level == L_FILL)
		bpf_map_update_elem(&wst_hash_m, &wst_key, &wst_zero, BPF_NOEXIST);
	if (level == L_HASH || level == L_FILL) {
		v = bpf_map_lookup_elem(&wst_hash_m, &wst_key);
		if (!v)
			return 1;
		wst_write(v);
	}
	if (level == L_ARRAY || level == L_FILL) {
		wst_key = t->pid & ((1U << BN_WST_ARRAY_BITS) - 1);
		v = bpf_map_lookup_elem(&wst_arr, &wst_key);
		if (!v)
			return 1;
		if (v->tid != (__u32)t->pid) {
			/* another thread's slot, or a new thread: taken over */
			v->tid = t->pid;
			if (level != L_FILL)
				wst_cnt.miss++;
		}
		wst_write(v);
	}
	return 0;
}

static __noinline int wst_visit(struct task_struct *t, int level)
{
	wst_cnt.threads++;
	if (!t || level == L_ITER)
		return 0;
	switch (level) {
	case L_CORE:
		wst_sum += bn_fields_core_sum(t);
		return 0;
	case L_CORE_HOT:
		wst_helper_hot(t);
		return 0;
	case L_TOOL_DIR:
		wst_tool_fields(t, 1);
		return 0;
	case L_TOOL_CORE:
		wst_tool_fields(t, 0);
		return 0;
	}
	wst_sum += bn_fields_direct_sum(t);
	if (level >= L_TSTORE)
		wst_cnt.miss += wst_state(t, level);
	return 0;
}

static __always_inline int wst_walk(struct bn_wst_ctx *ctx, int level)
{
	struct task_struct *t;

	wst_walk_no++;
	__builtin_memset(&wst_cnt, 0, sizeof(wst_cnt));
	wst_cnt.ns = BN_WALK_ALL_THREADS(t, wst_visit(t, level));
	*ctx = wst_cnt;
	return 0;
}

#define WST_LEVEL(name, level)				\
	SEC("syscall")					\
	int name(struct bn_wst_ctx *ctx)		\
	{						\
		return wst_walk(ctx, level);		\
	}

WST_LEVEL(wst_iter, L_ITER)
WST_LEVEL(wst_direct, L_DIRECT)
WST_LEVEL(wst_core, L_CORE)
WST_LEVEL(wst_core_hot, L_CORE_HOT)
WST_LEVEL(wst_tool_dir, L_TOOL_DIR)
WST_LEVEL(wst_tool_core, L_TOOL_CORE)
WST_LEVEL(wst_tstore, L_TSTORE)
WST_LEVEL(wst_hash, L_HASH)
WST_LEVEL(wst_array, L_ARRAY)
WST_LEVEL(wst_fill, L_FILL)
