/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * usage.h - the one way every command says a usage error: one line
 * "hotspot-k: ..." (the run) or "hotspot-k CMD: ...", then the hint
 * "Try 'hotspot-k [CMD] --help' for more information.", exit status 2.
 * getopt's own messages are off (opterr = 0) so that they say it too.
 */
#ifndef HK_USER_USAGE_H
#define HK_USER_USAGE_H

#include <getopt.h>

/* The message after the prefix, then the hint; returns EXIT_USAGE.
 * cmd: "status", ...; NULL: the run. */
int hk_usage__error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * getopt_long's '?' or ':' (its optstring starts with ':', opterr = 0),
 * said as hk_usage__error says it: an unknown, ambiguous or valueless
 * option, or one whose value is missing. Returns EXIT_USAGE.
 */
int hk_usage__getopt(const char *cmd, int opt, char **argv, const struct option *opts);

#endif /* HK_USER_USAGE_H */
