/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * keys.h - the table of config keys, shared by the parser, the checks
 * and the generator (internal to config/).
 *
 * One table drives the defaults, the parser, the range checks and
 * --generate-config, so that they cannot disagree.
 */
#ifndef HK_USER_CONFIG_KEYS_H
#define HK_USER_CONFIG_KEYS_H

#include <stddef.h>
#include "config.h"
#include "lib/units.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct hk_section {
	const char *name;
	const char *help;
};

struct hk_key {
	const char *section;
	const char *name;
	enum hk_unit_kind kind;
	size_t off;
	size_t size;
	__u64 def, min, max;	/* in the stored unit; max ~0: no maximum */
	const char *help;
	const char *def_text;	/* a text key's default; NULL: empty */
};

/* A text key's value as --generate-config and a reload's diff print it:
 * the longest is a full [freeze] never list. */
#define HK_CONFIG_TEXT_MAX (HK_FREEZE_NEVER * (HK_FILTER_PATH_LEN + 2))

/* A key of an earlier version: a file that sets one is told why it went. */
struct hk_removed_key {
	const char *section, *name, *why;
};

extern const struct hk_section hk_sections[];
extern const size_t hk_nr_sections;
extern const struct hk_key hk_keys[];
extern const size_t hk_nr_keys;
extern const struct hk_removed_key hk_removed_keys[];
extern const size_t hk_nr_removed_keys;

/* The key's field of c, widened to 64 bits. */
__u64 hk_key__get(const struct hk_key *k, const struct hk_config *c);
/* Store v (within the key's range, which fits the field) into c. */
void hk_key__set(const struct hk_key *k, struct hk_config *c, __u64 v);
/* "100ms..1h", or "at least 1" when there is no maximum. */
void hk_key__print_range(const struct hk_key *k, char *buf, size_t len);
/* The [filter] keys' text values (filter.c): 0, or -1 with why. */
int hk_filter__parse(const struct hk_key *k, struct hk_config *c, const char *val,
		     char *why, size_t why_len);
void hk_filter__print(const struct hk_key *k, const struct hk_config *c, char *buf,
		      size_t len);

/* The key of that section and name; NULL if there is none. */
const struct hk_key *hk_key__find(const char *section, const char *name);

#endif /* HK_USER_CONFIG_KEYS_H */
