// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_service.c - the pieces that keep a long-running service honest:
 * the rate limiter of "it happens" lines, hk_procs full said while it
 * lasts, the reload diff that sees a cgroup made anew, a private /tmp told
 * from mountinfo, and output that never blocks on a reader that stopped.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "config/config.h"
#include "lib/outfd.h"
#include "lib/ratelimit.h"
#include "suites.h"
#include "lib/sysinfo.h"
#include "kernel/watch.h"

#define S (1000000000ULL)

static void check_step(struct hk_ratelimit *r, int on, __u64 n, __u64 t_s,
		       enum hk_ratelimit_say want, __u64 told, unsigned int line)
{
	enum hk_ratelimit_say got = hk_ratelimit__step(r, on, n, t_s * S);
	char msg[160];

	snprintf(msg, sizeof(msg), "step(on %d, n %llu, t %llu s): said %d (told %llu), "
		 "want %d (told %llu)", on, (unsigned long long)n, (unsigned long long)t_s, got,
		 (unsigned long long)(got ? r->told : 0), want, (unsigned long long)told);
	CU_assertImplementation(got == want && (!want || r->told == told), line, msg, __FILE__,
				"", CU_FALSE);
}

#define STEP(on, n, t, want, told) check_step(&r, on, n, t, want, told, __LINE__)

static void test_ratelimit(void)
{
	struct hk_ratelimit r = { .period_ns = 60 * S };

	STEP(0, 0, 1, HK_RATELIMIT_QUIET, 0);
	/* starts: said at once, with its count */
	STEP(1, 3, 10, HK_RATELIMIT_START, 3);
	/* lasts: once a period, with the count since the last line */
	STEP(1, 2, 11, HK_RATELIMIT_QUIET, 0);
	STEP(1, 2, 69, HK_RATELIMIT_QUIET, 0);
	STEP(1, 1, 70, HK_RATELIMIT_STILL, 5);
	STEP(1, 1, 80, HK_RATELIMIT_QUIET, 0);
	/* ends: said at once */
	STEP(0, 0, 81, HK_RATELIMIT_END, 1);
	STEP(0, 0, 82, HK_RATELIMIT_QUIET, 0);
	/* comes and goes within the period: quiet, counted for the next line */
	STEP(1, 4, 83, HK_RATELIMIT_QUIET, 0);
	STEP(0, 0, 84, HK_RATELIMIT_QUIET, 0);
	STEP(1, 6, 85, HK_RATELIMIT_QUIET, 0);
	STEP(0, 0, 86, HK_RATELIMIT_QUIET, 0);
	/* a period after the last line: said again, with what was quiet */
	STEP(1, 1, 131, HK_RATELIMIT_START, 11);
	STEP(0, 0, 132, HK_RATELIMIT_END, 0);
}

static void test_procs_full(void)
{
	struct hk_procs_watch w = {};
	struct hk_stats st = {};
	char line[256];

	/* windows without any untracked: nothing */
	st.windows = 1;
	CU_ASSERT_EQUAL(hk_watch__procs(&w, &st, 64, 1 * S, line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "");
	/* full: said, with the capacity and the count */
	st.windows = 2;
	st.procs_untracked = 37;
	CU_ASSERT_EQUAL(hk_watch__procs(&w, &st, 64, 2 * S, line, sizeof(line)), 4);
	CU_ASSERT_STRING_EQUAL(line, "hk_procs is full (64 processes, --max-procs): processes "
			       "that start now are not tracked, so not diagnosed, until entries "
			       "of processes quiet for 4 windows are given up (0 so far) or "
			       "others exit (37 process-windows untracked)\n");
	/* the same window seen again: nothing new */
	CU_ASSERT_EQUAL(hk_watch__procs(&w, &st, 64, 3 * S, line, sizeof(line)), 0);
	/* still full a minute on */
	st.windows = 3;
	st.procs_untracked = 50;
	CU_ASSERT_EQUAL(hk_watch__procs(&w, &st, 64, 30 * S, line, sizeof(line)), 0);
	st.windows = 4;
	st.procs_untracked = 60;
	st.procs_evicted = 9;
	CU_ASSERT_EQUAL(hk_watch__procs(&w, &st, 64, 63 * S, line, sizeof(line)), 4);
	CU_ASSERT_STRING_EQUAL(line, "hk_procs is still full (64 processes): 23 more "
			       "process-windows untracked, 9 quiet entries given up so far\n");
	/* a window with none untracked: room again */
	st.windows = 5;
	CU_ASSERT_EQUAL(hk_watch__procs(&w, &st, 64, 64 * S, line, sizeof(line)), 5);
	CU_ASSERT_STRING_EQUAL(line, "hk_procs has room again: every process is tracked (0 "
			       "more process-windows were untracked)\n");
}

/* The uid holding most entries, by the owner of proc_root/PID: PIDs
 * gone since are not counted. */
static void test_procs_uid_top(void)
{
	static const struct { __u32 pid; uid_t uid; } own[] = {
		{ 100, 65534 }, { 101, 1000 }, { 102, 65534 }, { 103, 0 }, { 104, 65534 },
	};
	const __u32 pids[] = { 100, 101, 102, 999, 103, 104 };
	char root[] = "/tmp/hk-uidtop.XXXXXX", path[64];
	struct hk_uid_top top;
	size_t i;

	CU_ASSERT_FATAL(mkdtemp(root) != NULL);
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		snprintf(path, sizeof(path), "%s/%u", root, own[i].pid);
		CU_ASSERT_FATAL(mkdir(path, 0555) == 0);
		CU_ASSERT_FATAL(chown(path, own[i].uid, own[i].uid) == 0);
	}
	CU_ASSERT_EQUAL(hk_watch__uid_top(pids, 6, root, &top), 0);
	CU_ASSERT_EQUAL(top.uid, 65534);
	CU_ASSERT_EQUAL(top.entries, 3);
	CU_ASSERT_EQUAL(top.known, 5);
	/* none readable: not known */
	CU_ASSERT_EQUAL(hk_watch__uid_top(pids + 3, 1, root, &top), -1);
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		snprintf(path, sizeof(path), "%s/%u", root, own[i].pid);
		rmdir(path);
	}
	rmdir(root);
}

static void test_diff_cgroup_id(void)
{
	struct hk_config a, b;
	char why[HK_ERR_LEN], diff[512];

	hk_config__defaults(&a);
	CU_ASSERT_EQUAL(hk_filter__set_cgroup(&a, "/system.slice/nginx.service", why,
					      sizeof(why)), 0);
	a.filter_cgroup_id = 4242;
	a.filter_cgroup_hier = HK_FILTER_HIER_V2;
	b = a;
	CU_ASSERT_EQUAL(hk_config__diff(&a, &b, diff, sizeof(diff)), 0);
	/* systemctl restart nginx: the same path, a cgroup made anew */
	b.filter_cgroup_id = 4377;
	CU_ASSERT_EQUAL(hk_config__diff(&a, &b, diff, sizeof(diff)), 1);
	CU_ASSERT_STRING_EQUAL(diff, "filter.cgroup /system.slice/nginx.service: id 4242 -> "
			       "4377 (made anew)");
	CU_ASSERT_EQUAL(hk_config__filters_differ(&a, &b), 1);
	/* with another key changed too */
	b.starved_wait_pct_x100 = 6000;
	CU_ASSERT_EQUAL(hk_config__diff(&a, &b, diff, sizeof(diff)), 2);
	CU_ASSERT_STRING_EQUAL(diff, "starved.min_wait 70% -> 60%, filter.cgroup "
			       "/system.slice/nginx.service: id 4242 -> 4377 (made anew)");
	/* another path: said once, as the path */
	CU_ASSERT_EQUAL(hk_filter__set_cgroup(&b, "/a", why, sizeof(why)), 0);
	b.starved_wait_pct_x100 = a.starved_wait_pct_x100;
	CU_ASSERT_EQUAL(hk_config__diff(&a, &b, diff, sizeof(diff)), 1);
	CU_ASSERT_STRING_EQUAL(diff, "filter.cgroup /system.slice/nginx.service -> /a");
}

static void test_private_tmp(void)
{
	char path[] = "/tmp/hk-unit-mountinfo.XXXXXX", why[256];
	int fd = mkstemp(path);
	FILE *f;

	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	      "40 22 8:1 /tmp/systemd-private-5f1e-hotspot-k.service-Abc/tmp /tmp "
	      "rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	      "41 22 8:1 /var/tmp/systemd-private-5f1e-hotspot-k.service-Xyz/tmp /var/tmp "
	      "rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	      "42 22 0:5 / /var/lib rw - tmpfs tmpfs rw\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(hk_sysinfo__private_tmp("/var/tmp", path, why, sizeof(why)), 1);
	CU_ASSERT_STRING_EQUAL(why, "/var/tmp");
	CU_ASSERT_EQUAL(hk_sysinfo__private_tmp("/tmp", path, why, sizeof(why)), 1);
	CU_ASSERT_STRING_EQUAL(why, "/tmp");
	/* not under them, nor a name that only starts like them */
	CU_ASSERT_EQUAL(hk_sysinfo__private_tmp("/var/lib", path, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(hk_sysinfo__private_tmp("/usr", path, why, sizeof(why)), 0);
	unlink(path);
}

/* Lines to a one-page pipe nobody reads: none blocks for long, none torn. */
static void test_outfd_stalled(void)
{
	static char line[1500], big[6000], buf[16384];
	struct iovec iov[2], one;
	struct hk_outfd o;
	int p[2], i, r, written = 0, dropped = 0;
	void (*old)(int);
	ssize_t n;

	CU_ASSERT_FATAL(pipe(p) == 0);
	CU_ASSERT_FATAL(fcntl(p[1], F_SETPIPE_SZ, 4096) >= 0);
	CU_ASSERT_EQUAL_FATAL(hk_outfd__open(&o, p[1]), 0);
	/* a pipe: opened again, non-blocking for us alone */
	CU_ASSERT(o.own);
	CU_ASSERT_EQUAL(fcntl(p[1], F_GETFL) & O_NONBLOCK, 0);
	o.wait_ms = 50;
	memset(line, 'x', sizeof(line));
	line[sizeof(line) - 1] = '\n';
	iov[0].iov_base = "<4>";
	iov[0].iov_len = 3;
	iov[1].iov_base = line;
	iov[1].iov_len = sizeof(line);
	for (i = 0; i < 6; i++) {
		r = hk_outfd__write(&o, iov, 2);
		CU_ASSERT(r == 0 || r == 1);
		written += r == 1;
		dropped += r == 0;
	}
	/* two lines fit the page (a line <= PIPE_BUF goes whole or not at
	 * all); the rest dropped, whole */
	CU_ASSERT_EQUAL(written, 2);
	CU_ASSERT_EQUAL(dropped, 4);
	CU_ASSERT(o.stalled);
	CU_ASSERT_EQUAL(o.rest_len, 0);
	n = read(p[0], buf, sizeof(buf));
	CU_ASSERT_EQUAL(n, 2 * 1503);
	/* a line longer than the page: begun, its rest kept */
	memset(big, 'y', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	one.iov_base = big;
	one.iov_len = sizeof(big);
	CU_ASSERT_EQUAL(hk_outfd__write(&o, &one, 1), 1);
	CU_ASSERT_EQUAL(o.rest_len, sizeof(big) - 4096);
	/* ... and nothing gets inside it: the next line is dropped */
	CU_ASSERT_EQUAL(hk_outfd__write(&o, iov, 2), 0);
	CU_ASSERT_EQUAL(hk_outfd__flush(&o), -EAGAIN);
	/* the reader is back: the begun line is ended first, then new ones */
	n = read(p[0], buf, sizeof(buf));
	CU_ASSERT_EQUAL(n, 4096);
	CU_ASSERT_EQUAL(hk_outfd__flush(&o), 0);
	CU_ASSERT(!o.stalled);
	CU_ASSERT_EQUAL(hk_outfd__write(&o, iov, 2), 1);
	n = read(p[0], buf, sizeof(buf));
	CU_ASSERT_EQUAL(n, (ssize_t)(sizeof(big) - 4096 + 1503));
	CU_ASSERT_EQUAL(buf[sizeof(big) - 4096 - 1], '\n');
	CU_ASSERT_EQUAL(memcmp(buf + sizeof(big) - 4096, "<4>x", 4), 0);
	/* the reader gone: an error to report, not a stall (SIGPIPE
	 * ignored, as the tool does) */
	close(p[0]);
	old = signal(SIGPIPE, SIG_IGN);
	CU_ASSERT_EQUAL(hk_outfd__write(&o, iov, 2), -EPIPE);
	signal(SIGPIPE, old);
	hk_outfd__close(&o);
	close(p[1]);
}

int hk_add_service_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "rate limiter: start, once a period, end, quiet flapping", test_ratelimit },
		{ "hk_procs full: said, still, room again", test_procs_full },
		{ "hk_procs full: the uid holding most entries", test_procs_uid_top },
		{ "reload diff: a cgroup made anew at the same path", test_diff_cgroup_id },
		{ "PrivateTmp told from mountinfo", test_private_tmp },
		{ "output to a reader that stopped: bounded, whole lines", test_outfd_stalled },
	};

	return HK_ADD_SUITE("service", tests);
}
