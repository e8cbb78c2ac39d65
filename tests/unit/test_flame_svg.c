// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_flame_svg.c - the flame graph's script (svg_script.c) and what it
 * reads: in the SVG once, in one intact CDATA section after the frames,
 * never with a name in it, whatever the names; each frame's exact weights
 * and depth in data- attributes; the unit a caller gives. Then the script
 * itself, run in node on the parsed SVG (test_flame_svg_run.py and
 * test_flame_svg_dom.js): zoom, reset, search with the matched share,
 * hover, on a known tree, line by line, and on hostile names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "flame/flamegraph.h"
#include "flame/svg_script.h"
#include "format_fixtures.h"
#include "suites.h"

#define STACK(...) ((const char *const[]){ __VA_ARGS__ })
#define NFRAMES(...) (sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *))
#define ADD(f, us, off, ...) \
	CU_ASSERT_EQUAL(hk_flame__add((f), STACK(__VA_ARGS__), NFRAMES(__VA_ARGS__), (us), (off)), 0)

static char *svg_of(const struct hk_flame *f, const struct hk_flame_svg_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(hk_flame__write_svg_opts(f, m, o), 0);
	fclose(m);
	return buf;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strcasestr(s, needle))) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/*
 * 8 ms: a (2 ms, b above it), b (1 ms, b above it: a nested match),
 * c (5 ms, "tiny(leaf)" above it: 10 us, 1.475 px, too narrow for a label).
 */
static struct hk_flame *known_tree(void)
{
	struct hk_flame *f = hk_flame__new();

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ADD(f, 2000, 0, "main", "a", "b");
	ADD(f, 1000, 0, "main", "b", "b");
	ADD(f, 4990, 0, "main", "c");
	ADD(f, 10, 0, "main", "c", "tiny(leaf)");
	return f;
}

/*
 * The output of test_flame_svg_run.py on f's SVG with steps (shell words,
 * quoted by the caller); NULL, said on stderr, if it failed.
 */
static char *play(const struct hk_flame *f, const struct hk_flame_svg_opts *o, const char *steps)
{
	char path[] = "/tmp/hk-flame-svg-XXXXXX", cmd[1024];
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];
	FILE *out, *p, *m;
	int fd, rc;

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	out = fdopen(fd, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(hk_flame__write_svg_opts(f, out, o), 0);
	fclose(out);
	/* run from the source tree's top, as make runs the unit tests */
	snprintf(cmd, sizeof(cmd), "python3 tests/unit/test_flame_svg_run.py %s %s", path, steps);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	m = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	rc = pclose(p);
	unlink(path);
	if (rc) {
		fprintf(stderr, "%s: exit status %d (node and python3 are needed)\n%s\n", cmd, rc,
			buf);
		free(buf);
		return NULL;
	}
	return buf;
}

/* The part of out from the line "> step" to the next step's line. */
static char *block(const char *out, const char *step)
{
	char key[128];
	const char *p, *q;

	snprintf(key, sizeof(key), "> %s\n", step);
	p = out ? strstr(out, key) : NULL;
	if (!p)
		return strdup("(no such step)");
	p += strlen(key);
	q = strstr(p, "\n> ");
	return strndup(p, q ? (size_t)(q - p + 1) : strlen(p));
}

/* The state after step is want, holds want, lacks want. */
#define STEP_CHECK(check, out, step, want) \
	do { \
		char *b_ = block(out, step); \
		check(b_, want); \
		free(b_); \
	} while (0)
#define STEP_IS(out, step, want) STEP_CHECK(ASSERT_STR, out, step, want)
#define STEP_HAS(out, step, want) STEP_CHECK(ASSERT_HAS, out, step, want)
#define STEP_LACKS(out, step, want) STEP_CHECK(ASSERT_LACKS, out, step, want)

static void test_script_once(void)
{
	struct hk_flame_svg_opts o = { .title = "t", .subtitle = "s" };
	struct hk_flame *f = known_tree();
	const char *cdata, *end;
	char *svg = svg_of(f, &o);

	CU_ASSERT_EQUAL(count(svg, "<script"), 1);
	CU_ASSERT_EQUAL(count(svg, "</script"), 1);
	CU_ASSERT_EQUAL(count(svg, "<![CDATA["), 1);
	CU_ASSERT_EQUAL(count(svg, "]]>"), 1);
	CU_ASSERT_PTR_NULL(strstr(hk_flame_svg_script, "]]>"));
	CU_ASSERT_PTR_NULL(strstr(hk_flame_svg_script, "</"));
	/* the section holds the script byte for byte, and ends the document:
	 * every frame exists by the time a browser runs it */
	cdata = strstr(svg, "<script type=\"application/ecmascript\"><![CDATA[\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(cdata);
	cdata = strchr(cdata, '\n') + 1;
	end = strstr(cdata, "]]>");
	CU_ASSERT_EQUAL((size_t)(end - cdata), strlen(hk_flame_svg_script));
	CU_ASSERT(!strncmp(cdata, hk_flame_svg_script, strlen(hk_flame_svg_script)));
	ASSERT_STR(end, "]]></script>\n</svg>\n");
	CU_ASSERT(strstr(svg, "id=\"hk-matched\"") < cdata);
	ASSERT_LACKS(svg, "href");
	free(svg);
	hk_flame__free(f);

	/* nothing to zoom or search: no script, no controls */
	f = hk_flame__new();
	svg = svg_of(f, &o);
	ASSERT_LACKS(svg, "<script");
	ASSERT_LACKS(svg, "hk-");
	ASSERT_HAS(svg, "no samples");
	free(svg);
	hk_flame__free(f);
}

/* What the script reads: integers and depths, the layout, the controls hidden. */
static void test_frame_data(void)
{
	struct hk_flame_svg_opts o = { .title = "t" };
	struct hk_flame *f = known_tree();
	char *svg = svg_of(f, &o);

	ASSERT_HAS(svg, "<g id=\"hk-unzoom\" display=\"none\" cursor=\"pointer\">"
		   "<text x=\"10\" y=\"24\">Reset zoom</text></g>\n"
		   "<g id=\"hk-search\" display=\"none\" cursor=\"pointer\">"
		   "<text x=\"1190\" y=\"24\" text-anchor=\"end\">Search</text></g>\n"
		   "<g id=\"hk-frames\" cursor=\"pointer\" data-left=\"10\" data-width=\"1180\" "
		   "data-char=\"7.2\" data-font=\"12\">\n"
		   "<g data-x=\"0\" data-w=\"8000\" data-d=\"0\"><title>all (8.0 ms, 100.00%)</title>");
	ASSERT_HAS(svg, "<g data-x=\"0\" data-w=\"2000\" data-d=\"2\">"
		   "<title>a (2.0 ms, 25.00%)</title>");
	ASSERT_HAS(svg, "<g data-x=\"0\" data-w=\"2000\" data-d=\"3\">"
		   "<title>b (2.0 ms, 25.00%)</title>");
	ASSERT_HAS(svg, "<g data-x=\"2000\" data-w=\"1000\" data-d=\"2\">"
		   "<title>b (1.0 ms, 12.50%)</title>");
	ASSERT_HAS(svg, "<g data-x=\"2000\" data-w=\"1000\" data-d=\"3\">"
		   "<title>b (1.0 ms, 12.50%)</title>");
	ASSERT_HAS(svg, "<g data-x=\"3000\" data-w=\"5000\" data-d=\"2\">"
		   "<title>c (5.0 ms, 62.50%)</title>");
	ASSERT_HAS(svg, "<g data-x=\"3000\" data-w=\"10\" data-d=\"3\">"
		   "<title>tiny(leaf) (0.0 ms, 0.13%)</title>"
		   "<rect x=\"452.50\" y=\"60\" width=\"1.47\" height=\"15\"");
	CU_ASSERT_EQUAL(count(svg, "<g data-x="), 8);
	/* the details and matched lines under the frames, the legend below */
	ASSERT_HAS(svg, "</g>\n<text id=\"hk-details\" x=\"10\" y=\"142\"></text>"
		   "<text id=\"hk-matched\" x=\"1190\" y=\"142\" text-anchor=\"end\"></text>\n"
		   "<text x=\"10\" y=\"158\" fill=\"#555555\">warm: on-CPU");
	free(svg);
	hk_flame__free(f);
}

/* A caller's unit and legend: "N unit" in titles, escaped like names. */
static void test_unit(void)
{
	struct hk_flame_svg_opts o = { .title = "t", .unit = "bytes",
				       .legend = "growth by <stack> & \"bytes\"" };
	struct hk_flame *f = known_tree();
	char *svg = svg_of(f, &o);

	ASSERT_HAS(svg, "<title>all (8000 bytes, 100.00%)</title>");
	ASSERT_HAS(svg, "<title>c (5000 bytes, 62.50%)</title>");
	ASSERT_HAS(svg, "<title>tiny(leaf) (10 bytes, 0.13%)</title>");
	ASSERT_HAS(svg, ">growth by &lt;stack&gt; &amp; &quot;bytes&quot;</text>");
	ASSERT_LACKS(svg, " ms,");
	free(svg);
	o.unit = "samples]]></script><script>x()</script>";
	o.legend = NULL;
	svg = svg_of(f, &o);
	ASSERT_HAS(svg, "<title>a (2000 samples]]&gt;&lt;/script&gt;"
		   "&lt;script&gt;x()&lt;/script&gt;, 25.00%)");
	ASSERT_HAS(svg, ">warm: on-CPU (pale: kernel), blue: mostly off-CPU</text>");
	CU_ASSERT_EQUAL(count(svg, "<script"), 1);
	CU_ASSERT_EQUAL(count(svg, "]]>"), 1);
	free(svg);
	hk_flame__free(f);
}

#define START_STATE \
	"unzoom hidden\n" \
	"search shown\n" \
	"details []\n" \
	"matched []\n" \
	"all@0: x=10.00 w=1180.00 label=[all]\n" \
	"main@1: x=10.00 w=1180.00 label=[main]\n" \
	"a@2: x=10.00 w=295.00 label=[a]\n" \
	"b@3: x=10.00 w=295.00 label=[b]\n" \
	"b@2: x=305.00 w=147.50 label=[b]\n" \
	"b@3: x=305.00 w=147.50 label=[b]\n" \
	"c@2: x=452.50 w=737.50 label=[c]\n" \
	"tiny(leaf)@3: x=452.50 w=1.47 label=[]\n"

/* Click to zoom: the frame fills the width, its callers dimmed, the rest hidden. */
static void test_zoom(void)
{
	struct hk_flame_svg_opts o = { .title = "t" };
	struct hk_flame *f = known_tree();
	char *out = play(f, &o, "click:a@2 unzoom click:tiny\\(leaf\\)@3 escape click:c@2 "
			 "click:all@0");

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	/* before any step: as svg.c drew it; the script only shows Search */
	STEP_IS(out, "start", START_STATE);
	STEP_IS(out, "click:a@2",
		"unzoom shown\nsearch shown\ndetails []\nmatched []\n"
		"all@0: x=10.00 w=1180.00 label=[all] opacity=0.5\n"
		"main@1: x=10.00 w=1180.00 label=[main] opacity=0.5\n"
		"a@2: x=10.00 w=1180.00 label=[a]\n"
		"b@3: x=10.00 w=1180.00 label=[b]\n"
		"b@2: hidden\n"
		"b@3: hidden\n"
		"c@2: hidden\n"
		"tiny(leaf)@3: hidden\n");
	/* back as drawn: the script lays out as svg.c does */
	STEP_IS(out, "unzoom", START_STATE);
	/* a frame drawn without a label gets one when it is wide enough */
	STEP_IS(out, "click:tiny(leaf)@3",
		"unzoom shown\nsearch shown\ndetails []\nmatched []\n"
		"all@0: x=10.00 w=1180.00 label=[all] opacity=0.5\n"
		"main@1: x=10.00 w=1180.00 label=[main] opacity=0.5\n"
		"a@2: hidden\nb@3: hidden\nb@2: hidden\nb@3: hidden\n"
		"c@2: x=10.00 w=1180.00 label=[c] opacity=0.5\n"
		"tiny(leaf)@3: x=10.00 w=1180.00 label=[tiny(leaf)]\n");
	STEP_IS(out, "escape", START_STATE);
	/* 1180 px for 5000 us: tiny(leaf) at 2.36 px, still no label */
	STEP_HAS(out, "click:c@2",
		 "c@2: x=10.00 w=1180.00 label=[c]\ntiny(leaf)@3: x=10.00 w=2.36 label=[]\n");
	STEP_IS(out, "click:all@0", START_STATE);
	free(out);
	hk_flame__free(f);
}

/* Search: the share counts nested hits once; a regex, or text; hover. */
static void test_search(void)
{
	struct hk_flame_svg_opts o = { .title = "t" };
	struct hk_flame *f = known_tree();
	char *out = play(f, &o, "search:b search:^[ab]\\$ search:a search:\\( cancel search: "
			 "hover:c@2 hover:all@0 leave click:a@2 search:c");

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	/* 2 ms of b on a, 1 ms of b with b on it: 3 of 8 ms, not 4 */
	STEP_HAS(out, "search:b", "prompted []\nunzoom hidden\n");
	STEP_HAS(out, "search:b", "matched [Matched: 37.5%]\n");
	STEP_HAS(out, "search:b", "a@2: x=10.00 w=295.00 label=[a]\n"
		   "b@3: x=10.00 w=295.00 label=[b] hit\n"
		   "b@2: x=305.00 w=147.50 label=[b] hit\n"
		   "b@3: x=305.00 w=147.50 label=[b] hit\n"
		   "c@2: x=452.50 w=737.50 label=[c]\n");
	STEP_HAS(out, "search:^[ab]$", "matched [Matched: 37.5%]\n");
	STEP_HAS(out, "search:^[ab]$", "a@2: x=10.00 w=295.00 label=[a] hit\n");
	/* main holds all of it; "all" itself is no function */
	STEP_HAS(out, "search:a", "matched [Matched: 100.0%]\n");
	STEP_HAS(out, "search:a",
		 "all@0: x=10.00 w=1180.00 label=[all]\n"
		 "main@1: x=10.00 w=1180.00 label=[main] hit\n");
	/* "(" is no regular expression: searched as text, 10 us of 8000 */
	STEP_HAS(out, "search:(", "matched [Matched: 0.1%]\n");
	STEP_HAS(out, "search:(", "tiny(leaf)@3: x=452.50 w=1.47 label=[] hit\n");
	/* cancel keeps the search; the prompt offers the last one */
	STEP_HAS(out, "cancel", "prompted [(]\n");
	STEP_HAS(out, "cancel", "matched [Matched: 0.1%]\n");
	/* empty clears */
	STEP_HAS(out, "search:", "matched []\n");
	STEP_LACKS(out, "search:", "hit");
	STEP_HAS(out, "hover:c@2", "details [c (5.0 ms, 62.50%)]\n");
	STEP_HAS(out, "hover:all@0", "details [all (8.0 ms, 100.00%)]\n");
	STEP_HAS(out, "leave", "details []\n");
	/* zoomed: c is hidden, and its share is still of the whole graph */
	STEP_HAS(out, "search:c", "matched [Matched: 62.5%]\n");
	STEP_HAS(out, "search:c", "b@3: x=10.00 w=1180.00 label=[b]\nb@2: hidden\n"
		 "b@3: hidden\nc@2: hidden\n");
	free(out);
	hk_flame__free(f);
}

/*
 * Names that try to leave their text or attribute, the CDATA section or
 * the script: none does; the SVG parses, the script runs, and reads them
 * back as the text it showed.
 */
static void test_hostile(void)
{
	struct hk_flame_svg_opts o = { .title = "]]></script><script>alert(1)</script>",
				       .subtitle = "<![CDATA[ \x01\xff\"'&", .unit = "us" };
	struct hk_flame *f = hk_flame__new();
	char *svg, *out;

	ADD(f, 1000, 0, "main", "x]]>y", "</script><script>alert(1)</script>");
	ADD(f, 3000, 0, "main", "<![CDATA[", "a&amp;\"'<b>\x01\x1b[31m\xc0\xaf\xed\xa0\x80");
	ADD(f, 4000, 1, "main", "]]>", "</SCRIPT", "\xef\xbf\xbe\xf4\x90\x80\x80--><!--");
	svg = svg_of(f, &o);
	CU_ASSERT_EQUAL(count(svg, "<script"), 1);
	CU_ASSERT_EQUAL(count(svg, "</script"), 1);
	CU_ASSERT_EQUAL(count(svg, "<![CDATA["), 1);
	CU_ASSERT_EQUAL(count(svg, "]]>"), 1);
	CU_ASSERT_EQUAL(count(svg, "<!--"), 0);
	ASSERT_HAS(svg, "<title>x]]&gt;y (1000 us, 12.50%)</title>");
	ASSERT_HAS(svg, "<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; "
		   "(1000 us, 12.50%)</title>");
	free(svg);
	out = play(f, &o, "'hover:</script><script>alert(1)</script>@3' "
		   "'search:</script>' 'search:]]>' 'search:&amp:' 'click:x]]>y@2'");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	STEP_HAS(out, "hover:</script><script>alert(1)</script>@3",
		 "details [</script><script>alert(1)</script> (1000 us, 12.50%)]\n");
	STEP_HAS(out, "search:</script>", "matched [Matched: 12.5%]\n");
	/* x]]>y (1000) and ]]> (4000), nothing nested */
	STEP_HAS(out, "search:]]>", "matched [Matched: 62.5%]\n");
	STEP_HAS(out, "search:&amp:", "matched [Matched: 37.5%]\n");
	STEP_HAS(out, "click:x]]>y@2", "x]]>y@2: x=10.00 w=1180.00 label=[x]]>y]\n"
		   "</script><script>alert(1)</script>@3: x=10.00 w=1180.00 "
		   "label=[</script><script>alert(1)</script>]\n");
	free(out);
	hk_flame__free(f);
}

int hk_add_flame_svg_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "svg script: once, in one CDATA section, last", test_script_once },
		{ "svg script: data- attributes, controls", test_frame_data },
		{ "svg: the caller's unit and legend", test_unit },
		{ "svg script (node): zoom and reset", test_zoom },
		{ "svg script (node): search, matched share, hover", test_search },
		{ "svg script (node): hostile names", test_hostile },
	};

	return HK_ADD_SUITE("flame_svg", tests);
}
