// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_flamegraph.c - stacks merged into folded text, byte for byte, and
 * into SVG, checked at the level of its elements: one <rect> per frame,
 * exact hover titles, colours by kind, escaping, labels cut to the box,
 * frames too narrow to draw, the same bytes each time, write errors, and
 * well-formed XML as Python's parser reads it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "flamegraph.h"
#include "frame_name.h"
#include "format_fixtures.h"
#include "suites.h"

#define FFFD "\xef\xbf\xbd"

#define STACK(...) ((const char *const[]){ __VA_ARGS__ })
#define NFRAMES(...) (sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))
#define ADD(f, us, off, ...) \
	CU_ASSERT_EQUAL(hk_flame__add((f), STACK(__VA_ARGS__), NFRAMES(__VA_ARGS__), (us), (off)), 0)

/* What a writer wrote, NUL-terminated, in a buffer the caller frees. */
static char *written(const struct hk_flame *f, int svg, const char *title, const char *sub)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(svg ? hk_flame__write_svg(f, m, title, sub) :
			      hk_flame__write_folded(f, m), 0);
	fclose(m);
	return buf;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* merging, byte order ("foo " < "foo.cold" < "foo;"), the off-CPU leaf, ';' */
static struct hk_flame *sample_graph(void)
{
	struct hk_flame *f = hk_flame__new();

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ADD(f, 100, 0, "main", "foo", "bar");
	ADD(f, 50, 0, "main", "foo");
	ADD(f, 25, 0, "main", "foo", "bar");
	ADD(f, 7, 0, "main", "foo.cold");
	ADD(f, 300, 1, "main", "foo", "read");
	ADD(f, 3, 0, "main", "a;b");
	ADD(f, 4, 0, "main", "x y\tz");
	ADD(f, 0, 0, "main", "never");
	return f;
}

static void test_folded(void)
{
	struct hk_flame *f = sample_graph();
	char *out = written(f, 0, NULL, NULL);

	ASSERT_STR(out,
		   "main;a:b 3\n"
		   "main;foo 50\n"
		   "main;foo.cold 7\n"
		   "main;foo;bar 125\n"
		   "main;foo;read;[off-cpu] 300\n"
		   "main;x_y_z 4\n");
	free(out);
	hk_flame__free(f);

	/* no stack, a NULL frame: "[unknown]"; an empty graph: an empty file */
	f = hk_flame__new();
	out = written(f, 0, NULL, NULL);
	ASSERT_STR(out, "");
	free(out);
	CU_ASSERT_EQUAL(hk_flame__add(f, NULL, 0, 5, 1), 0);
	ADD(f, 2, 0, "main", NULL);
	out = written(f, 0, NULL, NULL);
	ASSERT_STR(out, "[unknown];[off-cpu] 5\nmain;[unknown] 2\n");
	free(out);
	hk_flame__free(f);
	hk_flame__free(NULL);
}

static void test_totals(void)
{
	struct hk_flame *f = sample_graph();

	CU_ASSERT_EQUAL(hk_flame__total_us(f, 0), 189);
	CU_ASSERT_EQUAL(hk_flame__total_us(f, 1), 300);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "foo", 0), 175);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "foo", 1), 300);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "main", 0), 189);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "a;b", 0), 3);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "[off-cpu]", 1), 300);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "nothing", 0), 0);
	hk_flame__free(f);

	/* recursion counts once */
	f = hk_flame__new();
	ADD(f, 10, 0, "a", "b", "a", "c");
	ADD(f, 1, 0, "a", "b");
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "a", 0), 11);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "c", 0), 10);
	hk_flame__free(f);
}

/* A deep stack keeps its leaf end. */
static void test_depth(void)
{
	static const char *frames[HK_FLAME_MAX_DEPTH + 10];
	struct hk_flame *f = hk_flame__new();
	char *out;
	size_t i;

	for (i = 0; i < HK_FLAME_MAX_DEPTH + 10; i++)
		frames[i] = i < 10 ? "lost" : "f";
	frames[HK_FLAME_MAX_DEPTH + 9] = "leaf";
	CU_ASSERT_EQUAL(hk_flame__add(f, frames, HK_FLAME_MAX_DEPTH + 10, 1, 1), 0);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "lost", 1), 0);
	CU_ASSERT_EQUAL(hk_flame__frame_us(f, "leaf", 1), 1);
	out = written(f, 0, NULL, NULL);
	CU_ASSERT_EQUAL(count(out, ";"), HK_FLAME_MAX_DEPTH);
	free(out);
	out = written(f, 1, "deep", "");
	CU_ASSERT_EQUAL(count(out, "<rect"), HK_FLAME_MAX_DEPTH + 2);
	free(out);
	hk_flame__free(f);
}

/* The fill of the frame whose title is exactly title; "" if none. */
static const char *fill_of(const char *svg, const char *title, char *rgb, size_t len)
{
	char key[256];
	const char *p, *q;

	snprintf(key, sizeof(key), "<title>%s</title>", title);
	p = strstr(svg, key);
	p = p ? strstr(p, "fill=\"") : NULL;
	q = p ? strchr(p + 6, '"') : NULL;
	if (!q || (size_t)(q - p - 6) >= len) {
		fprintf(stderr, "no frame titled \"%s\"\n", title);
		return "";
	}
	memcpy(rgb, p + 6, (size_t)(q - p - 6));
	rgb[q - p - 6] = '\0';
	return rgb;
}

static int is_blue(const char *fill)
{
	unsigned int r, g, b;

	return sscanf(fill, "rgb(%u,%u,%u)", &r, &g, &b) == 3 && b > r + 80 && b > g;
}

static int is_warm(const char *fill)
{
	unsigned int r, g, b;

	return sscanf(fill, "rgb(%u,%u,%u)", &r, &g, &b) == 3 && r > b + 60 && r >= g;
}

static void test_svg_frames(void)
{
	struct hk_flame *f = hk_flame__new();
	char rgb[32], *svg;

	ADD(f, 3000, 0, "main", "work");
	ADD(f, 1000, 0, "main", "work", "do_sys_poll_[k]");
	ADD(f, 6000, 1, "main", "wait");
	svg = written(f, 1, "CPU and off-CPU", "pid 42");
	/* all, main, work, do_sys_poll_[k], wait, [off-cpu] */
	CU_ASSERT_EQUAL(count(svg, "<rect"), 6);
	CU_ASSERT_EQUAL(count(svg, "<title>"), 6);
	ASSERT_HAS(svg, "<title>all (10.0 ms, 100.00%)</title>");
	ASSERT_HAS(svg, "<title>main (10.0 ms, 100.00%)</title>");
	ASSERT_HAS(svg, "<title>work (4.0 ms, 40.00%)</title>");
	ASSERT_HAS(svg, "<title>do_sys_poll_[k] (1.0 ms, 10.00%)</title>");
	ASSERT_HAS(svg, "<title>wait (6.0 ms, 60.00%)</title>");
	ASSERT_HAS(svg, "<title>[off-cpu] (6.0 ms, 60.00%)</title>");
	ASSERT_HAS(svg, ">CPU and off-CPU</text>");
	ASSERT_HAS(svg, ">pid 42</text>");
	CU_ASSERT(is_blue(fill_of(svg, "wait (6.0 ms, 60.00%)", rgb, sizeof(rgb))));
	CU_ASSERT(is_blue(fill_of(svg, "[off-cpu] (6.0 ms, 60.00%)", rgb, sizeof(rgb))));
	/* main is 60 % blocked: mostly off-CPU */
	CU_ASSERT(is_blue(fill_of(svg, "main (10.0 ms, 100.00%)", rgb, sizeof(rgb))));
	CU_ASSERT(is_warm(fill_of(svg, "work (4.0 ms, 40.00%)", rgb, sizeof(rgb))));
	CU_ASSERT(is_warm(fill_of(svg, "do_sys_poll_[k] (1.0 ms, 10.00%)", rgb, sizeof(rgb))));
	/* kernel frames have their own shade: pale, blue over 100 */
	CU_ASSERT(atoi(strrchr(rgb, ',') + 1) >= 100);
	ASSERT_LACKS(svg, "<script");
	ASSERT_LACKS(svg, "href");
	free(svg);
	hk_flame__free(f);
}

/* the same name: the same colour, wherever and whatever graph */
static void test_svg_colour_by_name(void)
{
	struct hk_flame *f = hk_flame__new();
	char a[32], b[32], *svg;

	ADD(f, 1000, 0, "x", "memcpy");
	ADD(f, 1000, 0, "y", "memcpy");
	svg = written(f, 1, "t", "s");
	fill_of(svg, "memcpy (1.0 ms, 50.00%)", a, sizeof(a));
	fill_of(strstr(svg, "<title>y "), "memcpy (1.0 ms, 50.00%)", b, sizeof(b));
	ASSERT_STR(a, b);
	free(svg);
	hk_flame__free(f);
}

/* ms and % rounded half up; labels cut with "..", or left out */
static void test_svg_numbers_and_labels(void)
{
	struct hk_flame *f = hk_flame__new();
	char *svg;

	ADD(f, 2, 0, "a");
	ADD(f, 1, 0, "b");
	svg = written(f, 1, "t", "s");
	ASSERT_HAS(svg, "<title>a (0.0 ms, 66.67%)</title>");
	ASSERT_HAS(svg, "<title>b (0.0 ms, 33.33%)</title>");
	free(svg);
	hk_flame__free(f);

	/* 1180 px for 1000 us: 100 us is 118 px, 15 characters of 7.2 px */
	f = hk_flame__new();
	ADD(f, 890, 0, "short");
	ADD(f, 100, 0, "abcdefghijklmnopqrstuvwxyz");
	ADD(f, 10, 0, "tiny_but_drawn");
	svg = written(f, 1, "t", "s");
	ASSERT_HAS(svg, ">short</text>");
	ASSERT_HAS(svg, ">abcdefghijklm..</text>");
	ASSERT_HAS(svg, "<title>tiny_but_drawn (0.0 ms, 1.00%)</title>");
	ASSERT_LACKS(svg, "\">tiny");
	ASSERT_LACKS(svg, "not drawn");
	free(svg);
	hk_flame__free(f);
}

/* 1 us in 1000 s is 0.001 px: not drawn, and said so */
static void test_svg_narrow(void)
{
	struct hk_flame *f = hk_flame__new();
	char *svg;

	ADD(f, 1000000000, 0, "main", "big");
	ADD(f, 1, 0, "main", "small", "smaller");
	svg = written(f, 1, "t", "s");
	CU_ASSERT_EQUAL(count(svg, "<rect"), 3);
	ASSERT_LACKS(svg, "small");
	ASSERT_HAS(svg, "2 frames narrower than 0.1 px not drawn");
	free(svg);
	hk_flame__free(f);
}

static void test_svg_escaping(void)
{
	struct hk_flame *f = hk_flame__new();
	char *svg;

	ADD(f, 1000, 0, "operator<&\"'>");
	svg = written(f, 1, "a<b & \"c\" \x01\xff", "caf\xc3\xa9 >");
	ASSERT_HAS(svg, "<title>operator&lt;&amp;&quot;&apos;&gt; (1.0 ms, 100.00%)</title>");
	ASSERT_HAS(svg, ">operator&lt;&amp;&quot;&apos;&gt;</text>");
	/* a control and a byte outside UTF-8: U+FFFD each */
	ASSERT_HAS(svg, ">a&lt;b &amp; &quot;c&quot; \xef\xbf\xbd\xef\xbf\xbd</text>");
	ASSERT_HAS(svg, ">caf\xc3\xa9 &gt;</text>");
	free(svg);
	hk_flame__free(f);
}

/*
 * Bidi controls and zero-width characters (a name the profiled process
 * chose: its ELF symbols, its perf map) never reach a viewer: in the
 * folded text each of their bytes is '_' (the length stays), in the SVG's
 * own text (title, subtitle) each is U+FFFD. U+202E would show
 * "gpj.exe" as "exe.jpg".
 */
static void test_bidi(void)
{
	struct hk_flame *f = hk_flame__new();
	char name[] = "caf\xc3\xa9\xe2\x80\xae" "gpj.exe";
	char *out;

	/* U+202E RLO, U+200B ZWSP, U+2066 LRI, U+200F RLM, U+FEFF BOM, U+061C
	 * ALM, U+00AD soft hyphen; U+202F (a narrow space, visible) is kept */
	ADD(f, 5, 0, "main", name, "a\xe2\x80\x8b" "b\xe2\x81\xa6" "c\xe2\x80\x8f" "d");
	ADD(f, 7, 1, "\xef\xbb\xbfmain", "x\xd8\x9cy\xc2\xad" "z\xe2\x80\xaf");
	out = written(f, 0, NULL, NULL);
	ASSERT_STR(out,
		   "___main;x__y__z\xe2\x80\xaf;[off-cpu] 7\n"
		   "main;caf\xc3\xa9___gpj.exe;a___b___c___d 5\n");
	free(out);
	hk_frame_name__clean(name);
	ASSERT_STR(name, "caf\xc3\xa9___gpj.exe");
	out = written(f, 1, "pid 1 (\xe2\x80\xae" "gpj.exe)", "\xe2\x81\xa7" "s\xe2\x80\xa8");
	ASSERT_HAS(out, ">pid 1 (" FFFD "gpj.exe)</text>");
	ASSERT_HAS(out, ">" FFFD "s" FFFD "</text>");
	ASSERT_HAS(out, "<title>caf\xc3\xa9___gpj.exe (0.0 ms, ");
	ASSERT_LACKS(out, "\xe2\x80\xae");
	ASSERT_LACKS(out, "\xe2\x80\x8b");
	free(out);
	hk_flame__free(f);
}

static void test_svg_empty_and_deterministic(void)
{
	struct hk_flame *f = hk_flame__new();
	char *a, *b;

	a = written(f, 1, "nothing", NULL);
	CU_ASSERT_EQUAL(count(a, "<rect"), 0);
	ASSERT_HAS(a, "no samples");
	free(a);
	hk_flame__free(f);

	f = sample_graph();
	a = written(f, 1, "t", "s");
	b = written(f, 1, "t", "s");
	ASSERT_STR(a, b);
	free(a);
	free(b);
	a = written(f, 0, NULL, NULL);
	b = written(f, 0, NULL, NULL);
	ASSERT_STR(a, b);
	free(a);
	free(b);
	hk_flame__free(f);
}

static void test_write_errors(void)
{
	struct hk_flame *f = sample_graph();
	FILE *full = fopen("/dev/full", "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(full);
	CU_ASSERT_EQUAL(hk_flame__write_folded(f, full), -ENOSPC);
	clearerr(full);
	CU_ASSERT_EQUAL(hk_flame__write_svg(f, full, "t", "s"), -ENOSPC);
	fclose(full);
	hk_flame__free(f);
}

/* Python's own XML parser reads a hostile graph, when Python is here. */
static void test_svg_well_formed(void)
{
	char path[] = "/tmp/hk-flame-XXXXXX", cmd[256];
	struct hk_flame *f = hk_flame__new();
	int fd, rc;
	FILE *out;

	ADD(f, 500, 0, "main", "a;b<c>&\"d'", "\x01\x1b[31m\xc0\xaf\xed\xa0\x80\xef\xbf\xbf");
	ADD(f, 700, 1, "main", "caf\xc3\xa9\xe2\x80\xae", "\xf4\x90\x80\x80");
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	out = fdopen(fd, "w");
	CU_ASSERT_EQUAL(hk_flame__write_svg(f, out, "\x7f<t>\xc2\x9b", "]]> &#0;"), 0);
	fclose(out);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import sys, xml.dom.minidom as m; "
		 "d = m.parse(sys.argv[1]); sys.exit(len(d.getElementsByTagName(\"rect\")) != 7)' %s",
		 path);
	rc = system(cmd);
	if (rc)
		fprintf(stderr, "%s: exit %d (127: no python3)\n", cmd, rc);
	CU_ASSERT_EQUAL(rc, 0);
	unlink(path);
	hk_flame__free(f);
}

int hk_add_flamegraph_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "folded: merged, byte order, [off-cpu], ';'", test_folded },
		{ "totals and a frame's time", test_totals },
		{ "stacks deeper than the limit", test_depth },
		{ "svg: a rect and a title a frame, colours", test_svg_frames },
		{ "svg: a name keeps its colour", test_svg_colour_by_name },
		{ "svg: ms, %, labels cut", test_svg_numbers_and_labels },
		{ "svg: frames too narrow", test_svg_narrow },
		{ "svg: escaping", test_svg_escaping },
		{ "bidi and zero-width characters", test_bidi },
		{ "svg: empty, the same bytes twice", test_svg_empty_and_deterministic },
		{ "write errors: /dev/full", test_write_errors },
		{ "svg: well-formed XML (python3)", test_svg_well_formed },
	};

	return HK_ADD_SUITE("flamegraph", tests);
}
