/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * prom_stats.h - the tool's own counters (hk_stats: windows, walks,
 * events, losses) as Prometheus families, for the --prometheus textfile.
 */
#ifndef HK_USER_PROM_STATS_H
#define HK_USER_PROM_STATS_H

#include <stdio.h>
#include "shared/hotspot.h"

/* Each hk_stats field but the driver and the clock stamps, a family each
 * (HELP, TYPE, the sample), in a fixed order, the tool's own cost
 * included (hk_prom_stats__write_cost); errors stay in out's. */
void hk_prom_stats__write(FILE *out, const struct hk_stats *st);

/* The tool's own cost (struct hk_cost) as hotspot_k_own_* families: the
 * same table discipline (a new field is exported or skipped on purpose). */
void hk_prom_stats__write_cost(FILE *out, const struct hk_cost *c);
/* Its [budget] steps and measures (hotspot_k_budget_*). */
void hk_prom_stats__write_budget(FILE *out, const struct hk_budget_use *b);

/* --metrics-listen's own work, counted by its server (metrics_http.h). */
struct hk_prom_http {
	__u64 scrapes;			/* 200 responses written whole */
	__u64 refused;			/* connections over the client limit */
	__u64 dropped;			/* no whole request in time, or too big */
};

/* Its three hotspot_k_metrics_* counter families. */
void hk_prom_stats__write_http(FILE *out, const struct hk_prom_http *h);

#endif /* HK_USER_PROM_STATS_H */
