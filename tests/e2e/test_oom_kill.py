# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""OOM kills, said: the kernel's OOM killer kills a process in a memory
cgroup with a limit, and its last transition is `oom_killed` (never
`exited`), naming that cgroup, with whether and how long before the tool
had flagged it OOM risk. The kernel measures the tool's recall.

- oom_kill_recall: under one tool (journal priorities, --prometheus), a
  10 MiB/s leak in a 256 MiB cgroup, flagged OOM risk and then killed
  (flagged, flagged_for_s > 0, priority 4), and a 512 MiB allocation at once
  in a 128 MiB cgroup, killed before any window could flag it (missed,
  priority 3); the file and the summary count flagged 1, missed 1;
- oom_kill_untracked: a leak the filters leave out (--exclude-comm) is killed
  after living several windows: it still gets its `oom_killed` line.

Both fail on a tool that does not watch oom:mark_victim: no `oom_killed`
line comes (the untracked processes say nothing at all; a tracked one says
`exited` or nothing).

- oom_mark_no_kill: the OOM killer marks a victim without killing it (a
  task that is exiting or SIGKILLed already: task_will_free_mem). A process
  holding 200 MiB of a 256 MiB cgroup is frozen (v1 freezer: a fatal signal
  does not thaw it) and SIGKILLed; another allocates 100 MiB in the cgroup.
  The memcg OOM picks the frozen one, finds it dying, marks it (which thaws
  it) and kills nothing: the cgroup's oom_kill count stays 0. Then a real
  kill there (count 1), and a second such mark (count still 1). No
  `oom_killed` line for the holders, the kill counted, hk_stats
  oom_marks_not_kills 2. Fails on a tool that takes every mark_victim for a
  kill (and, at the second mark, on one that reads a count above 0 as one).
"""

import os
import re
import signal
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.checks import expect_enter, fast_trend, history
from hk_e2e.procs import TestFailure, fmt_events, indent, mono, read_line, workload_alive
from hk_e2e.tool import Tool

MIB = 1 << 20
KILL_WINDOWS = 40               # a leak's kill, in the tool's windows
SAID_WINDOWS = 5                # a kill's line after the kill


def oom_memcg(ctx, limit_bytes):
    """A memory cgroup with a limit and no swap to spill into: at the limit,
    the kernel OOM-kills (swap would only slow the leak down)."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("this host has no memory cgroup controller (v1 or v2)")
    cgroups.memory_limit(cg, limit_bytes)
    for name, value in (("memory.swappiness", 0), ("memory.swap.max", 0)):
        if os.path.exists(os.path.join(cg.path, name)):
            try:
                cg.write(name, value)
            except OSError:
                pass
    return cg


def grow_in(ctx, name, limit_bytes, grow_args):
    """`hkload grow ARGS` in a new memory cgroup of limit_bytes: (cgroup, process)."""
    cg = oom_memcg(ctx, limit_bytes)
    return cg, ctx.workload(name, cgroups.run_in(cg, [ctx.hkload, "grow", *grow_args]))


def wait_killed(tool, p, w0, max_windows):
    """p's `oom_killed` line (p must die of SIGKILL first), or a failure that
    shows what came instead."""
    found = tool.wait_event(lambda o: o.get("pid") == p.pid and o.get("to") == "oom_killed",
                            max_windows, w0)
    if found:
        return found
    rc = p.poll()
    raise TestFailure("%s (pid %d, exit status %r) got no oom_killed line within %d "
                      "windows; its transitions:\n%s" %
                      (p.hk_name, p.pid, rc, max_windows, fmt_events(history(tool, p.pid))))


def check_kill(o, p, cg, limit, flagged, tracked, prio):
    """The evidence of one oom_killed line: a list of what is wrong."""
    bad = []
    want = {"oom_memcg": cgroups.path_of(cg), "oom_limit_bytes": limit,
            "flagged": flagged, "tracked": tracked, "_priority": prio}
    for k, v in want.items():
        if k in o and o.get(k) != v or (k not in o and k != "_priority"):
            bad.append("%s %r, want %r" % (k, o.get(k), v))
    if flagged and not (isinstance(o.get("flagged_for_s"), int) and o["flagged_for_s"] > 0):
        bad.append("flagged_for_s %r, want > 0" % o.get("flagged_for_s"))
    if not flagged and o.get("flagged_for_s") is not None:
        bad.append("flagged_for_s %r, want null" % o.get("flagged_for_s"))
    return bad


def prom_counts(path):
    """hotspot_k_oom_kills_total{flagged=...} from the textfile, as a dict."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return {}
    return {m.group(1): int(m.group(2)) for m in
            re.finditer(r'^hotspot_k_oom_kills_total\{flagged="(true|false)"\} (\d+)$',
                         text, re.M)}


def t_oom_kill_recall(suite, ctx):
    prom = os.path.join(ctx.workdir, "oom_recall.prom")
    tool = Tool(ctx, "oom_recall", extra=fast_trend(ctx) + ["--prometheus", prom],
                journal=True)
    tool.wait_ready()
    w0 = tool.windows()

    # (a) 20 MiB/s into 256 MiB: OOM risk after ~5 s, the kill ~13 s in
    slow_limit = 256 * MIB
    slow_cg, slow = grow_in(ctx, "leak", slow_limit, ["--step", "5M", "--every", "250ms"])
    t_flag, _ = expect_enter(suite, tool, "oom_kill_recall", slow, "oom_risk", 20, w0)
    t_said, o = wait_killed(tool, slow, w0, KILL_WINDOWS)
    bad = check_kill(o, slow, slow_cg, slow_limit, True, True, 4)
    if o.get("from") != "oom_risk":
        bad.append("from %r, want oom_risk (the label it held)" % o.get("from"))
    # flagged_for_s is kill time - entry into OOM risk: the lines' own times
    # bound it (the kill comes before its line, after the entry's line)
    if isinstance(o.get("flagged_for_s"), int) and o["flagged_for_s"] > t_said - t_flag + 1:
        bad.append("flagged_for_s %d, but the oom_risk line came only %.1f s before" %
                   (o["flagged_for_s"], t_said - t_flag))
    exited = [e for e in history(tool, slow.pid) if e.get("to") == "exited"]
    if exited:
        bad.append("an `exited` line too: %s" % fmt_events(exited))
    if bad:
        raise TestFailure("the flagged leak's oom_killed line: %s\n%s" %
                          ("; ".join(bad), fmt_events(history(tool, slow.pid))))

    # (b) 512 MiB at once into 128 MiB: killed before any window sees it
    fast_limit = 128 * MIB
    w1 = tool.windows()
    fast_cg, fast = grow_in(ctx, "burst", fast_limit, ["--start", "512M"])
    _, o2 = wait_killed(tool, fast, w1, SAID_WINDOWS + 5)
    bad = check_kill(o2, fast, fast_cg, fast_limit, False, False, 3)
    if bad:
        raise TestFailure("the sudden allocation's oom_killed line: %s\n%s" %
                          ("; ".join(bad), fmt_events(history(tool, fast.pid))))

    # the tool's recall: one in time, one missed, in the file and the summary
    tool.wait_windows(2)
    counts = prom_counts(prom)
    if counts != {"true": 1, "false": 1}:
        raise TestFailure("%s counts OOM kills %r, want flagged true 1, false 1" %
                          (prom, counts))
    tool.stop()
    err = tool.stderr_text()
    if not re.search(r"^hotspot-k: OOM kills: 1 flagged OOM risk in time, 1 missed", err,
                     re.M):
        raise TestFailure("the summary does not count 1 flagged, 1 missed:\n%s" % indent(err))
    ctx.record("oom_kill_recall", True, "flagged %d s before its kill (%s, limit 256 MiB); "
               "the sudden one missed; counted 1 + 1" % (o["flagged_for_s"], o["oom_memcg"]))


def t_oom_kill_untracked(suite, ctx):
    """--exclude-comm hkload: the tool never tracks it, the kill still speaks."""
    tool = Tool(ctx, "oom_untracked", extra=["--exclude-comm", "hkload"])
    tool.wait_ready()
    w0 = tool.windows()
    limit = 128 * MIB
    # 32 MiB/s into 128 MiB: ~4 s, several windows of a process left out
    cg, p = grow_in(ctx, "leak", limit, ["--step", "8M", "--every", "250ms"])
    t0 = mono()
    _, o = wait_killed(tool, p, w0, 20)
    lived = mono() - t0
    bad = check_kill(o, p, cg, limit, False, False, None)
    others = [e for e in history(tool, p.pid) if e.get("to") != "oom_killed"]
    if others:
        bad.append("other lines for a process left out: %s" % fmt_events(others))
    if bad:
        raise TestFailure("the excluded process's oom_killed line: %s" % "; ".join(bad))
    if lived < 2.0:
        raise TestFailure("the leak died %.1f s after its start: too soon to tell a "
                          "filtered process from a young one" % lived)
    ctx.record("oom_kill_untracked", True, "excluded by --exclude-comm, killed after "
               "%.1f s: said (%s)" % (lived, o["oom_memcg"]))


def v1_freezer(ctx):
    """A v1 freezer cgroup, thawed before the test's processes are killed, or
    None: only v1 keeps a frozen task frozen through SIGKILL."""
    fz = cgroups.make(ctx, "freezer", version=1)
    if fz is not None:
        ctx.before_kill.append(fz.thaw)
        cgroups._freezers.append(fz)
    return fz


def oom_kill_count(cg):
    """The kernel's count of OOM kills in cg (memory.oom_control on v1,
    memory.events on v2)."""
    for line in cg.read("memory.oom_control" if cg.version == 1 else
                        "memory.events").splitlines():
        k, _, v = line.partition(" ")
        if k == "oom_kill":
            return int(v)
    raise TestFailure("no oom_kill count in %s" % cg.path)


def mark_dying(ctx, cg, fz, name):
    """A holder of 200 MiB in cg (256 MiB), frozen in fz (v1), SIGKILLed, then
    100 MiB more in cg: the memcg OOM picks the holder, finds it dying and
    marks it (which thaws it) without a kill. (holder, the other)."""
    fz.write("freezer.state", "THAWED")
    held = ctx.workload(name, cgroups.run_in_both(cg, fz, [ctx.hkload, "grow", "--start",
                                                           "200M", "--step", "0"]),
                        stdout=subprocess.PIPE)
    if read_line(held, 20) != "ready":
        workload_alive(ctx, held)
        raise TestFailure("the 200 MiB holder did not get its memory")
    fz.write("freezer.state", "FROZEN")
    deadline = mono() + 10
    while fz.frozen() != "FROZEN":
        if mono() > deadline:
            raise TestFailure("the freezer did not freeze the holder in 10 s")
        time.sleep(0.1)
    os.kill(held.pid, signal.SIGKILL)
    time.sleep(0.5)
    if held.poll() is not None:
        raise TestFailure("the frozen holder died of SIGKILL (rc %r): the recipe needs it "
                          "kept frozen" % held.returncode)
    more = ctx.workload(name + "-more", cgroups.run_in(cg, [ctx.hkload, "grow", "--start",
                                                            "100M", "--step", "0"]),
                        stdout=subprocess.PIPE)
    line = read_line(more, 20)
    deadline = mono() + 10
    while held.poll() is None and mono() < deadline:
        time.sleep(0.1)
    if held.poll() is None or line != "ready":
        raise TestFailure("the OOM killer did not let the dying holder go (alive: %s) or "
                          "the allocation did not complete (%r); oom_kill %d" %
                          (held.poll() is None, line, oom_kill_count(cg)))
    return held, more


def t_oom_mark_no_kill(suite, ctx):
    limit = 256 * MIB
    cg = oom_memcg(ctx, limit)
    fz = v1_freezer(ctx)
    if fz is None:
        ctx.skip("oom_mark_no_kill", "no cgroup v1 freezer: a v2-frozen task dies of "
                 "SIGKILL, so nothing holds a killed task at its limit")
        return
    prom = os.path.join(ctx.workdir, "oom_mark.prom")
    tool = Tool(ctx, "oom_mark", extra=["--prometheus", prom])
    tool.wait_ready()
    w0 = tool.windows()
    # (1) a mark, no kill: the cgroup's count of kills at 0
    held1, more = mark_dying(ctx, cg, fz, "held1")
    if oom_kill_count(cg):
        raise TestFailure("the kernel counts %d OOM kill(s) in %s: a real kill, not the "
                          "mark of a dying task this test is about" % (oom_kill_count(cg),
                                                                      cg.path))
    os.kill(more.pid, signal.SIGKILL)
    more.wait(10)
    # (2) a real kill there (count 1), then (3) a mark again: the count
    # unmoved since the kill's mark
    w1 = tool.windows()
    burst = ctx.workload("burst", cgroups.run_in(cg, [ctx.hkload, "grow", "--start", "512M"]))
    wait_killed(tool, burst, w1, SAID_WINDOWS + 5)
    if oom_kill_count(cg) != 1:
        raise TestFailure("the kernel counts %d OOM kills in %s after the burst, want 1" %
                          (oom_kill_count(cg), cg.path))
    held2, _ = mark_dying(ctx, cg, fz, "held2")
    if oom_kill_count(cg) != 1:
        raise TestFailure("the kernel counts %d OOM kills in %s after the second mark, "
                          "want 1 (the burst's)" % (oom_kill_count(cg), cg.path))
    # nothing said of the holders, the burst's kill counted, the marks apart
    tool.wait_windows(SAID_WINDOWS)
    said = [o for _, o in tool.events() if o.get("to") == "oom_killed" and
            o.get("pid") in (held1.pid, held2.pid)]
    if said:
        raise TestFailure("a holder, SIGKILLed by the test and only marked by the OOM "
                          "killer, is said oom_killed:\n%s" % fmt_events(said))
    st = tool.stats()
    got = {k: int(st.get(k, -1)) for k in ("oom_kills_flagged", "oom_kills_missed",
                                            "oom_marks_not_kills")}
    if got != {"oom_kills_flagged": 0, "oom_kills_missed": 1, "oom_marks_not_kills": 2}:
        raise TestFailure("hk_stats %r, want 0 kills flagged, 1 missed (the burst), 2 "
                          "marks not kills" % got)
    tool.wait_windows(2)
    counts = prom_counts(prom)
    if counts != {"true": 0, "false": 1}:
        raise TestFailure("%s counts OOM kills %r, want 0 and 1" % (prom, counts))
    windows = tool.windows() - w0
    tool.stop()
    err = tool.stderr_text()
    if not re.search(r"^hotspot-k: OOM kills: 0 flagged OOM risk in time, 1 missed .*"
                     r"2 marks of tasks dying already, not kills", err, re.M):
        raise TestFailure("the summary does not count 2 marks not kills:\n%s" % indent(err))
    ctx.record("oom_mark_no_kill", True, "two frozen, SIGKILLed holders marked by a memcg "
               "OOM, before and after a real kill there: no oom_killed line for them in "
               "%d windows, counted apart; the kill counted" % windows)


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("oom_kill_recall", t_oom_kill_recall, 120, True),
    ("oom_kill_untracked", t_oom_kill_untracked, 60, True),
    ("oom_mark_no_kill", t_oom_mark_no_kill, 90, True),
]
