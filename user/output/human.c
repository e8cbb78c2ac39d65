// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * human.c - one transition as a line for a terminal:
 *
 *   12:00:01.250     4300 leak             OK → OOM risk  anon 1.21 GiB ...
 *
 * The time, the process, the label it left and the label it took, then
 * the evidence for the new label (or, back to OK, for the one it left).
 * `hotspot-k status` words its evidence here too (hk_out__evidence).
 */
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include "format.h"
#include "humanize.h"
#include "lib/cut.h"
#include "lib/escape.h"
#include "oom_memcg.h"
#include "shared/classify.h"
#include "shared/oom_kill.h"

/* Columns of the human line. */
#define COL_PID 7
#define COL_COMM 16
#define COL_LABEL 14

#define SEP " \xc2\xb7 "		/* " · " */
#define ARROW " \xe2\x86\x92 "		/* " → " */

#define SGR_RESET "\033[0m"

/*
 * "4300 (bash)", or just "4300" when the comm is empty. The comm
 * terminal-safe, or as it is for a caller that escapes the whole text.
 */
static void out_pid_comm(struct hk_out *o, __u32 pid, const char *comm,
			 unsigned int flags)
{
	size_t n = hk_comm__len(comm);

	hk_out__printf(o, "%u", pid);
	if (!n)
		return;
	hk_out__str(o, " (");
	if (flags & HK_EVIDENCE_RAW_COMMS)
		hk_out__mem(o, comm, n);
	else
		hk_out__term_text(o, comm, n);
	hk_out__mem(o, ")", 1);
}

static void ev_oom_risk(struct hk_out *o, const struct hk_event *e,
			unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;
	char eta[32];

	hk_out__str(o, "anon ");
	hk_out__bytes(o, ev->rss_anon_bytes);
	if (ev->swap_bytes) {
		hk_out__str(o, " + ");
		hk_out__bytes(o, ev->swap_bytes);
		hk_out__str(o, " swapped");
	}
	hk_out__mem(o, " ", 1);
	hk_out__bytes_rate(o, ev->rss_slope_bytes_per_s);
	if (!(flags & HK_EVIDENCE_SHORT)) {
		hk_out__printf(o, " over %llu s (rss ",
			   (unsigned long long)(ev->rss_trend_ms / 1000 +
						(ev->rss_trend_ms % 1000 >= 500)));
		hk_out__bytes(o, ev->rss_bytes);
		hk_out__mem(o, ")", 1);
	}
	hk_out__str(o, SEP "limit ");
	hk_out__bytes(o, ev->limit_bytes);
	hk_out__printf(o, " (%s)", hk_limit__name(ev->limit_kind, true));
	/* a hierarchy nested deeper than the walk reads: a limit may hide */
	if (ev->limit_partial)
		hk_out__printf(o, " of those read, %u cgroup levels nested too deep to read",
			       ev->limit_partial);
	if (!(flags & HK_EVIDENCE_SHORT)) {
		hk_out__str(o, SEP "headroom ");
		hk_out__bytes(o, ev->headroom_bytes);
	}
	if (ev->eta_s == (__u64)HK_ETA_NONE)
		return;
	if (hk_format__duration(eta, sizeof(eta), ev->eta_s) < 0)
		o->full = true;
	hk_out__str(o, SEP "ETA ");
	hk_out__str(o, eta);
}

static void ev_mem_thrashing(struct hk_out *o, const struct hk_event *e,
			     unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;

	hk_out__count(o, ev->minor_faults_per_s);
	hk_out__str(o, " minor faults/s, ");
	hk_out__count(o, ev->unexplained_faults_per_s);
	hk_out__str(o, " not explained by RSS growth" SEP);
	hk_out__count(o, ev->major_faults_per_s);
	hk_out__str(o, " major faults/s" SEP "stalled ");
	hk_out__pct(o, ev->mem_stall_pct_x100);
	if (ev->mem_stall_tid && ev->mem_stall_pct_x100)
		hk_out__printf(o, " (tid %u%s)", ev->mem_stall_tid,
			       ev->sampled & HK_SRC_STALL_SAMPLED ? ", sampled" : "");
	if (flags & HK_EVIDENCE_SHORT)
		return;
	hk_out__str(o, SEP "cpu ");
	hk_out__pct(o, ev->cpu_pct_x100);
}

static void ev_throttled(struct hk_out *o, const struct hk_event *e,
			 unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;

	/* per CPU the quota lets it use: the kernel's sum over CPUs would
	 * read 400 % for a group held back half the time on 8 CPUs */
	hk_out__str(o, "its cgroup's CPU quota throttled it ");
	hk_out__pct(o, ev->throttled_norm_pct_x100);
	hk_out__str(o, " of the window" SEP);
	hk_out__printf(o, "thread %u waited ", ev->wait_tid);
	hk_out__pct(o, ev->thread_wait_pct_x100);
	hk_out__str(o, " for a CPU");
	if (flags & HK_EVIDENCE_SHORT)
		return;
	hk_out__str(o, ", the process ran ");
	hk_out__pct(o, ev->cpu_pct_x100);
	if (ev->quota_cpus_x100) {
		hk_out__printf(o, " of a quota of %u", ev->quota_cpus_x100 / 100);
		if (ev->quota_cpus_x100 % 100)
			hk_out__printf(o, ".%02u", ev->quota_cpus_x100 % 100);
		hk_out__str(o, ev->quota_cpus_x100 == 100 ? " CPU" : " CPUs");
	}
}

/* "nice 19", "SCHED_IDLE, cpu.idle", "cpu.weight 1": what a waiting thread
 * asked for, from an hk_deprio() word. */
static void out_deprio(struct hk_out *o, __u32 why)
{
	const char *sep = "";

	if (why & HK_DEPRIO_NICE) {
		hk_out__printf(o, "nice %u", (why >> HK_DEPRIO_NICE_SHIFT) & 0x1f);
		sep = ", ";
	}
	if (why & HK_DEPRIO_BATCH) {
		hk_out__printf(o, "%sSCHED_BATCH", sep);
		sep = ", ";
	}
	if (why & HK_DEPRIO_IDLE) {
		hk_out__printf(o, "%sSCHED_IDLE", sep);
		sep = ", ";
	}
	if (why & HK_DEPRIO_GROUP_IDLE) {
		hk_out__printf(o, "%scpu.idle", sep);
		sep = ", ";
	}
	if (why & HK_DEPRIO_WEIGHT)
		hk_out__printf(o, "%scpu.weight %u", sep,
			       (why >> HK_DEPRIO_WEIGHT_SHIFT) & 0x7f);
}

static void ev_starved(struct hk_out *o, const struct hk_event *e,
		       unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;

	hk_out__printf(o, "thread %u waited ", ev->wait_tid);
	hk_out__pct(o, ev->thread_wait_pct_x100);
	hk_out__str(o, " of the window for a CPU");
	if (!(flags & HK_EVIDENCE_SHORT)) {
		hk_out__str(o, ", the process ran ");
		hk_out__pct(o, ev->cpu_pct_x100);
	}
	if (ev->aggressor_tgid) {
		hk_out__str(o, SEP "preempted by ");
		out_pid_comm(o, ev->aggressor_tgid, e->aggressor_comm, flags);
	}
	/* it waits by its owner's choice */
	if (hk_deprio(ev)) {
		hk_out__str(o, SEP "deprioritised: ");
		out_deprio(o, hk_deprio(ev));
	}
}

/* "thread 4250 at 50 % of cpu1 + 49 % waiting for a CPU" */
static void out_thread(struct hk_out *o, const struct hk_evidence *ev)
{
	hk_out__printf(o, "thread %u at ", ev->thread_tid);
	hk_out__pct(o, ev->thread_cpu_pct_x100);
	hk_out__printf(o, " of cpu%u", ev->thread_cpu);
	/* steal and IRQ time it would have run in */
	if (ev->cpu_lost_pct_x100 >= 100) {
		hk_out__str(o, " + ");
		hk_out__pct(o, ev->cpu_lost_pct_x100);
		hk_out__str(o, " lost to steal/IRQ");
	}
	if (ev->thread_queued_pct_x100 < 100)
		return;
	hk_out__str(o, " + ");
	hk_out__pct(o, ev->thread_queued_pct_x100);
	hk_out__str(o, " waiting for a CPU");
}

static void ev_noisy_neighbor(struct hk_out *o, const struct hk_event *e,
			      unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;

	if (!(flags & HK_EVIDENCE_SHORT)) {
		hk_out__pct(o, ev->cpu_pct_x100);
		hk_out__str(o, " CPU" SEP);
	}
	out_thread(o, ev);
	if (!ev->victim_tgid)
		return;
	hk_out__str(o, SEP "starves ");
	out_pid_comm(o, ev->victim_tgid, e->victim_comm, flags);
	if (!ev->victim_deprioritised)
		return;
	hk_out__str(o, ", which asked for less: ");
	out_deprio(o, ev->victim_deprioritised);
}

/*
 * "held at memory.high 256 MiB (usage 255 MiB) · 1.42k high events/s ·
 * 70 faults/s · anon +260 KiB/s": how hard the kernel holds it, and what
 * the process still gets through.
 */
static void ev_mem_throttled(struct hk_out *o, const struct hk_event *e,
			     unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;

	hk_out__str(o, "held at memory.high ");
	hk_out__bytes(o, ev->mem_high_bytes);
	hk_out__str(o, " (usage ");
	hk_out__bytes(o, ev->mem_high_usage_bytes);
	if (!(flags & HK_EVIDENCE_SHORT)) {
		hk_out__str(o, ", page cache ");
		hk_out__bytes(o, ev->mem_high_file_bytes);
	}
	hk_out__str(o, ")" SEP);
	hk_out__count(o, ev->mem_high_events_per_s);
	hk_out__str(o, " high events/s");
	if (ev->mem_stalled)
		hk_out__str(o, SEP "asleep in a memory stall");
	if (flags & HK_EVIDENCE_SHORT)
		return;
	hk_out__mem(o, SEP, strlen(SEP));
	hk_out__count(o, ev->minor_faults_per_s + ev->major_faults_per_s);
	hk_out__str(o, " faults/s" SEP "anon ");
	hk_out__bytes_rate(o, ev->rss_growth_bytes_per_s);
}

/* "blocked on I/O 83 % · tid 4242 83 % · cpu 12 % · moved 41 MiB/s · 1 stuck" */
static void ev_io_blocked(struct hk_out *o, const struct hk_event *e,
			  unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;

	hk_out__str(o, "blocked on I/O ");
	hk_out__pct(o, ev->io_pct_x100);
	if (ev->io_tid) {
		hk_out__printf(o, SEP "tid %u ", ev->io_tid);
		hk_out__pct(o, ev->thread_io_pct_x100);
		/* no delay accounting: the share of walks that found it blocked */
		if (ev->sampled & HK_SRC_IO_SAMPLED)
			hk_out__str(o, " sampled");
	}
	if (flags & HK_EVIDENCE_SHORT)
		return;
	hk_out__str(o, SEP "cpu ");
	hk_out__pct(o, ev->cpu_pct_x100);
	/* what says the wait is I/O (hk_io_blocked) */
	if (ev->io_bytes_known) {
		hk_out__str(o, SEP "moved ");
		hk_out__bytes_rate(o, (__s64)ev->io_bytes_per_s);
	}
	if (ev->io_stuck_threads)
		hk_out__printf(o, SEP "%u stuck", ev->io_stuck_threads);
}

static void ev_cpu_bound(struct hk_out *o, const struct hk_event *e,
			 unsigned int flags)
{
	const struct hk_evidence *ev = &e->ev;

	/* a multi-threaded process: the total says more than one thread */
	if (!(flags & HK_EVIDENCE_SHORT) && ev->cpu_pct_x100 > 10000) {
		hk_out__str(o, "cpu ");
		hk_out__pct(o, ev->cpu_pct_x100);
		hk_out__str(o, SEP);
	}
	out_thread(o, ev);
	hk_out__mem(o, SEP, strlen(SEP));
	hk_out__count(o, ev->minor_faults_per_s + ev->major_faults_per_s);
	hk_out__str(o, " faults/s");
	if (flags & HK_EVIDENCE_SHORT)
		return;
	hk_out__str(o, SEP "run delay ");
	hk_out__pct(o, ev->wait_pct_x100);
}

/* The signals CPU-bound is decided on, for a process that no longer is. */
static void ev_summary(struct hk_out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	hk_out__str(o, "cpu ");
	hk_out__pct(o, ev->cpu_pct_x100);
	hk_out__str(o, SEP "run delay ");
	hk_out__pct(o, ev->wait_pct_x100);
	hk_out__mem(o, SEP, strlen(SEP));
	hk_out__count(o, ev->minor_faults_per_s + ev->major_faults_per_s);
	hk_out__str(o, " faults/s");
}

/* The signals of a label, for a process that holds it or has just left
 * it (then below their thresholds); CPU-bound's are the summary. */
static void ev_label(struct hk_out *o, const struct hk_event *e, __u32 label,
		     unsigned int flags)
{
	switch (label) {
	case HK_OOM_RISK:
		ev_oom_risk(o, e, flags);
		break;
	case HK_MEM_THRASHING:
		ev_mem_thrashing(o, e, flags);
		break;
	case HK_THROTTLED:
		ev_throttled(o, e, flags);
		break;
	case HK_STARVED:
		ev_starved(o, e, flags);
		break;
	case HK_NOISY_NEIGHBOR:
		ev_noisy_neighbor(o, e, flags);
		break;
	case HK_IO_BLOCKED:
		ev_io_blocked(o, e, flags);
		break;
	case HK_MEM_THROTTLED:
		ev_mem_throttled(o, e, flags);
		break;
	default:
		ev_summary(o, e);
		break;
	}
}

void hk_out__evidence(struct hk_out *o, const struct hk_event *e, __u32 label,
		      unsigned int flags)
{
	if (label == HK_CPU_BOUND)
		ev_cpu_bound(o, e, flags);
	else
		ev_label(o, e, label, flags);
}

/* A path as terminal text, at most HK_FORMAT_PATH_MAX bytes of it as
 * written, cut with a hash (cut.h), as JSON cuts it. */
static void path_text(struct hk_out *o, const char *path)
{
	char esc[4 * (HK_FORMAT_PATH_MAX + 4) + 1];
	size_t n = strlen(path);
	struct hk_out t;
	int len;

	hk_out__init(&t, esc, sizeof(esc));
	hk_out__term_text(&t, path, n < HK_FORMAT_PATH_MAX + 4 ? n : HK_FORMAT_PATH_MAX + 4);
	len = hk_out__finish(&t);
	hk_cut__write(o, esc, len < 0 ? 0 : (size_t)len, HK_FORMAT_PATH_MAX, path, n);
}

/*
 * "memcg /a/b (limit 256 MiB) · flagged OOM risk 42 s before", "host OOM ·
 * not flagged (not tracked)": where the kill came from, and whether the
 * tool had said so.
 */
static void ev_oom_killed(struct hk_out *o, const struct hk_event *e, const char *memcg)
{
	const struct hk_oom_kill *k = &e->oom;
	char name[HK_OOM_NAME_LEN + 32];

	if (!k->memcg_id) {
		hk_out__str(o, "host OOM");
	} else {
		if (!memcg) {
			hk_oom_memcg__name(name, sizeof(name), k, NULL);
			memcg = name;
		}
		hk_out__str(o, "memcg ");
		path_text(o, memcg);
		hk_out__str(o, " (limit ");
		hk_out__bytes(o, k->limit_bytes);
		hk_out__mem(o, ")", 1);
	}
	if (k->flagged) {
		hk_out__printf(o, SEP "flagged OOM risk %llu s before",
			       (unsigned long long)hk_oom_flagged_for_s(k));
		return;
	}
	hk_out__str(o, SEP "not flagged");
	if (!k->tracked)
		hk_out__str(o, " (not tracked)");
	else if (k->oom_risk_since_ns)
		hk_out__str(o, " in time (left OOM risk before)");
}

/*
 * Evidence for the label moved to. Back to OK, the same signals as the label
 * left, now below their thresholds, say why it left.
 */
/* " · reclaim caused by pid 4242 (leak) 86 %, pid 300 (x) 14 % of the
 * limit's growth": the growers under the stalled process's limit. */
void hk_out__growers(struct hk_out *o, const struct hk_mem_blame *b)
{
	__u32 i;

	if (!b || !b->n)
		return;
	hk_out__str(o, SEP "reclaim caused by ");
	for (i = 0; i < b->n; i++) {
		hk_out__str(o, i ? ", pid " : "pid ");
		out_pid_comm(o, b->g[i].tgid, b->g[i].comm, 0);
		hk_out__str(o, " ");
		hk_out__pct(o, b->g[i].share_pct_x100);
	}
	hk_out__str(o, " of the limit's growth");
}

static void out_evidence(struct hk_out *o, const struct hk_event *e,
			 const struct hk_format_ctx *ctx)
{
	switch (e->to) {
	case HK_OOM_KILLED:
		ev_oom_killed(o, e, ctx->oom_memcg);
		break;
	case HK_OK:
		ev_label(o, e, e->from, 0);
		break;
	case HK_EXITED:
		hk_out__printf(o, "after %u window%s", e->windows,
			   e->windows == 1 ? "" : "s");
		break;
	default:
		hk_out__evidence(o, e, e->to, 0);
		hk_out__growers(o, ctx->blame);
		break;
	}
}

int hk_format__human(char *buf, size_t len, const struct hk_event *e,
		    const char *cgroup, const struct hk_format_ctx *ctx)
{
	const char *to = hk_label__name(e->to);
	unsigned int ms;
	struct hk_out o;
	size_t cols;
	struct tm tm;
	long off;

	(void)cgroup;	/* the path is for --json: too long for the line */
	hk_out__init(&o, buf, len);
	hk_event__wall_time(e, ctx, &tm, &ms, &off);
	hk_out__printf(&o, "%02d:%02d:%02d.%03u  %*u ", tm.tm_hour, tm.tm_min,
		   tm.tm_sec, ms, COL_PID, e->tgid);
	cols = hk_out__term_text(&o, e->comm, hk_comm__len(e->comm));
	if (cols < COL_COMM)
		hk_out__chars(&o, ' ', COL_COMM - cols);
	hk_out__printf(&o, "  %*s" ARROW, COL_LABEL, hk_label__name(e->from));
	if (ctx->color && e->to < HK_NR_LABELS) {
		hk_out__str(&o, hk_label__sgr(e->to));
		hk_out__str(&o, to);
		hk_out__str(&o, SGR_RESET);
	} else {
		hk_out__str(&o, to);
	}
	if (strlen(to) < COL_LABEL)
		hk_out__chars(&o, ' ', COL_LABEL - strlen(to));
	hk_out__str(&o, "  ");
	out_evidence(&o, e, ctx);
	hk_out__mem(&o, "\n", 1);
	return hk_out__finish(&o);
}

int hk_format__use_color(int is_tty, const char *no_color, const char *term)
{
	if (!is_tty || (no_color && *no_color))
		return 0;
	return !term || strcmp(term, "dumb");
}
