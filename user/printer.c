// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * printer.c - the ring buffer's transitions written out, one line each.
 *
 * A line is never dropped here for its content: the buffer holds the
 * longest line an event can make (HK_FORMAT_LINE_MAX). What can still fail
 * is the write, and that is not kept quiet either: the caller stops and
 * says why.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "clock.h"
#include "log.h"
#include "pidref.h"
#include "printer.h"
#include "sysinfo.h"

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
	p->line = malloc(HK_FORMAT_LINE_MAX);
	return p->line ? 0 : -1;
}

void hk_printer__free(struct hk_printer *p)
{
	free(p->line);
	p->line = NULL;
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

void hk_printer__flush(struct hk_printer *p)
{
	if (!p->use_outfd || p->write_errno || !p->outfd.rest_len)
		return;
	if (!hk_outfd__flush(&p->outfd))
		say_stall(p, 0, 0);
}

/*
 * The cgroup that matters: the CPU controller's for a quota, the memory
 * controller's otherwise (on a hybrid v1/v2 host every v2 cgroup may be
 * the root). NULL when the process is gone, or its PID is another's by
 * now (an event read late, by `follow`): no path to give; the text
 * HK_SYS_CGROUP_TOO_LONG when the kernel cannot give it.
 */
static char *event_cgroup(const struct hk_event *e)
{
	int cpu = e->to == HK_THROTTLED || (e->to == HK_OK && e->from == HK_THROTTLED);
	struct hk_pidref r;
	char *cg;

	if (e->to == HK_EXITED || hk_pidref__open(&r, e->tgid, e->start_boottime_ns))
		return NULL;
	cg = hk_sys__cgroup_path(e->tgid, cpu ? "cpu" : "memory");
	if (!cg && errno == ENAMETOOLONG)
		cg = strdup(HK_SYS_CGROUP_TOO_LONG);
	/* read while the PID was still the event's process: its path */
	if (cg && !hk_pidref__held(&r)) {
		free(cg);
		cg = NULL;
	}
	hk_pidref__close(&r);
	return cg;
}

int hk_printer__event(void *ctx, void *data, size_t size)
{
	struct hk_printer *p = ctx;
	const struct hk_event *e = data;
	char *cg = NULL;
	int n;

	/* transitions only: a hand-over is the loader's business */
	if (size < sizeof(*e) || e->type != HK_EV_TRANSITION)
		return 0;
	if (p->write_errno) {
		p->lines_lost++;
		return -EIO;
	}
	/* now, not at start: the wall clock may have been stepped since */
	p->fmt.wall_offset_ns = hk_sys__wall_offset_ns();
	if (p->json || p->prom)
		cg = event_cgroup(e);
	if (p->prom) {
		hk_prom__event(p->prom, e, cg);
		p->prom_changed = 1;
	}
	if (p->json) {
		if (cg && strlen(cg) > HK_FORMAT_CGROUP_MAX)
			p->cgroups_cut++;
		n = hk_format__json(p->line, HK_FORMAT_LINE_MAX, e, cg, &p->fmt);
	} else {
		/* the path is for --json: too long for the line */
		n = hk_format__human(p->line, HK_FORMAT_LINE_MAX, e, NULL, &p->fmt);
	}
	free(cg);
	if (n <= 0) {
		/* cannot happen (HK_FORMAT_LINE_MAX): say so rather than skip */
		n = snprintf(p->line, HK_FORMAT_LINE_MAX,
			     "hotspot-k: pid %u: %s -> %s: line too long to format\n",
			     e->tgid, hk_label__id(e->from), hk_label__id(e->to));
	}
	if (hk_printer__write(p, hk_event__priority(e), p->line, (size_t)n))
		return -EIO;
	p->events++;
	/* after the line that says why: what the tool does about it */
	if (p->on_transition)
		p->on_transition(p->act, e);
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

int hk_printer__write(struct hk_printer *p, int priority, const char *line, size_t n)
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
