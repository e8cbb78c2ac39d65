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

#endif /* HK_USER_PROM_STATS_H */
