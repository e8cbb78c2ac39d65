// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_flame_caps.c - what a profile may write (flamegraph.h, cap.c):
 * the folded file fitted to HK_FLAME_FOLDED_MAX_BYTES by merging the
 * lightest subtrees into "[other]" with every microsecond kept, and the
 * SVG's frames and bytes capped, worst-case escaping included, each cap
 * said. The trees are the second security review's (M3): 100k distinct
 * deep stacks with 150-byte names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flame/flamegraph.h"
#include "format_fixtures.h"
#include "suites.h"

#define STACK(...) ((const char *const[]){ __VA_ARGS__ })
#define NFRAMES(...) (sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))
#define ADD(f, us, off, ...) \
	CU_ASSERT_EQUAL(hk_flame__add((f), STACK(__VA_ARGS__), NFRAMES(__VA_ARGS__), (us), (off)), 0)

/* f's folded (svg 0) or SVG text, its length in len. */
static char *written(const struct hk_flame *f, int svg, size_t *len)
{
	struct hk_flame_svg_opts o = { .title = "t" };
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(svg ? hk_flame__write_svg_opts(f, m, &o) : hk_flame__write_folded(f, m),
			0);
	fclose(m);
	return buf;
}

/* The lighter two of three merged: their on- and off-CPU time under one
 * "[other]", exactly; a cap already met changes nothing. */
static void test_merge_exact(void)
{
	struct hk_flame *f = hk_flame__new();
	char *text;
	size_t len;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ADD(f, 5, 0, "main", "a");
	ADD(f, 1, 0, "main", "bbbbbbbbbbbbbbbbbbbb");
	ADD(f, 2, 1, "main", "cccccccccccccccccccc");
	CU_ASSERT_EQUAL(hk_flame__cap_folded(f, 132), 0);
	/* ";[other]" and ";[other];[off-cpu]" in place of b's and c's lines */
	CU_ASSERT_EQUAL(hk_flame__cap_folded(f, 110), 1);
	text = written(f, 0, &len);
	ASSERT_STR(text, "main;[other] 1\nmain;[other];[off-cpu] 2\nmain;a 5\n");
	free(text);
	CU_ASSERT_EQUAL(hk_flame__total_us(f, 0), 6);
	CU_ASSERT_EQUAL(hk_flame__total_us(f, 1), 2);
	/* a frame of the process's own named "[other]" is merged, not doubled */
	hk_flame__free(f);
	f = hk_flame__new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ADD(f, 50, 0, "main", "[other]", "x");
	ADD(f, 60, 0, "main", "y");
	ADD(f, 1, 0, "main", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
	CU_ASSERT_EQUAL(hk_flame__cap_folded(f, 62), 2);
	text = written(f, 0, &len);
	ASSERT_STR(text, "main;[other] 51\nmain;y 60\n");
	free(text);
	hk_flame__free(f);
}

#define NAME_BYTES	150
#define TRUNK		12
#define FAN		18
#define LEVELS		4	/* 18^4 = 104976 distinct stacks */

/* frame i of a stack: 150 bytes, its place in the name */
static void name_at(char *buf, size_t depth, unsigned int branch, char fill)
{
	int n = snprintf(buf, NAME_BYTES + 1, "f%03zu_%06u_", depth, branch);

	memset(buf + n, fill, NAME_BYTES - (size_t)n);
	buf[NAME_BYTES] = '\0';
}

/*
 * 104976 distinct stacks 16 deep: a 12-frame trunk, then 18 ways at each
 * of 4 levels, every name 150 bytes, a third off-CPU: about 254 MB folded.
 * The folded file stays under its cap, every microsecond in it.
 */
static void test_folded_cap(void)
{
	static char names[TRUNK + LEVELS][NAME_BYTES + 1];
	const char *frames[TRUNK + LEVELS];
	struct hk_flame *f = hk_flame__new();
	__u64 on = 0, off = 0, sum = 0, w;
	unsigned int i, l, b;
	char *text, *p, *sp, *nl;
	size_t len, lines = 0;
	long merged;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (i = 0; i < TRUNK; i++)
		name_at(names[i], i, 0, 'A');
	for (i = 0; i < TRUNK + LEVELS; i++)
		frames[i] = names[i];
	for (i = 0, b = 0; i < FAN * FAN * FAN * FAN; i++) {
		for (l = 0, b = i; l < LEVELS; l++, b /= FAN)
			name_at(names[TRUNK + l], TRUNK + l, b % FAN, 'B');
		w = 1 + (i * 7919u) % 1000;
		CU_ASSERT_EQUAL_FATAL(hk_flame__add(f, frames, TRUNK + LEVELS, w, i % 3 == 0), 0);
		if (i % 3 == 0)
			off += w;
		else
			on += w;
	}
	merged = hk_flame__cap_folded(f, HK_FLAME_FOLDED_MAX_BYTES);
	CU_ASSERT(merged > 0);
	CU_ASSERT_EQUAL(hk_flame__total_us(f, 0), on);
	CU_ASSERT_EQUAL(hk_flame__total_us(f, 1), off);
	text = written(f, 0, &len);
	CU_ASSERT(len <= HK_FLAME_FOLDED_MAX_BYTES);
	/* not merged past need: within a line's bytes of the cap's 7/8 */
	CU_ASSERT(len >= HK_FLAME_FOLDED_MAX_BYTES / 8 * 7);
	/* every line "stack COUNT", the counts summing to every us added */
	/* memchr with lengths: a sanitizer's strchr measures the rest each call */
	for (p = text; p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		sp = memchr(p, ' ', nl ? (size_t)(nl - p) : 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
		CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
		sum += strtoull(sp + 1, NULL, 10);
		lines++;
	}
	CU_ASSERT_EQUAL(sum, on + off);
	CU_ASSERT(count_str(text, ";[other] ") > 0);
	CU_ASSERT(count_str(text, ";[other];[off-cpu] ") > 0);
	printf("\n    folded: %zu bytes, %zu lines, %ld frames merged ", len, lines, merged);
	free(text);
	hk_flame__free(f);
}

/*
 * 5000 stacks 24 frames deep, each of its own weight (all wide enough to
 * draw, 0.23 px): 120000 frames. Short names: the frame cap binds, exactly
 * the 2083 heaviest stacks drawn (1 + 24 * 2083 <= 50000). Names of 150
 * '"' (6 bytes each escaped, twice): the byte cap binds first.
 */
static void svg_cap(char fill, size_t name_bytes)
{
	char names[24][NAME_BYTES + 1], want[160];
	const char *frames[24];
	struct hk_flame *f = hk_flame__new();
	struct hk_flame_svg_opts o = { .title = "t" };
	unsigned int i, d;
	size_t len, drawn, cut;
	char *text;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (d = 0; d < 24; d++)
		frames[d] = names[d];
	for (i = 0; i < 5000; i++) {
		for (d = 0; d < 24; d++) {
			snprintf(names[d], sizeof(names[d]), "s%04u_%02u", i, d);
			memset(names[d] + 8, fill, name_bytes - 8);
			names[d][name_bytes] = '\0';
		}
		CU_ASSERT_EQUAL_FATAL(hk_flame__add(f, frames, 24, 100000 + i, 0), 0);
	}
	cut = hk_flame__svg_cut(f, &o);
	text = written(f, 1, &len);
	drawn = count_str(text, "<g data-x=");
	CU_ASSERT(len <= HK_FLAME_SVG_MAX_BYTES);
	CU_ASSERT(drawn <= HK_FLAME_SVG_MAX_FRAMES);
	CU_ASSERT_EQUAL(drawn + cut, 1 + 5000 * 24);
	/* whole stacks, the heaviest: a drawn frame of each depth per stack */
	CU_ASSERT_EQUAL((drawn - 1) % 24, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "s4999_23"));
	snprintf(want, sizeof(want), "; %zu lighter frames not drawn (a graph draws at most "
		 "%d frames, %llu MiB)</text>", cut, HK_FLAME_SVG_MAX_FRAMES,
		 HK_FLAME_SVG_MAX_BYTES >> 20);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	if (fill != '"')
		CU_ASSERT_EQUAL(drawn, 1 + 24 * 2083);
	printf("\n    svg '%c' x %zu: %zu bytes, %zu frames drawn ", fill, name_bytes, len, drawn);
	free(text);
	hk_flame__free(f);
}

static void test_svg_cap_frames(void)
{
	svg_cap('b', 12);
}

static void test_svg_cap_escaped(void)
{
	svg_cap('"', NAME_BYTES);
}

int hk_add_flame_caps_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "folded: the lighter merged into [other], exactly", test_merge_exact },
		{ "folded: 100k deep stacks of 150-byte names", test_folded_cap },
		{ "svg: at most 50000 frames, the heaviest", test_svg_cap_frames },
		{ "svg: 64 MiB with every name escaped 6x", test_svg_cap_escaped },
	};

	return HK_ADD_SUITE("flame_caps", tests);
}
