// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_safefile.c - files root writes where others may write too: what a
 * planted symlink, FIFO or hard link at the names root uses does (nothing),
 * which directories are refused, and the PID identity an act checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "lib/pidref.h"
#include "lib/rundir.h"
#include "lib/outquota.h"
#include "lib/pathwalk.h"
#include "lib/safefile.h"
#include "format_fixtures.h"
#include "shared/units.h"
#include "suites.h"

static char base[64];

static void mkbase(void)
{
	snprintf(base, sizeof(base), "/tmp/hk-unit-safefile.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
}

static void rmbase(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	CU_ASSERT(system(cmd) == 0);
}

/* base/name; two calls may share an expression (symlink(at(a), at(b))) */
static char *at(const char *name)
{
	static char p[4][256];
	static unsigned int i;
	char *s = p[i++ % 4];

	snprintf(s, sizeof(p[0]), "%s/%s", base, name);
	return s;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void test_dir_checks(void)
{
	struct hk_safedir d;
	char warn[512], err[512];

	mkbase();
	CU_ASSERT_EQUAL(chmod(base, 0755), 0);
	CU_ASSERT_EQUAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(warn, "");
	hk_safefile__dir_close(&d);
	CU_ASSERT_EQUAL(d.fd, -1);

	/* group-writable, not sticky: refused, and the message says why */
	CU_ASSERT_EQUAL(chmod(base, 0775), 0);
	CU_ASSERT_EQUAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "writable by its group (mode 0775) and not sticky"));
	CU_ASSERT_EQUAL(d.fd, -1);
	CU_ASSERT_EQUAL(chmod(base, 0777), 0);
	CU_ASSERT_EQUAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "writable by everyone (mode 0777)"));
	/* sticky, as /tmp: accepted (names are never reused) */
	CU_ASSERT_EQUAL(chmod(base, 01777), 0);
	CU_ASSERT_EQUAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err, sizeof(err)), 0);
	hk_safefile__dir_close(&d);
	CU_ASSERT_EQUAL(chmod(base, 0755), 0);

	/* another owner: accepted with a warning naming the uid */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(chown(base, 65534, 65534), 0);
		CU_ASSERT_EQUAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err,
						      sizeof(err)), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(warn, "belongs to uid 65534"));
		hk_safefile__dir_close(&d);
		CU_ASSERT_EQUAL(chown(base, 0, 0), 0);
	}

	/* not a directory; not there */
	CU_ASSERT_EQUAL(mkfifo(at("fifo"), 0600), 0);
	CU_ASSERT_EQUAL(hk_safefile__dir_open(&d, at("fifo"), warn, sizeof(warn), err,
					      sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Not a directory"));
	CU_ASSERT_EQUAL(hk_safefile__dir_open(&d, at("none"), warn, sizeof(warn), err,
					      sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "No such file or directory"));
	rmbase();
}

/* Every name root will use is planted: the file lands under its own name,
 * the planted targets are untouched, and nothing blocks. */
static void test_planted_names(void)
{
	struct hk_safedir d;
	char warn[512], err[512], tmp[256], buf[64];
	struct stat st;
	int fd;

	mkbase();
	CU_ASSERT_EQUAL(chmod(base, 0755), 0);
	CU_ASSERT_FATAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err,
					      sizeof(err)) == 0);
	/* the victim, a symlink and a hard link to it, a FIFO, at the final
	 * name and at the names an older writer would have used */
	fd = open(at("victim"), O_WRONLY | O_CREAT, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(write(fd, "precious", 8), 8);
	close(fd);
	CU_ASSERT_EQUAL(symlink(at("victim"), at("out.svg")), 0);
	CU_ASSERT_EQUAL(symlink(at("victim"), at("out.svg.tmp")), 0);
	CU_ASSERT_EQUAL(mkfifo(at("out.prom.tmp"), 0600), 0);
	CU_ASSERT_EQUAL(link(at("victim"), at("out.prom")), 0);

	fd = hk_safefile__create(&d, "out.svg", 0640, tmp, sizeof(tmp));
	CU_ASSERT_FATAL(fd >= 0);
	/* no name at all (O_TMPFILE: every filesystem the tests run on) */
	CU_ASSERT_STRING_EQUAL(tmp, "");
	CU_ASSERT_EQUAL(hk_safefile__write_all(fd, "new", 3), 0);
	CU_ASSERT_EQUAL(hk_safefile__commit(&d, fd, tmp, "out.svg"), 0);
	/* the symlink itself was replaced; its target is as it was */
	CU_ASSERT_EQUAL(lstat(at("out.svg"), &st), 0);
	CU_ASSERT(S_ISREG(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0640 & ~(mode_t)0);
	slurp(at("out.svg"), buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "new");
	slurp(at("victim"), buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "precious");

	/* over a hard link to the victim: the link goes, the victim stays */
	fd = hk_safefile__create(&d, "out.prom", 0644, tmp, sizeof(tmp));
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(hk_safefile__write_all(fd, "m 1\n", 4), 0);
	CU_ASSERT_EQUAL(hk_safefile__commit(&d, fd, tmp, "out.prom"), 0);
	slurp(at("victim"), buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "precious");
	slurp(at("out.prom"), buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "m 1\n");

	/* given up: no temporary file left */
	fd = hk_safefile__create(&d, "gone", 0640, tmp, sizeof(tmp));
	CU_ASSERT_FATAL(fd >= 0);
	hk_safefile__abort(&d, fd, tmp);
	CU_ASSERT_EQUAL(faccessat(d.fd, tmp, F_OK, 0), -1);

	/* a name too long for tmp */
	CU_ASSERT_EQUAL(hk_safefile__create(&d, "out.svg", 0640, tmp, 12), -ENAMETOOLONG);
	hk_safefile__dir_close(&d);
	rmbase();
}

/* A file of ours at base/name, bytes long, its mtime age_s seconds ago. */
static void plant_sized(const char *name, size_t bytes, time_t age_s)
{
	struct timespec ts[2] = { { .tv_sec = time(NULL) - age_s }, { .tv_sec = time(NULL) - age_s } };
	int fd = open(at(name), O_WRONLY | O_CREAT | O_EXCL, 0600);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftruncate(fd, (off_t)bytes), 0);
	CU_ASSERT_EQUAL(futimens(fd, ts), 0);
	close(fd);
}

static void plant_aged(const char *name, time_t age_s)
{
	plant_sized(name, 1, age_s);
}

/*
 * A writer killed between create() and commit() leaves nothing; the
 * temporary files an older one left are removed by sweep(), ours alone.
 */
static void test_killed_writer(void)
{
	struct hk_safedir d;
	char warn[512], err[512], tmp[256], names[512];
	pid_t pid;
	int fd, status;

	mkbase();
	CU_ASSERT_EQUAL(chmod(base, 0755), 0);
	CU_ASSERT_FATAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err,
					      sizeof(err)) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		fd = hk_safefile__create(&d, "p.svg", 0640, tmp, sizeof(tmp));
		if (fd < 0 || hk_safefile__write_all(fd, "<svg/>", 6))
			_exit(1);
		raise(SIGKILL);
	}
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	/* an old writer's: swept when old, of our stem, ours, a file */
	plant_aged(".p.svg.0123456789abcdef.tmp", 3600);		/* swept */
	plant_aged(".p.folded.fedcba9876543210.tmp", 3600);	/* swept: same stem */
	plant_aged(".p.svg.1123456789abcdef.tmp", 10);		/* a live writer's */
	plant_aged(".q.svg.0123456789abcdef.tmp", 3600);		/* another stem */
	plant_aged(".p.svg.0123456789abcdeX.tmp", 3600);		/* not our pattern */
	plant_aged(".p.svg.2123456789abcdef.tmp", 3600);		/* another owner's */
	if (geteuid() == 0)
		CU_ASSERT_EQUAL(chown(at(".p.svg.2123456789abcdef.tmp"), 65534, 65534), 0);
	CU_ASSERT_EQUAL(symlink(at("victim"), at(".p.svg.3123456789abcdef.tmp")), 0);
	CU_ASSERT_EQUAL(hk_safefile__sweep(&d, "p.svg", 120), geteuid() == 0 ? 2 : 3);
	ls_names(base, names, sizeof(names));
	if (geteuid() == 0)
		CU_ASSERT_STRING_EQUAL(names, ".p.svg.0123456789abcdeX.tmp "
				       ".p.svg.1123456789abcdef.tmp .p.svg.2123456789abcdef.tmp "
				       ".p.svg.3123456789abcdef.tmp .q.svg.0123456789abcdef.tmp ");
	hk_safefile__dir_close(&d);
	rmbase();
}

/* The oldest of our profiles removed first, down to the quota; never
 * the ones just written, another's file, a symlink, another name. */
static void test_quota(void)
{
	static const char *const suffixes[] = { ".folded", ".svg" };
	static const char *const keep[] = { "hotspot-k.3.c.T3.folded", "hotspot-k.3.c.T3.svg" };
	struct hk_outquota q = { .prefix = "hotspot-k.", .suffixes = suffixes, .nsuffixes = 2,
				 .keep = keep, .nkeep = 2 };
	struct hk_safedir d;
	char warn[512], err[512], names[1024];
	__u64 bytes = 0;

	mkbase();
	CU_ASSERT_EQUAL(chmod(base, 0755), 0);
	CU_ASSERT_FATAL(hk_safefile__dir_open(&d, base, warn, sizeof(warn), err,
					      sizeof(err)) == 0);
	plant_sized("hotspot-k.1.a.T1.folded", 400, 300);
	plant_sized("hotspot-k.1.a.T1.svg", 600, 299);
	plant_sized("hotspot-k.2.b.T2.folded", 400, 200);
	plant_sized("hotspot-k.2.b.T2.svg", 600, 199);
	plant_sized("hotspot-k.3.c.T3.folded", 400, 100);
	plant_sized("hotspot-k.3.c.T3.svg", 600, 100);
	plant_sized("other.svg", 5000, 1000);
	plant_sized("hotspot-k.4.d.T4.svg.bak", 5000, 1000);
	plant_sized("hotspot-k.9.x.T9.svg", 1000, 1000);
	if (geteuid() == 0)
		CU_ASSERT_EQUAL(chown(at("hotspot-k.9.x.T9.svg"), 65534, 65534), 0);
	CU_ASSERT_EQUAL(symlink(at("other.svg"), at("hotspot-k.8.h.T8.svg")), 0);

	/* 3000 bytes of ours; 2100 allowed: T1's two go */
	q.max_bytes = 2100;
	CU_ASSERT_EQUAL(hk_outquota__trim(&d, &q, &bytes), geteuid() == 0 ? 2 : 3);
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL(bytes, 1000);
		CU_ASSERT_EQUAL(hk_outquota__trim(&d, &q, &bytes), 0);
		/* none allowed: all but the kept */
		q.max_bytes = 0;
		CU_ASSERT_EQUAL(hk_outquota__trim(&d, &q, &bytes), 2);
		CU_ASSERT_EQUAL(bytes, 1000);
		ls_names(base, names, sizeof(names));
		ASSERT_STR(names, "hotspot-k.3.c.T3.folded hotspot-k.3.c.T3.svg "
			   "hotspot-k.4.d.T4.svg.bak hotspot-k.8.h.T8.svg hotspot-k.9.x.T9.svg "
			   "other.svg ");
	}
	hk_safefile__dir_close(&d);
	rmbase();
}

/* The directory a path leads to, walked: inode of fd == inode of want. */
static int same_dir(int fd, const char *want)
{
	struct stat a, b;
	int same = !fstat(fd, &a) && !stat(want, &b) && a.st_ino == b.st_ino &&
		   a.st_dev == b.st_dev;

	close(fd);
	return same;
}

/*
 * Symlinks on the way followed when root (or we) own them, refused when
 * another user does, naming it; a directory of another user on the way
 * said; loops and missing parts as open() says them.
 */
static void test_pathwalk(void)
{
	char warn[512], err[512], want[600];
	int fd;

	mkbase();
	CU_ASSERT_EQUAL(chmod(base, 0755), 0);
	CU_ASSERT_EQUAL(mkdir(at("real"), 0755), 0);
	CU_ASSERT_EQUAL(mkdir(at("nob"), 0755), 0);
	CU_ASSERT_EQUAL(mkdir(at("nob/sub"), 0755), 0);
	CU_ASSERT_EQUAL(symlink("real", at("rel")), 0);
	CU_ASSERT_EQUAL(symlink(at("real"), at("abs")), 0);
	CU_ASSERT_EQUAL(symlink("../rel", at("nob/up")), 0);
	CU_ASSERT_EQUAL(symlink("loop2", at("loop1")), 0);
	CU_ASSERT_EQUAL(symlink("loop1", at("loop2")), 0);

	/* ours: followed, relative, absolute, through "..", chained */
	fd = hk_pathwalk__open_dir(at("rel"), warn, sizeof(warn), err, sizeof(err));
	CU_ASSERT(fd >= 0 && same_dir(fd, at("real")));
	ASSERT_STR(warn, "");
	fd = hk_pathwalk__open_dir(at("abs/"), warn, sizeof(warn), err, sizeof(err));
	CU_ASSERT(fd >= 0 && same_dir(fd, at("real")));
	fd = hk_pathwalk__open_dir(at("nob/up"), warn, sizeof(warn), err, sizeof(err));
	CU_ASSERT(fd >= 0 && same_dir(fd, at("real")));
	CU_ASSERT_EQUAL(hk_pathwalk__open_dir(at("loop1"), warn, sizeof(warn), err,
					      sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: Too many levels of symbolic links", at("loop1"));
	ASSERT_STR(err, want);
	CU_ASSERT_EQUAL(hk_pathwalk__open_dir(at("none/x"), warn, sizeof(warn), err,
					      sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: No such file or directory", at("none/x"));
	ASSERT_STR(err, want);

	if (geteuid() == 0) {
		/* nobody's directory on the way: said; nobody's symlink: refused */
		CU_ASSERT_EQUAL(chown(at("nob"), 65534, 65534), 0);
		fd = hk_pathwalk__open_dir(at("nob/sub"), warn, sizeof(warn), err, sizeof(err));
		CU_ASSERT(fd >= 0 && same_dir(fd, at("nob/sub")));
		snprintf(want, sizeof(want), "%s: %s belongs to uid 65534, who can replace what "
			 "is below it", at("nob/sub"), at("nob"));
		ASSERT_STR(warn, want);
		/* the last one is not judged here */
		fd = hk_pathwalk__open_dir(at("nob"), warn, sizeof(warn), err, sizeof(err));
		CU_ASSERT(fd >= 0 && same_dir(fd, at("nob")));
		ASSERT_STR(warn, "");
		CU_ASSERT_EQUAL(lchown(at("nob/up"), 65534, 65534), 0);
		CU_ASSERT_EQUAL(hk_pathwalk__open_dir(at("nob/up"), warn, sizeof(warn), err,
						      sizeof(err)), -1);
		snprintf(want, sizeof(want), "%s: %s is a symlink of uid 65534, who can point it "
			 "anywhere (now ../rel): give the directory itself", at("nob/up"),
			 at("nob/up"));
		ASSERT_STR(err, want);
	}
	rmbase();
}

static void test_write_ctl(void)
{
	char buf[64];
	int fd;

	mkbase();
	fd = open(at("cgroup.freeze"), O_WRONLY | O_CREAT, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL(hk_safefile__write_ctl(at("cgroup.freeze"), "1\n"), 0);
	slurp(at("cgroup.freeze"), buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "1\n");
	/* never created */
	CU_ASSERT_EQUAL(hk_safefile__write_ctl(at("absent"), "0"), -ENOENT);
	CU_ASSERT_EQUAL(access(at("absent"), F_OK), -1);
	/* never through a symlink */
	CU_ASSERT_EQUAL(symlink(at("cgroup.freeze"), at("link")), 0);
	CU_ASSERT_EQUAL(hk_safefile__write_ctl(at("link"), "0"), -ELOOP);
	slurp(at("cgroup.freeze"), buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "1\n");
	/* a FIFO nobody reads: refused at once, not waited on */
	CU_ASSERT_EQUAL(mkfifo(at("fifo"), 0600), 0);
	CU_ASSERT_EQUAL(hk_safefile__write_ctl(at("fifo"), "0"), -ENXIO);
	rmbase();
}

static void test_pidref(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	unsigned long long ticks;
	struct hk_pidref r;
	__u64 start_ns;
	pid_t child;
	int st;

	child = fork();
	CU_ASSERT_FATAL(child >= 0);
	if (!child) {
		pause();
		_exit(0);
	}
	ticks = hk_pidref__start_ticks((__u32)child);
	CU_ASSERT_FATAL(ticks > 0);
	start_ns = ticks * (HK_NSEC_PER_SEC / (__u64)hz);
	/* the same process: any time within its tick */
	CU_ASSERT_EQUAL(hk_pidref__open(&r, (__u32)child, start_ns + HK_NSEC_PER_SEC / hz - 1), 0);
	CU_ASSERT(hk_pidref__held(&r));
	/* another start time: another process holds this PID */
	CU_ASSERT_EQUAL(hk_pidref__open(&(struct hk_pidref){ 0 }, (__u32)child,
					start_ns + HK_NSEC_PER_SEC), -ESTALE);
	kill(child, SIGKILL);
	/* a zombie still holds its PID */
	usleep(100000);
	CU_ASSERT(hk_pidref__held(&r));
	CU_ASSERT_EQUAL(waitpid(child, &st, 0), child);
	/* reaped: the PID is free, the pidfd says so */
	CU_ASSERT(!hk_pidref__held(&r));
	hk_pidref__close(&r);
	CU_ASSERT_EQUAL(r.pidfd, -1);
	CU_ASSERT_EQUAL(hk_pidref__open(&r, (__u32)child, start_ns), -ESRCH);
	CU_ASSERT_STRING_EQUAL(hk_pidref__strerror(-ESTALE),
			       "it exited, and its PID now belongs to another process");
}

static void test_rundir(void)
{
	struct hk_safedir d;
	char err[512], buf[64], path[128];

	mkbase();
	snprintf(path, sizeof(path), "%s/run", base);
	/* made 0700, state put, read back, replaced whole, dropped */
	CU_ASSERT_FATAL(hk_rundir__open(&d, path, err, sizeof(err)) == 0);
	CU_ASSERT_EQUAL(hk_rundir__get(&d, "frozen", buf, sizeof(buf)), -ENOENT);
	CU_ASSERT_EQUAL(hk_rundir__put(&d, "frozen", "a 1\n", 4), 0);
	CU_ASSERT_EQUAL(hk_rundir__get(&d, "frozen", buf, sizeof(buf)), 4);
	CU_ASSERT_STRING_EQUAL(buf, "a 1\n");
	CU_ASSERT_EQUAL(hk_rundir__put(&d, "frozen", "b\n", 2), 0);
	CU_ASSERT_EQUAL(hk_rundir__get(&d, "frozen", buf, 2), 1);
	CU_ASSERT_STRING_EQUAL(buf, "b");
	CU_ASSERT_EQUAL(hk_rundir__drop(&d, "frozen"), 0);
	CU_ASSERT_EQUAL(hk_rundir__drop(&d, "frozen"), 0);
	/* a symlink planted as a state file is not read */
	CU_ASSERT_EQUAL(symlinkat("/etc/hostname", d.fd, "delayacct"), 0);
	CU_ASSERT_EQUAL(hk_rundir__get(&d, "delayacct", buf, sizeof(buf)), -ELOOP);
	hk_safefile__dir_close(&d);
	/* open to others: refused, not trusted */
	CU_ASSERT_EQUAL(chmod(path, 0755), 0);
	CU_ASSERT_EQUAL(hk_rundir__open(&d, path, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "mode 0755: it should be"));
	/* a symlink in its place: refused */
	snprintf(path, sizeof(path), "%s/run2", base);
	CU_ASSERT_EQUAL(symlink(base, path), 0);
	CU_ASSERT_EQUAL(hk_rundir__open(&d, path, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is not a directory (a symlink?)"));
	rmbase();
}

int hk_add_safefile_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "directories refused and warned of", test_dir_checks },
		{ "planted symlink, FIFO and hard link", test_planted_names },
		{ "a killed writer leaves nothing; stale ones swept", test_killed_writer },
		{ "the profiles' quota: the oldest of ours go", test_quota },
		{ "a directory walked: whose symlinks, whose parents", test_pathwalk },
		{ "control files: no create, no symlink, no FIFO", test_write_ctl },
		{ "a PID checked against its start time", test_pidref },
		{ "the state directory under /run", test_rundir },
	};

	return HK_ADD_SUITE("safefile", tests);
}
