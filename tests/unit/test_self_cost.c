// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_self_cost.c - the tool's own cost (kernel/self_cost.c) from what the
 * loader gathers, per source: the kernel's run times, or runs counted from
 * /proc/stat and costed at the bench's ns per run; said in one line; and
 * /proc/stat's counters read (lib/sysinfo.c). The kernel's run times only
 * with --bpf-stats (issue #29: they time every BPF program of the host).
 */
#include <string.h>
#include <unistd.h>
#include "cmd/cli.h"
#include "format_fixtures.h"
#include "kernel/self_cost.h"
#include "lib/sysinfo.h"
#include "suites.h"

/* 60 s of a tool whose hook was attached twice, 10 s in all */
static struct hk_self_cost_in in_of(enum hk_cost_source source)
{
	struct hk_self_cost_in in = {
		.source = source,
		.lifetime_ns = 60 * HK_NSEC_PER_SEC,
		.start_cpu_ns = 500 * HK_NSEC_PER_MSEC,
		.start_walk_cpu_ns = 2 * HK_NSEC_PER_MSEC,
		.hook_attached = 1,
		.hook = { .attaches = 2, .detaches = 1, .attached_ns = 10 * HK_NSEC_PER_SEC,
			  .attach_ns_max = 350 * HK_NSEC_PER_USEC, .switches_attached = 40000 },
		.hook_prog = { .runs = 41000, .run_ns = 41000 * 55 },
		.exit_prog = { .runs = 300, .run_ns = 300 * 400 },
		.oom_prog = { .runs = 1, .run_ns = 2000 },
		.forks = 310,
		.walk_cpu_ns = 14 * HK_NSEC_PER_MSEC,
		.iter_walk_cpu_ns = 3 * HK_NSEC_PER_MSEC,
		.process_cpu_ns = 520 * HK_NSEC_PER_MSEC,
	};
	return in;
}

static void test_measured(void)
{
	struct hk_self_cost_in in = in_of(HK_COST_STATS);
	struct hk_cost c;

	hk_self_cost__compute(&in, &c);
	CU_ASSERT_EQUAL(c.source, HK_COST_STATS);
	CU_ASSERT_EQUAL(c.hook_runs, 41000);
	CU_ASSERT_EQUAL(c.hook_run_ns, 2255000);
	CU_ASSERT_EQUAL(c.exit_runs, 300);
	CU_ASSERT_EQUAL(c.exit_run_ns, 120000);
	CU_ASSERT_EQUAL(c.oom_runs, 1);
	CU_ASSERT_EQUAL(c.oom_run_ns, 2000);
	/* the walks since the start: 14 - 2 ms */
	CU_ASSERT_EQUAL(c.walk_cpu_ns, 12 * HK_NSEC_PER_MSEC);
	/* the process since the start, less the walks it ran: 520 - 500 - 3 ms */
	CU_ASSERT_EQUAL(c.user_cpu_ns, 17 * HK_NSEC_PER_MSEC);
	CU_ASSERT_EQUAL(c.total_ns, 2255000 + 120000 + 2000 + 12000000 + 17000000);
	CU_ASSERT_EQUAL(c.start_cpu_ns, 500 * HK_NSEC_PER_MSEC);
	CU_ASSERT_EQUAL(c.hook_attached, 1);
	CU_ASSERT_EQUAL(c.hook_attaches, 2);
	CU_ASSERT_EQUAL(c.hook_attached_ns, 10 * HK_NSEC_PER_SEC);
	CU_ASSERT_EQUAL(c.hook_attach_ns_max, 350 * HK_NSEC_PER_USEC);
	/* the sysctl's numbers are the same kind */
	in.source = HK_COST_SYSCTL;
	hk_self_cost__compute(&in, &c);
	CU_ASSERT_EQUAL(c.hook_run_ns, 2255000);
}

static void test_estimate(void)
{
	struct hk_self_cost_in in = in_of(HK_COST_ESTIMATE);
	struct hk_cost c;

	hk_self_cost__compute(&in, &c);
	/* the kernel's counts, not the (unfilled) run times */
	CU_ASSERT_EQUAL(c.hook_runs, 40000);
	CU_ASSERT_EQUAL(c.hook_run_ns, 40000 * HK_COST_EST_HOOK_NS);
	CU_ASSERT_EQUAL(c.exit_runs, 310);
	CU_ASSERT_EQUAL(c.exit_run_ns, 310 * HK_COST_EST_EXIT_NS);
	CU_ASSERT_EQUAL(c.oom_runs, 0);
	CU_ASSERT_EQUAL(c.total_ns, 40000 * HK_COST_EST_HOOK_NS + 310 * HK_COST_EST_EXIT_NS +
				    12 * HK_NSEC_PER_MSEC + 17 * HK_NSEC_PER_MSEC);
	/* no fork hook (not the table driver): none counted */
	CU_ASSERT_EQUAL(c.fork_runs, 0);
	CU_ASSERT_EQUAL(c.fork_run_ns, 0);
}

/* The table driver's fork hook: a run a fork, in the total, either way. */
static void test_fork_hook(void)
{
	struct hk_self_cost_in in = in_of(HK_COST_ESTIMATE);
	struct hk_cost c;
	char line[512];

	in.fork_hook = 1;
	hk_self_cost__compute(&in, &c);
	CU_ASSERT_EQUAL(c.fork_runs, 310);
	CU_ASSERT_EQUAL(c.fork_run_ns, 310 * HK_COST_EST_FORK_NS);
	CU_ASSERT_EQUAL(c.total_ns, 40000 * HK_COST_EST_HOOK_NS + 310 * HK_COST_EST_EXIT_NS +
				    310 * HK_COST_EST_FORK_NS + 12 * HK_NSEC_PER_MSEC +
				    17 * HK_NSEC_PER_MSEC);
	in = in_of(HK_COST_STATS);
	in.fork_hook = 1;
	in.fork_prog = (struct hk_prog_runs){ .runs = 320, .run_ns = 320 * 200 };
	hk_self_cost__compute(&in, &c);
	CU_ASSERT_EQUAL(c.fork_runs, 320);
	CU_ASSERT_EQUAL(c.fork_run_ns, 64000);
	CU_ASSERT_EQUAL(c.total_ns, 2255000 + 120000 + 2000 + 64000 + 12000000 + 17000000);
	hk_self_cost__format(&c, line, sizeof(line));
	ASSERT_HAS(line, ", exit hook 300 runs 0.120 ms, fork hook 320 runs 0.064 ms, OOM hook 1 runs");
}

/*
 * The default: nothing timed by the kernel. 90 s, the hook never attached,
 * 2400 threads exited on the host, the walks timing themselves: every
 * part exact, the hooks' at the bench's 55 and 175 ns a run.
 */
static void test_estimate_default(void)
{
	struct hk_self_cost_in in = in_of(HK_COST_ESTIMATE);
	struct hk_cost c;
	char line[512];

	in.lifetime_ns = 90 * HK_NSEC_PER_SEC;
	in.hook_attached = 0;
	in.hook = (struct hk_hook_use){ 0 };
	in.forks = 2400;
	hk_self_cost__compute(&in, &c);
	CU_ASSERT_EQUAL(c.hook_runs, 0);
	CU_ASSERT_EQUAL(c.hook_run_ns, 0);
	CU_ASSERT_EQUAL(c.exit_runs, 2400);
	CU_ASSERT_EQUAL(c.exit_run_ns, 420000);
	CU_ASSERT_EQUAL(c.total_ns, 420000 + 12 * HK_NSEC_PER_MSEC + 17 * HK_NSEC_PER_MSEC);
	hk_self_cost__format(&c, line, sizeof(line));
	/* 29.420 ms in 90 s: 326 millionths of a CPU */
	ASSERT_STR(line, "own cost 29.420 ms CPU in 90 s (0.0326 % of one CPU; estimated: "
		   "runs counted x ns per run in make bench), start apart (500.000 ms: load, "
		   "verifier, first walk): walks 12.000 ms, userspace 17.000 ms, sched_switch "
		   "hook 0 runs 0.000 ms (attached 0 times, 0 s in all), exit hook 2400 runs "
		   "0.420 ms, fork hook 0 runs 0.000 ms, OOM hook 0 runs");
}

/* hk_cli__parse on a NULL-terminated list: whether it asks for the stats */
static int bpf_stats_of(char **argv)
{
	struct hk_cli c;
	int argc = 0;

	while (argv[argc])
		argc++;
	memset(&c, 0, sizeof(c));
	optind = 0;	/* getopt from scratch */
	CU_ASSERT_EQUAL(hk_cli__parse(&c, argc, argv), -1);
	return c.opts.bpf_stats;
}

static void test_cli(void)
{
	char *none[] = { "hotspot-k", NULL };
	char *on[] = { "hotspot-k", "--bpf-stats", NULL };
	char *off[] = { "hotspot-k", "--no-bpf-stats", NULL };
	char *last[] = { "hotspot-k", "--bpf-stats", "--no-bpf-stats", NULL };

	CU_ASSERT_EQUAL(bpf_stats_of(none), 0);
	CU_ASSERT_EQUAL(bpf_stats_of(on), 1);
	CU_ASSERT_EQUAL(bpf_stats_of(off), 0);
	CU_ASSERT_EQUAL(bpf_stats_of(last), 0);
}

static void test_edges(void)
{
	struct hk_self_cost_in in = in_of(HK_COST_UNKNOWN);
	struct hk_cost c;

	hk_self_cost__compute(&in, &c);
	CU_ASSERT_EQUAL(c.hook_runs, 0);
	CU_ASSERT_EQUAL(c.exit_runs, 0);
	/* clocks that went the other way (a tick-granular process clock
	 * under a walk the kernel timed finer) never wrap */
	in.process_cpu_ns = 501 * HK_NSEC_PER_MSEC;
	in.walk_cpu_ns = HK_NSEC_PER_MSEC;
	hk_self_cost__compute(&in, &c);
	CU_ASSERT_EQUAL(c.user_cpu_ns, 0);
	CU_ASSERT_EQUAL(c.walk_cpu_ns, 0);
	CU_ASSERT_EQUAL(c.total_ns, 0);
}

static void test_format(void)
{
	struct hk_self_cost_in in = in_of(HK_COST_STATS);
	struct hk_cost c;
	char line[512];

	hk_self_cost__compute(&in, &c);
	hk_self_cost__format(&c, line, sizeof(line));
	/* 31.377 ms in 60 s: 523 millionths of a CPU */
	ASSERT_STR(line, "own cost 31.377 ms CPU in 60 s (0.0522 % of one CPU; measured: "
		   "BPF_ENABLE_STATS), start apart (500.000 ms: load, verifier, first walk): "
		   "walks 12.000 ms, userspace 17.000 ms, sched_switch hook 41000 runs "
		   "2.255 ms (attached 2 times, 10 s in all, now), exit hook 300 runs "
		   "0.120 ms, fork hook 0 runs 0.000 ms, OOM hook 1 runs");
	in = in_of(HK_COST_ESTIMATE);
	in.hook_attached = 0;
	hk_self_cost__compute(&in, &c);
	hk_self_cost__format(&c, line, sizeof(line));
	ASSERT_HAS(line, "; estimated: runs counted x ns per run in make bench)");
	ASSERT_HAS(line, "(attached 2 times, 10 s in all), ");
	/* a tool that never ran a window divides by nothing */
	memset(&c, 0, sizeof(c));
	hk_self_cost__format(&c, line, sizeof(line));
	ASSERT_HAS(line, "own cost 0.000 ms CPU in 0 s (0.0000 % of one CPU; unknown)");
}

static void test_proc_stat(void)
{
	const char *text = "cpu  1 2 3\nctxt_x 5\nctxt 123456789012\nbtime 1\n"
			   "processes 4242\nprocs_running 3\n";

	CU_ASSERT_EQUAL(hk_sysinfo__stat_value(text, "ctxt"), 123456789012ULL);
	CU_ASSERT_EQUAL(hk_sysinfo__stat_value(text, "processes"), 4242);
	/* a key that is another's prefix, or absent */
	CU_ASSERT_EQUAL(hk_sysinfo__stat_value(text, "procs"), 0);
	CU_ASSERT_EQUAL(hk_sysinfo__stat_value(text, "intr"), 0);
	CU_ASSERT_EQUAL(hk_sysinfo__stat_value("", "ctxt"), 0);
	/* this host's, which only grows */
	CU_ASSERT(hk_sysinfo__proc_stat("ctxt") > 0);
	CU_ASSERT(hk_sysinfo__proc_stat("processes") > 0);
}

int hk_add_self_cost_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "measured by the kernel", test_measured },
		{ "estimated from counts", test_estimate },
		{ "the table driver's fork hook, estimated and measured", test_fork_hook },
		{ "estimated by default: exact parts", test_estimate_default },
		{ "--bpf-stats asks, the default does not", test_cli },
		{ "no source, clocks apart", test_edges },
		{ "one line", test_format },
		{ "/proc/stat counters", test_proc_stat },
	};

	return HK_ADD_SUITE("self_cost", tests);
}
