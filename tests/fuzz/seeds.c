// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * seeds.c - writes the committed seed corpora (make fuzz-corpus):
 *   corpus/config/  --generate-config's file, one unlike the defaults, and
 *                   the shapes the unit tests parse (good and bad)
 *   corpus/units/   values of every kind, at the edges
 *   corpus/human/, corpus/json/  one event per label, and hostile ones
 * Events are written through struct fz_event_in, the struct the targets
 * read, so that the two cannot disagree on the layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "config/config.h"
#include "event_input.h"
#include "fuzz.h"

static const char *root;

static void put(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, dir);
	if (mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", root, dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static void put_config(const char *name, const struct hk_config *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || hk_config__generate(c, f) || fclose(f)) {
		fprintf(stderr, "seeds: cannot generate %s\n", name);
		exit(1);
	}
	put("config", name, text, len);
	free(text);
}

static const struct {
	const char *name, *text;
} configs[] = {
	{ "minimal.conf", "[general]\ninterval = 1s\nenter_windows = 1\n" },
	{ "blanks-crlf-bom.conf",
	  "\xef\xbb\xbf# a byte order mark first\n"
	  "[general]   # a comment after a section\n"
	  "\tinterval=250ms\r\n"
	  "[ oom_risk ]\r\n"
	  "min_growth = 1.5GiB\n"
	  "[throttled]# no space\n"
	  "min_throttled = 12.5%\n" },
	{ "every-unit.conf",
	  "[general]\ninterval = 0.1s\nexit_windows = 100\n"
	  "[oom_risk]\ntrend_span = 60m\nmin_trend = 3599.999999999s\n"
	  "min_growth = 1TiB\nsteady = 1.00%\neta_horizon = 2000ms\n"
	  "[mem_thrashing]\nmajor_faults_per_s = 10k\n"
	  "minor_faults_per_s = 18446744073709551615\n"
	  "[starved]\nmin_wait = 100%\n[noisy_neighbor]\nmin_cpu = 1%\n"
	  "[cpu_bound]\nthread_cpu = 99.99%\ntotal_cpu = 50 %\n"
	  "max_faults_per_s = 1M\n" },
	{ "span-too-short.conf",	/* parses, does not validate */
	  "[general]\ninterval = 1h\n[oom_risk]\ntrend_span = 1s\nmin_trend = 1s\n" },
	{ "removed-key.conf", "[oom_risk]\nmin_rss = 1GiB\n" },
	{ "duplicate-key.conf",
	  "[general]\ninterval = 5s\n[starved]\nmin_wait = 5%\n"
	  "[general]\ninterval = 5s\n" },
	{ "unknown-section.conf", "[General]\ninterval = 5s\n" },
	{ "control-in-value.conf", "[general]\ninterval = 5\001s\n" },
	{ "out-of-range.conf", "[general]\nenter_windows = 101\n" },
	{ "no-section.conf", "interval = 5s\n[general\n" },
};

static void config_seeds(void)
{
	struct hk_config c;
	size_t i;

	hk_config__defaults(&c);
	put_config("defaults.conf", &c);
	/* every key away from its default, each still in range */
	c.interval_ns = 1 * HK_NSEC_PER_SEC;
	c.enter_windows = 5;
	c.exit_windows = 6;
	c.oom_trend_span_ns = 90 * HK_NSEC_PER_SEC;
	c.oom_min_trend_ns = 2500 * HK_NSEC_PER_MSEC;
	c.oom_min_growth_bytes = 1536 * HK_MIB;
	c.oom_steady_pct_x100 = 125;
	c.oom_eta_horizon_s = 86400 + 1;
	c.thrash_major_faults_per_s = 1;
	c.thrash_minor_faults_per_s = 12500;
	c.throttled_pct_x100 = 9994;
	c.starved_wait_pct_x100 = 9999;
	c.noisy_cpu_pct_x100 = 9998;
	c.cpu_thread_pct_x100 = 9997;
	c.cpu_total_pct_x100 = 9996;
	c.cpu_max_faults_per_s = 3;
	put_config("unlike-defaults.conf", &c);
	for (i = 0; i < ARRAY_SIZE(configs); i++)
		put("config", configs[i].name, configs[i].text, strlen(configs[i].text));
}

static const char *const values[] = {
	"5s", "250ms", "3599.999999999s", "1.5GiB", "512 KiB", "12.5%", "0.01%",
	"42949672.95%", "10k", "1M", "18446744073709551615", "18446744073709551616",
	"1.000000000000000000001s", "213503982334601d",
};

static void unit_seeds(void)
{
	char name[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		snprintf(name, sizeof(name), "value-%02zu", i);
		put("units", name, values[i], strlen(values[i]));
	}
}

/* /proc/PID/cgroup files: pure v2 (a pod's container), hybrid, cgroupfs */
static const char *const cgroup_files[] = {
	"0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
	"1c2d3e4f_aaaa_bbbb_cccc_123456789abc.slice/cri-containerd-"
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope\n",
	"12:pids:/user.slice\n11:cpu,cpuacct:/hk/quota\n10:memory:/hk/leak\n"
	"1:name=systemd:/system.slice/docker-"
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope\n0::/\n",
	("0::/kubepods/burstable/pod1c2d3e4f-aaaa-bbbb-cccc-123456789abc/"
	 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"),
	"0::/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service\n",
};

static void cgroup_seeds(void)
{
	char name[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cgroup_files); i++) {
		snprintf(name, sizeof(name), "file-%02zu", i);
		put("cgroup", name, cgroup_files[i], strlen(cgroup_files[i]));
	}
}

/* An event as the targets read it: the head, then the path's bytes. */
struct seed {
	struct fz_event_in in;
	char path[64];
};

static void set_comm(char *dst, const char *src)
{
	memset(dst, 0, HK_COMM_LEN);
	memcpy(dst, src, strnlen(src, HK_COMM_LEN));
}

static void base(struct seed *s, __u32 from, __u32 to, const char *comm)
{
	struct hk_event *e = &s->in.e;

	memset(s, 0, sizeof(*s));
	s->in.flags = FZ_EV_UTC;
	/* 2026-11-22T05:21:36.123Z through a monotonic clock at 5000 s */
	s->in.wall_offset_ns = (1795324896LL - 5000LL) * 1000000000LL;
	e->type = HK_EV_TRANSITION;
	e->tgid = 4242;
	e->from = from;
	e->to = to;
	e->windows = 12;
	e->time_ns = 5000123456789ULL;
	set_comm(e->comm, comm);
	e->ev.window_ns = 1000000000;
	e->ev.nr_threads = 4;
	e->ev.thread_tid = 4243;
	e->ev.thread_cpu = 1;
	e->ev.cpu_pct_x100 = 350;
	e->ev.thread_cpu_pct_x100 = 300;
	e->ev.rss_bytes = 1300000000;
	e->ev.rss_anon_bytes = 1200000000;
	e->ev.limit_kind = HK_LIMIT_RAM;
	e->ev.limit_bytes = 8 * HK_GIB;
	e->ev.headroom_bytes = 6 * HK_GIB;
	e->ev.eta_s = (__u64)HK_ETA_NONE;
	e->ev.memcg_id = 1;
	strcpy(s->path, "/user.slice/user-1000.slice/session-2.scope");
}

static void put_event(const char *name, const struct seed *s)
{
	size_t n = sizeof(s->in) + strlen(s->path);

	put("human", name, s, n);
	put("json", name, s, n);
}

static void event_seeds(void)
{
	struct seed s;
	struct hk_evidence *ev = &s.in.e.ev;

	base(&s, HK_OK, HK_OOM_RISK, "python3");
	ev->rss_slope_bytes_per_s = 41 * HK_MIB;
	ev->rss_net_growth_bytes = 480 * HK_MIB;
	ev->rss_trend_ms = 12000;
	ev->trend_samples = 7;
	ev->eta_s = 554;
	put_event("oom-risk", &s);

	base(&s, HK_OK, HK_MEM_THRASHING, "thrash");
	s.in.flags |= FZ_EV_NO_CGROUP | FZ_EV_COLOR;
	ev->minor_faults_per_s = 12345;
	ev->unexplained_faults_per_s = 11900;
	ev->rss_growth_bytes_per_s = -4096;
	ev->limit_kind = HK_LIMIT_MEMCG;
	put_event("mem-thrashing", &s);

	base(&s, HK_OK, HK_THROTTLED, "java");
	s.in.flags = FZ_EV_COLOR | 2 << FZ_EV_TZ_SHIFT;
	ev->throttled_pct_x100 = 6250;
	ev->wait_tid = 4410;
	ev->thread_wait_pct_x100 = 4100;
	put_event("throttled", &s);

	base(&s, HK_OK, HK_STARVED, "bash");
	ev->wait_pct_x100 = 9750;
	ev->thread_wait_pct_x100 = 9700;
	ev->aggressor_tgid = 4300;
	ev->aggressor_switches = 250;
	memcpy(s.in.e.aggressor_comm, "sixteen-bytes-xx", HK_COMM_LEN);
	put_event("starved", &s);

	base(&s, HK_STARVED, HK_NOISY_NEIGHBOR, "yes");
	s.in.flags = 1 << FZ_EV_TZ_SHIFT;	/* summer time */
	ev->cpu_pct_x100 = 9800;
	ev->thread_queued_pct_x100 = 800;
	ev->victim_tgid = 4301;
	set_comm(s.in.e.victim_comm, "bash");
	put_event("noisy-neighbor", &s);

	base(&s, HK_OK, HK_CPU_BOUND, "yes");
	s.in.flags = FZ_EV_COLOR | 3 << FZ_EV_TZ_SHIFT;	/* LMT: not minutes */
	ev->cpu_pct_x100 = 19900;
	ev->thread_cpu_pct_x100 = 9900;
	put_event("cpu-bound", &s);

	base(&s, HK_CPU_BOUND, HK_OK, "yes");
	put_event("ok", &s);

	base(&s, HK_OOM_RISK, HK_EXITED, "leak");
	s.in.e.windows = 1;
	s.in.e.ns_ino = 4026532000ULL;
	s.in.e.ns_pid = 7;
	put_event("exited", &s);

	/* what a process may call itself: escapes, bidi, broken UTF-8, no NUL */
	base(&s, HK_OK, HK_STARVED, "");
	memcpy(s.in.e.comm, "\x1b]0;x\x07\xe2\x80\xae\\x41\xff\xc0\xaf\xc2\x85", HK_COMM_LEN);
	memcpy(s.in.e.aggressor_comm, "\xe2\x81\xa6\xd8\x9c\xe2\x80\x8f\xed\xa0\x80\xf4\x90\x80\x80\x7f", HK_COMM_LEN);
	ev->aggressor_tgid = 1;
	s.in.flags = FZ_EV_COLOR;
	/* 18 bytes, 256 times: past HK_FORMAT_CGROUP_MAX */
	strcpy(s.path, "/\x1b[2J\xe2\x80\xa8\"\\\xf0\x9f\x98\x80\xc0\xe2\x80\xae");
	s.in.cgroup_repeat = 255;
	put_event("hostile", &s);

	/* a path cut inside a character at HK_FORMAT_CGROUP_MAX */
	base(&s, HK_OK, HK_CPU_BOUND, "cut");
	/* 24 bytes, 256 times: byte 4096 = 170 * 24 + 16 is inside an emoji */
	strcpy(s.path, "/a\xf0\x9f\x98\x80/a\xf0\x9f\x98\x80/a\xf0\x9f\x98\x80/a\xf0\x9f\x98\x80");
	s.in.cgroup_repeat = 255;
	put_event("long-path", &s);

	/* labels no version knows, every number at its largest, before 1970 */
	base(&s, 99, 0xffffffff, "max");
	memset(ev, 0xff, sizeof(*ev));
	ev->eta_s = (__u64)HK_ETA_NONE - 1;
	s.in.e.windows = 0xffffffff;
	s.in.e.tgid = 0xffffffff;
	s.in.wall_offset_ns = -6000000000000000000LL;
	put_event("extremes", &s);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	root = argv[1];
	config_seeds();
	unit_seeds();
	cgroup_seeds();
	event_seeds();
	return 0;
}
