/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * config_fixtures.h - what the config suites share: units, assertions that
 * say what they got and what they wanted, and a config unlike the defaults.
 */
#ifndef HK_TESTS_UNIT_CONFIG_FIXTURES_H
#define HK_TESTS_UNIT_CONFIG_FIXTURES_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "config/config.h"
#include "lib/units.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))


/* The thresholds: everything before the derived and environment fields. */
#define THRESH_LEN offsetof(struct hk_config, trend_stride_ns)

static inline void check_u64(__u64 got, __u64 want, const char *what,
			     unsigned int line)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s: got %llu, expected %llu", what,
		 (unsigned long long)got, (unsigned long long)want);
	CU_assertImplementation(got == want, line, msg, __FILE__, "", CU_FALSE);
}

static inline void check_str(const char *got, const char *want,
			     const char *what, unsigned int line)
{
	char msg[2048];

	snprintf(msg, sizeof(msg), "%s: got \"%s\", expected \"%s\"", what,
		 got, want);
	CU_assertImplementation(!strcmp(got, want), line, msg, __FILE__, "",
				CU_FALSE);
}

static inline void check_true(int ok, const char *what, unsigned int line)
{
	CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, what, __FILE__, "",
				CU_FALSE);
}

#define CHECK_U64(got, want) check_u64((got), (want), #got, __LINE__)
#define CHECK_STR(got, want) check_str((got), (want), #got, __LINE__)

/* A config whose every field differs from the defaults, and from zero. */
static inline void other_config(struct hk_config *c)
{
	memset(c, 0, sizeof(*c));
	c->interval_ns = 1 * HK_NSEC_PER_SEC;
	c->enter_windows = 5;
	c->exit_windows = 6;
	c->oom_trend_span_ns = 60 * HK_NSEC_PER_SEC;
	c->oom_min_trend_ns = 2 * HK_NSEC_PER_SEC;
	c->oom_min_growth_bytes = 1 * HK_MIB;
	c->oom_steady_pct_x100 = 100;
	c->oom_eta_horizon_s = 1;
	c->thrash_major_faults_per_s = 1;
	c->thrash_minor_faults_per_s = 2;
	c->thrash_stall_pct_x100 = 9993;
	c->throttled_pct_x100 = 9994;
	c->starved_wait_pct_x100 = 9999;
	c->noisy_cpu_pct_x100 = 9998;
	c->cpu_thread_pct_x100 = 9997;
	c->cpu_total_pct_x100 = 9996;
	c->cpu_max_faults_per_s = 3;
	c->mem_high_usage_pct_x100 = 9993;
	c->mem_high_non_cache_pct_x100 = 9992;
	c->mem_high_events_per_s = 4;
	c->mem_high_faults_per_s = 5;
	c->trend_stride_ns = 7;
	c->watch_wait_pct_x100 = 8;
	c->nr_cpus = 64;
	c->total_ram_bytes = 256 * HK_GIB;
	c->page_size_bytes = 4096;
	c->hook = 1;
	c->pidns_ino = 4026531836ULL;
}

/* hk_config__generate() into a string; the caller frees it. */
static inline char *generate(const struct hk_config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (hk_config__generate(c, f)) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}

#endif /* HK_TESTS_UNIT_CONFIG_FIXTURES_H */
