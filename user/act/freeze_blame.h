/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * freeze_blame.h - whose memory the host's headroom fell by: a process
 * whose ETA is against the host (HK_LIMIT_HOST) is frozen only when its
 * own growth explains most of the headroom the host lost over its trend.
 *
 * The tool counts a process's growth as its anon memory, resident or
 * swapped out; tmpfs and shmem are nobody's, and a block taken in one
 * jump and held is no steady trend. Anyone who can allocate can so lower
 * the host's headroom until another user's steadily growing service has a
 * short ETA: it would be frozen for what someone else took (security-2,
 * M2). A memory cgroup's own limit binds what its members use: its ETA is
 * theirs, and is judged as before.
 *
 * What the host could give (MemAvailable) is sampled by the event loop on
 * a stride, in a ring covering twice the trend span; the fall over a
 * process's trend is compared with its net growth over that trend.
 */
#ifndef HK_USER_FREEZE_BLAME_H
#define HK_USER_FREEZE_BLAME_H

#include <stdbool.h>
#include <stddef.h>
#include "shared/hotspot.h"

/* Samples of MemAvailable kept (a power of two). */
#define HK_BLAME_RING		64
/* The share of the host's fall a process's own growth must explain. */
#define HK_BLAME_SHARE_PCT	50
/* OOM-risk episodes whose refusal was said, not said again. */
#define HK_BLAME_TOLD		64
/* The shortest stride between two samples. */
#define HK_BLAME_STRIDE_MIN_MS	100

struct hk_blame_point {
	__u64 ms;			/* CLOCK_MONOTONIC */
	__u64 avail_bytes;		/* MemAvailable */
};

struct hk_blame_told {
	__u32 tgid;
	__u64 start_boottime_ns;
};

struct hk_freeze_blame {
	struct hk_blame_point ring[HK_BLAME_RING];
	__u32 head, nr;
	__u64 stride_ms;
	__u64 tried_ms;			/* the event loop's last reading */
	/* the episodes refused and said: once each */
	struct hk_blame_told told[HK_BLAME_TOLD];
	__u32 told_next;
	__u64 repeats;			/* refusals of an episode said before */
	const char *meminfo;		/* "/proc/meminfo"; a test gives another */
};

/* What the judgement found, for the line and the tests. */
struct hk_blame_verdict {
	__u64 fall_bytes;		/* MemAvailable lost over the span */
	__u64 span_ms;			/* ... the span it was measured over */
	__u64 growth_bytes;		/* the process's growth over it */
	__u32 explained_pct;		/* growth / fall, at most 100 */
};

/* Empty b, sampling on a stride that puts the ring over 2 x trend_span. */
void hk_blame__init(struct hk_freeze_blame *b, __u64 trend_span_ns);
/* Keep the ring, change the stride (a reload). */
void hk_blame__configure(struct hk_freeze_blame *b, __u64 trend_span_ns);

/* Record MemAvailable at now_ms, when the stride since the newest is up
 * (force: whatever the stride). */
void hk_blame__push(struct hk_freeze_blame *b, __u64 now_ms, __u64 avail_bytes, bool force);

/*
 * MemAvailable at ms: the newest sample at or before it, else the oldest
 * (the ring is younger than ms). 0, or -1 when the ring is empty.
 */
int hk_blame__at(const struct hk_freeze_blame *b, __u64 ms, struct hk_blame_point *p);

/*
 * Whether e's own growth explains the host's fall. Pure: e's trend ends at
 * e->time_ns and covers e->ev.rss_trend_ms; avail_bytes is MemAvailable
 * read at now_ms (after the event). Returns 1 when it is to be refused (v
 * says by what), 0 when it may be frozen: its limit is not the host's, the
 * ring is empty, the headroom did not fall, or its growth is at least
 * HK_BLAME_SHARE_PCT of the fall. A history shorter than the trend
 * compares the fall with the growth in proportion to the time it covers.
 */
int hk_blame__judge(const struct hk_freeze_blame *b, const struct hk_event *e, __u64 now_ms,
		    __u64 avail_bytes, struct hk_blame_verdict *v);

/* The reason of a refusal into why: "the host's headroom fell ...". */
int hk_blame__why(char *why, size_t len, const struct hk_event *e,
		  const struct hk_blame_verdict *v);

/*
 * Whether the refusal of e's episode was said (then counted in repeats),
 * else remember it: true when it is not to be said again.
 */
bool hk_blame__told(struct hk_freeze_blame *b, const struct hk_event *e);
/* e's process left OOM risk, or is gone: its next episode is said anew. */
void hk_blame__forget(struct hk_freeze_blame *b, const struct hk_event *e);

/* MemAvailable from a meminfo file, in bytes: 0, or -1. */
int hk_blame__read_avail(const char *meminfo, __u64 *bytes);

struct hk_freezer;
struct hk_freeze_result;

/* The event loop's tick: a sample of the host's MemAvailable when its
 * stride is up (the history a freeze against the host is judged on). */
void hk_freeze__sample(struct hk_freezer *f);
/* ms until that sample is due, -1 none (the event loop wakes for it: a
 * timer driver's loop may sleep several windows) */
int hk_freeze__sample_timeout_ms(const struct hk_freezer *f);

/*
 * Before e's cgroup is acted on: 0, it may be (freeze_decide.c decides the
 * rest); 1, refused, r says why, and the line is to be said; 2, refused
 * again in an episode whose refusal was said: nothing to say.
 */
int hk_freeze__blame(struct hk_freezer *f, const struct hk_event *e,
		     struct hk_freeze_result *r);

#endif /* HK_USER_FREEZE_BLAME_H */
