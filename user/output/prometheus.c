// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prometheus.c - the processes flagged now and the tool's counters as
 * text in the Prometheus format 0.0.4: what the textfile (prom_file.c)
 * writes and --metrics-listen (metrics_http.c) serves, from one state.
 *
 * The set follows the transitions: a process joins it when it enters a
 * label, moves when it changes label, and leaves for ok or exited. It is
 * kept sorted by PID (a binary search per transition, a stable file), and
 * each member's label sets are escaped once, when it joins.
 *
 * Names come from the processes (comms, cgroup paths a delegated user
 * makes), so the file is bounded whatever they are: a label value is cut
 * at HK_PROM_VALUE_MAX bytes (then "…" and a hash of the whole), the cgroup
 * is on one info series per process, and the members' series take at most
 * HK_PROM_SERIES_BYTES_MAX bytes, shared fairly between owners
 * (prom_share.h): a process that does not fit is counted, not listed.
 * 1024 processes in a cgroup with a 4 KiB path outside UTF-8 made a file
 * of 151 MB; now 506 KB (tests/unit/test_prometheus.c measures both).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "kernel/bpf_sys.h"
#include "lib/escape.h"
#include "lib/msg.h"
#include "lib/outbuf.h"
#include "prom_share.h"
#include "prom_stats.h"
#include "prom_value.h"
#include "prom_state.h"
#include "prometheus.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define LINE_MAX_LEN	HK_PROM_LINE_MAX

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

static void proc_remove(struct hk_prom *p, size_t i)
{
	free(p->procs[i].labels);
	free(p->procs[i].info);
	p->bytes -= p->procs[i].bytes;
	memmove(p->procs + i, p->procs + i + 1, (p->nr - i - 1) * sizeof(*p->procs));
	p->nr--;
}

static size_t proc_bytes(const struct prom_proc *pp);

/* Room for pp by its share (prom_share.h): members taken out for it are
 * counted as unlisted; false when there is none. */
static bool proc_room(struct hk_prom *p, size_t *i, const struct prom_proc *pp)
{
	struct hk_prom_member m[HK_PROM_PROCS_MAX];
	size_t k;
	long v;

	for (k = 0; k < p->nr; k++)
		m[k] = p->procs[k].share;
	while ((v = hk_prom_share__victim(m, p->nr, &pp->share)) >= 0) {
		p->unlisted[p->procs[v].label]++;
		proc_remove(p, (size_t)v);
		memmove(m + v, m + v + 1, (p->nr - (size_t)v) * sizeof(*m));
		*i -= (size_t)v < *i;
	}
	return v == HK_PROM_SHARE_FITS;
}

/* Put e's process at i; false when it does not fit: a cap, or no memory. */
static bool proc_insert(struct hk_prom *p, size_t i, const struct hk_event *e,
			const char *cgroup, const struct hk_workload *wl)
{
	struct prom_proc *procs, pp = { .tgid = e->tgid, .label = e->to, .ev = e->ev,
				       .start_time_ns = e->start_time_ns };
	size_t cap;

	if (p->nr == p->cap && p->nr < HK_PROM_PROCS_MAX) {
		cap = p->cap ? 2 * p->cap : 16;
		if (cap > HK_PROM_PROCS_MAX)
			cap = HK_PROM_PROCS_MAX;
		procs = realloc(p->procs, cap * sizeof(*procs));
		if (!procs)
			return false;
		p->procs = procs;
		p->cap = cap;
	}
	if (!hk_prom_value__sets(&p->value, e, cgroup, wl, &pp.labels, &pp.info))
		return false;
	pp.bytes = proc_bytes(&pp);
	hk_prom_share__member(&pp.share, wl, e->to, pp.bytes, p->joined);
	if (!proc_room(p, &i, &pp)) {
		free(pp.labels);
		free(pp.info);
		return false;
	}
	p->joined++;
	memmove(p->procs + i + 1, p->procs + i, (p->nr - i) * sizeof(*p->procs));
	p->procs[i] = pp;
	p->nr++;
	p->bytes += pp.bytes;
	return true;
}

void hk_prom__event(struct hk_prom *p, const struct hk_event *e, const char *cgroup,
		    const struct hk_workload *wl)
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
	if (is_flagged(e->to) && !proc_insert(p, i, e, cgroup, wl))
		p->unlisted[e->to]++;
	p->changed = true;
	p->gen++;
}

/*
 * The listed processes' stall ledgers, read anew from hk_procs once a
 * window. hotspot_k_stall_seconds_total is a counter: one that moved only
 * at a transition would show a process stalled for an hour as still, and
 * rate() over it as 0. The gauges stay the evidence that flagged it.
 */
void hk_prom__ledgers(struct hk_prom *p, int procs_fd, __u64 windows)
{
	struct hk_proc kp;
	size_t i;

	if (!p || procs_fd < 0 || windows == p->ledgers_windows)
		return;
	p->ledgers_windows = windows;
	for (i = 0; i < p->nr; i++) {
		struct prom_proc *pp = &p->procs[i];

		/* gone, or its PID another process's: its last total stands
		 * until its exit's transition removes it */
		if (hk_bpf_sys__lookup(procs_fd, &pp->tgid, &kp) ||
		    kp.start_time_ns != pp->start_time_ns)
			continue;
		pp->ev.stall_ns = kp.ev.stall_ns;
		/* a cause's first second is a line more: the caps count it */
		p->bytes -= pp->bytes;
		pp->bytes = proc_bytes(pp);
		pp->share.bytes = pp->bytes;
		p->bytes += pp->bytes;
	}
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
	{ "hotspot_k_process_throttled_ratio", V_RATIO, EV(throttled_norm_pct_x100),
	  "Time its cgroups' CPU quota kept them throttled, as a share of the "
	  "window, per CPU the quota lets the group use (the kernel's sum over "
	  "CPUs divided by the quota in whole CPUs, at least one)." },
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
	  "Resident anonymous memory (shmem not counted): what the kernel cannot drop." },
	{ "hotspot_k_process_rss_slope_bytes_per_second", V_S64, EV(rss_slope_bytes_per_s),
	  "Growth of its anonymous memory, resident or swapped out, least squares "
	  "over its trend." },
	{ "hotspot_k_process_memory_limit_bytes", V_U64, EV(limit_bytes),
	  "The limit its memory heads for: the tightest memory cgroup's, the host's "
	  "headroom when that binds first, or RAM without a memory controller." },
	{ "hotspot_k_process_oom_eta_seconds", V_ETA, EV(eta_s),
	  "Time until its anonymous memory reaches that limit at its slope; only "
	  "while it heads there." },
};

#define INFO_NAME "hotspot_k_process_info"

/* One sample of m for pp into buf (LINE_MAX_LEN): its length, 0 for none. */
static size_t proc_line(char *buf, const struct proc_metric *m, const struct prom_proc *pp)
{
	const char *ev = (const char *)&pp->ev + m->off;
	__u32 u32;
	__u64 u64;
	__s64 s64;
	int n = 0;

	switch (m->kind) {
	case V_ONE:
		n = snprintf(buf, LINE_MAX_LEN, "%s{%s} 1\n", m->name, pp->labels);
		break;
	case V_RATIO:
		memcpy(&u32, ev, sizeof(u32));
		n = snprintf(buf, LINE_MAX_LEN, "%s{%s} %u.%04u\n", m->name, pp->labels,
			     u32 / 10000, u32 % 10000);
		break;
	case V_U64:
	case V_ETA:
		memcpy(&u64, ev, sizeof(u64));
		if (m->kind == V_ETA && u64 == (__u64)HK_ETA_NONE)
			break;
		n = snprintf(buf, LINE_MAX_LEN, "%s{%s} %llu\n", m->name, pp->labels,
			     (unsigned long long)u64);
		break;
	case V_S64:
		memcpy(&s64, ev, sizeof(s64));
		n = snprintf(buf, LINE_MAX_LEN, "%s{%s} %lld\n", m->name, pp->labels,
			     (long long)s64);
		break;
	}
	/* cannot be cut: labels hold at most two values of HK_PROM_VALUE_MAX */
	return n > 0 && n < LINE_MAX_LEN ? (size_t)n : 0;
}

static size_t info_line(char *buf, const struct prom_proc *pp)
{
	int n = snprintf(buf, LINE_MAX_LEN, INFO_NAME "{%s} 1\n", pp->info);

	return n > 0 && n < LINE_MAX_LEN ? (size_t)n : 0;
}

#define STALL_NAME "hotspot_k_stall_seconds_total"

/* Its stall ledger's total for one cause (enum hk_stall_cause); none for
 * a cause it never waited for (most have one or two: 9 lines each would
 * take the room of the processes the cap lets in). */
static size_t stall_line(char *buf, const struct prom_proc *pp, __u32 cause)
{
	__u64 v = pp->ev.stall_ns.ns[cause];
	int n;

	if (!v)
		return 0;
	n = snprintf(buf, LINE_MAX_LEN, STALL_NAME "{%s,resource=\"%s\",cause=\"%s\"} "
			 "%llu.%09llu\n", pp->labels, hk_stall__resource(cause),
			 hk_stall__cause(cause), (unsigned long long)(v / HK_NSEC_PER_SEC),
			 (unsigned long long)(v % HK_NSEC_PER_SEC));

	return n > 0 && n < LINE_MAX_LEN ? (size_t)n : 0;
}

/* The bytes of all of pp's samples. */
static size_t proc_bytes(const struct prom_proc *pp)
{
	char buf[LINE_MAX_LEN];
	size_t n = info_line(buf, pp), j;

	for (j = 0; j < ARRAY_SIZE(proc_metrics); j++)
		n += proc_line(buf, &proc_metrics[j], pp);
	for (j = 0; j < HK_STALL_NR; j++)
		n += stall_line(buf, pp, (__u32)j);
	return n;
}

#define UP_HELP "1 while hotspot-k runs and rewrites this file (at least every few " \
	"intervals); 0 once it stopped, with every other series gone. 1 in a file " \
	"not rewritten for long: it was killed or hangs (node_textfile_mtime_seconds)."

int hk_prom__format(const struct hk_prom *p, const struct hk_stats *st,
		    const char *driver, FILE *out)
{
	static const struct hk_stats zero;
	__u64 count[HK_NR_LABELS], unlisted = 0;
	char line[LINE_MAX_LEN];
	size_t i, j;
	__u32 l;

	if (!st)
		st = &zero;
	/* from here: a write that fails before the flush (the text is longer
	 * than the stream's buffer) leaves its errno */
	errno = 0;
	family(out, "hotspot_k_up", "gauge", UP_HELP);
	fprintf(out, "hotspot_k_up %d\n", !p->down);
	if (p->down)
		goto flush;
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
		"hotspot_k_process_* series: more than %d were flagged at once, or their "
		"series would have passed %d KiB.\n"
		"# TYPE hotspot_k_processes_unlisted gauge\n", HK_PROM_PROCS_MAX,
		HK_PROM_SERIES_BYTES_MAX / 1024);
	fprintf(out, "hotspot_k_processes_unlisted %llu\n", (unsigned long long)unlisted);

	family(out, INFO_NAME, "gauge",
	       "1 for each process flagged now, with its cgroup (not on its other series: "
	       "a path can be long); join on pid: hotspot_k_process_flagged * on(pid) "
	       "group_left(cgroup) " INFO_NAME ".");
	for (i = 0; i < p->nr; i++)
		if (info_line(line, &p->procs[i]))
			fputs(line, out);
	for (j = 0; j < ARRAY_SIZE(proc_metrics); j++) {
		family(out, proc_metrics[j].name, "gauge", proc_metrics[j].help);
		for (i = 0; i < p->nr; i++)
			if (proc_line(line, &proc_metrics[j], &p->procs[i]))
				fputs(line, out);
	}
	family(out, STALL_NAME, "counter",
	       "Time its threads waited since the tool first saw it, by resource and cause "
	       "(the stall ledger: docs/stall-ledger.md), as of the transition that "
	       "flagged it; listed processes only, as the gauges above.");
	for (i = 0; i < p->nr; i++)
		for (j = 0; j < HK_STALL_NR; j++)
			if (stall_line(line, &p->procs[i], (__u32)j))
				fputs(line, out);
	hk_prom_stats__write(out, st);
	if (p->http)
		hk_prom_stats__write_http(out, &p->scrapes);
	family(out, "hotspot_k_driver", "gauge",
	       "What walks the threads each window: wq, table, timer or iter.");
	fprintf(out, "hotspot_k_driver{driver=\"%s\"} 1\n", driver ? driver : "none");
flush:
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

/* ---- the state ----------------------------------------------------------- */

void hk_prom__down(struct hk_prom *p)
{
	p->down = true;
	p->changed = true;
	p->gen++;
}

unsigned long hk_prom__generation(const struct hk_prom *p)
{
	return p->gen;
}

void hk_prom__http(struct hk_prom *p, const struct hk_prom_http *h)
{
	p->http = true;
	p->scrapes = *h;
}

struct hk_prom *hk_prom__new_set(void)
{
	struct hk_prom *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->dir.fd = -1;
	p->changed = true;
	if (hk_prom_value__init(&p->value)) {
		hk_prom__free(p);
		return NULL;
	}
	return p;
}

void hk_prom__free(struct hk_prom *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr; i++) {
		free(p->procs[i].labels);
		free(p->procs[i].info);
	}
	hk_safefile__dir_close(&p->dir);
	free(p->procs);
	hk_prom_value__free(&p->value);
	free(p->path);
	free(p);
}
