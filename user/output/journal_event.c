// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * journal_event.c - a transition as a journal entry: the line as MESSAGE,
 * who the process is and the evidence as HOTSPOT_K_* fields, named as the
 * JSON line's keys upper-cased (json.c), so that a pipeline reads the same
 * numbers either way. What JSON says null is left out.
 */
#include <string.h>
#include "format.h"
#include "journal.h"
#include "lib/escape.h"
#include "oom_memcg.h"
#include "shared/oom_kill.h"

#define F(name) "HOTSPOT_K_" name

/* a path is cut where the JSON line cuts it; the line, four such values
 * and ~60 short fields fit one entry (test_journal.c sends the widest) */
_Static_assert(HK_FORMAT_PATH_MAX <= HK_JOURNAL_TEXT_MAX, "a path fits a field's bound");
_Static_assert(HK_FORMAT_LINE_MAX + 4 * HK_JOURNAL_TEXT_MAX + 8192 <= HK_JOURNAL_ENTRY_MAX,
	       "the widest entry fits HK_JOURNAL_ENTRY_MAX");

/* hundredths as the JSON writes them: 9712 -> 97.12 */
static void pct(struct hk_jentry *j, const char *name, __u32 x100)
{
	hk_jentry__addf(j, name, "%u.%02u", x100 / 100, x100 % 100);
}

static void u64(struct hk_jentry *j, const char *name, __u64 v)
{
	hk_jentry__addf(j, name, "%llu", (unsigned long long)v);
}

static void s64(struct hk_jentry *j, const char *name, __s64 v)
{
	hk_jentry__addf(j, name, "%lld", (long long)v);
}

static void head(struct hk_jentry *j, unsigned int kind, const char *msg, size_t n,
		 int priority)
{
	const char *id = hk_jmsg__id(kind);

	/* MESSAGE first: an entry cut short still says what happened */
	hk_jentry__add(j, "MESSAGE", msg, n);
	hk_jentry__addf(j, "PRIORITY", "%d", priority);
	hk_jentry__add(j, "SYSLOG_IDENTIFIER", HK_JOURNAL_IDENTIFIER,
		       strlen(HK_JOURNAL_IDENTIFIER));
	if (id)
		hk_jentry__add(j, "MESSAGE_ID", id, strlen(id));
}

void hk_journal__line_entry(struct hk_jentry *j, enum hk_jmsg kind, const char *msg, size_t n,
			    int priority)
{
	head(j, kind, msg, n, priority);
}

/* "NAME_PID", "NAME_COMM": a peer the evidence names (json_out.h's) */
static void peer(struct hk_jentry *j, const char *pid_name, const char *comm_name, __u32 pid,
		 const char *comm)
{
	if (!pid)
		return;
	u64(j, pid_name, pid);
	if (comm[0])
		hk_jentry__add_text(j, comm_name, comm, hk_comm__len(comm), HK_COMM_LEN);
}

static void oom(struct hk_jentry *j, const struct hk_event *e, const char *memcg)
{
	const struct hk_oom_kill *k = &e->oom;
	char name[HK_OOM_NAME_LEN + 32];

	if (!memcg) {
		hk_oom_memcg__name(name, sizeof(name), k, NULL);
		memcg = name;
	}
	hk_jentry__add_text(j, F("OOM_MEMCG"), memcg, strlen(memcg), HK_FORMAT_PATH_MAX);
	u64(j, F("OOM_MEMCG_ID"), k->memcg_id);
	u64(j, F("OOM_LIMIT_BYTES"), k->limit_bytes);
	u64(j, F("OOM_USAGE_BYTES"), k->usage_bytes);
	hk_jentry__addf(j, F("FLAGGED"), "%s", k->flagged ? "true" : "false");
	if (k->flagged)
		u64(j, F("FLAGGED_FOR_S"), hk_oom_flagged_for_s(k));
	hk_jentry__addf(j, F("TRACKED"), "%s", k->tracked ? "true" : "false");
}

static void evidence(struct hk_jentry *j, const struct hk_event *e)
{
	const struct hk_evidence *ev = &e->ev;

	u64(j, F("WINDOWS"), e->windows);
	pct(j, F("CPU_PCT"), ev->cpu_pct_x100);
	pct(j, F("THREAD_CPU_PCT"), ev->thread_cpu_pct_x100);
	pct(j, F("THREAD_QUEUED_PCT"), ev->thread_queued_pct_x100);
	pct(j, F("RUN_DELAY_PCT"), ev->wait_pct_x100);
	pct(j, F("THREAD_RUN_DELAY_PCT"), ev->thread_wait_pct_x100);
	pct(j, F("THROTTLED_PCT"), ev->throttled_pct_x100);
	pct(j, F("THROTTLED_PER_CPU_PCT"), ev->throttled_norm_pct_x100);
	pct(j, F("QUOTA_CPUS"), ev->quota_cpus_x100);
	pct(j, F("IO_BLOCKED_PCT"), ev->io_pct_x100);
	if (ev->io_bytes_known)
		u64(j, F("IO_BYTES_PER_S"), ev->io_bytes_per_s);
	pct(j, F("MEMORY_STALL_PCT"), ev->mem_stall_pct_x100);
	u64(j, F("NR_THREADS"), ev->nr_threads);
	u64(j, F("FAULTS_PER_S"), ev->minor_faults_per_s + ev->major_faults_per_s);
	u64(j, F("RSS_BYTES"), ev->rss_bytes);
	u64(j, F("SWAP_BYTES"), ev->swap_bytes);
	s64(j, F("RSS_SLOPE_BYTES_PER_S"), ev->rss_slope_bytes_per_s);
	hk_jentry__addf(j, F("LIMIT_KIND"), "%s", hk_limit__name(ev->limit_kind, false));
	u64(j, F("LIMIT_BYTES"), ev->limit_bytes);
	u64(j, F("HEADROOM_BYTES"), ev->headroom_bytes);
	if (ev->eta_s != (__u64)HK_ETA_NONE)
		u64(j, F("ETA_S"), ev->eta_s);
	u64(j, F("MEM_HIGH_BYTES"), ev->mem_high_bytes);
	peer(j, F("AGGRESSOR_PID"), F("AGGRESSOR_COMM"), ev->aggressor_tgid, e->aggressor_comm);
	peer(j, F("VICTIM_PID"), F("VICTIM_COMM"), ev->victim_tgid, e->victim_comm);
}

void hk_journal__event_entry(struct hk_jentry *j, const struct hk_event *e, const char *msg,
			     size_t n, int priority, const struct hk_journal_who *who)
{
	const struct hk_workload *wl = who->workload;

	head(j, hk_jmsg__of_event(e), msg, n, priority);
	hk_jentry__addf(j, F("LABEL"), "%s", hk_label__id(e->to));
	hk_jentry__addf(j, F("FROM"), "%s", hk_label__id(e->from));
	u64(j, F("PID"), e->tgid);
	/* a user's names: any bytes, bounded (journal_entry.h) */
	hk_jentry__add_text(j, F("COMM"), e->comm, hk_comm__len(e->comm), HK_COMM_LEN);
	if (e->ns_ino)
		u64(j, F("NS_PID"), e->ns_pid);
	if (who->cgroup)
		hk_jentry__add_text(j, F("CGROUP"), who->cgroup, strlen(who->cgroup),
				    HK_FORMAT_PATH_MAX);
	if (wl && wl->unit[0])
		hk_jentry__add_text(j, F("UNIT"), wl->unit, strnlen(wl->unit, sizeof(wl->unit)),
				    sizeof(wl->unit));
	if (wl && wl->pod_uid[0])
		hk_jentry__add_text(j, F("POD_UID"), wl->pod_uid,
				    strnlen(wl->pod_uid, sizeof(wl->pod_uid)), sizeof(wl->pod_uid));
	if (wl && wl->container_id[0])
		hk_jentry__add_text(j, F("CONTAINER_ID"), wl->container_id,
				    strnlen(wl->container_id, sizeof(wl->container_id)),
				    sizeof(wl->container_id));
	evidence(j, e);
	if (e->to == HK_OOM_KILLED)
		oom(j, e, who->oom_memcg);
}
