/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * output/ - the fourth step of the flow: a ring-buffer record -> a line on
 * the terminal or in JSON, and a metric. No BPF: the unit tests and the
 * fuzz targets feed it made-up records.
 *
 *   printer.c     every transition written, or a reason why not
 *   format.h      one transition as a line: human.c, json.c; labels.c
 *                 names the labels, reasons and drivers
 *   humanize.c    numbers and times as people read them
 *   prometheus.c  the flagged set and counters as Prometheus text
 *                 (prom_value.c: label values, prom_stats.c: the tool's
 *                 own counters); prom_file.c writes it as --prometheus
 *                 FILE, metrics_http.c serves it for --metrics-listen
 *                 (metrics_addr.c: ADDR, metrics_listen.c: the socket,
 *                 http_req.c: the request)
 */
#ifndef HK_USER_OUTPUT_FACE_H
#define HK_USER_OUTPUT_FACE_H

#include "format.h"
#include "humanize.h"
#include "printer.h"
#include "prometheus.h"

#endif /* HK_USER_OUTPUT_FACE_H */
