// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * printer.c - the ring buffer's transitions written out, one line each.
 *
 * A line is never dropped here for its content: the buffer holds the
 * longest line an event can make (HK_FORMAT_LINE_MAX). A user's lines past
 * their share (linelimit.h) are held back, counted and said so; root's and
 * the system users' never are. What can still fail is the write, and that
 * is not kept quiet either: the caller stops and says why.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "lib/cgroup_id.h"
#include "lib/clock.h"
#include "lib/log.h"
#include "lib/pidref.h"
#include "lib/sysinfo.h"
#include "lib/owner.h"
#include "lib/workload.h"
#include "oom_memcg.h"
#include "printer.h"

int hk_printer__is_journal(int fd, const char *journal_stream)
{
	unsigned long long dev, ino;
	struct stat st;
	char end;

	if (!journal_stream ||
	    sscanf(journal_stream, "%llu:%llu%c", &dev, &ino, &end) != 2 ||
	    fstat(fd, &st))
		return 0;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

int hk_printer__init(struct hk_printer *p, FILE *out, int json, int utc, int color)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->json = json;
	p->fmt.utc = utc;
	p->fmt.color = color;
	p->fmt.paths_cut = &p->cgroups_cut;
	hk_journal__init(&p->journal);
	p->line = malloc(HK_FORMAT_LINE_MAX);
	return p->line ? 0 : -1;
}

int hk_printer__init_stdout(struct hk_printer *p, int json, int utc)
{
	if (hk_printer__init(p, stdout, json, utc,
			     !json && hk_format__use_color(isatty(STDOUT_FILENO), getenv("NO_COLOR"),
							   getenv("TERM"))))
		return -1;
	p->syslog_prefix = hk_printer__is_journal(STDOUT_FILENO, getenv("JOURNAL_STREAM"));
	return 0;
}

void hk_printer__free(struct hk_printer *p)
{
	free(p->line);
	p->line = NULL;
	hk_oom_memcgs__free(&p->oom_memcgs);
	hk_mem_blame__free(&p->blame);
	if (p->journal.fd >= 0)
		hk_log__set_send(NULL, NULL);
	hk_journal__close(&p->journal);
	if (p->use_outfd)
		hk_outfd__close(&p->outfd);
	p->use_outfd = 0;
}

int hk_printer__unblock(struct hk_printer *p)
{
	int e;

	/* what stdio holds goes first, in order */
	if (fflush(p->out))
		return -1;
	e = hk_outfd__open(&p->outfd, fileno(p->out));
	if (e) {
		errno = -e;
		return -1;
	}
	p->use_outfd = 1;
	return 0;
}

static int stream_write(struct hk_printer *p, int priority, const char *line, size_t n);

/* A stall begun, lasting or over: said on stderr, a few lines at most. */
static void say_stall(struct hk_printer *p, int stalled, __u64 dropped)
{
	switch (hk_ratelimit__step(&p->stall, stalled, dropped, mono_ns())) {
	case HK_RATELIMIT_START:
		hk_log__print(HK_LOG_WARNING, "the output is not read (a stalled pipe, a "
			      "frozen journald?): its lines are dropped after a %d ms wait, and "
			      "counted, until it is read again (%llu so far); the diagnosis and "
			      "what it acts on go on\n", p->outfd.wait_ms,
			      (unsigned long long)p->stall.told);
		break;
	case HK_RATELIMIT_STILL:
		hk_log__print(HK_LOG_WARNING, "the output is still not read: %llu more lines "
			      "dropped\n", (unsigned long long)p->stall.told);
		break;
	case HK_RATELIMIT_END:
		hk_log__print(HK_LOG_NOTICE, "the output is read again (%llu more lines "
			      "dropped; %llu in all)\n", (unsigned long long)p->stall.told,
			      (unsigned long long)p->lines_stalled);
		break;
	case HK_RATELIMIT_QUIET:
		break;
	}
}

/*
 * A user's lines held back (linelimit.h): from now (held 0), or so many in
 * an interval now over. One line each, at notice priority.
 */
static void say_held(struct hk_printer *p, long uid, __u64 held)
{
	unsigned long long interval_s = HK_LINELIMIT_INTERVAL_NS / HK_NSEC_PER_SEC;
	char line[256], who[64];
	int n;

	if (uid == HK_LINELIMIT_PAST_TABLE)
		snprintf(who, sizeof(who), "the users past the table");
	else if (uid == HK_LINELIMIT_OWNER_UNKNOWN)
		snprintf(who, sizeof(who), "OOM kills in memory cgroups not found");
	else
		snprintf(who, sizeof(who), "uid %ld", uid);
	if (p->json)
		n = snprintf(line, sizeof(line), "{\"event\":\"lines_held\",\"uid\":%ld,"
			     "\"lines\":%llu,\"interval_s\":%llu,\"lines_per_interval\":%d}\n",
			     uid, (unsigned long long)held, interval_s, HK_LINELIMIT_LINES);
	else if (!held)
		n = snprintf(line, sizeof(line), "hotspot-k: %s wrote %d lines in these %llu s: "
			     "more are held back and counted until they end (root's and the "
			     "system users' never are)\n", who, HK_LINELIMIT_LINES, interval_s);
	else
		n = snprintf(line, sizeof(line), "hotspot-k: %llu lines of %s held back in "
			     "%llu s\n", (unsigned long long)held, who, interval_s);
	hk_printer__write(p, HK_JMSG_LINES_HELD, 5, line, (size_t)n);
}

/* The counts of intervals over at now_ns. */
static void say_held_due(struct hk_printer *p, __u64 now_ns)
{
	__u64 held;
	long uid;

	while (!p->write_errno && hk_linelimit__due(&p->limit, now_ns, &uid, &held))
		say_held(p, uid, held);
}

/*
 * Whose line e makes, for the limit: the owner of the memory cgroup an OOM
 * kill hit (oom_uid; HK_LINELIMIT_OWNER_UNKNOWN when it was not found: a
 * user can hide it, deeper than the search reads), the uid kept for an
 * exit, else the process's own (its /proc directory's owner, read while
 * the PID is still it); -1 when not known (let through).
 */
static long event_uid(struct hk_printer *p, const struct hk_event *e, long oom_uid)
{
	struct hk_pidref r;
	char path[32];
	struct stat st;
	long uid = -1;

	if (e->to == HK_OOM_KILLED)
		return oom_uid >= 0 ? oom_uid : HK_LINELIMIT_OWNER_UNKNOWN;
	if (e->to == HK_EXITED)
		return hk_linelimit__recall(&p->limit, e->tgid);
	if (hk_pidref__open(&r, e->tgid, e->start_boottime_ns))
		return -1;
	snprintf(path, sizeof(path), "/proc/%u", e->tgid);
	if (!stat(path, &st) && hk_pidref__held(&r))
		uid = (long)st.st_uid;
	hk_pidref__close(&r);
	hk_linelimit__remember(&p->limit, e->tgid, uid);
	return uid;
}

void hk_printer__flush(struct hk_printer *p)
{
	say_held_due(p, mono_ns());
	if (!p->use_outfd || p->write_errno || !p->outfd.rest_len)
		return;
	if (!hk_outfd__flush(&p->outfd))
		say_stall(p, 0, 0);
}

/* Who an event's process is, read from its /proc/PID/cgroup. */
struct event_who {
	char *cgroup;			/* the path that matters, or NULL */
	struct hk_workload workload;
	char *quota_cgroup;		/* the cgroups the evidence names by id */
	char *mem_high_cgroup;
};

static void event_who__free(struct event_who *w)
{
	free(w->cgroup);
	free(w->quota_cgroup);
	free(w->mem_high_cgroup);
	memset(w, 0, sizeof(*w));
}

/*
 * The cgroup that matters: the CPU controller's for a quota, the memory
 * controller's otherwise (on a hybrid v1/v2 host every v2 cgroup may be
 * the root); the unit, container and pod; the quota's and memory.high's
 * cgroups. Nothing (cgroup NULL, the rest "") when the process is gone, or
 * its PID is another's by now (an event read late, by `follow`); the
 * cgroup HK_SYS_CGROUP_TOO_LONG when the kernel cannot give it.
 */
static void event_who(const struct hk_event *e, struct event_who *w)
{
	int cpu = e->to == HK_THROTTLED || (e->to == HK_OK && e->from == HK_THROTTLED);
	char *text, *mountinfo = NULL;
	struct hk_pidref r;
	int e_read;

	memset(w, 0, sizeof(*w));
	if (e->to == HK_EXITED || hk_pidref__open(&r, e->tgid, e->start_boottime_ns))
		return;
	text = hk_sysinfo__cgroup_file(e->tgid);
	e_read = errno;
	if (text) {
		w->cgroup = hk_sysinfo__cgroup_parse(text, cpu ? "cpu" : "memory");
		e_read = errno;
		hk_workload__from_proc(&w->workload, text, NULL);
		/* whose it is: the Prometheus file's shares (prometheus.h) */
		w->workload.owner_known = !hk_owner__of(e->tgid, &w->workload.owner_uid);
		if (e->ev.quota_cgroup_id || e->ev.mem_high_cgroup_id)
			mountinfo = hk_sysinfo__read_text("/proc/self/mountinfo");
		w->quota_cgroup = hk_cgid__path(text, mountinfo, "cpu", e->ev.quota_cgroup_id);
		w->mem_high_cgroup = hk_cgid__path(text, mountinfo, "memory",
						   e->ev.mem_high_cgroup_id);
		free(mountinfo);
		free(text);
	}
	if (!w->cgroup && e_read == ENAMETOOLONG)
		w->cgroup = strdup(HK_SYS_CGROUP_TOO_LONG);
	/* read while the PID was still the event's process: its cgroups */
	if (!hk_pidref__held(&r))
		event_who__free(w);
	hk_pidref__close(&r);
}

/*
 * Transition e's line (n bytes in p->line) out: as a journal entry, and to
 * stdout unless the entry went to the journal stdout is. 0, or -1 when
 * the write failed.
 */
static int event_out(struct hk_printer *p, const struct hk_event *e,
		     const struct event_who *who, size_t n)
{
	struct hk_journal_who jw = { who->cgroup, &who->workload, p->fmt.oom_memcg };
	int prio = hk_event__priority(e);

	if (p->journal.fd >= 0 &&
	    !hk_journal__send_event(&p->journal, e, p->line, n, prio, &jw, &p->fmt, p->json) &&
	    p->journal.instead)
		return 0;
	return stream_write(p, prio, p->line, n);
}

int hk_printer__event(void *ctx, void *data, size_t size)
{
	struct hk_printer *p = ctx;
	const struct hk_event *e = data;
	struct event_who who = {};
	struct hk_mem_blame blame;
	char *oom_memcg = NULL;
	enum hk_linelimit_take take;
	long oom_uid = -1, uid;
	__u64 now_ns;
	int n;

	if (size < sizeof(*e))
		return 0;
	/* an ETA under --freeze-on-oom: no line of its own (the label holds);
	 * the freeze says what it does about it */
	if (e->type == HK_EV_ETA) {
		if (p->on_transition && !p->write_errno)
			p->on_transition(p->act, e);
		return p->write_errno ? -EIO : 0;
	}
	/* transitions only: a hand-over is the loader's business */
	if (e->type != HK_EV_TRANSITION)
		return 0;
	if (p->write_errno) {
		p->lines_lost++;
		return -EIO;
	}
	/* now, not at start: the wall clock may have been stepped since */
	p->fmt.wall_offset_ns = hk_sysinfo__wall_offset_ns();
	if (p->json || p->prom || p->journal.fd >= 0)
		event_who(e, &who);
	/* the victim is gone: its memory cgroup is looked for by id */
	if (e->to == HK_OOM_KILLED)
		oom_memcg = hk_oom_memcg__describe(&p->oom_memcgs, &e->oom, mono_ns(), &oom_uid);
	if (e->to == HK_OOM_KILLED && oom_uid > 0)
		p->oom_kills_delegated++;
	now_ns = mono_ns();
	say_held_due(p, now_ns);
	uid = event_uid(p, e, oom_uid);
	take = hk_linelimit__take(&p->limit, uid, now_ns);
	if (take == HK_LINELIMIT_HOLD_FIRST)
		say_held(p, uid, 0);
	p->fmt.oom_memcg = oom_memcg;
	/* a stall in reclaim: who grew under the same limit meanwhile */
	if (hk_mem_blame__wanted(e) && p->blame.procs_fd > 0 &&
	    hk_mem_blame__find(&p->blame, e, &blame) != -EAGAIN)
		p->fmt.blame = &blame;
	if (p->prom) {
		hk_prom__event(p->prom, e, who.cgroup, &who.workload);
		p->prom_changed = 1;
	}
	if (p->json) {
		p->fmt.workload = &who.workload;
		p->fmt.quota_cgroup = who.quota_cgroup;
		p->fmt.mem_high_cgroup = who.mem_high_cgroup;
		n = hk_format__json(p->line, HK_FORMAT_LINE_MAX, e, who.cgroup, &p->fmt);
		p->fmt.workload = NULL;
		p->fmt.quota_cgroup = p->fmt.mem_high_cgroup = NULL;
	} else {
		/* the path is for --json: too long for the line */
		n = hk_format__human(p->line, HK_FORMAT_LINE_MAX, e, NULL, &p->fmt);
	}
	if (n <= 0) {
		/* cannot happen (HK_FORMAT_LINE_MAX): say so rather than skip */
		n = snprintf(p->line, HK_FORMAT_LINE_MAX,
			     "hotspot-k: pid %u: %s -> %s: line too long to format\n",
			     e->tgid, hk_label__id(e->from), hk_label__id(e->to));
	}
	if (take == HK_LINELIMIT_WRITE && !event_out(p, e, &who, (size_t)n))
		p->events++;
	event_who__free(&who);
	p->fmt.blame = NULL;
	/* after the line that says why: what the tool does about it (an OOM
	 * kill's post-mortem names its memory cgroup as the line did) */
	if (p->on_transition && !p->write_errno)
		p->on_transition(p->act, e);
	p->fmt.oom_memcg = NULL;
	free(oom_memcg);
	return p->write_errno ? -EIO : 0;
}

/* Through outfd: 0 written or dropped (the output stalls), -1 failed. */
static int write_outfd(struct hk_printer *p, int priority, const char *line, size_t n)
{
	char prefix[16];
	struct iovec iov[2];
	int cnt = 0, r;

	/* the journal reads "<N>" as the line's priority (sd-daemon(3)) */
	if (p->syslog_prefix) {
		iov[cnt].iov_base = prefix;
		iov[cnt++].iov_len = (size_t)snprintf(prefix, sizeof(prefix), "<%d>", priority);
	}
	iov[cnt].iov_base = (void *)line;
	iov[cnt++].iov_len = n;
	r = hk_outfd__write(&p->outfd, iov, cnt);
	if (r < 0) {
		p->write_errno = -r;
		p->lines_lost++;
		return -1;
	}
	if (!r) {
		p->lines_lost++;
		p->lines_stalled++;
	}
	say_stall(p, !r, !r);
	return 0;
}

/* To stdout, with the journal's "<N>" when it is the journal's stream. */
static int stream_write(struct hk_printer *p, int priority, const char *line, size_t n)
{
	if (p->write_errno) {
		p->lines_lost++;
		return -1;
	}
	if (p->use_outfd)
		return write_outfd(p, priority, line, n);
	errno = 0;
	/* the journal reads "<N>" as the line's priority (sd-daemon(3)) */
	if ((p->syslog_prefix && fprintf(p->out, "<%d>", priority) < 0) ||
	    fwrite(line, 1, n, p->out) != n || fflush(p->out)) {
		p->write_errno = errno ? errno : EIO;
		p->lines_lost++;
		return -1;
	}
	return 0;
}

int hk_printer__journal(struct hk_printer *p, enum hk_journal_mode mode, const char *path)
{
	if (hk_journal__start(&p->journal, mode, path, p->syslog_prefix))
		return -1;
	/* stderr's start and summary as entries too (hk_log__kind) */
	if (p->journal.fd >= 0)
		hk_log__set_send(hk_journal__send_log, &p->journal);
	return 0;
}

int hk_printer__write(struct hk_printer *p, enum hk_jmsg kind, int priority, const char *line,
		      size_t n)
{
	/* an entry sent is the line when stdout is that journal */
	if (p->journal.fd >= 0 && !p->write_errno &&
	    !hk_journal__send_line(&p->journal, kind, priority, line, n) && p->journal.instead)
		return 0;
	return stream_write(p, priority, line, n);
}
