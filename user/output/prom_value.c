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

bool hk_prom_value__sets(struct hk_prom_value *v, const struct hk_event *e, const char *cgroup,
			 const struct hk_workload *wl, char **labels, char **info)
{
	static const struct hk_workload none;
	size_t comm_n = hk_comm__len(e->comm), cg_n = cgroup ? strlen(cgroup) : 0;
	char buf[HK_PROM_LINE_MAX];
	struct hk_out o;
	int n;

	if (cg_n > HK_FORMAT_CGROUP_MAX) {
		cg_n = HK_FORMAT_CGROUP_MAX;
		/* not inside a character: back to its first byte */
		while (cg_n && ((unsigned char)cgroup[cg_n] & 0xc0) == 0x80)
			cg_n--;
	}
	hk_out__init(&o, buf, sizeof(buf));
	hk_out__printf(&o, "pid=\"%u\",comm=\"", e->tgid);
	hk_prom_value__write(v, &o, e->comm, comm_n);
	n = (int)o.pos;
	hk_out__printf(&o, "\",label=\"%s\"", hk_label__id(e->to));
	/* cannot fail: buf holds two values of HK_PROM_VALUE_MAX bytes and more */
	if (hk_out__finish(&o) < 0 || !(*labels = strdup(buf)))
		return false;
	/* the same pid and comm, then the cgroup */
	hk_out__init(&o, buf, sizeof(buf));
	hk_out__mem(&o, *labels, (size_t)n);
	hk_out__str(&o, "\",cgroup=\"");
	hk_prom_value__write(v, &o, cgroup ? cgroup : "", cg_n);
	/* who it is: "" when the path names none (ids are hex, a unit's bytes
	 * systemd's: only the unit can need escaping) */
	if (!wl)
		wl = &none;
	hk_out__str(&o, "\",unit=\"");
	hk_prom_value__write(v, &o, wl->unit, strlen(wl->unit));
	hk_out__printf(&o, "\",container_id=\"%s\",pod_uid=\"%s\"", wl->container_id,
		       wl->pod_uid);
	if (hk_out__finish(&o) < 0 || !(*info = strdup(buf))) {
		free(*labels);
		return false;
	}
	return true;
}
