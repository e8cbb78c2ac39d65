/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * maps.bpf.h - every map and global of the BPF side, named hk_* so that
 * `bpftool map dump name hk_procs` finds them. Sizes given here are
 * defaults; userspace resizes hk_procs, hk_exits and hk_events before load.
 */
#ifndef HK_BPF_MAPS_H
#define HK_BPF_MAPS_H

#include "shared/hotspot.h"

/* Thresholds in force (one entry, written by userspace). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hk_config);
} hk_config SEC(".maps");

/* State per process. A plain preallocated hash: an LRU would evict
 * labelled state silently; a full map is counted in hk_stats instead. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 32768);
	__type(key, __u32);		/* TGID */
	__type(value, struct hk_proc);
} hk_procs SEC(".maps");

/* The tool's own cost (one entry; the walk is its only writer but for
 * the exit hook's lost-exit counter, which is atomic). Mmapable: the
 * tool's watchdog reads it with no system call. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hk_stats);
} hk_stats SEC(".maps");

/* Transitions to userspace. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	/* ~7000 events: a mass exit beyond that is sent over later windows */
	__uint(max_entries, HK_EVENTS_RING_BYTES);
} hk_events SEC(".maps");

/* A tracked process exited: the exit hook only queues it, the walk emits
 * its `exited` and deletes it (a preallocated hash reuses a deleted
 * element at once, so only the walk deletes). */
struct hk_exit {
	__u32 tgid;
	__u32 pad;
	__u64 start_time_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 32768);
	__type(value, struct hk_exit);
} hk_exits SEC(".maps");

/*
 * Per-thread state. The walk keeps its baselines here: a process's window
 * is the sum of what its threads did since each was last seen, so that a
 * thread that did not run is never read beyond one cache line (and run
 * delay of an exited thread is kept nowhere else anyway). The
 * sched_switch hook records who took the CPU from the thread, as a
 * one-counter majority vote (Misra-Gries), so that the hot path never
 * touches a hash.
 */
struct hk_task {
	struct hk_counters seen;	/* the thread's counters at the last walk */
	__u64 wait_ns;		/* run delay + pending wait at the last walk */
	__u64 io_ns;		/* I/O wait + the pending one, at the last walk */
	__u64 io_bytes;		/* read_bytes + write_bytes at the last walk */
	struct hk_stall_ns stall; /* memory stall counters at the last walk */
	__u64 walk;		/* walk number of the last visit, 0: new */
	__u64 stale_queued;	/* a queue stamp left on it while asleep */
	__u32 aggr_tgid;	/* majority candidate among aggressors */
	__u32 aggr_votes;
	__u32 invol;		/* involuntary switches to another process */
	__u32 samples;		/* no delay accounting: its last visits found
				 * it blocked in I/O (bits 0-7, newest
				 * lowest), stalled on memory (bits 8-15) */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct hk_task);
} hk_tasks SEC(".maps");

/*
 * A process being summed: its sample so far and what its threads did since
 * each was last seen. The walk sums one process at a time; the iter/task
 * driver meets a process's threads in TID order, interleaved with other
 * processes' when they were born apart, and parks a process here until its
 * next thread comes. Only the walk touches it; it is empty between walks.
 */
struct hk_accum {
	struct hk_sample s;
	struct hk_counters did;		/* its threads since last seen */
	__u64 sig;			/* its signal struct: which process */
	__u32 tgid;
	__u32 active;			/* threads that ran or wait */
	/* by TID (iter driver): threads met, and how many it has (read
	 * again when the count reaches it: threads born or gone since) */
	__u32 met;
	__u32 nr_threads;
	/* the run queue of the thread that wanted a CPU most, read when
	 * it is met (a run queue is never freed; the thread may be by the
	 * close): its clocks are read at the close (hk_sched_sample) */
	__u64 thread_rq;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	/* allocated as used: a few processes, or none, most windows */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 32768);
	__type(key, __u32);		/* TGID */
	__type(value, struct hk_accum);
} hk_parked SEC(".maps");

#define HK_WATCH_WORDS (HK_WATCH_BITS / 64)
#define HK_ATTN_WORDS (HK_ATTN_BITS / 64)

/*
 * Threads whose involuntary switches the hook records: those the last walk
 * saw wait for a CPU a good part of the window, the only ones that can be
 * Starved. The hook reads it on every involuntary switch of a user thread;
 * only the walk writes it. Indexed by TID; collisions only cost a
 * recorded switch.
 */
__u64 hk_watch[HK_WATCH_WORDS];

static __always_inline __u32 hk_watch_bit(struct task_struct *t)
{
	return t->pid & (HK_WATCH_BITS - 1);
}

/* Processes to close even when none of their threads ran (a label or a
 * candidate to settle): the walk reads the half the previous walk wrote
 * and writes the other. */
__u64 hk_attn[2][HK_ATTN_WORDS];

/* TGIDs with an entry in hk_parked, so that the walk looks up only
 * those (collisions only cost a lookup). */
__u64 hk_parked_bits[HK_ATTN_WORDS];

/* Stints on a CPU when the walk saw them (by their start, last_arrival):
 * the next walk reads their threads whatever that start. Halves as
 * hk_attn. */
__u64 hk_ran[2][HK_WATCH_WORDS];

/*
 * Steal + IRQ time per CPU: what the CPU lost between two walks, which no
 * task's runtime counts (cpu_lost.bpf.h). Indexed by CPU number; bpftool
 * shows it.
 */
#define HK_CPU_SLOTS 1024

struct hk_cpu_lost {
	__u64 seen_ns;		/* steal + IRQ, cumulative, at walk `walk` */
	__u64 delta_ns;		/* ... since the walk before, if noted then */
	__u64 walk;		/* walk number that noted it */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HK_CPU_SLOTS);
	__type(key, __u32);
	__type(value, struct hk_cpu_lost);
} hk_cpu_lost SEC(".maps");

/*
 * OOM kills (oom:mark_victim) of tracked processes, by TGID, until the
 * walk sends the victim's last transition, oom_killed, with it. An LRU:
 * a kill whose exit the walk never meets (its entry swept by a new
 * filter) goes in time; an untracked victim's line goes out at the kill.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, HK_OOM_KILLS);
	__type(key, __u32);		/* TGID */
	__type(value, struct hk_oom_kill);
} hk_oom SEC(".maps");

/*
 * Each memory cgroup's count of OOM kills (its own, memory.events.local's
 * oom_kill) at the latest mark_victim of a task in it: a mark with the
 * count unchanged since killed nothing (oom_kill.bpf.h, hk_oom_killed).
 * An LRU: a cgroup dropped is one whose next mark counts as a kill.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, HK_OOM_MEMCGS);
	__type(key, __u64);		/* kernfs id of the memory cgroup */
	__type(value, __u64);		/* its count of OOM kills */
} hk_oom_counts SEC(".maps");

/* The periodic timer and the work item it kicks. */
struct hk_timer_val {
	struct bpf_timer timer;
	struct bpf_wq wq;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hk_timer_val);
} hk_timer SEC(".maps");

/* the work item's kfuncs (>= 6.10) */
extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __weak __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __weak __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux) __weak __ksym;

#endif /* HK_BPF_MAPS_H */
