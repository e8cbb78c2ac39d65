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
 * (HELP, TYPE, the sample), in a fixed order; errors stay in out's. */
void hk_prom_stats__write(FILE *out, const struct hk_stats *st);

#endif /* HK_USER_PROM_STATS_H */
