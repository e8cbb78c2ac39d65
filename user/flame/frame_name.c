// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * frame_name.c - function names made fit for folded stacks (see
 * frame_name.h). Names come from files and memory the profiled process
 * controls (its ELF symbols, its perf map), so any byte can be in them.
 */
#include <string.h>
#include <linux/types.h>
#include "frame_name.h"
#include "lib/escape.h"

void hk_frame_name__clean(char *name)
{
	unsigned char *s = (unsigned char *)name;
	size_t n = strlen(name), i = 0, k;
	__u32 cp;

	while (i < n) {
		k = hk_utf8__seq(s + i, n - i, &cp);
		if (!k) {
			s[i++] = '?';
			continue;
		}
		if (cp == ';')
			s[i] = ':';
		else if (cp <= ' ' || (cp >= 0x7f && cp <= 0x9f) || hk_utf8__invisible(cp))
			memset(s + i, '_', k);	/* C1 controls are 2 bytes, U+202E 3 */
		i += k;
	}
}

static int is_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

char *hk_frame_name__copy(char *buf, size_t len, const char *name)
{
	size_t n = strlen(name), cut, back;

	if (n >= len) {
		/* back to the lead byte of a sequence the cut would split */
		n = cut = len - 1;
		for (back = 0; back < 3 && n > 0 && is_cont(name[n]); back++)
			n--;
		/* no lead byte within reach: not UTF-8, '?' follow anyway */
		if (is_cont(name[n]))
			n = cut;
	}
	memcpy(buf, name, n);
	buf[n] = '\0';
	hk_frame_name__clean(buf);
	return buf;
}
