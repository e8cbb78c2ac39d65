/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * classify_sched.h - what a waiting thread asked the scheduler for: its
 * policy, its nice, its task group's cpu.weight and cpu.idle, folded into
 * one word (hk_deprio) that a Noisy neighbor's evidence carries, so that it
 * can say its victim chose to wait. Read by the walk (sched_prio.bpf.h) and
 * the printers alike.
 */
#ifndef HK_SHARED_CLASSIFY_SCHED_H
#define HK_SHARED_CLASSIFY_SCHED_H

#include "hotspot.h"

/*
 * Scheduling policies (include/uapi/linux/sched.h: macros, which vmlinux.h
 * does not carry) and cgroup v2's default cpu.weight.
 */
enum hk_sched_policy {
	HK_SCHED_NORMAL = 0,
	HK_SCHED_FIFO = 1,
	HK_SCHED_RR = 2,
	HK_SCHED_BATCH = 3,
	HK_SCHED_IDLE = 5,
	HK_SCHED_DEADLINE = 6,
	HK_SCHED_EXT = 7,
	HK_CPU_WEIGHT_DFL = 100,
};

/*
 * A task group's shares (tg->shares) as cgroup v2's cpu.weight, the way
 * the kernel shows it (sched_weight_to_cgroup(scale_load_down(shares)),
 * 64-bit kernels: SCHED_FIXEDPOINT_SHIFT 10): a v1 cpu.shares of 1024 and
 * an autogroup at nice 0 read 100 alike, one at nice 19 reads 1.
 */
static inline __u32 hk_cgroup_weight(__u64 shares)
{
	__u64 w = shares >> 10;

	if (w < 2)
		w = 2;	/* scale_load_down()'s floor */
	w = (w * HK_CPU_WEIGHT_DFL + 512) / 1024;
	if (w < 1)
		return 1;
	return w > 10000 ? 10000 : (__u32)w;
}

/*
 * Why a waiting thread asked the scheduler for less than a fair share: a
 * word of these bits with its nice and its group's cpu.weight packed in,
 * so that a Noisy neighbor's evidence can say why its victim waits
 * (victim_deprioritised). 0: it asked for its fair share.
 */
enum hk_deprio {
	HK_DEPRIO_NICE = 1 << 0,	/* nice > 0 */
	HK_DEPRIO_BATCH = 1 << 1,	/* SCHED_BATCH */
	HK_DEPRIO_IDLE = 1 << 2,	/* SCHED_IDLE */
	HK_DEPRIO_GROUP_IDLE = 1 << 3,	/* its task group's cpu.idle */
	HK_DEPRIO_WEIGHT = 1 << 4,	/* its task group's cpu.weight < 100 */
	HK_DEPRIO_NICE_SHIFT = 8,	/* bits 8..12: the nice (1..19) */
	HK_DEPRIO_WEIGHT_SHIFT = 16,	/* bits 16..22: the weight (1..99) */
};

/*
 * What the thread that waited most asked for, as an hk_deprio word. Its
 * wait is then what its owner chose, and the evidence says so (review
 * finding 3): nice 19, SCHED_IDLE, cpu.idle, a BestEffort pod's weight.
 */
static inline __u32 hk_deprio(const struct hk_evidence *ev)
{
	__u32 why = 0;

	if (ev->wait_nice > 0 && ev->wait_nice < 20)
		why |= HK_DEPRIO_NICE | (__u32)ev->wait_nice << HK_DEPRIO_NICE_SHIFT;
	if (ev->wait_policy == HK_SCHED_BATCH)
		why |= HK_DEPRIO_BATCH;
	if (ev->wait_policy == HK_SCHED_IDLE)
		why |= HK_DEPRIO_IDLE;
	if (ev->wait_group_idle)
		why |= HK_DEPRIO_GROUP_IDLE;
	if (ev->wait_group_weight && ev->wait_group_weight < HK_CPU_WEIGHT_DFL)
		why |= HK_DEPRIO_WEIGHT | ev->wait_group_weight << HK_DEPRIO_WEIGHT_SHIFT;
	return why;
}

#endif /* HK_SHARED_CLASSIFY_SCHED_H */
