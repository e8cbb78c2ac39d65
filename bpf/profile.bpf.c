// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile.bpf.c - where the time of a flagged process goes, with stacks.
 *
 *  - hk_prof_sample (perf_event, a CPU clock on every CPU at HK_PROF_FREQ_HZ):
 *    when a profiled process is on the CPU, its user and kernel stacks,
 *    counted;
 *  - hk_prof_switch (tp_btf/sched_switch): a thread of a profiled process
 *    that goes to sleep leaves its stacks and the time in task storage; when
 *    it gets a CPU again, the time it was away is added to those stacks;
 *  - hk_prof_rss / hk_prof_rss_c (tp_btf/rss_stat, one of the two by the
 *    tracepoint's arguments): a memory-profiled process's anonymous memory
 *    counter changed; an increase over the last size seen is added, in
 *    bytes, to the stacks that made it (a page fault, mostly).
 *
 * With each new stack, the words at the user stack pointer are kept
 * beside it (hk_prof_tops): a leaf without a frame pointer (libc's memset,
 * clock_nanosleep) hides its caller from the frame-pointer walk, and its
 * caller's return address is there (user/profile/leaf.c puts it back).
 *
 * All return at once for every other process: a few compares of a TGID
 * with the few being profiled. The object is loaded and attached only
 * while a profile runs (user/profile/profiler.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "shared/hotspot.h"
#include "shared/profile.h"
#include "core_fixes.bpf.h"	/* hk_task_state() */
/* not called here: its two global functions have been in this object since
 * they lived in core_fixes.bpf.h; dropping them changes the object */
#include "cgroup_limits.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* TGIDs being profiled, 0: a free slot; and what each slot samples (enum
 * hk_prof_kind: HK_PROF_ON_CPU for on- and off-CPU time, HK_PROF_MEMORY).
 * Written by userspace (mmap), the kind before the TGID. */
volatile __u32 hk_prof_tgid[HK_PROF_TARGETS];
volatile __u32 hk_prof_kind[HK_PROF_TARGETS];

/* the page size, set before the load (4 KiB, or arm64's 16 or 64 KiB) */
const volatile __u64 hk_prof_page_bytes = 4096;

struct hk_prof_stats hk_prof_stats;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, HK_PROF_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, HK_PROF_DEPTH * sizeof(__u64));
} hk_prof_stacks SEC(".maps");

/* On-CPU: samples; off-CPU: ns asleep. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HK_PROF_KEYS);
	__type(key, struct hk_prof_key);
	__type(value, __u64);
} hk_prof_counts SEC(".maps");

/* The user stack's top words of a key's first event (struct hk_prof_top):
 * one per key, 144 bytes each, ~2.5 MiB preallocated while the object is
 * loaded. In the key instead, every event's locals would make a new key. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, HK_PROF_KEYS);
	__type(key, struct hk_prof_key);
	__type(value, struct hk_prof_top);
} hk_prof_tops SEC(".maps");

/* 128 bytes: more than a program's stack should hold beside a key */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hk_prof_top);
} hk_prof_scratch SEC(".maps");

/* A memory-profiled process's anonymous memory, in pages, as last seen:
 * LRU, so that a process gone leaves room. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, HK_PROF_SIZES);
	__type(key, __u32);
	__type(value, __s64);
} hk_prof_sizes SEC(".maps");

/* A sleeping thread of a profiled process: since when, and where. */
struct hk_prof_sleep {
	__u64 since_ns;
	__s32 user_stack;
	__s32 kern_stack;
	struct hk_prof_top top;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct hk_prof_sleep);
} hk_prof_asleep SEC(".maps");

/* Is tgid profiled for kind (HK_PROF_ON_CPU: on- and off-CPU time)? */
static __always_inline int hk_prof_target(__u32 tgid, __u32 kind)
{
	int i;

	if (!tgid)
		return 0;
	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (hk_prof_tgid[i] == tgid)
			return hk_prof_kind[i] == kind;
	return 0;
}

/*
 * The words a leaf's lost caller may be found in, from a task's user
 * registers: the stack from its pointer up; on arm64 the link register
 * first, then the stack. x86's call pushes the return address, so a leaf
 * that sets up no frame has its caller at the stack pointer; arm64's bl
 * leaves it in x30, and such a leaf's frame pointer still names its
 * caller's frame record, whose saved x30 is the caller's caller: the frame
 * walk skips the caller, which only the link register holds. The stack
 * read fails (and zeroes) on a kernel thread or an unmapped stack.
 */
static __always_inline void hk_prof_top_read(struct hk_prof_top *t, struct pt_regs *regs)
{
#if defined(bpf_target_arm64)
	t->words[0] = PT_REGS_RET_CORE(regs);	/* regs[30] */
	bpf_probe_read_user(&t->words[1], sizeof(t->words) - sizeof(t->words[0]),
			    (void *)PT_REGS_SP_CORE(regs));
#else
	bpf_probe_read_user(t->words, sizeof(t->words), (void *)PT_REGS_SP_CORE(regs));
#endif
}

/* The current task's top words (hk_prof_top_read), in the CPU's scratch;
 * NULL: no scratch. */
static __always_inline struct hk_prof_top *hk_prof_top_now(void)
{
	struct hk_prof_top *t;
	__u32 zero = 0;

	t = bpf_map_lookup_elem(&hk_prof_scratch, &zero);
	if (t)
		hk_prof_top_read(t, (struct pt_regs *)
				 bpf_task_pt_regs(bpf_get_current_task_btf()));
	return t;
}

/*
 * Add n to key's count. A new key with a user stack keeps the stack's top
 * words beside it: top, or (NULL) the current task's, read only then, so
 * that an event on a known stack costs no copy.
 */
static __always_inline void hk_prof_add(struct hk_prof_key *key, __u64 n,
					const struct hk_prof_top *top)
{
	__u64 *v, one = n;

	v = bpf_map_lookup_elem(&hk_prof_counts, key);
	if (v) {
		__sync_fetch_and_add(v, n);
		return;
	}
	/* BPF_NOEXIST: two CPUs may add the same new key at once */
	if (bpf_map_update_elem(&hk_prof_counts, key, &one, BPF_NOEXIST)) {
		v = bpf_map_lookup_elem(&hk_prof_counts, key);
		if (v)
			__sync_fetch_and_add(v, n);
		else
			__sync_fetch_and_add(&hk_prof_stats.keys_lost, 1);
		return;
	}
	if (key->user_stack < 0)
		return;
	if (!top)
		top = hk_prof_top_now();
	if (!top || bpf_map_update_elem(&hk_prof_tops, key, top, BPF_NOEXIST))
		__sync_fetch_and_add(&hk_prof_stats.tops_lost, 1);
}

/* A stack id, or the error counted and a negative id kept as "none". */
static __always_inline __s32 hk_prof_stack(void *ctx, __u64 flags)
{
	long id = bpf_get_stackid(ctx, &hk_prof_stacks, flags);

	/* -EFAULT: no such stack (a kernel thread's user stack) */
	if (id < 0 && id != -14)
		__sync_fetch_and_add(&hk_prof_stats.stack_errors, 1);
	return (__s32)id;
}

SEC("perf_event")
int hk_prof_sample(struct bpf_perf_event_data *ctx)
{
	struct hk_prof_key key = { .kind = HK_PROF_ON_CPU };

	key.tgid = bpf_get_current_pid_tgid() >> 32;
	if (!hk_prof_target(key.tgid, HK_PROF_ON_CPU))
		return 0;
	__sync_fetch_and_add(&hk_prof_stats.samples, 1);
	key.user_stack = hk_prof_stack(ctx, BPF_F_USER_STACK);
	key.kern_stack = hk_prof_stack(ctx, 0);
	hk_prof_add(&key, 1, NULL);
	return 0;
}

/* Three arguments: the tracepoint's prev_state (5.18) is not needed. */
SEC("tp_btf/sched_switch")
int BPF_PROG(hk_prof_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	__u32 prev_tgid = prev->tgid, next_tgid = next->tgid;
	struct hk_prof_key key = { .kind = HK_PROF_OFF_CPU };
	struct hk_prof_sleep *s;
	__u64 now;

	if (!hk_prof_target(prev_tgid, HK_PROF_ON_CPU) &&
	    !hk_prof_target(next_tgid, HK_PROF_ON_CPU))
		return 0;
	now = bpf_ktime_get_ns();
	if (hk_prof_target(prev_tgid, HK_PROF_ON_CPU) && !preempt &&
	    hk_task_state(prev) != HK_TASK_RUNNING) {
		/* current is prev: the stacks are where it goes to sleep */
		s = bpf_task_storage_get(&hk_prof_asleep, prev, NULL,
					 BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (s) {
			s->since_ns = now;
			s->user_stack = hk_prof_stack(ctx, BPF_F_USER_STACK);
			s->kern_stack = hk_prof_stack(ctx, 0);
			/* kept for a stack new at the wake-up: read now, as
			 * the thread leaves them */
			if (s->user_stack >= 0)
				hk_prof_top_read(&s->top, (struct pt_regs *)
						 bpf_task_pt_regs(prev));
			__sync_fetch_and_add(&hk_prof_stats.switches_out, 1);
		}
	}
	if (hk_prof_target(next_tgid, HK_PROF_ON_CPU)) {
		s = bpf_task_storage_get(&hk_prof_asleep, next, NULL, 0);
		if (s && s->since_ns) {
			key.tgid = next_tgid;
			key.user_stack = s->user_stack;
			key.kern_stack = s->kern_stack;
			if (now > s->since_ns)
				hk_prof_add(&key, now - s->since_ns, &s->top);
			s->since_ns = 0;
		}
	}
	return 0;
}

/*
 * The TGID whose change of mm's counter member is profiled, else 0: a
 * memory-profiled process's own anonymous memory (MM_ANONPAGES, the same
 * value since 2.6.34). Checked before anything is read: the event fires
 * for every page counted on the host (6.2 on).
 */
static __always_inline __u32 hk_prof_mem_tgid(struct mm_struct *mm, int member)
{
	__u32 tgid;

	if (member != MM_ANONPAGES)
		return 0;
	tgid = bpf_get_current_pid_tgid() >> 32;
	if (!hk_prof_target(tgid, HK_PROF_MEMORY))
		return 0;
	/* exit, process_madvise() and khugepaged change other tasks' mm */
	if (bpf_get_current_task_btf()->mm != mm)
		return 0;
	__sync_fetch_and_add(&hk_prof_stats.mem_events, 1);
	return tgid;
}

/*
 * The counter is now pages (tgid from hk_prof_mem_tgid): the increase
 * over the last size seen, in bytes, goes to the current stacks.
 * Only increases count: a free is not growth, and the stacks that free
 * are not the ones that grew. Threads of one process on two CPUs may
 * race on the last size (no atomic exchange before -mcpu=v3): one
 * increase then counts twice or not at all.
 */
static __always_inline void hk_prof_grow(void *ctx, __u32 tgid, __s64 pages)
{
	struct hk_prof_key key = { .kind = HK_PROF_MEMORY, .tgid = tgid };
	__s64 *last, old;
	__u64 bytes;

	last = bpf_map_lookup_elem(&hk_prof_sizes, &key.tgid);
	if (!last) {
		/* the first size seen: where the profile starts from */
		bpf_map_update_elem(&hk_prof_sizes, &key.tgid, &pages, BPF_ANY);
		return;
	}
	old = *last;
	*last = pages;
	if (pages <= old)
		return;
	bytes = (__u64)(pages - old) * hk_prof_page_bytes;
	__sync_fetch_and_add(&hk_prof_stats.mem_grown_bytes, bytes);
	key.user_stack = hk_prof_stack(ctx, BPF_F_USER_STACK);
	key.kern_stack = hk_prof_stack(ctx, 0);
	hk_prof_add(&key, bytes, NULL);
}

/*
 * 6.2 on (f1a7941243c1, rss counters made per-CPU): (mm, member); the
 * size is the counter's shared part, which takes each CPU's part past a
 * batch (32 pages or twice the CPUs): the event that moves it stands for
 * the batch, a sample of the faults every 32 pages or so.
 */
SEC("tp_btf/rss_stat")
int BPF_PROG(hk_prof_rss, struct mm_struct *mm, int member)
{
	__u32 tgid = hk_prof_mem_tgid(mm, member);
	__s64 pages = 0;

	if (!tgid)
		return 0;
	__sync_fetch_and_add(&hk_prof_stats.mem_reads, 1);
	bpf_core_read(&pages, sizeof(pages), &mm->rss_stat[MM_ANONPAGES].count);
	hk_prof_grow(ctx, tgid, pages);
	return 0;
}

/* Before 6.2 (5.5 on): (mm, member, count), the exact size in pages. */
SEC("tp_btf/rss_stat")
int BPF_PROG(hk_prof_rss_c, struct mm_struct *mm, int member, long count)
{
	__u32 tgid = hk_prof_mem_tgid(mm, member);

	if (tgid)
		hk_prof_grow(ctx, tgid, count);
	return 0;
}
