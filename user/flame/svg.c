// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * svg.c - the tree as a self-contained SVG flame graph (see
 * flamegraph.h): nothing fetched, and all of it drawn without the script,
 * so that it opens the same from a ticket, a mail or a viewer with scripts
 * off (hover text from <title>, which every SVG viewer shows); the script
 * (svg_script.c) only moves what is drawn, and reads each frame's exact
 * weights from data- attributes.
 *
 * Two passes: the first finds how many rows are drawn (the height goes in
 * the <svg> element, before any frame) and counts the frames too narrow to
 * see; the second writes the frames, the root at the bottom.
 */
#include <string.h>
#include "flamegraph.h"
#include "lib/escape.h"
#include "svg_plan.h"
#include "svg_script.h"
#include "tree.h"

#define SVG_WIDTH_PX	1200
#define PAD_X_PX	10
#define TOP_PX		60	/* title and subtitle above */
#define FRAME_H_PX	16	/* a 15 px box and a 1 px gap */
#define FONT_PX		12
/* monospace at 12 px: 0.6 em a character, so that a cut label fits */
#define CHAR_W_PX	7.2
#define MIN_FRAME_PX	HK_FLAME_SVG_MIN_FRAME_PX
#define LABEL_MIN_CHARS	3	/* one and the ".." (svg_script.c cuts alike) */
_Static_assert(LABEL_MIN_CHARS >= 3, "xml_text cuts to max_chars - 2 and \"..\"");
#define LINE_PX		16	/* a line of text below the graph */

struct svg {
	struct hk_flame_out out;
	const char *unit;	/* NULL: microseconds, said in ms */
	__u64 total_us;
	double px_per_us;
	struct hk_flame_svg_plan plan;
	size_t rows;		/* the deepest drawn frame's depth + 1 */
	size_t narrow;		/* frames not drawn: narrower than MIN_FRAME_PX */
	size_t capped;		/* frames not drawn: past the caps (plan.min_us) */
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
	if (us < g->plan.min_us) {
		g->capped += count_frames(n);
		return;
	}
	if (depth + 1 > g->rows)
		g->rows = depth + 1;
	for (i = 0; i < n->nkids; i++)
		measure(g, n->kids[i], depth + 1);
}

/* " (12.3 ms, 45.67%)": the weight, and its share exact to the digit */
static void weight_text(struct svg *g, __u64 w)
{
	/* a ratio as doubles can round 12.345 down; the product wraps past
	 * 1.8e15, 57 years of thread time in us */
	__u64 pct_x100 = (w * 10000 + g->total_us / 2) / g->total_us;
	__u64 ms_x10 = (w + 50) / 100;

	if (g->unit) {
		hk_flame_out__printf(&g->out, " (%llu ", (unsigned long long)w);
		xml_text(&g->out, g->unit, (size_t)-1);
	} else {
		hk_flame_out__printf(&g->out, " (%llu.%llu ms", ms_x10 / 10, ms_x10 % 10);
	}
	hk_flame_out__printf(&g->out, ", %llu.%02llu%%)", pct_x100 / 100, pct_x100 % 100);
}

static void draw(struct svg *g, const struct hk_flame_node *n, size_t depth, __u64 x_us)
{
	__u64 us = hk_flame_node__us(n);
	double x_px = PAD_X_PX + (double)x_us * g->px_per_us;
	double w_px = (double)us * g->px_per_us;
	size_t y_px = TOP_PX + (g->rows - 1 - depth) * FRAME_H_PX, fit, i;

	if (!hk_flame_svg_plan__drawn(&g->plan, n, g->plan.min_us) || g->out.err)
		return;
	/* integers for the script: a zoom stays exact at any depth */
	hk_flame_out__printf(&g->out, "<g data-x=\"%llu\" data-w=\"%llu\" data-d=\"%zu\"><title>",
			     (unsigned long long)x_us, (unsigned long long)us, depth);
	xml_text(&g->out, n->name, (size_t)-1);
	weight_text(g, us);
	hk_flame_out__printf(&g->out, "</title><rect x=\"%.2f\" y=\"%zu\" width=\"%.2f\" height=\"%d\"",
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

/*
 * The controls the script shows (hidden until it runs, as they do nothing
 * without it) and the frames' box, which tells the script the layout.
 */
static void controls_open(struct svg *g)
{
	hk_flame_out__printf(&g->out,
		"<g id=\"hk-unzoom\" display=\"none\" cursor=\"pointer\">"
		"<text x=\"%d\" y=\"24\">Reset zoom</text></g>\n"
		"<g id=\"hk-search\" display=\"none\" cursor=\"pointer\">"
		"<text x=\"%d\" y=\"24\" text-anchor=\"end\">Search</text></g>\n"
		"<g id=\"hk-frames\" cursor=\"pointer\" data-left=\"%d\" data-width=\"%d\" "
		"data-char=\"%.1f\" data-font=\"%d\">\n",
		PAD_X_PX, SVG_WIDTH_PX - PAD_X_PX, PAD_X_PX, SVG_WIDTH_PX - 2 * PAD_X_PX,
		CHAR_W_PX, FONT_PX);
}

/* The details and matched lines, empty until the script fills them. */
static void controls_close(struct svg *g, size_t y_px)
{
	hk_flame_out__printf(&g->out,
		"</g>\n<text id=\"hk-details\" x=\"%d\" y=\"%zu\"></text>"
		"<text id=\"hk-matched\" x=\"%d\" y=\"%zu\" text-anchor=\"end\"></text>\n",
		PAD_X_PX, y_px, SVG_WIDTH_PX - PAD_X_PX, y_px);
}

/* Constant text with no "]]>" in it: one CDATA section holds it. */
static void script(struct svg *g)
{
	hk_flame_out__str(&g->out, "<script type=\"application/ecmascript\"><![CDATA[\n");
	hk_flame_out__str(&g->out, hk_flame_svg_script);
	hk_flame_out__str(&g->out, "]]></script>\n");
}

/* A frame's bytes but its name's: <g> with three numbers, the weight
 * (the unit's every byte escaped), <rect> with four and the fill, <text>. */
#define FRAME_BYTES	400
/* the rest: the header, the controls and the footer's fixed text */
#define PAGE_BYTES	4096

static size_t len_or_0(const char *s)
{
	return s ? strlen(s) : 0;
}

/* What g draws: the scale, and the weight under which the caps leave
 * frames out (svg_plan.h). */
static void plan(struct svg *g, const struct hk_flame *f, const struct hk_flame_svg_opts *opts)
{
	__u64 page = PAGE_BYTES + strlen(hk_flame_svg_script) +
		     6 * (len_or_0(opts->title) + len_or_0(opts->subtitle) +
			  len_or_0(opts->legend));

	g->total_us = hk_flame_node__us(f->root);
	if (!g->total_us)
		return;
	g->px_per_us = (double)(SVG_WIDTH_PX - 2 * PAD_X_PX) / (double)g->total_us;
	g->plan = (struct hk_flame_svg_plan){
		.root = f->root, .px_per_us = g->px_per_us,
		.frame_bytes = FRAME_BYTES + 6 * len_or_0(opts->unit),
		.frames_max_bytes = page < HK_FLAME_SVG_MAX_BYTES ?
				    HK_FLAME_SVG_MAX_BYTES - page : 0,
	};
	hk_flame_svg_plan__min_us(&g->plan);
	measure(g, f->root, 0);
}

size_t hk_flame__svg_cut(const struct hk_flame *f, const struct hk_flame_svg_opts *opts)
{
	struct svg g = { .unit = opts->unit };

	plan(&g, f, opts);
	return g.capped;
}

int hk_flame__write_svg_opts(const struct hk_flame *f, FILE *out,
			     const struct hk_flame_svg_opts *opts)
{
	struct svg g = { .out.f = out, .unit = opts->unit };
	size_t footer_px;

	plan(&g, f, opts);
	/* the details line under the frames, then the legend */
	footer_px = TOP_PX + g.rows * FRAME_H_PX + 18 + (g.total_us ? LINE_PX : 0);
	hk_flame_out__printf(&g.out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\" "
		"font-family=\"monospace\" font-size=\"%d\">\n",
		SVG_WIDTH_PX, footer_px + 10, SVG_WIDTH_PX, footer_px + 10, FONT_PX);
	centred(&g, 24, " font-size=\"17\"", opts->title);
	centred(&g, 44, " fill=\"#555555\"", opts->subtitle);
	if (g.total_us) {
		controls_open(&g);
		draw(&g, f->root, 0, 0);
		controls_close(&g, footer_px - LINE_PX);
	}
	hk_flame_out__printf(&g.out, "<text x=\"%d\" y=\"%zu\" fill=\"#555555\">",
			     PAD_X_PX, footer_px);
	if (!g.total_us)
		hk_flame_out__str(&g.out, "no samples");
	else if (opts->legend)
		xml_text(&g.out, opts->legend, (size_t)-1);
	else
		hk_flame_out__str(&g.out, "warm: on-CPU (pale: kernel), blue: mostly off-CPU");
	if (g.narrow)
		hk_flame_out__printf(&g.out, "; %zu frame%s narrower than %.1f px not drawn",
				     g.narrow, g.narrow == 1 ? "" : "s", MIN_FRAME_PX);
	if (g.capped)
		hk_flame_out__printf(&g.out, "; %zu lighter frame%s not drawn (a graph draws at "
				     "most %d frames, %llu MiB)", g.capped,
				     g.capped == 1 ? "" : "s", HK_FLAME_SVG_MAX_FRAMES,
				     HK_FLAME_SVG_MAX_BYTES >> 20);
	hk_flame_out__str(&g.out, "</text>\n");
	if (g.total_us)
		script(&g);
	hk_flame_out__str(&g.out, "</svg>\n");
	return hk_flame_out__finish(&g.out);
}

int hk_flame__write_svg(const struct hk_flame *f, FILE *out, const char *title,
			const char *subtitle)
{
	struct hk_flame_svg_opts opts = { .title = title, .subtitle = subtitle };

	return hk_flame__write_svg_opts(f, out, &opts);
}
