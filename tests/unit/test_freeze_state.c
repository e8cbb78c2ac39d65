// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_freeze_state.c - what a freeze leaves behind and what it checks
 * first, byte for byte: the record in /run/hotspot-k (its text, read back,
 * refused when damaged), the uid rule on a made-up cgroup tree and /proc,
 * the thaw command as a shell word (bash reads it back to the same
 * bytes), the lines about a freeze's end, status's lines, and what a new
 * tool does with the records it finds at start. Real cgroups are the
 * end-to-end suite's (test_freeze.py, test_attack_freeze.py).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "config_fixtures.h"
#include "format_fixtures.h"
#include "act/freeze.h"
#include "lib/pidref.h"
#include "suites.h"

static void rec_example(struct hk_freeze_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->hier = HK_FREEZE_HIER_V1;
	r->id = 4242;
	snprintf(r->dir, sizeof(r->dir), "/sys/fs/cgroup/freezer/hk/leak");
	snprintf(r->cgroup, sizeof(r->cgroup), "/hk/leak");
	r->pid = 1234;
	r->uid = 65534;
	snprintf(r->comm, sizeof(r->comm), "python3");
	r->since_boot_ms = 5000;
	r->until_boot_ms = 605000;
	r->since_unix_s = 1795000000;
	r->until_unix_s = 1795000600;
	r->by_pid = 999;
	r->by_start = 123456;
}

static const char rec_text[] =
	"hotspot-k freeze 1\n"
	"freezer v1\n"
	"id 4242\n"
	"dir /sys/fs/cgroup/freezer/hk/leak\n"
	"cgroup /hk/leak\n"
	"pid 1234\n"
	"uid 65534\n"
	"comm python3\n"
	"since 5000 1795000000\n"
	"until 605000 1795000600\n"
	"by 999 123456\n";

/* rec_text with its line of key replaced by line (no newline). */
static const char *with(const char *key, const char *line)
{
	static char out[2048];
	char find[32];
	const char *p, *nl;

	snprintf(find, sizeof(find), "\n%s ", key);
	p = strstr(rec_text, find) + 1;
	nl = strchr(p, '\n');
	snprintf(out, sizeof(out), "%.*s%s%s", (int)(p - rec_text), rec_text, line, nl);
	return out;
}

#define BAD(text, want_why)							\
	do {									\
		why[0] = '\0';							\
		CHECK_U64((__u64)hk_freeze_record__parse(&back, text, why,	\
							 sizeof(why)), (__u64)-1);	\
		CHECK_STR(why, want_why);					\
	} while (0)

static void test_record_text(void)
{
	static char buf[4 * HK_FREEZE_DIR_MAX + 4 * HK_FREEZE_PATH_MAX + 1024];
	static struct hk_freeze_rec r, back;
	char why[256], name[64];

	rec_example(&r);
	CHECK_U64((__u64)hk_freeze_record__format(buf, sizeof(buf), &r), strlen(rec_text));
	ASSERT_STR(buf, rec_text);
	CHECK_U64((__u64)hk_freeze_record__parse(&back, buf, why, sizeof(why)), 0);
	CU_ASSERT(!memcmp(&back, &r, sizeof(r)));
	hk_freeze_record__name(name, sizeof(name), r.hier, r.id);
	CHECK_STR(name, "freeze.v1.4242");
	hk_freeze_record__name(name, sizeof(name), HK_FREEZE_HIER_V2, 18446744073709551615ULL);
	CHECK_STR(name, "freeze.v2.18446744073709551615");

	/* any byte but NUL: each value stays one line, and reads back */
	snprintf(r.cgroup, sizeof(r.cgroup), "/a\\b\n\x01 c\x7f\xc3\xbc");
	snprintf(r.dir, sizeof(r.dir), "/sys/fs/cgroup/freezer%s", r.cgroup);
	memset(r.comm, 0, sizeof(r.comm));
	snprintf(r.comm, sizeof(r.comm), "x\ty");
	r.hier = HK_FREEZE_HIER_V2;
	r.since_unix_s = -5;
	hk_freeze_record__format(buf, sizeof(buf), &r);
	ASSERT_HAS(buf, "\nfreezer v2\n");
	ASSERT_HAS(buf, "\ncgroup /a\\\\b\\x0a\\x01 c\\x7f\xc3\xbc\n");
	ASSERT_HAS(buf, "\ndir /sys/fs/cgroup/freezer/a\\\\b\\x0a\\x01 c\\x7f\xc3\xbc\n");
	ASSERT_HAS(buf, "\ncomm x\\x09y\n");
	ASSERT_HAS(buf, "\nsince 5000 -5\n");
	CHECK_U64((__u64)hk_freeze_record__parse(&back, buf, why, sizeof(why)), 0);
	CU_ASSERT(!memcmp(&back, &r, sizeof(r)));
	/* too small a buffer */
	CHECK_U64((__u64)hk_freeze_record__format(buf, 20, &r), (__u64)-1);

	/* a damaged record is refused, and says where */
	BAD("", "line 1: not \"hotspot-k freeze 1\"");
	BAD("hotspot-k freeze 2\n", "line 1: not \"hotspot-k freeze 1\"");
	BAD("hotspot-k freeze 1\nfreezer v1\n", "no id");
	BAD(with("freezer", "freezer v3"), "line 2: bad value for freezer");
	BAD(with("id", "id 12a"), "line 3: bad value for id");
	BAD(with("id", "id 18446744073709551616"), "line 3: bad value for id");
	BAD(with("dir", "dir relative/x"), "line 4: bad value for dir");
	BAD(with("cgroup", "cgroup /a\\x0"), "line 5: bad value for cgroup");
	BAD(with("cgroup", "cgroup /a\\x00b"), "line 5: bad value for cgroup");
	BAD(with("cgroup", "cgroup /a\\x0Ab"), "line 5: bad value for cgroup");
	BAD(with("cgroup", "cgroup /a\\qb"), "line 5: bad value for cgroup");
	BAD(with("cgroup", "cgroup /a\\"), "line 5: bad value for cgroup");
	BAD(with("cgroup", "cgroup /a\tb"), "line 5: bad value for cgroup");
	BAD(with("pid", "pid 4294967296"), "line 6: bad value for pid");
	BAD(with("pid", "pid -1"), "line 6: bad value for pid");
	BAD(with("uid", "uid "), "line 7: bad value for uid");
	BAD(with("comm", "comm 0123456789abcdef"), "line 8: bad value for comm");
	BAD(with("since", "since 5000"), "line 9: bad value for since");
	BAD(with("until", "until 1 2 3"), "line 10: bad value for until");
	BAD(with("by", "by 999 -1"), "line 11: bad value for by");
	BAD(with("by", "by 999 1\nby 999 1"), "line 12: a second key");
	BAD(with("by", "bye 1 2"), "line 11: unknown key");
	BAD(with("by", "by"), "line 11: unknown key");
	BAD("hotspot-k freeze 1\nfreezer v1", "line 2: no newline at its end");
}

/* A made-up cgroup tree and /proc under top, for the uid rule. */
struct tree {
	char top[64];
	char proc[96];
	char cg[96];
	int fd;
};

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

/* /proc/PID/status with its four uids. */
static void proc_uids(struct tree *t, unsigned int pid, const char *uids)
{
	char dir[256], text[256];

	snprintf(dir, sizeof(dir), "%s/%u", t->proc, pid);
	mkdir(dir, 0755);
	snprintf(text, sizeof(text), "Name:\tx\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t%s\n"
		 "Gid:\t0\t0\t0\t0\n", uids);
	put_file(dir, "status", text);
}

static void tree_make(struct tree *t)
{
	char dir[256];

	snprintf(t->top, sizeof(t->top), "/tmp/hk-unit-owners.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(t->top) != NULL);
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->top);
	snprintf(t->cg, sizeof(t->cg), "%s/cg", t->top);
	mkdir(t->proc, 0755);
	mkdir(t->cg, 0755);
	snprintf(dir, sizeof(dir), "%s/child", t->cg);
	mkdir(dir, 0755);
	put_file(t->cg, "cgroup.procs", "100\n101\n");
	put_file(dir, "cgroup.procs", "102\n");
	proc_uids(t, 100, "1000\t1000\t1000\t1000");
	proc_uids(t, 101, "1000\t1000\t1000\t1000");
	proc_uids(t, 102, "1000\t1000\t1000\t1000");
	t->fd = open(t->cg, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(t->fd >= 0);
}

static void tree_free(struct tree *t)
{
	char cmd[128];

	close(t->fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->top);
	CU_ASSERT(system(cmd) == 0);
}

#define OWNERS(uid, want_ret, want_why)						\
	do {									\
		why[0] = '\0';							\
		CHECK_U64((__u64)hk_freeze_owners__check(t.fd, "/hk/shared", t.proc,	\
							 uid, why, sizeof(why)),	\
			  (__u64)(want_ret));					\
		CHECK_STR(why, want_why);					\
	} while (0)

#define RULE "never frozen with another user's process in it"

static void test_owners(void)
{
	char why[HK_FREEZE_WHY_MAX], want[512], dir[256], many[16 * 4100];
	struct tree t;
	__u32 uids[4];
	size_t off = 0;
	int i;

	tree_make(&t);
	/* every process of the subtree the leaker's uid's: may be frozen */
	OWNERS(1000, 0, "");
	/* the leak's uid is another: refused, and one process named */
	OWNERS(65534, -1, "/hk/shared holds pid 100 of uid 1000 beside uid 65534's leak: " RULE);
	/* one process below, of root: the whole subtree would stop */
	proc_uids(&t, 102, "0\t0\t0\t0");
	OWNERS(1000, -1, "/hk/shared/child holds pid 102 of uid 0 beside uid 1000's leak: "
	       RULE);
	/* root's leak in a cgroup of root's processes may be frozen */
	proc_uids(&t, 100, "0\t0\t0\t0");
	proc_uids(&t, 101, "0\t0\t0\t0");
	OWNERS(0, 0, "");
	proc_uids(&t, 100, "1000\t1000\t1000\t1000");
	proc_uids(&t, 101, "1000\t1000\t1000\t1000");
	proc_uids(&t, 102, "1000\t1000\t1000\t1000");
	/* set-user-ID: the user's process, running as root */
	proc_uids(&t, 101, "1000\t0\t0\t1000");
	OWNERS(1000, -1, "/hk/shared holds pid 101 of uid 1000 running as uid 0 (set-user-ID) "
	       "beside uid 1000's leak: " RULE);
	proc_uids(&t, 101, "1000\t1000\t1000\t0");
	OWNERS(1000, -1, "/hk/shared holds pid 101 of uid 1000 running as uid 0 (set-user-ID) "
	       "beside uid 1000's leak: " RULE);
	proc_uids(&t, 101, "1000\t1000\t1000\t1000");
	/* gone since the list was read: not in it */
	put_file(t.cg, "cgroup.procs", "100\n101\n103\n");
	OWNERS(1000, 0, "");
	/* a process of another PID namespace shows as 0 */
	put_file(t.cg, "cgroup.procs", "100\n0\n");
	OWNERS(1000, -1, "/hk/shared holds a process outside hotspot-k's PID namespace (pid 0 "
	       "in its cgroup.procs), whose uid cannot be told: " RULE);
	/* what cannot be read cannot be cleared */
	put_file(t.cg, "cgroup.procs", "100\n1x\n");
	OWNERS(1000, -1, "/hk/shared: cgroup.procs is not a list of PIDs: " RULE);
	put_file(t.cg, "cgroup.procs", "100\n101");
	OWNERS(1000, -1, "/hk/shared: cgroup.procs is not a list of PIDs: " RULE);
	put_file(t.cg, "cgroup.procs", "100\n");
	snprintf(dir, sizeof(dir), "%s/100/status", t.proc);
	put_file(t.proc, "100/status", "Name:\tx\n");
	snprintf(want, sizeof(want), "cannot tell whose pid 100 in /hk/shared is (%s/100/status: "
		 "Input/output error): " RULE, t.proc);
	OWNERS(1000, -1, want);
	proc_uids(&t, 100, "1000\t1000\t1000\t1000");
	snprintf(dir, sizeof(dir), "%s/child/cgroup.procs", t.cg);
	unlink(dir);
	OWNERS(1000, -1, "cannot tell whose processes /hk/shared/child holds (cgroup.procs: No "
	       "such file or directory): " RULE);
	/* too many to read in the event loop: refused, not a stall */
	for (i = 0; i <= HK_FREEZE_MEMBERS_MAX; i++)
		off += (size_t)snprintf(many + off, sizeof(many) - off, "%d\n", 4000000 + i);
	put_file(t.cg, "cgroup.procs", many);
	OWNERS(1000, -1, "/hk/shared holds more than 4096 processes, too many to check that "
	       "each is uid 1000's: " RULE);

	/* the four uids of a real process: this one */
	CHECK_U64((__u64)hk_freeze_owners__uids("/proc", (__u32)getpid(), uids), 0);
	CHECK_U64(uids[0], getuid());
	CHECK_U64(uids[1], geteuid());
	CHECK_U64((__u64)hk_freeze_owners__uids("/proc", 4194305, uids), (__u64)-ESRCH);
	tree_free(&t);
}

/* bash reads word back as exactly s (when bash is there). */
static void shell_reads(const char *word, const char *s, unsigned int line)
{
	char script[1024], out[512];
	ssize_t n, got = 0;
	int fds[2], status;
	pid_t pid;

	if (access("/bin/bash", X_OK))
		return;
	snprintf(script, sizeof(script), "printf %%s %s", word);
	CU_ASSERT_FATAL(pipe(fds) == 0);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl("/bin/bash", "bash", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + got, sizeof(out) - 1 - (size_t)got)) > 0)
		got += n;
	close(fds[0]);
	waitpid(pid, &status, 0);
	out[got] = '\0';
	check_true((size_t)got == strlen(s) && !memcmp(out, s, (size_t)got), word, line);
}

#define WORD(s, want)								\
	do {									\
		CHECK_U64((__u64)hk_freeze__shell_word(word, sizeof(word), s),	\
			  strlen(want));						\
		CHECK_STR(word, want);						\
		shell_reads(word, s, __LINE__);					\
	} while (0)

static void test_shell_word(void)
{
	char word[256];

	WORD("/hk/leak", "/hk/leak");
	WORD("/system.slice/a@1.service", "/system.slice/a@1.service");
	WORD("/a b", "'/a b'");
	WORD("/it's", "'/it'\\''s'");
	/* in single quotes a '\' is itself: no doubling */
	WORD("/a\\b", "'/a\\b'");
	WORD("/$(id)`x`", "'/$(id)`x`'");
	/* a byte a terminal would act on, or not show: $'...' */
	WORD("/a\nb", "$'/a\\x0ab'");
	WORD("/\x1b[31mred", "$'/\\x1b[31mred'");
	WORD("/\x01" "a", "$'/\\x01a'");
	WORD("/it's\\\x7f", "$'/it\\'s\\\\\\x7f'");
	WORD("/\xc3\xbc\xff", "$'/\\xc3\\xbc\\xff'");
	CHECK_U64((__u64)hk_freeze__shell_word(word, 4, "/a\nb"), (__u64)-1);
}

static const struct hk_freeze_now at_now = {
	.boot_ms = 730000,	/* 2m05s past the record's until */
	.mono_ns = 1000000000ULL,
};

static const char *end_line(const struct hk_freeze_rec *r, enum hk_freeze_end end,
			    const char *why, const struct hk_freeze_now *now, int json)
{
	static char out[HK_FREEZE_LINE_MAX];
	int n = hk_freeze__format_end(out, sizeof(out), r, end, why, now, json, &ctx_utc);

	CU_ASSERT(n > 0 && (size_t)n == strlen(out));
	return out;
}

static void test_end_lines(void)
{
	struct hk_freeze_now now = { .boot_ms = 605000, .mono_ns = 1000000000ULL };
	static struct hk_freeze_rec r;

	rec_example(&r);
	ASSERT_STR(end_line(&r, HK_FREEZE_END_MAX, NULL, &now, 0),
		   "hotspot-k: thawed cgroup /hk/leak: its 10m (--freeze-max) are up (frozen for "
		   "pid 1234 python3, uid 65534)\n");
	ASSERT_STR(end_line(&r, HK_FREEZE_END_MAX, NULL, &now, 1),
		   "{\"event\":\"freeze\",\"time\":\"2026-11-22T03:58:17.000Z\",\"pid\":1234,"
		   "\"comm\":\"python3\",\"uid\":65534,\"cgroup\":\"/hk/leak\",\"freezer\":\"v1\","
		   "\"result\":\"thawed\",\"end\":\"max\",\"reason\":null,\"frozen_s\":600,"
		   "\"freeze_max_s\":600,\"left_s\":0,\"by_pid\":999}\n");
	ASSERT_STR(end_line(&r, HK_FREEZE_END_LEFT, NULL, &at_now, 0),
		   "hotspot-k: thawed cgroup /hk/leak, left frozen by a hotspot-k that is gone "
		   "(pid 999): its 10m were up 2m05s ago (frozen for pid 1234 python3, uid "
		   "65534)\n");
	ASSERT_HAS(end_line(&r, HK_FREEZE_END_LEFT, NULL, &at_now, 1),
		   "\"result\":\"thawed\",\"end\":\"left\",\"reason\":null,\"frozen_s\":725,");
	now.boot_ms = 135000;
	ASSERT_STR(end_line(&r, HK_FREEZE_END_TAKEN, NULL, &now, 0),
		   "hotspot-k: cgroup /hk/leak stays frozen 7m50s more, then thawed: left by a "
		   "hotspot-k that is gone (pid 999) (frozen for pid 1234 python3, uid 65534); "
		   "thaw now with: hotspot-k thaw /hk/leak\n");
	ASSERT_HAS(end_line(&r, HK_FREEZE_END_TAKEN, NULL, &now, 1),
		   "\"result\":\"held\",\"end\":\"taken\",\"reason\":null,\"frozen_s\":130,"
		   "\"freeze_max_s\":600,\"left_s\":470,");
	now.boot_ms = 47000;
	ASSERT_STR(end_line(&r, HK_FREEZE_END_EXIT, NULL, &now, 0),
		   "hotspot-k: thawed cgroup /hk/leak: hotspot-k exits, after 42s frozen (frozen "
		   "for pid 1234 python3, uid 65534)\n");
	snprintf(r.cgroup, sizeof(r.cgroup), "/a b\x1b");
	ASSERT_STR(end_line(&r, HK_FREEZE_END_FAILED, "writing THAWED to x: Permission denied",
			    &now, 0),
		   "hotspot-k: cgroup /a b\\x1b not thawed: writing THAWED to x: Permission "
		   "denied (frozen for pid 1234 python3, uid 65534); thaw with: hotspot-k thaw "
		   "$'/a b\\x1b'\n");
	ASSERT_HAS(end_line(&r, HK_FREEZE_END_FAILED, "no", &now, 1),
		   "\"cgroup\":\"/a b\\u001b\",\"freezer\":\"v1\",\"result\":\"failed\","
		   "\"end\":\"failed\",\"reason\":\"no\",");
	CHECK_U64((__u64)hk_freeze__end_priority(HK_FREEZE_END_MAX), 4);
	CHECK_U64((__u64)hk_freeze__end_priority(HK_FREEZE_END_TAKEN), 4);
	CHECK_U64((__u64)hk_freeze__end_priority(HK_FREEZE_END_FAILED), 3);
}

/* A run directory of our own, root's (or ours) and 0700. */
static void rundir_make(char *path, size_t len)
{
	snprintf(path, len, "/tmp/hk-unit-rundir.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(path) != NULL);
}

static void rundir_free(const char *path)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	CU_ASSERT(system(cmd) == 0);
}

static void test_records(void)
{
	static struct hk_freeze_rec r, back, *recs;
	char path[64], why[512], bad_name[64], file[128];
	unsigned int n, bad;
	struct hk_safedir d;
	FILE *out;
	char *text = NULL;
	size_t text_len = 0;

	rundir_make(path, sizeof(path));
	CU_ASSERT_FATAL(hk_rundir__open(&d, path, why, sizeof(why)) == 0);
	rec_example(&r);
	CHECK_U64((__u64)hk_freeze_record__put(&d, &r), 0);
	CHECK_U64((__u64)hk_freeze_record__get(&d, r.hier, r.id, &back, why, sizeof(why)), 0);
	CU_ASSERT(!memcmp(&back, &r, sizeof(r)));
	CHECK_U64((__u64)hk_freeze_record__get(&d, HK_FREEZE_HIER_V2, r.id, &back, why,
					       sizeof(why)), (__u64)-ENOENT);
	/* a file that is not a record: counted, named, skipped */
	snprintf(file, sizeof(file), "%s/freeze.v1.9", path);
	put_file(path, "freeze.v1.9", "garbage\n");
	put_file(path, "delayacct", "not ours\n");
	CHECK_U64((__u64)hk_freeze_record__list(path, &d, &recs, &n, &bad, bad_name,
						sizeof(bad_name), why, sizeof(why)), 0);
	CHECK_U64(n, 1);
	CHECK_U64(bad, 1);
	CHECK_STR(bad_name, "freeze.v1.9");
	CU_ASSERT(n == 1 && !memcmp(&recs[0], &r, sizeof(r)));
	free(recs);
	hk_safefile__dir_close(&d);

	/* status: one line per record, said to be left by a tool gone */
	out = open_memstream(&text, &text_len);
	CU_ASSERT_FATAL(out != NULL);
	unlink(file);
	CHECK_U64((__u64)hk_freeze_status__text(out, path, 1795000130, true, why, sizeof(why)),
		  0);
	fclose(out);
	ASSERT_STR(text, "frozen: /hk/leak until 2026-11-18 11:16:40 (7m50s left), since "
		   "11:06:40, pid 1234 python3, uid 65534, by hotspot-k 999 (gone: the next "
		   "hotspot-k thaws it when due; now: hotspot-k thaw --all)\n");
	free(text);
	text = NULL;
	out = open_memstream(&text, &text_len);
	CHECK_U64((__u64)hk_freeze_status__json(out, path, why, sizeof(why)), 0);
	fclose(out);
	ASSERT_STR(text, ",\"frozen\":[{\"cgroup\":\"/hk/leak\",\"freezer\":\"v1\",\"id\":4242,"
		   "\"pid\":1234,\"comm\":\"python3\",\"uid\":65534,"
		   "\"since\":\"2026-11-18T11:06:40Z\",\"until\":\"2026-11-18T11:16:40Z\","
		   "\"by_pid\":999,\"by_running\":false}]");
	free(text);

	/* no directory: nothing recorded, nothing made */
	CHECK_U64((__u64)hk_freeze_record__drop(&(struct hk_safedir){ .fd = -1 }, r.hier, r.id) !=
		  0, 1);
	rundir_free(path);
	CHECK_U64((__u64)hk_freeze_record__list(path, &d, &recs, &n, &bad, bad_name,
						sizeof(bad_name), why, sizeof(why)), 0);
	CHECK_U64(n + bad, 0);
	CU_ASSERT(access(path, F_OK) != 0);
	/* another's directory, or one open to others: refused */
	rundir_make(path, sizeof(path));
	chmod(path, 0755);
	CHECK_U64((__u64)hk_freeze_record__list(path, &d, &recs, &n, &bad, bad_name,
						sizeof(bad_name), why, sizeof(why)), (__u64)-1);
	ASSERT_HAS(why, "mode 0755: it should be");
	rundir_free(path);
}

/* Lines a tick said. */
static char said[4096];

static void say(void *arg, int prio, const char *line, size_t n)
{
	(void)arg;
	(void)prio;
	strncat(said, line, n < sizeof(said) - strlen(said) - 1 ? n :
		sizeof(said) - strlen(said) - 1);
}

/*
 * What a new tool does with the records it finds at its first tick: a
 * record of a tool still running is that tool's; one whose cgroup is gone
 * is dropped without a word; a damaged one is left. Then it waits on
 * nothing until it freezes something.
 */
static void test_records_at_start(void)
{
	static struct hk_freeze_rec r;
	char path[64], why[256], file[128];
	struct hk_freezer f;
	struct hk_config cfg;
	struct hk_safedir d;

	rundir_make(path, sizeof(path));
	CU_ASSERT_FATAL(hk_rundir__open(&d, path, why, sizeof(why)) == 0);
	/* pid 1's: it runs */
	rec_example(&r);
	r.by_pid = 1;
	r.by_start = hk_pidref__start_ticks(1);
	CHECK_U64((__u64)hk_freeze_record__put(&d, &r), 0);
	/* a tool gone, its cgroup gone */
	rec_example(&r);
	r.id = 7;
	r.by_pid = 4194305;
	snprintf(r.dir, sizeof(r.dir), "/sys/fs/cgroup/hk-unit-no-such-cgroup-%d", getpid());
	CHECK_U64((__u64)hk_freeze_record__put(&d, &r), 0);
	put_file(path, "freeze.v2.9", "garbage\n");
	hk_safefile__dir_close(&d);

	hk_config__defaults(&cfg);
	CU_ASSERT_FATAL(hk_freeze__init(&f, &cfg) == 0);
	f.rundir = path;
	CHECK_U64((__u64)hk_freeze__timeout_ms(&f), 0);
	said[0] = '\0';
	hk_freeze__tick(&f, 0, &ctx_utc, say, NULL);
	CHECK_STR(said, "");
	CHECK_U64(f.nr_held, 0);
	CHECK_U64((__u64)hk_freeze__timeout_ms(&f), (__u64)-1);
	snprintf(file, sizeof(file), "%s/freeze.v1.4242", path);
	CU_ASSERT(access(file, F_OK) == 0);
	snprintf(file, sizeof(file), "%s/freeze.v1.7", path);
	CU_ASSERT(access(file, F_OK) != 0);
	snprintf(file, sizeof(file), "%s/freeze.v2.9", path);
	CU_ASSERT(access(file, F_OK) == 0);

	/* a freeze held: waited on until its time, to the ms, or until the
	 * next look for a thaw by hand, whichever is first */
	rec_example(&r);
	r.until_boot_ms = hk_freeze__boot_ms() + 5000;
	hk_freeze_held__add(&f, &r);
	f.check_ms = hk_freeze__boot_ms() + 60000;
	CU_ASSERT(hk_freeze__timeout_ms(&f) > 4000 && hk_freeze__timeout_ms(&f) <= 5000);
	f.check_ms = hk_freeze__boot_ms() + 500;
	CU_ASSERT(hk_freeze__timeout_ms(&f) > 0 && hk_freeze__timeout_ms(&f) <= 500);
	CU_ASSERT(hk_freeze_held__find(&f, HK_FREEZE_HIER_V1, 4242) == &f.held[0]);
	CU_ASSERT(hk_freeze_held__find(&f, HK_FREEZE_HIER_V2, 4242) == NULL);
	/* its time up, its record not this tool's: forgotten, not thawed */
	f.held[0].until_boot_ms = 1;
	CHECK_U64((__u64)hk_freeze__timeout_ms(&f), 0);
	hk_freeze__tick(&f, 0, &ctx_utc, say, NULL);
	CHECK_STR(said, "");
	CHECK_U64(f.nr_held, 0);
	hk_freeze__free(&f);
	rundir_free(path);
}

int hk_add_freeze_state_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "freeze record: text", test_record_text },
		{ "freeze uid rule", test_owners },
		{ "thaw command: one shell word", test_shell_word },
		{ "freeze end lines", test_end_lines },
		{ "freeze records: put, list, status", test_records },
		{ "freeze records at start", test_records_at_start },
	};

	return HK_ADD_SUITE("freeze state", tests);
}
