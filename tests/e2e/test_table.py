# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The table driver's walk (issue #34): in chunks of 1 ms over a table of
processes that fork and exit hooks keep, on Linux >= 6.10.

table_walk starts, as users have them, the workloads FIRST: 4 processes of
3000 sleeping threads whose threads exit one every 5 ms (one of them, the
pool, is the one judged) and a busy loop; then the tool with no --driver,
which over 2000 threads picks the table driver; then a second busy loop.
Over 6 windows:

- the walk is cut: more work items than walks, and no stretch on a CPU
  longer than the budget (1 ms) plus the largest process (3000 threads)
  and the walk's end, STRETCH_MAX_US in all (measured: 1.7-1.9 ms; the
  wq driver's walk, one stretch, took 18.6-27.1 ms over e2e handover's
  20 000 threads);
- the pool is sampled every walk while its threads exit, before and
  after the chunk that walks it (a process is walked whole in one chunk);
- both busy loops are CPU-bound: the one the table's seed found at the
  start, and the one the fork hook put in it.
"""

import subprocess

from hk_e2e.procs import TestFailure, read_pids, workload_alive
from hk_e2e.tool import Tool

TABLE_WINDOWS = 6
STRETCH_MAX_US = 4000


def _cpu_bound(tool, pid, since):
    return tool.wait_event(lambda o: o.get("pid") == pid and o.get("to") == "cpu_bound",
                           TABLE_WINDOWS, since)


def t_table_walk(suite, ctx):
    pop = ctx.workload("pool", [ctx.hkload, "interleaved", "--procs", "4", "--threads",
                                "3000", "--sleep", "--exit-every", "5ms"],
                       stdout=subprocess.PIPE)
    pool = read_pids(ctx, pop, 4, "table_walk", 60)[0]
    before = ctx.workload("before", [ctx.hkload, "spin", "--threads", "1"])
    tool = Tool(ctx, "table")
    tool.wait_ready()
    start = tool.stderr_text().splitlines()[0]
    if "driver table" not in start:
        ctx.skip("table_walk", "the tool chose another driver over 12 000 threads: %s" %
                 start)
        tool.stop()
        return
    after = ctx.workload("after", [ctx.hkload, "spin", "--threads", "1"])
    w0 = tool.wait_windows(1)
    st0, e0 = tool.stats(), tool.proc_entry(pool)
    found = [_cpu_bound(tool, p.pid, w0 - 1) for p in (before, after)]
    w1 = tool.wait_windows(TABLE_WINDOWS, since=w0)
    st1, e1 = tool.stats(), tool.proc_entry(pool)
    for p in (pop, before, after):
        workload_alive(ctx, p)
    walks = w1 - w0
    items = int(st1["chunks"]) - int(st0["chunks"])
    stretch_us = int(st1["stretch_ns_max"]) // 1000
    problems = []
    if int(st1["driver"]) != 4:
        problems.append("driver %s in hk_stats, not 4 (table)" % st1["driver"])
    if items < walks:
        problems.append("%d work items cut %d walks: the walk was not cut" % (items, walks))
    if stretch_us > STRETCH_MAX_US:
        problems.append("a stretch of %d us on a CPU (> %d)" % (stretch_us, STRETCH_MAX_US))
    if e0 is None or e1 is None:
        problems.append("the pool (PID %d) has no hk_procs entry" % pool)
    elif int(e1["windows"]) - int(e0["windows"]) < walks - 1:
        problems.append("the pool sampled %d times in %d walks while its threads exited" %
                        (int(e1["windows"]) - int(e0["windows"]), walks))
    for name, p, f in zip(("started before the tool", "started after"), (before, after),
                          found):
        if not f:
            problems.append("the busy loop %s (PID %d) never CPU-bound" % (name, p.pid))
    if problems:
        raise TestFailure("table driver: %s; stats %s" % ("; ".join(problems), st1))
    tool.stop()
    ctx.record("table_walk", True, "%d walks in %d work items, longest stretch %d us; "
               "the pool sampled %d times in %d walks while it shrank; both busy loops "
               "CPU-bound (seed and fork hook)" %
               (walks, items + walks, stretch_us,
                int(e1["windows"]) - int(e0["windows"]), walks))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("table_walk", t_table_walk, 90, True),
]
