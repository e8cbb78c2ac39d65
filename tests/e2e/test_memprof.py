# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Memory profiles and the leaf frames libc's missing frame pointers hide.

tests/e2e/leakload.c calls libc's memset and clock_nanosleep (not inlined):
a frame-pointer walk from inside them skips their caller.

- `hotspot-k profile PID --memory` on `leakload leak 1024 100` (leak_here():
  1 MiB malloc'ed and memset every 100 ms, kept; churn_here(): 64 KiB
  malloc'ed, set and freed 8 times as often, reused by the allocator): the
  folded stacks weigh bytes, leak_here carries >= 80 % of them, their sum is
  the leak's rate times the duration (+-40 %), the SVG titles leak_here's
  frame in bytes, and nothing of the profiler stays loaded;
- `hotspot-k profile PID` on `leakload sleep` (sleep_here() calls
  clock_nanosleep): the off-CPU stacks read ...;sleep_here;clock_nanosleep
  for >= 80 % of the time asleep in clock_nanosleep;
- `--profile 3s` on a running tool: the same leak in a 400 MiB memory cgroup
  enters oom_risk and the profile taken is the memory one (kind "memory"),
  with leak_here carrying >= 80 % of the bytes;
- the rss_stat hook runs on every anonymous page counted on the host: it
  reads a counter only for the target's own changes (as many reads as
  memory events), whatever another process leaks beside it.
"""

import json
import os
import re
import subprocess
import time
import xml.etree.ElementTree as ET

from hk_e2e import cgroups
from hk_e2e.bpf import bpftool, fd_ids
from hk_e2e.checks import expect_enter, fast_trend
from hk_e2e.procs import TestFailure, read_line, workload_alive
from hk_e2e.tool import Tool
from test_profile import SVG_NS, loaded_profiler_progs, read_folded, wait_gone, weight

MIB = 1 << 20
LEAK_KIB, LEAK_MS = 1024, 100          # 10 MiB/s
LEAK_ARGS = ["leak", str(LEAK_KIB), str(LEAK_MS)]
SHARE = 0.80                           # of the bytes, leak_here's at least
LIMIT = 400 * MIB                      # (c)'s cgroup: 40 s of the leak


def leakload(ctx):
    exe = os.path.join(os.path.dirname(ctx.hkload), "leakload")
    if not os.access(exe, os.X_OK):
        raise TestFailure("no leakload beside hkload (make build/leakload)")
    return exe


def start(ctx, name, argv):
    w = ctx.workload(name, argv, stdout=subprocess.PIPE)
    if read_line(w, 10) != "ready":
        workload_alive(ctx, w)
        raise TestFailure("%s did not start" % name)
    return w


def profile(ctx, pid, *args, timeout=40):
    """`hotspot-k profile PID ARGS --json`: its (started, written) lines."""
    r = subprocess.run([ctx.tool, "profile", str(pid), *args, "--profile-dir", ctx.workdir,
                        "--json"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    try:
        lines = [json.loads(x) for x in r.stdout.decode().splitlines()]
    except ValueError:
        lines = []
    if r.returncode != 0 or len(lines) != 2 or lines[1].get("state") != "written":
        raise TestFailure("profile %s exited %d with lines, want 0 and started + written:\n"
                          "%s\n%s" % (" ".join(args), r.returncode, r.stdout.decode(),
                                      r.stderr.decode()))
    return lines


def leak_share(stacks, what):
    total = sum(c for _, c, _ in stacks)
    leak = weight(stacks, "leak_here")
    if not total or leak < SHARE * total:
        top = sorted(stacks, key=lambda s: -s[1])[:4]
        raise TestFailure("%s: leak_here carries %d of %d bytes (%.1f %%), want >= %d %%; "
                          "the heaviest stacks:\n%s" %
                          (what, leak, total, 100.0 * leak / total if total else 0,
                           100 * SHARE, "\n".join("  %s %d" % (";".join(f), c)
                                                  for f, c, _ in top)))
    return leak, total


def t_memprof_manual(suite, ctx):
    w = start(ctx, "leakload", [leakload(ctx), *LEAK_ARGS])
    start_line, done = profile(ctx, w.pid, "--memory", "--duration", "5s")
    if start_line.get("kind") != "memory" or done.get("kind") != "memory" or \
       start_line.get("label") != "memory":
        raise TestFailure("want a memory profile labelled memory: %s" % [start_line, done])
    stacks = read_folded(done["folded"])
    if any(o for _, _, o in stacks):
        raise TestFailure("a memory profile with off-CPU stacks")
    leak, total = leak_share(stacks, "profile --memory")
    secs = done.get("duration_s", 0)
    want = LEAK_KIB * 1024 * 1000 / LEAK_MS * secs
    if not 0.6 * want <= total <= 1.4 * want or done.get("grown_bytes") != total:
        raise TestFailure("%d bytes in the folded stacks (%s in the line) over %.1f s, want "
                          "%.0f +-40 %% (10 MiB/s)" % (total, done.get("grown_bytes"), secs,
                                                       want))
    titles = [t.text or "" for t in ET.parse(done["svg"]).getroot().iter(SVG_NS + "title")]
    if not any(re.match(r"leak_here \(\d+ bytes, \d+\.\d\d%\)$", t) for t in titles):
        raise TestFailure("no SVG frame titled 'leak_here (N bytes, P%%)': %s" % titles[:8])
    wait_gone("after profile --memory")
    events = done.get("memory_events", 0)
    ctx.record("memprof_manual", True, "leak_here %.1f %% of %.1f MiB in %.1f s; %d rss_stat "
               "events (%.0f/s), %d stacks" % (100.0 * leak / total, total / MIB, secs,
                                               events, events / secs if secs else 0,
                                               len(stacks)))


def t_memprof_offcpu_leaf(suite, ctx):
    w = start(ctx, "leakload", [leakload(ctx), "sleep"])
    _, done = profile(ctx, w.pid, "--duration", "3s")
    stacks = read_folded(done["folded"])
    asleep = [(fr, c) for fr, c, o in stacks if o and any(
        f in ("clock_nanosleep", "__clock_nanosleep", "nanosleep") for f in fr)]
    total = sum(c for _, c in asleep)

    def caller_kept(fr):
        return any(fr[i] == "sleep_here" and fr[i + 1] in
                   ("clock_nanosleep", "__clock_nanosleep", "nanosleep")
                   for i in range(len(fr) - 1))
    kept = sum(c for fr, c in asleep if caller_kept(fr))
    if not total or kept < SHARE * total:
        raise TestFailure("off-CPU in clock_nanosleep %d us, of which %d us under sleep_here "
                          "(want >= %d %%); stacks:\n%s" %
                          (total, kept, 100 * SHARE,
                           "\n".join("  %s %d" % (";".join(f), c) for f, c, _ in stacks[:6])))
    wait_gone("after the off-CPU profile")
    ctx.record("memprof_offcpu_leaf", True, "%.2f s asleep in clock_nanosleep, %.1f %% under "
               "...;sleep_here;clock_nanosleep" % (total / 1e6, 100.0 * kept / total))


def t_memprof_on_oom(suite, ctx):
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("this host has no memory cgroup controller (v1 or v2)")
    cgroups.memory_limit(cg, LIMIT)
    # its own leak only: the other memory scenarios run at the same time,
    # and an alarm of theirs would be profiled too
    tool = Tool(ctx, "memprof_on", extra=(*fast_trend(ctx), "--profile", "3s",
                                          "--profile-dir", ctx.workdir,
                                          "--cgroup", cgroups.path_of(cg)))
    tool.wait_ready()
    if loaded_profiler_progs():
        raise TestFailure("the profiler is loaded with nothing flagged: %s" %
                          loaded_profiler_progs())
    w0 = tool.windows()
    w = start(ctx, "leakload", cgroups.run_in(cg, [leakload(ctx), *LEAK_ARGS]))
    expect_enter(suite, tool, "memprof_on_oom", w, "oom_risk", 20, w0)
    got = tool.wait_event(lambda o: o.get("event") == "profile" and o.get("pid") == w.pid
                          and o.get("state") in ("written", "failed"), 10, w0)
    if not got or got[1].get("state") != "written":
        raise TestFailure("no profile written for the leak (pid %d); lines:\n%s" %
                          (w.pid, [o for _, o in tool.events() if o.get("event") == "profile"]))
    done = got[1]
    starts = [o for _, o in tool.events() if o.get("event") == "profile" and
              o.get("state") == "started" and o.get("pid") == w.pid]
    if len(starts) != 1 or starts[0].get("label") != "oom_risk" or \
       starts[0].get("kind") != "memory" or done.get("kind") != "memory":
        raise TestFailure("want one memory profile started on oom_risk: %s, %s" %
                          (starts, done))
    stacks = read_folded(done["folded"])
    leak, total = leak_share(stacks, "--profile on oom_risk")
    ET.parse(done["svg"])
    wait_gone("after the memory profile on oom_risk")
    rc = tool.stop()
    if rc != 0:
        raise TestFailure("the tool exited %s" % rc)
    ctx.record("memprof_on_oom", True, "leak_here %.1f %% of %.1f MiB in 3 s" %
               (100.0 * leak / total, total / MIB))


def prof_stats(pid):
    """hk_prof_stats of the profile object a process holds (its .bss), and
    the names of its programs; ({}, names) when not found."""
    stats = {}
    progs, maps = fd_ids(pid)
    names = {(bpftool("prog", "show", "id", str(i), "-j") or {}).get("name") for i in progs}
    for i in maps:
        if not (bpftool("map", "show", "id", str(i), "-j") or {}).get("name",
                                                                     "").endswith(".bss"):
            continue
        for entry in bpftool("map", "dump", "id", str(i), "-j") or []:
            for var in (entry.get("formatted", {}).get("value", {}).get(".bss") or []):
                stats = var.get("hk_prof_stats", stats)
    return stats, names


def t_memprof_reads(suite, ctx):
    """One process profiled, another leaking beside it: the hook reads a
    counter for the target's changes only (before: for every anonymous
    page counted on the host)."""
    w = start(ctx, "target", [leakload(ctx), *LEAK_ARGS])
    start(ctx, "other", [leakload(ctx), *LEAK_ARGS])
    p = ctx.workload("profile", [ctx.tool, "profile", str(w.pid), "--memory", "--duration",
                                 "4s", "--profile-dir", ctx.workdir, "--json"],
                     stdout=subprocess.PIPE)
    started = read_line(p, 15)
    if not started or json.loads(started).get("state") != "started":
        workload_alive(ctx, p)
        raise TestFailure("profile --memory did not start: %r" % started)
    time.sleep(2.5)
    stats, names = prof_stats(p.pid)
    if p.wait(10) != 0:
        raise TestFailure("profile --memory exited %s" % p.returncode)
    events, reads = stats.get("mem_events", 0), stats.get("mem_reads")
    # before 6.2 the event carries the count: nothing is read
    want = 0 if "hk_prof_rss_c" in names else events
    if not events or reads != want:
        raise TestFailure("hk_prof_stats after 2.5 s of a 10 MiB/s leak profiled beside "
                          "another: %d memory events, %s counter reads; want > 0 and %d "
                          "(programs %s)" % (events, reads, want, sorted(names)))
    ctx.record("memprof_reads", True, "%d memory events of the target, %d counter reads "
               "(another 10 MiB/s leak beside it)" % (events, reads))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("memprof_manual", t_memprof_manual, 40, True),
    ("memprof_offcpu_leaf", t_memprof_offcpu_leaf, 30, True),
    ("memprof_on_oom", t_memprof_on_oom, 60, True),
    ("memprof_reads", t_memprof_reads, 40, True),
]
