// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * units.c - values with units, parsed and printed exactly.
 *
 * A number is parsed as integer and fraction digits and scaled with integer
 * arithmetic only, so that 1.5GiB is exact and what is printed parses back
 * to the very same bits.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "msg.h"
#include "units.h"

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
	{ "ns", 1 }, { "us", HK_NSEC_PER_USEC }, { "ms", HK_NSEC_PER_MSEC },
	{ "s", HK_NSEC_PER_SEC }, { "m", HK_NSEC_PER_MIN },
	{ "h", HK_NSEC_PER_HOUR }, { "d", HK_NSEC_PER_DAY }, { NULL, 0 },
};

/* K, M, G, T and KB ... TB are the binary multiples too: no 1000s here. */
static const struct hk_unit byte_units[] = {
	{ "", 1 }, { "B", 1 },
	{ "KiB", HK_KIB }, { "K", HK_KIB }, { "KB", HK_KIB },
	{ "MiB", HK_MIB }, { "M", HK_MIB }, { "MB", HK_MIB },
	{ "GiB", HK_GIB }, { "G", HK_GIB }, { "GB", HK_GIB },
	{ "TiB", HK_TIB }, { "T", HK_TIB }, { "TB", HK_TIB },
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
	char q[HK_QUOTE_BUF];
	char *end;

	if (!s || !*s)
		return hk_msg__fail(why, why_len, "empty value");
	if (*s == '-')
		return hk_msg__fail(why, why_len, "negative values are not allowed");
	if (!isdigit((unsigned char)*s))
		return hk_msg__fail(why, why_len, "not a number");
	errno = 0;
	whole = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return hk_msg__fail(why, why_len, "too large");
	p = end;
	if (*p == '.') {
		frac = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		frac_digits = p - frac;
		if (!frac_digits)
			return hk_msg__fail(why, why_len, "digits expected after '.'");
	}
	while (*p == ' ' || *p == '\t')
		p++;
	for (u = sc->units; u->name; u++)
		if (!strcmp(p, u->name))
			break;
	if (!u->name) {
		if (!*p)
			return hk_msg__fail(why, why_len, "%s", sc->missing);
		return hk_msg__fail(why, why_len, "unknown unit '%s' (%s)",
			    hk_msg__quote(q, sizeof(q), p), sc->hint);
	}

	/* trailing zeros do not change the value */
	while (frac_digits && frac[frac_digits - 1] == '0')
		frac_digits--;
	if (frac_digits > 18)
		return hk_msg__fail(why, why_len, "too many decimals");
	for (i = 0; i < frac_digits; i++) {
		frac_val = frac_val * 10 + (frac[i] - '0');
		pow10 *= 10;
	}

	if (__builtin_mul_overflow(whole, u->mult, &v))
		return hk_msg__fail(why, why_len, "too large");
	if (frac_digits) {
		/*
		 * frac_val / pow10 * mult is whole exactly when pow10 / g
		 * divides frac_val, g = gcd(pow10, mult): no overflow on the way.
		 */
		den = pow10 / gcd_u64(pow10, u->mult);
		if (frac_val % den)
			return hk_msg__fail(why, why_len, "%s", sc->inexact);
		if (__builtin_mul_overflow(frac_val / den, u->mult / (pow10 / den),
					   &part) ||
		    __builtin_add_overflow(v, part, &v))
			return hk_msg__fail(why, why_len, "too large");
	}
	if (v > sc->max)
		return hk_msg__fail(why, why_len, "too large");
	*out = v;
	return 0;
}

static const struct hk_scale *scale_of(enum hk_unit_kind kind)
{
	switch (kind) {
	case HK_UNIT_DURATION_NS:
	case HK_UNIT_DURATION_S:
		return &duration_scale;
	case HK_UNIT_BYTES:
		return &bytes_scale;
	case HK_UNIT_PCT_X100:
		return &pct_scale;
	case HK_UNIT_COUNT:
		return &count_scale;
	default:
		break;
	}
	return &int_scale;
}

int hk_units__parse(const char *s, enum hk_unit_kind kind, __u64 *out,
		    char *why, size_t why_len)
{
	__u64 v;

	if (hk_units__is_text(kind))
		return hk_msg__fail(why, why_len, "not a number");
	if (parse_scaled(s, scale_of(kind), &v, why, why_len))
		return -1;
	if (kind == HK_UNIT_DURATION_S) {
		if (v % HK_NSEC_PER_SEC)
			return hk_msg__fail(why, why_len, "not a whole number of seconds");
		v /= HK_NSEC_PER_SEC;
	}
	*out = v;
	return 0;
}

int hk_units__parse_duration_ns(const char *s, __u64 *out)
{
	return hk_units__parse(s, HK_UNIT_DURATION_NS, out, NULL, 0);
}

int hk_units__parse_bytes(const char *s, __u64 *out)
{
	return hk_units__parse(s, HK_UNIT_BYTES, out, NULL, 0);
}

int hk_units__parse_pct_x100(const char *s, __u32 *out)
{
	__u64 v;

	if (hk_units__parse(s, HK_UNIT_PCT_X100, &v, NULL, 0))
		return -1;
	*out = (__u32)v;
	return 0;
}

int hk_units__parse_count(const char *s, __u64 *out)
{
	return hk_units__parse(s, HK_UNIT_COUNT, out, NULL, 0);
}

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
		{ "d", HK_NSEC_PER_DAY }, { "h", HK_NSEC_PER_HOUR }, { "m", HK_NSEC_PER_MIN },
		{ "s", HK_NSEC_PER_SEC }, { "ms", HK_NSEC_PER_MSEC }, { "us", HK_NSEC_PER_USEC },
		{ "ns", 1 }, { NULL, 0 },
	};

	if (!v)
		snprintf(buf, len, "0s");
	else
		fmt_multiple(buf, len, v, units);
}

void hk_units__print(char *buf, size_t len, enum hk_unit_kind kind, __u64 v)
{
	static const struct hk_unit s_units[] = {
		{ "d", 86400 }, { "h", 3600 }, { "m", 60 }, { "s", 1 },
		{ NULL, 0 },
	};
	static const struct hk_unit b_units[] = {
		{ "TiB", HK_TIB }, { "GiB", HK_GIB }, { "MiB", HK_MIB }, { "KiB", HK_KIB },
		{ "B", 1 }, { NULL, 0 },
	};
	unsigned long long ull = v;

	switch (kind) {
	case HK_UNIT_DURATION_NS:
		fmt_duration_ns(buf, len, v);
		break;
	case HK_UNIT_DURATION_S:
		fmt_multiple(buf, len, v, s_units);
		break;
	case HK_UNIT_BYTES:
		fmt_multiple(buf, len, v, b_units);
		break;
	case HK_UNIT_PCT_X100:
		/* as few decimals as the value needs: 50%, 12.5%, 0.01% */
		if (ull % 100 == 0)
			snprintf(buf, len, "%llu%%", ull / 100);
		else if (ull % 10 == 0)
			snprintf(buf, len, "%llu.%llu%%", ull / 100, ull % 100 / 10);
		else
			snprintf(buf, len, "%llu.%02llu%%", ull / 100, ull % 100);
		break;
	case HK_UNIT_COUNT:
	case HK_UNIT_INT:
		snprintf(buf, len, "%llu", ull);
		break;
	default:
		/* text kinds: config/filter.c prints them */
		snprintf(buf, len, "%s", "");
		break;
	}
}
