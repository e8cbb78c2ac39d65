// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * fuzz_units.c - libFuzzer target: hk_units__parse() of any text as every
 * kind of value, and hk_units__print() of any value.
 *
 * A value that parses prints as text that parses back to the very same
 * value (the config file's round trip rests on it); one that does not
 * parse says why in one line. Any value a kind can hold prints as text that
 * parses back to it. The shorthands agree with hk_units__parse().
 */
#include <stdint.h>
#include <string.h>
#include "fuzz.h"
#include "lib/units.h"

#define PRINT_LEN 32

static const char *const kind_names[] = {
	"duration_ns", "duration_s", "bytes", "pct_x100", "count", "int",
};

_Static_assert(ARRAY_SIZE(kind_names) == HK_UNIT_INT + 1, "a name for every kind");

/* The largest value each kind can hold: what parses, scaled. */
static const __u64 kind_max[] = {
	[HK_UNIT_DURATION_NS] = UINT64_MAX,
	[HK_UNIT_DURATION_S] = UINT64_MAX / HK_NSEC_PER_SEC,
	[HK_UNIT_BYTES] = UINT64_MAX,
	[HK_UNIT_PCT_X100] = UINT32_MAX,
	[HK_UNIT_COUNT] = UINT64_MAX,
	[HK_UNIT_INT] = UINT32_MAX,
};

/* v printed as kind parses back to v. */
static void check_print(enum hk_unit_kind kind, __u64 v)
{
	char buf[PRINT_LEN + 8], why[128];
	__u64 back = 0;
	size_t n;

	memset(buf, 'Z', sizeof(buf));
	hk_units__print(buf, PRINT_LEN, kind, v);
	n = strnlen(buf, PRINT_LEN);
	FZ_CHECK(n < PRINT_LEN - 1, "%s %llu: printed %zu bytes or more, cut",
		 kind_names[kind], (unsigned long long)v, n);
	FZ_CHECK(buf[PRINT_LEN] == 'Z', "%s: wrote past the buffer", kind_names[kind]);
	FZ_CHECK(!hk_units__parse(buf, kind, &back, why, sizeof(why)),
		 "%s %llu prints as \"%s\", which does not parse: %s",
		 kind_names[kind], (unsigned long long)v, buf, why);
	FZ_CHECK(back == v, "%s %llu prints as \"%s\", which parses as %llu",
		 kind_names[kind], (unsigned long long)v, buf,
		 (unsigned long long)back);
}

/* The shorthand for kind, where there is one, says what the parser says. */
static void check_shorthand(const char *s, enum hk_unit_kind kind, int ret, __u64 v)
{
	__u64 v64 = 0;
	__u32 v32 = 0;
	int r;

	switch (kind) {
	case HK_UNIT_DURATION_NS:
		r = hk_units__parse_duration_ns(s, &v64);
		break;
	case HK_UNIT_BYTES:
		r = hk_units__parse_bytes(s, &v64);
		break;
	case HK_UNIT_COUNT:
		r = hk_units__parse_count(s, &v64);
		break;
	case HK_UNIT_PCT_X100:
		r = hk_units__parse_pct_x100(s, &v32);
		v64 = v32;
		break;
	default:
		return;
	}
	FZ_CHECK(r == ret && (ret || v64 == v), "%s: the shorthand returns %d "
		 "(%llu), hk_units__parse %d (%llu)", kind_names[kind], r,
		 (unsigned long long)v64, ret, (unsigned long long)v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[128], *s;
	__u64 v, raw = 0;
	unsigned int k;
	size_t n;
	int ret;

	s = malloc(size + 1);
	FZ_CHECK(s, "out of memory");
	memcpy(s, data, size);
	s[size] = '\0';
	memcpy(&raw, data, size < sizeof(raw) ? size : sizeof(raw));

	for (k = 0; k < ARRAY_SIZE(kind_names); k++) {
		v = 0;
		memset(why, 'Z', sizeof(why));
		ret = hk_units__parse(s, k, &v, why, sizeof(why));
		FZ_CHECK(ret == 0 || ret == -1, "%s: returned %d", kind_names[k], ret);
		check_shorthand(s, k, ret, v);
		if (!ret) {
			FZ_CHECK(v <= kind_max[k], "%s: %llu is more than the kind holds",
				 kind_names[k], (unsigned long long)v);
			check_print(k, v);
		} else {
			n = strnlen(why, sizeof(why));
			FZ_CHECK(n && n < sizeof(why), "%s: no reason given", kind_names[k]);
			FZ_CHECK(!memchr(why, '\n', n), "%s: the reason is not one line",
				 kind_names[k]);
		}
		/* the first bytes as a value, brought into the kind's range */
		check_print(k, kind_max[k] == UINT64_MAX ? raw : raw % (kind_max[k] + 1));
	}
	free(s);
	return 0;
}
