// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_format_hostile.c - what hostile comm and cgroup bytes may and may
 * not do to either line: no terminal control, always valid JSON and UTF-8,
 * nothing written past the buffer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format_fixtures.h"
#include "lib/cut.h"
#include "json_check.h"
#include "text_check.h"
#include "suites.h"

#define RANDOM_COMMS 1000

/* ---- hostile bytes --------------------------------------------------------- */

static void test_hostile_quotes_controls(void)
{
	struct hk_event e;

	ev_starved(&e);
	/* a"b\c ESC LF DEL */
	set_comm(e.comm, "a\"b\\c\x1b\n\x7f");
	set_comm(e.aggressor_comm, "\x1b[2J\t");
	ASSERT_HAS(json(&e, "/x\"y\\z\x01"),
		   "\"comm\":\"a\\\"b\\\\c\\u001b\\u000a\\u007f\",");
	ASSERT_HAS(fmt_out, "\"cgroup\":\"/x\\\"y\\\\z\\u0001\",");
	ASSERT_HAS(fmt_out, "\"aggressor_comm\":\"\\u001b[2J\\u0009\",");

	/* 4 plain, a doubled backslash and 3 escaped bytes take 18 columns:
	 * no padding left */
	ASSERT_STR(human(&e, &ctx_color),
		   H_TIME "   4301 a\"b\\\\c\\x1b\\x0a\\x7f  "
		   "            OK → \033[33mStarved\033[0m         "
		   "thread 4302 waited 97 % of the window for a CPU,"
		   " the process ran 0.8 % · preempted by 4300 (\\x1b[2J\\x09)\n");
	/* the only escape bytes are the label's own */
	CU_ASSERT_PTR_NULL(memchr(human(&e, &ctx_utc), 0x1b, strlen(fmt_out)));
	CU_ASSERT_PTR_EQUAL(strchr(fmt_out, '\n'), fmt_out + strlen(fmt_out) - 1);

	/* Throttled names no other process: its own comm is all there is */
	ev_throttled(&e);
	set_comm(e.comm, "\x1b]0;pwn\x07\"\\");
	ASSERT_STR(human(&e, &ctx_color),
		   /* 4 + 6 + 4 + 1 + 2 bytes: 17 columns, no padding */
		   H_TIME "   4400 \\x1b]0;pwn\\x07\"\\\\  "
		   "            OK → \033[34mThrottled\033[0m       "
		   "its cgroup's CPU quota throttled it 63 % of the window"
		   " · thread 4410 waited 41 % for a CPU, the process ran 200 %"
		   " of a quota of 2 CPUs\n");
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"\\u001b]0;pwn\\u0007\\\"\\\\\",");
}

static void test_hostile_utf8(void)
{
	static const struct {
		const char *comm;
		const char *json;
		const char *human;	/* comm column with its padding */
	} v[] = {
		/* stray bytes */
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"", "\\xff\\xfe        " },
		/* truncated three-byte sequence, at the end and mid-string */
		{ "ab\xe2\x82", "\"ab\\ufffd\\ufffd\"", "ab\\xe2\\x82      " },
		{ "\xe2\x82z", "\"\\ufffd\\ufffdz\"", "\\xe2\\x82z       " },
		/* overlong '/' and overlong NUL */
		{ "\xc0\xaf\xc0\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
		  "\\xc0\\xaf\\xc0\\x80" },
		/* overlong three-byte form */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"",
		  "\\xe0\\x80\\xaf    " },
		/* surrogate U+D800, and beyond U+10FFFF */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"",
		  "\\xed\\xa0\\x80    " },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
		  "\\xf4\\x90\\x80\\x80" },
		/* valid: kept as is, padded by columns, CJK being wide */
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"", "caf\xc3\xa9            " },
		{ "\xe6\x97\xa5\xe6\x9c\xac", "\"\xe6\x97\xa5\xe6\x9c\xac\"",
		  "\xe6\x97\xa5\xe6\x9c\xac            " },
		{ "\xf0\x9f\x98\x80!", "\"\xf0\x9f\x98\x80!\"",
		  "\xf0\x9f\x98\x80!             " },
		/* a C1 control (CSI), and a JavaScript line separator */
		{ "\xc2\x9b" "1m", "\"\\u009b1m\"", "\\xc2\\x9b1m      " },
		{ "\xe2\x80\xa8", "\"\\u2028\"", "\\xe2\\x80\\xa8    " },
		/* what reorders or hides the rest of the line: RLO ("gpj.exe"
		 * shown as "exe.jpg"), an isolate, zero width, a BOM */
		{ "a\xe2\x80\xaegpj", "\"a\xe2\x80\xaegpj\"",
		  "a\\xe2\\x80\\xaegpj" },
		{ "\xe2\x81\xa6x", "\"\xe2\x81\xa6x\"", "\\xe2\\x81\\xa6x   " },
		{ "a\xe2\x80\x8b" "b", "\"a\xe2\x80\x8b" "b\"", "a\\xe2\\x80\\x8b" "b  " },
		{ "\xef\xbb\xbf", "\"\xef\xbb\xbf\"", "\\xef\\xbb\\xbf    " },
		/* valid after invalid: é right after a stray continuation */
		{ "\xa9\xc3\xa9", "\"\\ufffd\xc3\xa9\"", "\\xa9\xc3\xa9           " },
	};
	char want[128];
	struct hk_event e;
	unsigned int i;

	ev_cpu(&e);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		set_comm(e.comm, v[i].comm);
		snprintf(want, sizeof(want), "\"comm\":%s,", v[i].json);
		ASSERT_HAS(json(&e, NULL), want);
		snprintf(want, sizeof(want), "   4250 %s              OK → ",
			 v[i].human);
		ASSERT_HAS(human(&e, &ctx_utc), want);
	}
}

static void test_comm_without_nul(void)
{
	struct hk_event e;

	ev_starved(&e);
	/* 16 bytes, no NUL: the next array must not leak in */
	memcpy(e.comm, "abcdefghijklmnop", HK_COMM_LEN);
	memcpy(e.aggressor_comm, "XYZXYZXYZXYZXYZX", HK_COMM_LEN);
	memcpy(e.victim_comm, "0123456789abcdef", HK_COMM_LEN);
	e.ev.victim_tgid = 9;
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"abcdefghijklmnop\",");
	ASSERT_HAS(fmt_out, "\"aggressor_comm\":\"XYZXYZXYZXYZXYZX\",");
	ASSERT_HAS(fmt_out, "\"victim_comm\":\"0123456789abcdef\",");
	ASSERT_HAS(human(&e, &ctx_utc),
		   "   4301 abcdefghijklmnop  " "            OK → ");
	ASSERT_HAS(fmt_out, "preempted by 4300 (XYZXYZXYZXYZXYZX)\n");

	/* a multi-byte sequence cut by the end of the array */
	memcpy(e.comm, "abcdefghijklmn\xc3\xa9", HK_COMM_LEN);
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"abcdefghijklmn\xc3\xa9\",");
	memcpy(e.comm, "abcdefghijklmno\xc3", HK_COMM_LEN);
	/* even when the next array would complete it */
	memcpy(e.aggressor_comm, "\xa9XYZXYZXYZXYZXY", HK_COMM_LEN);
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"abcdefghijklmno\\ufffd\",");
	ASSERT_HAS(fmt_out, "\"aggressor_comm\":\"\\ufffdXYZXYZXYZXYZXY\",");
	ASSERT_HAS(human(&e, &ctx_utc), " abcdefghijklmno\\xc3  ");
	ASSERT_HAS(fmt_out, "preempted by 4300 (\\xa9XYZXYZXYZXYZXY)\n");

	/* an empty comm */
	memset(e.comm, 0, HK_COMM_LEN);
	memset(e.aggressor_comm, 0, HK_COMM_LEN);
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"\",");
	ASSERT_HAS(fmt_out, "\"aggressor_comm\":\"\",");
	ASSERT_HAS(human(&e, &ctx_utc), "   4301                   ");
	ASSERT_HAS(fmt_out, "preempted by 4300\n");
}

/* ---- buffer bounds ---------------------------------------------------------- */

typedef int (*format_fn)(char *, size_t, const struct hk_event *,
			 const char *, const struct hk_format_ctx *);

static void check_bounds(format_fn fn, const struct hk_event *e,
			 const char *cgroup)
{
	char full[BUF_LEN], buf[BUF_LEN + 64];
	size_t len, i;
	int n, r, bad;

	n = fn(full, sizeof(full), e, cgroup, &ctx_color);
	CU_ASSERT_FATAL(n > 0 && (size_t)n < sizeof(full));
	for (len = 0; len <= (size_t)n + 1; len++) {
		memset(buf, 0xa5, sizeof(buf));
		r = fn(buf, len, e, cgroup, &ctx_color);
		bad = 0;
		for (i = len; i < sizeof(buf); i++)
			bad |= (unsigned char)buf[i] != 0xa5;
		CU_ASSERT_FALSE(bad);
		if (len <= (size_t)n) {
			CU_ASSERT_EQUAL(r, -1);
			if (len)
				CU_ASSERT_EQUAL(buf[0], '\0');
		} else {
			CU_ASSERT_EQUAL(r, n);
			CU_ASSERT_STRING_EQUAL(buf, full);
		}
	}
	CU_ASSERT_EQUAL(fn(NULL, 0, e, cgroup, &ctx_color), -1);
}

static void test_buffer_too_small(void)
{
	struct hk_event e;

	ev_oom(&e);
	set_comm(e.comm, "\xff\"\xe6\x97\xa5\x1b");
	check_bounds(hk_format__human, &e, NULL);
	check_bounds(hk_format__json, &e, "/a\xff\"b");
	ev_noisy(&e);
	e.ns_ino = 1;
	e.ev.thread_queued_pct_x100 = 0xffffffffU;
	check_bounds(hk_format__human, &e, NULL);
	check_bounds(hk_format__json, &e, NULL);
	ev_throttled(&e);
	set_comm(e.comm, "\x7f\xc2\x9b\xf0\x9f\x98\x80");
	check_bounds(hk_format__human, &e, NULL);
	check_bounds(hk_format__json, &e, "/\x01");
}

/* ---- the checkers (tests/common/), and random comms ------------------------- */

/* One JSON object on one newline-terminated line (tests/common/json_check.c). */
static bool json_line_valid(const char *s)
{
	struct tc_json_obj top;
	size_t at;

	return !tc_json_line_bad(s, strlen(s), &top, &at);
}

static bool utf8_valid(const unsigned char *s, size_t n)
{
	size_t bad;

	return tc_utf8_valid((const char *)s, n, &bad);
}

static void test_json_checker(void)
{
	/* the checker itself must be able to fail */
	CU_ASSERT_TRUE(json_line_valid("{\"a\":[1,-0.5,2e+3,true,null,"
				       "\"\\ud83d\\ude00\"]}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1}"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":+1}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":01}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1.}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"\x1b\"}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"\\x41\"}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"\\ud800\"}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"x}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1,}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1}{}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":nul}\n"));
	CU_ASSERT_TRUE(utf8_valid((const unsigned char *)"\xc3\xa9\xf0\x9f\x98\x80", 6));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xc0\xaf", 2));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xed\xa0\x80", 3));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xe2\x82", 2));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xf4\x90\x80\x80", 4));
}

/* xorshift64*: the same sequence on every libc */
static __u64 rng_state = 0x9e3779b97f4a7c15ULL;

static __u32 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (__u32)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

/* Bytes biased towards what breaks printers; a NUL ends the string early. */
static void random_bytes(char *dst, size_t n)
{
	static const char *const pieces[] = {
		"\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xc2\x9b",
		"\xe2\x80\xa8", "\xed\xa0\x80", "\xc0\xaf", "\xe2\x82",
		"\\u0000", "\"", "\\",
	};
	size_t i = 0, k;

	while (i < n) {
		__u32 r = rnd();
		const char *piece;

		switch (r % 8) {
		case 0:
		case 1:
			dst[i++] = (char)(0x20 + r / 8 % 0x5f);
			break;
		case 2:
			dst[i++] = (char)(r / 8 % 0x20);
			break;
		case 3:
		case 4:
			dst[i++] = (char)(0x7f + r / 8 % 0x81);
			break;
		default:
			piece = pieces[r / 8 % (sizeof(pieces) / sizeof(pieces[0]))];
			for (k = 0; piece[k] && i < n; k++)
				dst[i++] = piece[k];
			break;
		}
	}
}

static void test_random_comms(void)
{
	int json_bad = 0, utf8_bad = 0, human_bad = 0;
	char cgroup[65];
	struct hk_event e;
	int i, n;
	size_t k;

	for (i = 0; i < RANDOM_COMMS; i++) {
		ev_starved(&e);
		e.ev.victim_tgid = 1;
		random_bytes(e.comm, HK_COMM_LEN);
		random_bytes(e.aggressor_comm, HK_COMM_LEN);
		random_bytes(e.victim_comm, HK_COMM_LEN);
		random_bytes(cgroup, sizeof(cgroup) - 1);
		cgroup[sizeof(cgroup) - 1] = '\0';

		n = hk_format__json(fmt_out, sizeof(fmt_out), &e, cgroup, &ctx_utc);
		if (n <= 0 || !json_line_valid(fmt_out)) {
			if (!json_bad++)
				dump("invalid JSON", fmt_out);
		}
		if (n <= 0 || !utf8_valid((unsigned char *)fmt_out, (size_t)n))
			utf8_bad++;

		/* the human line: UTF-8, and no control character but its end */
		n = hk_format__human(fmt_out, sizeof(fmt_out), &e, NULL, &ctx_utc);
		if (n <= 0 || !utf8_valid((unsigned char *)fmt_out, (size_t)n)) {
			human_bad++;
			continue;
		}
		for (k = 0; k + 1 < (size_t)n; k++) {
			unsigned char c = (unsigned char)fmt_out[k];

			if (c < 0x20 || c == 0x7f ||
			    (c == 0xc2 && (unsigned char)fmt_out[k + 1] < 0xa0)) {
				if (!human_bad++)
					dump("unsafe human line", fmt_out);
				break;
			}
		}
	}
	CU_ASSERT_EQUAL(json_bad, 0);
	CU_ASSERT_EQUAL(utf8_bad, 0);
	CU_ASSERT_EQUAL(human_bad, 0);
}

/* The JSON string after key in line, its length in *n: NULL when none. */
static const char *json_value(const char *line, const char *key, size_t *n)
{
	const char *v = strstr(line, key), *end;

	if (!v)
		return NULL;
	v += strlen(key);
	for (end = v; *end && *end != '"'; end++)
		if (*end == '\\')
			end++;
	*n = (size_t)(end - v);
	return v;
}

/*
 * A path of any length (nested cgroups with long names of control bytes:
 * anyone with a delegated subtree can make one) takes at most
 * HK_FORMAT_PATH_MAX bytes of the line as written: whole escapes, then
 * "…" and the hash of the whole path, and said to be cut.
 */
static void test_long_cgroup(void)
{
	static char path[3 * HK_FORMAT_CGROUP_MAX + 1];
	char mark[16];
	const char *cg;
	struct hk_event e;
	size_t i, n, escapes = 0;

	ev_starved(&e);
	memset(path, '\x01', sizeof(path) - 1);
	CU_ASSERT_FATAL(hk_format__json(fmt_out, sizeof(fmt_out), &e, path, &ctx_utc) > 0);
	CU_ASSERT_TRUE(json_line_valid(fmt_out));
	ASSERT_HAS(fmt_out, "\",\"cgroup_truncated\":true,\"unit\":\"\",\"container_id\":\"\",\"pod_uid\":\"\",\"quota_cgroup\":\"\",\"mem_high_cgroup\":\"\",\"windows\":");
	cg = json_value(fmt_out, "\"cgroup\":\"", &n);
	CU_ASSERT_FATAL(cg != NULL);
	CU_ASSERT(n <= HK_FORMAT_PATH_MAX);
	while (!strncmp(cg + 6 * escapes, "\\u0001", 6))
		escapes++;
	CU_ASSERT_EQUAL(escapes, (HK_FORMAT_PATH_MAX - HK_CUT_MARK_LEN) / 6);
	snprintf(mark, sizeof(mark), "\xe2\x80\xa6%08x\"",
		 hk_cut__hash(path, sizeof(path) - 1));
	CU_ASSERT_EQUAL(strncmp(cg + 6 * escapes, mark, strlen(mark)), 0);

	/* exactly the maximum: whole; a byte more: cut */
	memset(path, 'a', HK_FORMAT_PATH_MAX);
	path[HK_FORMAT_PATH_MAX] = '\0';
	CU_ASSERT(hk_format__json(fmt_out, sizeof(fmt_out), &e, path, &ctx_utc) > 0);
	ASSERT_HAS(fmt_out, "aaa\",\"cgroup_truncated\":false,");
	path[HK_FORMAT_PATH_MAX] = 'a';
	path[HK_FORMAT_PATH_MAX + 1] = '\0';
	CU_ASSERT(hk_format__json(fmt_out, sizeof(fmt_out), &e, path, &ctx_utc) > 0);
	ASSERT_HAS(fmt_out, "\",\"cgroup_truncated\":true,");

	/* "é" across the cut: left out whole, not made U+FFFD */
	i = HK_FORMAT_PATH_MAX - HK_CUT_MARK_LEN - 1;
	path[i] = '\xc3';
	path[i + 1] = '\xa9';
	CU_ASSERT(hk_format__json(fmt_out, sizeof(fmt_out), &e, path, &ctx_utc) > 0);
	CU_ASSERT_PTR_NULL(strstr(fmt_out, "\\ufffd"));
	cg = json_value(fmt_out, "\"cgroup\":\"", &n);
	for (i = 0; cg[i] == 'a'; i++)
		;
	CU_ASSERT_EQUAL(i, HK_FORMAT_PATH_MAX - HK_CUT_MARK_LEN - 1);
	CU_ASSERT_EQUAL(strncmp(cg + i, "\xe2\x80\xa6", 3), 0);
}

/*
 * The widest line an event can make: an OOM kill, every path (the cgroup,
 * the quota's, memory.high's, the killed memory cgroup) 4096 bytes of
 * \x01, every comm and the unit of \x01, every number at its widest; then a
 * stall's, its three growers' comms of \x01 too. With
 * the journal's "<N>" before it, it fits HK_FORMAT_LINE_MAX (16 KiB), far
 * under journald's LineMax (48 KiB), as JSON and as the human line.
 */
static void test_widest_event(void)
{
	static char path[HK_FORMAT_CGROUP_MAX + 1], line[HK_FORMAT_LINE_MAX];
	struct hk_format_ctx c = ctx_utc;
	struct hk_mem_blame b;
	struct hk_workload wl;
	struct hk_event e;
	int n, i;

	memset(&e, 0xff, sizeof(e));
	e.type = HK_EV_TRANSITION;
	e.from = HK_OOM_RISK;
	e.to = HK_OOM_KILLED;
	e.time_ns = T_MONO_NS;
	memset(e.comm, '\x01', sizeof(e.comm));
	memset(e.aggressor_comm, '\x01', sizeof(e.aggressor_comm));
	memset(e.victim_comm, '\x01', sizeof(e.victim_comm));
	memset(e.oom.memcg_name, '\x01', sizeof(e.oom.memcg_name));
	memset(path, '\x01', sizeof(path) - 1);
	memset(&wl, 0, sizeof(wl));
	memset(wl.unit, '\x01', sizeof(wl.unit) - 1);
	memset(wl.container_id, 'f', sizeof(wl.container_id) - 1);
	memset(wl.pod_uid, 'f', sizeof(wl.pod_uid) - 1);
	c.workload = &wl;
	c.quota_cgroup = c.mem_high_cgroup = c.oom_memcg = path;

	n = hk_format__json(line, sizeof(line), &e, path, &c);
	CU_ASSERT_FATAL(n > 0);
	/* 16 KiB, whatever HK_FORMAT_LINE_MAX says */
	CU_ASSERT(n + strlen("<3>") <= 16384);
	CU_ASSERT_TRUE(json_line_valid(line));
	n = hk_format__human(line, sizeof(line), &e, path, &c);
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT(n + strlen("<3>") <= HK_FORMAT_LINE_MAX);
	/* a stall in reclaim, with three growers of \x01 comms */
	memset(&b, 0xff, sizeof(b));
	b.n = HK_GROWERS;
	for (i = 0; i < HK_GROWERS; i++)
		memset(b.g[i].comm, '\x01', sizeof(b.g[i].comm));
	c.blame = &b;
	c.oom_memcg = NULL;
	e.to = HK_MEM_THRASHING;
	n = hk_format__json(line, sizeof(line), &e, path, &c);
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT(n + strlen("<3>") <= 16384);
	CU_ASSERT_TRUE(json_line_valid(line));
	n = hk_format__human(line, sizeof(line), &e, path, &c);
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT(n + strlen("<3>") <= HK_FORMAT_LINE_MAX);
}

int hk_add_format_hostile_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "hostile quotes and controls", test_hostile_quotes_controls },
		{ "hostile utf-8", test_hostile_utf8 },
		{ "comm without NUL", test_comm_without_nul },
		{ "buffer too small", test_buffer_too_small },
		{ "json checker", test_json_checker },
		{ "random comms", test_random_comms },
		{ "long cgroup path", test_long_cgroup },
		{ "the widest event fits", test_widest_event },
	};

	return HK_ADD_SUITE("format hostile", tests);
}
