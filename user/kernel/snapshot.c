// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * snapshot.c - one snapshot of a running hotspot-k: its hk_config,
 * hk_stats and every entry of hk_procs, read through read-only fds.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "bpf_sys.h"
#include "instance.h"
#include "lib/msg.h"

/* Entries read per batch call; a bucket with more is retried larger. */
#define BATCH_ENTRIES 256

/* Every entry, batch by batch (a hash's batches go bucket by bucket, so
 * an entry that goes or comes meanwhile is never met twice). */
static int read_procs(int fd, __u32 cap, __u32 *pids, struct hk_proc *procs,
		      size_t *nr)
{
	__u32 chunk = BATCH_ENTRIES;
	__u64 in = 0, out = 0;
	bool first = true;
	size_t n = 0;
	int e;

	while (n < cap) {
		__u32 count = cap - n < chunk ? cap - n : chunk;

		e = hk_bpf_sys__lookup_batch(fd, first ? NULL : &in, &out, pids + n,
					     procs + n, &count);
		n += count;
		if (e == -ENOENT)
			break;		/* the end, with its last entries */
		if (e == -ENOSPC && !count && chunk < cap) {
			chunk *= 2;	/* one bucket holds more than chunk */
			continue;
		}
		if (e == -ENOSPC)
			break;		/* full: entries came meanwhile */
		if (e)
			return e;
		in = out;
		first = false;
	}
	*nr = n;
	return 0;
}

int hk_snapshot__read(const struct hk_instance *m, struct hk_status_snap *s,
		      __u32 **pids, struct hk_proc **procs, char *err, size_t err_len)
{
	const __u32 zero = 0;
	int e;

	*pids = NULL;
	*procs = NULL;
	memset(s, 0, sizeof(*s));
	s->max_procs = m->max_procs;
	s->pinned = m->pinned;
	e = hk_bpf_sys__lookup(m->config_fd, &zero, &s->cfg);
	if (!e)
		e = hk_bpf_sys__lookup(m->stats_fd, &zero, &s->stats);
	if (e) {
		hk_msg__fail(err, err_len, "reading hk_config and hk_stats: %s", strerror(-e));
		return e;
	}
	/* status_find refuses more; checked again where the size is used */
	if (m->max_procs > HK_STATUS_MAX_PROCS) {
		hk_msg__fail(err, err_len, "hk_procs (map id %u) holds up to %u entries, more "
			     "than a hotspot-k makes (%u)", m->procs_id, m->max_procs,
			     HK_STATUS_MAX_PROCS);
		memset(s, 0, sizeof(*s));
		return -EPROTO;
	}
	/* one more than the map holds: never a zero-size allocation */
	*pids = calloc((size_t)m->max_procs + 1, sizeof(**pids));
	*procs = calloc((size_t)m->max_procs + 1, sizeof(**procs));
	if (!*pids || !*procs) {
		e = -ENOMEM;
	} else {
		e = read_procs(m->procs_fd, m->max_procs, *pids, *procs, &s->n);
		s->pids = *pids;
		s->procs = *procs;
	}
	if (e) {
		hk_msg__fail(err, err_len, "reading hk_procs (map id %u): %s", m->procs_id,
			     strerror(-e));
		free(*pids);
		free(*procs);
		*pids = NULL;
		*procs = NULL;
		memset(s, 0, sizeof(*s));
	}
	return e;
}
