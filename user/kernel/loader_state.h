/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * loader_state.h - struct hk_loader, the state the loader's files share
 * (loader.c, loader_hook.c, loader_walk.c, loader_cost.c, loader_pin.c),
 * and the calls between them. Only those files include it: everyone
 * else sees the loader through loader.h.
 */
#ifndef HK_USER_LOADER_STATE_H
#define HK_USER_LOADER_STATE_H

#include <stddef.h>
#include <bpf/libbpf.h>
#include "loader_types.h"
#include "self_cost.h"
#include "hotspot.skel.h"

struct hk_loader {
	struct hotspot_bpf *skel;
	struct ring_buffer *rb;
	struct bpf_link *iter_link;
	enum hk_driver driver;
	const char *why;		/* why that driver */
	const char *oom_note;		/* why OOM kills go unseen; NULL: seen */
	char blind[400];		/* what this kernel's configs hide; "": none */
	__u64 interval_ns;
	__u64 next_walk_ns;		/* iter driver: CLOCK_MONOTONIC */
	struct hk_walk_cost first;	/* the walk made at start */
	struct hk_walk_cost last;
	int bounded_loops;		/* no bpf_loop(), or forced (tests) */
	ring_buffer_sample_fn on_event;	/* the caller's, for transitions */
	void *ctx;
	struct hk_handover handover;	/* a timer driver stopped; unread */
	struct hk_config cfg;		/* what hk_config holds */
	volatile struct hk_stats *stats;	/* hk_stats, mapped; NULL: look up */
	size_t stats_len;
	struct bpf_program *hook_prog;	/* hk_switch or hk_switch_noarg; NULL: --no-hook */
	struct bpf_link *hook_link;	/* NULL: not attached now */
	int hook_held;			/* [budget]: held detached, asks ignored */
	struct hk_hook_use hook;	/* when it was, and what attaching cost */
	__u64 iter_walk_cpu_ns;		/* walk_cpu_ns_total of walks made here */
	enum hk_cost_source cost_source;
	int stats_fd;			/* BPF_ENABLE_STATS held; -1: none */
	__u64 forks_at_start;		/* /proc/stat processes then */
	__u64 ready_ns;			/* the start ended (CLOCK_MONOTONIC) */
	__u64 start_cpu_ns;		/* this process's CPU then */
	__u64 start_walk_cpu_ns;	/* hk_stats.walk_cpu_ns_total then */
};

/* The hook attached now (at the walk's ask, or for good under --pin, then
 * asked_ns 0). 0, or -errno (counted in l->hook). */
int hk_loader_hook__attach(struct hk_loader *l, __u64 asked_ns);
/* An HK_EV_HOOK record: the hook attached or detached as the walk asks. */
void hk_loader_hook__event(struct hk_loader *l, const struct hk_event *e);
/* One walk by the iter/task program, timed into l->last. 0 or -errno. */
int hk_loader_walk__iter(struct hk_loader *l);
/* How the tool will know its programs' cost (HK_COST_*); *fd: the
 * BPF_ENABLE_STATS fd to close at exit, or -1. */
enum hk_cost_source hk_loader_cost__open(int *fd, int bpf_stats);

#endif /* HK_USER_LOADER_STATE_H */
