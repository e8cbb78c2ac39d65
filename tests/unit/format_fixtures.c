// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * format_fixtures.c - the events the format suites print: one per label.
 * Where a label has a per-thread value and a process-wide one (the wait of
 * Starved and Throttled), the two differ, so that a line showing the wrong
 * one fails.
 */
#include <limits.h>
#include <stdio.h>
#include "format_fixtures.h"

const struct hk_format_ctx ctx_utc = {
	.wall_offset_ns = T_OFFSET_NS,
	.utc = 1,
};

const struct hk_format_ctx ctx_color = {
	.wall_offset_ns = T_OFFSET_NS,
	.utc = 1,
	.color = 1,
};

char fmt_out[BUF_LEN];

void dump(const char *what, const char *s)
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

void set_comm(char *dst, const char *src)
{
	memset(dst, 0, HK_COMM_LEN);
	memcpy(dst, src, strnlen(src, HK_COMM_LEN));
}

void snap_base(struct hk_status_snap *s, __u32 *pids, struct hk_proc *procs, size_t n,
	       __u64 walk_end_ns)
{
	memset(pids, 0, n * sizeof(*pids));
	memset(procs, 0, n * sizeof(*procs));
	memset(s, 0, sizeof(*s));
	s->pids = pids;
	s->procs = procs;
	s->cfg.interval_ns = HK_NSEC_PER_SEC;
	s->stats.windows = 57;
	s->stats.driver = HK_DRIVER_WQ;
	s->stats.last_walk_end_ns = walk_end_ns;
	s->stats.last_walk_ns = HK_NSEC_PER_MSEC;
}

void ev_base(struct hk_event *e, __u32 tgid, const char *comm, __u32 from,
	     __u32 to)
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
	e->ev.rss_bytes = 10 * HK_MIB;
	e->ev.rss_anon_bytes = 8 * HK_MIB;
	e->ev.limit_kind = HK_LIMIT_RAM;
	e->ev.limit_bytes = 8 * HK_GIB;
	e->ev.headroom_bytes = 8 * HK_GIB - 10 * HK_MIB;
	e->ev.eta_s = (__u64)HK_ETA_NONE;
	e->ev.memcg_id = 1;
}

void ev_oom(struct hk_event *e)
{
	ev_base(e, 4242, "python3", HK_OK, HK_OOM_RISK);
	e->ev.cpu_pct_x100 = 350;
	e->ev.thread_cpu_pct_x100 = 300;
	e->ev.thread_queued_pct_x100 = 25;
	e->ev.thread_tid = 4243;
	e->ev.thread_cpu = 2;
	e->ev.wait_pct_x100 = 12;
	e->ev.wait_tid = 4244;
	e->ev.thread_wait_pct_x100 = 10;
	e->ev.nr_threads = 4;
	e->ev.minor_faults_per_s = 9700;
	e->ev.vcsw_per_s = 12;
	e->ev.ivcsw_per_s = 3;
	e->ev.rss_bytes = 1300000000;
	e->ev.rss_anon_bytes = 1200000000;
	e->ev.rss_growth_bytes_per_s = 40000000;
	e->ev.rss_slope_bytes_per_s = 41 * HK_MIB;
	e->ev.rss_net_growth_bytes = 480 * HK_MIB;
	e->ev.rss_trend_ms = 12000;
	e->ev.rss_growing_ms = 95000;
	e->ev.trend_samples = 7;
	e->ev.limit_bytes = 25125000000ULL;
	e->ev.headroom_bytes = 23825000000ULL;
	e->ev.eta_s = 554;
}

void ev_thrash(struct hk_event *e)
{
	ev_base(e, 5100, "thrash", HK_OK, HK_MEM_THRASHING);
	e->ev.cpu_pct_x100 = 2500;
	e->ev.thread_cpu_pct_x100 = 2500;
	e->ev.minor_faults_per_s = 12345;
	e->ev.unexplained_faults_per_s = 11900;
	e->ev.major_faults_per_s = 3;
	e->ev.rss_growth_bytes_per_s = -4096;
	e->ev.rss_net_growth_bytes = -65536;
	e->ev.trend_samples = 3;
	e->ev.limit_kind = HK_LIMIT_MEMCG;
	e->ev.limit_bytes = 512 * HK_MIB;
	e->ev.headroom_bytes = 502 * HK_MIB;
	e->ev.memcg_id = 77;
}

/* Eight threads under a 2-CPU quota: throttled, and each waits its turn. */
void ev_throttled(struct hk_event *e)
{
	ev_base(e, 4400, "java", HK_OK, HK_THROTTLED);
	e->ev.nr_threads = 8;
	e->ev.cpu_pct_x100 = 20000;
	e->ev.thread_tid = 4401;
	e->ev.thread_cpu = 3;
	e->ev.thread_cpu_pct_x100 = 2500;
	e->ev.thread_queued_pct_x100 = 800;
	e->ev.wait_pct_x100 = 21000;
	e->ev.wait_tid = 4410;
	e->ev.thread_wait_pct_x100 = 4100;
	/* summed over the 2 CPUs of its quota: 62.5 % of the window each */
	e->ev.throttled_pct_x100 = 12500;
	e->ev.throttled_norm_pct_x100 = 6250;
	e->ev.quota_cpus_x100 = 200;
	e->ev.quota_cgroup_id = 4242;
	e->ev.cpus_allowed = 8;
	e->ev.usable_cpus_x100 = 200;
}

/* Two threads; the one that waited most is not the busiest one. */
void ev_starved(struct hk_event *e)
{
	ev_base(e, 4301, "bash", HK_OK, HK_STARVED);
	e->ev.nr_threads = 2;
	e->ev.cpu_pct_x100 = 80;
	e->ev.thread_cpu_pct_x100 = 80;
	e->ev.wait_pct_x100 = 9750;
	e->ev.wait_tid = 4302;
	e->ev.thread_wait_pct_x100 = 9700;
	e->ev.aggressor_tgid = 4300;
	e->ev.aggressor_switches = 250;
	set_comm(e->aggressor_comm, "bash");
}

void ev_noisy(struct hk_event *e)
{
	ev_base(e, 4300, "bash", HK_OK, HK_NOISY_NEIGHBOR);
	e->ev.cpu_pct_x100 = 9800;
	e->ev.thread_cpu_pct_x100 = 9800;
	e->ev.wait_pct_x100 = 150;
	e->ev.victim_tgid = 4301;
	set_comm(e->victim_comm, "bash");
}

void ev_cpu(struct hk_event *e)
{
	ev_base(e, 4250, "yes", HK_OK, HK_CPU_BOUND);
	e->ev.cpu_pct_x100 = 9900;
	e->ev.thread_cpu_pct_x100 = 9900;
	e->ev.thread_cpu = 1;
	e->ev.wait_pct_x100 = 100;
}

void ev_ok(struct hk_event *e)
{
	ev_base(e, 4250, "yes", HK_CPU_BOUND, HK_OK);
	e->ev.cpu_pct_x100 = 300;
	e->ev.thread_cpu_pct_x100 = 300;
	e->ev.thread_cpu = 1;
}

void ev_exited(struct hk_event *e)
{
	ev_oom(e);
	e->from = HK_OOM_RISK;
	e->to = HK_EXITED;
	e->windows = 31;
}

const char *human(const struct hk_event *e, const struct hk_format_ctx *c)
{
	int n = hk_format__human(fmt_out, sizeof(fmt_out), e, NULL, c);

	CU_ASSERT(n > 0 && (size_t)n == strlen(fmt_out));
	return fmt_out;
}

const char *json(const struct hk_event *e, const char *cgroup)
{
	int n = hk_format__json(fmt_out, sizeof(fmt_out), e, cgroup, &ctx_utc);

	CU_ASSERT(n > 0 && (size_t)n == strlen(fmt_out));
	return fmt_out;
}

size_t count_str(const char *s, const char *needle)
{
	/* lengths once: a sanitizer's strstr measures the rest each call,
	 * quadratic on a 64 MiB flame graph */
	const char *end = s + strlen(s);
	size_t n = 0, k = strlen(needle);

	while ((s = memmem(s, (size_t)(end - s), needle, k))) {
		n++;
		s += k;
	}
	return n;
}

void ls_names(const char *dir, char *buf, size_t len)
{
	char cmd[PATH_MAX + 64];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | tr '\\n' ' '", dir);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	n = fread(buf, 1, len - 1, p);
	buf[n] = '\0';
	pclose(p);
}
