// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * fuzz_human.c - libFuzzer target: hk_format__human() on any event, path
 * and context. The line a terminal shows must be one line of strict UTF-8
 * with nothing in it that drives the terminal (C0, DEL, C1; colour only
 * as "\033[...m" and only when asked) or reorders what it shows (bidi
 * controls): a process names itself, so its comm is hostile.
 */
#include <stdint.h>
#include "format_check.h"
#include "fuzz.h"
#include "selftest.h"
#include "text_check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fz_selftest();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_event fe;
	const char *why;
	size_t n, at;
	const char *line;

	fz_event__decode(&fe, data, size);
	line = fz_format__line(hk_format__human, &fe, &n);
	if (!tc_utf8_valid(line, n, &at)) {
		fz_dump("line", line, n);
		FZ_CHECK(0, "not UTF-8 at byte %zu", at);
	}
	why = tc_term_unsafe(line, n, fe.ctx.color, &at);
	if (why)
		fz_dump("line", line, n);
	FZ_CHECK(!why, "%s at byte %zu (color %d)", why, at, fe.ctx.color);
	fz_format__sweep(hk_format__human, &fe, line, n);
	fz_event__free(&fe);
	return 0;
}
