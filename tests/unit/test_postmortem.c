// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_postmortem.c - the OOM post-mortem (act/postmortem*.c): the record
 * byte for byte from a fixture history, its bounds (rings, the LRU of
 * histories) and its cut to record_max; the files written whole, 0600,
 * never through a symlink, the oldest removed past `records`; what
 * `status` lists of them; and the act from transitions to a file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "act/postmortem.h"
#include "check.h"
#include "format_fixtures.h"
#include "suites.h"

#define S_NS HK_NSEC_PER_SEC
#define MIB (1024ULL * 1024)
/* the kill at 100 s of CLOCK_MONOTONIC, 1764396000 on the wall clock */
#define KILL_NS (100 * S_NS)
#define WALL_OFF ((__s64)1764396000 * (__s64)S_NS - (__s64)KILL_NS)

static void kill_event(struct hk_event *e)
{
	memset(e, 0, sizeof(*e));
	e->type = HK_EV_TRANSITION;
	e->tgid = 4242;
	e->from = HK_OOM_RISK;
	e->to = HK_OOM_KILLED;
	e->time_ns = KILL_NS + S_NS / 2;
	e->start_time_ns = 7 * S_NS;
	strcpy(e->comm, "leak");
	e->oom.time_ns = KILL_NS;
	e->oom.start_time_ns = 7 * S_NS;
	e->oom.memcg_id = 812;
	e->oom.limit_bytes = 400 * MIB;
	e->oom.usage_bytes = 400 * MIB - 4096;
	e->oom.oom_risk_since_ns = 91 * S_NS;
	e->oom.window_ns = S_NS;
	e->oom.flagged = 1;
	e->oom.tracked = 1;
	strcpy(e->oom.memcg_name, "leak");
	e->oom.high_bytes = HK_OOM_UNSET_BYTES;
	e->oom.swap_max_bytes = 0;
	e->oom.limits_known = HK_OOM_HIGH_KNOWN | HK_OOM_SWAP_KNOWN;
	e->oom.events[HK_OOM_EV_MAX] = 27;
	e->oom.events[HK_OOM_EV_OOM] = 1;
	e->oom.events[HK_OOM_EV_OOM_KILL] = 1;
	/* a 5.15 kernel: no oom_group_kill */
	e->oom.events_known = (1U << HK_OOM_EV_OOM_GROUP_KILL) - 1;
}

static void sample(struct hk_pm_proc *p, __u64 t_ns, __u64 rss, __u64 eta_s)
{
	struct hk_pm_sample s = {
		.time_ns = t_ns, .rss_bytes = rss, .slope_bytes_per_s = 20 * MIB,
		.eta_s = eta_s, .limit_bytes = 400 * MIB,
	};

	hk_pm_hist__sample(p, &s);
}

/* The fixture: entered OOM risk at 91 s, a window a 3 s from 88 s on, and
 * one after the kill (not the victim's: left out). */
static struct hk_pm_proc *fixture(struct hk_pm_hist *h)
{
	struct hk_pm_proc *p;

	memset(h, 0, sizeof(*h));
	p = hk_pm_hist__add(h, 4242, 7 * S_NS, "leak", 88 * S_NS);
	hk_pm_hist__label(p, 91 * S_NS, HK_OK, HK_OOM_RISK);
	sample(p, 88 * S_NS, 100 * MIB, (__u64)HK_ETA_NONE);
	sample(p, 91 * S_NS, 160 * MIB, 12);
	sample(p, 94 * S_NS, 220 * MIB, 9);
	sample(p, 97 * S_NS, 280 * MIB, 6);
	sample(p, 100 * S_NS, 340 * MIB, 3);
	sample(p, 103 * S_NS, 400 * MIB, 0);
	strcpy(p->profile, "/var/lib/hotspot-k/hotspot-k.4242.oom_risk.T");
	return p;
}

static const char record_want[] =
	"{\"version\":1,\"pid\":4242,\"comm\":\"leak\",\"killed_unix_s\":1764396000,"
	"\"flagged\":true,\"killed\":\"2025-11-29T06:00:00Z\",\"flagged_for_s\":9,"
	"\"tracked\":true,\"memcg\":\".../leak\",\"memcg_id\":812,\"limit_bytes\":419430400,"
	"\"usage_bytes\":419426304,\"high_bytes\":\"max\",\"swap_max_bytes\":0,"
	"\"memory_events\":{\"low\":0,\"high\":0,\"max\":27,\"oom\":1,\"oom_kill\":1},"
	"\"growth_bytes_per_s\":20971520,\"eta_s\":3,\"trend_span_ms\":12000,"
	"\"labels\":[{\"t_ms\":-9000,\"from\":\"ok\",\"to\":\"oom_risk\"}],"
	"\"trend\":["
	"{\"t_ms\":-12000,\"rss_bytes\":104857600,\"slope_bytes_per_s\":20971520,"
	"\"eta_s\":null,\"limit_bytes\":419430400},"
	"{\"t_ms\":-9000,\"rss_bytes\":167772160,\"slope_bytes_per_s\":20971520,"
	"\"eta_s\":12,\"limit_bytes\":419430400},"
	"{\"t_ms\":-6000,\"rss_bytes\":230686720,\"slope_bytes_per_s\":20971520,"
	"\"eta_s\":9,\"limit_bytes\":419430400},"
	"{\"t_ms\":-3000,\"rss_bytes\":293601280,\"slope_bytes_per_s\":20971520,"
	"\"eta_s\":6,\"limit_bytes\":419430400},"
	"{\"t_ms\":0,\"rss_bytes\":356515840,\"slope_bytes_per_s\":20971520,"
	"\"eta_s\":3,\"limit_bytes\":419430400}],"
	"\"left_out\":{\"labels\":0,\"samples\":0,\"profile\":false},"
	"\"profile\":{\"folded\":\"/var/lib/hotspot-k/hotspot-k.4242.oom_risk.T.folded\","
	"\"svg\":\"/var/lib/hotspot-k/hotspot-k.4242.oom_risk.T.svg\"}}\n";

/* The fixture's kill and history, as a record's input. */
static struct hk_pm_record_in fixture_in(struct hk_event *e)
{
	static struct hk_pm_hist h;
	struct hk_pm_record_in in = { .memcg = ".../leak", .wall_offset_ns = WALL_OFF };

	kill_event(e);
	in.e = e;
	in.h = fixture(&h);
	return in;
}

static void test_record_exact(void)
{
	struct hk_event e;
	struct hk_pm_record_in in = fixture_in(&e);
	char buf[8192];
	int n;

	n = hk_pm__record(buf, sizeof(buf), &in);
	ASSERT_STR(buf, record_want);
	CU_ASSERT_EQUAL(n, (int)strlen(record_want));
	CU_ASSERT_EQUAL(hk_pm__kill_unix_s(&e, WALL_OFF), 1764396000);
}

/* A kill nothing was known of: a process never in a memory label, in a
 * host OOM (no memory cgroup at its limit). */
static void test_record_bare(void)
{
	struct hk_pm_record_in in = { .wall_offset_ns = WALL_OFF };
	struct hk_event e;
	char buf[4096];

	kill_event(&e);
	memset(&e.oom, 0, sizeof(e.oom));
	e.oom.time_ns = KILL_NS;
	e.from = HK_OK;
	in.e = &e;
	in.memcg = "host";
	CU_ASSERT_TRUE(hk_pm__record(buf, sizeof(buf), &in) > 0);
	ASSERT_STR(buf,
		   "{\"version\":1,\"pid\":4242,\"comm\":\"leak\",\"killed_unix_s\":1764396000,"
		   "\"flagged\":false,\"killed\":\"2025-11-29T06:00:00Z\",\"flagged_for_s\":null,"
		   "\"tracked\":false,\"memcg\":\"host\",\"memcg_id\":0,\"limit_bytes\":null,"
		   "\"usage_bytes\":null,\"high_bytes\":null,\"swap_max_bytes\":null,"
		   "\"memory_events\":null,\"growth_bytes_per_s\":null,\"eta_s\":null,"
		   "\"trend_span_ms\":0,\"labels\":[],\"trend\":[],"
		   "\"left_out\":{\"labels\":0,\"samples\":0,\"profile\":false},"
		   "\"profile\":null}\n");
}

/* The rings keep the last HK_PM_LABELS and HK_PM_SAMPLES; the record
 * counts what they dropped. */
static void test_record_rings(void)
{
	static struct hk_pm_hist h;
	struct hk_pm_record_in in = { .wall_offset_ns = WALL_OFF, .h = NULL };
	struct hk_pm_proc *p;
	struct hk_event e;
	static char buf[HK_PM_BYTES_DEFAULT];
	unsigned int i;

	memset(&h, 0, sizeof(h));
	p = hk_pm_hist__add(&h, 4242, 7 * S_NS, "leak", 0);
	for (i = 0; i < HK_PM_LABELS + 2; i++)
		hk_pm_hist__label(p, (50 + i) * S_NS, i & 1 ? HK_OOM_RISK : HK_OK,
				  i & 1 ? HK_OK : HK_OOM_RISK);
	for (i = 0; i < HK_PM_SAMPLES + 8; i++)
		sample(p, (60 + i) * S_NS, i * MIB, 40 - i);
	/* not newer than the last: not taken */
	sample(p, 60 * S_NS, 0, 0);
	CU_ASSERT_EQUAL(p->nr_samples, HK_PM_SAMPLES + 8);
	kill_event(&e);
	in.e = &e;
	in.h = p;
	CU_ASSERT_TRUE(hk_pm__record(buf, sizeof(buf), &in) > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"left_out\":{\"labels\":2,\"samples\":8,"));
	/* the oldest kept: the 9th sample (68 s) and the 3rd transition (52 s) */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"trend\":[{\"t_ms\":-32000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"labels\":[{\"t_ms\":-48000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"trend_span_ms\":31000,"));
}

/* Past record_max: the oldest samples go first, then transitions, then
 * the profile's paths; too small for the rest: -1. */
static void test_record_cut(void)
{
	size_t full = strlen(record_want);
	struct hk_event e;
	struct hk_pm_record_in in = fixture_in(&e);
	char buf[8192];
	int n;

	/* one byte short (the NUL): the oldest sample goes */
	n = hk_pm__record(buf, full, &in);
	CU_ASSERT_TRUE(n > 0 && (size_t)n < full);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"trend\":[{\"t_ms\":-9000,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"left_out\":{\"labels\":0,\"samples\":1,"
				      "\"profile\":false}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"trend_span_ms\":9000,"));
	CU_ASSERT_EQUAL(buf[n - 1], '\n');
	/* every sample and the transition gone, then the paths */
	n = hk_pm__record(buf, 500, &in);
	CU_ASSERT_EQUAL(n, 477);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"growth_bytes_per_s\":null,\"eta_s\":null,"
				      "\"trend_span_ms\":0,\"labels\":[],\"trend\":[],"
				      "\"left_out\":{\"labels\":1,\"samples\":5,\"profile\":true},"
				      "\"profile\":null}\n"));
	CU_ASSERT_EQUAL(hk_pm__record(buf, 200, &in), -1);
}

/* HK_PM_PROCS histories: a new one takes the least recently heard of. */
static void test_hist_lru(void)
{
	static struct hk_pm_hist h;
	struct hk_pm_proc *p;
	__u32 pid;

	memset(&h, 0, sizeof(h));
	for (pid = 100; pid < 100 + HK_PM_PROCS; pid++)
		hk_pm_hist__add(&h, pid, pid, "p", pid * S_NS);
	/* 100 is heard of again: 101 is now the oldest */
	p = hk_pm_hist__find(&h, 100, 100);
	hk_pm_hist__label(p, 500 * S_NS, HK_OK, HK_OOM_RISK);
	CU_ASSERT_EQUAL(h.evicted, 0);
	CU_ASSERT_PTR_NOT_NULL(hk_pm_hist__add(&h, 999, 999, "new", 501 * S_NS));
	CU_ASSERT_EQUAL(h.evicted, 1);
	CU_ASSERT_PTR_NULL(hk_pm_hist__find(&h, 101, 101));
	CU_ASSERT_PTR_NOT_NULL(hk_pm_hist__find(&h, 100, 100));
	CU_ASSERT_PTR_NOT_NULL(hk_pm_hist__find(&h, 999, 999));
	/* a recycled PID is another process */
	CU_ASSERT_PTR_NULL(hk_pm_hist__find(&h, 100, 12345));
	/* what they hold is bounded whatever the host does */
	CU_ASSERT_TRUE(sizeof(h) < 256 * 1024);
}

struct tmp {
	char top[64];
};

static void tmp_make(struct tmp *t)
{
	strcpy(t->top, "/tmp/hk-pm-test.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(t->top) != NULL);
	chmod(t->top, 0700);
}

static void tmp_remove(struct tmp *t)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static int count_files(const char *dir)
{
	char cmd[256], line[64];
	FILE *f;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "ls '%s' | wc -l", dir);
	f = popen(cmd, "r");
	if (f && fgets(line, sizeof(line), f))
		n = atoi(line);
	if (f)
		pclose(f);
	return n;
}

/* Written whole, 0600, in a 0700 oom/; past keep the oldest go; a symlink
 * planted at a record's name is replaced, never followed; status lists
 * the newest first. */
static void test_dir_files(void)
{
	char path[512], target[1024], oom[256], buf[4096];
	struct hk_safedir d;
	struct stat st;
	struct tmp t;
	FILE *f;
	size_t len;
	int i;

	tmp_make(&t);
	snprintf(oom, sizeof(oom), "%s/oom", t.top);
	CU_ASSERT_EQUAL_FATAL(hk_pm_dir__open(&d, t.top, true, NULL, 0), 0);
	CU_ASSERT_EQUAL(stat(oom, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	/* a symlink where the third record goes */
	snprintf(target, sizeof(target), "%s/target", t.top);
	snprintf(path, sizeof(path), "%s/1002-12.json", oom);
	CU_ASSERT_EQUAL(symlink(target, path), 0);
	for (i = 0; i < 5; i++) {
		len = (size_t)snprintf(buf, sizeof(buf),
				       "{\"version\":1,\"pid\":%d,\"comm\":\"le\\\"ak\","
				       "\"killed_unix_s\":%d,\"flagged\":%s,\"killed\":\"x\"}\n",
				       10 + i, 1000 + i, i & 1 ? "true" : "false");
		CU_ASSERT_EQUAL(hk_pm_dir__write(&d, 1000 + i, 10 + i, buf, len, 3), 0);
	}
	CU_ASSERT_EQUAL(count_files(oom), 3);
	CU_ASSERT_NOT_EQUAL(access(target, F_OK), 0);
	CU_ASSERT_EQUAL(lstat(path, &st), 0);
	CU_ASSERT_TRUE(S_ISREG(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	snprintf(path, sizeof(path), "%s/1001-11.json", oom);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	/* another file there is let be, and not listed */
	snprintf(path, sizeof(path), "%s/notes.txt", oom);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	f = fmemopen(buf, sizeof(buf), "w");
	CU_ASSERT_EQUAL(hk_pm_dir__json(f, t.top, NULL, 0), 0);
	fclose(f);
	snprintf(target, sizeof(target),
		 ",\"postmortems\":["
		 "{\"pid\":14,\"comm\":\"le\\\"ak\",\"killed_unix_s\":1004,\"flagged\":false,"
		 "\"file\":\"%s/oom/1004-14.json\"},"
		 "{\"pid\":13,\"comm\":\"le\\\"ak\",\"killed_unix_s\":1003,\"flagged\":true,"
		 "\"file\":\"%s/oom/1003-13.json\"},"
		 "{\"pid\":12,\"comm\":\"le\\\"ak\",\"killed_unix_s\":1002,\"flagged\":false,"
		 "\"file\":\"%s/oom/1002-12.json\"}]", t.top, t.top, t.top);
	ASSERT_STR(buf, target);
	f = fmemopen(buf, sizeof(buf), "w");
	CU_ASSERT_EQUAL(hk_pm_dir__text(f, t.top, NULL, 0), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  14      le\\\"ak           1970-01-01 00:16:44  "
				      "no       1004-14.json\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  13      le\\\"ak           1970-01-01 00:16:43  "
				      "in time  1003-13.json\n"));
	hk_safefile__dir_close(&d);
	tmp_remove(&t);
}

/* A state directory others can write, or none for status: refused with a
 * line, or an empty list. */
static void test_dir_refused(void)
{
	char oom[256], why[512], buf[256];
	struct hk_safedir d;
	struct tmp t;
	FILE *f;

	tmp_make(&t);
	f = fmemopen(buf, sizeof(buf), "w");
	CU_ASSERT_EQUAL(hk_pm_dir__json(f, t.top, why, sizeof(why)), 0);
	fclose(f);
	ASSERT_STR(buf, ",\"postmortems\":[]");
	snprintf(oom, sizeof(oom), "%s/oom", t.top);
	CU_ASSERT_EQUAL(mkdir(oom, 0777), 0);
	chmod(oom, 0777);
	why[0] = '\0';
	CU_ASSERT_EQUAL(hk_pm_dir__open(&d, t.top, true, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "mode 0777"));
	CU_ASSERT_EQUAL(hk_pm_dir__json(stderr, t.top, why, sizeof(why)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "not root's alone"));
	tmp_remove(&t);
}

/* The act: a memory label starts a history, an ETA event adds a window,
 * the kill writes the file and ends it; a CPU label starts none. */
static void test_act(void)
{
	struct hk_config cfg = { .pm_records = 4, .pm_record_bytes = HK_PM_BYTES_DEFAULT,
				 .interval_ns = S_NS };
	struct hk_postmortem *pm;
	struct hk_event e, k;
	char oom[256];
	struct tmp t;

	tmp_make(&t);
	pm = hk_postmortem__new(&cfg, t.top);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pm);
	kill_event(&k);
	e = k;
	memset(&e.oom, 0, sizeof(e.oom));
	e.from = HK_OK;
	e.to = HK_CPU_BOUND;
	e.time_ns = 80 * S_NS;
	hk_postmortem__event(pm, &e, NULL);
	CU_ASSERT_PTR_NULL(hk_pm_hist__find(&pm->hist, 4242, 7 * S_NS));
	e.from = HK_CPU_BOUND;
	e.to = HK_OOM_RISK;
	e.time_ns = 91 * S_NS;
	e.ev.eta_s = 9;
	hk_postmortem__event(pm, &e, NULL);
	e.type = HK_EV_ETA;
	e.from = HK_OOM_RISK;
	e.time_ns = 95 * S_NS;
	hk_postmortem__event(pm, &e, NULL);
	hk_postmortem__profile(pm, 4242, "/p/hotspot-k.4242.oom_risk.T");
	CU_ASSERT_EQUAL(hk_pm_hist__find(&pm->hist, 4242, 7 * S_NS)->nr_samples, 2);
	hk_postmortem__event(pm, &k, ".../leak");
	CU_ASSERT_PTR_NULL(hk_pm_hist__find(&pm->hist, 4242, 7 * S_NS));
	CU_ASSERT_EQUAL(pm->written, 1);
	snprintf(oom, sizeof(oom), "%s/oom", t.top);
	CU_ASSERT_EQUAL(count_files(oom), 1);
	hk_postmortem__free(pm);
	tmp_remove(&t);
}

int hk_add_postmortem_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "the record, exact", test_record_exact },
		{ "a kill with no history", test_record_bare },
		{ "the rings' bounds", test_record_rings },
		{ "cut to record_max", test_record_cut },
		{ "histories: the LRU", test_hist_lru },
		{ "files: whole, 0600, bounded, listed", test_dir_files },
		{ "a directory others can write", test_dir_refused },
		{ "the act", test_act },
	};

	return HK_ADD_SUITE("oom post-mortem", tests);
}
