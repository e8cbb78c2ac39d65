# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""CPU: quotas, and more busy loops than CPUs.

- a busy loop held back by its own cgroup's CPU quota (20 % of a CPU),
  sharing its CPU with a hog outside the cgroup: Throttled, and the hog is
  no Noisy neighbor (on cgroup v1, and v2 where the host has it);
- four busy loops on two CPUs each run half the time and wait the other
  half: each wants a whole CPU, CPU-bound; four more make eight, each now
  runs a quarter and waits three: Starved, and nobody is a Noisy neighbor;
- one process of eight busy threads allowed on one CPU (taskset), nothing
  else there: each thread runs an eighth and waits the rest, but the
  process got the whole of the CPUs it may use: CPU-bound, never Starved
  (review finding 7; it was Starved with nobody to blame);
- the iter driver meets threads by TID: two processes of two busy threads
  each, made in turn so that their TIDs interleave, are each summed whole
  (two threads, a whole CPU's worth), not split into halves.
"""

import os
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.checks import check_history, dflt, evidence, expect_enter, history
from hk_e2e.common import ENTER_WINDOWS, HOLD_WINDOWS
from hk_e2e.procs import Member, TestFailure, fmt_events, read_line, read_pids, workload_alive
from hk_e2e.tool import Tool


def throttled(suite, ctx, version):
    cg = cgroups.make(ctx, "cpu", version)
    if cg is None:
        return False
    cgroups.cpu_quota(cg, 20000)
    cpu = str(max(os.sched_getaffinity(0)))
    tool = Tool(ctx, "throttled_v%d" % version)
    tool.wait_ready()
    w0 = tool.windows()
    q = ctx.workload("quota", cgroups.run_in(cg, ["taskset", "-c", cpu, ctx.hkload, "spin"]))
    hog = ctx.workload("hog", ["taskset", "-c", cpu, ctx.hkload, "spin"])
    # the quota named: 0.20 CPUs, set by that cgroup (its kernfs id is
    # its directory's inode)
    ino = os.stat(cg.path).st_ino
    t, o = expect_enter(suite, tool, "throttled", q, "throttled", ENTER_WINDOWS, w0,
                        extra=lambda o: evidence(
                            o.get("throttled_per_cpu_pct", 0) >=
                            dflt("throttled.min_throttled") and
                            o.get("cgroup") == cgroups.path_of(cg) and
                            o.get("quota_cpus") == 0.2 and
                            o.get("quota_cgroup_id") == ino,
                            "want throttled_per_cpu_pct >= %g, cgroup %s, quota_cpus 0.2 "
                            "and quota_cgroup_id %d" %
                            (dflt("throttled.min_throttled"), cgroups.path_of(cg), ino)))
    wd = tool.windows() - w0
    tool.wait_windows(HOLD_WINDOWS)
    workload_alive(ctx, q)
    workload_alive(ctx, hog)
    check_history(tool, q.pid, "quota'd loop", {("ok", "throttled")})
    # its quota holds it back, not its neighbour
    check_history(tool, hog.pid, "hog", {("ok", "cpu_bound")})
    ctx.detected("throttled_v%d" % version, t - q.hk_started, wd)
    return True


def t_throttled(suite, ctx):
    if not throttled(suite, ctx, 1):
        raise TestFailure("this host has no cgroup v1 cpu controller")
    ctx.record("throttled_v1", True)


def t_throttled_v2(suite, ctx):
    if cgroups.v2_root("cpu") is None:
        ctx.note("this host has no cgroup v2 cpu controller (it is bound to v1): "
                 "the v2 quota (cpu.max) is not tested here")
        return
    if not throttled(suite, ctx, 2):
        raise TestFailure("could not make a cgroup v2 with the cpu controller")
    ctx.record("throttled_v2", True)


def t_oversubscribed(suite, ctx):
    tool = Tool(ctx, "oversub")
    tool.wait_ready()
    w0 = tool.windows()
    four = [ctx.workload("loop%d" % i, [ctx.hkload, "spin"]) for i in range(4)]
    for p in four:
        expect_enter(suite, tool, "oversubscribed_4", p, "cpu_bound", ENTER_WINDOWS, w0,
                     extra=lambda o: evidence(
                         o.get("thread_queued_pct", 0) >= 20,
                         "want it waiting for a CPU (thread_queued_pct >= 20)"))
    w1 = tool.windows()
    eight = four + [ctx.workload("loop%d" % i, [ctx.hkload, "spin"]) for i in range(4, 8)]
    for p in eight:
        expect_enter(suite, tool, "oversubscribed_8", p, "starved", ENTER_WINDOWS, w1)
    tool.wait_windows(HOLD_WINDOWS)
    for p in eight:
        workload_alive(ctx, p)
    noisy = [o for p in eight for o in history(tool, p.pid) if o.get("to") == "noisy_neighbor"]
    if noisy:
        raise TestFailure("a loop at a quarter of a CPU called a Noisy neighbor:\n%s" %
                          fmt_events(noisy))
    for p in four:
        check_history(tool, p.pid, p.hk_name, {("ok", "cpu_bound"), ("cpu_bound", "starved")})
    for p in eight[4:]:
        check_history(tool, p.pid, p.hk_name, {("ok", "starved")})
    ctx.record("oversubscribed", True, "4 loops on %d CPUs: CPU-bound; 8: Starved, "
               "nobody noisy" % os.cpu_count())


def t_self_contention(suite, ctx):
    cpu = str(max(os.sched_getaffinity(0)))
    tool = Tool(ctx, "selfcont")
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("crowd", ["taskset", "-c", cpu, ctx.hkload, "spin", "--threads", "8"])
    t, o = expect_enter(suite, tool, "self_contention", p, "cpu_bound", ENTER_WINDOWS, w0,
                        extra=lambda o: evidence(
                            o.get("nr_threads") == 8 and o.get("cpus_allowed") == 1 and
                            o.get("cpu_pct", 0) >= 90 and
                            o.get("thread_run_delay_pct", 0) >= 70,
                            "want nr_threads 8, cpus_allowed 1, cpu_pct >= 90 and a thread "
                            "waiting >= 70 %"))
    wd = tool.windows() - w0
    tool.wait_windows(HOLD_WINDOWS)
    workload_alive(ctx, p)
    check_history(tool, p.pid, "8 threads on 1 CPU", {("ok", "cpu_bound")})
    ctx.detected("self_contention", t - p.hk_started, wd)
    ctx.record("self_contention", True, "8 threads on CPU %s: cpu_bound (cpu %.0f %%, a "
               "thread waiting %.0f %%), never starved" %
               (cpu, o.get("cpu_pct", 0), o.get("thread_run_delay_pct", 0)))


def t_interleaved(suite, ctx):
    tool = Tool(ctx, "interleaved", extra=["--driver", "iter"])
    tool.wait_ready()
    w0 = tool.windows()
    launcher = ctx.workload("interleaved", [ctx.hkload, "interleaved", "--procs", "2",
                                            "--threads", "2"], stdout=subprocess.PIPE)
    procs = []
    for i, pid in enumerate(read_pids(ctx, launcher, 2, "interleaved", 10)):
        procs.append(Member(pid, "proc%d" % i, launcher))
        ctx.meter.track(pid)
    tids = {p.pid: sorted(int(t) for t in os.listdir("/proc/%d/task" % p.pid)) for p in procs}
    a, b = (tids[p.pid] for p in procs)
    if not (a[0] < b[0] < a[1] < b[1]):
        raise TestFailure("the workload's TIDs do not interleave: %s" % tids)
    # four busy threads share the CPUs evenly: each process gets half of them
    want = 100.0 * min(2.0, os.cpu_count() / 2.0)
    for p in procs:
        expect_enter(suite, tool, "interleaved", p, "cpu_bound", ENTER_WINDOWS, w0,
                     extra=lambda o: evidence(
                         o.get("nr_threads") == 2 and
                         0.7 * want <= o.get("cpu_pct", 0) <= 1.3 * want,
                         "want nr_threads 2 and cpu_pct %.0f +- 30 %%" % want))
    tool.wait_windows(HOLD_WINDOWS)
    for p in procs:
        workload_alive(ctx, p)
        check_history(tool, p.pid, p.hk_name, {("ok", "cpu_bound")})
    parked = int(tool.stats().get("procs_parked", 0))
    if parked == 0:
        raise TestFailure("the iter driver never set a process aside (procs_parked 0): "
                          "the threads did not come interleaved")
    ctx.record("interleaved", True, "TIDs %s: each process whole, 2 threads, %.0f %% of "
               "a CPU; %d process-windows parked" % (tids, want, parked))


def t_handover(suite, ctx):
    """Threads born after the start make a timer driver's walk hold a CPU
    over 2 ms: the timer stops, the tool walks (iter) from then on, one
    walk per interval (no burst), and SIGINT still stops it cleanly."""
    # the hand-over is the wq driver's (the table driver cuts its walk itself)
    tool = Tool(ctx, "handover", extra=["--driver", "wq"])
    tool.wait_ready()
    start = tool.stderr_text()
    if "driver iter" in start:
        ctx.note("handover: the tool chose the iter driver at start (this host has over "
                 "2000 threads or no timer driver): nothing to hand over here")
        tool.stop()
        return
    # 20 processes x 1000 sleeping threads: ~10 ms per walk here
    launcher = ctx.workload("handover", [ctx.hkload, "interleaved", "--procs", "20",
                                         "--threads", "1000", "--sleep"],
                            stdout=subprocess.PIPE)
    for i in range(20):
        line = read_line(launcher, 30)
        if not line or not line.isdigit():
            workload_alive(ctx, launcher)
            raise TestFailure("handover: no PID from hkload (got %r)" % line)
    if read_line(launcher, 30) != "ready":
        workload_alive(ctx, launcher)
        raise TestFailure("handover: hkload never said ready")
    w0 = tool.windows()
    deadline = time.monotonic() + 15
    while "from now on driver iter" not in tool.stderr_text():
        if time.monotonic() > deadline:
            raise TestFailure("no hand-over 15 s after 20000 threads were born; stats %s, "
                              "stderr:\n%s" % (tool.stats(), tool.stderr_text()))
        tool.check_alive()
        time.sleep(0.2)
    # the walks go on at the interval: 5 windows take about 5 intervals
    w1 = tool.windows()
    t1 = time.monotonic()
    tool.wait_windows(5, since=w1)
    took = time.monotonic() - t1
    w2 = tool.windows()
    if not (4.0 <= took <= 8.0) or w2 - w1 > 6:
        raise TestFailure("after the hand-over, windows %d -> %d in %.1f s (want 5 in about "
                          "5 s at -i 1s)" % (w1, w2, took))
    rc = tool.stop()
    err = tool.stderr_text()
    if rc != 0 or "driver iter," not in err:
        raise TestFailure("after the hand-over: exit %s, summary:\n%s" % (rc, err))
    line = [l for l in err.splitlines() if "from now on driver iter" in l][0]
    ctx.record("handover", True, "%s; then %d windows in %.1f s; %d windows since "
               "the threads were born" % (line.split(": ", 1)[1].split(": from")[0], w2 - w1,
                                          took, w2 - w0))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("throttled_v1", t_throttled, 60, True),
    ("throttled_v2", t_throttled_v2, 60, True),
    ("oversubscribed", t_oversubscribed, 90, True),
    ("self_contention", t_self_contention, 60, True),
    ("handover", t_handover, 90, True),
    ("interleaved", t_interleaved, 60, True),
]
