# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Memory: OOM risk where it is one, silence where it is not. Every rate
is set by the test (tests/e2e/hkload.c: populated allocations on absolute
deadlines), never by how fast the machine touches memory.

- a leak in bursts inside a limited memory cgroup: flagged, the cgroup's
  limit in the evidence (the limit is known in every window, not only in
  the windows that grew);
- a leak in a process whose main thread exited (pthread_exit): flagged
  (RSS is read from a live thread's mm);
- a leak that stops: the label leaves within exit_windows windows;
- a page-cache writer with a slow anon leak, inside a small memory cgroup:
  silent (reclaimable page cache is headroom, not usage).
"""

import os
import subprocess

from hk_e2e import cgroups
from hk_e2e.checks import check_history, dflt, evidence, expect_enter, expect_exited
from hk_e2e.common import HOLD_WINDOWS, INTERVAL_S, LEAK_MAX_S, LEAK_WINDOWS
from hk_e2e.procs import TestFailure, fmt_events, mono, read_line, workload_alive
from hk_e2e.tool import Tool

MIB = 1 << 20


def memcg(ctx, limit_bytes):
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("this host has no memory cgroup controller (v1 or v2)")
    cgroups.memory_limit(cg, limit_bytes)
    return cg


def t_oom_memcg_bursts(suite, ctx):
    limit = 768 * MIB
    cg = memcg(ctx, limit)
    tool = Tool(ctx, "bursts")
    tool.wait_ready()
    w0 = tool.windows()
    # 32 MiB every 2 s (16 MiB/s): windows of 1 s alternate between
    # growing and not (a limit read only in the windows that grew would
    # alternate with RAM, and never match twice in a row); 768 MiB are 48 s
    # away
    p = ctx.workload("bursts", cgroups.run_in(cg, [ctx.hkload, "grow", "--step", "32M",
                                                   "--every", "2s"]))
    t, o = expect_enter(suite, tool, "oom_memcg_bursts", p, "oom_risk", 20, w0,
                        extra=lambda o: evidence(
                            o.get("limit_kind") == "memcg" and
                            o.get("limit_bytes") == limit and
                            o.get("cgroup") == cgroups.path_of(cg) and
                            o.get("eta_s") is not None,
                            "want limit_kind memcg, limit_bytes %d, cgroup %s, an eta_s" %
                            (limit, cgroups.path_of(cg))))
    wd = tool.windows() - w0
    # bursts go on: the label holds through the windows that did not grow
    tool.wait_windows(HOLD_WINDOWS + 1)
    workload_alive(ctx, p)
    allowed = {("ok", "oom_risk"), ("oom_risk", "exited")}
    check_history(tool, p.pid, "bursts", allowed)
    ctx.detected("oom_memcg_bursts", t - p.hk_started, wd)
    expect_exited(suite, tool, "oom_memcg_bursts", [p])
    check_history(tool, p.pid, "bursts", allowed)


def t_oom_main_exited(suite, ctx):
    tool = Tool(ctx, "mainexit")
    tool.wait_ready()
    w0 = tool.windows()
    # the 40 MB/s leak in a second thread; the main thread pthread_exit()s
    p = ctx.workload("mainexit", [ctx.hkload, "grow", "--step", "10M", "--every", "250ms",
                                  "--main-exit"])
    t, o = expect_enter(suite, tool, "oom_main_exited", p, "oom_risk", LEAK_WINDOWS, w0,
                        extra=lambda o: evidence(
                            (o.get("rss_anon_bytes") or 0) >= 200 * MIB and
                            20e6 <= (o.get("rss_slope_bytes_per_s") or 0) <= 60e6,
                            "want rss_anon_bytes >= 200 MiB and a slope of 20..60 MB/s"))
    with open("/proc/%d/stat" % p.pid) as f:
        state = f.read().rsplit(")", 1)[1].split()[0]
    if state != "Z":
        raise TestFailure("the workload's main thread is %s, not a zombie: the test "
                          "does not test what it means to" % state)
    wd = tool.windows() - w0
    check_history(tool, p.pid, "mainexit", {("ok", "oom_risk")})
    ctx.detected("oom_main_exited", t - p.hk_started, wd)
    if t - p.hk_started > LEAK_MAX_S:
        raise TestFailure("flagged %.1f s after the leak started, want <= %.0f s" %
                          (t - p.hk_started, LEAK_MAX_S))


def t_oom_stops(suite, ctx):
    tool = Tool(ctx, "stops")
    tool.wait_ready()
    w0 = tool.windows()
    # 40 MB/s until 800 MiB (20 s), then flat
    p = ctx.workload("stops", [ctx.hkload, "grow", "--step", "10M", "--every", "250ms",
                               "--max", "800M"], stdout=subprocess.PIPE)
    if read_line(p, 10) != "ready":
        workload_alive(ctx, p)
        raise TestFailure("the workload did not start")
    t_ready = mono()
    expect_enter(suite, tool, "oom_stops", p, "oom_risk", LEAK_WINDOWS, w0)
    stop_at = t_ready + 80 * 0.25
    exit_w = int(dflt("general.exit_windows"))
    found = tool.wait_event(lambda o: o.get("pid") == p.pid and o.get("from") == "oom_risk"
                            and o.get("to") == "ok", 40, w0)
    if not found:
        raise TestFailure("never left oom_risk after its growth stopped:\n%s" %
                          fmt_events([o for _, o in tool.events() if o.get("pid") == p.pid]))
    late = found[0] - stop_at
    # growth stops inside a window: the next exit_windows windows do not
    # match, and the label leaves in the last of them
    if late > (exit_w + 1) * INTERVAL_S + 0.5:
        raise TestFailure("left oom_risk %.1f s after its growth stopped, want <= %.1f s "
                          "(exit_windows %d)" % (late, (exit_w + 1) * INTERVAL_S + 0.5, exit_w))
    check_history(tool, p.pid, "stops", {("ok", "oom_risk"), ("oom_risk", "ok")})
    ctx.record("oom_stops", True, "left oom_risk %.1f s after its growth stopped "
               "(exit_windows %d at -i 1s)" % (late, exit_w))


def t_page_cache_writer(suite, ctx):
    """A writer fills its small memory cgroup with page cache and leaks 1 MiB/s.
    With cache counted as used, the leak would be seconds from the limit; with
    cache counted as the headroom it is (the kernel reclaims it first), minutes.
    The test's config makes that difference the verdict: eta_horizon 60 s,
    min_growth 16 MiB (the leak makes ~30 MiB over the 30 s trend)."""
    limit = 256 * MIB
    cg = memcg(ctx, limit)
    conf = os.path.join(ctx.workdir, "pagecache.conf")
    with open(conf, "w") as f:
        f.write("[oom_risk]\neta_horizon = 60s\nmin_growth = 16MiB\n")
    tool = Tool(ctx, "pagecache", extra=["--config", conf])
    tool.wait_ready()
    w0 = tool.windows()
    data = os.path.join(ctx.workdir, "pagecache.dat")
    ctx.undo.append(lambda: os.path.exists(data) and os.unlink(data))
    p = ctx.workload("pagecache", cgroups.run_in(cg, [ctx.hkload, "write", "--file", data,
                                                      "--rate", "40M", "--wrap", "1G",
                                                      "--leak", "1M"]))
    tool.wait_windows(25, since=w0)
    workload_alive(ctx, p)
    st = cg.stat()
    cache = st.get("cache", st.get("file", 0))
    e = tool.proc_entry(p.pid) or {}
    ev = e.get("ev", {})
    bad = [o for _, o in tool.events() if o.get("pid") == p.pid]
    if bad:
        raise TestFailure("false transitions for the page-cache writer (cgroup cache %d "
                          "MiB):\n%s" % (cache >> 20, fmt_events(bad)))
    # the premise: the cgroup is full of cache, and the tool saw the room
    if cache < limit // 2:
        raise TestFailure("the writer's cgroup holds only %d MiB of page cache: the test "
                          "does not test what it means to" % (cache >> 20))
    head = ev.get("headroom_bytes", 0)
    if ev.get("limit_kind") != "HK_LIMIT_MEMCG" or head < limit // 2:
        raise TestFailure("the writer's entry: limit_kind %s, headroom %d MiB; want the "
                          "memcg limit and the page cache counted as headroom" %
                          (ev.get("limit_kind"), head >> 20))
    ctx.record("page_cache_writer", True,
               "silent over %d windows; cgroup %d MiB of cache of %d, headroom seen %d MiB" %
               (tool.windows() - w0, cache >> 20, limit >> 20, head >> 20))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("oom_memcg_bursts", t_oom_memcg_bursts, 60, True),
    ("oom_main_exited", t_oom_main_exited, 40, True),
    ("oom_stops", t_oom_stops, 70, True),
    ("page_cache_writer", t_page_cache_writer, 60, True),
]
