// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prometheus.c - the processes flagged now and the tool's counters as a
 * node_exporter textfile (Prometheus text format 0.0.4).
 *
 * The set follows the transitions: a process joins it when it enters a
 * label, moves when it changes label, and leaves for ok or exited. It is
 * kept sorted by PID (a binary search per transition, a stable file), and
 * each member's label set is escaped once, when it joins: the file is
 * written every window, transitions are rare.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "escape.h"
#include "format.h"
#include "outbuf.h"
#include "prometheus.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct prom_proc {
	__u32 tgid;
	__u32 label;
	char *labels;			/* pid="..",comm="..",cgroup="..",label=".." */
	struct hk_evidence ev;		/* from the transition that flagged it */
};

struct hk_prom {
	char *path;
	char *tmp_path;
	struct prom_proc *procs;	/* sorted by tgid */
	size_t nr, cap;
	/* flagged, per label, but not in procs: it was full (or no memory) */
	__u64 unlisted[HK_NR_LABELS];
	bool changed;			/* the set, since the last write */
	struct hk_stats written;	/* the counters the last write gave */
	char *scratch;			/* a cgroup path as terminal text */
};

/* The most a path becomes as terminal text: \xHH for every byte. */
#define SCRATCH_LEN	(4 * HK_FORMAT_CGROUP_MAX + 1)

static bool is_flagged(__u32 label)
{
	return label > HK_OK && label < HK_EXITED;
}

/* ---- the set ------------------------------------------------------------ */

/* Where tgid is, or where it would go. */
static size_t proc_find(const struct hk_prom *p, __u32 tgid)
{
	size_t lo = 0, hi = p->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (p->procs[mid].tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A label value. It starts as the human line's terminal text, so that one
 * UTF-8 decoder and one idea of hostile characters serve every output;
 * what that shows as \xHH (a byte outside UTF-8, a control character, a
 * bidi or zero-width character: each of its bytes) becomes U+FFFD, as the
 * format has no \x, except a newline, which the format escapes as \n.
 * Then " and \ are escaped. Each input byte makes at most 3.
 */
static void prom_value(struct hk_out *o, char *scratch, const char *s, size_t n)
{
	struct hk_out t;
	int len, i;

	hk_out__init(&t, scratch, SCRATCH_LEN);
	hk_out__term_text(&t, s, n);
	len = hk_out__finish(&t);
	for (i = 0; i < len; i++) {
		if (scratch[i] == '"') {
			hk_out__str(o, "\\\"");
		} else if (scratch[i] != '\\') {
			hk_out__mem(o, scratch + i, 1);
		} else if (scratch[i + 1] == '\\') {
			hk_out__str(o, "\\\\");
			i++;
		} else {
			/* "\xHH": lower-case hex */
			hk_out__str(o, memcmp(scratch + i, "\\x0a", 4) ? "\xef\xbf\xbd" : "\\n");
			i += 3;
		}
	}
}

/* The member's escaped label set, or NULL (no memory). */
static char *proc_labels(struct hk_prom *p, const struct hk_event *e,
			 const char *cgroup)
{
	size_t comm_n = hk_comm__len(e->comm), cg_n = cgroup ? strlen(cgroup) : 0;
	size_t len;
	struct hk_out o;
	char *buf, *fit;
	int n;

	if (cg_n > HK_FORMAT_CGROUP_MAX) {
		cg_n = HK_FORMAT_CGROUP_MAX;
		/* not inside a character: back to its first byte */
		while (cg_n && ((unsigned char)cgroup[cg_n] & 0xc0) == 0x80)
			cg_n--;
	}
	/* the fixed text, a PID, a label id, and 3 bytes per input byte */
	len = 128 + 3 * (comm_n + cg_n);
	buf = malloc(len);
	if (!buf)
		return NULL;
	hk_out__init(&o, buf, len);
	hk_out__printf(&o, "pid=\"%u\",comm=\"", e->tgid);
	prom_value(&o, p->scratch, e->comm, comm_n);
	hk_out__str(&o, "\",cgroup=\"");
	prom_value(&o, p->scratch, cgroup ? cgroup : "", cg_n);
	hk_out__printf(&o, "\",label=\"%s\"", hk_label__id(e->to));
	n = hk_out__finish(&o);
	if (n < 0) {
		/* cannot happen: len holds 3 bytes per input byte */
		free(buf);
		return NULL;
	}
	fit = realloc(buf, (size_t)n + 1);
	return fit ? fit : buf;
}

static void proc_remove(struct hk_prom *p, size_t i)
{
	free(p->procs[i].labels);
	memmove(p->procs + i, p->procs + i + 1, (p->nr - i - 1) * sizeof(*p->procs));
	p->nr--;
}

/* Put e's process at i; false when it does not fit. */
static bool proc_insert(struct hk_prom *p, size_t i, const struct hk_event *e,
			const char *cgroup)
{
	struct prom_proc *procs;
	char *labels;
	size_t cap;

	if (p->nr == HK_PROM_PROCS_MAX)
		return false;
	if (p->nr == p->cap) {
		cap = p->cap ? 2 * p->cap : 16;
		if (cap > HK_PROM_PROCS_MAX)
			cap = HK_PROM_PROCS_MAX;
		procs = realloc(p->procs, cap * sizeof(*procs));
		if (!procs)
			return false;
		p->procs = procs;
		p->cap = cap;
	}
	labels = proc_labels(p, e, cgroup);
	if (!labels)
		return false;
	memmove(p->procs + i + 1, p->procs + i, (p->nr - i) * sizeof(*p->procs));
	p->procs[i] = (struct prom_proc){
		.tgid = e->tgid,
		.label = e->to,
		.labels = labels,
		.ev = e->ev,
	};
	p->nr++;
	return true;
}

void hk_prom__event(struct hk_prom *p, const struct hk_event *e, const char *cgroup)
{
	size_t i;

	if (e->type != HK_EV_TRANSITION)
		return;
	i = proc_find(p, e->tgid);
	if (i < p->nr && p->procs[i].tgid == e->tgid)
		proc_remove(p, i);
	else if (is_flagged(e->from) && p->unlisted[e->from])
		/* not in the set while flagged: it is one of those that did
		 * not fit (the tool starts with no process flagged) */
		p->unlisted[e->from]--;
	if (is_flagged(e->to) && !proc_insert(p, i, e, cgroup))
		p->unlisted[e->to]++;
	p->changed = true;
}

/* ---- the text ------------------------------------------------------------ */

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

enum value_kind {
	V_ONE,		/* 1: the process is flagged */
	V_RATIO,	/* a __u32 in hundredths of a percent */
	V_U64,
	V_S64,
	V_ETA,		/* seconds, absent when HK_ETA_NONE */
};

/* A gauge every member has, from the evidence that flagged it. */
struct proc_metric {
	const char *name;
	enum value_kind kind;
	size_t off;			/* in struct hk_evidence */
	const char *help;
};

#define EV(field) offsetof(struct hk_evidence, field)

static const struct proc_metric proc_metrics[] = {
	{ "hotspot_k_process_flagged", V_ONE, 0,
	  "1 for each process flagged now, labelled with its diagnosis. The "
	  "hotspot_k_process_* gauges below hold the evidence of the window "
	  "that flagged it, with the same labels." },
	{ "hotspot_k_process_cpu_ratio", V_RATIO, EV(cpu_pct_x100),
	  "Time its threads ran on a CPU, as a share of the window (1: one CPU busy)." },
	{ "hotspot_k_process_run_delay_ratio", V_RATIO, EV(wait_pct_x100),
	  "Time its threads waited in a run queue, as a share of the window "
	  "(at most 1 per thread)." },
	{ "hotspot_k_process_thread_run_delay_ratio", V_RATIO, EV(thread_wait_pct_x100),
	  "Run-queue wait of its thread that waited most, as a share of the window." },
	{ "hotspot_k_process_throttled_ratio", V_RATIO, EV(throttled_pct_x100),
	  "Time its cgroups' CPU quota kept them throttled, as a share of the "
	  "window, summed over CPUs." },
	{ "hotspot_k_process_io_blocked_ratio", V_RATIO, EV(io_pct_x100),
	  "Time its threads slept blocked on I/O, as a share of the window "
	  "(at most 1 per thread)." },
	{ "hotspot_k_process_major_faults_per_second", V_U64, EV(major_faults_per_s),
	  "Major page faults per second over the window." },
	{ "hotspot_k_process_minor_faults_per_second", V_U64, EV(minor_faults_per_s),
	  "Minor page faults per second over the window." },
	{ "hotspot_k_process_rss_bytes", V_U64, EV(rss_bytes),
	  "Resident memory: anonymous, file-backed and shmem." },
	{ "hotspot_k_process_rss_anon_bytes", V_U64, EV(rss_anon_bytes),
	  "Anonymous and shmem resident memory: what the kernel cannot drop." },
	{ "hotspot_k_process_rss_slope_bytes_per_second", V_S64, EV(rss_slope_bytes_per_s),
	  "Growth of the anonymous and shmem RSS, least squares over its trend." },
	{ "hotspot_k_process_memory_limit_bytes", V_U64, EV(limit_bytes),
	  "The limit its memory heads for: the tightest memory cgroup, or RAM." },
	{ "hotspot_k_process_oom_eta_seconds", V_ETA, EV(eta_s),
	  "Time until the RSS reaches that limit at its slope; only while it "
	  "heads there." },
};

static void proc_value(FILE *f, const struct proc_metric *m, const struct prom_proc *pp)
{
	const char *ev = (const char *)&pp->ev + m->off;
	__u32 u32;
	__u64 u64;
	__s64 s64;

	switch (m->kind) {
	case V_ONE:
		fprintf(f, "%s{%s} 1\n", m->name, pp->labels);
		break;
	case V_RATIO:
		memcpy(&u32, ev, sizeof(u32));
		fprintf(f, "%s{%s} %u.%04u\n", m->name, pp->labels, u32 / 10000, u32 % 10000);
		break;
	case V_U64:
	case V_ETA:
		memcpy(&u64, ev, sizeof(u64));
		if (m->kind == V_ETA && u64 == (__u64)HK_ETA_NONE)
			break;
		fprintf(f, "%s{%s} %llu\n", m->name, pp->labels, (unsigned long long)u64);
		break;
	case V_S64:
		memcpy(&s64, ev, sizeof(s64));
		fprintf(f, "%s{%s} %lld\n", m->name, pp->labels, (long long)s64);
		break;
	}
}

/* An hk_stats field: a counter ("_total") or a maximum (a gauge). */
struct stat_metric {
	const char *name;
	const char *type;
	size_t off;			/* in struct hk_stats */
	bool ns;			/* nanoseconds, written as seconds */
	const char *help;
};

#define ST(field) offsetof(struct hk_stats, field)

static const struct stat_metric stat_metrics[] = {
	{ "hotspot_k_windows_total", "counter", ST(windows), false,
	  "Walks completed: one a window." },
	{ "hotspot_k_threads_walked_total", "counter", ST(threads_walked), false,
	  "Threads the walks went over." },
	{ "hotspot_k_threads_visited_total", "counter", ST(threads_visited), false,
	  "Threads whose task storage the walks read." },
	{ "hotspot_k_processes_walked_total", "counter", ST(procs_walked), false,
	  "Processes the walks went over." },
	{ "hotspot_k_process_windows_quiet_total", "counter", ST(procs_quiet), false,
	  "Process-windows skipped as quiet: none of its threads ran." },
	{ "hotspot_k_process_windows_untracked_total", "counter", ST(procs_untracked), false,
	  "Process-windows not tracked: hk_procs was full (see --max-procs)." },
	{ "hotspot_k_processes_parked_total", "counter", ST(procs_parked), false,
	  "Processes the iter driver set aside until their next thread." },
	{ "hotspot_k_samples_skipped_total", "counter", ST(samples_skipped), false,
	  "Process-windows without a sample: the walk missed its last thread, "
	  "or it had no mm." },
	{ "hotspot_k_entries_created_total", "counter", ST(entries_created), false,
	  "Entries created in hk_procs." },
	{ "hotspot_k_walk_seconds_total", "counter", ST(walk_ns_total), true,
	  "Time from the first stretch of each walk to its last, yields included." },
	{ "hotspot_k_walk_cpu_seconds_total", "counter", ST(walk_cpu_ns_total), true,
	  "Time the walks held a CPU, without the iter driver's yields." },
	{ "hotspot_k_walk_max_seconds", "gauge", ST(walk_ns_max), true,
	  "Longest single walk." },
	{ "hotspot_k_stretch_max_seconds", "gauge", ST(stretch_ns_max), true,
	  "Longest time a walk held a CPU with no preemption point." },
	{ "hotspot_k_stretches_total", "counter", ST(stretches), false,
	  "Stretches the walks held a CPU for." },
	{ "hotspot_k_long_stretches_total", "counter", ST(stretches_over_2ms), false,
	  "Stretches longer than 2 ms." },
	{ "hotspot_k_chunks_total", "counter", ST(chunks), false,
	  "read() calls of the iter driver." },
	{ "hotspot_k_switches_recorded_total", "counter", ST(switches_recorded), false,
	  "Involuntary context switches the sched_switch hook recorded." },
	{ "hotspot_k_events_emitted_total", "counter", ST(events_emitted), false,
	  "Transitions sent over the ring buffer." },
	{ "hotspot_k_events_dropped_total", "counter", ST(events_dropped), false,
	  "Transitions the full ring buffer refused, retried the next window." },
	{ "hotspot_k_exits_lost_total", "counter", ST(exits_lost), false,
	  "Process exits hk_exits had no room for, found by a sweep instead." },
	{ "hotspot_k_sweeps_total", "counter", ST(sweeps), false,
	  "Full walks that dropped processes whose exit was lost." },
	{ "hotspot_k_defer_overflows_total", "counter", ST(defer_overflows), false,
	  "Processes the aggressor pass had no room for." },
	{ "hotspot_k_stale_run_delays_total", "counter", ST(stale_waits), false,
	  "Run delays the kernel credited from a stale queue time, dropped." },
	{ "hotspot_k_timer_rearm_failures_total", "counter", ST(timer_rearm_failures), false,
	  "Times the walk's timer failed to re-arm." },
	{ "hotspot_k_wq_start_failures_total", "counter", ST(wq_start_failures), false,
	  "Times the timer failed to start the walk's work item (wq driver)." },
};

/*
 * Every hk_stats field is in stat_metrics[] or one of these three: driver
 * (hotspot_k_driver), last_walk_ns and last_walk_end_ns (monotonic clock
 * stamps, meaningless to Prometheus). A new field breaks the build here.
 */
HK_STATIC_ASSERT(ARRAY_SIZE(stat_metrics) + 3 == sizeof(struct hk_stats) / sizeof(__u64),
		 "an hk_stats field is neither exported nor skipped");

static void stat_value(FILE *f, const struct stat_metric *m, const struct hk_stats *st)
{
	__u64 v;

	memcpy(&v, (const char *)st + m->off, sizeof(v));
	if (m->ns)
		fprintf(f, "%s %llu.%09llu\n", m->name, (unsigned long long)(v / HK_NSEC_PER_SEC),
			(unsigned long long)(v % HK_NSEC_PER_SEC));
	else
		fprintf(f, "%s %llu\n", m->name, (unsigned long long)v);
}

int hk_prom__format(const struct hk_prom *p, const struct hk_stats *st,
		    const char *driver, FILE *out)
{
	static const struct hk_stats zero;
	__u64 count[HK_NR_LABELS], unlisted = 0;
	size_t i, j;
	__u32 l;

	if (!st)
		st = &zero;
	/* from here: a write that fails before the flush (the text is longer
	 * than the stream's buffer) leaves its errno */
	errno = 0;
	memcpy(count, p->unlisted, sizeof(count));
	for (i = 0; i < p->nr; i++)
		count[p->procs[i].label]++;

	family(out, "hotspot_k_processes", "gauge",
	       "Processes that hold each label now, every label a process can be flagged with.");
	for (l = HK_OOM_RISK; l < HK_EXITED; l++) {
		fprintf(out, "hotspot_k_processes{label=\"%s\"} %llu\n", hk_label__id(l),
			(unsigned long long)count[l]);
		unlisted += p->unlisted[l];
	}
	fprintf(out, "# HELP hotspot_k_processes_unlisted Flagged processes without "
		"hotspot_k_process_* series: more than %d were flagged at once.\n"
		"# TYPE hotspot_k_processes_unlisted gauge\n", HK_PROM_PROCS_MAX);
	fprintf(out, "hotspot_k_processes_unlisted %llu\n", (unsigned long long)unlisted);

	for (j = 0; j < ARRAY_SIZE(proc_metrics); j++) {
		family(out, proc_metrics[j].name, "gauge", proc_metrics[j].help);
		for (i = 0; i < p->nr; i++)
			proc_value(out, &proc_metrics[j], &p->procs[i]);
	}
	for (j = 0; j < ARRAY_SIZE(stat_metrics); j++) {
		family(out, stat_metrics[j].name, stat_metrics[j].type, stat_metrics[j].help);
		stat_value(out, &stat_metrics[j], st);
	}
	family(out, "hotspot_k_driver", "gauge",
	       "What walks the threads each window: wq, timer or iter.");
	fprintf(out, "hotspot_k_driver{driver=\"%s\"} 1\n", driver ? driver : "none");

	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- the file ------------------------------------------------------------ */

bool hk_prom__dirty(const struct hk_prom *p, const struct hk_stats *st)
{
	static const struct hk_stats zero;

	return p->changed || memcmp(st ? st : &zero, &p->written, sizeof(p->written));
}

int hk_prom__write(struct hk_prom *p, const struct hk_stats *st, const char *driver)
{
	FILE *f;
	int fd, err;

	/* O_TRUNC: a PATH.tmp left by a crash is ours to overwrite */
	fd = open(p->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto remove_tmp;
	}
	err = hk_prom__format(p, st, driver, f);
	/* the data on disk before the name points at it: no empty file
	 * after a crash */
	if (!err && fsync(fd))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		goto remove_tmp;
	if (rename(p->tmp_path, p->path)) {
		err = -errno;
		goto remove_tmp;
	}
	p->changed = false;
	if (st)
		p->written = *st;
	else
		memset(&p->written, 0, sizeof(p->written));
	return 0;

remove_tmp:
	unlink(p->tmp_path);
	return err;
}

/* The directory path would be created in: "." or "/" or a copy. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* 0, or the errno that says why path cannot be written. */
static int check_path(const char *path)
{
	struct stat sb;
	char *dir;
	int err = 0;

	if (!*path)
		return EINVAL;
	if (path[strlen(path) - 1] == '/' || (!stat(path, &sb) && S_ISDIR(sb.st_mode)))
		return EISDIR;
	dir = dir_of(path);
	if (!dir)
		return ENOMEM;
	if (stat(dir, &sb))
		err = errno;
	else if (!S_ISDIR(sb.st_mode))
		err = ENOTDIR;
	else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS))
		err = errno;
	free(dir);
	return err;
}

struct hk_prom *hk_prom__new(const char *path)
{
	struct hk_prom *p;
	int err;

	err = path ? check_path(path) : EINVAL;
	if (err) {
		errno = err;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->path = strdup(path);
	p->scratch = malloc(SCRATCH_LEN);
	if (!p->path || !p->scratch || asprintf(&p->tmp_path, "%s.tmp", path) < 0) {
		p->tmp_path = NULL;
		hk_prom__free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->changed = true;
	return p;
}

void hk_prom__free(struct hk_prom *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr; i++)
		free(p->procs[i].labels);
	free(p->procs);
	free(p->scratch);
	free(p->tmp_path);
	free(p->path);
	free(p);
}
