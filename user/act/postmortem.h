/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * postmortem.h - the OOM post-mortem: at each OOM kill, one JSON file
 * under the state directory (HK_RUNDIR/oom/UNIX_S-PID.json) that says what
 * was known of the victim: its label history, its ETA and growth trend,
 * its memory cgroup's limits and memory.events as the kernel had them at
 * the kill (read in bpf/oom_kill.bpf.h: the container's cgroup is often
 * gone before userspace looks), and the growth profile taken of it.
 *
 *   postmortem_hist.c  what is kept of each process until it dies: bounded
 *   postmortem_json.c  the record (a pure function of the kill and history)
 *   postmortem_dir.c   the files: written atomically, bounded, listed
 *   postmortem.c       the act: transitions and windows in, files out
 *
 * Memory is bounded: a history is kept only for a process that entered or
 * left a memory label (oom_risk, mem_thrashing, mem_throttled), at most
 * HK_PM_PROCS of them (the least recently heard of gives its slot up),
 * each with its last HK_PM_LABELS transitions and HK_PM_SAMPLES windows:
 * ~0.2 MiB in all. The files are bounded by [postmortem] records (count,
 * the oldest removed) and record_max (bytes: the oldest samples, then
 * transitions, then the profile's paths are left out to fit, and counted).
 */
#ifndef HK_USER_POSTMORTEM_H
#define HK_USER_POSTMORTEM_H

#include "config/config.h"
#include "postmortem_dir.h"
#include "postmortem_hist.h"
#include "postmortem_json.h"

struct hk_postmortem {
	struct hk_pm_hist hist;
	struct hk_safedir dir;		/* fd -1: nothing is written */
	const char *path;		/* HK_RUNDIR; a test gives another */
	unsigned int keep;		/* [postmortem] records */
	unsigned int max_bytes;		/* [postmortem] record_max */
	__u64 polled_ns;		/* hk_procs last read for the histories */
	__u64 poll_ns;			/* at most so often (half a window) */
	__u64 written, failed;
	__u64 skipped;			/* over HK_PM_BARE_PER_S */
	__u64 bare_since_ns;		/* this second's start ... */
	__u32 bare_n;			/* ... and its records of bare kills */
	int dir_said;			/* the directory's failure was said */
	char *buf;			/* max_bytes */
};

/* Set up from cfg under path: one warning line when the directory cannot
 * be used (nothing is written then; the rest of the tool runs). NULL: no
 * memory. Histories are kept with records = 0 too: a reload may ask. */
struct hk_postmortem *hk_postmortem__new(const struct hk_config *cfg, const char *path);
/* cfg's [postmortem] keys (a reload): 0, or -1 (no memory: unchanged). */
int hk_postmortem__configure(struct hk_postmortem *pm, const struct hk_config *cfg);
void hk_postmortem__free(struct hk_postmortem *pm);
/* A transition or an ETA event: kept; an OOM kill's record written (its
 * memory cgroup named as its line did: memcg). */
void hk_postmortem__event(struct hk_postmortem *pm, const struct hk_event *e,
			  const char *memcg);
/* A growth profile started for pid (its files' prefix). */
void hk_postmortem__profile(struct hk_postmortem *pm, __u32 pid, const char *prefix);
/* The histories' processes read from hk_procs (procs_fd) at now_ns: a
 * sample of each window they had, at most every half interval. */
void hk_postmortem__poll(struct hk_postmortem *pm, int procs_fd, __u64 now_ns);

#endif /* HK_USER_POSTMORTEM_H */
