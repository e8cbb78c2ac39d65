/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * walk_proc.bpf.h - the process side of the walk: which process is being
 * summed (a thread of another one parks it until its next thread comes),
 * whether a thread is the last of its process the walk will meet, and the
 * close: what the process shares (mm, cgroups), its totals, its window, or
 * what carries over to the next when it cannot be sampled now. Apart from
 * the threads (walk_thread.bpf.h): a process is read once per window, on
 * its last thread, and only when something in it ran.
 */
#ifndef HK_BPF_WALK_PROC_H
#define HK_BPF_WALK_PROC_H

#include "core_fixes.bpf.h"
#include "cgroup_limits.bpf.h"
#include "filter.bpf.h"
#include "window.bpf.h"
#include "sched_prio.bpf.h"
#include "walk_state.bpf.h"
#include "host_mem.bpf.h"

/*
 * Two parts of one window, each with the thread that wanted a CPU most
 * (ran + waited) and the most frequent preemptor: into *dst. The parts of
 * one thread (one aggressor) add up; else the larger part stands.
 */
static __always_inline void hk_thread_merge(__u64 *run, __u64 *queued, __u32 *tid, __u32 *cpu,
					    __u64 o_run, __u64 o_queued, __u32 o_tid, __u32 o_cpu)
{
	if (o_tid && o_tid == *tid) {
		*run += o_run;
		*queued += o_queued;
	} else if (o_run + o_queued > *run + *queued) {
		*run = o_run;
		*queued = o_queued;
		*tid = o_tid;
		*cpu = o_cpu;
	}
}

static __always_inline void hk_aggressor_merge(__u32 *tgid, __u32 *switches,
					       __u32 o_tgid, __u32 o_switches)
{
	if (o_tgid && o_tgid == *tgid) {
		*switches += o_switches;
	} else if (o_switches > *switches) {
		*tgid = o_tgid;
		*switches = o_switches;
	}
}

/* Nothing ran in the process (or it cannot be sampled now): the baseline
 * stays; the wait its threads showed, its busiest thread and the votes
 * for its aggressor (halved in task storage already) carry over to its
 * next window. */
static __always_inline void hk_proc_carry(struct hk_proc *p, __u32 tgid)
{
	struct hk_sample *s = &hk_cur.s;

	p->carry_wait_ns += s->wait_delta_ns;
	p->carry_thread_wait_ns += s->thread_wait_delta_ns;
	p->carry_io_ns += s->io_delta_ns;
	p->carry_thread_io_ns += s->thread_io_delta_ns;
	hk_thread_merge(&p->carry_thread_run_ns, &p->carry_thread_queued_ns,
			&p->carry_thread_tid, &p->carry_thread_cpu, s->thread_run_delta_ns,
			s->thread_queued_delta_ns, s->thread_tid, s->thread_cpu);
	hk_aggressor_merge(&p->carry_aggressor_tgid, &p->carry_aggressor_switches,
			   s->aggressor_tgid, s->aggressor_switches);
	p->carry_io_bytes += s->io_delta_bytes;
	p->seen_walk = hk_walk_no;
	hk_attn_set(tgid);
}

/* What hk_proc_carry kept, into the sample taken now. */
static __always_inline void hk_carry_take(struct hk_proc *p, struct hk_sample *s)
{
	hk_thread_merge(&s->thread_run_delta_ns, &s->thread_queued_delta_ns,
			&s->thread_tid, &s->thread_cpu, p->carry_thread_run_ns,
			p->carry_thread_queued_ns, p->carry_thread_tid, p->carry_thread_cpu);
	hk_aggressor_merge(&s->aggressor_tgid, &s->aggressor_switches,
			   p->carry_aggressor_tgid, p->carry_aggressor_switches);
	p->carry_thread_run_ns = 0;
	p->carry_thread_queued_ns = 0;
	p->carry_thread_tid = 0;
	p->carry_thread_cpu = 0;
	p->carry_aggressor_tgid = 0;
	p->carry_aggressor_switches = 0;
}

/* What its threads did since last seen, and its exited threads, into its
 * running totals. */
static __always_inline void hk_proc_count(struct hk_proc *p)
{
	struct hk_counters *did = &hk_cur.did, *tot = &p->total;

	tot->runtime_ns += did->runtime_ns +
			   __sync_lock_test_and_set(&p->exited.runtime_ns, 0);
	tot->minor_faults += did->minor_faults +
			     __sync_lock_test_and_set(&p->exited.minor_faults, 0);
	tot->major_faults += did->major_faults +
			     __sync_lock_test_and_set(&p->exited.major_faults, 0);
	tot->nvcsw += did->nvcsw + __sync_lock_test_and_set(&p->exited.nvcsw, 0);
	tot->nivcsw += did->nivcsw + __sync_lock_test_and_set(&p->exited.nivcsw, 0);
}

/*
 * The process's window, once hk_cur holds its sample. A global function:
 * the verifier checks it once, not once per path of its caller. Its
 * totals move by what its threads did since each was last seen, and by
 * what its exited threads did (taken from the exit hook's sums, atomically:
 * the hook may be adding on another CPU). Returns 1 when it created the
 * process's entry.
 */
__noinline int hk_proc_finish(__u32 tgid, __u32 no_mm)
{
	struct hk_sample *acc = &hk_cur.s;
	struct hk_stats *st = hk_st();
	struct hk_proc *p;
	__u32 created = 0;

	if (!st)
		return 0;
	p = hk_proc_get(tgid, acc->start_time_ns, &created);
	if (!p)
		return 0;
	if (created)
		__sync_fetch_and_add(&st->entries_created, 1);
	/* the identity userspace checks before it acts on this PID */
	p->start_boottime_ns = hk_acc_boot_ns;
	hk_proc_count(p);
	/* closed once already in this walk: the iter driver met a thread
	 * born after the close; what it did goes into the next window */
	if (p->windows && p->seen_walk == hk_walk_no)
		no_mm = 1;
	if (no_mm) {
		hk_proc_carry(p, tgid);
		__sync_fetch_and_add(&st->samples_skipped, 1);
		return created;
	}
	hk_carry_take(p, acc);
	acc->runtime_ns = p->total.runtime_ns;
	acc->minor_faults = p->total.minor_faults;
	acc->major_faults = p->total.major_faults;
	acc->nvcsw = p->total.nvcsw;
	acc->nivcsw = p->total.nivcsw;
	/* not closed in the previous walk: quiet until it began */
	if (p->windows && p->seen_walk + 1 < hk_walk_no)
		acc->quiet_until_ns = hk_prev_walk_ns;
	if (!p->windows || p->start_time_ns != acc->start_time_ns) {
		acc->ns_pid = hk_acc_ns_pid;
		acc->ns_ino = hk_acc_ns_ino;
	} else {
		acc->ns_pid = p->ns_pid;
		acc->ns_ino = p->ns_ino;
	}
	hk_proc_window(p, tgid, acc);
	return created;
}

/*
 * The last thread of a process: read what it shares (mm, cgroups) through
 * that thread, then its window. The mm and the cgroups are a live
 * thread's: a leader that called pthread_exit() has none.
 */
static __noinline int hk_proc_close(struct task_struct *t, __u32 tgid)
{
	struct task_struct *leader = t->group_leader;
	struct signal_struct *sig = t->signal;
	struct hk_config *c = hk_cfg();
	struct hk_sample *acc = &hk_cur.s;
	struct mm_struct *mm;
	__u32 no_mm;

	if (!c)
		return 0;
	if (!hk_cur.active && !hk_full_walk && !hk_attn_test(tgid)) {
		hk_cur_quiet++;
		return 0;
	}
	/* a dying process has no meaningful window left (its mm is gone):
	 * its last label stands until its exit is handled */
	if (!sig->live.counter || (sig->flags & HK_SIGNAL_GROUP_EXIT))
		return 0;
	mm = t->mm;
	if (!mm)
		mm = leader->mm;
	no_mm = !hk_rss_pages(mm, &acc->rss_pages, &acc->anon_pages, &acc->swap_pages);
	acc->now_ns = bpf_ktime_get_ns();
	acc->nr_threads = sig->nr_threads;
	acc->start_time_ns = leader->start_time;
	hk_acc_boot_ns = leader->start_boottime;	/* so named since 5.5 */
	hk_acc_uid = BPF_CORE_READ(leader, real_cred, uid.val);	/* hk_procs_admit */
	acc->fresh = hk_prev_walk_ns && acc->start_time_ns > hk_prev_walk_ns;
	/* two 8-byte loads: cheaper than a string copy helper */
	*(__u64 *)&acc->comm[0] = *(__u64 *)&leader->comm[0];
	*(__u64 *)&acc->comm[8] = *(__u64 *)&leader->comm[8];
	/* the host's headroom: read by the first process closed in a walk */
	if (hk_host_walk != hk_walk_no)
		hk_host_read((__u64)BPF_CORE_READ(t, cgroups), c->nr_nodes);
	acc->host_avail_bytes = hk_host_avail_pages * c->page_size_bytes;
	acc->host_avail_known = hk_host_known;
	if (hk_memcg_limit((__u64)BPF_CORE_READ(t, cgroups), c->page_size_bytes, acc))
		acc->limit_kind = HK_LIMIT_MEMCG;
	hk_cpu_quota(bpf_core_field_exists(t->sched_task_group) ?
		     (__u64)BPF_CORE_READ(t, sched_task_group) : 0, acc);
	/* the widest affinity of the closing thread and the leader: threads
	 * inherit theirs, and a cpuset binds them all */
	acc->cpus_allowed = (__u32)t->nr_cpus_allowed;
	if ((__u32)leader->nr_cpus_allowed > acc->cpus_allowed)
		acc->cpus_allowed = (__u32)leader->nr_cpus_allowed;
	/* the closing thread only (its newest): one bit, not a thread walk */
	acc->mem_stalled = hk_task_in_memstall(t);
	hk_sched_sample(acc, hk_cur.thread_rq);
	hk_ns_pid(leader, &hk_acc_ns_pid, &hk_acc_ns_ino);
	if (hk_acc_ns_ino == c->pidns_ino)
		hk_acc_ns_ino = 0;	/* our own namespace */
	/* created the entry: the exit hook's own test after the barrier of
	 * that atomic add, so that either the hook saw the entry or this
	 * sees the process dying */
	if (hk_proc_finish(tgid, no_mm) && !sig->live.counter)
		hk_procs_delete(tgid);
	return 0;
}

/* A process whose last thread the walk did not meet (it exited between
 * two steps of the iterator): no sample this window; what its threads did
 * counts in the next. A global function: verified once, not in every
 * state of the walk's loop that parks a process. */
__noinline int hk_proc_unclosed(__u32 tgid)
{
	struct hk_proc *p = bpf_map_lookup_elem(&hk_procs, &tgid);
	struct hk_stats *st = hk_st();

	if (p) {
		hk_proc_count(p);
		hk_proc_carry(p, tgid);
	}
	if (st)
		__sync_fetch_and_add(&st->samples_skipped, 1);
	return 0;
}

/* The head of t's process's thread list (in its signal struct). */
static __always_inline __u64 hk_thread_head(struct task_struct *t)
{
	return (__u64)t->signal + bpf_core_field_offset(struct signal_struct, thread_head);
}

/* Is t the last thread of its process (its signal's thread list ends)? */
static __always_inline int hk_last_thread(struct task_struct *t)
{
	return (__u64)t->thread_node.next == hk_thread_head(t);
}

/* Is t the only thread on its process's list (most processes)? */
static __always_inline int hk_sole_thread(struct task_struct *t)
{
	__u64 head = hk_thread_head(t);

	return (__u64)t->thread_node.next == head && (__u64)t->thread_node.prev == head;
}

static __always_inline void hk_parked_mark(__u32 tgid, int set)
{
	__u64 bit = 1ULL << (tgid & 63);
	__u64 *w = &hk_parked_bits[(tgid / 64) & (HK_ATTN_WORDS - 1)];

	if (set)
		*w |= bit;
	else
		*w &= ~bit;
}

static __always_inline int hk_parked_test(__u32 tgid)
{
	return !!(hk_parked_bits[(tgid / 64) & (HK_ATTN_WORDS - 1)] & (1ULL << (tgid & 63)));
}

/* Park the process being summed until its next thread comes. No room:
 * no sample this window, and nothing lost (see hk_proc_unclosed). */
static __noinline int hk_cur_park(void)
{
	__u32 tgid = hk_cur.tgid;

	hk_cur_state = HK_CUR_NONE;
	if (bpf_map_update_elem(&hk_parked, &tgid, &hk_cur, BPF_ANY)) {
		hk_proc_unclosed(tgid);
		return 0;
	}
	hk_parked_mark(tgid, 1);
	hk_nr_parked++;
	hk_cur_parked++;
	return 0;
}

/* Make sig's process the one summed: parked, or new. */
static __noinline int hk_cur_take(__u64 sig, __u32 tgid)
{
	struct hk_accum *a = NULL;
	struct hk_light *l;

	if (hk_nr_parked && hk_parked_test(tgid))
		a = bpf_map_lookup_elem(&hk_parked, &tgid);
	if (a) {
		__builtin_memcpy(&hk_cur, a, sizeof(hk_cur));
		bpf_map_delete_elem(&hk_parked, &tgid);
		hk_parked_mark(tgid, 0);
		hk_nr_parked--;
		if (hk_cur.sig == sig)
			return 0;
		/* its TGID's previous process, gone during the walk */
		hk_proc_unclosed(tgid);
	}
	__builtin_memcpy(&hk_cur, &hk_zero_accum, sizeof(hk_cur));
	hk_cur.sig = sig;
	hk_cur.tgid = tgid;
	/* counted by hk_quiet_settle so far: its threads met go on */
	l = &hk_light[tgid & (HK_LIGHT_SLOTS - 1)];
	if (l->walk == (__u32)hk_walk_no && l->tgid == tgid) {
		if (l->sig == sig) {
			hk_cur.met = l->met;
			hk_cur.nr_threads = l->nr_threads;
		}
		l->walk = 0;
	}
	return 0;
}

/*
 * The process of t is the one summed, unless t should be skipped: a kernel
 * thread (not diagnosed), a process the filters leave out, or a thread of a
 * process already closed in this walk. Its flags and TGID are read once per
 * process met.
 */
static __always_inline int hk_cur_select(struct task_struct *t)
{
	__u64 sig = (__u64)t->signal;

	if (sig == hk_cur.sig)
		return hk_cur_state == HK_CUR_OPEN;
	if (hk_cur_state == HK_CUR_OPEN)
		hk_cur_park();
	hk_cur_state = HK_CUR_NONE;
	hk_cur.sig = sig;
	if (t->flags & HK_PF_KTHREAD)
		return 0;
	if (hk_walk_filtered) {
		__u64 leader = 0;

		bpf_probe_read_kernel(&leader, sizeof(leader), &t->group_leader);
		if (!leader || !hk_filter_pass(leader))
			return 0;
	}
	hk_cur_take(sig, t->tgid);
	hk_cur_state = HK_CUR_OPEN;
	return 1;
}

/*
 * By TID: is t, the met-th thread met of its process, the last the walk
 * will meet? Yes when the threads met reach its thread count, read on
 * every thread (the signal's line, shared by its threads, is hot after
 * the first): a thread that exited before the walk met it is no longer
 * waited for (review kernel-2 #6: a pool shrinking left its process
 * unclosed, its window lost). One that exited after it was met can close
 * it a few threads early: those are then met as a process closed in this
 * walk, and what they did goes into its next window (hk_proc_finish). A
 * thread born during the walk with a TID below the iterator's is never
 * met: the process is then not closed this walk (hk_walk_flush), and
 * loses nothing.
 */
static __always_inline int hk_met_last(struct task_struct *t, __u32 met, __u32 *nr_threads)
{
	*nr_threads = t->signal->nr_threads;
	return met >= *nr_threads;
}

/*
 * By TID, a quiet thread of a process other than the one summed: 1 when it
 * is settled here, without making its process the one summed (which would
 * park that one, see hk_light). Only for a process that needs nothing at
 * its close: not a full walk, no filter to ask, no attention asked for,
 * nothing summed and parked. One of a single thread is closed as quiet
 * at once (what hk_proc_close would do); one of several counts its threads
 * met in its hk_light slot, as hk_cur_all_met does, until the last (closed
 * as quiet) or until one that did something (hk_cur_take goes on from the
 * count). 0: the usual way (hk_cur_select), also when its slot is taken.
 */
static __noinline int hk_quiet_settle(struct task_struct *t)
{
	__u64 sig = (__u64)t->signal;
	struct hk_light *l;
	__u32 tgid;

	if (sig == hk_cur.sig || hk_full_walk || hk_walk_filtered)
		return 0;
	/* not diagnosed, not counted (as hk_cur_select) */
	if (t->flags & HK_PF_KTHREAD)
		return 1;
	tgid = t->tgid;
	if (hk_attn_test(tgid) || (hk_nr_parked && hk_parked_test(tgid)))
		return 0;
	if (hk_sole_thread(t)) {
		hk_cur_procs++;
		hk_cur_quiet++;
		return 1;
	}
	l = &hk_light[tgid & (HK_LIGHT_SLOTS - 1)];
	if (l->walk != (__u32)hk_walk_no || (l->tgid == tgid && l->sig != sig)) {
		/* free, or its TGID's previous process, gone: nothing summed */
		l->walk = (__u32)hk_walk_no;
		l->tgid = tgid;
		l->sig = sig;
		l->met = 0;
		l->nr_threads = 0;
	} else if (l->tgid != tgid) {
		return 0;
	}
	if (!hk_met_last(t, ++l->met, &l->nr_threads))
		return 1;
	l->walk = 0;
	hk_cur_procs++;
	hk_cur_quiet++;
	return 1;
}

/* By TID: is t the last thread of the process summed the walk will meet? */
static __always_inline int hk_cur_all_met(struct task_struct *t)
{
	/* the only thread on its list (most processes): no need to read
	 * the signal's count, a cache line further */
	if (++hk_cur.met == 1 && hk_sole_thread(t))
		return 1;
	return hk_met_last(t, hk_cur.met, &hk_cur.nr_threads);
}

#endif /* HK_BPF_WALK_PROC_H */
