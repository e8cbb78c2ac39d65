// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_blame.c - decide, against the host's headroom: a freeze only
 * for the process whose own growth explains its fall (freeze_blame.h):
 *
 *   hotspot-k: pid 1234 python3 (oom_risk in 5m50s) not frozen: the host's
 *     headroom (MemAvailable) fell 6144 MiB in 30 s, and pid 1234's own
 *     growth explains 600 MiB of it (9 %, under 50 %): someone else's memory
 *
 * said once per OOM-risk episode. The rule, in integers: refuse when
 * growth x 100 < fall x HK_BLAME_SHARE_PCT, growth being the net growth of
 * the trend the ETA was fitted on (anon + swap, what OOM risk follows) and
 * fall MemAvailable at the sample at or before the trend's first point
 * less MemAvailable now. Two processes of one service leaking alike each
 * explain half; a third makes each a third: such a service is refused,
 * and left to the kernel as without --freeze-on-oom (the README says so).
 */
#include <stdio.h>
#include <string.h>
#include "freeze_blame.h"
#include "freezer.h"
#include "lib/clock.h"

static __u64 stride_ms(__u64 trend_span_ns)
{
	__u64 ms = 2 * (trend_span_ns / HK_NSEC_PER_MSEC) / HK_BLAME_RING;

	return ms < HK_BLAME_STRIDE_MIN_MS ? HK_BLAME_STRIDE_MIN_MS : ms;
}

void hk_blame__init(struct hk_freeze_blame *b, __u64 trend_span_ns)
{
	memset(b, 0, sizeof(*b));
	b->meminfo = "/proc/meminfo";
	b->stride_ms = stride_ms(trend_span_ns);
}

void hk_blame__configure(struct hk_freeze_blame *b, __u64 trend_span_ns)
{
	b->stride_ms = stride_ms(trend_span_ns);
}

/* The i-th newest sample (0: the newest); i < b->nr. */
static const struct hk_blame_point *newest(const struct hk_freeze_blame *b, __u32 i)
{
	return &b->ring[(b->head + HK_BLAME_RING - 1 - i) & (HK_BLAME_RING - 1)];
}

void hk_blame__push(struct hk_freeze_blame *b, __u64 now_ms, __u64 avail_bytes, bool force)
{
	if (b->nr && !force && now_ms < newest(b, 0)->ms + b->stride_ms)
		return;
	b->ring[b->head].ms = now_ms;
	b->ring[b->head].avail_bytes = avail_bytes;
	b->head = (b->head + 1) & (HK_BLAME_RING - 1);
	if (b->nr < HK_BLAME_RING)
		b->nr++;
}

int hk_blame__at(const struct hk_freeze_blame *b, __u64 ms, struct hk_blame_point *p)
{
	__u32 i;

	if (!b->nr)
		return -1;
	for (i = 0; i < b->nr; i++)
		if (newest(b, i)->ms <= ms)
			break;
	*p = *newest(b, i < b->nr ? i : b->nr - 1);
	return 0;
}

int hk_blame__judge(const struct hk_freeze_blame *b, const struct hk_event *e, __u64 now_ms,
		    __u64 avail_bytes, struct hk_blame_verdict *v)
{
	__u64 end_ms = e->time_ns / HK_NSEC_PER_MSEC, trend_ms = e->ev.rss_trend_ms;
	__u64 start_ms = end_ms > trend_ms ? end_ms - trend_ms : 0, growth, covered;
	struct hk_blame_point p;

	memset(v, 0, sizeof(*v));
	v->explained_pct = 100;
	if (e->ev.limit_kind != HK_LIMIT_HOST || hk_blame__at(b, start_ms, &p))
		return 0;
	growth = e->ev.rss_net_growth_bytes > 0 ? (__u64)e->ev.rss_net_growth_bytes : 0;
	/* a history younger than the trend (the tool just started): the
	 * growth of the part of the trend it covers, at the trend's rate */
	if (p.ms > start_ms && trend_ms) {
		/* none before the event at all (freezing turned on by a
		 * reload a moment ago): nothing to judge by, as before */
		if (p.ms >= end_ms)
			return 0;
		covered = end_ms - p.ms;
		growth = growth / trend_ms * covered + growth % trend_ms * covered / trend_ms;
	}
	if (now_ms < end_ms)
		now_ms = end_ms;
	v->span_ms = now_ms > p.ms ? now_ms - p.ms : 0;
	v->growth_bytes = growth;
	v->fall_bytes = p.avail_bytes > avail_bytes ? p.avail_bytes - avail_bytes : 0;
	if (!v->fall_bytes)
		return 0;
	/* bytes below 2^56: times 100 fits */
	if (growth < v->fall_bytes)
		v->explained_pct = (__u32)(growth * 100 / v->fall_bytes);
	return growth * 100 < v->fall_bytes * HK_BLAME_SHARE_PCT;
}

static unsigned long long mib(__u64 bytes)
{
	return (unsigned long long)((bytes + (1 << 19)) >> 20);
}

int hk_blame__why(char *why, size_t len, const struct hk_event *e,
		  const struct hk_blame_verdict *v)
{
	return snprintf(why, len, "the host's headroom (MemAvailable) fell %llu MiB in %llu s, "
			"and pid %u's own growth explains %llu MiB of it (%u %%, under %d %%): "
			"someone else's memory", mib(v->fall_bytes),
			(unsigned long long)((v->span_ms + 500) / 1000), e->tgid,
			mib(v->growth_bytes), v->explained_pct, HK_BLAME_SHARE_PCT);
}

bool hk_blame__told(struct hk_freeze_blame *b, const struct hk_event *e)
{
	struct hk_blame_told *t;
	__u32 i;

	for (i = 0; i < HK_BLAME_TOLD; i++) {
		t = &b->told[i];
		if (t->tgid == e->tgid && t->start_boottime_ns == e->start_boottime_ns) {
			b->repeats++;
			return true;
		}
	}
	/* the oldest episode makes room: it is said again, at worst */
	t = &b->told[b->told_next];
	b->told_next = (b->told_next + 1) % HK_BLAME_TOLD;
	t->tgid = e->tgid;
	t->start_boottime_ns = e->start_boottime_ns;
	return false;
}

void hk_blame__forget(struct hk_freeze_blame *b, const struct hk_event *e)
{
	__u32 i;

	for (i = 0; i < HK_BLAME_TOLD; i++)
		if (b->told[i].tgid == e->tgid &&
		    b->told[i].start_boottime_ns == e->start_boottime_ns)
			memset(&b->told[i], 0, sizeof(b->told[i]));
}

int hk_blame__read_avail(const char *meminfo, __u64 *bytes)
{
	unsigned long long kib;
	char line[128];
	int found = 0;
	FILE *f;

	f = fopen(meminfo, "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
	fclose(f);
	if (!found)
		return -1;
	*bytes = (__u64)kib * 1024;
	return 0;
}

int hk_freeze__sample_timeout_ms(const struct hk_freezer *f)
{
	const struct hk_freeze_blame *b = f->blame;
	__u64 now_ms = (__u64)mono_ms(), due_ms;

	if (!b || !f->eta_s)
		return -1;
	due_ms = b->tried_ms + b->stride_ms;
	return due_ms > now_ms ? (int)(due_ms - now_ms) : 0;
}

void hk_freeze__sample(struct hk_freezer *f)
{
	struct hk_freeze_blame *b = f->blame;
	__u64 now_ms = (__u64)mono_ms(), avail;

	/* the stride first: no read of /proc/meminfo before it is up (nor
	 * again at once after a read that failed) */
	if (!b || !f->eta_s || (b->tried_ms && now_ms < b->tried_ms + b->stride_ms))
		return;
	b->tried_ms = now_ms;
	if (!hk_blame__read_avail(b->meminfo, &avail))
		hk_blame__push(b, now_ms, avail, false);
}

int hk_freeze__blame(struct hk_freezer *f, const struct hk_event *e,
		     struct hk_freeze_result *r)
{
	struct hk_freeze_blame *b = f->blame;
	struct hk_blame_verdict v;
	__u64 now_ms, avail;
	int refuse;

	/* a memory cgroup's limit binds: its members' ETA is theirs */
	if (!b || e->ev.limit_kind != HK_LIMIT_HOST || hk_blame__read_avail(b->meminfo, &avail))
		return 0;
	now_ms = (__u64)mono_ms();
	refuse = hk_blame__judge(b, e, now_ms, avail, &v);
	hk_blame__push(b, now_ms, avail, false);
	if (!refuse)
		return 0;
	r->outcome = HK_FREEZE_REFUSED;
	hk_blame__why(r->why, sizeof(r->why), e, &v);
	return hk_blame__told(b, e) ? 2 : 1;
}
