// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * usage.c - usage errors in one style for every command (usage.h): the
 * review found four wordings, three hint forms and getopt's argv[0]
 * prefix ("./hotspot-k:", "follow:") across six commands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cmd.h"
#include "lib/msg.h"
#include "usage.h"

int hk_usage__error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hotspot-k%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'hotspot-k%s%s --help' for more information.\n",
		cmd ? " " : "", cmd ? cmd : "");
	return EXIT_USAGE;
}

int hk_usage__getopt(const char *cmd, int opt, char **argv, const struct option *opts)
{
	const char *arg = argv[optind - 1];
	char q[HK_QUOTE_BUF], name[64];
	const struct option *o, *hit = NULL;
	size_t len = 0;
	int n = 0;

	/* the long option argv[optind - 1] names, if it is one (exactly, or
	 * the options it abbreviates) */
	if (!strncmp(arg, "--", 2)) {
		len = strcspn(arg + 2, "=");
		for (o = opts; o->name; o++) {
			if (strncmp(o->name, arg + 2, len))
				continue;
			hit = o;
			if (strlen(o->name) == len) {
				n = 1;
				break;
			}
			n++;
		}
	}
	/* a short option, maybe inside a cluster (-jx), where optind may not
	 * have moved past it yet: optopt names it (0 for a long one unknown;
	 * a long one's val when it is the long one at fault) */
	if (optopt > 0 && optopt < 256 && !(hit && n == 1 && hit->val == optopt)) {
		snprintf(name, sizeof(name), "-%c", optopt);
		if (opt == ':')
			return hk_usage__error(cmd, "option '%s' needs a value", name);
		return hk_usage__error(cmd, "unknown option '%s'",
				       hk_msg__quote(q, sizeof(q), name));
	}
	snprintf(name, sizeof(name), "%.*s", (int)(len + 2 < sizeof(name) ? len + 2 :
						  sizeof(name) - 1), arg);
	if (opt == ':' && hit)
		return hk_usage__error(cmd, "option '--%s' needs a value", hit->name);
	if (n > 1)
		return hk_usage__error(cmd, "ambiguous option '%s'",
				       hk_msg__quote(q, sizeof(q), name));
	if (n == 1 && hit->has_arg == no_argument && arg[len + 2] == '=')
		return hk_usage__error(cmd, "option '--%s' takes no value", hit->name);
	return hk_usage__error(cmd, "unknown option '%s'", hk_msg__quote(q, sizeof(q), name));
}
