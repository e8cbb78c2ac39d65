// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * dump.c - a failing input's bytes on stderr, readable whatever they are.
 */
#include <stdio.h>
#include "fuzz.h"

void fz_dump(const char *what, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	fprintf(stderr, "%s (%zu bytes): \"", what, n);
	for (i = 0; i < n; i++) {
		if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '\\' || p[i] == '"')
			fprintf(stderr, "\\x%02x", p[i]);
		else
			fputc(p[i], stderr);
	}
	fputs("\"\n", stderr);
}
