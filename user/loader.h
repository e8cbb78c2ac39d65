/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader.h - the BPF side's lifecycle: open -> configure -> load ->
 * attach -> ring buffer -> arm; and everything undone on destroy.
 */
#ifndef HK_USER_LOADER_H
#define HK_USER_LOADER_H

#include <stddef.h>
#include <bpf/libbpf.h>
#include "shared/hotspot.h"

struct hk_loader_opts {
	struct hk_config cfg;		/* complete: thresholds + environment */
	__u32 max_procs;		/* hk_procs capacity */
	int verbose;			/* libbpf debug output */
	int force_timer_walk;		/* walk in the timer even with bpf_wq */
	int no_hook;			/* leave sched_switch alone */
	ring_buffer_sample_fn on_event;
	void *ctx;
};

struct hk_loader;

/* 0, or -1 with one line in err; exit code 1 material. */
int hk_loader__start(struct hk_loader **out, const struct hk_loader_opts *o,
		     char *err, size_t err_len);
/* Block until events arrive or a signal; returns ring_buffer__poll's. */
int hk_loader__poll(struct hk_loader *l, int timeout_ms);
int hk_loader__stats(struct hk_loader *l, struct hk_stats *out);
/* Average ns per run of the sched_switch hook, if kernel.bpf_stats_enabled. */
int hk_loader__hook_cost(struct hk_loader *l, __u64 *run_ns, __u64 *run_cnt);
int hk_loader__uses_wq(const struct hk_loader *l);
void hk_loader__destroy(struct hk_loader *l);

#endif /* HK_USER_LOADER_H */
