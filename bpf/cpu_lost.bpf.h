/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * cpu_lost.bpf.h - steal and IRQ time per CPU. A task's sum_exec_runtime
 * runs on rq_clock_task, which leaves both out (steal with
 * CONFIG_PARAVIRT_TIME_ACCOUNTING, IRQ time with
 * CONFIG_IRQ_TIME_ACCOUNTING), and its run delay does not count them
 * either: a busy loop on a vCPU the host steals from looks less than busy
 * (review finding 10). The run queue's clock minus its task clock is
 * exactly what was left out, cumulative (update_rq_clock_task()): nothing
 * counted twice whatever the config, and 0 where neither is on.
 *
 * Not kernel_cpustat (a per-CPU __ksym): the verifier resolves a typed
 * ksym through kallsyms, which lists per-CPU data only with
 * CONFIG_KALLSYMS_ALL (off on the lab host's 6.18: "ldimm64 failed to find
 * the address for kernel symbol 'kernel_cpustat'"). The run queue is
 * reached from a thread on it instead, so a CPU is read when the walk
 * meets a thread that wants a CPU there: the CPUs that matter.
 */
#ifndef HK_BPF_CPU_LOST_H
#define HK_BPF_CPU_LOST_H

#include <bpf/bpf_core_read.h>

/* cfs_rq->rq only with CONFIG_FAIR_GROUP_SCHED; without it the task's
 * cfs_rq is the one embedded in its rq (rq->cfs). */
struct cfs_rq___lost {
	struct rq *rq;
} __attribute__((preserve_access_index));

/*
 * The first thread that wants a CPU on cpu in this walk notes what that
 * CPU lost since the walk before, if that walk noted it too; 0 otherwise
 * (its first busy window goes without). cfs_rq_addr: the thread's
 * se.cfs_rq. Global functions, verified once (see hk_wait_prio).
 */
__noinline int hk_cpu_lost_note(__u64 cfs_rq_addr, __u32 cpu)
{
	struct cfs_rq___lost *cfs = (void *)cfs_rq_addr;
	struct hk_cpu_lost *v = bpf_map_lookup_elem(&hk_cpu_lost, &cpu);
	struct rq *rq;
	__u64 lost;

	if (!cfs || !v || v->walk == hk_walk_no)
		return 0;
	if (bpf_core_field_exists(cfs->rq))
		rq = BPF_CORE_READ(cfs, rq);
	else
		rq = (void *)(cfs_rq_addr - bpf_core_field_offset(struct rq, cfs));
	lost = hk_sub_clamp(BPF_CORE_READ(rq, clock), BPF_CORE_READ(rq, clock_task));
	v->delta_ns = v->walk + 1 == hk_walk_no ? hk_sub_clamp(lost, v->seen_ns) : 0;
	v->seen_ns = lost;
	v->walk = hk_walk_no;
	return 0;
}

/* What cpu lost between the previous walk and this one (noted in this
 * walk), else 0. */
__noinline __u64 hk_cpu_lost_delta(__u32 cpu)
{
	struct hk_cpu_lost *v = bpf_map_lookup_elem(&hk_cpu_lost, &cpu);

	return v && v->walk == hk_walk_no ? v->delta_ns : 0;
}

#endif /* HK_BPF_CPU_LOST_H */
