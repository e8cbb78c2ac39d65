/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * check.h - CUnit assertions that say what they got and what they wanted,
 * for the classifier suites (test_classify.c, test_vectors.c).
 */
#ifndef HK_TESTS_UNIT_CHECK_H
#define HK_TESTS_UNIT_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "shared/hotspot.h"
#include "vectors/window_vectors.h"

static inline void check_s64(__s64 got, __s64 want, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline void check_s64(__s64 got, __s64 want, unsigned int line, const char *fmt, ...)
{
	char what[512], msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "%s: got %lld, expected %lld", what,
		 (long long)got, (long long)want);
	CU_assertImplementation(got == want, line, msg, __FILE__, "", CU_FALSE);
}

static inline void check_true(int ok, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline void check_true(int ok, unsigned int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, msg, __FILE__, "",
				CU_FALSE);
}

#define EQ(got, want) check_s64((__s64)(got), (__s64)(want), __LINE__, "%s", #got)
#define EQ_U64(got, want) \
	check_true((__u64)(got) == (__u64)(want), __LINE__, "%s: got %llu, expected %llu", \
		   #got, (unsigned long long)(got), (unsigned long long)(want))

/* The labels compared by name in messages. */
static inline void check_label(__u32 got, __u32 want, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline void check_label(__u32 got, __u32 want, unsigned int line, const char *fmt, ...)
{
	char what[512], msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "%s: got %s, expected %s", what,
		 hkv_label_name(got), hkv_label_name(want));
	CU_assertImplementation(got == want, line, msg, __FILE__, "", CU_FALSE);
}

/*
 * Every part of OOM risk at its threshold under c: growing now, steady
 * over a trend of min_trend, min_growth net, ETA at the horizon, and a
 * growth that lasted eta_share of that ETA beyond eta_floor (195 s at the
 * defaults). test_classify.c and test_oom_risk.c break one part each.
 */
static inline void hk_oom_evidence(const struct hk_config *c, struct hk_evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->rss_growth_bytes_per_s = 1;
	ev->trend_samples = HK_TREND_MIN_SAMPLES;
	ev->rss_trend_ms = c->oom_min_trend_ns / HK_NSEC_PER_MSEC;
	ev->trend_grow_pct_x100 = c->oom_steady_pct_x100;
	ev->rss_slope_bytes_per_s = 1;
	ev->rss_net_growth_bytes = (__s64)c->oom_min_growth_bytes;
	ev->eta_s = c->oom_eta_horizon_s;
	ev->rss_growing_ms = (__u32)((c->oom_eta_horizon_s - c->oom_eta_floor_s) *
				     c->oom_eta_share_pct_x100 / 10);
}

/* The window vectors through the reference pipeline (test_vectors.c). */
void hk_test_vectors(void);
void hk_test_vectors_consistent(void);

#endif /* HK_TESTS_UNIT_CHECK_H */
