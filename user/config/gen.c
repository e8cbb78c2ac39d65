// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * gen.c - --generate-config: every key, commented, at its current
 * value, in a file that parses back to the same config.
 */
#include <stdio.h>
#include <string.h>
#include "keys.h"

static const char generate_header[] =
	"# hotspot-k configuration\n"
	"#\n"
	"# `key = value` lines inside [sections] named after the diagnoses. `#`\n"
	"# starts a comment, to the end of the line; blank lines are ignored.\n"
	"# Keys left out keep their defaults: a file needs only the lines it\n"
	"# changes. This file sets every key, to its current value.\n"
	"#\n"
	"# Values carry units:\n"
	"#   durations  ns, us, ms, s, m, h, d; the unit is required (5s, 250ms)\n"
	"#   sizes      B, KiB, MiB, GiB, TiB; a bare number is bytes (64MiB).\n"
	"#              K, M, G, T and KB, MB, GB, TB are accepted and mean the\n"
	"#              same binary multiples (1M = 1MB = 1MiB = 1048576 bytes)\n"
	"#   shares     percent, two decimals at most; the % is required (12.5%)\n"
	"#   counts     a number, or with k (x 1000) or M (x 1000000) (10k)\n"
	"# A decimal fraction is fine when the result is whole: 1.5s, 1.5GiB.\n"
	"# Rates are per second and shares are of the window, so the thresholds\n"
	"# do not depend on the interval.\n";

static const char *kind_name(enum hk_unit_kind kind)
{
	switch (kind) {
	case HK_UNIT_DURATION_NS:
		return "Duration";
	case HK_UNIT_DURATION_S:
		return "Duration, in whole seconds";
	case HK_UNIT_BYTES:
		return "Size";
	case HK_UNIT_PCT_X100:
		return "Percent";
	case HK_UNIT_COUNT:
		return "Count";
	case HK_UNIT_INT:
		return "Plain number";
	case HK_UNIT_PID_LIST:
		return "PIDs, comma-separated, at most 16";
	case HK_UNIT_COMM_LIST:
		return "Process names, comma-separated, at most 8";
	case HK_UNIT_PATH:
		return "A cgroup path";
	case HK_UNIT_PATH_LIST:
		return "Cgroup paths, comma-separated, at most 16";
	}
	return "";
}

/* Each line of text as a comment. */
static void print_comment(FILE *out, const char *text)
{
	const char *nl;

	for (; *text; text = nl + 1) {
		nl = strchrnul(text, '\n');
		fprintf(out, "# %.*s\n", (int)(nl - text), text);
		if (!*nl)
			break;
	}
}

int hk_config__generate(const struct hk_config *c, FILE *out)
{
	char val[32], def[32], range[80], text[HK_CONFIG_TEXT_MAX];
	const struct hk_key *k;
	size_t s, i;

	fputs(generate_header, out);
	for (s = 0; s < hk_nr_sections; s++) {
		fputs("\n", out);
		print_comment(out, hk_sections[s].help);
		fprintf(out, "[%s]\n", hk_sections[s].name);
		for (i = 0; i < hk_nr_keys; i++) {
			k = &hk_keys[i];
			if (strcmp(k->section, hk_sections[s].name))
				continue;
			fputs("\n", out);
			print_comment(out, k->help);
			if (hk_units__is_text(k->kind)) {
				/* an empty value: no filter, no list */
				hk_filter__print(k, c, text, sizeof(text));
				fprintf(out, "# %s. Default: %s.\n", kind_name(k->kind),
					k->def_text ? k->def_text : "none");
				fprintf(out, "%s =%s%s\n", k->name, *text ? " " : "", text);
				continue;
			}
			hk_units__print(val, sizeof(val), k->kind, hk_key__get(k, c));
			hk_units__print(def, sizeof(def), k->kind, k->def);
			hk_key__print_range(k, range, sizeof(range));
			fprintf(out, "# %s, %s. Default: %s.\n", kind_name(k->kind),
				range, def);
			fprintf(out, "%s = %s\n", k->name, val);
		}
	}
	fflush(out);
	return ferror(out) ? -1 : 0;
}
