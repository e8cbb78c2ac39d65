/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * prom_check.h - a strict reader of the Prometheus text format 0.0.4, for
 * text hotspot-k wrote. Written apart from user/output/prometheus.c, so that the
 * two do not share a bug; stricter than the format where hotspot-k promises
 * more (no comments, no blank lines, no control or bidi characters).
 */
#ifndef HK_TESTS_COMMON_PROM_CHECK_H
#define HK_TESTS_COMMON_PROM_CHECK_H

#include <stddef.h>

/*
 * NULL when text is valid: every line a "# HELP", a "# TYPE" right after
 * its HELP, or a sample of the family those two opened (families not
 * interleaved, none twice); names and label names well-formed, label
 * values UTF-8 with only \\, \" and \n escapes, no label twice in a series
 * and no series twice; values numbers; counters named "_total" and nothing
 * else; the last line ended. Otherwise why, with the line's number (in a
 * static buffer).
 */
const char *pc_check(const char *text);

/* Lines of text that are samples of the metric called name. */
size_t pc_count_samples(const char *text, const char *name);

#endif /* HK_TESTS_COMMON_PROM_CHECK_H */
