/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * format_fixtures.h - what the format suites share: one event per label,
 * the buffer they are formatted into, and assertions that show both
 * strings byte for byte when they differ.
 */
#ifndef HK_TESTS_UNIT_FORMAT_FIXTURES_H
#define HK_TESTS_UNIT_FORMAT_FIXTURES_H

#include <string.h>
#include <CUnit/CUnit.h>
#include "kernel/instance.h"
#include "output/format.h"

#define BUF_LEN HK_FORMAT_LINE_MAX

/* 2026-11-22T05:21:36.123456789Z, seen through a monotonic clock at 5000 s */
#define T_MONO_NS 5000123456789ULL
#define T_OFFSET_NS ((1795324896LL - 5000LL) * 1000000000LL)


/* The time column of every human line, and the start of every JSON line. */
#define H_TIME "05:21:36.123  "
#define J_TIME "{\"time\":\"2026-11-22T05:21:36.123Z\","

extern const struct hk_format_ctx ctx_utc;
extern const struct hk_format_ctx ctx_color;

/* What human() and json() wrote last. */
extern char fmt_out[BUF_LEN];

/* Print s with every byte outside printable ASCII as \xHH. */
void dump(const char *what, const char *s);
/* How many times needle is in s, not overlapping. */
size_t count_str(const char *s, const char *needle);
/* The names in dir (ls -A), sorted, each followed by ' ', into buf. */
void ls_names(const char *dir, char *buf, size_t len);

#define ASSERT_STR(act, exp)						\
	do {								\
		const char *a_ = (act), *e_ = (exp);			\
		if (strcmp(a_, e_)) {					\
			dump("got     ", a_);				\
			dump("expected", e_);				\
		}							\
		CU_ASSERT_STRING_EQUAL(a_, e_);				\
	} while (0)

#define ASSERT_HAS(act, needle)						\
	do {								\
		const char *a_ = (act), *n_ = (needle);			\
		if (!strstr(a_, n_)) {					\
			dump("got      ", a_);				\
			dump("lacks    ", n_);				\
		}							\
		CU_ASSERT_PTR_NOT_NULL(strstr(a_, n_));			\
	} while (0)

#define ASSERT_LACKS(act, needle)					\
	do {								\
		const char *a_ = (act), *n_ = (needle);			\
		if (strstr(a_, n_)) {					\
			dump("got      ", a_);				\
			dump("has      ", n_);				\
		}							\
		CU_ASSERT_PTR_NULL(strstr(a_, n_));			\
	} while (0)

/* HK_COMM_LEN bytes, NUL-terminated only when shorter. */
void set_comm(char *dst, const char *src);

/*
 * A status snapshot over pids and procs (n of each, zeroed): an instance
 * at -i 1s, 57 windows in, driver wq, its latest walk (1 ms) ending at
 * walk_end_ns of the monotonic clock, nothing tracked yet.
 */
void snap_base(struct hk_status_snap *s, __u32 *pids, struct hk_proc *procs, size_t n,
	       __u64 walk_end_ns);

/* A quiet single-threaded process with nothing wrong. */
void ev_base(struct hk_event *e, __u32 tgid, const char *comm, __u32 from,
	     __u32 to);

/* A transition to each label, with evidence that would have caused it. */
void ev_oom(struct hk_event *e);
void ev_thrash(struct hk_event *e);
void ev_throttled(struct hk_event *e);
void ev_starved(struct hk_event *e);
void ev_noisy(struct hk_event *e);
void ev_cpu(struct hk_event *e);
void ev_ok(struct hk_event *e);		/* CPU-bound -> OK */
void ev_exited(struct hk_event *e);	/* OOM risk -> exited */

/* Format into fmt_out, assert it worked, and return fmt_out. */
const char *human(const struct hk_event *e, const struct hk_format_ctx *c);
const char *json(const struct hk_event *e, const char *cgroup);

#endif /* HK_TESTS_UNIT_FORMAT_FIXTURES_H */
