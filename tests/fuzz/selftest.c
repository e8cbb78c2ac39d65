// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * selftest.c - the checkers must be able to fail: each target runs this
 * once at start, so that a checker broken into accepting everything stops
 * the fuzzing instead of passing it.
 */
#include <string.h>
#include "fuzz.h"
#include "json_check.h"
#include "selftest.h"
#include "text_check.h"

static const char *const utf8_bad[] = {
	"\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
	"\xe2\x82", "\x80", "\xf8\x88\x80\x80\x80", "\xff",
};

static const char *const term_bad[] = {
	"\x1b[31mx\n", "a\rb\n", "\x7f\n", "\xc2\x85\n", "\xe2\x80\xae\n",
	"\xe2\x81\xa6\n", "\xd8\x9c\n", "\xe2\x80\x8f\n", "a\nb\n", "\x1b]0;t\x07\n",
};

static const char *const json_bad[] = {
	"{\"a\":1}", "{\"a\":+1}\n", "{\"a\":01}\n", "{\"a\":1.}\n",
	"{\"a\":\"\x1b\"}\n", "{\"a\":\"\\x41\"}\n", "{\"a\":\"\\ud800\"}\n",
	"{\"a\":\"\\udc00\"}\n", "{\"a\":\"x}\n", "{\"a\":1,}\n", "{\"a\":1}{}\n",
	"{\"a\":nul}\n", "{\"a\":1,\"a\":2}\n", "{\"a\":\"\xc0\xaf\"}\n", "[1]\n",
};

void fz_selftest(void)
{
	struct tc_json_obj top;
	size_t i, at, len;
	const char *v;

	for (i = 0; i < ARRAY_SIZE(utf8_bad); i++)
		FZ_CHECK(!tc_utf8_valid(utf8_bad[i], strlen(utf8_bad[i]), &at),
			 "selftest: bad UTF-8 #%zu accepted", i);
	FZ_CHECK(tc_utf8_valid("\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd", 9, &at),
		 "selftest: good UTF-8 refused");
	for (i = 0; i < ARRAY_SIZE(term_bad); i++)
		FZ_CHECK(tc_term_unsafe(term_bad[i], strlen(term_bad[i]), false, &at),
			 "selftest: unsafe line #%zu accepted", i);
	FZ_CHECK(!tc_term_unsafe("\x1b[1;31mx\x1b[0m \xe2\x86\x92\n", 17, true, &at),
		 "selftest: a coloured line refused");
	FZ_CHECK(tc_term_unsafe("\x1b[1;31mx\n", 9, false, &at),
		 "selftest: colour accepted without color");
	for (i = 0; i < ARRAY_SIZE(json_bad); i++)
		FZ_CHECK(tc_json_line_bad(json_bad[i], strlen(json_bad[i]), &top, &at),
			 "selftest: bad JSON #%zu accepted", i);
	v = "{\"a\":[1,-0.5,2e+3,true,null,{}],\"b\":\"\\ud83d\\ude00\\u00e9\\/\",\"c\":null}\n";
	FZ_CHECK(!tc_json_line_bad(v, strlen(v), &top, &at), "selftest: good JSON refused");
	FZ_CHECK(top.n == 3 && (v = tc_json_get(&top, "c", &len)) &&
		 tc_json_is(v, len, "null"), "selftest: members not found");
}
