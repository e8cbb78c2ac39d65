/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * run_report.h - the lines a run prints at its start and its end
 * (run_report.c), each in the journal with its own MESSAGE_ID.
 */
#ifndef HK_USER_RUN_REPORT_H
#define HK_USER_RUN_REPORT_H

#include "kernel/loader.h"
#include "output/printer.h"

/* Which driver walks, why, and what that costs this process per window. */
void hk_run__print_start(struct hk_loader *l, __u64 interval_ns);

/* The summary; once, from the loop's cleanup or from a stuck one's
 * (stopguard.h). */
void hk_run__print_summary(struct hk_loader *l, const struct hk_printer *pr);

#endif /* HK_USER_RUN_REPORT_H */
