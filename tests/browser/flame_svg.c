// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * flame_svg.c - folded stacks on stdin ("root;...;leaf COUNT", COUNT in
 * microseconds; a stack ending in ";[off-cpu]" is off-CPU time, as the
 * folded files of hotspot-k profile write it) to the SVG flame graph on
 * stdout, through the code hotspot-k profile writes it with
 * (hk_flame__add, hk_flame__write_svg_opts): the page
 * tests/browser/browser.py opens in chromium. With --bytes, as a memory
 * (growth) profile writes it: weights in bytes, its unit and legend. A fixture, not a profile: the test knows every
 * frame's weight, so its expectations are exact.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flame/flamegraph.h"

#define MAX_FRAMES	64

static int add_line(struct hk_flame *f, char *line, unsigned long no)
{
	const char *frames[MAX_FRAMES];
	char *sp = strrchr(line, ' '), *end, *tok, *save = NULL;
	unsigned long long us;
	size_t n = 0;
	int off_cpu = 0;

	if (!sp)
		goto bad;
	*sp = '\0';
	errno = 0;
	us = strtoull(sp + 1, &end, 10);
	if (errno || end == sp + 1 || (*end && *end != '\n'))
		goto bad;
	for (tok = strtok_r(line, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		if (n == MAX_FRAMES)
			goto bad;
		frames[n++] = tok;
	}
	/* the folded file's extra leaf: the off-CPU flag again */
	if (n > 1 && !strcmp(frames[n - 1], HK_FLAME_OFF_CPU)) {
		n--;
		off_cpu = 1;
	}
	if (!n || hk_flame__add(f, frames, n, us, off_cpu))
		goto bad;
	return 0;
bad:
	fprintf(stderr, "flame-svg: stdin line %lu: not \"root;...;leaf COUNT\" (at most %d frames)\n",
		no, MAX_FRAMES);
	return -1;
}

int main(int argc, char **argv)
{
	struct hk_flame_svg_opts opts = {
		.title = "fixture", .subtitle = "tests/browser/flame.folded",
	};
	struct hk_flame *f;
	unsigned long no = 0;
	char line[4096];
	int ret = 1;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--bytes"))) {
		fprintf(stderr, "usage: flame-svg [--bytes] <FOLDED >SVG\n");
		return 2;
	}
	if (argc == 2) {
		/* profile_write.c's for a memory profile */
		opts.unit = "bytes";
		opts.legend = "width: bytes of anonymous memory grown (pale: kernel frames)";
	}
	f = hk_flame__new();
	if (!f) {
		fprintf(stderr, "flame-svg: out of memory\n");
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		no++;
		if (line[0] == '\n' || line[0] == '#')
			continue;
		if (add_line(f, line, no))
			goto out;
	}
	if (hk_flame__write_svg_opts(f, stdout, &opts) || fflush(stdout)) {
		fprintf(stderr, "flame-svg: writing the SVG failed\n");
		goto out;
	}
	ret = 0;
out:
	hk_flame__free(f);
	return ret;
}
