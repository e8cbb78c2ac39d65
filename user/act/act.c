// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * act.c - a transition's consequences beyond its line.
 *
 * A process that enters OOM risk close to its limit has its cgroup frozen
 * (--freeze-on-oom, freeze.c), and thawed when --freeze-max is up (the
 * event loop's tick); one that enters an alarm label is profiled
 * (--profile DUR: where its time goes, or, entering OOM risk, where its
 * memory grows), one that exits has its profile written with what was
 * collected. Each step
 * says so on a line of its own, human or JSON as the transitions are:
 *
 *   hotspot-k: profiling 4242 (yes, cpu_bound) for 10 s: ./hotspot-k.4242...{folded,svg}
 *   {"event":"profile","state":"written","pid":4242,...,"svg":"...","cut":null}
 *
 * A profile is taken of the process the event is about (its start time
 * checked through a pidfd), and its "written" line comes once a child has
 * named its frames and written the files, the event loop running on
 * meanwhile (profiler.h); "cut" names the caps on the process's own input
 * (its perf map, its symbol tables, its maps) that left part of it out.
 */
#include <string.h>
#include "act.h"
#include "lib/escape.h"
#include "lib/json_out.h"
#include "lib/log.h"
#include "lib/outbuf.h"
#include "output/format.h"
#include "shared/units.h"

#define ACT_LINE_MAX (3 * HK_PROFILE_PATH_MAX + 1024)

static void act_write(struct hk_act *a, struct hk_out *o, int priority)
{
	if (hk_out__finish(o) < 0)
		return;
	hk_printer__write(a->pr, HK_JMSG_PROFILE, priority, o->buf, o->pos);
}

/* ,"folded":"PREFIX.folded","svg":"PREFIX.svg" */
static void json_paths(struct hk_out *o, const char *prefix)
{
	static const char *const ext[] = { "folded", "svg" };
	char path[HK_PROFILE_PATH_MAX + 16];
	size_t i;
	int n;

	for (i = 0; i < 2; i++) {
		n = snprintf(path, sizeof(path), "%s.%s", prefix, ext[i]);
		hk_out__printf(o, ",\"%s\":", ext[i]);
		hk_out__json_str(o, path, (size_t)n < sizeof(path) ? (size_t)n : sizeof(path) - 1);
	}
}

static void json_head(struct hk_out *o, const char *state, __u32 pid, const char *comm)
{
	hk_out__str(o, "{\"event\":\"profile\",\"state\":\"");
	hk_out__str(o, state);
	hk_out__printf(o, "\",\"pid\":%u,\"comm\":", pid);
	hk_out__json_str(o, comm, hk_comm__len(comm));
}

/* "memory" (growth, in bytes) or "time" (on- and off-CPU) */
static const char *kind_name(__u32 kind)
{
	return kind == HK_PROF_MEMORY ? "memory" : "time";
}

void hk_act__profile_started(struct hk_act *a, __u32 pid, const char *comm,
			     const char *label, __u32 kind, const char *prefix)
{
	char buf[ACT_LINE_MAX];
	struct hk_out o;

	hk_out__init(&o, buf, sizeof(buf));
	if (a->pr->json) {
		json_head(&o, "started", pid, comm);
		hk_out__printf(&o, ",\"label\":\"%s\",\"kind\":\"%s\"", label,
			       kind_name(kind));
		hk_json__milli(&o, "duration_s", a->profile_ns / HK_NSEC_PER_MSEC);
		json_paths(&o, prefix);
		hk_out__str(&o, "}\n");
	} else {
		hk_out__printf(&o, "hotspot-k: profiling %u (", pid);
		hk_out__term_text(&o, comm, hk_comm__len(comm));
		hk_out__printf(&o, ", %s)%s for %llu s: ", label,
			       kind == HK_PROF_MEMORY ? " memory growth" : "",
			       (unsigned long long)(a->profile_ns / HK_NSEC_PER_SEC));
		hk_out__term_text(&o, prefix, strlen(prefix));
		hk_out__str(&o, ".{folded,svg}\n");
	}
	act_write(a, &o, 6);
	/* the post-mortem of a kill names the growth profile taken */
	if (kind == HK_PROF_MEMORY)
		hk_postmortem__profile(a->pm, pid, prefix);
}

/* " (cut: perf map cut at 64 MiB of 64 GiB; ...)" and the line's end */
static void cut_clause(struct hk_out *o, const struct hk_profile_result *r)
{
	if (r->cut[0]) {
		hk_out__str(o, " (cut: ");
		hk_out__term_text(o, r->cut, strlen(r->cut));
		hk_out__str(o, ")");
	}
	hk_out__str(o, "\n");
}

void hk_act__profile_done(void *act, const struct hk_profile_result *r)
{
	struct hk_act *a = act;
	char buf[ACT_LINE_MAX];
	struct hk_out o;

	if (r->written)
		a->profiles_written++;
	else
		a->profiles_failed++;
	hk_out__init(&o, buf, sizeof(buf));
	if (a->pr->json) {
		json_head(&o, r->written ? "written" : "failed", r->pid, r->comm);
		hk_out__printf(&o, ",\"label\":\"%s\",\"kind\":\"%s\"", r->label,
			       kind_name(r->kind));
		hk_json__milli(&o, "duration_s", r->duration_ns / HK_NSEC_PER_MSEC);
		hk_json__u64(&o, "on_cpu_samples", r->on_cpu_samples);
		hk_json__u64(&o, "grown_bytes", r->grown_bytes);
		hk_json__u64(&o, "memory_events", r->mem_events);
		hk_json__milli(&o, "off_cpu_s", r->off_cpu_ns / HK_NSEC_PER_MSEC);
		hk_json__u64(&o, "stacks", r->stacks);
		hk_json__u64(&o, "lost", r->lost);
		hk_json__bool(&o, "exited", r->exited);
		json_paths(&o, r->prefix);
		hk_out__str(&o, ",\"error\":");
		if (r->written)
			hk_out__str(&o, "null");
		else
			hk_out__json_str(&o, r->err, strlen(r->err));
		hk_out__str(&o, ",\"cut\":");
		if (r->cut[0])
			hk_out__json_str(&o, r->cut, strlen(r->cut));
		else
			hk_out__str(&o, "null");
		hk_out__str(&o, "}\n");
	} else if (r->written && r->kind == HK_PROF_MEMORY) {
		hk_out__printf(&o, "hotspot-k: memory profile of %u (", r->pid);
		hk_out__term_text(&o, r->comm, hk_comm__len(r->comm));
		hk_out__printf(&o, ") written, %.1f MiB grown, %llu stacks%s: ",
			       (double)r->grown_bytes / (1024 * 1024),
			       (unsigned long long)r->stacks, r->exited ? ", it exited" : "");
		hk_out__term_text(&o, r->prefix, strlen(r->prefix));
		hk_out__str(&o, ".svg");
		cut_clause(&o, r);
	} else if (r->written) {
		hk_out__printf(&o, "hotspot-k: profile of %u (", r->pid);
		hk_out__term_text(&o, r->comm, hk_comm__len(r->comm));
		hk_out__printf(&o, ") written, %llu samples on-CPU, %.2f s off-CPU, %llu stacks%s: ",
			       (unsigned long long)r->on_cpu_samples,
			       (double)r->off_cpu_ns / HK_NSEC_PER_SEC,
			       (unsigned long long)r->stacks, r->exited ? ", it exited" : "");
		hk_out__term_text(&o, r->prefix, strlen(r->prefix));
		hk_out__str(&o, ".svg");
		cut_clause(&o, r);
	} else {
		hk_out__printf(&o, "hotspot-k: profile of %u not written: ", r->pid);
		hk_out__term_text(&o, r->err, strlen(r->err));
		cut_clause(&o, r);
	}
	act_write(a, &o, r->written ? 6 : 3);
}

/* A line about a freeze held (freeze_do.c), to the printer. */
static void freeze_say(void *pr, int prio, const char *line, size_t n)
{
	hk_printer__write(pr, HK_JMSG_THAW, prio, line, n);
}

void hk_act__freeze_tick(struct hk_act *a)
{
	if (!a->freeze)
		return;
	hk_freeze__sample(a->freeze);	/* the host's headroom (freeze_blame.c) */
	hk_freeze__tick(a->freeze, a->pr->json, &a->pr->fmt, freeze_say, a->pr);
}

static int is_alarm(__u32 label)
{
	return label != HK_OK && label < HK_EXITED;
}

void hk_act__transition(void *act, const struct hk_event *e)
{
	struct hk_act *a = act;
	char prefix[HK_PROFILE_PATH_MAX], err[512];
	int n, prio;

	/* what the post-mortem of an OOM kill needs: before the profile
	 * of an OOM risk starts, so that its path is the history's */
	hk_postmortem__event(a->pm, e, a->pr->fmt.oom_memcg);
	/* first: a freeze stops the damage, a profile only explains it */
	if (a->freeze) {
		n = hk_freeze__event(a->freeze, e, a->pr->json, &a->pr->fmt, &prio);
		if (n > 0)
			hk_printer__write(a->pr, HK_JMSG_FREEZE, prio, a->freeze->line, (size_t)n);
	}
	/* an ETA crossing is no new label: nothing to profile */
	if (!a->prof || e->type != HK_EV_TRANSITION)
		return;
	/* gone, on its own or killed by the kernel's OOM killer */
	if (e->to == HK_EXITED || e->to == HK_OOM_KILLED) {
		hk_profiler__stop(a->prof, e->tgid);
		return;
	}
	if (!a->profile_ns || !is_alarm(e->to) || hk_profiler__active(a->prof, e->tgid))
		return;
	/* OOM risk is explained by where the memory grows, not by time */
	if (hk_profiler__start(a->prof, e->tgid, e->start_boottime_ns, hk_label__id(e->to),
			       e->to == HK_OOM_RISK ? HK_PROF_MEMORY : HK_PROF_ON_CPU,
			       a->profile_ns, a->profile_dir, prefix, sizeof(prefix), err,
			       sizeof(err))) {
		a->profiles_skipped++;
		hk_log__print(HK_LOG_WARNING, "not profiling %u: %s\n", e->tgid, err);
		return;
	}
	hk_act__profile_started(a, e->tgid, e->comm, hk_label__id(e->to),
				e->to == HK_OOM_RISK ? HK_PROF_MEMORY : HK_PROF_ON_CPU, prefix);
}
