// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * config.c - the threshold file: parse, validate, generate.
 *
 * One table of keys drives the defaults, the parser, the range checks and
 * --generate-config, so that they cannot disagree. Numbers are parsed as
 * integer and fraction digits and scaled with integer arithmetic only, so
 * that 1.5GiB is exact and what --generate-config prints parses back to the
 * very same bits.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define NS_PER_US	1000ULL
#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL
#define NS_PER_M	(60 * NS_PER_S)
#define NS_PER_H	(3600 * NS_PER_S)
#define NS_PER_D	(86400 * NS_PER_S)

#define KIB		(1ULL << 10)
#define MIB		(1ULL << 20)
#define GIB		(1ULL << 30)
#define TIB		(1ULL << 40)

/* A config file is a few hundred bytes: refuse to slurp /dev/zero. */
#define HK_CONFIG_MAX_BYTES	(1024 * 1024)

/* User text quoted in a message is cut to this many bytes. */
#define HK_QUOTE_LEN	48

static int fail(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Write one message into buf (if any) and return -1. */
static int fail(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Copy user text for a message: cut to HK_QUOTE_LEN bytes and with control
 * characters replaced, so that a message stays one harmless line.
 */
static const char *quote(char *buf, size_t len, const char *s)
{
	size_t i, n = strlen(s);

	if (n > HK_QUOTE_LEN)
		n = HK_QUOTE_LEN;
	if (n > len - 4)
		n = len - 4;
	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
	if (s[i])
		strcpy(buf + i, "...");
	return buf;
}

/* --- unit parsers ----------------------------------------------------- */

struct hk_unit {
	const char *name;
	__u64 mult;
};

/* How one kind of value is written. */
struct hk_scale {
	const struct hk_unit *units;	/* "" allows a bare number */
	const char *hint;		/* after "unknown unit 'x'" */
	const char *missing;		/* a bare number where "" is not a unit */
	const char *inexact;		/* not a whole number of the base unit */
	__u64 max;			/* largest value the result can hold */
};

static const struct hk_unit duration_units[] = {
	{ "ns", 1 }, { "us", NS_PER_US }, { "ms", NS_PER_MS }, { "s", NS_PER_S },
	{ "m", NS_PER_M }, { "h", NS_PER_H }, { "d", NS_PER_D }, { NULL, 0 },
};

/* K, M, G, T and KB ... TB are the binary multiples too: no 1000s here. */
static const struct hk_unit byte_units[] = {
	{ "", 1 }, { "B", 1 },
	{ "KiB", KIB }, { "K", KIB }, { "KB", KIB },
	{ "MiB", MIB }, { "M", MIB }, { "MB", MIB },
	{ "GiB", GIB }, { "G", GIB }, { "GB", GIB },
	{ "TiB", TIB }, { "T", TIB }, { "TB", TIB },
	{ NULL, 0 },
};

static const struct hk_unit pct_units[] = {
	{ "%", 100 }, { NULL, 0 },
};

static const struct hk_unit count_units[] = {
	{ "", 1 }, { "k", 1000 }, { "M", 1000000 }, { NULL, 0 },
};

static const struct hk_unit int_units[] = {
	{ "", 1 }, { NULL, 0 },
};

static const struct hk_scale duration_scale = {
	.units = duration_units,
	.hint = "use ns, us, ms, s, m, h, d",
	.missing = "missing unit (e.g. 5s)",
	.inexact = "finer than a nanosecond",
	.max = UINT64_MAX,
};

static const struct hk_scale bytes_scale = {
	.units = byte_units,
	.hint = "use B, KiB, MiB, GiB, TiB",
	.inexact = "not a whole number of bytes",
	.max = UINT64_MAX,
};

static const struct hk_scale pct_scale = {
	.units = pct_units,
	.hint = "use %",
	.missing = "missing '%' (e.g. 50%)",
	.inexact = "more than two decimals",
	.max = UINT32_MAX,
};

static const struct hk_scale count_scale = {
	.units = count_units,
	.hint = "use k or M",
	.inexact = "not a whole number",
	.max = UINT64_MAX,
};

static const struct hk_scale int_scale = {
	.units = int_units,
	.hint = "a plain number is expected",
	.inexact = "not a whole number",
	.max = UINT32_MAX,
};

static __u64 gcd_u64(__u64 a, __u64 b)
{
	while (b) {
		__u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * "<digits>[.<digits>][blanks]<unit>" scaled exactly by the unit: the
 * fraction must come out as a whole number of the base unit. On error why
 * says what is wrong.
 */
static int parse_scaled(const char *s, const struct hk_scale *sc, __u64 *out,
			char *why, size_t why_len)
{
	const struct hk_unit *u;
	const char *p, *frac = NULL;
	__u64 whole, frac_val = 0, pow10 = 1, den, part, v;
	size_t frac_digits = 0, i;
	char q[HK_QUOTE_LEN + 4];
	char *end;

	if (!s || !*s)
		return fail(why, why_len, "empty value");
	if (*s == '-')
		return fail(why, why_len, "negative values are not allowed");
	if (!isdigit((unsigned char)*s))
		return fail(why, why_len, "not a number");
	errno = 0;
	whole = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return fail(why, why_len, "too large");
	p = end;
	if (*p == '.') {
		frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		frac_digits = p - frac;
		if (!frac_digits)
			return fail(why, why_len, "digits expected after '.'");
	}
	while (*p == ' ' || *p == '\t')
		p++;
	for (u = sc->units; u->name; u++)
		if (!strcmp(p, u->name))
			break;
	if (!u->name) {
		if (!*p)
			return fail(why, why_len, "%s", sc->missing);
		return fail(why, why_len, "unknown unit '%s' (%s)",
			    quote(q, sizeof(q), p), sc->hint);
	}

	/* trailing zeros do not change the value */
	while (frac_digits && frac[frac_digits - 1] == '0')
		frac_digits--;
	if (frac_digits > 18)
		return fail(why, why_len, "too many decimals");
	for (i = 0; i < frac_digits; i++) {
		frac_val = frac_val * 10 + (frac[i] - '0');
		pow10 *= 10;
	}

	if (__builtin_mul_overflow(whole, u->mult, &v))
		return fail(why, why_len, "too large");
	if (frac_digits) {
		/*
		 * frac_val / pow10 * mult is whole exactly when pow10 / g
		 * divides frac_val, g = gcd(pow10, mult): no overflow on the way.
		 */
		den = pow10 / gcd_u64(pow10, u->mult);
		if (frac_val % den)
			return fail(why, why_len, "%s", sc->inexact);
		if (__builtin_mul_overflow(frac_val / den, u->mult / (pow10 / den),
					   &part) ||
		    __builtin_add_overflow(v, part, &v))
			return fail(why, why_len, "too large");
	}
	if (v > sc->max)
		return fail(why, why_len, "too large");
	*out = v;
	return 0;
}

int hk_parse_duration_ns(const char *s, __u64 *out)
{
	return parse_scaled(s, &duration_scale, out, NULL, 0);
}

int hk_parse_bytes(const char *s, __u64 *out)
{
	return parse_scaled(s, &bytes_scale, out, NULL, 0);
}

int hk_parse_pct_x100(const char *s, __u32 *out)
{
	__u64 v;

	if (parse_scaled(s, &pct_scale, &v, NULL, 0))
		return -1;
	*out = (__u32)v;
	return 0;
}

int hk_parse_count(const char *s, __u64 *out)
{
	return parse_scaled(s, &count_scale, out, NULL, 0);
}

/* --- the keys --------------------------------------------------------- */

enum hk_kind {
	HK_KIND_DURATION_NS,	/* written as a duration, stored in ns */
	HK_KIND_DURATION_S,	/* written as a duration, stored in s */
	HK_KIND_BYTES,
	HK_KIND_PCT,		/* stored in hundredths of a percent */
	HK_KIND_COUNT,		/* a number, k and M allowed */
	HK_KIND_INT,		/* a plain number */
};

struct hk_section {
	const char *name;
	const char *help;
};

struct hk_key {
	const char *section;
	const char *name;
	enum hk_kind kind;
	size_t off;
	size_t size;
	__u64 def, min, max;	/* in the stored unit; max ~0: no maximum */
	const char *help;
};

static const struct hk_section sections[] = {
	{ "general",
	  "Sampling and hysteresis, common to every diagnosis." },
	{ "oom_risk",
	  "OOM risk: the anonymous + shmem part of RSS (memory the kernel\n"
	  "cannot drop; file pages are not counted) grew in this window, and\n"
	  "steadily over a trend that covers at least min_trend (growth in at\n"
	  "least `steady` of its time, net growth of at least min_growth), and\n"
	  "at its current slope it reaches its limit within eta_horizon. The\n"
	  "limit is the tightest memory cgroup limit on the process's path\n"
	  "(reclaimable page cache counted as free), else total RAM." },
	{ "mem_thrashing",
	  "Mem-thrashing: many major faults, or a storm of minor faults that RSS\n"
	  "growth does not explain, while no thread is busy on a CPU (see\n"
	  "cpu_bound.thread_cpu)." },
	{ "throttled",
	  "Throttled: the CPU quota of its own cgroup (cgroup v1\n"
	  "cpu.cfs_quota_us, v2 cpu.max) held it back: its cgroups were\n"
	  "throttled and one of its threads waited for a CPU, each at least\n"
	  "min_throttled of the window. Not Starved: nobody else is to blame." },
	{ "starved",
	  "Starved: waiting for a CPU most of the window, and waiting more than\n"
	  "running. Voluntary sleep is not waiting." },
	{ "noisy_neighbor",
	  "Noisy neighbor: the process that most often took the CPU from a\n"
	  "Starved process, when it uses a significant share of a CPU." },
	{ "cpu_bound",
	  "CPU-bound: one thread wants a whole CPU (on one or waiting for one\n"
	  "most of the window) or the process wants a large share of all CPUs,\n"
	  "with few page faults. Its wait for a CPU is in the evidence: on a\n"
	  "saturated host every busy loop is CPU-bound." },
};

#define KEY(sec, key, kind, field, def, min, max, help)			\
	{ sec, key, kind, offsetof(struct hk_config, field),		\
	  sizeof(((struct hk_config *)0)->field), def, min, max, help }

static const struct hk_key keys[] = {
	KEY("general", "interval", HK_KIND_DURATION_NS, interval_ns,
	    5 * NS_PER_S, 100 * NS_PER_MS, NS_PER_H,
	    "How often every process is sampled; each sample closes a window.\n"
	    "Shorter reacts faster and costs more CPU. The thresholds are rates\n"
	    "and shares, so they do not depend on it."),
	KEY("general", "enter_windows", HK_KIND_INT, enter_windows,
	    2, 1, 100,
	    "Windows in a row a diagnosis must match before a process gets it."),
	KEY("general", "exit_windows", HK_KIND_INT, exit_windows,
	    3, 1, 100,
	    "Windows in a row without a match before a process loses its\n"
	    "diagnosis."),

	KEY("oom_risk", "trend_span", HK_KIND_DURATION_NS, oom_trend_span_ns,
	    30 * NS_PER_S, NS_PER_S, NS_PER_H,
	    "RSS history the growth trend is fitted over (least squares). It\n"
	    "must cover at least 3 intervals; when it covers many, the trend's\n"
	    "samples are spread out over it."),
	KEY("oom_risk", "min_trend", HK_KIND_DURATION_NS, oom_min_trend_ns,
	    10 * NS_PER_S, NS_PER_S, NS_PER_H,
	    "Time the trend must already cover (less a quarter of an interval,\n"
	    "for the walk's jitter) before it can say anything: a warm-up (a JVM\n"
	    "sizing its heap, a cache filling) that levels off sooner is never a\n"
	    "risk. At most trend_span."),
	KEY("oom_risk", "min_growth", HK_KIND_BYTES, oom_min_growth_bytes,
	    64 * MIB, 1, TIB,
	    "Net growth over the trend below which a process is not considered\n"
	    "growing."),
	KEY("oom_risk", "steady", HK_KIND_PCT, oom_steady_pct_x100,
	    7500, 100, 10000,
	    "Share of the trend's time in which RSS must have grown: steady\n"
	    "growth, not one jump."),
	KEY("oom_risk", "eta_horizon", HK_KIND_DURATION_S, oom_eta_horizon_s,
	    900, 1, 30 * 86400,
	    "A steadily growing process is at risk when, at its current slope,\n"
	    "it reaches its limit within this time. Size alone is not a risk."),

	KEY("mem_thrashing", "major_faults_per_s", HK_KIND_COUNT,
	    thrash_major_faults_per_s, 100, 1, UINT64_MAX,
	    "Major page faults per second (pages read back from disk or swap)\n"
	    "from which a process is thrashing."),
	KEY("mem_thrashing", "minor_faults_per_s", HK_KIND_COUNT,
	    thrash_minor_faults_per_s, 10000, 1, UINT64_MAX,
	    "Minor page faults per second, beyond those RSS growth explains,\n"
	    "from which a process is thrashing (a leak faults its new pages in:\n"
	    "that is growth, not thrashing)."),

	KEY("throttled", "min_throttled", HK_KIND_PCT, throttled_pct_x100,
	    2500, 100, 10000,
	    "Share of the window its cgroups' CPU quota kept them throttled\n"
	    "(summed over CPUs), and that one of its threads waited for a CPU,\n"
	    "from which a process is throttled."),

	KEY("starved", "min_wait", HK_KIND_PCT, starved_wait_pct_x100,
	    7000, 100, 10000,
	    "Run-queue wait of one thread, as a share of the window, from which\n"
	    "a process is starved (it must also wait more than it runs). Equal\n"
	    "busy loops sharing a CPU wait 50 % (two), 67 % (three), 75 %\n"
	    "(four) each: the default sits between three and four, clear of\n"
	    "both, so that a fair share is never decided by noise."),

	KEY("noisy_neighbor", "min_cpu", HK_KIND_PCT, noisy_cpu_pct_x100,
	    5000, 100, 10000,
	    "CPU use, as a share of one CPU, from which the aggressor of a\n"
	    "Starved process is a noisy neighbor."),

	KEY("cpu_bound", "thread_cpu", HK_KIND_PCT, cpu_thread_pct_x100,
	    9000, 100, 10000,
	    "Share of the window the busiest thread was on a CPU or waiting for\n"
	    "one, from which it wants a whole CPU."),
	KEY("cpu_bound", "total_cpu", HK_KIND_PCT, cpu_total_pct_x100,
	    5000, 100, 10000,
	    "CPU the whole process used or waited for, as a share of all CPUs,\n"
	    "from which it is CPU-bound even with no such thread."),
	KEY("cpu_bound", "max_faults_per_s", HK_KIND_COUNT, cpu_max_faults_per_s,
	    1000, 1, UINT64_MAX,
	    "Minor plus major page faults per second must stay below this."),
};

/* Keys of earlier versions: a file that sets one is told what replaced it. */
static const struct {
	const char *section, *name, *why;
} removed_keys[] = {
	{ "oom_risk", "min_rss", "size alone is no longer a risk: the ETA "
	  "decides (eta_horizon)" },
	{ "oom_risk", "min_rss_of_limit", "size alone is no longer a risk: "
	  "the ETA decides (eta_horizon)" },
	{ "cpu_bound", "max_wait", "waiting for a CPU now counts as wanting "
	  "one (thread_cpu)" },
};

static __u64 get_field(const struct hk_config *c, const struct hk_key *k)
{
	const char *p = (const char *)c + k->off;
	__u32 v32;
	__u64 v64;

	if (k->size == sizeof(v32)) {
		memcpy(&v32, p, sizeof(v32));
		return v32;
	}
	memcpy(&v64, p, sizeof(v64));
	return v64;
}

/* v is within the key's range, which fits the field. */
static void set_field(struct hk_config *c, const struct hk_key *k, __u64 v)
{
	char *p = (char *)c + k->off;
	__u32 v32 = (__u32)v;

	if (k->size == sizeof(v32))
		memcpy(p, &v32, sizeof(v32));
	else
		memcpy(p, &v, sizeof(v));
}

void hk_config__defaults(struct hk_config *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		set_field(c, &keys[i], keys[i].def);
}

/* --- printing values -------------------------------------------------- */

/* The largest unit of the list (largest first) that v is a multiple of. */
static void fmt_multiple(char *buf, size_t len, __u64 v,
			 const struct hk_unit *units)
{
	const struct hk_unit *u = units;

	if (v)
		while (v % u->mult)
			u++;
	else
		while (u[1].name)
			u++;
	snprintf(buf, len, "%llu%s", (unsigned long long)(v / u->mult), u->name);
}

static void fmt_duration_ns(char *buf, size_t len, __u64 v)
{
	/* largest first, ending with the base unit */
	static const struct hk_unit units[] = {
		{ "d", NS_PER_D }, { "h", NS_PER_H }, { "m", NS_PER_M },
		{ "s", NS_PER_S }, { "ms", NS_PER_MS }, { "us", NS_PER_US },
		{ "ns", 1 }, { NULL, 0 },
	};

	if (!v)
		snprintf(buf, len, "0s");
	else
		fmt_multiple(buf, len, v, units);
}

static void fmt_value(char *buf, size_t len, const struct hk_key *k, __u64 v)
{
	static const struct hk_unit s_units[] = {
		{ "d", 86400 }, { "h", 3600 }, { "m", 60 }, { "s", 1 },
		{ NULL, 0 },
	};
	static const struct hk_unit b_units[] = {
		{ "TiB", TIB }, { "GiB", GIB }, { "MiB", MIB }, { "KiB", KIB },
		{ "B", 1 }, { NULL, 0 },
	};
	unsigned long long ull = v;

	switch (k->kind) {
	case HK_KIND_DURATION_NS:
		fmt_duration_ns(buf, len, v);
		break;
	case HK_KIND_DURATION_S:
		fmt_multiple(buf, len, v, s_units);
		break;
	case HK_KIND_BYTES:
		fmt_multiple(buf, len, v, b_units);
		break;
	case HK_KIND_PCT:
		/* as few decimals as the value needs: 50%, 12.5%, 0.01% */
		if (ull % 100 == 0)
			snprintf(buf, len, "%llu%%", ull / 100);
		else if (ull % 10 == 0)
			snprintf(buf, len, "%llu.%llu%%", ull / 100, ull % 100 / 10);
		else
			snprintf(buf, len, "%llu.%02llu%%", ull / 100, ull % 100);
		break;
	case HK_KIND_COUNT:
	case HK_KIND_INT:
		snprintf(buf, len, "%llu", ull);
		break;
	}
}

/* "100ms..1h", or "at least 1" when there is no maximum. */
static void fmt_range(char *buf, size_t len, const struct hk_key *k)
{
	char lo[32], hi[32];

	fmt_value(lo, sizeof(lo), k, k->min);
	if (k->max == UINT64_MAX) {
		snprintf(buf, len, "at least %s", lo);
		return;
	}
	fmt_value(hi, sizeof(hi), k, k->max);
	snprintf(buf, len, "%s..%s", lo, hi);
}

/* --- parsing ---------------------------------------------------------- */

struct hk_parser {
	struct hk_config cfg;		/* the copy being filled in */
	const char *name;
	unsigned int line;
	const struct hk_section *section;
	unsigned int set_on[ARRAY_SIZE(keys)];	/* line of each key, 0: unset */
	char *err;
	size_t err_len;
};

static int parse_fail(struct hk_parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "NAME:LINE: message" */
static int parse_fail(struct hk_parser *ps, const char *fmt, ...)
{
	char msg[HK_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fail(ps->err, ps->err_len, "%s:%u: %s", ps->name, ps->line, msg);
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

static int parse_section(struct hk_parser *ps, char *s)
{
	char valid[128] = "", q[HK_QUOTE_LEN + 4];
	char *close = strchr(s, ']');
	size_t i;

	if (!close || *trim(close + 1))
		return parse_fail(ps, "expected '[section]'");
	*close = '\0';
	s = trim(s + 1);
	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		if (!strcmp(s, sections[i].name)) {
			ps->section = &sections[i];
			return 0;
		}
	}
	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		if (i)
			strncat(valid, ", ", sizeof(valid) - strlen(valid) - 1);
		strncat(valid, sections[i].name, sizeof(valid) - strlen(valid) - 1);
	}
	return parse_fail(ps, "unknown section [%s] (valid: %s)",
			  quote(q, sizeof(q), s), valid);
}

static int parse_value(struct hk_parser *ps, const struct hk_key *k,
		       const char *val)
{
	char why[128], q[HK_QUOTE_LEN + 4], range[80];
	const struct hk_scale *sc;
	__u64 v;

	if (!*val)
		return parse_fail(ps, "missing value for %s", k->name);
	switch (k->kind) {
	case HK_KIND_DURATION_NS:
	case HK_KIND_DURATION_S:
		sc = &duration_scale;
		break;
	case HK_KIND_BYTES:
		sc = &bytes_scale;
		break;
	case HK_KIND_PCT:
		sc = &pct_scale;
		break;
	case HK_KIND_COUNT:
		sc = &count_scale;
		break;
	default:
		sc = &int_scale;
		break;
	}
	if (parse_scaled(val, sc, &v, why, sizeof(why)))
		return parse_fail(ps, "bad value '%s' for %s: %s",
				  quote(q, sizeof(q), val), k->name, why);
	if (k->kind == HK_KIND_DURATION_S) {
		if (v % NS_PER_S)
			return parse_fail(ps, "bad value '%s' for %s: not a whole number of seconds",
					  quote(q, sizeof(q), val), k->name);
		v /= NS_PER_S;
	}
	if (v < k->min || v > k->max) {
		fmt_range(range, sizeof(range), k);
		return parse_fail(ps, "%s %s out of range (%s)", k->name,
				  quote(q, sizeof(q), val), range);
	}
	set_field(&ps->cfg, k, v);
	return 0;
}

static int parse_line(struct hk_parser *ps, char *line)
{
	char q[HK_QUOTE_LEN + 4];
	char *hash, *eq, *key, *val;
	size_t i;

	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	line = trim(line);
	if (!*line)
		return 0;
	if (*line == '[')
		return parse_section(ps, line);

	eq = strchr(line, '=');
	if (!eq || eq == line)
		return parse_fail(ps, "expected 'key = value'");
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (!ps->section)
		return parse_fail(ps, "key outside any section");

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i].section, ps->section->name) &&
		    !strcmp(keys[i].name, key))
			break;
	if (i == ARRAY_SIZE(keys)) {
		for (i = 0; i < ARRAY_SIZE(removed_keys); i++)
			if (!strcmp(removed_keys[i].section, ps->section->name) &&
			    !strcmp(removed_keys[i].name, key))
				return parse_fail(ps, "key '%s' in [%s] was removed: %s",
						  key, ps->section->name,
						  removed_keys[i].why);
		return parse_fail(ps, "unknown key '%s' in [%s]",
				  quote(q, sizeof(q), key), ps->section->name);
	}
	if (ps->set_on[i])
		return parse_fail(ps, "duplicate key '%s' in [%s] (first set on line %u)",
				  key, ps->section->name, ps->set_on[i]);
	if (parse_value(ps, &keys[i], val))
		return -1;
	ps->set_on[i] = ps->line;
	return 0;
}

int hk_config__parse_string(struct hk_config *c, const char *text,
			    const char *name, char *err, size_t err_len)
{
	struct hk_parser ps = {
		.cfg = *c,
		.name = name ? name : "config",
		.err = err,
		.err_len = err_len,
	};
	char *copy, *line, *nl;
	int ret = 0;

	copy = strdup(text ? text : "");
	if (!copy)
		return fail(err, err_len, "%s: out of memory", ps.name);
	line = copy;
	/* a byte order mark some editors write */
	if (!strncmp(line, "\xef\xbb\xbf", 3))
		line += 3;
	while (line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		ps.line++;
		ret = parse_line(&ps, line);
		if (ret)
			break;
		line = nl ? nl + 1 : NULL;
	}
	/* all or nothing: *c changes only when every line parsed */
	if (!ret)
		*c = ps.cfg;
	free(copy);
	return ret;
}

int hk_config__parse_file(struct hk_config *c, const char *path,
			  char *err, size_t err_len)
{
	size_t len = 0, cap = 4096, n;
	char *text, *bigger;
	FILE *f;
	int ret;

	f = fopen(path, "r");
	if (!f)
		return fail(err, err_len, "%s: cannot open: %s", path, strerror(errno));
	text = malloc(cap);
	if (!text) {
		fclose(f);
		return fail(err, err_len, "%s: out of memory", path);
	}
	for (;;) {
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (len > HK_CONFIG_MAX_BYTES || n == 0)
			break;
		if (len + 1 == cap) {
			bigger = realloc(text, cap * 2);
			if (!bigger) {
				ret = fail(err, err_len, "%s: out of memory", path);
				goto out;
			}
			text = bigger;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		ret = fail(err, err_len, "%s: cannot read: %s", path, strerror(errno));
		goto out;
	}
	if (len > HK_CONFIG_MAX_BYTES) {
		ret = fail(err, err_len, "%s: too large (over %d bytes)", path,
			   HK_CONFIG_MAX_BYTES);
		goto out;
	}
	if (memchr(text, '\0', len)) {
		ret = fail(err, err_len, "%s: not a text file (NUL byte)", path);
		goto out;
	}
	text[len] = '\0';
	ret = hk_config__parse_string(c, text, path, err, err_len);
out:
	free(text);
	fclose(f);
	return ret;
}

/* --- checks and derived values ---------------------------------------- */

int hk_config__validate(const struct hk_config *c, char *err, size_t err_len)
{
	char val[32], range[80], span[32];
	const struct hk_key *k;
	size_t i;
	__u64 v;

	/* command-line overrides bypass the parser's range checks */
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		k = &keys[i];
		v = get_field(c, k);
		if (v >= k->min && v <= k->max)
			continue;
		fmt_value(val, sizeof(val), k, v);
		fmt_range(range, sizeof(range), k);
		return fail(err, err_len, "%s.%s %s out of range (%s)",
			    k->section, k->name, val, range);
	}

	/* the trend needs HK_TREND_MIN_SAMPLES points inside its span */
	if (c->oom_trend_span_ns < (HK_TREND_MIN_SAMPLES - 1) * c->interval_ns) {
		fmt_duration_ns(span, sizeof(span), c->oom_trend_span_ns);
		fmt_duration_ns(val, sizeof(val), c->interval_ns);
		return fail(err, err_len,
			    "oom_risk.trend_span %s must cover at least %d intervals of %s",
			    span, HK_TREND_MIN_SAMPLES - 1, val);
	}
	if (c->oom_min_trend_ns > c->oom_trend_span_ns) {
		fmt_duration_ns(val, sizeof(val), c->oom_min_trend_ns);
		fmt_duration_ns(span, sizeof(span), c->oom_trend_span_ns);
		return fail(err, err_len,
			    "oom_risk.min_trend %s is longer than oom_risk.trend_span %s",
			    val, span);
	}
	return 0;
}

void hk_config__derive(struct hk_config *c)
{
	__u64 stride = c->oom_trend_span_ns / (HK_TREND_SLOTS - 1);

	/* spread the ring's samples over the whole span, at most one per
	 * window; half an interval early, so that a window closing a little
	 * before its time still takes its sample */
	if (stride < c->interval_ns)
		stride = c->interval_ns;
	c->trend_stride_ns = stride - c->interval_ns / 2;
	/* a thread that waited what Starved takes: the hook names who
	 * preempts it from the next window on, the one in which it can enter
	 * Starved (a fair share of a busy CPU is never watched: on some hosts
	 * every recorded switch costs ~100 ns) */
	c->watch_wait_pct_x100 = c->starved_wait_pct_x100;
}

/* --- --generate-config ------------------------------------------------ */

static const char generate_header[] =
	"# hotspot-k configuration\n"
	"#\n"
	"# `key = value` lines inside [sections] named after the diagnoses. `#`\n"
	"# starts a comment, to the end of the line; blank lines are ignored.\n"
	"# Keys left out keep their defaults: a file needs only the lines it\n"
	"# changes. This file sets every key, to its current value.\n"
	"#\n"
	"# Values carry units:\n"
	"#   durations  ns, us, ms, s, m, h, d; the unit is required (5s, 250ms)\n"
	"#   sizes      B, KiB, MiB, GiB, TiB; a bare number is bytes (64MiB).\n"
	"#              K, M, G, T and KB, MB, GB, TB are accepted and mean the\n"
	"#              same binary multiples (1M = 1MB = 1MiB = 1048576 bytes)\n"
	"#   shares     percent, two decimals at most; the % is required (12.5%)\n"
	"#   counts     a number, or with k (x 1000) or M (x 1000000) (10k)\n"
	"# A decimal fraction is fine when the result is whole: 1.5s, 1.5GiB.\n"
	"# Rates are per second and shares are of the window, so the thresholds\n"
	"# do not depend on the interval.\n";

static const char *kind_name(enum hk_kind kind)
{
	switch (kind) {
	case HK_KIND_DURATION_NS:
		return "Duration";
	case HK_KIND_DURATION_S:
		return "Duration, in whole seconds";
	case HK_KIND_BYTES:
		return "Size";
	case HK_KIND_PCT:
		return "Percent";
	case HK_KIND_COUNT:
		return "Count";
	case HK_KIND_INT:
		return "Plain number";
	}
	return "";
}

/* Each line of text as a comment. */
static void print_comment(FILE *out, const char *text)
{
	const char *nl;

	for (; *text; text = nl + 1) {
		nl = strchrnul(text, '\n');
		fprintf(out, "# %.*s\n", (int)(nl - text), text);
		if (!*nl)
			break;
	}
}

int hk_config__generate(const struct hk_config *c, FILE *out)
{
	char val[32], def[32], range[80];
	const struct hk_key *k;
	size_t s, i;

	fputs(generate_header, out);
	for (s = 0; s < ARRAY_SIZE(sections); s++) {
		fputs("\n", out);
		print_comment(out, sections[s].help);
		fprintf(out, "[%s]\n", sections[s].name);
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			k = &keys[i];
			if (strcmp(k->section, sections[s].name))
				continue;
			fmt_value(val, sizeof(val), k, get_field(c, k));
			fmt_value(def, sizeof(def), k, k->def);
			fmt_range(range, sizeof(range), k);
			fputs("\n", out);
			print_comment(out, k->help);
			fprintf(out, "# %s, %s. Default: %s.\n", kind_name(k->kind),
				range, def);
			fprintf(out, "%s = %s\n", k->name, val);
		}
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}
