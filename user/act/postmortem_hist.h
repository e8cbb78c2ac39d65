/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * postmortem_hist.h - what the OOM post-mortem keeps of a process until it dies
 * (postmortem.h): a fixed table of histories, each two rings.
 */
#ifndef HK_USER_POSTMORTEM_HIST_H
#define HK_USER_POSTMORTEM_HIST_H

#include <stdbool.h>
#include "shared/hotspot.h"

enum {
	HK_PM_PROCS = 32,		/* processes with a history */
	HK_PM_LABELS = 8,		/* transitions kept per process */
	HK_PM_SAMPLES = 32,		/* windows kept per process */
	HK_PM_PATH_MAX = 4096,		/* a growth profile's prefix */
	/* records a second of kills of processes with no history (a storm
	 * of tiny cgroups' kills); a history's kill is always written */
	HK_PM_BARE_PER_S = 4,
};

struct hk_pm_label {
	__u64 time_ns;			/* CLOCK_MONOTONIC */
	__u32 from, to;			/* enum hk_label */
};

/* One window of the process, as its transition or hk_procs had it. */
struct hk_pm_sample {
	__u64 time_ns;			/* the window's end, CLOCK_MONOTONIC */
	__u64 rss_bytes;
	__s64 slope_bytes_per_s;	/* the trend's least squares */
	__u64 eta_s;			/* HK_ETA_NONE: not heading to a limit */
	__u64 limit_bytes;		/* the limit the ETA is against */
};

struct hk_pm_proc {
	__u32 pid;			/* 0: the slot is free */
	__u32 label;			/* the latest, enum hk_label */
	__u64 start_time_ns;		/* hk_proc's: a recycled PID is another */
	__u64 heard_ns;			/* last event or sample: the LRU's key */
	char comm[HK_COMM_LEN];
	__u32 nr_labels;		/* ever seen: the ring holds the last */
	__u32 nr_samples;
	struct hk_pm_label labels[HK_PM_LABELS];
	struct hk_pm_sample samples[HK_PM_SAMPLES];
	char profile[HK_PM_PATH_MAX];	/* its last growth profile's prefix, "" */
};

struct hk_pm_hist {
	struct hk_pm_proc procs[HK_PM_PROCS];
	__u64 evicted;			/* histories given up for a newer one */
};

struct hk_pm_proc *hk_pm_hist__find(struct hk_pm_hist *h, __u32 pid, __u64 start_time_ns);
/* Found, or a new one in a free slot or the least recently heard of. */
struct hk_pm_proc *hk_pm_hist__add(struct hk_pm_hist *h, __u32 pid, __u64 start_time_ns,
				   const char *comm, __u64 now_ns);
void hk_pm_hist__label(struct hk_pm_proc *p, __u64 time_ns, __u32 from, __u32 to);
/* A window's sample; one no newer than the last kept is not taken. */
void hk_pm_hist__sample(struct hk_pm_proc *p, const struct hk_pm_sample *s);
void hk_pm_hist__drop(struct hk_pm_proc *p);
bool hk_pm__is_mem_label(__u32 label);

#endif /* HK_USER_POSTMORTEM_HIST_H */
