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
#include "loader_types.h"
#include "self_cost.h"

/* The iter driver returns to userspace (a preemption point) this often. */
#define HK_CHUNK_NS HK_NSEC_PER_MSEC

struct hk_loader_opts {
	struct hk_config cfg;		/* complete: thresholds + environment */
	__u32 max_procs;		/* hk_procs capacity */
	int verbose;			/* libbpf debug output */
	enum hk_driver driver;		/* HK_DRIVER_NONE: choose */
	int no_hook;			/* leave sched_switch alone */
	int bpf_stats;			/* --bpf-stats: hold BPF_ENABLE_STATS
					 * (every program on the host timed) */
	int pin;			/* for --pin: a timer driver whatever the
					 * threads, if the kernel has one */
	ring_buffer_sample_fn on_event;
	void *ctx;
};

struct hk_loader;

/* 0, or -1 with one line in err; exit code 1 material. */
int hk_loader__start(struct hk_loader **out, const struct hk_loader_opts *o,
		     char *err, size_t err_len);
/*
 * New thresholds and filters (a reload), written into hk_config in place:
 * no detach, no per-process state lost. The environment fields stay as at
 * start. 0, or -1 with why in err (the old config then stays).
 */
int hk_loader__reconfigure(struct hk_loader *l, const struct hk_config *want,
			   char *err, size_t err_len);

/* The config hk_config holds now, and its interval. */
void hk_loader__config(const struct hk_loader *l, struct hk_config *out);
__u64 hk_loader__interval_ns(const struct hk_loader *l);

/* An epoll fd, readable when the ring buffer holds records. */
int hk_loader__ring_fd(const struct hk_loader *l);
/* hk_procs, for the uid that fills it (kernel/watch.h). */
int hk_loader__procs_fd(const struct hk_loader *l);
/* Hand every record there is to on_event: the number, or on_event's error. */
int hk_loader__consume(struct hk_loader *l);
enum hk_driver hk_loader__driver(const struct hk_loader *l, const char **why);
/* Why OOM kills go unseen on this kernel (no oom_killed lines), or NULL. */
const char *hk_loader__oom_note(const struct hk_loader *l);
/* What the kernel was built without hides from the walk, in one line
 * ("not seen on this kernel: ..."), or NULL (kfields.h). */
const char *hk_loader__blind(const struct hk_loader *l);
void hk_loader__destroy(struct hk_loader *l);

/* 1: bounded loops stand in for bpf_loop() (before 5.17, or forced by
 * HOTSPOT_K_AS_5_15=1 for tests). */
int hk_loader__bounded_loops(const struct hk_loader *l);

/* the parts' calls, each in its own header */
#include "loader_cost.h"
#include "loader_hook.h"
#include "loader_pin.h"
#include "loader_walk.h"

#endif /* HK_USER_LOADER_H */
