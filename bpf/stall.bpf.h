/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * stall.bpf.h - the stall ledger in the kernel: after the window step, a
 * process's window split by cause (include/shared/classify_stall.h) into
 * its hk_proc, and the node's CPU wait by cause into hk_stats. Apart from
 * window.bpf.h, which calls it once a window per process.
 */
#ifndef HK_BPF_STALL_H
#define HK_BPF_STALL_H

#include "shared/classify.h"
#include "maps.bpf.h"

/*
 * The stall ledger of the window just made (hk_stall_window), and the
 * node's CPU wait by cause (one walk at a time adds). A global function:
 * verified once, on its own; inlined into the window step, the test
 * entry's bounded-loop build passed the verifier's 1M instructions. A
 * sibling of hk_window_step_frame: no call level deeper. The memory
 * stall comes in hk_stall_cur, not as a pointer: the test entry's sample
 * sits at a variable offset, which older verifiers may refuse to pass to
 * a global function.
 */
static struct hk_stall_mem hk_stall_cur;

__noinline int hk_stall_frame(struct hk_proc *p)
{
	__u32 zero = 0, i;
	struct hk_config *c = bpf_map_lookup_elem(&hk_config, &zero);
	struct hk_stats *st = bpf_map_lookup_elem(&hk_stats, &zero);

	if (!p || !c || !st)
		return 0;
	hk_stall_window(c, &p->ev, &hk_stall_cur);
	for (i = 0; i < HK_STALL_CPU_NR; i++)
		st->node_cpu_wait_ns[i] += p->ev.stall_win.ns[i];
	return 0;
}

#endif /* HK_BPF_STALL_H */
