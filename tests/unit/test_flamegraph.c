// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_flamegraph.c - stacks merged into folded text, byte for byte, and
 * into SVG, checked at the level of its elements: one <rect> per frame,
 * exact hover titles, colours by kind, escaping, labels cut to the box,
 * frames too narrow to draw, the same bytes each time, write errors,
 * well-formed XML as Python's parser reads it, bidi controls kept out;
 * and the files a profile is written to (outdir.c): both or neither,
 * 0640, nothing planted at their names followed or opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "flame/flamegraph.h"
#include "flame/frame_name.h"
#include "lib/outdir.h"
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
	CU_ASSERT_EQUAL(count_str(out, ";"), HK_FLAME_MAX_DEPTH);
	free(out);
	out = written(f, 1, "deep", "");
	CU_ASSERT_EQUAL(count_str(out, "<rect"), HK_FLAME_MAX_DEPTH + 2);
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
	CU_ASSERT_EQUAL(count_str(svg, "<rect"), 6);
	CU_ASSERT_EQUAL(count_str(svg, "<title>"), 6);
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
	/* its one script is inline: nothing fetched (test_flame_svg.c) */
	CU_ASSERT_EQUAL(count_str(svg, "<script"), 1);
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
	CU_ASSERT_EQUAL(count_str(svg, "<rect"), 3);
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
	CU_ASSERT_EQUAL(count_str(a, "<rect"), 0);
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

/* --- the files a profile is written to (outdir.c) --------------------- */

static char out_base[64];

static const char *out_at(const char *name)
{
	static char p[4][256];
	static unsigned int i;
	char *s = p[i++ % 4];

	snprintf(s, sizeof(p[0]), "%s/%s", out_base, name);
	return s;
}

static void out_mkbase(void)
{
	snprintf(out_base, sizeof(out_base), "/tmp/hk-unit-outdir.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(out_base) != NULL);
}

/* A fresh out_base, opened for names like "p.folded". */
static void out_open(struct hk_safedir *d)
{
	char warn[256], err[256];

	out_mkbase();
	CU_ASSERT_EQUAL_FATAL(hk_outdir__open(d, out_base, "p.folded", warn, sizeof(warn), err,
					      sizeof(err)), 0);
	ASSERT_STR(warn, "");
}

static void out_rmbase(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out_base);
	CU_ASSERT(system(cmd) == 0);
}

/* Writes ctx (a string) into f; "fail" fails with -EIO. */
static int text_write(void *ctx, FILE *f)
{
	if (!strcmp(ctx, "fail"))
		return -EIO;
	return fputs(ctx, f) == EOF ? -EIO : 0;
}

static void out_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/*
 * Two files, both written or neither, exactly 0640 whatever the umask:
 * symlinks planted at their names (to a file of ours) and a FIFO at the
 * old temporary name are replaced or left alone, never followed or opened.
 */
static void test_outdir_set(void)
{
	struct hk_outdir_file files[2] = {
		{ "p.folded", text_write, "main;spin 5\n" },
		{ "p.svg", text_write, "<svg/>\n" },
	};
	struct hk_safedir d;
	struct stat st;
	char buf[256];
	mode_t was;

	out_open(&d);
	CU_ASSERT_EQUAL(close(open(out_at("victim"), O_WRONLY | O_CREAT, 0600)), 0);
	CU_ASSERT_EQUAL(symlink(out_at("victim"), out_at("p.folded")), 0);
	CU_ASSERT_EQUAL(symlink("victim", out_at("p.svg")), 0);
	CU_ASSERT_EQUAL(mkfifo(out_at("p.svg.tmp"), 0600), 0);
	was = umask(077);
	alarm(10);	/* a FIFO opened for writing would block: fail, not hang */
	CU_ASSERT_EQUAL(hk_outdir__write_set(&d, files, 2, 0640), 0);
	alarm(0);
	umask(was);
	out_read(out_at("p.folded"), buf, sizeof(buf));
	ASSERT_STR(buf, "main;spin 5\n");
	out_read(out_at("p.svg"), buf, sizeof(buf));
	ASSERT_STR(buf, "<svg/>\n");
	CU_ASSERT_EQUAL(lstat(out_at("p.svg"), &st), 0);
	CU_ASSERT_TRUE(S_ISREG(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0640);
	CU_ASSERT_EQUAL(st.st_nlink, 1);
	CU_ASSERT_EQUAL(lstat(out_at("p.folded"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0640);
	CU_ASSERT_EQUAL(stat(out_at("victim"), &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 0);
	CU_ASSERT_EQUAL(lstat(out_at("p.svg.tmp"), &st), 0);
	CU_ASSERT_TRUE(S_ISFIFO(st.st_mode));
	ls_names(out_base, buf, sizeof(buf));
	ASSERT_STR(buf, "p.folded p.svg p.svg.tmp victim ");
	hk_safefile__dir_close(&d);
	out_rmbase();
}

/*
 * Neither when the second cannot be written (its writer fails) or named
 * (a directory holds its name): the first is not left behind saying
 * "not written", nor any temporary file.
 */
static void test_outdir_set_fails(void)
{
	struct hk_outdir_file files[2] = {
		{ "p.folded", text_write, "main;spin 5\n" },
		{ "p.svg", text_write, "fail" },
	};
	struct hk_safedir d;
	char buf[256];

	out_open(&d);
	CU_ASSERT_EQUAL(hk_outdir__write_set(&d, files, 2, 0640), -EIO);
	ls_names(out_base, buf, sizeof(buf));
	ASSERT_STR(buf, "");
	files[1].ctx = "<svg/>\n";
	CU_ASSERT_EQUAL(mkdir(out_at("p.svg"), 0755), 0);
	CU_ASSERT_EQUAL(close(open(out_at("p.svg/x"), O_WRONLY | O_CREAT, 0600)), 0);
	CU_ASSERT_EQUAL(hk_outdir__write_set(&d, files, 2, 0640), -EISDIR);
	ls_names(out_base, buf, sizeof(buf));
	ASSERT_STR(buf, "p.svg ");
	CU_ASSERT_EQUAL(hk_outdir__write_set(&d, files, HK_OUTDIR_SET_MAX + 1, 0640), -E2BIG);
	hk_safefile__dir_close(&d);
	out_rmbase();
}

/*
 * The directory: tried at open (a name too long to create is said now),
 * refused when others can write it without the sticky bit; and a
 * directory removed since is said, never looked up by its path again.
 */
static void test_outdir_dir(void)
{
	char warn[256], err[512], want[512], name[300];
	struct hk_outdir_file f = { "p.svg", text_write, "<svg/>\n" };
	struct hk_safedir d;

	out_mkbase();
	memset(name, 'n', 250);
	name[250] = '\0';
	CU_ASSERT_EQUAL(hk_outdir__open(&d, out_base, name, warn, sizeof(warn), err,
					sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: cannot create a file there: File name too long",
		 out_base);
	ASSERT_STR(err, want);
	CU_ASSERT_EQUAL(d.fd, -1);
	CU_ASSERT_EQUAL(chmod(out_base, 0757), 0);
	CU_ASSERT_EQUAL(hk_outdir__open(&d, out_base, "p.svg", warn, sizeof(warn), err,
					sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s is writable by everyone (mode 0757) and not sticky: "
		 "whoever can write there could replace or remove what hotspot-k writes; "
		 "give a directory only its owner can write", out_base);
	ASSERT_STR(err, want);
	CU_ASSERT_EQUAL(chmod(out_base, 0700), 0);

	CU_ASSERT_EQUAL_FATAL(hk_outdir__open(&d, out_base, "p.svg", warn, sizeof(warn), err,
					      sizeof(err)), 0);
	CU_ASSERT_EQUAL(rmdir(out_base), 0);
	CU_ASSERT_EQUAL(hk_outdir__write_set(&d, &f, 1, 0640), -ENOENT);
	hk_outdir__why(&d, -ENOENT, err, sizeof(err));
	snprintf(want, sizeof(want), "the directory %s was removed since it was checked; "
		 "hotspot-k does not follow its path again (restart it to write into a new "
		 "one)", out_base);
	ASSERT_STR(err, want);
	CU_ASSERT_EQUAL(mkdir(out_base, 0700), 0);
	CU_ASSERT_EQUAL(hk_outdir__write(&d, "p.svg", 0640, text_write, "<svg/>\n"), -ENOENT);
	CU_ASSERT_EQUAL(access(out_at("p.svg"), F_OK), -1);
	hk_outdir__why(&d, -EIO, err, sizeof(err));
	ASSERT_STR(err, "Input/output error");
	hk_safefile__dir_close(&d);
	out_rmbase();
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
		{ "files: both, 0640, nothing planted followed", test_outdir_set },
		{ "files: neither when one fails", test_outdir_set_fails },
		{ "files: the directory checked, tried, removed", test_outdir_dir },
	};

	return HK_ADD_SUITE("flamegraph", tests);
}
