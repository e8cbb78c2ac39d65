// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * evidence.c - why a process holds its label, in a few words: the
 * human line's evidence (hk_out__evidence) cut to what fits beside a table
 * row, from the latest window (hk_proc.ev), and whether the label is on
 * its way out.
 */
#include <string.h>
#include "output/format.h"
#include "output/mem_blame_scope.h"
#include "view.h"

#define SEP " \xc2\xb7 "		/* " · " */

/* A peer's comm from hk_procs; left empty (the PID alone) without one. */
static void peer_comm(char *comm, const struct hk_status_view *v, __u32 pid)
{
	const char *c = pid ? hk_status_view__comm(v, pid) : NULL;

	if (c)
		memcpy(comm, c, HK_COMM_LEN);
}

/* A process stalled in reclaim: who grew under its limit in the latest
 * window, from the snapshot's entries (as the transition's line says). */
static void growers(struct hk_out *o, const struct hk_status_view *v,
		    const struct hk_status_row *r)
{
	struct hk_mem_blame_ctx x = { .procs_fd = -1 };
	const struct hk_status_snap *s = v->snap;
	struct hk_mem_blame b;
	__u32 label = r->p->hyst.label;

	if ((label != HK_MEM_THRASHING && label != HK_MEM_THROTTLED) || r->quiet)
		return;
	if (!hk_mem_blame__snapshot(&x, label, r->p, s->pids, s->procs, s->n, &b))
		hk_out__growers(o, &b);
	hk_mem_blame__free(&x);
}

void hk_status__evidence(struct hk_out *o, const struct hk_status_view *v,
			 const struct hk_status_row *r, bool raw)
{
	const struct hk_hyst *h = &r->p->hyst;
	struct hk_event e = { .ev = r->p->ev };

	/* the latest window missed the label: it goes after exit_windows */
	if (h->label != HK_OK && h->cand != h->label)
		hk_out__printf(o, "leaving: %u of %u windows without it" SEP,
			   h->miss_windows, v->snap->cfg.exit_windows);
	peer_comm(e.aggressor_comm, v, e.ev.aggressor_tgid);
	peer_comm(e.victim_comm, v, e.ev.victim_tgid);
	hk_out__evidence(o, &e, h->label,
			 HK_EVIDENCE_SHORT | (raw ? HK_EVIDENCE_RAW_COMMS : 0));
	growers(o, v, r);
}
