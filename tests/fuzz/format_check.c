// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * format_check.c - the buffer contract of hk_format__human/json, checked
 * the same way for both.
 */
#include <stdlib.h>
#include <string.h>
#include <sanitizer/asan_interface.h>
#include "format_check.h"
#include "fuzz.h"
#include "text_check.h"

#define CANARY 0xa5
#define CANARY_LEN 32
/*
 * Every length costs a call: one input in four whose line is short is
 * tried at every length, the others at both ends and at a spread of
 * lengths between that the input's seed moves, so that inputs together
 * cover every length with a third of the calls (a 200-byte line: 68 on
 * average instead of 202).
 */
#define SWEEP_ALL 512
#define SWEEP_ENDS 4
#define SWEEP_SPREAD 16

const char *fz_format__line(fz_format_fn fn, const struct fz_event *fe, size_t *n)
{
	/* one allocation for the whole run: a fresh 32 KiB one each time
	 * cost ASan's fills and page faults a third of the run (perf) */
	static char *buf;
	const char *bad;
	int ret;

	if (!buf)
		buf = malloc(HK_FORMAT_LINE_MAX);
	FZ_CHECK(buf, "out of memory");
	ret = fn(buf, HK_FORMAT_LINE_MAX, &fe->e, fe->cgroup, &fe->ctx);
	FZ_CHECK(ret > 0, "returned %d with a buffer of HK_FORMAT_LINE_MAX (%d) "
		 "bytes, cgroup of %zu bytes", ret, HK_FORMAT_LINE_MAX,
		 fe->cgroup_len);
	bad = tc_line_bad(buf, ret);
	if (bad)
		fz_dump("line", buf, (size_t)ret + 1);
	FZ_CHECK(!bad, "not one line: %s", bad);
	*n = (size_t)ret;
	return buf;
}

/*
 * The buffer of each try ends CANARY_LEN bytes before the end of one
 * arena, and what lies before it is poisoned: ASan sees a byte written on
 * either side, the canary a byte written past len. One arena, not a
 * malloc() per try: ASan's quarantine made every try fault in fresh pages.
 */
#define ARENA_LEN (HK_FORMAT_LINE_MAX + CANARY_LEN)

static void try_len(fz_format_fn fn, const struct fz_event *fe,
		    const char *line, size_t n, size_t len)
{
	static char *arena;
	size_t i, before;
	char *buf;
	int ret;

	if (!arena)
		arena = malloc(ARENA_LEN);
	FZ_CHECK(arena, "out of memory");
	FZ_CHECK(len <= HK_FORMAT_LINE_MAX, "len %zu: larger than the arena", len);
	before = ARENA_LEN - CANARY_LEN - len;
	buf = arena + before;
	memset(buf, CANARY, len + CANARY_LEN);
	ASAN_POISON_MEMORY_REGION(arena, before);
	ret = fn(buf, len, &fe->e, fe->cgroup, &fe->ctx);
	ASAN_UNPOISON_MEMORY_REGION(arena, before);
	for (i = len; i < len + CANARY_LEN; i++)
		FZ_CHECK((unsigned char)buf[i] == CANARY,
			 "len %zu (line %zu): byte %zu past the end written",
			 len, n, i - len);
	if (len <= n) {
		FZ_CHECK(ret == -1, "len %zu, line of %zu bytes: returned %d",
			 len, n, ret);
		FZ_CHECK(!len || buf[0] == '\0',
			 "len %zu, line of %zu bytes: -1 but buf[0] is 0x%02x",
			 len, n, (unsigned char)buf[0]);
	} else {
		FZ_CHECK(ret >= 0 && (size_t)ret == n,
			 "len %zu, line of %zu bytes: returned %d", len, n, ret);
		FZ_CHECK(!memcmp(buf, line, n + 1),
			 "len %zu: not the same line as with a large buffer", len);
	}
}

void fz_format__sweep(fz_format_fn fn, const struct fz_event *fe,
		      const char *line, size_t n)
{
	size_t len, span, i;

	/* no buffer at all */
	FZ_CHECK(fn(NULL, 0, &fe->e, fe->cgroup, &fe->ctx) == -1,
		 "a NULL buffer of 0 bytes did not give -1");
	if ((n + 2 <= SWEEP_ALL && !(fe->sweep_seed & 3)) ||
	    n + 2 <= 2 * SWEEP_ENDS + SWEEP_SPREAD) {
		for (len = 0; len <= n + 1; len++)
			try_len(fn, fe, line, n, len);
		return;
	}
	for (len = 0; len < SWEEP_ENDS; len++)
		try_len(fn, fe, line, n, len);
	for (len = n + 2 - SWEEP_ENDS; len <= n + 1; len++)
		try_len(fn, fe, line, n, len);
	span = n + 2 - 2 * SWEEP_ENDS;
	for (i = 0; i < SWEEP_SPREAD; i++)
		try_len(fn, fe, line, n, SWEEP_ENDS +
			(span * i / SWEEP_SPREAD + fe->sweep_seed * 7919U) % span);
}
