// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * svg.c - the tree as a self-contained SVG flame graph (see
 * flamegraph.h): no script and nothing fetched, so that it opens the same
 * from a ticket, a mail or a browser with scripts off; hover text comes
 * from <title>, which every SVG viewer shows.
 *
 * Two passes: the first finds how many rows are drawn (the height goes in
 * the <svg> element, before any frame) and counts the frames too narrow to
 * see; the second writes the frames, the root at the bottom.
 */
#include <string.h>
#include "flamegraph.h"
#include "lib/escape.h"
#include "tree.h"

#define SVG_WIDTH_PX	1200
#define PAD_X_PX	10
#define TOP_PX		60	/* title and subtitle above */
#define FRAME_H_PX	16	/* a 15 px box and a 1 px gap */
#define FONT_PX		12
/* monospace at 12 px: 0.6 em a character, so that a cut label fits */
#define CHAR_W_PX	7.2
#define MIN_FRAME_PX	0.1
#define LABEL_MIN_CHARS	3	/* one and the ".." */
_Static_assert(LABEL_MIN_CHARS >= 3, "xml_text cuts to max_chars - 2 and \"..\"");

struct svg {
	struct hk_flame_out out;
	__u64 total_us;
	double px_per_us;
	size_t rows;		/* the deepest drawn frame's depth + 1 */
	size_t narrow;		/* frames not drawn: narrower than MIN_FRAME_PX */
};

/* U+FFFD, for what XML 1.0 cannot hold or what is not UTF-8 */
static const char replacement[] = "\xef\xbf\xbd";

/* Characters of s as xml_text writes them, one per byte not UTF-8. */
static size_t text_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, chars = 0, k;
	__u32 cp;

	while (i < n) {
		k = hk_utf8__seq(p + i, n - i, &cp);
		i += k ? k : 1;
		chars++;
	}
	return chars;
}

/*
 * s as XML character data, at most max_chars characters ("..": cut):
 * markup characters escaped; controls (C0, DEL, C1), invisible characters
 * (bidi controls, zero-width ones: a label must read as it is), U+FFFE,
 * U+FFFF and bytes outside UTF-8 replaced by U+FFFD.
 */
static void xml_text(struct hk_flame_out *o, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, k, chars, keep;
	char buf[512];
	size_t pos = 0;
	__u32 cp;

	chars = text_chars(s);
	keep = chars > max_chars ? max_chars - 2 : chars;
	while (i < n && keep--) {
		const char *esc = NULL;

		k = hk_utf8__seq(p + i, n - i, &cp);
		if (!k || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
		    hk_utf8__invisible(cp) || cp == 0xfffe || cp == 0xffff)
			esc = replacement;
		else if (cp == '&')
			esc = "&amp;";
		else if (cp == '<')
			esc = "&lt;";
		else if (cp == '>')
			esc = "&gt;";
		else if (cp == '"')
			esc = "&quot;";
		else if (cp == '\'')
			esc = "&apos;";
		if (!k)
			k = 1;
		if (pos + 8 > sizeof(buf)) {
			buf[pos] = '\0';
			hk_flame_out__str(o, buf);
			pos = 0;
		}
		if (esc) {
			memcpy(buf + pos, esc, strlen(esc));
			pos += strlen(esc);
		} else {
			memcpy(buf + pos, p + i, k);
			pos += k;
		}
		i += k;
	}
	buf[pos] = '\0';
	hk_flame_out__str(o, buf);
	if (chars > max_chars)
		hk_flame_out__str(o, "..");
}

/* FNV-1a: a name keeps its colour from one graph to the next */
static __u32 name_hash(const char *s)
{
	__u32 h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int is_kernel(const char *name)
{
	size_t n = strlen(name), k = strlen(HK_FLAME_KERNEL_SUFFIX);

	return n > k && !strcmp(name + n - k, HK_FLAME_KERNEL_SUFFIX);
}

/* Each channel within [lo, lo + span] by one byte of the hash. */
static void frame_fill(struct hk_flame_out *o, const struct hk_flame_node *n)
{
	__u32 h = name_hash(n->name);
	unsigned int a = h & 0xff, b = (h >> 8) & 0xff, c = (h >> 16) & 0xff;
	unsigned int rgb[3];

	if (n->off_us > n->on_us) {		/* blocked: blues */
		rgb[0] = 50 + a * 50 / 255;
		rgb[1] = 110 + b * 70 / 255;
		rgb[2] = 205 + c * 50 / 255;
	} else if (is_kernel(n->name)) {	/* pale amber */
		rgb[0] = 225 + a * 20 / 255;
		rgb[1] = 170 + b * 35 / 255;
		rgb[2] = 100 + c * 40 / 255;
	} else {				/* red, orange, yellow */
		rgb[0] = 220 + a * 35 / 255;
		rgb[1] = 50 + b * 160 / 255;
		rgb[2] = 25 + c * 40 / 255;
	}
	hk_flame_out__printf(o, " fill=\"rgb(%u,%u,%u)\"", rgb[0], rgb[1], rgb[2]);
}

static size_t count_frames(const struct hk_flame_node *n)
{
	size_t i, sum = hk_flame_node__us(n) ? 1 : 0;

	for (i = 0; i < n->nkids; i++)
		sum += count_frames(n->kids[i]);
	return sum;
}

static void measure(struct svg *g, const struct hk_flame_node *n, size_t depth)
{
	__u64 us = hk_flame_node__us(n);
	size_t i;

	if (!us)
		return;
	if ((double)us * g->px_per_us < MIN_FRAME_PX) {
		g->narrow += count_frames(n);
		return;
	}
	if (depth + 1 > g->rows)
		g->rows = depth + 1;
	for (i = 0; i < n->nkids; i++)
		measure(g, n->kids[i], depth + 1);
}

static void draw(struct svg *g, const struct hk_flame_node *n, size_t depth, __u64 x_us)
{
	__u64 us = hk_flame_node__us(n), ms_x10, pct_x100;
	double x_px = PAD_X_PX + (double)x_us * g->px_per_us;
	double w_px = (double)us * g->px_per_us;
	size_t y_px = TOP_PX + (g->rows - 1 - depth) * FRAME_H_PX, fit, i;

	if (!us || w_px < MIN_FRAME_PX || g->out.err)
		return;
	ms_x10 = (us + 50) / 100;
	/*
	 * exact to the digit (a ratio as doubles can round 12.345 down); the
	 * product wraps past 1.8e15 us, 57 years of thread time
	 */
	pct_x100 = (us * 10000 + g->total_us / 2) / g->total_us;
	hk_flame_out__str(&g->out, "<g><title>");
	xml_text(&g->out, n->name, (size_t)-1);
	hk_flame_out__printf(&g->out, " (%llu.%llu ms, %llu.%02llu%%)</title>",
			     ms_x10 / 10, ms_x10 % 10, pct_x100 / 100, pct_x100 % 100);
	hk_flame_out__printf(&g->out, "<rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"%d\"",
			     x_px, y_px, w_px, FRAME_H_PX - 1);
	frame_fill(&g->out, n);
	hk_flame_out__str(&g->out, "/>");
	fit = w_px > 6 ? (size_t)((w_px - 6) / CHAR_W_PX) : 0;
	if (fit >= LABEL_MIN_CHARS) {
		hk_flame_out__printf(&g->out, "<text x=\"%.2f\" y=\"%zu\">", x_px + 3,
				     y_px + FONT_PX - 1);
		xml_text(&g->out, n->name, fit);
		hk_flame_out__str(&g->out, "</text>");
	}
	hk_flame_out__str(&g->out, "</g>\n");
	for (i = 0; i < n->nkids; i++) {
		draw(g, n->kids[i], depth + 1, x_us);
		x_us += hk_flame_node__us(n->kids[i]);
	}
}

static void centred(struct svg *g, size_t y_px, const char *attrs, const char *s)
{
	hk_flame_out__printf(&g->out, "<text x=\"%d\" y=\"%zu\" text-anchor=\"middle\"%s>",
			     SVG_WIDTH_PX / 2, y_px, attrs);
	xml_text(&g->out, s ? s : "", (size_t)-1);
	hk_flame_out__str(&g->out, "</text>\n");
}

int hk_flame__write_svg(const struct hk_flame *f, FILE *out, const char *title,
			const char *subtitle)
{
	struct svg g = { .out.f = out };
	size_t footer_px;

	g.total_us = hk_flame_node__us(f->root);
	if (g.total_us) {
		g.px_per_us = (double)(SVG_WIDTH_PX - 2 * PAD_X_PX) / (double)g.total_us;
		measure(&g, f->root, 0);
	}
	footer_px = TOP_PX + g.rows * FRAME_H_PX + 18;
	hk_flame_out__printf(&g.out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\" "
		"font-family=\"monospace\" font-size=\"%d\">\n",
		SVG_WIDTH_PX, footer_px + 10, SVG_WIDTH_PX, footer_px + 10, FONT_PX);
	centred(&g, 24, " font-size=\"17\"", title);
	centred(&g, 44, " fill=\"#555555\"", subtitle);
	if (g.total_us)
		draw(&g, f->root, 0, 0);
	hk_flame_out__printf(&g.out, "<text x=\"%d\" y=\"%zu\" fill=\"#555555\">",
			     PAD_X_PX, footer_px);
	if (!g.total_us)
		hk_flame_out__str(&g.out, "no samples");
	else
		hk_flame_out__str(&g.out, "warm: on-CPU (pale: kernel), blue: mostly off-CPU");
	if (g.narrow)
		hk_flame_out__printf(&g.out, "; %zu frame%s narrower than %.1f px not drawn",
				     g.narrow, g.narrow == 1 ? "" : "s", MIN_FRAME_PX);
	hk_flame_out__str(&g.out, "</text>\n</svg>\n");
	return hk_flame_out__finish(&g.out);
}
