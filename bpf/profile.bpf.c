// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile.bpf.c - where the time of a flagged process goes, with stacks.
 *
 *  - hk_prof_sample (perf_event, a CPU clock on every CPU at HK_PROF_FREQ_HZ):
 *    when a profiled process is on the CPU, its user and kernel stacks,
 *    counted;
 *  - hk_prof_switch (tp_btf/sched_switch): a thread of a profiled process
 *    that goes to sleep leaves its stacks and the time in task storage; when
 *    it gets a CPU again, the time it was away is added to those stacks.
 *
 * Both return at once for every other process: two compares of a TGID
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

/* TGIDs being profiled, 0: a free slot. Written by userspace (mmap). */
volatile __u32 hk_prof_tgid[HK_PROF_TARGETS];

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

/* A sleeping thread of a profiled process: since when, and where. */
struct hk_prof_sleep {
	__u64 since_ns;
	__s32 user_stack;
	__s32 kern_stack;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct hk_prof_sleep);
} hk_prof_asleep SEC(".maps");

static __always_inline int hk_prof_target(__u32 tgid)
{
	int i;

	if (!tgid)
		return 0;
	for (i = 0; i < HK_PROF_TARGETS; i++)
		if (hk_prof_tgid[i] == tgid)
			return 1;
	return 0;
}

static __always_inline void hk_prof_add(__u32 tgid, __s32 user, __s32 kern,
					__u32 off_cpu, __u64 n)
{
	struct hk_prof_key key = {
		.tgid = tgid, .user_stack = user, .kern_stack = kern, .off_cpu = off_cpu,
	};
	__u64 *v, one = n;

	v = bpf_map_lookup_elem(&hk_prof_counts, &key);
	if (v) {
		__sync_fetch_and_add(v, n);
		return;
	}
	/* BPF_NOEXIST: two CPUs may add the same new key at once */
	if (bpf_map_update_elem(&hk_prof_counts, &key, &one, BPF_NOEXIST)) {
		v = bpf_map_lookup_elem(&hk_prof_counts, &key);
		if (v)
			__sync_fetch_and_add(v, n);
		else
			__sync_fetch_and_add(&hk_prof_stats.keys_lost, 1);
	}
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
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	if (!hk_prof_target(tgid))
		return 0;
	__sync_fetch_and_add(&hk_prof_stats.samples, 1);
	hk_prof_add(tgid, hk_prof_stack(ctx, BPF_F_USER_STACK), hk_prof_stack(ctx, 0), 0, 1);
	return 0;
}

/* Three arguments: the tracepoint's prev_state (5.18) is not needed. */
SEC("tp_btf/sched_switch")
int BPF_PROG(hk_prof_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	__u32 prev_tgid = prev->tgid, next_tgid = next->tgid;
	struct hk_prof_sleep *s;
	__u64 now;

	if (!hk_prof_target(prev_tgid) && !hk_prof_target(next_tgid))
		return 0;
	now = bpf_ktime_get_ns();
	if (hk_prof_target(prev_tgid) && !preempt &&
	    hk_task_state(prev) != HK_TASK_RUNNING) {
		/* current is prev: the stacks are where it goes to sleep */
		s = bpf_task_storage_get(&hk_prof_asleep, prev, NULL,
					 BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (s) {
			s->since_ns = now;
			s->user_stack = hk_prof_stack(ctx, BPF_F_USER_STACK);
			s->kern_stack = hk_prof_stack(ctx, 0);
			__sync_fetch_and_add(&hk_prof_stats.switches_out, 1);
		}
	}
	if (hk_prof_target(next_tgid)) {
		s = bpf_task_storage_get(&hk_prof_asleep, next, NULL, 0);
		if (s && s->since_ns) {
			if (now > s->since_ns)
				hk_prof_add(next_tgid, s->user_stack, s->kern_stack, 1,
					    now - s->since_ns);
			s->since_ns = 0;
		}
	}
	return 0;
}
