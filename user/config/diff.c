// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * diff.c - what a reload changes, key by key, in the config file's
 * own words: "general.interval 5s -> 1s, filter.pids  -> 4300"; and the
 * cgroup filter's id when its path now names a cgroup made anew.
 */
#include <stdio.h>
#include <string.h>
#include "keys.h"

static void print_key(const struct hk_key *k, const struct hk_config *c, char *buf,
		      size_t len)
{
	if (hk_units__is_text(k->kind))
		hk_filter__print(k, c, buf, len);
	else
		hk_units__print(buf, len, k->kind, hk_key__get(k, c));
}

int hk_config__diff(const struct hk_config *a, const struct hk_config *b, char *buf,
		    size_t len)
{
	char va[HK_CONFIG_TEXT_MAX], vb[HK_CONFIG_TEXT_MAX];
	size_t i, off = 0;
	int n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < hk_nr_keys; i++) {
		const struct hk_key *k = &hk_keys[i];

		print_key(k, a, va, sizeof(va));
		print_key(k, b, vb, sizeof(vb));
		if (!strcmp(va, vb))
			continue;
		n++;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%s.%s %s -> %s",
					n > 1 ? ", " : "", k->section, k->name,
					*va ? va : "(none)", *vb ? vb : "(none)");
	}
	/* the same path, another cgroup: made anew since (systemctl restart),
	 * and the filter must follow it */
	if (a->filter_cgroup[0] && !strcmp(a->filter_cgroup, b->filter_cgroup) &&
	    (a->filter_cgroup_id != b->filter_cgroup_id ||
	     a->filter_cgroup_hier != b->filter_cgroup_hier)) {
		n++;
		if (off < len)
			off += snprintf(buf + off, len - off, "%sfilter.cgroup %.*s: id %llu -> "
					"%llu (made anew)", n > 1 ? ", " : "",
					HK_FILTER_PATH_LEN, a->filter_cgroup,
					(unsigned long long)a->filter_cgroup_id,
					(unsigned long long)b->filter_cgroup_id);
	}
	return n;
}

int hk_config__filters_differ(const struct hk_config *a, const struct hk_config *b)
{
	return memcmp(&a->filter_pids, &b->filter_pids, sizeof(a->filter_pids)) ||
	       memcmp(&a->filter_comms, &b->filter_comms, sizeof(a->filter_comms)) ||
	       memcmp(&a->exclude_comms, &b->exclude_comms, sizeof(a->exclude_comms)) ||
	       a->filter_cgroup_id != b->filter_cgroup_id ||
	       a->filter_cgroup_hier != b->filter_cgroup_hier;
}
