// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * prom_value.c - hostile text as a label value of the Prometheus text
 * format, bounded (prom_value.h). The text is a process's: its comm, a
 * cgroup path a delegated user named, any bytes at all.
 */
#include <stdlib.h>
#include <string.h>
#include "format.h"
#include "lib/cut.h"
#include "lib/escape.h"
#include "prom_value.h"

/* The most a path becomes as terminal text: \xHH for every byte. */
#define SCRATCH_LEN	(4 * HK_FORMAT_CGROUP_MAX + 1)
/* ... and as a label value: 3 bytes for each (U+FFFD) */
#define VALUE_LEN	(3 * HK_FORMAT_CGROUP_MAX + 1)

int hk_prom_value__init(struct hk_prom_value *v)
{
	v->scratch = malloc(SCRATCH_LEN);
	v->value = malloc(VALUE_LEN);
	if (v->scratch && v->value)
		return 0;
	hk_prom_value__free(v);
	return -1;
}

void hk_prom_value__free(struct hk_prom_value *v)
{
	free(v->scratch);
	free(v->value);
	v->scratch = v->value = NULL;
}

/*
 * A label value, whole, into out (VALUE_LEN bytes); its length. It starts
 * as the human line's terminal text, so that one UTF-8 decoder and one
 * idea of hostile characters serve every output; what that shows as \xHH
 * (a byte outside UTF-8, a control character, a bidi or zero-width
 * character: each of its bytes) becomes U+FFFD, as the format has no \x,
 * except a newline, which the format escapes as \n. Then " and \ are
 * escaped. Each input byte makes at most 3.
 */
static size_t escape_value(char *out, char *scratch, const char *s, size_t n)
{
	struct hk_out t, o;
	int len, i;

	hk_out__init(&t, scratch, SCRATCH_LEN);
	hk_out__term_text(&t, s, n);
	len = hk_out__finish(&t);
	hk_out__init(&o, out, VALUE_LEN);
	for (i = 0; i < len; i++) {
		if (scratch[i] == '"') {
			hk_out__str(&o, "\\\"");
		} else if (scratch[i] != '\\') {
			hk_out__mem(&o, scratch + i, 1);
		} else if (scratch[i + 1] == '\\') {
			hk_out__str(&o, "\\\\");
			i++;
		} else {
			/* "\xHH": lower-case hex */
			hk_out__str(&o, memcmp(scratch + i, "\\x0a", 4) ? "\xef\xbf\xbd" : "\\n");
			i += 3;
		}
	}
	len = hk_out__finish(&o);
	return len < 0 ? 0 : (size_t)len;
}

/* A longer value keeps its whole characters and escapes up to the mark. */
void hk_prom_value__write(struct hk_prom_value *v, struct hk_out *o, const char *s, size_t n)
{
	size_t len = escape_value(v->value, v->scratch, s, n);

	hk_cut__write(o, v->value, len, HK_PROM_VALUE_MAX, s, n);
}
