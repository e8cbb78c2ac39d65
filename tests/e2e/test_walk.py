# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The iter driver's walk (review kernel-2, findings 4 and 6).

- stretches: 20 000 sleeping threads and two busy loops on two CPUs, so
  that the walker is switched out at the kernel's cond_resched() between
  threads. The longest stretch counted is time on the CPU with no chance
  to yield: 32 threads, or the walk's end (stop()), never the time the
  walker spent off the CPU (it was 56-68 ms, 91-120 stretches over 2 ms,
  before); one read() walks everything;
- a pool shrinking: one process of 3000 threads whose threads exit one
  every 5 ms while the walks run, its TIDs interleaved with another
  process's, so that threads exit behind and ahead of the walk's cursor.
  It is closed (sampled) every walk: a thread that exited before the walk
  met it does not leave its process unclosed, and one that exited after
  it was met does not close the process before its last thread.
"""

import os
import re
import signal
import subprocess
import time

from hk_e2e.procs import TestFailure, read_line, read_pids, workload_alive
from hk_e2e.tool import Tool

STRETCH_WINDOWS = 8
POOL_WINDOWS = 8


def summary_of(tool, rc):
    """Longest stretch, stretches over 2 ms, stretches, longest walk end
    (-1: not said) from the exit summary."""
    err = tool.stderr_text()
    m = re.search(r"longest stretch on a CPU (\d+) us \((\d+) of (\d+) over 2 ms\)", err)
    if rc != 0 or not m:
        raise TestFailure("exit %s, no stretch summary:\n%s" % (rc, err))
    end = re.search(r"longest walk end (\d+) us", err)
    return [int(x) for x in m.groups()] + [int(end.group(1)) if end else -1]


def t_iter_stretch(suite, ctx):
    tool = Tool(ctx, "iter_stretch", extra=["--driver", "iter"])
    tool.wait_ready()
    pop = ctx.workload("sleepers", [ctx.hkload, "sleepers", "--procs", "20",
                                    "--threads", "1000"], stdout=subprocess.PIPE)
    if read_line(pop, 60) != "ready":
        workload_alive(ctx, pop)
        raise TestFailure("iter_stretch: hkload sleepers never said ready")
    hogs = ctx.workload("hogs", [ctx.hkload, "spin", "--threads", str(os.cpu_count())])
    w0 = tool.wait_windows(2)
    yields0 = int(tool.stats().get("chunks", 0))
    tool.wait_windows(STRETCH_WINDOWS, since=w0)
    st = tool.stats()
    yields = int(st.get("chunks", 0)) - yields0
    walk_max_us = int(st.get("walk_ns_max", 0)) // 1000
    workload_alive(ctx, hogs)
    stretch_us, over, stretches, end_us = summary_of(tool, tool.stop())
    # the walker was switched out mid-walk: wall time would count that
    if yields == 0:
        raise TestFailure("the walker never let go of the CPU mid-walk in %d windows "
                          "beside %d busy loops: nothing measured" %
                          (STRETCH_WINDOWS, os.cpu_count()))
    if stretch_us > 2000 and stretch_us != end_us:
        raise TestFailure("longest stretch %d us (%d of %d over 2 ms), not the walk's end "
                          "(%d us): time off the CPU counted" %
                          (stretch_us, over, stretches, end_us))
    ctx.record("iter_stretch", True, "longest stretch %d us (%d of %d over 2 ms), walk end "
               "%d us, walks up to %d us, the walker switched out %d times in %d windows" %
               (stretch_us, over, stretches, end_us, walk_max_us, yields, STRETCH_WINDOWS))


def t_iter_pool_shrinks(suite, ctx):
    tool = Tool(ctx, "iter_pool", extra=["--driver", "iter"])
    tool.wait_ready()
    pop = ctx.workload("pool", [ctx.hkload, "interleaved", "--procs", "4", "--threads",
                                "3000", "--sleep", "--exit-every", "5ms"],
                       stdout=subprocess.PIPE)
    pids = read_pids(ctx, pop, 4, "iter_pool", 60)
    pool = pids[0]
    w0 = tool.wait_windows(2)
    e0 = tool.proc_entry(pool)
    skipped0 = int(tool.stats().get("samples_skipped", 0))
    n0 = len(os.listdir("/proc/%d/task" % pool))
    w1 = tool.wait_windows(POOL_WINDOWS, since=w0)
    e1 = tool.proc_entry(pool)
    skipped = int(tool.stats().get("samples_skipped", 0)) - skipped0
    n1 = len(os.listdir("/proc/%d/task" % pool))
    workload_alive(ctx, pop)
    if e0 is None or e1 is None:
        raise TestFailure("the pool (PID %d) has no hk_procs entry" % pool)
    sampled = int(e1["windows"]) - int(e0["windows"])
    if not n1 < n0 - 100:
        raise TestFailure("the pool did not shrink: %d -> %d threads" % (n0, n1))
    # its main thread wakes every 5 ms: something ran in it every window
    if sampled < (w1 - w0) - 1:
        raise TestFailure("the pool was sampled %d times in %d walks while it shrank "
                          "(%d -> %d threads): %d process-windows unclosed meanwhile (the "
                          "rest: windows too short to sample); stats %s" %
                          (sampled, w1 - w0, n0, n1, skipped, tool.stats()))
    tool.stop()
    ctx.record("iter_pool_shrinks", True, "sampled %d times in %d walks while its "
               "threads went %d -> %d" % (sampled, w1 - w0, n0, n1))


def t_iter_late_walk(suite, ctx):
    tool = Tool(ctx, "iter_late", extra=["--driver", "iter"])
    tool.wait_ready()
    spin = ctx.workload("spin", [ctx.hkload, "spin", "--threads", "1"])
    tool.wait_windows(2)
    st = tool.stats()
    # the grid: the last walk began here (bpf_ktime_get_ns: CLOCK_MONOTONIC)
    grid_ns = int(st["last_walk_end_ns"]) - int(st["last_walk_ns"])
    w0 = int(st["windows"])
    now_ns = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    if now_ns > grid_ns + 600 * 1000000:
        grid_ns += 1000 * 1000000
        time.sleep(max(0, grid_ns + 100 * 1000000 - now_ns) / 1e9)
        w0 = tool.windows()
    e0 = tool.proc_entry(spin.pid)
    # stopped through the next walk's time, resumed 70 ms before the one after
    tool.proc.send_signal(signal.SIGSTOP)
    try:
        now_ns = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        time.sleep(max(0, grid_ns + 1930 * 1000000 - now_ns) / 1e9)
    finally:
        tool.proc.send_signal(signal.SIGCONT)
    w1 = tool.wait_windows(3, since=w0)
    e1 = tool.proc_entry(spin.pid)
    workload_alive(ctx, spin)
    if e0 is None or e1 is None:
        raise TestFailure("the busy loop (PID %d) has no hk_procs entry" % spin.pid)
    sampled = int(e1["windows"]) - int(e0["windows"])
    if sampled < w1 - w0:
        raise TestFailure("a busy loop sampled %d times in %d walks after a walk 930 ms "
                          "late: the next came too soon to carry a rate" %
                          (sampled, w1 - w0))
    tool.stop()
    ctx.record("iter_late_walk", True, "tool stopped 1.8 s: the busy loop sampled %d times "
               "in %d walks" % (sampled, w1 - w0))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("iter_stretch", t_iter_stretch, 90, True),
    ("iter_pool_shrinks", t_iter_pool_shrinks, 90, True),
    ("iter_late_walk", t_iter_late_walk, 60, True),
]
