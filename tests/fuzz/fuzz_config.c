// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * fuzz_config.c - libFuzzer target: hk_config__parse_string() on any text.
 *
 * It returns 0 or -1. On -1 the config is untouched and the message is one
 * line that starts with the name it was given (the file's path) and ':',
 * as safe for a terminal as a human line (user text in it is quoted). On 0 the config
 * validates or says why in one line; either way --generate-config's text
 * of it parses back, over the defaults, to the same thresholds, and that
 * text generates the same text again.
 *
 * The input is the text itself, so that the corpus holds real config files;
 * its size picks the name and the room given for the message.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "config/config.h"
#include "fuzz.h"
#include "text_check.h"

/* The thresholds: everything before the derived and environment fields. */
#define THRESH_LEN offsetof(struct hk_config, trend_stride_ns)
/* The filters as the file gives them (their cgroup's id is resolved later). */
#define FILTERS_OFF offsetof(struct hk_config, filter_pids)
#define FILTERS_LEN (offsetof(struct hk_config, filter_cgroup_id) - FILTERS_OFF)

/* NULL is called "config"; the second must not be taken as a format. */
static const char *const names[] = { "fuzz.conf", "/etc/a dir/%s%n:x.conf", NULL };
static const size_t err_lens[] = { HK_ERR_LEN, 1, 17, 0 };

/* err (the first len bytes) is one NUL-terminated line of text. */
static void check_message(const char *err, size_t len, const char *what)
{
	size_t n = strnlen(err, len), at = 0;
	const char *why;

	FZ_CHECK(n < len, "%s: no NUL within the %zu bytes given", what, len);
	/* as safe for a terminal as a human line: no C0/C1 control, no bidi
	 * or invisible character, valid UTF-8 (user text in it is quoted) */
	why = tc_term_unsafe(err, n, false, &at);
	if (why)
		fz_dump(what, err, n);
	FZ_CHECK(!why, "%s: %s at byte %zu", what, why, at);
}

/* hk_config__generate() into a string; the caller frees it. */
static char *generate(const struct hk_config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ret;

	FZ_CHECK(f, "open_memstream failed");
	ret = hk_config__generate(c, f);
	FZ_CHECK(!fclose(f), "fclose of a memory stream failed");
	FZ_CHECK(ret == 0, "hk_config__generate returned %d", ret);
	return text;
}

static void round_trip(const struct hk_config *parsed)
{
	struct hk_config c = *parsed, back, derived;
	char err[HK_ERR_LEN], *text, *again;
	int valid, ret;

	valid = !hk_config__validate(&c, err, sizeof(err));
	if (!valid) {
		check_message(err, sizeof(err), "validate");
		FZ_CHECK(err[0], "validate failed with an empty message");
	} else {
		hk_config__derive(&c);
	}

	text = generate(&c);
	hk_config__defaults(&back);
	ret = hk_config__parse_string(&back, text, "generated", err, sizeof(err));
	if (ret)
		fz_dump("generated", text, strlen(text));
	FZ_CHECK(ret == 0, "generated text does not parse back: %s", err);
	FZ_CHECK(!memcmp(&back, &c, THRESH_LEN),
		 "generated text parses back to other thresholds");
	FZ_CHECK(!memcmp((char *)&back + FILTERS_OFF, (char *)&c + FILTERS_OFF, FILTERS_LEN),
		 "generated text parses back to other filters");
	ret = !hk_config__validate(&back, err, sizeof(err));
	FZ_CHECK(ret == valid, "validate says %d before and %d after the round "
		 "trip", valid, ret);
	if (valid) {
		derived = back;
		hk_config__derive(&derived);
		FZ_CHECK(!memcmp(&derived, &c, sizeof(c)),
			 "the derived values differ after the round trip");
	}
	again = generate(&back);
	FZ_CHECK(!strcmp(text, again), "generating the round trip's config "
		 "gives another text");
	free(again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *name = names[size % ARRAY_SIZE(names)];
	const char *shown = name ? name : "config";
	size_t err_len = err_lens[size / ARRAY_SIZE(names) % ARRAY_SIZE(err_lens)];
	struct hk_config c, before;
	char *text, *err = NULL;
	size_t n;
	int ret;

	text = malloc(size + 1);
	FZ_CHECK(text, "out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	/* the message's own allocation: ASan sees a byte past err_len */
	if (err_len) {
		err = malloc(err_len);
		FZ_CHECK(err, "out of memory");
		memset(err, 'Z', err_len);
	}

	hk_config__defaults(&c);
	before = c;
	ret = hk_config__parse_string(&c, text, name, err, err_len);
	FZ_CHECK(ret == 0 || ret == -1, "returned %d", ret);
	if (ret) {
		FZ_CHECK(!memcmp(&c, &before, sizeof(c)),
			 "the config changed although parsing failed");
		if (err) {
			check_message(err, err_len, "error");
			n = strlen(shown);
			/* room for "NAME:" and more: the whole prefix */
			if (err_len > n + 1)
				FZ_CHECK(!strncmp(err, shown, n) && err[n] == ':',
					 "the message \"%s\" does not start with \"%s:\"",
					 err, shown);
			else
				FZ_CHECK(!strncmp(err, shown, err_len - 1),
					 "the cut message \"%s\" is not the start of \"%s:\"",
					 err, shown);
		}
	} else {
		round_trip(&c);
	}
	free(err);
	free(text);
	return 0;
}
