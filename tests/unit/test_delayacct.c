// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_delayacct.c - the delay accounting switch and its record: every
 * decision from the facts (exact tables), then on a stand-in switch and a
 * stand-in /run/hotspot-k: on only when it was off, put back only what a
 * hotspot-k turned on, by whoever exits last, or by the next start after
 * one died with the duty; a switch that cannot be read or written said so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "kernel/delayacct.h"
#include "suites.h"

#define NOTHING HK_DELAYACCT_NOTHING
#define TURN_ON HK_DELAYACCT_TURN_ON
#define TAKE HK_DELAYACCT_TAKE
#define PUT_BACK HK_DELAYACCT_PUT_BACK
#define FORGET HK_DELAYACCT_FORGET

struct row {
	int value, recorded;
	unsigned int others;
	int want;
	enum hk_delayacct_step step;
};

static void check_rows(const struct row *rows, size_t n, int at_exit)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct hk_delayacct_facts f = {
			.value = rows[i].value, .recorded = rows[i].recorded,
			.others = rows[i].others, .want = rows[i].want,
		};
		enum hk_delayacct_step got = at_exit ? hk_delayacct__at_exit(&f) :
						       hk_delayacct__at_start(&f);
		char msg[160];

		snprintf(msg, sizeof(msg), "%s(value %d, recorded %d, others %u, want %d): "
			 "got %d, want %d", at_exit ? "at_exit" : "at_start", f.value,
			 f.recorded, f.others, f.want, got, rows[i].step);
		CU_assertImplementation(got == rows[i].step, __LINE__, msg, __FILE__, "",
					CU_FALSE);
	}
}

static void test_at_start(void)
{
	static const struct row rows[] = {
		/* value recorded others want */
		{ -1, 0, 0, 1, NOTHING },	/* cannot be read: the caller says why */
		{ -1, 1, 0, 0, NOTHING },
		{ 0, 0, 0, 0, NOTHING },	/* io_blocked off: left alone */
		{ 0, 0, 0, 1, TURN_ON },
		{ 0, 0, 2, 1, TURN_ON },
		{ 0, 1, 0, 0, FORGET },		/* someone put 0 back: the record is stale */
		{ 0, 1, 1, 0, NOTHING },	/* ... the running one will drop it */
		{ 0, 1, 0, 1, TURN_ON },
		{ 0, 1, 1, 1, TURN_ON },
		{ 1, 0, 0, 0, NOTHING },	/* the administrator's */
		{ 1, 0, 0, 1, NOTHING },
		{ 1, 0, 3, 1, NOTHING },
		{ 1, 1, 0, 1, TAKE },		/* left by one that died: ours now */
		{ 1, 1, 1, 1, TAKE },		/* a holder runs: ours too */
		{ 1, 1, 0, 0, PUT_BACK },	/* left by one that died, not wanted */
		{ 1, 1, 1, 0, NOTHING },	/* a holder runs: its duty */
	};

	check_rows(rows, sizeof(rows) / sizeof(rows[0]), 0);
}

static void test_at_exit(void)
{
	static const struct row rows[] = {
		/* value recorded others want (holds the duty) */
		{ -1, 1, 0, 1, NOTHING },
		{ 1, 1, 0, 1, PUT_BACK },	/* the last one out */
		{ 1, 1, 1, 1, NOTHING },	/* another runs: the last one does it */
		{ 1, 1, 0, 0, PUT_BACK },	/* recorded, and nobody left to do it */
		{ 1, 0, 0, 1, PUT_BACK },	/* turned on, the record could not be written */
		{ 1, 0, 0, 0, NOTHING },	/* the administrator's */
		{ 0, 1, 0, 1, FORGET },		/* put back by someone else meanwhile */
		{ 0, 1, 1, 1, NOTHING },
		{ 0, 0, 0, 1, NOTHING },
		{ 0, 0, 0, 0, NOTHING },
	};

	check_rows(rows, sizeof(rows) / sizeof(rows[0]), 1);
}

static char sw[64], run[64], rec[96];

static void put(const char *v)
{
	FILE *f = fopen(sw, "w");

	CU_ASSERT_FATAL(f != NULL);
	fputs(v, f);
	fclose(f);
}

static char got(void)
{
	char buf[8] = "";
	FILE *f = fopen(sw, "r");

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(fgets(buf, sizeof(buf), f) != NULL);
	fclose(f);
	return buf[0];
}

/* The record's text; "" when there is none. */
static const char *record(void)
{
	static char buf[128];
	FILE *f = fopen(rec, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void setup(void)
{
	int fd;

	snprintf(sw, sizeof(sw), "/tmp/hk-unit-delayacct.XXXXXX");
	fd = mkstemp(sw);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	/* a run directory as /run/hotspot-k is: ours, 0700 (made by start) */
	snprintf(run, sizeof(run), "/tmp/hk-unit-run.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(run) != NULL);
	CU_ASSERT_FATAL(rmdir(run) == 0);
	snprintf(rec, sizeof(rec), "%s/%s", run, HK_DELAYACCT_STATE);
}

static void teardown(void)
{
	unlink(rec);
	rmdir(run);
	unlink(sw);
}

static void test_switch(void)
{
	struct hk_delayacct d = { .path = sw, .rundir = run };
	char note[1024];
	struct stat st;

	setup();
	/* off, and no rundir yet: nothing recorded, nothing made */
	put("0\n");
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 0, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(got(), '0');
	CU_ASSERT_EQUAL(stat(run, &st), -1);

	/* off: the record written, then turned on; back off at exit */
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), 0);
	CU_ASSERT_STRING_EQUAL(note, "");
	CU_ASSERT_EQUAL(d.turned_on, 1);
	CU_ASSERT_EQUAL(got(), '1');
	CU_ASSERT_STRING_EQUAL(record(), HK_DELAYACCT_RECORD);
	CU_ASSERT_EQUAL(stat(run, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
	/* twice: nothing more */
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(hk_delayacct__exit(&d, 0, 0, note, sizeof(note)), 1);
	CU_ASSERT_STRING_EQUAL(note, "");
	CU_ASSERT_EQUAL(d.turned_on, 0);
	CU_ASSERT_EQUAL(got(), '0');
	CU_ASSERT_STRING_EQUAL(record(), "");

	/* on already (the administrator's): left on, at start and at exit */
	put("1\n");
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(d.turned_on, 0);
	CU_ASSERT_STRING_EQUAL(record(), "");
	CU_ASSERT_EQUAL(hk_delayacct__exit(&d, 0, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(got(), '1');
	teardown();
}

static void test_killed(void)
{
	struct hk_delayacct d = { .path = sw, .rundir = run }, next = d;
	char note[1024];

	setup();
	/* turned on, then SIGKILL: the record stays, the switch stays 1 */
	put("0\n");
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(got(), '1');
	/* the next start, io_blocked off: 0 back, record dropped, said */
	CU_ASSERT_EQUAL(hk_delayacct__start(&next, 0, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(got(), '0');
	CU_ASSERT_STRING_EQUAL(record(), "");
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "back to 0"));
	CU_ASSERT_EQUAL(next.turned_on, 0);

	/* killed again; the next start wants it: the duty is taken, said */
	d.turned_on = 0;
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), 0);
	d.turned_on = 0;
	CU_ASSERT_EQUAL(hk_delayacct__start(&next, 1, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(next.turned_on, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "did not exit"));
	CU_ASSERT_EQUAL(got(), '1');
	CU_ASSERT_EQUAL(hk_delayacct__exit(&next, 0, 0, note, sizeof(note)), 1);
	CU_ASSERT_EQUAL(got(), '0');
	CU_ASSERT_STRING_EQUAL(record(), "");

	/* killed while pinned: unpin (the pinned one's duty) puts 0 back */
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), 0);
	d.turned_on = 0;
	next.turned_on = 0;
	CU_ASSERT_EQUAL(hk_delayacct__exit(&next, 1, 0, note, sizeof(note)), 1);
	CU_ASSERT_EQUAL(got(), '0');
	CU_ASSERT_STRING_EQUAL(record(), "");
	teardown();
}

static void test_instances(void)
{
	struct hk_delayacct a = { .path = sw, .rundir = run }, b = a;
	char note[1024];

	setup();
	put("0\n");
	/* a turns it on; b starts beside it and takes the duty too, quietly */
	CU_ASSERT_EQUAL(hk_delayacct__start(&a, 1, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(hk_delayacct__start(&b, 1, 1, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(b.turned_on, 1);
	CU_ASSERT_STRING_EQUAL(note, "");
	/* a exits first: b runs, 1 stays, and so does the record */
	CU_ASSERT_EQUAL(hk_delayacct__exit(&a, 0, 1, note, sizeof(note)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "stays 1"));
	CU_ASSERT_EQUAL(got(), '1');
	CU_ASSERT_STRING_EQUAL(record(), HK_DELAYACCT_RECORD);
	/* b, the last: 0 back */
	CU_ASSERT_EQUAL(hk_delayacct__exit(&b, 0, 0, note, sizeof(note)), 1);
	CU_ASSERT_EQUAL(got(), '0');
	CU_ASSERT_STRING_EQUAL(record(), "");

	/* put back to 0 by the administrator while a runs: only the record goes */
	CU_ASSERT_EQUAL(hk_delayacct__start(&a, 1, 0, note, sizeof(note)), 0);
	put("0\n");
	CU_ASSERT_EQUAL(hk_delayacct__exit(&a, 0, 0, note, sizeof(note)), 0);
	CU_ASSERT_EQUAL(got(), '0');
	CU_ASSERT_STRING_EQUAL(record(), "");
	teardown();
}

static void test_errors(void)
{
	struct hk_delayacct d = { .path = sw, .rundir = run };
	char note[1024];
	int fd;

	setup();
	/* not a switch's value */
	put("x\n");
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, sw));
	CU_ASSERT_EQUAL(d.turned_on, 0);
	/* ... said only when wanted */
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 0, 0, note, sizeof(note)), 0);
	CU_ASSERT_STRING_EQUAL(note, "");

	/* a run directory that cannot be made (a file there): on all the
	 * same, and the risk said; put back at exit from memory */
	put("0\n");
	fd = open(run, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "cannot be recorded"));
	CU_ASSERT_EQUAL(got(), '1');
	CU_ASSERT_EQUAL(hk_delayacct__exit(&d, 0, 0, note, sizeof(note)), 1);
	CU_ASSERT_EQUAL(got(), '0');
	unlink(run);

	/* no such switch (a kernel without CONFIG_TASK_DELAY_ACCT) */
	unlink(sw);
	CU_ASSERT_EQUAL(hk_delayacct__start(&d, 1, 0, note, sizeof(note)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "No such file or directory"));
	teardown();
}

int hk_add_delayacct_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "at start: every case", test_at_start },
		{ "at exit: every case", test_at_exit },
		{ "switch on, recorded, back off; the administrator's left alone",
		  test_switch },
		{ "a killed instance's record: put back, or taken over", test_killed },
		{ "two instances: the last one out puts it back", test_instances },
		{ "a bad switch, no switch, no run directory", test_errors },
	};

	return HK_ADD_SUITE("delayacct", tests);
}
