/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_cpu.h - the CPU in one window: the shares of it a process's
 * threads ran and waited (and, from the same sums, slept in I/O wait:
 * classify_io.h), the CPUs it may use (affinity, quota) and what its
 * quota held back, and the rules on them: busy, saturated, hungry
 * (CPU-bound), Starved, Throttled. Shares are of the CPUs it may use, not of
 * the host's: a JVM with 300 threads on 30 of 128 CPUs is busy.
 */
#ifndef HK_SHARED_CLASSIFY_CPU_H
#define HK_SHARED_CLASSIFY_CPU_H

#include "hotspot.h"
#include "classify_math.h"

/*
 * Busy on a CPU: what it got, of the CPUs it may use (its affinity, its
 * quota: usable_cpus_x100), not of the host's. A JVM with 300 threads on
 * 30 of 128 CPUs is busy. Its page faults are then its work.
 */
static inline int hk_cpu_busy(const struct hk_config *c,
			      const struct hk_evidence *ev)
{
	__u64 usable_x100 = ev->usable_cpus_x100 ? ev->usable_cpus_x100 : 100;

	return ev->thread_cpu_pct_x100 >= c->cpu_thread_pct_x100 ||
	       (__u64)ev->cpu_pct_x100 * 100 / usable_x100 >= c->cpu_total_pct_x100;
}

/*
 * It got (nearly) all the CPUs it may use: whoever else runs there took
 * less than a tenth of them. Its threads' wait for a CPU is then their
 * own crowding (8 busy threads allowed on 2 CPUs): it wants more CPU than
 * it may have, which is CPU-bound, not Starved, and nobody is to blame.
 */
static inline int hk_cpu_saturated(const struct hk_config *c,
				   const struct hk_evidence *ev)
{
	__u64 usable_x100 = ev->usable_cpus_x100 ? ev->usable_cpus_x100 : 100;

	return (__u64)ev->cpu_pct_x100 * 100 / usable_x100 >= c->cpu_thread_pct_x100;
}

/*
 * Hungry for CPU: a thread asked for a whole one, time on a CPU plus time
 * waiting for one. Four busy loops on two CPUs each run half the time and
 * wait the other half: each wants a whole CPU, and the host is saturated.
 * The whole process counts what it got: many threads that each wait a
 * little are a busy pool, not a CPU-bound process.
 */
static inline int hk_cpu_hungry(const struct hk_config *c,
				const struct hk_evidence *ev)
{
	__u32 nr_cpus = c->nr_cpus ? c->nr_cpus : 1;

	return ev->thread_cpu_pct_x100 + ev->thread_queued_pct_x100 +
		       ev->cpu_lost_pct_x100 >= c->cpu_thread_pct_x100 ||
	       ev->cpu_pct_x100 / nr_cpus >= c->cpu_total_pct_x100;
}

HK_INLINE int hk_starved(const struct hk_config *c,
			     const struct hk_evidence *ev)
{
	return ev->thread_wait_pct_x100 >= c->starved_wait_pct_x100 &&
	       ev->wait_pct_x100 > ev->cpu_pct_x100 && !hk_cpu_saturated(c, ev);
}

/*
 * Held back by its cgroups' CPU quota: the throttled time, taken over the
 * CPUs that quota lets the group use (throttled_norm_pct_x100: the kernel
 * sums it over every CPU's run queue, so that 0.4 % of a period on 64
 * CPUs is not "25 %"), and a thread that waited as long. A thread that
 * waited for another process (an aggressor was named) twice as long as
 * the quota held it back is Starved instead: the quota is not why.
 */
static inline int hk_throttled(const struct hk_config *c,
			       const struct hk_evidence *ev)
{
	if (ev->throttled_norm_pct_x100 < c->throttled_pct_x100 ||
	    ev->thread_wait_pct_x100 < c->throttled_pct_x100)
		return 0;
	return !(ev->aggressor_tgid && hk_starved(c, ev) &&
		 (__u64)ev->throttled_norm_pct_x100 * 2 < ev->thread_wait_pct_x100);
}

/*
 * The CPUs it may use: the host's, its affinity's (cpuset or taskset)
 * and its quota's, the fewest of them; and its throttled time over the
 * CPUs the quota lets its group use, whole CPUs, at least one: a group
 * throttled for a tenth of the window on each of 4 CPUs under a 4-CPU
 * quota reads 10 %, not 40 %.
 */
static inline void hk_cpu_room(const struct hk_config *c, const struct hk_sample *s,
			       struct hk_evidence *ev)
{
	__u64 host_x100 = (__u64)(c->nr_cpus ? c->nr_cpus : 1) * 100;
	__u64 usable_x100 = host_x100, group_x100 = host_x100;

	ev->cpus_allowed = s->cpus_allowed;
	ev->quota_cpus_x100 = s->quota_cpus_x100;
	ev->quota_cgroup_id = s->quota_cgroup_id;
	if (s->cpus_allowed && (__u64)s->cpus_allowed * 100 < usable_x100)
		usable_x100 = (__u64)s->cpus_allowed * 100;
	if (s->quota_cpus_x100 && s->quota_cpus_x100 < usable_x100)
		usable_x100 = s->quota_cpus_x100;
	if (s->quota_cpus_x100) {
		group_x100 = ((__u64)s->quota_cpus_x100 + 99) / 100 * 100;
		if (group_x100 > host_x100)
			group_x100 = host_x100;
	}
	ev->usable_cpus_x100 = (__u32)usable_x100;
	ev->throttled_norm_pct_x100 = (__u32)((__u64)ev->throttled_pct_x100 * 100 / group_x100);
}

/*
 * Steal and IRQ time of the hungriest thread's CPU (thread_cpu), which
 * sum_exec_runtime leaves out: a busy loop on a vCPU the host steals 15 %
 * of shows 85 % on a CPU and no wait (review finding 10). The thread's
 * part of it is its share of the time that CPU kept; with the time it ran
 * and waited, at most a whole window.
 */
static inline void hk_cpu_lost_share(const struct hk_sample *s, __u64 window_ns,
				     struct hk_evidence *ev)
{
	__u64 lost = hk_min_u64(hk_share_x100(s->cpu_lost_delta_ns, window_ns), 10000);
	__u64 left = 10000 - ev->thread_cpu_pct_x100 - ev->thread_queued_pct_x100;

	/* a CPU that kept nothing gives no share to go by */
	lost = lost < 10000 ? lost * ev->thread_cpu_pct_x100 / (10000 - lost) : 0;
	ev->cpu_lost_pct_x100 = (__u32)hk_min_u64(lost, left);
}

/* CPU, wait and I/O shares of the window, each thread at most a whole window. */
static inline void hk_cpu_shares(const struct hk_config *c, struct hk_proc *p,
				 const struct hk_sample *s, __u64 window_ns,
				 struct hk_evidence *ev)
{
	__u32 nr = s->nr_threads ? s->nr_threads : 1;
	__u32 nr_cpus = c->nr_cpus ? c->nr_cpus : 1;
	__u64 max_x100 = (__u64)nr * 10000;

	ev->cpu_pct_x100 = hk_share_x100(hk_sub_clamp(s->runtime_ns, p->runtime_ns),
					 window_ns);
	ev->wait_pct_x100 = (__u32)hk_min_u64(hk_share_x100(s->wait_delta_ns +
							    p->carry_wait_ns,
							    window_ns), max_x100);
	ev->thread_tid = s->thread_tid;
	ev->thread_cpu = s->thread_cpu;
	ev->thread_cpu_pct_x100 = hk_thread_share_x100(s->thread_run_delta_ns, window_ns);
	ev->thread_queued_pct_x100 =
		(__u32)hk_min_u64(hk_share_x100(s->thread_queued_delta_ns, window_ns),
				  10000 - ev->thread_cpu_pct_x100);
	ev->wait_tid = s->wait_tid;
	ev->wait_nice = s->wait_nice;
	ev->wait_policy = s->wait_policy;
	ev->wait_group_weight = s->wait_group_weight;
	ev->wait_group_idle = s->wait_group_idle;
	ev->thread_wait_pct_x100 = hk_thread_share_x100(s->thread_wait_delta_ns +
							p->carry_thread_wait_ns, window_ns);
	p->carry_wait_ns = 0;
	p->carry_thread_wait_ns = 0;
	hk_cpu_lost_share(s, window_ns, ev);
	/* blocked time is per thread like wait: at most a window each */
	ev->io_pct_x100 = (__u32)hk_min_u64(hk_share_x100(s->io_delta_ns + p->carry_io_ns,
							  window_ns), max_x100);
	ev->io_tid = s->io_tid;
	ev->thread_io_pct_x100 = hk_thread_share_x100(s->thread_io_delta_ns +
						      p->carry_thread_io_ns, window_ns);
	p->carry_io_ns = 0;
	p->carry_thread_io_ns = 0;
	ev->io_bytes_per_s = hk_per_s(s->io_delta_bytes + p->carry_io_bytes, window_ns);
	ev->io_bytes_known = s->io_bytes_known;
	ev->io_stuck_threads = s->io_stuck_threads;
	p->carry_io_bytes = 0;
	/* summed over the CPUs its cgroups' run queues were throttled on */
	ev->throttled_pct_x100 =
		(__u32)hk_min_u64(hk_share_x100(hk_sub_clamp(s->throttled_ns,
							     p->throttled_ns),
						window_ns), (__u64)nr_cpus * 10000);
	hk_cpu_room(c, s, ev);
}

#endif /* HK_SHARED_CLASSIFY_CPU_H */
