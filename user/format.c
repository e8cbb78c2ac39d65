// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * format.c - one transition as a human line or as a JSON object.
 *
 * Everything a process controls (its comm, the comms of its aggressor and
 * victim, the cgroup path) is hostile input: the human line must not let it
 * drive the terminal, and the JSON line must stay valid JSON and valid UTF-8
 * whatever bytes it holds. Both go through one strict UTF-8 decoder.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "format.h"

#define NSEC_PER_SEC 1000000000LL
#define NSEC_PER_MSEC 1000000ULL

/* Columns of the human line. */
#define COL_PID 7
#define COL_COMM 16
#define COL_LABEL 14

#define SEP " \xc2\xb7 "		/* " · " */
#define ARROW " \xe2\x86\x92 "		/* " → " */

#define SGR_RESET "\033[0m"

struct label_desc {
	const char *id;
	const char *name;
	const char *sgr;
};

static const struct label_desc labels[HK_NR_LABELS] = {
	[HK_OK]			= { "ok", "OK", "\033[32m" },
	[HK_OOM_RISK]		= { "oom_risk", "OOM risk", "\033[1;31m" },
	[HK_MEM_THRASHING]	= { "mem_thrashing", "Mem-thrashing", "\033[35m" },
	[HK_THROTTLED]		= { "throttled", "Throttled", "\033[34m" },
	[HK_STARVED]		= { "starved", "Starved", "\033[33m" },
	[HK_NOISY_NEIGHBOR]	= { "noisy_neighbor", "Noisy neighbor", "\033[36m" },
	[HK_CPU_BOUND]		= { "cpu_bound", "CPU-bound", "\033[31m" },
	[HK_EXITED]		= { "exited", "exited", "\033[2m" },
};

const char *hk_label_id(__u32 label)
{
	return label < HK_NR_LABELS ? labels[label].id : "unknown";
}

const char *hk_label_name(__u32 label)
{
	return label < HK_NR_LABELS ? labels[label].name : "unknown";
}

/*
 * A bounded writer: every append either fits (leaving room for the NUL) or
 * marks the output failed, and nothing is ever written at or past len.
 */
struct out {
	char *buf;
	size_t len;
	size_t pos;
	bool full;
};

static void out_init(struct out *o, char *buf, size_t len)
{
	o->buf = buf;
	o->len = buf ? len : 0;
	o->pos = 0;
	o->full = !o->len;
}

static void out_mem(struct out *o, const void *p, size_t n)
{
	if (o->full)
		return;
	if (n >= o->len - o->pos) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->pos, p, n);
	o->pos += (size_t)n;
}

static void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void out_chars(struct out *o, char c, size_t n)
{
	while (n--)
		out_mem(o, &c, 1);
}

__attribute__((format(printf, 2, 3)))
static void out_printf(struct out *o, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	if (o->full)
		return;
	room = o->len - o->pos;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		o->full = true;
		return;
	}
	o->pos += (size_t)n;
}

/*
 * NUL-terminate and return the length. A failed output is left as an empty
 * string rather than a truncated line, which could be invalid JSON or end
 * in the middle of a UTF-8 sequence.
 */
static int out_finish(struct out *o)
{
	if (o->full || o->pos > INT_MAX) {
		if (o->len)
			o->buf[0] = '\0';
		return -1;
	}
	o->buf[o->pos] = '\0';
	return (int)o->pos;
}

/*
 * Length of the well-formed UTF-8 sequence at s (Unicode table 3-7: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 if there is
 * none. n is how many bytes are left.
 */
static size_t utf8_seq(const unsigned char *s, size_t n, __u32 *cp)
{
	__u32 c, min;
	size_t need, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return need;
}

/* C0, DEL and C1: some terminals act on C1 controls even in UTF-8. */
static bool is_control(__u32 c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/* East Asian wide and emoji blocks take two terminal columns. */
static bool is_wide(__u32 c)
{
	return (c >= 0x1100 && c <= 0x115f) ||
	       (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f) ||
	       (c >= 0xac00 && c <= 0xd7a3) ||
	       (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) ||
	       (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) ||
	       (c >= 0x1f300 && c <= 0x1f64f) ||
	       (c >= 0x1f900 && c <= 0x1f9ff) ||
	       (c >= 0x20000 && c <= 0x3fffd);
}

/*
 * Terminal-safe text: control characters and bytes outside well-formed
 * UTF-8 become \xHH, the rest is kept. Returns the columns it takes.
 */
static size_t out_safe(struct out *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, cols = 0, k, j;
	__u32 cp;

	while (i < n) {
		k = utf8_seq(s + i, n - i, &cp);
		if (k && !is_control(cp)) {
			out_mem(o, s + i, k);
			cols += is_wide(cp) ? 2 : 1;
			i += k;
			continue;
		}
		if (!k)
			k = 1;
		for (j = 0; j < k; j++) {
			out_printf(o, "\\x%02x", s[i + j]);
			cols += 4;
		}
		i += k;
	}
	return cols;
}

/* A comm array: up to HK_COMM_LEN bytes, NUL-terminated only if shorter. */
static size_t comm_len(const char *comm)
{
	return strnlen(comm, HK_COMM_LEN);
}

/*
 * A JSON string: valid UTF-8 is kept, control characters are \u00XX (as are
 * U+2028/U+2029, which break JavaScript parsers), and every byte outside
 * well-formed UTF-8 becomes \ufffd.
 */
static void out_json_str(struct out *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k;
	__u32 cp;

	out_mem(o, "\"", 1);
	while (i < n) {
		k = utf8_seq(s + i, n - i, &cp);
		if (!k) {
			out_str(o, "\\ufffd");
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\') {
			out_mem(o, "\\", 1);
			out_mem(o, s + i, 1);
		} else if (is_control(cp) || cp == 0x2028 || cp == 0x2029) {
			out_printf(o, "\\u%04x", cp);
		} else {
			out_mem(o, s + i, k);
		}
		i += k;
	}
	out_mem(o, "\"", 1);
}

/*
 * Wall-clock time of the event, broken down (UTC or local), with its
 * milliseconds and the local offset from UTC in seconds.
 */
static void event_time(const struct hk_event *e, const struct hk_format_ctx *ctx,
		       struct tm *tm, unsigned int *ms, long *gmtoff)
{
	/* unsigned sum: wraps instead of overflowing, like the clocks do */
	__s64 wall = (__s64)(e->time_ns + (__u64)ctx->wall_offset_ns);
	__s64 sec = wall / NSEC_PER_SEC, rem = wall % NSEC_PER_SEC;
	time_t t;

	if (rem < 0) {
		sec--;
		rem += NSEC_PER_SEC;
	}
	t = (time_t)sec;
	*ms = (unsigned int)(rem / (__s64)NSEC_PER_MSEC);
	*gmtoff = 0;
	if (!ctx->utc && localtime_r(&t, tm)) {
		*gmtoff = tm->tm_gmtoff;
		/* RFC 3339 offsets are whole minutes: else say it in UTC */
		if (*gmtoff % 60 == 0)
			return;
		*gmtoff = 0;
	}
	if (!gmtime_r(&t, tm))
		memset(tm, 0, sizeof(*tm));
}

static void out_rfc3339(struct out *o, const struct hk_event *e,
			const struct hk_format_ctx *ctx)
{
	unsigned int ms;
	struct tm tm;
	long off;

	event_time(e, ctx, &tm, &ms, &off);
	out_printf(o, "%04d-%02d-%02dT%02d:%02d:%02d.%03u", tm.tm_year + 1900,
		   tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		   ms);
	if (!off) {
		out_mem(o, "Z", 1);
		return;
	}
	out_printf(o, "%c%02ld:%02ld", off < 0 ? '-' : '+',
		   (off < 0 ? -off : off) / 3600, (off < 0 ? -off : off) / 60 % 60);
}

/*
 * Unsigned a * m / d rounded to nearest, m <= 100, d a power of two up to
 * 2^60; the remainder is scaled down first where r * m could overflow.
 */
static __u64 scale_round(__u64 a, __u64 m, __u64 d)
{
	__u64 q = a / d, r = a % d;

	while (d > (1ULL << 56)) {
		r >>= 1;
		d >>= 1;
	}
	return q * m + (r * m + d / 2) / d;
}

int hk_fmt_bytes(char *buf, size_t len, __u64 bytes)
{
	static const char *const units[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	unsigned int u = 0;
	struct out o;
	__u64 d, v;

	out_init(&o, buf, len);
	if (bytes < 1024) {
		out_printf(&o, "%llu B", (unsigned long long)bytes);
		return out_finish(&o);
	}
	/* the largest unit that leaves at least 1 */
	while (u < 6 && bytes >> (10 * (u + 1)))
		u++;
	d = 1ULL << (10 * u);
	/* three significant digits, rounding up into the next unit if need be */
	v = scale_round(bytes, 100, d);
	if (v < 1000) {
		out_printf(&o, "%llu.%02llu %s", (unsigned long long)v / 100,
			   (unsigned long long)v % 100, units[u]);
		return out_finish(&o);
	}
	v = scale_round(bytes, 10, d);
	if (v < 1000) {
		out_printf(&o, "%llu.%llu %s", (unsigned long long)v / 10,
			   (unsigned long long)v % 10, units[u]);
		return out_finish(&o);
	}
	v = scale_round(bytes, 1, d);
	if (v >= 1024 && u < 6)
		out_printf(&o, "1.00 %s", units[u + 1]);
	else
		out_printf(&o, "%llu %s", (unsigned long long)v, units[u]);
	return out_finish(&o);
}

int hk_fmt_duration(char *buf, size_t len, __u64 s)
{
	unsigned long long v = s;
	struct out o;

	out_init(&o, buf, len);
	if (v < 60)
		out_printf(&o, "%llus", v);
	else if (v < 3600)
		out_printf(&o, "%llum%02llus", v / 60, v % 60);
	else if (v < 86400)
		out_printf(&o, "%lluh%02llum", v / 3600, v / 60 % 60);
	else
		out_printf(&o, "%llud%02lluh", v / 86400, v / 3600 % 24);
	return out_finish(&o);
}

static void out_bytes(struct out *o, __u64 bytes)
{
	char tmp[32];

	if (hk_fmt_bytes(tmp, sizeof(tmp), bytes) < 0)
		o->full = true;
	else
		out_str(o, tmp);
}

/* A signed rate with its sign spelled out: "+41.0 MiB/s", "-2.00 MiB/s". */
static void out_bytes_rate(struct out *o, __s64 rate)
{
	if (rate > 0)
		out_mem(o, "+", 1);
	else if (rate < 0)
		out_mem(o, "-", 1);
	out_bytes(o, rate < 0 ? 0 - (__u64)rate : (__u64)rate);
	out_str(o, "/s");
}

/* A count per second: 950, 9999, 12.3k, 123k, 12.3M. */
static void out_count(struct out *o, __u64 v)
{
	unsigned long long unit, tenths, whole;
	char suffix;

	if (v < 10000) {
		out_printf(o, "%llu", (unsigned long long)v);
		return;
	}
	unit = v < 10000000 ? 1000 : 1000000;
	suffix = unit == 1000 ? 'k' : 'M';
	tenths = v / (unit / 10) + (v % (unit / 10) >= unit / 20);
	if (tenths < 1000) {
		out_printf(o, "%llu.%llu%c", tenths / 10, tenths % 10, suffix);
		return;
	}
	whole = v / unit + (v % unit >= unit / 2);
	if (unit == 1000 && whole >= 10000)
		out_str(o, "10.0M");	/* 9 999 500 and up round to 10 M */
	else
		out_printf(o, "%llu%c", whole, suffix);
}

/* A share: integer from 10 %, else one decimal, without a trailing ".0". */
static void out_pct(struct out *o, __u32 pct_x100)
{
	unsigned long long v = pct_x100, tenths;

	if (v >= 995) {
		out_printf(o, "%llu %%", (v + 50) / 100);
		return;
	}
	tenths = (v + 5) / 10;
	if (tenths % 10)
		out_printf(o, "%llu.%llu %%", tenths / 10, tenths % 10);
	else
		out_printf(o, "%llu %%", tenths / 10);
}

static const char *limit_name(__u32 kind, bool human)
{
	if (kind == HK_LIMIT_RAM)
		return human ? "RAM" : "ram";
	if (kind == HK_LIMIT_MEMCG)
		return "memcg";
	return "unknown";
}

/* "4300 (bash)", or just "4300" when the comm is empty. */
static void out_pid_comm(struct out *o, __u32 pid, const char *comm)
{
	size_t n = comm_len(comm);

	out_printf(o, "%u", pid);
	if (!n)
		return;
	out_str(o, " (");
	out_safe(o, comm, n);
	out_mem(o, ")", 1);
}

static void ev_oom_risk(struct out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;
	char eta[32];

	out_str(o, "anon ");
	out_bytes(o, ev->rss_anon_bytes);
	out_mem(o, " ", 1);
	out_bytes_rate(o, ev->rss_slope_bytes_per_s);
	out_printf(o, " over %llu s (rss ",
		   (unsigned long long)(ev->rss_trend_ms / 1000 +
					(ev->rss_trend_ms % 1000 >= 500)));
	out_bytes(o, ev->rss_bytes);
	out_str(o, ")" SEP "limit ");
	out_bytes(o, ev->limit_bytes);
	out_printf(o, " (%s)" SEP "headroom ", limit_name(ev->limit_kind, true));
	out_bytes(o, ev->headroom_bytes);
	if (ev->eta_s == (__u64)HK_ETA_NONE)
		return;
	if (hk_fmt_duration(eta, sizeof(eta), ev->eta_s) < 0)
		o->full = true;
	out_str(o, SEP "ETA ");
	out_str(o, eta);
}

static void ev_mem_thrashing(struct out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	out_count(o, ev->minor_faults_per_s);
	out_str(o, " minor faults/s, ");
	out_count(o, ev->unexplained_faults_per_s);
	out_str(o, " not explained by RSS growth" SEP);
	out_count(o, ev->major_faults_per_s);
	out_str(o, " major faults/s" SEP "cpu ");
	out_pct(o, ev->cpu_pct_x100);
}

static void ev_throttled(struct out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	out_str(o, "its cgroup's CPU quota throttled it ");
	out_pct(o, ev->throttled_pct_x100);
	out_str(o, " of the window" SEP);
	out_printf(o, "thread %u waited ", ev->wait_tid);
	out_pct(o, ev->thread_wait_pct_x100);
	out_str(o, " for a CPU, the process ran ");
	out_pct(o, ev->cpu_pct_x100);
}

static void ev_starved(struct out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	out_printf(o, "thread %u waited ", ev->wait_tid);
	out_pct(o, ev->thread_wait_pct_x100);
	out_str(o, " of the window for a CPU, the process ran ");
	out_pct(o, ev->cpu_pct_x100);
	if (!ev->aggressor_tgid)
		return;
	out_str(o, SEP "preempted by ");
	out_pid_comm(o, ev->aggressor_tgid, e->aggressor_comm);
}

/* "thread 4250 at 50 % of cpu1 + 49 % waiting for a CPU" */
static void out_thread(struct out *o, const struct hk_evidence *ev)
{
	out_printf(o, "thread %u at ", ev->thread_tid);
	out_pct(o, ev->thread_cpu_pct_x100);
	out_printf(o, " of cpu%u", ev->thread_cpu);
	if (ev->thread_queued_pct_x100 < 100)
		return;
	out_str(o, " + ");
	out_pct(o, ev->thread_queued_pct_x100);
	out_str(o, " waiting for a CPU");
}

static void ev_noisy_neighbor(struct out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	out_pct(o, ev->cpu_pct_x100);
	out_str(o, " CPU" SEP);
	out_thread(o, ev);
	if (!ev->victim_tgid)
		return;
	out_str(o, SEP "starves ");
	out_pid_comm(o, ev->victim_tgid, e->victim_comm);
}

static void ev_cpu_bound(struct out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	/* a multi-threaded process: the total says more than one thread */
	if (ev->cpu_pct_x100 > 10000) {
		out_str(o, "cpu ");
		out_pct(o, ev->cpu_pct_x100);
		out_str(o, SEP);
	}
	out_thread(o, ev);
	out_mem(o, SEP, strlen(SEP));
	out_count(o, ev->minor_faults_per_s + ev->major_faults_per_s);
	out_str(o, " faults/s" SEP "run delay ");
	out_pct(o, ev->wait_pct_x100);
}

/* The signals CPU-bound is decided on, for a process that no longer is. */
static void ev_summary(struct out *o, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	out_str(o, "cpu ");
	out_pct(o, ev->cpu_pct_x100);
	out_str(o, SEP "run delay ");
	out_pct(o, ev->wait_pct_x100);
	out_mem(o, SEP, strlen(SEP));
	out_count(o, ev->minor_faults_per_s + ev->major_faults_per_s);
	out_str(o, " faults/s");
}

static void ev_label(struct out *o, const struct hk_event *e, __u32 label)
{
	switch (label) {
	case HK_OOM_RISK:
		ev_oom_risk(o, e);
		break;
	case HK_MEM_THRASHING:
		ev_mem_thrashing(o, e);
		break;
	case HK_THROTTLED:
		ev_throttled(o, e);
		break;
	case HK_STARVED:
		ev_starved(o, e);
		break;
	case HK_NOISY_NEIGHBOR:
		ev_noisy_neighbor(o, e);
		break;
	default:
		ev_summary(o, e);
		break;
	}
}

/*
 * Evidence for the label moved to. Back to OK, the same signals as the label
 * left, now below their thresholds, say why it left.
 */
static void out_evidence(struct out *o, const struct hk_event *e)
{
	switch (e->to) {
	case HK_OK:
		ev_label(o, e, e->from);
		break;
	case HK_EXITED:
		out_printf(o, "after %u window%s", e->windows,
			   e->windows == 1 ? "" : "s");
		break;
	case HK_CPU_BOUND:
		ev_cpu_bound(o, e);
		break;
	default:
		ev_label(o, e, e->to);
		break;
	}
}

int hk_format_human(char *buf, size_t len, const struct hk_event *e,
		    const char *cgroup, const struct hk_format_ctx *ctx)
{
	const char *to = hk_label_name(e->to);
	unsigned int ms;
	struct out o;
	size_t cols;
	struct tm tm;
	long off;

	(void)cgroup;	/* the path is for --json: too long for the line */
	out_init(&o, buf, len);
	event_time(e, ctx, &tm, &ms, &off);
	out_printf(&o, "%02d:%02d:%02d.%03u  %*u ", tm.tm_hour, tm.tm_min,
		   tm.tm_sec, ms, COL_PID, e->tgid);
	cols = out_safe(&o, e->comm, comm_len(e->comm));
	if (cols < COL_COMM)
		out_chars(&o, ' ', COL_COMM - cols);
	out_printf(&o, "  %*s" ARROW, COL_LABEL, hk_label_name(e->from));
	if (ctx->color && e->to < HK_NR_LABELS) {
		out_str(&o, labels[e->to].sgr);
		out_str(&o, to);
		out_str(&o, SGR_RESET);
	} else {
		out_str(&o, to);
	}
	if (strlen(to) < COL_LABEL)
		out_chars(&o, ' ', COL_LABEL - strlen(to));
	out_str(&o, "  ");
	out_evidence(&o, e);
	out_mem(&o, "\n", 1);
	return out_finish(&o);
}

/* Hundredths of a percent as a JSON number: 9712 -> 97.12. */
static void json_pct(struct out *o, const char *key, __u32 pct_x100)
{
	out_printf(o, ",\"%s\":%u.%02u", key, pct_x100 / 100, pct_x100 % 100);
}

static void json_u64(struct out *o, const char *key, __u64 v)
{
	out_printf(o, ",\"%s\":%llu", key, (unsigned long long)v);
}

static void json_s64(struct out *o, const char *key, __s64 v)
{
	out_printf(o, ",\"%s\":%lld", key, (long long)v);
}

/* Thousandths as a JSON number with three decimals: 12345 -> 12.345. */
static void json_milli(struct out *o, const char *key, __u64 v)
{
	out_printf(o, ",\"%s\":%llu.%03llu", key, (unsigned long long)v / 1000,
		   (unsigned long long)v % 1000);
}

/* "NAME_pid":N,"NAME_comm":"..." or both null when pid is 0. */
static void json_peer(struct out *o, const char *name, __u32 pid,
		      const char *comm)
{
	if (!pid) {
		out_printf(o, ",\"%s_pid\":null,\"%s_comm\":null", name, name);
		return;
	}
	out_printf(o, ",\"%s_pid\":%u,\"%s_comm\":", name, pid, name);
	out_json_str(o, comm, comm_len(comm));
}

int hk_format_json(char *buf, size_t len, const struct hk_event *e,
		   const char *cgroup, const struct hk_format_ctx *ctx)
{
	const struct hk_evidence *ev = &e->ev;
	__u64 window_ms;
	struct out o;

	out_init(&o, buf, len);
	out_str(&o, "{\"time\":\"");
	out_rfc3339(&o, e, ctx);
	out_printf(&o, "\",\"pid\":%u,\"comm\":", e->tgid);
	out_json_str(&o, e->comm, comm_len(e->comm));
	out_printf(&o, ",\"from\":\"%s\",\"to\":\"%s\",\"cgroup\":",
		   hk_label_id(e->from), hk_label_id(e->to));
	if (cgroup)
		out_json_str(&o, cgroup, strlen(cgroup));
	else
		out_str(&o, "null");
	if (e->ns_ino) {
		json_u64(&o, "ns_pid", e->ns_pid);
		json_u64(&o, "pidns_ino", e->ns_ino);
	}
	json_u64(&o, "windows", e->windows);
	window_ms = ev->window_ns / NSEC_PER_MSEC +
		    (ev->window_ns % NSEC_PER_MSEC >= NSEC_PER_MSEC / 2);
	json_milli(&o, "window_s", window_ms);
	json_pct(&o, "cpu_pct", ev->cpu_pct_x100);
	json_pct(&o, "thread_cpu_pct", ev->thread_cpu_pct_x100);
	json_pct(&o, "thread_queued_pct", ev->thread_queued_pct_x100);
	json_u64(&o, "thread_tid", ev->thread_tid);
	json_u64(&o, "thread_cpu", ev->thread_cpu);
	json_pct(&o, "run_delay_pct", ev->wait_pct_x100);
	json_pct(&o, "thread_run_delay_pct", ev->thread_wait_pct_x100);
	json_u64(&o, "run_delay_tid", ev->wait_tid);
	json_pct(&o, "throttled_pct", ev->throttled_pct_x100);
	json_u64(&o, "nr_threads", ev->nr_threads);
	json_u64(&o, "faults_per_s", ev->minor_faults_per_s);
	json_u64(&o, "major_faults_per_s", ev->major_faults_per_s);
	json_u64(&o, "unexplained_faults_per_s", ev->unexplained_faults_per_s);
	json_u64(&o, "vcsw_per_s", ev->vcsw_per_s);
	json_u64(&o, "ivcsw_per_s", ev->ivcsw_per_s);
	json_u64(&o, "rss_bytes", ev->rss_bytes);
	json_u64(&o, "rss_anon_bytes", ev->rss_anon_bytes);
	json_s64(&o, "rss_growth_bytes_per_s", ev->rss_growth_bytes_per_s);
	json_s64(&o, "rss_slope_bytes_per_s", ev->rss_slope_bytes_per_s);
	json_s64(&o, "rss_net_growth_bytes", ev->rss_net_growth_bytes);
	json_milli(&o, "rss_trend_s", ev->rss_trend_ms);
	json_u64(&o, "trend_samples", ev->trend_samples);
	out_printf(&o, ",\"limit_kind\":\"%s\"", limit_name(ev->limit_kind, false));
	json_u64(&o, "limit_bytes", ev->limit_bytes);
	json_u64(&o, "headroom_bytes", ev->headroom_bytes);
	if (ev->eta_s == (__u64)HK_ETA_NONE)
		out_str(&o, ",\"eta_s\":null");
	else
		json_u64(&o, "eta_s", ev->eta_s);
	json_u64(&o, "memcg_id", ev->memcg_id);
	json_peer(&o, "aggressor", ev->aggressor_tgid, e->aggressor_comm);
	json_peer(&o, "victim", ev->victim_tgid, e->victim_comm);
	out_str(&o, "}\n");
	return out_finish(&o);
}

int hk_use_color(int is_tty, const char *no_color, const char *term)
{
	if (!is_tty || (no_color && *no_color))
		return 0;
	return !term || strcmp(term, "dumb");
}
