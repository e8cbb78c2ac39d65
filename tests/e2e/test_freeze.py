# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Freeze before the OOM killer (--freeze-on-oom): a leak inside a limited
memory cgroup is frozen before it reaches its limit, stays frozen, nobody is
killed, and `hotspot-k thaw` lets it run again; a cgroup in --never-freeze
is left alone, and says so.

- freeze_before_oom: a 10 MiB/s leak in a 400 MiB memory cgroup (and, on a
  v1 host, a freezer cgroup of its own), the tool at -i 1s with
  --freeze-on-oom 60s: the leak enters oom_risk ~12 s in, ~28 s from its
  limit, and is frozen there; while frozen its RSS is flat, it is alive,
  its memory cgroup killed nobody and is below its limit; thaw exits 0, its
  RSS grows again, and the running tool says it saw the thaw by hand;
- freeze_refused: the same leak, its cgroup in --never-freeze: a refusal
  line, and the cgroup stays thawed;
- thaw_usage: `hotspot-k thaw`'s errors and exit codes (no BPF).

Every frozen cgroup is thawed before the test's processes are killed (a
frozen process cannot die), pass, fail or hard timeout.
"""

import os
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.procs import TestFailure, fmt_events, indent, mono, read_line, workload_alive
from hk_e2e.checks import fast_trend
from hk_e2e.tool import Tool

MIB = 1 << 20
LIMIT = 400 * MIB
FREEZE_ETA = "60s"
# 10 MiB/s: past the 10 s trend the ETA to 400 MiB is ~28 s, under 60 s,
# with ~280 MiB to spare when the freeze comes
LEAK = ["grow", "--step", "5M", "--every", "500ms"]
FREEZE_WINDOWS = 20             # windows from the leak's start to the freeze line
FLAT_S = 3.0                    # how long a frozen RSS must stay flat
FLAT_SLACK = 1 * MIB


def leak_in_cgroups(ctx):
    """A memory cgroup with a limit, a freezer for it, and the leak inside both."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("this host has no memory cgroup controller (v1 or v2)")
    cgroups.memory_limit(cg, LIMIT)
    fz = cgroups.freezer(ctx, cg)
    if fz is None:
        raise TestFailure("this host has no cgroup freezer (v1 or v2)")
    return cg, fz


def start_leak(ctx, name, cg, fz):
    p = ctx.workload(name, cgroups.run_in_both(cg, fz, [ctx.hkload, *LEAK]),
                     stdout=subprocess.PIPE)
    if read_line(p, 10) != "ready":
        workload_alive(ctx, p)
        raise TestFailure("the leak did not start")
    return p, mono()


def rss_anon(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    raise TestFailure("no RssAnon for pid %d" % pid)


def memcg_counter(cg, v1_file, v2_file, key):
    """A "key N" line of a memory cgroup file (memory.oom_control, memory.events)."""
    for line in cg.read(v1_file if cg.version == 1 else v2_file).splitlines():
        k, _, v = line.partition(" ")
        if k == key:
            return int(v)
    raise TestFailure("no %s in %s's %s" % (key, cg.path, v1_file if cg.version == 1
                                            else v2_file))


def memcg_usage(cg):
    return int(cg.read("memory.usage_in_bytes" if cg.version == 1 else "memory.current"))


def wait_freeze_line(tool, p, w0):
    found = tool.wait_event(lambda o: o.get("event") == "freeze" and o.get("pid") == p.pid,
                            FREEZE_WINDOWS, w0)
    if not found:
        raise TestFailure("no freeze line for the leak within %d windows:\n%s" %
                          (FREEZE_WINDOWS, fmt_events([o for _, o in tool.events()
                                                       if o.get("pid") == p.pid])))
    bad = tool.bad_lines()
    if bad:
        raise TestFailure("lines that are not JSON objects:\n%s" %
                          indent("\n".join("%s (%s)" % b for b in bad)))
    # the transition that decided it comes first, with the ETA it carried
    evs = [o for _, o in tool.events() if o.get("pid") == p.pid]
    entry = [i for i, o in enumerate(evs) if o.get("to") == "oom_risk"]
    at = evs.index(found[1])
    if not entry or entry[0] > at or evs[entry[0]].get("eta_s") != found[1].get("eta_s"):
        raise TestFailure("the freeze line does not follow the leak's oom_risk line, with "
                          "its ETA:\n%s" % fmt_events(evs))
    return found


def thaw(ctx, path):
    r = subprocess.run([ctx.tool, "thaw", path], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def t_freeze_before_oom(suite, ctx):
    cg, fz = leak_in_cgroups(ctx)
    path = cgroups.path_of(fz)
    # its own leak only: the freeze is decided each window as an ETA falls
    # (#19), and the other memory scenarios run at the same time
    tool = Tool(ctx, "freeze", extra=["--freeze-on-oom", FREEZE_ETA,
                                      "--cgroup", cgroups.path_of(cg)])
    tool.wait_ready()
    w0 = tool.windows()
    p, t_leak = start_leak(ctx, "leak", cg, fz)
    t, o = wait_freeze_line(tool, p, w0)
    rss0 = rss_anon(p.pid)
    if o.get("result") != "frozen" or o.get("cgroup") != path or \
            o.get("freezer") != ("v1" if fz.version == 1 else "v2"):
        raise TestFailure("want result frozen, cgroup %s, freezer v%d; got:\n%s" %
                          (path, fz.version, fmt_events([o])))
    if fz.frozen() != "FROZEN":
        raise TestFailure("the line says frozen, the cgroup says %s" % fz.frozen())
    # frozen means: nothing runs, so nothing grows, nothing is killed
    t_flat = mono()
    while mono() - t_flat < FLAT_S:
        tool.check_alive()
        workload_alive(ctx, p)
        drift = rss_anon(p.pid) - rss0
        if abs(drift) > FLAT_SLACK:
            raise TestFailure("frozen, yet its RSS moved by %d KiB in %.1f s" %
                              (drift >> 10, mono() - t_flat))
        ctx.meter.sample()
        time.sleep(0.25)
    rss1 = rss_anon(p.pid)
    oom_kills = memcg_counter(cg, "memory.oom_control", "memory.events", "oom_kill")
    usage = memcg_usage(cg)
    if fz.frozen() != "FROZEN":
        raise TestFailure("the cgroup thawed by itself: %s" % fz.frozen())
    if oom_kills != 0:
        raise TestFailure("its memory cgroup killed %d processes" % oom_kills)
    if usage >= LIMIT:
        raise TestFailure("its memory cgroup uses %d MiB of its %d MiB limit" %
                          (usage >> 20, LIMIT >> 20))

    # thaw: exit 0, thawed, and it leaks again
    rc, out, err = thaw(ctx, path)
    if rc != 0 or "thawed" not in out:
        raise TestFailure("hotspot-k thaw %s: exit %d, stdout %r, stderr %r" %
                          (path, rc, out, err))
    if fz.frozen() != "THAWED":
        raise TestFailure("thaw said so, the cgroup says %s" % fz.frozen())
    t_thaw = mono()
    while rss_anon(p.pid) < rss1 + 10 * MIB:
        workload_alive(ctx, p)
        if mono() - t_thaw > 3.0:
            raise TestFailure("thawed, yet its RSS stays at %d MiB after 3 s" %
                              (rss_anon(p.pid) >> 20))
        time.sleep(0.1)
    grow_s = mono() - t_thaw
    rss2 = rss_anon(p.pid)
    # the running tool saw the thaw by hand, and lets the cgroup be: at a
    # tick (end "hand"), or in the refusal of a re-entry that came first
    said = "%s was thawed by hand" % path
    seen = tool.wait_event(lambda o: o.get("event") == "freeze" and o.get("cgroup") == path
                           and (o.get("end") == "hand" or
                                (o.get("reason") or "").startswith(said)), 3, tool.windows())
    if not seen or seen[0] < t_thaw or fz.frozen() != "THAWED":
        raise TestFailure("thawed by hand, %s: no line says the tool saw it within 3 "
                          "windows:\n%s" % (fz.frozen(),
                                             fmt_events([o for _, o in tool.events()
                                                         if o.get("event") == "freeze"])))
    # a second thaw has nothing to do, and says so
    rc2, out2, err2 = thaw(ctx, path)
    if rc2 != 0 or "was not frozen" not in out2:
        raise TestFailure("a second hotspot-k thaw %s: exit %d, stdout %r, stderr %r" %
                          (path, rc2, out2, err2))
    ctx.record("freeze_before_oom", True,
               "frozen %.1f s after the leak started (ETA %s s < %s, settled in %s ms); "
               "anon RSS at the freeze %d MiB of a %d MiB limit (cgroup usage %d MiB); "
               "drift over %.0f s frozen %+d KiB; 0 OOM kills; thawed: RSS %d -> %d MiB "
               "within %.1f s, seen by the tool %.1f s after" %
               (t - t_leak, o.get("eta_s"), FREEZE_ETA, o.get("settle_ms"), rss0 >> 20,
                LIMIT >> 20, usage >> 20, FLAT_S, (rss1 - rss0) >> 10, rss1 >> 20,
                rss2 >> 20, grow_s, seen[0] - t_thaw))


def t_freeze_refused(suite, ctx):
    cg, fz = leak_in_cgroups(ctx)
    path = cgroups.path_of(fz)
    tool = Tool(ctx, "refused", extra=[*fast_trend(ctx), "--freeze-on-oom", FREEZE_ETA,
                                       "--never-freeze", path, "--cgroup", cgroups.path_of(cg)])
    tool.wait_ready()
    w0 = tool.windows()
    p, t_leak = start_leak(ctx, "refused", cg, fz)
    t, o = wait_freeze_line(tool, p, w0)
    want = "%s is in --never-freeze" % path
    if o.get("result") != "refused" or o.get("reason") != want or o.get("cgroup") != path:
        raise TestFailure("want result refused, reason %r; got:\n%s" % (want, fmt_events([o])))
    rss0 = rss_anon(p.pid)
    tool.wait_windows(1)
    workload_alive(ctx, p)
    if fz.frozen() != "THAWED":
        raise TestFailure("refused, yet the cgroup is %s" % fz.frozen())
    if rss_anon(p.pid) <= rss0:
        raise TestFailure("refused, yet its RSS stopped growing")
    ctx.record("freeze_refused", True, "refused %.1f s after the leak started: %s; "
               "still THAWED and growing" % (t - t_leak, o.get("reason")))


def t_thaw_usage(suite, ctx):
    cases = [
        ([], 2, "which cgroup?"),
        (["/a", "/b"], 2, "one cgroup at a time"),
        (["--bogus"], 2, "unknown option"),
        (["/hk-e2e-no-such-cgroup"], 1, "No such file or directory"),
        (["/"], 1, "is the root cgroup"),
        (["relative/path"], 1, "not a cgroup path"),
    ]
    for args, want_rc, want_err in cases:
        r = subprocess.run([ctx.tool, "thaw", *args], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
        err = r.stderr.decode(errors="replace")
        if r.returncode != want_rc or want_err not in err or r.stdout:
            raise TestFailure("hotspot-k thaw %s: exit %d, stderr %r; want exit %d and %r" %
                              (" ".join(args), r.returncode, err, want_rc, want_err))
        if want_rc == 1 and err.count("\n") != 1:
            raise TestFailure("hotspot-k thaw %s: not one line: %r" % (" ".join(args), err))
    ctx.record("thaw_usage", True, "%d cases" % len(cases))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("freeze_before_oom", t_freeze_before_oom, 60, True),
    ("freeze_refused", t_freeze_refused, 45, True),
    ("thaw_usage", t_thaw_usage, 20),
]
