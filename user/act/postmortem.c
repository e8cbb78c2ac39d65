// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * postmortem.c - the OOM post-mortem as an act (postmortem.h): the
 * transitions a process makes into or out of a memory label start its
 * history; its windows are read from hk_procs while it lives (a leak that
 * holds OOM risk makes no transition until it dies); its oom_killed
 * transition writes the record, from the history and from what the kernel
 * read at the kill. A history ends with its process (exited, killed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/bpf_sys.h"
#include "lib/log.h"
#include "lib/sysinfo.h"
#include "postmortem.h"

struct hk_postmortem *hk_postmortem__new(const struct hk_config *cfg, const char *path)
{
	struct hk_postmortem *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->path = path;
	pm->dir.fd = -1;
	if (hk_postmortem__configure(pm, cfg)) {
		free(pm);
		return NULL;
	}
	return pm;
}

int hk_postmortem__configure(struct hk_postmortem *pm, const struct hk_config *cfg)
{
	char err[512], *buf;

	if (!pm)
		return 0;
	if (cfg->pm_record_bytes != pm->max_bytes) {
		buf = realloc(pm->buf, cfg->pm_record_bytes);
		if (!buf)
			return -1;
		pm->buf = buf;
		pm->max_bytes = cfg->pm_record_bytes;
	}
	pm->keep = cfg->pm_records;
	pm->poll_ns = cfg->interval_ns / 2;
	/* the directory once asked for: said once if it cannot be used */
	if (pm->keep && pm->dir.fd < 0 && !pm->dir_said &&
	    hk_pm_dir__open(&pm->dir, pm->path, true, err, sizeof(err))) {
		pm->dir_said = 1;
		hk_log__print(HK_LOG_WARNING, "OOM post-mortems are not written: %s\n", err);
	}
	return 0;
}

void hk_postmortem__free(struct hk_postmortem *pm)
{
	if (!pm)
		return;
	if (pm->written || pm->skipped || pm->failed)
		hk_log__print(HK_LOG_INFO, "OOM post-mortems: %llu written in %s/%s, %llu not "
			      "(an OOM-kill storm: at most %d a second of kills of processes "
			      "with no history), %llu failed\n", (unsigned long long)pm->written,
			      pm->path, HK_PM_SUBDIR, (unsigned long long)pm->skipped,
			      HK_PM_BARE_PER_S, (unsigned long long)pm->failed);
	hk_safefile__dir_close(&pm->dir);
	free(pm->buf);
	free(pm);
}

static void sample_of(struct hk_pm_sample *s, __u64 time_ns, const struct hk_evidence *ev)
{
	s->time_ns = time_ns;
	s->rss_bytes = ev->rss_bytes;
	s->slope_bytes_per_s = ev->rss_slope_bytes_per_s;
	s->eta_s = ev->eta_s;
	s->limit_bytes = ev->limit_bytes;
}

/* One of the second's HK_PM_BARE_PER_S records of kills with no history. */
static bool bare_take(struct hk_postmortem *pm, __u64 now_ns)
{
	if (now_ns >= pm->bare_since_ns + HK_NSEC_PER_SEC) {
		pm->bare_since_ns = now_ns;
		pm->bare_n = 0;
	}
	if (pm->bare_n >= HK_PM_BARE_PER_S)
		return false;
	pm->bare_n++;
	return true;
}

static void write_record(struct hk_postmortem *pm, const struct hk_event *e,
			 const struct hk_pm_proc *h, const char *memcg)
{
	struct hk_pm_record_in in = {
		.e = e, .h = h, .memcg = memcg,
		.wall_offset_ns = hk_sysinfo__wall_offset_ns(),
	};
	int n, err;

	if (pm->dir.fd < 0 || !pm->keep)
		return;
	/* an OOM-kill storm (thousands a minute of tiny cgroups' kills)
	 * must not keep the loop writing: a kill nothing was known of
	 * before takes a share of HK_PM_BARE_PER_S a second */
	if (!h && !bare_take(pm, e->time_ns)) {
		pm->skipped++;
		return;
	}
	n = hk_pm__record(pm->buf, pm->max_bytes, &in);
	err = n < 0 ? -EOVERFLOW :
		hk_pm_dir__write(&pm->dir, hk_pm__kill_unix_s(e, in.wall_offset_ns), e->tgid,
				 pm->buf, (size_t)n, pm->keep);
	if (!err) {
		pm->written++;
		return;
	}
	/* said the first time only: the kill's own line is out already */
	if (!pm->failed++)
		hk_log__print(HK_LOG_ERR, "OOM post-mortem of %u not written in %s/%s: %s\n",
			      e->tgid, pm->path, HK_PM_SUBDIR, strerror(-err));
}

void hk_postmortem__event(struct hk_postmortem *pm, const struct hk_event *e,
			  const char *memcg)
{
	struct hk_pm_proc *p;
	struct hk_pm_sample s;

	if (!pm)
		return;
	p = hk_pm_hist__find(&pm->hist, e->tgid, e->start_time_ns);
	if (e->type == HK_EV_ETA) {
		if (p) {
			sample_of(&s, e->time_ns, &e->ev);
			hk_pm_hist__sample(p, &s);
		}
		return;
	}
	if (e->type != HK_EV_TRANSITION)
		return;
	if (e->to == HK_OOM_KILLED) {
		write_record(pm, e, p, memcg);
		if (p)
			hk_pm_hist__drop(p);
		return;
	}
	if (e->to == HK_EXITED) {
		if (p)
			hk_pm_hist__drop(p);
		return;
	}
	if (!p && (hk_pm__is_mem_label(e->to) || hk_pm__is_mem_label(e->from)))
		p = hk_pm_hist__add(&pm->hist, e->tgid, e->start_time_ns, e->comm, e->time_ns);
	if (!p)
		return;
	hk_pm_hist__label(p, e->time_ns, e->from, e->to);
	sample_of(&s, e->time_ns, &e->ev);
	hk_pm_hist__sample(p, &s);
}

void hk_postmortem__profile(struct hk_postmortem *pm, __u32 pid, const char *prefix)
{
	struct hk_pm_proc *p;

	if (!pm)
		return;
	p = hk_pm_hist__find(&pm->hist, pid, 0);
	if (p)
		snprintf(p->profile, sizeof(p->profile), "%s", prefix);
}

void hk_postmortem__poll(struct hk_postmortem *pm, int procs_fd, __u64 now_ns)
{
	struct hk_pm_sample s;
	struct hk_proc proc;
	unsigned int i;

	if (!pm || procs_fd < 0 || now_ns < pm->polled_ns + pm->poll_ns)
		return;
	pm->polled_ns = now_ns;
	for (i = 0; i < HK_PM_PROCS; i++) {
		struct hk_pm_proc *p = &pm->hist.procs[i];

		/* a process back to OK holds its history, unread, until it
		 * enters a memory label again or dies */
		if (!p->pid || !hk_pm__is_mem_label(p->label) ||
		    hk_bpf_sys__lookup(procs_fd, &p->pid, &proc) ||
		    (p->start_time_ns && proc.start_time_ns != p->start_time_ns) ||
		    !proc.sample_ns)
			continue;
		sample_of(&s, proc.sample_ns, &proc.ev);
		hk_pm_hist__sample(p, &s);
	}
}
