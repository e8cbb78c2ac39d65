// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_shares.c - fair shares of what the tool gives out (security review
 * 2, L3): the profile slots (profile_share.h), the Prometheus file's
 * series (prom_share.h, through hk_prom__event), and the owner they are
 * counted by (owner.h: a user namespace's owner, not its uids).
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "check.h"
#include "prom_check.h"
#include "suites.h"
#include "lib/owner.h"
#include "output/format.h"
#include "output/prom_share.h"
#include "output/prometheus.h"
#include "profile/profile_share.h"
#include "profile/profiler.h"

/* ---- profile slots ------------------------------------------------------ */

#define ADMIT(o0, o1, o2, o3, owner, reserved, want) do {				\
	const __s64 o[4] = { o0, o1, o2, o3 };						\
	struct hk_prof_holder h[4];							\
	int k;										\
											\
	for (k = 0; k < 4; k++)								\
		h[k] = (struct hk_prof_holder){ o[k] >= 0, o[k] >= 0 ? (__u32)o[k] : 0 }; \
	check_s64(hk_prof_share__admit(h, 4, (owner), (reserved)), (want), __LINE__,	\
		  "slots %lld %lld %lld %lld, owner %u%s", (long long)o0, (long long)o1,	\
		  (long long)o2, (long long)o3, (owner), (reserved) ? " reserved" : "");	\
} while (0)

#define FREE (-1)

static void test_profile_slots(void)
{
	ADMIT(FREE, FREE, FREE, FREE, 65534, false, HK_PROF_SHARE_OK);
	/* two per owner: a user's subordinate uids are the user's (owner.h) */
	ADMIT(1000, 1000, FREE, FREE, 1000, false, HK_PROF_SHARE_OWNER);
	ADMIT(1000, 1000, FREE, FREE, 1000, true, HK_PROF_SHARE_OWNER);
	ADMIT(1000, 1000, FREE, FREE, 1001, false, HK_PROF_SHARE_OK);
	ADMIT(0, 0, FREE, FREE, 0, true, HK_PROF_SHARE_OWNER);
	/* the last free slot: root's, a system service's, an OOM risk's */
	ADMIT(1000, 1000, 1001, FREE, 1002, false, HK_PROF_SHARE_RESERVE);
	ADMIT(1000, FREE, 1001, 1002, 1001, false, HK_PROF_SHARE_RESERVE);
	ADMIT(1000, 1000, 1001, FREE, 0, true, HK_PROF_SHARE_OK);
	ADMIT(1000, 1000, 1001, FREE, 1002, true, HK_PROF_SHARE_OK);
	ADMIT(1000, 1000, 1001, 0, 0, true, HK_PROF_SHARE_FULL);
}

/* ---- the owner ----------------------------------------------------------- */

/*
 * A child in a user namespace of its own, uid 0 there mapped to host uid
 * 100000 (as /etc/subuid ranges are): its owner is the namespace's maker,
 * not 100000. Without root only its own uid can be mapped.
 */
static void test_owner(void)
{
	int ready[2], go[2], st;
	char path[64], map[64], c = 0;
	__u32 owner = 12345, host = geteuid() ? geteuid() : 100000;
	FILE *f;
	pid_t pid;

	CU_ASSERT_EQUAL(hk_owner__of((__u32)getpid(), &owner), 0);
	CU_ASSERT_EQUAL(owner, getuid());
	CU_ASSERT_FATAL(!pipe(ready) && !pipe(go));
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		if (unshare(CLONE_NEWUSER) || write(ready[1], "u", 1) != 1 ||
		    read(go[0], &c, 1) != 1 || setresuid(0, 0, 0) || write(ready[1], "s", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	CU_ASSERT_FATAL(read(ready[0], &c, 1) == 1 && c == 'u');
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	snprintf(map, sizeof(map), "0 %u 1\n", host);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT(fputs(map, f) >= 0);
	CU_ASSERT_EQUAL(fclose(f), 0);
	CU_ASSERT_FATAL(write(go[1], "g", 1) == 1 && read(ready[0], &c, 1) == 1 && c == 's');
	owner = 12345;
	CU_ASSERT_EQUAL(hk_owner__of((__u32)pid, &owner), 0);
	check_true(owner == geteuid(), __LINE__, "owner %u, want the maker %u (its uid is %u)",
		   owner, geteuid(), host);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	CU_ASSERT_EQUAL(hk_owner__of((__u32)pid, &owner), -ESRCH);
}

/* ---- the Prometheus file's series ----------------------------------------- */

static char dir[64];

static struct hk_prom *prom(void)
{
	char path[128], warn[256], err[256];
	struct hk_prom *p;

	snprintf(dir, sizeof(dir), "/tmp/hk-unit-shares.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/hk.prom", dir);
	p = hk_prom__new(path, warn, sizeof(warn), err, sizeof(err));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	return p;
}

static void prom_done(struct hk_prom *p)
{
	hk_prom__free(p);
	rmdir(dir);
}

/* tgid of owner (system: a system service's) flagged to, in cgroup cg */
static void flag(struct hk_prom *p, __u32 tgid, __u32 to, const char *cg, __u32 owner,
		 bool system)
{
	struct hk_workload wl = { .system = system, .owner_known = true, .owner_uid = owner };
	struct hk_event e = { .type = HK_EV_TRANSITION, .tgid = tgid, .from = HK_OK, .to = to };

	strcpy(e.comm, "hog");
	hk_prom__event(p, &e, cg, &wl);
}

static char *text(const struct hk_prom *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(hk_prom__format(p, NULL, "wq", f), 0);
	CU_ASSERT_EQUAL(fclose(f), 0);
	return buf;
}

/* how many of the tgids first..last have series */
static __u32 listed(const char *t, __u32 first, __u32 last)
{
	char want[64];
	__u32 n = 0, pid;

	for (pid = first; pid <= last; pid++) {
		snprintf(want, sizeof(want), "\nhotspot_k_process_info{pid=\"%u\",", pid);
		n += strstr(t, want) != NULL;
	}
	return n;
}

#define LISTED(t, first, last, want) \
	check_s64(listed((t), (first), (last)), (want), __LINE__, "pids %u..%u listed", \
		  (__u32)(first), (__u32)(last))

static void check_unlisted(const char *t, unsigned int n, unsigned int line)
{
	char want[64];

	snprintf(want, sizeof(want), "\nhotspot_k_processes_unlisted %u\n", n);
	check_true(strstr(t, want) != NULL, line, "want \"%s\"", want + 1);
}

/* The review's storm by count: 300 busy loops of nobody, then root's and
 * another user's. Nobody keeps its newest quarter; the others are listed. */
static void test_prom_owner_count(void)
{
	struct hk_prom *p = prom();
	__u32 i;
	char *t;

	for (i = 1001; i <= 1300; i++)
		flag(p, i, HK_CPU_BOUND, "/a", 65534, false);
	flag(p, 2000, HK_CPU_BOUND, "/a", 0, false);
	for (i = 3000; i < 3010; i++)
		flag(p, i, HK_STARVED, "/b", 1000, false);
	t = text(p);
	LISTED(t, 1001, 1300, HK_PROM_OWNER_PROCS_MAX);
	LISTED(t, 1300 - HK_PROM_OWNER_PROCS_MAX + 1, 1300, HK_PROM_OWNER_PROCS_MAX);
	LISTED(t, 2000, 2000, 1);
	LISTED(t, 3000, 3009, 10);
	EQ(pc_count_samples(t, "hotspot_k_process_info"), HK_PROM_OWNER_PROCS_MAX + 11);
	check_unlisted(t, 300 - HK_PROM_OWNER_PROCS_MAX, __LINE__);
	free(t);
	prom_done(p);
}

/*
 * The widest processes: comm, cgroup and unit of bytes that are escaped
 * (each label value cut at HK_PROM_VALUE_MAX), ~2.3 KB of series each:
 * nobody's newest 57 take the quarter of the bytes (128 KiB), below the
 * quarter of the count (64).
 */
#define WIDE_PER_OWNER 57

static void flag_wide(struct hk_prom *p, __u32 tgid, __u32 owner)
{
	static char cg[HK_FORMAT_CGROUP_MAX + 1];
	struct hk_workload wl = { .owner_known = true, .owner_uid = owner };
	struct hk_event e = { .type = HK_EV_TRANSITION, .tgid = tgid, .from = HK_OK,
			      .to = HK_CPU_BOUND };

	cg[0] = '/';
	memset(cg + 1, 0xff, HK_FORMAT_CGROUP_MAX - 1);
	memset(e.comm, 0xff, sizeof(e.comm));
	memset(wl.unit, '\\', HK_WORKLOAD_UNIT_LEN - 1 - 8);
	strcpy(wl.unit + HK_WORKLOAD_UNIT_LEN - 1 - 8, ".service");
	hk_prom__event(p, &e, cg, &wl);
}

static void test_prom_owner_bytes(void)
{
	struct hk_prom *p = prom();
	__u32 i;
	char *t;

	for (i = 1001; i <= 1190; i++)
		flag_wide(p, i, 65534);
	flag_wide(p, 2000, 1000);
	t = text(p);
	LISTED(t, 1001, 1190, WIDE_PER_OWNER);
	LISTED(t, 1190 - WIDE_PER_OWNER + 1, 1190, WIDE_PER_OWNER);
	LISTED(t, 2000, 2000, 1);
	check_unlisted(t, 190 - WIDE_PER_OWNER, __LINE__);
	free(t);
	prom_done(p);
}

/*
 * Four owners fill what is not reserved (56 each): a fifth's newcomer
 * takes the place of the oldest of the first; one of theirs is refused
 * (they would have as much as it); root's and an OOM risk take the
 * reserve.
 */
static void test_prom_full(void)
{
	const __u32 each = (HK_PROM_PROCS_MAX - HK_PROM_RESERVED_PROCS) / 4;
	struct hk_prom *p = prom();
	__u32 o, k;
	char *t;

	for (o = 1; o <= 4; o++)
		for (k = 0; k < each; k++)
			flag(p, 10000 + o * 100 + k, HK_CPU_BOUND, "/a", o, false);
	flag(p, 90000, HK_STARVED, "/a", 5, false);
	flag(p, 90001, HK_CPU_BOUND, "/a", 4, false);
	t = text(p);
	LISTED(t, 90000, 90000, 1);
	LISTED(t, 10100, 10100, 0);
	LISTED(t, 10101, 10100 + each - 1, each - 1);
	LISTED(t, 90001, 90001, 0);
	EQ(pc_count_samples(t, "hotspot_k_process_info"), 4 * each);
	check_unlisted(t, 2, __LINE__);
	free(t);
	flag(p, 90002, HK_CPU_BOUND, "/a", 0, false);
	flag(p, 90003, HK_OOM_RISK, "/a", 4, false);
	flag(p, 90004, HK_CPU_BOUND, "/a", 33, true);
	t = text(p);
	LISTED(t, 90002, 90004, 3);
	EQ(pc_count_samples(t, "hotspot_k_process_info"), 4 * each + 3);
	free(t);
	prom_done(p);
}

static const struct hk_unit_test tests[] = {
	{ "profile slots: per owner, the reserve", test_profile_slots },
	{ "the owner: a user namespace's maker", test_owner },
	{ "series: an owner's count share", test_prom_owner_count },
	{ "series: an owner's byte share", test_prom_owner_bytes },
	{ "series: full, the largest owner gives way", test_prom_full },
};

int hk_add_shares_suite(void)
{
	return HK_ADD_SUITE("shares", tests);
}
