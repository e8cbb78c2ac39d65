// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ksyms.c - kernel addresses to names through /proc/kallsyms, read once
 * into a sorted table (~120 k text symbols on 6.18, ~4 MB).
 *
 * kallsyms gives no sizes: a function runs to the next symbol. Modules'
 * symbols end in "\t[module]"; the suffix is dropped so that a frame is
 * one token and reads as in an oops ("nvme_queue_rq", not
 * "nvme_queue_rq [nvme]"); names stay unique enough to tell them apart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flame/frame_name.h"
#include "symbolize.h"
#include "symtab.h"

struct hk_ksyms {
	struct hk_symtab tab;
};

/* One kallsyms line, "ADDR TYPE NAME[\t[module]]"; 0 or -ENOMEM. */
static int add_line(struct hk_symtab *t, const char *line, int *nonzero)
{
	unsigned long long addr;
	const char *p;
	char *end;
	size_t n;

	errno = 0;
	addr = strtoull(line, &end, 16);
	if (errno || end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return 0;
	/* text: local and global, weak ones too (w/W: weak functions) */
	if (!strchr("tTwW", end[1]))
		return 0;
	p = end + 3;
	n = strcspn(p, " \t\n");
	if (!n)
		return 0;
	if (addr)
		*nonzero = 1;
	return hk_symtab__add(t, addr, 0, p, n, end[1] == 'T' ? HK_SYM_GLOBAL :
			      end[1] == 'W' ? HK_SYM_WEAK : HK_SYM_LOCAL);
}

struct hk_ksyms *hk_ksyms__load(void)
{
	struct hk_ksyms *k;
	char *line = NULL;
	size_t cap = 0;
	int nonzero = 0, err = 0;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k) {
		err = ENOMEM;
		goto close_file;
	}
	while (getline(&line, &cap, f) > 0) {
		if (add_line(&k->tab, line, &nonzero)) {
			err = ENOMEM;
			break;
		}
	}
	if (!err && ferror(f))
		err = EIO;
	/* kptr_restrict (or no CAP_SYSLOG) shows every address as 0 */
	if (!err && !nonzero)
		err = EPERM;
	if (err) {
		hk_ksyms__free(k);
		k = NULL;
	} else {
		hk_symtab__sort(&k->tab);
	}
close_file:
	free(line);
	fclose(f);
	errno = err;
	return k;
}

const char *hk_ksyms__name(const struct hk_ksyms *k, __u64 addr, char *buf, size_t len)
{
	const char *name = k ? hk_symtab__find(&k->tab, addr) : NULL;

	if (!len)
		return "";
	return hk_frame_name__copy(buf, len, name ? name : "[kernel]");
}

void hk_ksyms__free(struct hk_ksyms *k)
{
	if (!k)
		return;
	hk_symtab__free(&k->tab);
	free(k);
}
