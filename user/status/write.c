// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * write.c - a snapshot to the table or the JSON: builds the view and
 * hands it to one of the two writers. Apart from view.c so that the
 * view is built by a file the writers (text.c, json.c) use
 * and never one that calls them back: the includes run one way.
 */
#include "view.h"

int hk_status__write(FILE *f, const struct hk_status_snap *s,
		     const struct hk_status_opts *o)
{
	struct hk_status_view v;
	int err;

	if (hk_status_view__build(&v, s, o->all ? o->top_n : 0))
		return -1;
	err = o->json ? hk_status__write_json(f, &v, o) : hk_status__write_text(f, &v, o);
	hk_status_view__free(&v);
	return err;
}
