// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * escape.c - hostile text made safe for a terminal or for JSON.
 *
 * Everything a process controls (its comm, the comms of its aggressor and
 * victim, the cgroup path) is hostile input: the human line must not let it
 * drive the terminal, and the JSON line must stay valid JSON and valid UTF-8
 * whatever bytes it holds.
 */
#include <stdbool.h>
#include "escape.h"

size_t hk_utf8__seq(const unsigned char *s, size_t n, __u32 *cp)
{
	__u32 c, min;
	size_t need, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return need;
}

/* C0, DEL and C1: some terminals act on C1 controls even in UTF-8. */
static bool is_control(__u32 c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/* Also the folded and SVG writers' test (frame_name.c, flame/svg.c): one
 * list of what is hidden, for every output. */
bool hk_utf8__invisible(__u32 c)
{
	return c == 0x00ad || c == 0x061c || c == 0x180e ||
	       (c >= 0x200b && c <= 0x200f) ||
	       (c >= 0x2028 && c <= 0x202e) ||
	       (c >= 0x2060 && c <= 0x206f) ||
	       c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb);
}

/* East Asian wide and emoji blocks take two terminal columns. */
static bool is_wide(__u32 c)
{
	return (c >= 0x1100 && c <= 0x115f) ||
	       (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f) ||
	       (c >= 0xac00 && c <= 0xd7a3) ||
	       (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) ||
	       (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) ||
	       (c >= 0x1f300 && c <= 0x1f64f) ||
	       (c >= 0x1f900 && c <= 0x1f9ff) ||
	       (c >= 0x20000 && c <= 0x3fffd);
}

size_t hk_out__term_text(struct hk_out *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, cols = 0, k, j;
	__u32 cp;

	while (i < n) {
		k = hk_utf8__seq(s + i, n - i, &cp);
		/* a backslash is doubled: "\\x1b" in a name is not an escape */
		if (k && cp == '\\') {
			hk_out__str(o, "\\\\");
			cols += 2;
			i += k;
			continue;
		}
		if (k && !is_control(cp) && !hk_utf8__invisible(cp)) {
			hk_out__mem(o, s + i, k);
			cols += is_wide(cp) ? 2 : 1;
			i += k;
			continue;
		}
		if (!k)
			k = 1;
		for (j = 0; j < k; j++) {
			hk_out__printf(o, "\\x%02x", s[i + j]);
			cols += 4;
		}
		i += k;
	}
	return cols;
}

void hk_out__json_str(struct hk_out *o, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k;
	__u32 cp;

	hk_out__mem(o, "\"", 1);
	while (i < n) {
		k = hk_utf8__seq(s + i, n - i, &cp);
		if (!k) {
			hk_out__str(o, "\\ufffd");
			i++;
			continue;
		}
		if (cp == '"' || cp == '\\') {
			hk_out__mem(o, "\\", 1);
			hk_out__mem(o, s + i, 1);
		} else if (is_control(cp) || cp == 0x2028 || cp == 0x2029) {
			hk_out__printf(o, "\\u%04x", cp);
		} else {
			hk_out__mem(o, s + i, k);
		}
		i += k;
	}
	hk_out__mem(o, "\"", 1);
}
