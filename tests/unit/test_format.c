// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_format.c - the human line and the JSON line, byte for byte, and what
 * hostile comm bytes may and may not do to them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <CUnit/CUnit.h>
#include "format.h"
#include "suites.h"

#define BUF_LEN 4096
#define RANDOM_COMMS 1000

/* 2026-11-22T05:21:36.123456789Z, seen through a monotonic clock at 5000 s */
#define T_MONO_NS 5000123456789ULL
#define T_OFFSET_NS ((1795324896LL - 5000LL) * 1000000000LL)

#define GIB (1ULL << 30)
#define MIB (1ULL << 20)

static const struct hk_format_ctx ctx_utc = {
	.wall_offset_ns = T_OFFSET_NS,
	.utc = 1,
};

static const struct hk_format_ctx ctx_color = {
	.wall_offset_ns = T_OFFSET_NS,
	.utc = 1,
	.color = 1,
};

static char out[BUF_LEN];

/* Print s with every byte outside printable ASCII as \xHH. */
static void dump(const char *what, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fprintf(stderr, "\n    %s: \"", what);
	for (; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f || *p == '\\')
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	}
	fputc('"', stderr);
}

#define ASSERT_STR(act, exp)						\
	do {								\
		const char *a_ = (act), *e_ = (exp);			\
		if (strcmp(a_, e_)) {					\
			dump("got     ", a_);				\
			dump("expected", e_);				\
		}							\
		CU_ASSERT_STRING_EQUAL(a_, e_);				\
	} while (0)

#define ASSERT_HAS(act, needle)						\
	do {								\
		const char *a_ = (act), *n_ = (needle);			\
		if (!strstr(a_, n_)) {					\
			dump("got      ", a_);				\
			dump("lacks    ", n_);				\
		}							\
		CU_ASSERT_PTR_NOT_NULL(strstr(a_, n_));			\
	} while (0)

static void set_comm(char *dst, const char *src)
{
	/* HK_COMM_LEN bytes, NUL-terminated only when shorter */
	memset(dst, 0, HK_COMM_LEN);
	memcpy(dst, src, strnlen(src, HK_COMM_LEN));
}

/* A quiet single-threaded process with nothing wrong. */
static void base(struct hk_event *e, __u32 tgid, const char *comm,
		 __u32 from, __u32 to)
{
	memset(e, 0, sizeof(*e));
	e->type = HK_EV_TRANSITION;
	e->tgid = tgid;
	e->from = from;
	e->to = to;
	e->windows = 12;
	e->time_ns = T_MONO_NS;
	set_comm(e->comm, comm);
	e->ev.window_ns = 1000000000;
	e->ev.nr_threads = 1;
	e->ev.thread_tid = tgid;
	e->ev.vcsw_per_s = 5;
	e->ev.ivcsw_per_s = 2;
	e->ev.rss_bytes = 10 * MIB;
	e->ev.limit_kind = HK_LIMIT_RAM;
	e->ev.limit_bytes = 8 * GIB;
	e->ev.headroom_bytes = 8 * GIB - 10 * MIB;
	e->ev.eta_s = (__u64)HK_ETA_NONE;
	e->ev.memcg_id = 1;
}

static void ev_oom(struct hk_event *e)
{
	base(e, 4242, "python3", HK_OK, HK_OOM_RISK);
	e->ev.cpu_pct_x100 = 350;
	e->ev.thread_cpu_pct_x100 = 300;
	e->ev.thread_tid = 4243;
	e->ev.thread_cpu = 2;
	e->ev.wait_pct_x100 = 12;
	e->ev.nr_threads = 4;
	e->ev.minor_faults_per_s = 9700;
	e->ev.vcsw_per_s = 12;
	e->ev.ivcsw_per_s = 3;
	e->ev.rss_bytes = 1300000000;
	e->ev.rss_growth_bytes_per_s = 40000000;
	e->ev.rss_slope_bytes_per_s = 41 * MIB;
	e->ev.rss_trend_ms = 12000;
	e->ev.limit_bytes = 25125000000ULL;
	e->ev.headroom_bytes = 23825000000ULL;
	e->ev.eta_s = 554;
}

static void ev_thrash(struct hk_event *e)
{
	base(e, 5100, "thrash", HK_OK, HK_MEM_THRASHING);
	e->ev.cpu_pct_x100 = 2500;
	e->ev.thread_cpu_pct_x100 = 2500;
	e->ev.minor_faults_per_s = 12345;
	e->ev.unexplained_faults_per_s = 11900;
	e->ev.major_faults_per_s = 3;
	e->ev.rss_growth_bytes_per_s = -4096;
	e->ev.limit_kind = HK_LIMIT_MEMCG;
	e->ev.limit_bytes = 512 * MIB;
	e->ev.headroom_bytes = 502 * MIB;
	e->ev.memcg_id = 77;
}

static void ev_starved(struct hk_event *e)
{
	base(e, 4301, "bash", HK_OK, HK_STARVED);
	e->ev.cpu_pct_x100 = 80;
	e->ev.thread_cpu_pct_x100 = 80;
	e->ev.wait_pct_x100 = 9700;
	e->ev.aggressor_tgid = 4300;
	e->ev.aggressor_switches = 250;
	set_comm(e->aggressor_comm, "bash");
}

static void ev_noisy(struct hk_event *e)
{
	base(e, 4300, "bash", HK_OK, HK_NOISY_NEIGHBOR);
	e->ev.cpu_pct_x100 = 9800;
	e->ev.thread_cpu_pct_x100 = 9800;
	e->ev.wait_pct_x100 = 150;
	e->ev.victim_tgid = 4301;
	set_comm(e->victim_comm, "bash");
}

static void ev_cpu(struct hk_event *e)
{
	base(e, 4250, "yes", HK_OK, HK_CPU_BOUND);
	e->ev.cpu_pct_x100 = 9900;
	e->ev.thread_cpu_pct_x100 = 9900;
	e->ev.thread_cpu = 1;
	e->ev.wait_pct_x100 = 100;
}

static void ev_ok(struct hk_event *e)
{
	base(e, 4250, "yes", HK_CPU_BOUND, HK_OK);
	e->ev.cpu_pct_x100 = 300;
	e->ev.thread_cpu_pct_x100 = 300;
	e->ev.thread_cpu = 1;
}

static void ev_exited(struct hk_event *e)
{
	ev_oom(e);
	e->from = HK_OOM_RISK;
	e->to = HK_EXITED;
	e->windows = 31;
}

static const char *human(const struct hk_event *e, const struct hk_format_ctx *c)
{
	int n = hk_format_human(out, sizeof(out), e, NULL, c);

	CU_ASSERT(n > 0 && (size_t)n == strlen(out));
	return out;
}

static const char *json(const struct hk_event *e, const char *cgroup)
{
	int n = hk_format_json(out, sizeof(out), e, cgroup, &ctx_utc);

	CU_ASSERT(n > 0 && (size_t)n == strlen(out));
	return out;
}

/* ---- labels, sizes, durations ------------------------------------------ */

static void test_label_names(void)
{
	static const char *const ids[] = {
		"ok", "oom_risk", "mem_thrashing", "starved", "noisy_neighbor",
		"cpu_bound", "exited", "unknown", "unknown",
	};
	static const char *const names[] = {
		"OK", "OOM risk", "Mem-thrashing", "Starved", "Noisy neighbor",
		"CPU-bound", "exited", "unknown", "unknown",
	};
	static const __u32 label[] = { 0, 1, 2, 3, 4, 5, 6, 7, 0xffffffffU };
	unsigned int i;

	for (i = 0; i < sizeof(label) / sizeof(label[0]); i++) {
		ASSERT_STR(hk_label_id(label[i]), ids[i]);
		ASSERT_STR(hk_label_name(label[i]), names[i]);
	}
}

static void test_fmt_bytes(void)
{
	static const struct {
		__u64 bytes;
		const char *s;
	} v[] = {
		{ 0, "0 B" },
		{ 512, "512 B" },
		{ 1023, "1023 B" },
		{ 1024, "1.00 KiB" },
		{ 1535, "1.50 KiB" },
		{ 10239, "10.0 KiB" },		/* 9.999 KiB rounds up */
		{ 100 * 1024, "100 KiB" },
		{ 1047961, "1023 KiB" },
		{ 1048575, "1.00 MiB" },	/* 1023.999 KiB */
		{ 41 * MIB, "41.0 MiB" },
		{ 2 * MIB, "2.00 MiB" },
		{ 1300000000, "1.21 GiB" },
		{ 25125000000ULL, "23.4 GiB" },
		{ 23825000000ULL, "22.2 GiB" },
		{ 1ULL << 40, "1.00 TiB" },
		{ 1ULL << 50, "1.00 PiB" },
		{ 1ULL << 60, "1.00 EiB" },
		{ UINT64_MAX, "16.0 EiB" },
	};
	char buf[32];
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		CU_ASSERT_EQUAL(hk_fmt_bytes(buf, sizeof(buf), v[i].bytes),
				(int)strlen(v[i].s));
		ASSERT_STR(buf, v[i].s);
	}
	/* "1.00 KiB" needs 9 bytes with its NUL */
	CU_ASSERT_EQUAL(hk_fmt_bytes(buf, 9, 1024), 8);
	memset(buf, 'x', sizeof(buf));
	CU_ASSERT_EQUAL(hk_fmt_bytes(buf, 8, 1024), -1);
	CU_ASSERT_EQUAL(buf[0], '\0');
	CU_ASSERT_EQUAL(buf[8], 'x');
	CU_ASSERT_EQUAL(hk_fmt_bytes(NULL, 0, 1024), -1);
}

static void test_fmt_duration(void)
{
	static const struct {
		__u64 s;
		const char *str;
	} v[] = {
		{ 0, "0s" },
		{ 45, "45s" },
		{ 59, "59s" },
		{ 60, "1m00s" },
		{ 572, "9m32s" },
		{ 3599, "59m59s" },
		{ 3600, "1h00m" },
		{ 7500, "2h05m" },
		{ 86399, "23h59m" },
		{ 86400, "1d00h" },
		{ 273600, "3d04h" },
		{ UINT64_MAX, "213503982334601d07h" },
	};
	char buf[32];
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		CU_ASSERT_EQUAL(hk_fmt_duration(buf, sizeof(buf), v[i].s),
				(int)strlen(v[i].str));
		ASSERT_STR(buf, v[i].str);
	}
	memset(buf, 'x', sizeof(buf));
	CU_ASSERT_EQUAL(hk_fmt_duration(buf, 5, 572), -1);
	CU_ASSERT_EQUAL(buf[0], '\0');
	CU_ASSERT_EQUAL(buf[5], 'x');
	CU_ASSERT_EQUAL(hk_fmt_duration(buf, 6, 572), 5);
}

/* ---- human lines --------------------------------------------------------- */

/*
 * Columns: time, two spaces, pid (7, right), space, comm (16, left), two
 * spaces, from (14, right), " → ", to (14, left), two spaces, evidence.
 */
#define H_TIME "05:21:36.123  "

static void test_human_oom_risk(void)
{
	struct hk_event e;

	ev_oom(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4242 python3           "
		   "            OK → OOM risk        "
		   "rss 1.21 GiB +41.0 MiB/s over 12 s · limit 23.4 GiB (RAM)"
		   " · headroom 22.2 GiB · ETA 9m14s\n");

	/* no ETA when RSS is not heading to the limit */
	e.ev.eta_s = (__u64)HK_ETA_NONE;
	e.ev.rss_trend_ms = 11499;
	e.ev.limit_kind = HK_LIMIT_MEMCG;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "over 11 s · limit 23.4 GiB (memcg) · headroom 22.2 GiB\n");
}

static void test_human_mem_thrashing(void)
{
	struct hk_event e;

	ev_thrash(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   5100 thrash            "
		   "            OK → Mem-thrashing   "
		   "12.3k minor faults/s, 11.9k not explained by RSS growth"
		   " · 3 major faults/s · cpu 25 %\n");
}

static void test_human_starved(void)
{
	struct hk_event e;

	ev_starved(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4301 bash              "
		   "            OK → Starved         "
		   "waited 97 % of the window for a CPU, ran 0.8 %"
		   " · preempted by 4300 (bash)\n");

	/* no aggressor known: nothing about one */
	e.ev.aggressor_tgid = 0;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4301 bash              "
		   "            OK → Starved         "
		   "waited 97 % of the window for a CPU, ran 0.8 %\n");
}

static void test_human_noisy_neighbor(void)
{
	struct hk_event e;

	ev_noisy(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4300 bash              "
		   "            OK → Noisy neighbor  "
		   "98 % CPU · thread 4300 at 98 % of cpu0 · starves 4301 (bash)\n");
}

static void test_human_cpu_bound(void)
{
	struct hk_event e;

	ev_cpu(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "            OK → CPU-bound       "
		   "thread 4250 at 99 % of cpu1 · 0 faults/s · run delay 1 %\n");

	/* more than one CPU: the process total comes first */
	e.ev.cpu_pct_x100 = 18000;
	e.ev.minor_faults_per_s = 40;
	e.ev.major_faults_per_s = 2;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "            OK → CPU-bound       "
		   "cpu 180 % · thread 4250 at 99 % of cpu1 · 42 faults/s"
		   " · run delay 1 %\n");
}

static void test_human_ok(void)
{
	struct hk_event e;

	ev_ok(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4250 yes               "
		   "     CPU-bound → OK              "
		   "cpu 3 % · run delay 0 % · 0 faults/s\n");

	/* leaving OOM risk: the trend that no longer holds */
	ev_oom(&e);
	e.from = HK_OOM_RISK;
	e.to = HK_OK;
	e.ev.rss_slope_bytes_per_s = -2 * (__s64)MIB;
	e.ev.eta_s = (__u64)HK_ETA_NONE;
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4242 python3           "
		   "      OOM risk → OK              "
		   "rss 1.21 GiB -2.00 MiB/s over 12 s · limit 23.4 GiB (RAM)"
		   " · headroom 22.2 GiB\n");

	/* leaving Starved: the wait that fell */
	ev_starved(&e);
	e.from = HK_STARVED;
	e.to = HK_OK;
	e.ev.wait_pct_x100 = 995;
	e.ev.cpu_pct_x100 = 4000;
	e.ev.aggressor_tgid = 0;
	ASSERT_HAS(human(&e, &ctx_utc),
		   "Starved → OK              "
		   "waited 10 % of the window for a CPU, ran 40 %\n");
}

static void test_human_exited(void)
{
	struct hk_event e;

	ev_exited(&e);
	ASSERT_STR(human(&e, &ctx_utc),
		   H_TIME "   4242 python3           "
		   "      OOM risk → exited          after 31 windows\n");
	e.windows = 1;
	ASSERT_HAS(human(&e, &ctx_utc), "exited          after 1 window\n");
}

static void test_human_numbers(void)
{
	static const struct {
		__u64 v;
		const char *s;
	} counts[] = {
		{ 0, "0 minor" },
		{ 9999, "9999 minor" },
		{ 10000, "10.0k minor" },
		{ 10049, "10.0k minor" },
		{ 10050, "10.1k minor" },
		{ 99949, "99.9k minor" },
		{ 99950, "100k minor" },
		{ 9999499, "9999k minor" },
		{ 9999500, "10.0M minor" },
		{ 12345678, "12.3M minor" },
		{ 123456789, "123M minor" },
	};
	static const struct {
		__u32 pct_x100;
		const char *s;
	} pcts[] = {
		{ 0, "cpu 0 %\n" },
		{ 4, "cpu 0 %\n" },
		{ 5, "cpu 0.1 %\n" },
		{ 80, "cpu 0.8 %\n" },
		{ 100, "cpu 1 %\n" },
		{ 994, "cpu 9.9 %\n" },
		{ 995, "cpu 10 %\n" },
		{ 1049, "cpu 10 %\n" },
		{ 1050, "cpu 11 %\n" },
		{ 9712, "cpu 97 %\n" },
		{ 0xffffffffU, "cpu 42949673 %\n" },
	};
	struct hk_event e;
	unsigned int i;

	ev_thrash(&e);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		e.ev.minor_faults_per_s = counts[i].v;
		ASSERT_HAS(human(&e, &ctx_utc), counts[i].s);
	}
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		e.ev.cpu_pct_x100 = pcts[i].pct_x100;
		ASSERT_HAS(human(&e, &ctx_utc), pcts[i].s);
	}
	/* zero growth has no sign */
	ev_oom(&e);
	e.ev.rss_slope_bytes_per_s = 0;
	ASSERT_HAS(human(&e, &ctx_utc), "rss 1.21 GiB 0 B/s over");
	e.ev.rss_slope_bytes_per_s = INT64_MIN;
	ASSERT_HAS(human(&e, &ctx_utc), "rss 1.21 GiB -8.00 EiB/s over");
}

static void test_human_color(void)
{
	static const struct {
		void (*make)(struct hk_event *e);
		const char *sgr;
	} v[] = {
		{ ev_oom, "\033[1;31mOOM risk\033[0m      " },
		{ ev_thrash, "\033[35mMem-thrashing\033[0m   " },
		{ ev_starved, "\033[33mStarved\033[0m         " },
		{ ev_noisy, "\033[36mNoisy neighbor\033[0m  " },
		{ ev_cpu, "\033[31mCPU-bound\033[0m       " },
		{ ev_ok, "\033[32mOK\033[0m              " },
		{ ev_exited, "\033[2mexited\033[0m          " },
	};
	struct hk_event e;
	unsigned int i;
	int n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		v[i].make(&e);
		ASSERT_HAS(human(&e, &ctx_color), v[i].sgr);
		/* one SGR and one reset, nothing else */
		CU_ASSERT_PTR_EQUAL(strchr(out, '\033'), strstr(out, v[i].sgr));
		CU_ASSERT_PTR_EQUAL(strrchr(out, '\033'), strstr(out, "\033[0m"));
		n = hk_format_human(out, sizeof(out), &e, NULL, &ctx_utc);
		CU_ASSERT(n > 0);
		CU_ASSERT_PTR_NULL(memchr(out, 0x1b, (size_t)n));
	}
	/* an unknown label has no colour */
	ev_cpu(&e);
	e.to = 42;
	CU_ASSERT_PTR_NULL(strchr(human(&e, &ctx_color), '\033'));
	ASSERT_HAS(out, "OK → unknown         cpu 99 %");
}

static void test_human_local_time(void)
{
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	ev_cpu(&e);
	c.utc = 0;
	setenv("TZ", "XXX-1", 1);	/* POSIX: one hour east of UTC */
	tzset();
	CU_ASSERT_EQUAL(strncmp(human(&e, &c), "06:21:36.123  ", 14), 0);
	/* utc wins over the zone */
	CU_ASSERT_EQUAL(strncmp(human(&e, &ctx_utc), H_TIME, 14), 0);
	setenv("TZ", "UTC", 1);
	tzset();
	/* before the epoch: milliseconds still count forward */
	c.utc = 1;
	c.wall_offset_ns = -(__s64)T_MONO_NS - 1000000;
	CU_ASSERT_EQUAL(strncmp(human(&e, &c), "23:59:59.999  ", 14), 0);
}

/* ---- JSON lines ------------------------------------------------------------ */

#define J_TIME "{\"time\":\"2026-11-22T05:21:36.123Z\","
#define J_NOPEERS ",\"aggressor_pid\":null,\"aggressor_comm\":null," \
		  "\"victim_pid\":null,\"victim_comm\":null}\n"
/* the RSS and limit of base() */
#define J_QUIET_MEM "\"rss_bytes\":10485760,\"rss_growth_bytes_per_s\":0," \
		    "\"rss_slope_bytes_per_s\":0,\"rss_trend_s\":0.000," \
		    "\"limit_kind\":\"ram\",\"limit_bytes\":8589934592," \
		    "\"headroom_bytes\":8579448832,\"eta_s\":null,\"memcg_id\":1"

static void test_json_oom_risk(void)
{
	struct hk_event e;

	ev_oom(&e);
	ASSERT_STR(json(&e, "/user.slice/user-1000.slice"),
		   J_TIME "\"pid\":4242,\"comm\":\"python3\",\"from\":\"ok\","
		   "\"to\":\"oom_risk\",\"cgroup\":\"/user.slice/user-1000.slice\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":3.50,"
		   "\"thread_cpu_pct\":3.00,\"thread_tid\":4243,\"thread_cpu\":2,"
		   "\"run_delay_pct\":0.12,\"thread_run_delay_pct\":0.00,\"nr_threads\":4,\"faults_per_s\":9700,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":12,\"ivcsw_per_s\":3,\"rss_bytes\":1300000000,"
		   "\"rss_growth_bytes_per_s\":40000000,"
		   "\"rss_slope_bytes_per_s\":42991616,\"rss_trend_s\":12.000,"
		   "\"limit_kind\":\"ram\",\"limit_bytes\":25125000000,"
		   "\"headroom_bytes\":23825000000,\"eta_s\":554,\"memcg_id\":1"
		   J_NOPEERS);
}

static void test_json_mem_thrashing(void)
{
	struct hk_event e;

	ev_thrash(&e);
	e.ev.window_ns = 1999499999;	/* rounds to 1.999 */
	e.ev.rss_slope_bytes_per_s = -2 * (__s64)MIB;
	e.ev.rss_trend_ms = 7005;
	/* in a container: its own PID and namespace too */
	e.ns_pid = 7;
	e.ns_ino = 4026532512ULL;
	ASSERT_STR(json(&e, "/kubepods/pod1"),
		   J_TIME "\"pid\":5100,\"comm\":\"thrash\",\"from\":\"ok\","
		   "\"to\":\"mem_thrashing\",\"cgroup\":\"/kubepods/pod1\","
		   "\"ns_pid\":7,\"pidns_ino\":4026532512,"
		   "\"windows\":12,\"window_s\":1.999,\"cpu_pct\":25.00,"
		   "\"thread_cpu_pct\":25.00,\"thread_tid\":5100,\"thread_cpu\":0,"
		   "\"run_delay_pct\":0.00,\"thread_run_delay_pct\":0.00,\"nr_threads\":1,\"faults_per_s\":12345,"
		   "\"major_faults_per_s\":3,\"unexplained_faults_per_s\":11900,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2,\"rss_bytes\":10485760,"
		   "\"rss_growth_bytes_per_s\":-4096,"
		   "\"rss_slope_bytes_per_s\":-2097152,\"rss_trend_s\":7.005,"
		   "\"limit_kind\":\"memcg\",\"limit_bytes\":536870912,"
		   "\"headroom_bytes\":526385152,\"eta_s\":null,\"memcg_id\":77"
		   J_NOPEERS);
}

static void test_json_starved(void)
{
	struct hk_event e;

	ev_starved(&e);
	ASSERT_STR(json(&e, NULL),
		   J_TIME "\"pid\":4301,\"comm\":\"bash\",\"from\":\"ok\","
		   "\"to\":\"starved\",\"cgroup\":null,"
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":0.80,"
		   "\"thread_cpu_pct\":0.80,\"thread_tid\":4301,\"thread_cpu\":0,"
		   "\"run_delay_pct\":97.00,\"thread_run_delay_pct\":0.00,\"nr_threads\":1,\"faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM
		   ",\"aggressor_pid\":4300,\"aggressor_comm\":\"bash\","
		   "\"victim_pid\":null,\"victim_comm\":null}\n");
}

static void test_json_noisy_neighbor(void)
{
	struct hk_event e;

	ev_noisy(&e);
	ASSERT_STR(json(&e, "/"),
		   J_TIME "\"pid\":4300,\"comm\":\"bash\",\"from\":\"ok\","
		   "\"to\":\"noisy_neighbor\",\"cgroup\":\"/\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":98.00,"
		   "\"thread_cpu_pct\":98.00,\"thread_tid\":4300,\"thread_cpu\":0,"
		   "\"run_delay_pct\":1.50,\"thread_run_delay_pct\":0.00,\"nr_threads\":1,\"faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM
		   ",\"aggressor_pid\":null,\"aggressor_comm\":null,"
		   "\"victim_pid\":4301,\"victim_comm\":\"bash\"}\n");
}

static void test_json_cpu_bound(void)
{
	struct hk_event e;

	ev_cpu(&e);
	e.ev.cpu_pct_x100 = 19712;
	e.ev.nr_threads = 3;
	ASSERT_STR(json(&e, "/"),
		   J_TIME "\"pid\":4250,\"comm\":\"yes\",\"from\":\"ok\","
		   "\"to\":\"cpu_bound\",\"cgroup\":\"/\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":197.12,"
		   "\"thread_cpu_pct\":99.00,\"thread_tid\":4250,\"thread_cpu\":1,"
		   "\"run_delay_pct\":1.00,\"thread_run_delay_pct\":0.00,\"nr_threads\":3,\"faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM J_NOPEERS);
}

static void test_json_ok(void)
{
	struct hk_event e;

	ev_ok(&e);
	ASSERT_STR(json(&e, "/"),
		   J_TIME "\"pid\":4250,\"comm\":\"yes\",\"from\":\"cpu_bound\","
		   "\"to\":\"ok\",\"cgroup\":\"/\","
		   "\"windows\":12,\"window_s\":1.000,\"cpu_pct\":3.00,"
		   "\"thread_cpu_pct\":3.00,\"thread_tid\":4250,\"thread_cpu\":1,"
		   "\"run_delay_pct\":0.00,\"thread_run_delay_pct\":0.00,\"nr_threads\":1,\"faults_per_s\":0,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":5,\"ivcsw_per_s\":2," J_QUIET_MEM J_NOPEERS);
}

static void test_json_exited(void)
{
	struct hk_event e;

	ev_exited(&e);
	e.ev.eta_s = 0;		/* zero is a number, not null */
	ASSERT_STR(json(&e, NULL),
		   J_TIME "\"pid\":4242,\"comm\":\"python3\",\"from\":\"oom_risk\","
		   "\"to\":\"exited\",\"cgroup\":null,"
		   "\"windows\":31,\"window_s\":1.000,\"cpu_pct\":3.50,"
		   "\"thread_cpu_pct\":3.00,\"thread_tid\":4243,\"thread_cpu\":2,"
		   "\"run_delay_pct\":0.12,\"thread_run_delay_pct\":0.00,\"nr_threads\":4,\"faults_per_s\":9700,"
		   "\"major_faults_per_s\":0,\"unexplained_faults_per_s\":0,"
		   "\"vcsw_per_s\":12,\"ivcsw_per_s\":3,\"rss_bytes\":1300000000,"
		   "\"rss_growth_bytes_per_s\":40000000,"
		   "\"rss_slope_bytes_per_s\":42991616,\"rss_trend_s\":12.000,"
		   "\"limit_kind\":\"ram\",\"limit_bytes\":25125000000,"
		   "\"headroom_bytes\":23825000000,\"eta_s\":0,\"memcg_id\":1"
		   J_NOPEERS);
}

static void test_json_ns_fields(void)
{
	struct hk_event e;

	ev_cpu(&e);
	e.ns_pid = 1;
	CU_ASSERT_PTR_NULL(strstr(json(&e, NULL), "ns_pid"));
	CU_ASSERT_PTR_NULL(strstr(out, "pidns_ino"));
	e.ns_ino = 4026531836ULL;
	ASSERT_HAS(json(&e, NULL),
		   "\"cgroup\":null,\"ns_pid\":1,\"pidns_ino\":4026531836,"
		   "\"windows\":12,");
}

static void test_json_extremes(void)
{
	struct hk_event e;

	ev_oom(&e);
	e.tgid = 0xffffffffU;
	e.ev.window_ns = UINT64_MAX;
	e.ev.cpu_pct_x100 = 0xffffffffU;
	e.ev.rss_bytes = UINT64_MAX;
	e.ev.rss_growth_bytes_per_s = INT64_MIN;
	e.ev.rss_slope_bytes_per_s = INT64_MAX;
	e.ev.rss_trend_ms = UINT64_MAX;
	e.ev.eta_s = UINT64_MAX - 1;
	e.ev.limit_kind = 9;
	json(&e, NULL);
	ASSERT_HAS(out, "\"pid\":4294967295,");
	ASSERT_HAS(out, "\"window_s\":18446744073.710,");
	ASSERT_HAS(out, "\"cpu_pct\":42949672.95,");
	ASSERT_HAS(out, "\"rss_bytes\":18446744073709551615,");
	ASSERT_HAS(out, "\"rss_growth_bytes_per_s\":-9223372036854775808,");
	ASSERT_HAS(out, "\"rss_slope_bytes_per_s\":9223372036854775807,");
	ASSERT_HAS(out, "\"rss_trend_s\":18446744073709551.615,");
	ASSERT_HAS(out, "\"limit_kind\":\"unknown\",");
	ASSERT_HAS(out, "\"eta_s\":18446744073709551614,");
}

static void test_json_time_offset(void)
{
	struct hk_format_ctx c = ctx_utc;
	struct hk_event e;

	ev_cpu(&e);
	c.utc = 0;
	setenv("TZ", "XXX-1", 1);
	tzset();
	hk_format_json(out, sizeof(out), &e, NULL, &c);
	ASSERT_HAS(out, "{\"time\":\"2026-11-22T06:21:36.123+01:00\",");
	setenv("TZ", "XXX+5:30", 1);	/* five and a half hours west */
	tzset();
	hk_format_json(out, sizeof(out), &e, NULL, &c);
	ASSERT_HAS(out, "{\"time\":\"2026-11-21T23:51:36.123-05:30\",");
	setenv("TZ", "UTC", 1);
	tzset();
	/* local time at offset zero is written with Z */
	hk_format_json(out, sizeof(out), &e, NULL, &c);
	ASSERT_HAS(out, "{\"time\":\"2026-11-22T05:21:36.123Z\",");
}

/* ---- hostile bytes --------------------------------------------------------- */

static void test_hostile_quotes_controls(void)
{
	struct hk_event e;

	ev_starved(&e);
	/* a"b\c ESC LF DEL */
	set_comm(e.comm, "a\"b\\c\x1b\n\x7f");
	set_comm(e.aggressor_comm, "\x1b[2J\t");
	ASSERT_HAS(json(&e, "/x\"y\\z\x01"),
		   "\"comm\":\"a\\\"b\\\\c\\u001b\\u000a\\u007f\",");
	ASSERT_HAS(out, "\"cgroup\":\"/x\\\"y\\\\z\\u0001\",");
	ASSERT_HAS(out, "\"aggressor_comm\":\"\\u001b[2J\\u0009\",");

	/* 5 plain + 3 escaped bytes take 17 columns: no padding left */
	ASSERT_STR(human(&e, &ctx_color),
		   H_TIME "   4301 a\"b\\c\\x1b\\x0a\\x7f  "
		   "            OK → \033[33mStarved\033[0m         "
		   "waited 97 % of the window for a CPU, ran 0.8 %"
		   " · preempted by 4300 (\\x1b[2J\\x09)\n");
	/* the only escape bytes are the label's own */
	CU_ASSERT_PTR_NULL(memchr(human(&e, &ctx_utc), 0x1b, strlen(out)));
	CU_ASSERT_PTR_EQUAL(strchr(out, '\n'), out + strlen(out) - 1);
}

static void test_hostile_utf8(void)
{
	static const struct {
		const char *comm;
		const char *json;
		const char *human;	/* comm column with its padding */
	} v[] = {
		/* stray bytes */
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"", "\\xff\\xfe        " },
		/* truncated three-byte sequence, at the end and mid-string */
		{ "ab\xe2\x82", "\"ab\\ufffd\\ufffd\"", "ab\\xe2\\x82      " },
		{ "\xe2\x82z", "\"\\ufffd\\ufffdz\"", "\\xe2\\x82z       " },
		/* overlong '/' and overlong NUL */
		{ "\xc0\xaf\xc0\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
		  "\\xc0\\xaf\\xc0\\x80" },
		/* overlong three-byte form */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"",
		  "\\xe0\\x80\\xaf    " },
		/* surrogate U+D800, and beyond U+10FFFF */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"",
		  "\\xed\\xa0\\x80    " },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
		  "\\xf4\\x90\\x80\\x80" },
		/* valid: kept as is, padded by columns, CJK being wide */
		{ "caf\xc3\xa9", "\"caf\xc3\xa9\"", "caf\xc3\xa9            " },
		{ "\xe6\x97\xa5\xe6\x9c\xac", "\"\xe6\x97\xa5\xe6\x9c\xac\"",
		  "\xe6\x97\xa5\xe6\x9c\xac            " },
		{ "\xf0\x9f\x98\x80!", "\"\xf0\x9f\x98\x80!\"",
		  "\xf0\x9f\x98\x80!             " },
		/* a C1 control (CSI), and a JavaScript line separator */
		{ "\xc2\x9b" "1m", "\"\\u009b1m\"", "\\xc2\\x9b1m      " },
		{ "\xe2\x80\xa8", "\"\\u2028\"", "\xe2\x80\xa8               " },
		/* valid after invalid: é right after a stray continuation */
		{ "\xa9\xc3\xa9", "\"\\ufffd\xc3\xa9\"", "\\xa9\xc3\xa9           " },
	};
	char want[128];
	struct hk_event e;
	unsigned int i;

	ev_cpu(&e);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		set_comm(e.comm, v[i].comm);
		snprintf(want, sizeof(want), "\"comm\":%s,", v[i].json);
		ASSERT_HAS(json(&e, NULL), want);
		snprintf(want, sizeof(want), "   4250 %s              OK → ",
			 v[i].human);
		ASSERT_HAS(human(&e, &ctx_utc), want);
	}
}

static void test_comm_without_nul(void)
{
	struct hk_event e;

	ev_starved(&e);
	/* 16 bytes, no NUL: the next array must not leak in */
	memcpy(e.comm, "abcdefghijklmnop", HK_COMM_LEN);
	memcpy(e.aggressor_comm, "XYZXYZXYZXYZXYZX", HK_COMM_LEN);
	memcpy(e.victim_comm, "0123456789abcdef", HK_COMM_LEN);
	e.ev.victim_tgid = 9;
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"abcdefghijklmnop\",");
	ASSERT_HAS(out, "\"aggressor_comm\":\"XYZXYZXYZXYZXYZX\",");
	ASSERT_HAS(out, "\"victim_comm\":\"0123456789abcdef\"}\n");
	ASSERT_HAS(human(&e, &ctx_utc),
		   "   4301 abcdefghijklmnop  " "            OK → ");
	ASSERT_HAS(out, "preempted by 4300 (XYZXYZXYZXYZXYZX)\n");

	/* a multi-byte sequence cut by the end of the array */
	memcpy(e.comm, "abcdefghijklmn\xc3\xa9", HK_COMM_LEN);
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"abcdefghijklmn\xc3\xa9\",");
	memcpy(e.comm, "abcdefghijklmno\xc3", HK_COMM_LEN);
	/* even when the next array would complete it */
	memcpy(e.aggressor_comm, "\xa9XYZXYZXYZXYZXY", HK_COMM_LEN);
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"abcdefghijklmno\\ufffd\",");
	ASSERT_HAS(out, "\"aggressor_comm\":\"\\ufffdXYZXYZXYZXYZXY\",");
	ASSERT_HAS(human(&e, &ctx_utc), " abcdefghijklmno\\xc3  ");
	ASSERT_HAS(out, "preempted by 4300 (\\xa9XYZXYZXYZXYZXY)\n");

	/* an empty comm */
	memset(e.comm, 0, HK_COMM_LEN);
	memset(e.aggressor_comm, 0, HK_COMM_LEN);
	ASSERT_HAS(json(&e, NULL), "\"comm\":\"\",");
	ASSERT_HAS(out, "\"aggressor_comm\":\"\",");
	ASSERT_HAS(human(&e, &ctx_utc), "   4301                   ");
	ASSERT_HAS(out, "preempted by 4300\n");
}

/* ---- buffer bounds ---------------------------------------------------------- */

typedef int (*format_fn)(char *, size_t, const struct hk_event *,
			 const char *, const struct hk_format_ctx *);

static void check_bounds(format_fn fn, const struct hk_event *e,
			 const char *cgroup)
{
	char full[BUF_LEN], buf[BUF_LEN + 64];
	size_t len, i;
	int n, r, bad;

	n = fn(full, sizeof(full), e, cgroup, &ctx_color);
	CU_ASSERT_FATAL(n > 0 && (size_t)n < sizeof(full));
	for (len = 0; len <= (size_t)n + 1; len++) {
		memset(buf, 0xa5, sizeof(buf));
		r = fn(buf, len, e, cgroup, &ctx_color);
		bad = 0;
		for (i = len; i < sizeof(buf); i++)
			bad |= (unsigned char)buf[i] != 0xa5;
		CU_ASSERT_FALSE(bad);
		if (len <= (size_t)n) {
			CU_ASSERT_EQUAL(r, -1);
			if (len)
				CU_ASSERT_EQUAL(buf[0], '\0');
		} else {
			CU_ASSERT_EQUAL(r, n);
			CU_ASSERT_STRING_EQUAL(buf, full);
		}
	}
	CU_ASSERT_EQUAL(fn(NULL, 0, e, cgroup, &ctx_color), -1);
}

static void test_buffer_too_small(void)
{
	struct hk_event e;

	ev_oom(&e);
	set_comm(e.comm, "\xff\"\xe6\x97\xa5\x1b");
	check_bounds(hk_format_human, &e, NULL);
	check_bounds(hk_format_json, &e, "/a\xff\"b");
	ev_noisy(&e);
	e.ns_ino = 1;
	check_bounds(hk_format_human, &e, NULL);
	check_bounds(hk_format_json, &e, NULL);
}

/* ---- a JSON and UTF-8 checker, and random comms ------------------------------ */

/* Strict UTF-8, written as the byte-range table of Unicode's table 3-7. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0, len, k;
	unsigned char lo, hi;

	while (i < n) {
		unsigned char b = s[i];

		lo = 0x80;
		hi = 0xbf;
		if (b <= 0x7f) {
			i++;
			continue;
		} else if (b >= 0xc2 && b <= 0xdf) {
			len = 2;
		} else if (b == 0xe0) {
			len = 3;
			lo = 0xa0;
		} else if (b == 0xed) {
			len = 3;
			hi = 0x9f;
		} else if (b >= 0xe1 && b <= 0xef) {
			len = 3;
		} else if (b == 0xf0) {
			len = 4;
			lo = 0x90;
		} else if (b == 0xf4) {
			len = 4;
			hi = 0x8f;
		} else if (b >= 0xf1 && b <= 0xf3) {
			len = 4;
		} else {
			return false;
		}
		if (n - i < len || s[i + 1] < lo || s[i + 1] > hi)
			return false;
		for (k = 2; k < len; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xbf)
				return false;
		i += len;
	}
	return true;
}

struct jp {
	const char *p;
	int depth;
};

static bool jp_value(struct jp *j);

static void jp_ws(struct jp *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static bool jp_lit(struct jp *j, const char *lit)
{
	size_t n = strlen(lit);

	if (strncmp(j->p, lit, n))
		return false;
	j->p += n;
	return true;
}

static int jp_hex4(struct jp *j)
{
	int v = 0, i;

	for (i = 0; i < 4; i++) {
		char c = *j->p++;

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

static bool jp_string(struct jp *j)
{
	int u;

	if (*j->p++ != '"')
		return false;
	for (;;) {
		unsigned char c = (unsigned char)*j->p++;

		if (c == '"')
			return true;
		if (c < 0x20)	/* raw control, or the end of the input */
			return false;
		if (c != '\\')
			continue;
		c = (unsigned char)*j->p++;
		if (strchr("\"\\/bfnrt", c) && c)
			continue;
		if (c != 'u' || (u = jp_hex4(j)) < 0)
			return false;
		/* escaped surrogates only as a high-low pair */
		if (u >= 0xdc00 && u <= 0xdfff)
			return false;
		if (u >= 0xd800 && u <= 0xdbff) {
			if (j->p[0] != '\\' || j->p[1] != 'u')
				return false;
			j->p += 2;
			u = jp_hex4(j);
			if (u < 0xdc00 || u > 0xdfff)
				return false;
		}
	}
}

static bool jp_digits(struct jp *j)
{
	const char *start = j->p;

	while (*j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > start;
}

static bool jp_number(struct jp *j)
{
	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (*j->p < '1' || *j->p > '9' || !jp_digits(j))
		return false;
	if (*j->p == '.') {
		j->p++;
		if (!jp_digits(j))
			return false;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!jp_digits(j))
			return false;
	}
	return true;
}

static bool jp_members(struct jp *j, char close, bool keyed)
{
	j->p++;
	jp_ws(j);
	if (*j->p == close) {
		j->p++;
		return true;
	}
	for (;;) {
		if (keyed) {
			if (!jp_string(j))
				return false;
			jp_ws(j);
			if (*j->p++ != ':')
				return false;
		}
		if (!jp_value(j))
			return false;
		jp_ws(j);
		if (*j->p == close) {
			j->p++;
			return true;
		}
		if (*j->p++ != ',')
			return false;
	}
}

static bool jp_value(struct jp *j)
{
	bool ok;

	jp_ws(j);
	if (++j->depth > 64)
		return false;
	switch (*j->p) {
	case '{':
		ok = jp_members(j, '}', true);
		break;
	case '[':
		ok = jp_members(j, ']', false);
		break;
	case '"':
		ok = jp_string(j);
		break;
	case 't':
		ok = jp_lit(j, "true");
		break;
	case 'f':
		ok = jp_lit(j, "false");
		break;
	case 'n':
		ok = jp_lit(j, "null");
		break;
	default:
		ok = jp_number(j);
		break;
	}
	j->depth--;
	jp_ws(j);
	return ok;
}

/* One JSON object on one newline-terminated line. */
static bool json_line_valid(const char *s)
{
	size_t n = strlen(s);
	struct jp j = { .p = s };

	if (!n || s[n - 1] != '\n' || memchr(s, '\n', n - 1) || s[0] != '{')
		return false;
	return jp_value(&j) && !*j.p;
}

static void test_json_checker(void)
{
	/* the checker itself must be able to fail */
	CU_ASSERT_TRUE(json_line_valid("{\"a\":[1,-0.5,2e+3,true,null,"
				       "\"\\ud83d\\ude00\"]}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1}"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":+1}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":01}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1.}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"\x1b\"}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"\\x41\"}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"\\ud800\"}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":\"x}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1,}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":1}{}\n"));
	CU_ASSERT_FALSE(json_line_valid("{\"a\":nul}\n"));
	CU_ASSERT_TRUE(utf8_valid((const unsigned char *)"\xc3\xa9\xf0\x9f\x98\x80", 6));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xc0\xaf", 2));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xed\xa0\x80", 3));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xe2\x82", 2));
	CU_ASSERT_FALSE(utf8_valid((const unsigned char *)"\xf4\x90\x80\x80", 4));
}

/* xorshift64*: the same sequence on every libc */
static __u64 rng_state = 0x9e3779b97f4a7c15ULL;

static __u32 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (__u32)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

/* Bytes biased towards what breaks printers; a NUL ends the string early. */
static void random_bytes(char *dst, size_t n)
{
	static const char *const pieces[] = {
		"\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xc2\x9b",
		"\xe2\x80\xa8", "\xed\xa0\x80", "\xc0\xaf", "\xe2\x82",
		"\\u0000", "\"", "\\",
	};
	size_t i = 0, k;

	while (i < n) {
		__u32 r = rnd();
		const char *piece;

		switch (r % 8) {
		case 0:
		case 1:
			dst[i++] = (char)(0x20 + r / 8 % 0x5f);
			break;
		case 2:
			dst[i++] = (char)(r / 8 % 0x20);
			break;
		case 3:
		case 4:
			dst[i++] = (char)(0x7f + r / 8 % 0x81);
			break;
		default:
			piece = pieces[r / 8 % (sizeof(pieces) / sizeof(pieces[0]))];
			for (k = 0; piece[k] && i < n; k++)
				dst[i++] = piece[k];
			break;
		}
	}
}

static void test_random_comms(void)
{
	int json_bad = 0, utf8_bad = 0, human_bad = 0;
	char cgroup[65];
	struct hk_event e;
	int i, n;
	size_t k;

	for (i = 0; i < RANDOM_COMMS; i++) {
		ev_starved(&e);
		e.ev.victim_tgid = 1;
		random_bytes(e.comm, HK_COMM_LEN);
		random_bytes(e.aggressor_comm, HK_COMM_LEN);
		random_bytes(e.victim_comm, HK_COMM_LEN);
		random_bytes(cgroup, sizeof(cgroup) - 1);
		cgroup[sizeof(cgroup) - 1] = '\0';

		n = hk_format_json(out, sizeof(out), &e, cgroup, &ctx_utc);
		if (n <= 0 || !json_line_valid(out)) {
			if (!json_bad++)
				dump("invalid JSON", out);
		}
		if (n <= 0 || !utf8_valid((unsigned char *)out, (size_t)n))
			utf8_bad++;

		/* the human line: UTF-8, and no control character but its end */
		n = hk_format_human(out, sizeof(out), &e, NULL, &ctx_utc);
		if (n <= 0 || !utf8_valid((unsigned char *)out, (size_t)n)) {
			human_bad++;
			continue;
		}
		for (k = 0; k + 1 < (size_t)n; k++) {
			unsigned char c = (unsigned char)out[k];

			if (c < 0x20 || c == 0x7f ||
			    (c == 0xc2 && (unsigned char)out[k + 1] < 0xa0)) {
				if (!human_bad++)
					dump("unsafe human line", out);
				break;
			}
		}
	}
	CU_ASSERT_EQUAL(json_bad, 0);
	CU_ASSERT_EQUAL(utf8_bad, 0);
	CU_ASSERT_EQUAL(human_bad, 0);
}

int hk_add_format_suite(void)
{
	static const struct {
		const char *name;
		CU_TestFunc fn;
	} tests[] = {
		{ "label ids and names", test_label_names },
		{ "hk_fmt_bytes", test_fmt_bytes },
		{ "hk_fmt_duration", test_fmt_duration },
		{ "human oom_risk", test_human_oom_risk },
		{ "human mem_thrashing", test_human_mem_thrashing },
		{ "human starved", test_human_starved },
		{ "human noisy_neighbor", test_human_noisy_neighbor },
		{ "human cpu_bound", test_human_cpu_bound },
		{ "human ok", test_human_ok },
		{ "human exited", test_human_exited },
		{ "human counts and shares", test_human_numbers },
		{ "human colour", test_human_color },
		{ "human local time", test_human_local_time },
		{ "json oom_risk", test_json_oom_risk },
		{ "json mem_thrashing", test_json_mem_thrashing },
		{ "json starved", test_json_starved },
		{ "json noisy_neighbor", test_json_noisy_neighbor },
		{ "json cpu_bound", test_json_cpu_bound },
		{ "json ok", test_json_ok },
		{ "json exited", test_json_exited },
		{ "json ns fields", test_json_ns_fields },
		{ "json extremes", test_json_extremes },
		{ "json time offset", test_json_time_offset },
		{ "hostile quotes and controls", test_hostile_quotes_controls },
		{ "hostile utf-8", test_hostile_utf8 },
		{ "comm without NUL", test_comm_without_nul },
		{ "buffer too small", test_buffer_too_small },
		{ "json checker", test_json_checker },
		{ "random comms", test_random_comms },
	};
	CU_pSuite suite;
	unsigned int i;

	suite = CU_add_suite("format", NULL, NULL);
	if (!suite)
		return -1;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!CU_add_test(suite, tests[i].name, tests[i].fn))
			return -1;
	return 0;
}
