// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_freeze_hand.c - a thaw by hand wins (freeze_memory.c): the cgroup is
 * refused while its process's OOM-risk episode lasts, the episode ends
 * where it should (an exit, a leave after a re-entry, a leave once the
 * freeze's flat stretch is out of the trend) and not where the freeze
 * itself put the process out of OOM risk; the table is bounded; and the
 * line a tick prints when it sees such a thaw, byte for byte. And a
 * refusal of the uid rule, remembered per (cgroup, uid) for a while
 * (freeze_memory.c) so that the subtree is not walked for every event,
 * and the rule's walk cut at HK_FREEZE_CGROUPS_MAX cgroups (on a plain
 * directory tree: the walk reads cgroup.procs files, as a cgroup has).
 * And a stuck loop's exit, from the stop guard's thread, lets go of this
 * tool's records only.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "config_fixtures.h"
#include "format_fixtures.h"
#include "act/freeze.h"
#include "suites.h"

/* s in a buffer check_str's message can hold (a reason's array is 8 KiB) */
static const char *cut(const char *s)
{
	static char buf[1024];
	size_t n = strlen(s);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

static void rec_of(struct hk_freeze_rec *r, __u64 id, __u32 pid)
{
	memset(r, 0, sizeof(*r));
	r->hier = HK_FREEZE_HIER_V1;
	r->id = id;
	r->pid = pid;
	r->uid = 65534;
	r->start_ns = 5000;
	snprintf(r->cgroup, sizeof(r->cgroup), "/hk/leak");
	snprintf(r->comm, sizeof(r->comm), "hkload");
}

static void cg_of(struct hk_freeze_cg *cg, __u64 id)
{
	memset(cg, 0, sizeof(*cg));
	cg->fd = -1;
	cg->hier = HK_FREEZE_HIER_V1;
	cg->id = id;
	snprintf(cg->rel, sizeof(cg->rel), "/hk/leak");
}

static void move(struct hk_event *e, __u32 pid, __u32 type, __u32 from, __u32 to)
{
	memset(e, 0, sizeof(*e));
	e->tgid = pid;
	e->start_boottime_ns = 5000;
	e->type = type;
	e->from = from;
	e->to = to;
	e->ev.eta_s = (__u64)HK_ETA_NONE;	/* never due: only the memory acts */
}

static int refused(struct hk_freezer *f, __u64 id)
{
	static struct hk_freeze_result r;
	struct hk_freeze_cg cg;

	cg_of(&cg, id);
	memset(&r, 0, sizeof(r));
	if (!hk_freeze_hand__refuses(f, &cg, &r))
		return 0;
	CU_ASSERT(r.outcome == HK_FREEZE_REFUSED);
	CHECK_STR(cut(r.why), "/hk/leak was thawed by hand: not freezing it again while pid 42 "
		  "stays at OOM risk");
	return 1;
}

static void init(struct hk_freezer *f, __u64 settle_s)
{
	struct hk_config cfg;

	hk_config__defaults(&cfg);
	cfg.freeze_eta_s = 60;
	CU_ASSERT_FATAL(hk_freeze__init(f, &cfg) == 0);
	f->settle_ms = settle_s * 1000;
}

/* The episode: the freeze's own leave is not its end; a re-entry then a
 * leave is; an exit is; another process of the cgroup ends nothing. */
static void test_episode(void)
{
	struct hk_freezer f;
	struct hk_freeze_rec rec;
	struct hk_event e;
	int prio;

	init(&f, 3600);
	rec_of(&rec, 7, 42);
	CU_ASSERT(!refused(&f, 7));
	hk_freeze_hand__saw(&f, &rec, NULL);
	CU_ASSERT(refused(&f, 7));
	CU_ASSERT(!refused(&f, 8));
	/* flat while frozen: out of OOM risk, within settle: same episode */
	move(&e, 42, HK_EV_TRANSITION, HK_OOM_RISK, HK_OK);
	CHECK_U64(hk_freeze__event(&f, &e, 0, &ctx_utc, &prio), 0);
	CU_ASSERT(refused(&f, 7));
	/* another process, another start: nothing */
	move(&e, 43, HK_EV_TRANSITION, HK_OK, HK_OOM_RISK);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	move(&e, 43, HK_EV_TRANSITION, HK_OOM_RISK, HK_OK);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	move(&e, 42, HK_EV_TRANSITION, HK_OOM_RISK, HK_OK);
	e.start_boottime_ns = 6000;
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(refused(&f, 7));
	/* it grows again: back in, an ETA crossing, still the episode */
	move(&e, 42, HK_EV_TRANSITION, HK_OK, HK_OOM_RISK);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	move(&e, 42, HK_EV_ETA, HK_OOM_RISK, HK_OOM_RISK);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(refused(&f, 7));
	/* and out: the episode is over, a later one may be frozen */
	move(&e, 42, HK_EV_TRANSITION, HK_OOM_RISK, HK_MEM_THRASHING);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(!refused(&f, 7));
	CHECK_U64(f.nr_hand, 0);

	/* seen at its re-entry (the event path, before a tick): that entry
	 * counts, and the next leave ends the episode */
	move(&e, 42, HK_EV_TRANSITION, HK_OK, HK_OOM_RISK);
	hk_freeze_hand__saw(&f, &rec, &e);
	CU_ASSERT(refused(&f, 7));
	move(&e, 42, HK_EV_TRANSITION, HK_OOM_RISK, HK_OK);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(!refused(&f, 7));
	/* seen at an ETA crossing: no entry, the freeze's own leave is not
	 * the end */
	move(&e, 42, HK_EV_ETA, HK_OOM_RISK, HK_OOM_RISK);
	hk_freeze_hand__saw(&f, &rec, &e);
	move(&e, 42, HK_EV_TRANSITION, HK_OOM_RISK, HK_OK);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(refused(&f, 7));
	move(&e, 42, HK_EV_TRANSITION, HK_OK, HK_EXITED);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);

	/* an exit ends it, whatever the label */
	hk_freeze_hand__saw(&f, &rec, NULL);
	move(&e, 42, HK_EV_TRANSITION, HK_OK, HK_EXITED);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(!refused(&f, 7));
	hk_freeze_hand__saw(&f, &rec, NULL);
	move(&e, 42, HK_EV_TRANSITION, HK_OOM_RISK, HK_OOM_KILLED);
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(!refused(&f, 7));
	CHECK_U64(f.frozen + f.refused + f.failed, 0);
	hk_freeze__free(&f);
}

/* Past settle, the freeze's flat stretch is out of the trend: a leave with
 * no re-entry is the episode's end. A record read back (start unknown)
 * matches the PID alone. */
static void test_settled(void)
{
	struct hk_freezer f;
	struct hk_freeze_rec rec;
	struct hk_event e;
	int prio;

	init(&f, 0);
	rec_of(&rec, 7, 42);
	rec.start_ns = 0;
	hk_freeze_hand__saw(&f, &rec, NULL);
	move(&e, 42, HK_EV_TRANSITION, HK_OOM_RISK, HK_OK);
	e.start_boottime_ns = 123;
	hk_freeze__event(&f, &e, 0, &ctx_utc, &prio);
	CU_ASSERT(!refused(&f, 7));
	hk_freeze__free(&f);
}

/* HK_FREEZE_HAND_MAX at once: the oldest goes; the same cgroup twice is
 * one entry. */
static void test_bounded(void)
{
	struct hk_freezer f;
	struct hk_freeze_rec rec;
	unsigned int i;

	init(&f, 3600);
	for (i = 0; i < HK_FREEZE_HAND_MAX; i++) {
		rec_of(&rec, 100 + i, 42);
		hk_freeze_hand__saw(&f, &rec, NULL);
		f.hand[f.nr_hand - 1].since_ms = 1000 + i;
	}
	hk_freeze_hand__saw(&f, &rec, NULL);
	CHECK_U64(f.nr_hand, HK_FREEZE_HAND_MAX);
	rec_of(&rec, 99, 42);
	hk_freeze_hand__saw(&f, &rec, NULL);
	CHECK_U64(f.nr_hand, HK_FREEZE_HAND_MAX);
	CU_ASSERT(refused(&f, 99));
	CU_ASSERT(!refused(&f, 100));
	CU_ASSERT(refused(&f, 101));
	hk_freeze__free(&f);
}

/* The tick's line about a freeze let go: human and JSON. */
static void test_format_hand(void)
{
	static char out[HK_FREEZE_LINE_MAX];
	struct hk_freeze_now now = { .boot_ms = 65000, .mono_ns = 0 };
	struct hk_freeze_rec rec;

	rec_of(&rec, 7, 42);
	rec.since_boot_ms = 5000;
	rec.until_boot_ms = 605000;
	rec.by_pid = 999;
	CU_ASSERT(hk_freeze__format_end(out, sizeof(out), &rec, HK_FREEZE_END_HAND, NULL, &now,
					0, &ctx_utc) > 0);
	CHECK_STR(cut(out), "hotspot-k: /hk/leak was thawed by hand: not freezing it again while "
		  "pid 42 stays at OOM risk (frozen for pid 42 hkload, uid 65534)\n");
	CU_ASSERT(hk_freeze__format_end(out, sizeof(out), &rec, HK_FREEZE_END_HAND, NULL, &now,
					1, &ctx_utc) > 0);
	CU_ASSERT(strstr(out, "\"cgroup\":\"/hk/leak\",\"freezer\":\"v1\",\"result\":\"thawed\","
			 "\"end\":\"hand\",\"reason\":null,\"frozen_s\":60,") != NULL);
	CHECK_U64(hk_freeze__end_priority(HK_FREEZE_END_HAND), 5);
}

/* A refusal remembered: the same cgroup and uid only, until its time. */
static void test_recent(void)
{
	static struct hk_freeze_result r;
	struct hk_freezer f;
	struct hk_freeze_cg cg;
	unsigned int i;

	init(&f, 0);
	cg_of(&cg, 7);
	CU_ASSERT(!hk_freeze_recent__get(&f, &cg, 65534, &r));
	hk_freeze_recent__put(&f, &cg, 65534, "/hk/leak holds pid 1 of uid 0");
	CU_ASSERT(hk_freeze_recent__get(&f, &cg, 65534, &r));
	CU_ASSERT(r.outcome == HK_FREEZE_REFUSED);
	CHECK_STR(cut(r.why), "/hk/leak holds pid 1 of uid 0 (checked 0 s ago)");
	CU_ASSERT(!hk_freeze_recent__get(&f, &cg, 1000, &r));
	cg_of(&cg, 8);
	CU_ASSERT(!hk_freeze_recent__get(&f, &cg, 65534, &r));
	/* its time up: walked again */
	cg_of(&cg, 7);
	f.recent[0].until_ms = hk_freeze__boot_ms() - 1;
	CU_ASSERT(!hk_freeze_recent__get(&f, &cg, 65534, &r));
	/* full: the one closest to its end is taken */
	for (i = 0; i < HK_FREEZE_RECENT_MAX + 1; i++) {
		cg_of(&cg, 100 + i);
		hk_freeze_recent__put(&f, &cg, 65534, "x");
	}
	cg_of(&cg, 100);
	CU_ASSERT(!hk_freeze_recent__get(&f, &cg, 65534, &r));
	cg_of(&cg, 100 + HK_FREEZE_RECENT_MAX);
	CU_ASSERT(hk_freeze_recent__get(&f, &cg, 65534, &r));
	hk_freeze__free(&f);
}

/* An empty cgroup.procs in dir. */
static void procs_file(const char *dir)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
}

/* HK_FREEZE_CGROUPS_MAX cgroups are read; one more is refused, said. */
static void test_walk_cap(void)
{
	char top[64], path[512], why[512], want[512];
	unsigned int i;
	int fd;

	/* tmpfs: 2048 files in a disk's /tmp took 2-3 s here, 0.1 s in /dev/shm */
	snprintf(top, sizeof(top), "%s/hk-unit-walk.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	CU_ASSERT_FATAL(mkdtemp(top) != NULL);
	procs_file(top);
	for (i = 0; i < HK_FREEZE_CGROUPS_MAX - 1; i++) {
		snprintf(path, sizeof(path), "%s/e%u", top, i);
		CU_ASSERT_FATAL(mkdir(path, 0755) == 0);
		procs_file(path);
	}
	fd = open(top, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(fd >= 0);
	CHECK_U64((__u64)hk_freeze_owners__check(fd, "/hk/leak", "/proc", 65534, why,
						 sizeof(why)), 0);
	snprintf(path, sizeof(path), "%s/e%u", top, i);
	CU_ASSERT_FATAL(mkdir(path, 0755) == 0);
	procs_file(path);
	CHECK_U64((__u64)hk_freeze_owners__check(fd, "/hk/leak", "/proc", 65534, why,
						 sizeof(why)), (__u64)-1);
	snprintf(want, sizeof(want), "/hk/leak holds more than %d cgroups, too many to check "
		 "that each process is uid 65534's: never frozen with another user's process "
		 "in it", HK_FREEZE_CGROUPS_MAX);
	CHECK_STR(why, want);
	close(fd);
	for (i = 0; i < HK_FREEZE_CGROUPS_MAX; i++) {
		snprintf(path, sizeof(path), "%s/e%u/cgroup.procs", top, i);
		unlink(path);
		path[strlen(path) - strlen("/cgroup.procs")] = '\0';
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/cgroup.procs", top);
	unlink(path);
	rmdir(top);
}

/* The stop guard's way out: this tool's records are thawed (here: their
 * cgroups are gone) and dropped; another tool's are left. */
static void test_release_recorded(void)
{
	static struct hk_freeze_rec r;
	char path[64], why[256], file[128];
	struct hk_freezer f;
	struct hk_safedir d;

	snprintf(path, sizeof(path), "/tmp/hk-unit-rundir.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(path) != NULL);
	CU_ASSERT_FATAL(hk_rundir__open(&d, path, why, sizeof(why)) == 0);
	init(&f, 0);
	f.rundir = path;
	rec_of(&r, 7, 42);
	snprintf(r.dir, sizeof(r.dir), "/sys/fs/cgroup/hk-unit-gone-%d", getpid());
	r.by_pid = f.self_pid;
	r.by_start = f.self_start;
	CHECK_U64((__u64)hk_freeze_record__put(&d, &r), 0);
	rec_of(&r, 8, 43);
	snprintf(r.dir, sizeof(r.dir), "/sys/fs/cgroup/hk-unit-gone-%d", getpid());
	r.by_pid = f.self_pid + 1;
	r.by_start = f.self_start;
	CHECK_U64((__u64)hk_freeze_record__put(&d, &r), 0);
	hk_freeze__release_recorded(&f);
	snprintf(file, sizeof(file), "%s/freeze.v1.7", path);
	CU_ASSERT(access(file, F_OK) != 0);
	snprintf(file, sizeof(file), "%s/freeze.v1.8", path);
	CU_ASSERT(access(file, F_OK) == 0);
	unlink(file);
	hk_safefile__dir_close(&d);
	rmdir(path);
	hk_freeze__free(&f);
}

int hk_add_freeze_hand_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "episode", test_episode },
		{ "settled", test_settled },
		{ "bounded", test_bounded },
		{ "format", test_format_hand },
		{ "refusals remembered", test_recent },
		{ "uid rule: 1024 cgroups at most", test_walk_cap },
		{ "a stuck loop's exit lets go of its records", test_release_recorded },
	};

	return HK_ADD_SUITE("freeze thawed by hand", tests);
}
