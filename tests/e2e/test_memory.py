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
  silent (reclaimable page cache is headroom, not usage);
- OOM risk's evidence in proportion to the time left (issue #29): a
  bounded buffer filling on the host (1000 MiB at 50 MiB/s, then held),
  minutes from the host's limit, is never OOM risk; a steady host leak
  ~200 s from it is, once it has grown eta_share of its ETA beyond
  eta_floor, with most of that ETA still ahead.

The leaks whose subject is something else (a main thread that exited, a
growth that stops) run in a memory cgroup whose limit is under a minute
away: flagged as soon as the trend covers min_trend.
"""

import os
import subprocess

from hk_e2e import cgroups
from hk_e2e.checks import check_history, dflt, evidence, expect_enter, expect_exited
from hk_e2e.common import HOLD_WINDOWS, INTERVAL_S, LEAK_MAX_S, LEAK_WINDOWS
from hk_e2e.procs import Disturbed, TestFailure, fmt_events, mono, read_line, workload_alive
from hk_e2e.tool import Tool

MIB = 1 << 20
# a 40 MB/s leak's memory cgroup: ~40 s from its limit when the trend
# covers min_trend, within eta_floor; ~50 s to the limit in all
LEAK_LIMIT = 2048 * MIB


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
    cg = memcg(ctx, LEAK_LIMIT)
    tool = Tool(ctx, "mainexit")
    tool.wait_ready()
    w0 = tool.windows()
    # the 40 MB/s leak in a second thread; the main thread pthread_exit()s
    p = ctx.workload("mainexit", cgroups.run_in(cg, [ctx.hkload, "grow", "--step", "10M",
                                                     "--every", "250ms", "--main-exit"]))
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
    cg = memcg(ctx, 1024 * MIB)
    tool = Tool(ctx, "stops")
    tool.wait_ready()
    w0 = tool.windows()
    # 40 MB/s until 800 MiB (20 s) of a 1 GiB cgroup (~15 s away when
    # flagged), then flat
    p = ctx.workload("stops", cgroups.run_in(cg, [ctx.hkload, "grow", "--step", "10M",
                                                  "--every", "250ms", "--max", "800M"]),
                     stdout=subprocess.PIPE)
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


def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    raise TestFailure("/proc/meminfo has no MemAvailable")


def lasted_need_s(eta_s):
    """How long a growth must have lasted at this ETA (hk_oom_lasted)."""
    floor, share = dflt("oom_risk.eta_floor"), dflt("oom_risk.eta_share") / 100
    return max(0.0, (eta_s - floor) * share)


FILL_BYTES = 1000 * MIB         # the compressor's dictionaries, ~1 GB
FILL_STEP = 5 * MIB             # every 100 ms: 50 MiB/s, 20 s


def t_bounded_fill(suite, ctx):
    """A bounded buffer filling on the host, then held, is never OOM risk:
    its 20 s of steady growth are a trend of min_trend and more, steady, its
    ETA within the horizon (the rule before flagged it ~11 s in), but minutes
    from the host's limit it needs eta_share of that ETA. The premise, that
    the host leaves it minutes, is measured: at 20.5 s in, it would need
    more than it grew."""
    fill_s = FILL_BYTES / FILL_STEP / 10
    need_avail = FILL_BYTES + (dflt("oom_risk.eta_floor") +
                               (fill_s + 2) / (dflt("oom_risk.eta_share") / 100)) * FILL_STEP * 10
    avail = mem_available()
    if avail < need_avail:
        ctx.skip("bounded_fill", "%d MiB available: a %d MiB fill at %d MiB/s is then "
                 "within %.0f s of the host's limit, where its %.0f s of growth are "
                 "evidence enough; the test needs %d MiB" %
                 (avail >> 20, FILL_BYTES >> 20, FILL_STEP * 10 >> 20,
                  (avail - FILL_BYTES) / (FILL_STEP * 10), fill_s, need_avail >> 20))
        return
    tool = Tool(ctx, "fill")
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("fill", [ctx.hkload, "grow", "--step", "5M", "--every", "100ms",
                              "--max", "%dM" % (FILL_BYTES >> 20)], stdout=subprocess.PIPE)
    if read_line(p, 10) != "ready":
        workload_alive(ctx, p)
        raise TestFailure("the fill did not start")
    t_ready = mono()
    # the tool's view near the end of the growth: the trend the rule before
    # flagged on (steady, min_trend long, ETA within the horizon)
    tool.wait_windows(int(fill_s) - 2, since=tool.windows())
    ev = (tool.proc_entry(p.pid) or {}).get("ev", {})
    line = read_line(p, fill_s + 10)
    if not line or not line.startswith("grown "):
        workload_alive(ctx, p)
        raise TestFailure("the fill did not end within %.0f s: %r" % (fill_s + 10, line))
    grown_ms = int(line.split()[1])
    # held: 10 windows more, past the last one that grew
    tool.wait_windows(10)
    workload_alive(ctx, p)
    evs = [o for _, o in tool.events() if o.get("pid") == p.pid]
    risk = [t for t, o in tool.events() if o.get("pid") == p.pid and o.get("to") == "oom_risk"]
    eta, growing = ev.get("eta_s"), ev.get("rss_growing_ms")
    view = ("at %.0f s: eta_s %s, rss_trend_ms %s, trend_grow_pct_x100 %s, rss_growing_ms %s; "
            "grown in %d ms" % (fill_s - 2, eta, ev.get("rss_trend_ms"),
                                ev.get("trend_grow_pct_x100"), growing, grown_ms))
    if grown_ms > (fill_s + 3) * 1000:
        raise Disturbed("the fill took %d ms, not ~%.0f s: not the growth the test means"
                        % (grown_ms, fill_s))
    # others took the host's memory meanwhile: then its ETA is short
    # enough that its growth is evidence enough
    if isinstance(eta, int) and lasted_need_s(eta) < fill_s + 2:
        raise Disturbed("the fill's ETA fell to %d s (others took the host's memory): its "
                        "%.0f s of growth are then evidence enough (%s)" % (eta, fill_s, view))
    if risk:
        raise TestFailure("a %d MiB fill at 50 MiB/s, then held, became oom_risk %.1f s in "
                          "(%s):\n%s" % (FILL_BYTES >> 20, risk[0] - t_ready, view,
                                          fmt_events(evs)))
    # the premise: a trend the rule before flagged on
    if not (isinstance(eta, int) and eta <= dflt("oom_risk.eta_horizon") and
            (ev.get("rss_trend_ms") or 0) >= dflt("oom_risk.min_trend") * 1000 and
            (ev.get("trend_grow_pct_x100") or 0) >= dflt("oom_risk.steady") * 100 and
            growing):
        raise TestFailure("the fill's trend near its end is not one the rule before "
                          "flagged on: the test does not test what it means to (%s)" % view)
    ctx.record("bounded_fill", True,
               "%d MiB at 50 MiB/s in %d ms, held 10 windows: never oom_risk; %s (needs "
               "%.0f s)" % (FILL_BYTES >> 20, grown_ms, view, lasted_need_s(eta)))


def t_host_leak_waits(suite, ctx):
    """A steady leak on the host, ~200 s from its limit (its rate set from
    MemAvailable): flagged once it has grown eta_share of its ETA beyond
    eta_floor (~16 s in at the defaults, not ~11 s), with at least half of
    the ETA it started with still ahead."""
    eta0 = 200.0
    avail = mem_available()
    step_mib = int(avail / eta0 / 10 / MIB)
    if step_mib < 4:
        ctx.skip("host_leak_waits", "%d MiB available: too little for a leak ~%.0f s from "
                 "the host's limit that min_trend alone would not flag" % (avail >> 20, eta0))
        return
    rate = step_mib * MIB * 10
    tool = Tool(ctx, "hostleak")
    tool.wait_ready()
    w0 = tool.windows()
    # at most 40 s of it; the kernel's OOM killer takes it first if it must
    p = ctx.workload("hostleak", [ctx.hkload, "grow", "--step", "%dM" % step_mib,
                                  "--every", "100ms", "--max", "%dM" % (step_mib * 400)],
                     stdout=subprocess.PIPE)
    with open("/proc/%d/oom_score_adj" % p.pid, "w") as f:
        f.write("1000")
    if read_line(p, 10) != "ready":
        workload_alive(ctx, p)
        raise TestFailure("the leak did not start")
    t_ready = mono()
    eta_start = mem_available() / rate
    found = tool.wait_event(lambda o: o.get("pid") == p.pid and o.get("to") == "oom_risk",
                            35, w0)
    evs = [o for _, o in tool.events() if o.get("pid") == p.pid]
    if not found:
        raise TestFailure("a %d MiB/s host leak ~%.0f s from the limit was not oom_risk "
                          "within 35 windows:\n%s" % (rate >> 20, eta_start, fmt_events(evs)))
    t, o = found
    at = t - t_ready
    eta, growing_s = o.get("eta_s"), o.get("rss_growing_s")
    report = ("%d MiB/s from %d MiB available (ETA %.0f s at its start): oom_risk %.1f s in, "
              "eta_s %s, rss_growing_s %s (needs %.1f s)" %
              (rate >> 20, avail >> 20, eta_start, at, eta, growing_s,
               lasted_need_s(eta or 0)))
    problems = []
    if eta is None or eta < eta_start / 2:
        problems.append("less than half of its ETA left")
    # in proportion: not before it has grown what its ETA asks (the rule
    # before flagged it at min_trend, ~11 s, with 190 s left)
    if growing_s is None or growing_s + INTERVAL_S / 4 < lasted_need_s(eta or 0):
        problems.append("flagged before it grew eta_share of its ETA")
    # ... and rss_growing_s is the growth's wall-clock age (its trend's
    # first point may precede "ready" by up to a window)
    if at + 1.5 < lasted_need_s(eta or 0):
        problems.append("flagged %.1f s in, sooner than it could have grown that" % at)
    if problems:
        raise TestFailure("%s: %s\n%s" % ("; ".join(problems), report, fmt_events(evs)))
    check_history(tool, p.pid, "hostleak", {("ok", "oom_risk")})
    ctx.detected("host_leak_waits", at, tool.windows() - w0)
    ctx.record("host_leak_waits", True, report)


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("oom_memcg_bursts", t_oom_memcg_bursts, 60, True),
    ("oom_main_exited", t_oom_main_exited, 40, True),
    ("oom_stops", t_oom_stops, 70, True),
    ("page_cache_writer", t_page_cache_writer, 60, True),
    ("bounded_fill", t_bounded_fill, 60, True),
    ("host_leak_waits", t_host_leak_waits, 60, True),
]
