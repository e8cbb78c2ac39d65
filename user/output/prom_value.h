/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * prom_value.h - hostile text (comms, cgroup paths) as a label value of
 * the Prometheus text format, bounded: escaped as the format says, and cut
 * at HK_PROM_VALUE_MAX bytes, so that a process cannot make the textfile
 * (parsed at every scrape) as large as it likes.
 */
#ifndef HK_USER_PROM_VALUE_H
#define HK_USER_PROM_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/outbuf.h"
#include "lib/workload.h"
#include "shared/hotspot.h"

/* A label value past this many bytes is cut: "…" and a hash end it. */
#define HK_PROM_VALUE_MAX	256

/* The longest line: a name, the info series' three longest values (comm,
 * cgroup, unit), a container id and a pod UID. */
#define HK_PROM_LINE_MAX	(256 + 3 * HK_PROM_VALUE_MAX + 64 + 36)

/* The room values are made in: allocated once, not per value. */
struct hk_prom_value {
	char *scratch;
	char *value;
};

/* 0, or -1: no memory. */
int hk_prom_value__init(struct hk_prom_value *v);
void hk_prom_value__free(struct hk_prom_value *v);

/*
 * s (n bytes, at most HK_FORMAT_CGROUP_MAX) as a label value into o,
 * without its quotes: what the terminal would show as \xHH (bytes outside
 * UTF-8, controls, bidi and zero-width characters) as U+FFFD, one per
 * byte, a newline as \n, " and \ escaped. At most HK_PROM_VALUE_MAX
 * bytes: a longer value keeps its first whole characters and escapes, then
 * "…" and 8 hex digits of the FNV-1a hash of all of s, so that two long
 * paths stay two values (not a secret: a user can make two collide, and
 * gets two of their own processes shown alike).
 */
void hk_prom_value__write(struct hk_prom_value *v, struct hk_out *o, const char *s, size_t n);

/*
 * e's process's two label sets, malloc'd: its gauges' (pid, comm, label)
 * into *labels, its info series' (pid, comm, cgroup, unit, container_id,
 * pod_uid) into *info; wl NULL: unit and ids "". false: no memory.
 */
bool hk_prom_value__sets(struct hk_prom_value *v, const struct hk_event *e, const char *cgroup,
			 const struct hk_workload *wl, char **labels, char **info);

#endif /* HK_USER_PROM_VALUE_H */
