/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * events.h - the records of the hk_events ring buffer: struct hk_event (a
 * transition, a hand-over, an ETA, a hook request) and the OOM kill it
 * carries. Apart because this is the one stream the tool reads as it
 * runs; its layout is what the printer, the acts and the fuzzers parse.
 * Part of hotspot.h: include that.
 */
#ifndef HK_SHARED_EVENTS_H
#define HK_SHARED_EVENTS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "capacities.h"
#include "evidence.h"

enum hk_event_type {
	HK_EV_TRANSITION = 1,
	/*
	 * A timer driver's walk held a CPU longer than 2 x chunk_ns (threads
	 * grew since the start): the timer stopped, and the tool walks from
	 * now on with the iter driver. from: the driver that stopped;
	 * time_ns: the start of that walk; ev.window_ns: how long it took.
	 */
	HK_EV_HANDOVER = 2,
	/*
	 * A process that holds OOM risk: its ETA fell under freeze_eta_s in
	 * this window (it entered above it, or held above it until now).
	 * from = to = HK_OOM_RISK; ev: this window's. The freeze is decided
	 * on it as on the entry (act/freeze.c).
	 */
	HK_EV_ETA = 3,
	/*
	 * The sched_switch hook is wanted (from = 1: the walk began watching
	 * a thread) or no longer (from = 0: none watched for
	 * HK_HOOK_IDLE_WINDOWS windows); to: threads watched by this walk.
	 * The tool attaches or detaches it at once (hk_config.hook
	 * HK_HOOK_ON_DEMAND only).
	 */
	HK_EV_HOOK = 4,
};

/* OOM kills (bpf/oom_kill.bpf.h, shared/oom_kill.h). */
enum hk_oom_consts {
	HK_OOM_NAME_LEN = 64,		/* a memory cgroup's directory name kept */
	HK_OOM_KILLS = 1024,		/* kills kept until the victim's exit */
	HK_OOM_MEMCGS = 1024,		/* memory cgroups whose count of OOM
					 * kills a mark_victim was seen at */
	HK_OOM_MEMCG_LEVELS = 16,	/* memory cgroups looked at, up from the
					 * victim's, for the one at its limit */
	/* "flagged": it held OOM risk at the kill, or left it no more than
	 * this many windows before (at its limit the kernel's reclaim can
	 * flatten the trend for a window or two before the kill) */
	HK_OOM_FLAG_WINDOWS = 5,
};

/* The memory.events counters an OOM kill keeps (hk_oom_kill.events[]). */
enum hk_oom_event {
	HK_OOM_EV_LOW = 0,
	HK_OOM_EV_HIGH = 1,
	HK_OOM_EV_MAX = 2,
	HK_OOM_EV_OOM = 3,
	HK_OOM_EV_OOM_KILL = 4,
	HK_OOM_EV_OOM_GROUP_KILL = 5,	/* Linux 5.16+ */
	HK_OOM_EVENTS = 6,
};

/* hk_oom_kill.limits_known: which of its other limits were read. */
enum hk_oom_limits {
	HK_OOM_HIGH_KNOWN = 1,
	HK_OOM_SWAP_KNOWN = 2,
};

/* A limit the memory cgroup does not set ("max"), in hk_oom_kill's bytes. */
#define HK_OOM_UNSET_BYTES (~0ULL)

/*
 * An OOM kill: what the kernel did (oom:mark_victim) and what hotspot-k
 * had said of the victim before. Kept in hk_oom until the victim's last
 * transition (HK_OOM_KILLED) carries it; zero in every other event.
 */
struct hk_oom_kill {
	__u64 time_ns;			/* the kill, CLOCK_MONOTONIC */
	__u64 start_time_ns;		/* the victim's group leader's start
					 * (0: unknown, kernels before 6.8) */
	__u64 memcg_id;			/* kernfs id of the memory cgroup whose
					 * limit was hit; 0: none, a host OOM */
	__u64 limit_bytes;		/* ... its limit */
	__u64 usage_bytes;		/* ... its usage at the kill */
	__u64 oom_risk_since_ns;	/* hk_proc's, at the kill: 0 never */
	__u64 oom_risk_until_ns;	/* ... 0: held at the kill */
	__u64 window_ns;		/* the interval then (hk_oom_flagged) */
	__u32 flagged;			/* hk_oom_flagged() */
	__u32 tracked;			/* hk_procs had an entry for it */
	char memcg_name[HK_OOM_NAME_LEN]; /* that cgroup's directory name,
					 * NUL-padded (its path: userspace) */
	/* read at the kill, for the post-mortem (act/postmortem.h): the
	 * cgroup may be gone by the time userspace looks */
	__u64 high_bytes;		/* its memory.high (HK_OOM_UNSET_BYTES:
					 * max) */
	__u64 swap_max_bytes;		/* memory.swap.max; on cgroup v1 the
					 * union's memsw: memory+swap */
	__u64 events[HK_OOM_EVENTS];	/* its memory.events (hierarchical) */
	__u32 events_known;		/* bit per events[] the kernel has */
	__u32 limits_known;		/* HK_OOM_HIGH_KNOWN, HK_OOM_SWAP_KNOWN */
};

/* A label change, sent over the hk_events ring buffer. */
struct hk_event {
	__u32 type;			/* enum hk_event_type */
	__u32 tgid;
	__u32 ns_pid;
	__u32 from;			/* enum hk_label */
	__u32 to;			/* enum hk_label (HK_EXITED included) */
	__u32 windows;			/* windows the process was sampled */
	__u64 ns_ino;
	__u64 time_ns;			/* CLOCK_MONOTONIC */
	__u64 start_time_ns;
	__u64 start_boottime_ns;	/* the process's start on CLOCK_BOOTTIME:
					 * an act checks the PID still holds it */
	char comm[HK_COMM_LEN];
	char aggressor_comm[HK_COMM_LEN];
	char victim_comm[HK_COMM_LEN];
	struct hk_evidence ev;
	struct hk_oom_kill oom;		/* to HK_OOM_KILLED only; zero otherwise */
};

HK_STATIC_ASSERT(sizeof(struct hk_event) % 8 == 0, "event is 8-byte aligned");
HK_STATIC_ASSERT(sizeof(struct hk_oom_kill) % 8 == 0, "oom kill is 8-byte aligned");

#endif /* HK_SHARED_EVENTS_H */
