// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * postmortem_hist.c - what the post-mortem keeps of a process until it
 * dies (postmortem.h): a fixed table of HK_PM_PROCS histories, each two
 * rings, so that the tool's memory does not grow with the host's
 * processes or with how long one of them lives.
 */
#include <string.h>
#include "postmortem_hist.h"

bool hk_pm__is_mem_label(__u32 label)
{
	return label == HK_OOM_RISK || label == HK_MEM_THRASHING || label == HK_MEM_THROTTLED;
}

struct hk_pm_proc *hk_pm_hist__find(struct hk_pm_hist *h, __u32 pid, __u64 start_time_ns)
{
	unsigned int i;

	if (!pid)
		return NULL;
	for (i = 0; i < HK_PM_PROCS; i++) {
		struct hk_pm_proc *p = &h->procs[i];

		/* a start time of 0 (a kill before 6.8 gives none): the PID */
		if (p->pid == pid &&
		    (!start_time_ns || !p->start_time_ns || p->start_time_ns == start_time_ns))
			return p;
	}
	return NULL;
}

struct hk_pm_proc *hk_pm_hist__add(struct hk_pm_hist *h, __u32 pid, __u64 start_time_ns,
				   const char *comm, __u64 now_ns)
{
	struct hk_pm_proc *p = hk_pm_hist__find(h, pid, start_time_ns), *lru = NULL;
	unsigned int i;

	if (p || !pid)
		return p;
	for (i = 0; i < HK_PM_PROCS && !p; i++) {
		if (!h->procs[i].pid)
			p = &h->procs[i];
		else if (!lru || h->procs[i].heard_ns < lru->heard_ns)
			lru = &h->procs[i];
	}
	if (!p) {
		p = lru;
		h->evicted++;
	}
	hk_pm_hist__drop(p);
	p->pid = pid;
	p->start_time_ns = start_time_ns;
	p->heard_ns = now_ns;
	/* an event's comm is NUL-padded, not always NUL-terminated */
	memcpy(p->comm, comm, strnlen(comm, HK_COMM_LEN - 1));
	return p;
}

void hk_pm_hist__label(struct hk_pm_proc *p, __u64 time_ns, __u32 from, __u32 to)
{
	struct hk_pm_label *l = &p->labels[p->nr_labels % HK_PM_LABELS];

	l->time_ns = time_ns;
	l->from = from;
	l->to = to;
	p->nr_labels++;
	p->label = to;
	if (time_ns > p->heard_ns)
		p->heard_ns = time_ns;
}

void hk_pm_hist__sample(struct hk_pm_proc *p, const struct hk_pm_sample *s)
{
	const struct hk_pm_sample *last;

	if (p->nr_samples) {
		last = &p->samples[(p->nr_samples - 1) % HK_PM_SAMPLES];
		if (s->time_ns <= last->time_ns)
			return;
	}
	p->samples[p->nr_samples % HK_PM_SAMPLES] = *s;
	p->nr_samples++;
	if (s->time_ns > p->heard_ns)
		p->heard_ns = s->time_ns;
}

void hk_pm_hist__drop(struct hk_pm_proc *p)
{
	/* the rings need no clearing: their counts say what they hold */
	p->pid = 0;
	p->label = HK_OK;
	p->start_time_ns = 0;
	p->heard_ns = 0;
	p->nr_labels = 0;
	p->nr_samples = 0;
	p->profile[0] = '\0';
	memset(p->comm, 0, sizeof(p->comm));
}
