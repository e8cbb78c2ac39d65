// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * fuzz_json.c - libFuzzer target: hk_format__json() on any event, path
 * and context. Every line must be one strict JSON object in strict UTF-8,
 * whatever bytes the comms and the path hold, and say what the event says
 * where it can be checked without a second formatter: the pid, the path
 * (null when there is none, cut to HK_FORMAT_PATH_MAX bytes as written),
 * the ETA.
 */
#include <stdint.h>
#include <string.h>
#include "format_check.h"
#include "fuzz.h"
#include "json_check.h"
#include "selftest.h"
#include "text_check.h"

/* The value of key, which must be there. */
static const char *member(const struct tc_json_obj *o, const char *key,
			  size_t *len, const char *line, size_t n)
{
	const char *v = tc_json_get(o, key, len);

	if (!v)
		fz_dump("line", line, n);
	FZ_CHECK(v, "no \"%s\"", key);
	return v;
}

static void check_members(const struct fz_event *fe, const struct tc_json_obj *o,
			  const char *line, size_t n)
{
	char want[32];
	const char *v;
	size_t len;

	snprintf(want, sizeof(want), "%u", fe->e.tgid);
	v = member(o, "pid", &len, line, n);
	FZ_CHECK(tc_json_is(v, len, want), "\"pid\" is %.*s, not %s", (int)len, v, want);

	v = member(o, "cgroup", &len, line, n);
	FZ_CHECK(tc_json_is(v, len, "null") == !fe->cgroup,
		 "\"cgroup\" is %.*s with a path of %s", (int)(len > 40 ? 40 : len),
		 v, fe->cgroup ? "some bytes" : "NULL");
	/* a path's bytes as written, quotes included: HK_FORMAT_PATH_MAX + 2 */
	if (fe->cgroup)
		FZ_CHECK(len <= HK_FORMAT_PATH_MAX + 2, "\"cgroup\" takes %zu bytes", len);
	v = member(o, "cgroup_truncated", &len, line, n);
	/* each byte is written as one or more: a longer path is always cut */
	if (fe->cgroup_len > HK_FORMAT_PATH_MAX)
		FZ_CHECK(tc_json_is(v, len, "true"),
			 "\"cgroup_truncated\" is %.*s for a path of %zu bytes",
			 (int)len, v, fe->cgroup_len);

	v = member(o, "eta_s", &len, line, n);
	FZ_CHECK(tc_json_is(v, len, "null") == (fe->e.ev.eta_s == (__u64)HK_ETA_NONE),
		 "\"eta_s\" is %.*s for %llu", (int)len, v,
		 (unsigned long long)fe->e.ev.eta_s);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_selftest();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_json_obj top;
	struct fz_event fe;
	const char *why;
	size_t n, at;
	const char *line;

	fz_event__decode(&fe, data, size);
	line = fz_format__line(hk_format__json, &fe, &n);
	if (!tc_utf8_valid(line, n, &at)) {
		fz_dump("line", line, n);
		FZ_CHECK(0, "not UTF-8 at byte %zu", at);
	}
	why = tc_json_line_bad(line, n, &top, &at);
	if (why)
		fz_dump("line", line, n);
	FZ_CHECK(!why, "not one JSON object: %s at byte %zu", why, at);
	check_members(&fe, &top, line, n);
	fz_format__sweep(hk_format__json, &fe, line, n);
	fz_event__free(&fe);
	return 0;
}
