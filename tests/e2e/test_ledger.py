# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The stall ledger (docs/stall-ledger.md) and `status --npd cpu-contention`,
read from an instance --pin left at -i 500ms, filtered to a memory cgroup of
the test's own (its workloads in cgroups below it; the node's CPU wait is
then theirs alone, whatever else the host runs):

- a cgroup at a 20 % quota spinning two threads (one per CPU): >= 90 % of
  its CPU wait in a window is `quota`; beside it, a process of eight busy
  threads pinned to one CPU: >= 80 % `self`. Neither is contention: exit 0;
- `make -j` of twice the CPUs, each recipe a one-thread busy loop, in one
  CPU cgroup: every loop >= 80 % `self` (its group's own crowd: alone,
  each would read as another process's victim), exit 0;
- then two hogs in two cgroups pinned to one CPU: >= 90 % of each one's CPU
  wait is `neighbor`; exit 1, the line naming both.
"""

import json
import os
import re
import time

from hk_e2e import cgroups
from hk_e2e.procs import TestFailure, kill_group, mono
from test_status import _fail, _npd, _pin, _status, _unpin

CPU_CAUSES = ("neighbor_s", "self_s", "quota_s", "steal_irq_s", "weight_s")


def _child(ctx, parent, name):
    """A cgroup below parent (same hierarchy), removed before it."""
    path = os.path.join(parent.path, name)
    if os.path.isdir(path):
        cgroups.Cgroup(path, parent.version).remove()
    os.mkdir(path)
    cg = cgroups.Cgroup(path, parent.version)
    ctx.undo.append(cg.remove)
    return cg


def _ledgers(suite, pids):
    """{pid: stall} of the flagged rows among pids (status --json): the
    latest window's. Not stall_total: a process's first window (born in it)
    has no quota's throttling, whose counter is its cgroup's, measured from
    the first sample on."""
    rc, out, err = _status(suite, "--json")
    if rc != 0:
        _fail("status --json", rc, out, err)
    rows = json.loads(out).get("flagged") or []
    return {r["pid"]: r["stall"] for r in rows if r.get("pid") in pids}


def _wait_ledgers(suite, pids, min_wait_s, deadline_s):
    """Poll until every pid is flagged with at least min_wait_s of CPU wait
    in its latest window."""
    deadline = mono() + deadline_s
    while True:
        got = _ledgers(suite, pids)
        if all(p in got and sum(got[p][c] for c in CPU_CAUSES) >= min_wait_s for p in pids):
            return got
        if mono() > deadline:
            raise TestFailure("not all of pids %s flagged with %.1f s of CPU wait in %d s: "
                              "%s" % (sorted(pids), min_wait_s, deadline_s, got))
        time.sleep(0.5)


def _share(ledger, cause):
    total = sum(ledger[c] for c in CPU_CAUSES)
    return ledger[cause] / total if total else 0.0


def _cpu_cgroup(ctx, mem, cpu_top, quota_us=0):
    """A CPU cgroup (a task group of its own) for mem's processes: mem
    itself on v2 (cpu enabled in its parent), else a child of the v1 cpu
    cgroup cpu_top of mem's name; and the argv prefix to start in both."""
    if mem.version == 2:
        with open(os.path.join(os.path.dirname(mem.path), "cgroup.subtree_control"), "w") as f:
            f.write("+cpu")
        cpu = mem
    else:
        if cpu_top is None:
            raise TestFailure("this host has no cgroup v1 cpu controller beside v1 memory")
        cpu = _child(ctx, cpu_top, os.path.basename(mem.path))
    if quota_us:
        cgroups.cpu_quota(cpu, quota_us)
    return lambda argv: cgroups.run_in_both(cpu, mem, argv)


def _make_j(ctx, in_cg, jobs):
    """make -j JOBS of JOBS one-thread busy loops, started in a cgroup."""
    mk = os.path.join(ctx.workdir, "%s.Makefile" % ctx.name)
    names = " ".join("loop%d" % i for i in range(jobs))
    with open(mk, "w") as f:
        f.write("all: %s\n%s:\n\texec %s spin\n" % (names, names, ctx.hkload))
    return ctx.workload("make", in_cg(["make", "-s", "-f", mk, "-j", str(jobs)]))


def _loops_of(cg_procs, comm):
    """PIDs in a cgroup.procs file whose comm is comm."""
    pids = set()
    with open(cg_procs) as f:
        for pid in f.read().split():
            try:
                with open("/proc/%s/comm" % pid) as c:
                    if c.read().strip() == comm:
                        pids.add(int(pid))
            except OSError:
                pass
    return pids


def t_cpu_contention(suite, ctx):
    top = cgroups.make(ctx, "memory")
    if top is None:
        raise TestFailure("this host has no memory cgroup controller (v1 or v2)")
    if not _pin(suite, ctx, "cpu_contention", ["-i", "500ms", "--cgroup",
                                               cgroups.path_of(top)]):
        return
    cpus = sorted(os.sched_getaffinity(0))

    cpu_top = cgroups.make(ctx, "cpu", 1) if top.version == 1 else None
    # a quota and a crowd of its own threads: waits, but no contention
    in_quota = _cpu_cgroup(ctx, _child(ctx, top, "quota"), cpu_top, 20000)
    crowd_cg = _child(ctx, top, "crowd")
    q = ctx.workload("quota", in_quota([ctx.hkload, "spin", "--threads", "2", "--spread"]))
    crowd = ctx.workload("crowd", cgroups.run_in(crowd_cg, [
        "taskset", "-c", str(cpus[-1]), ctx.hkload, "spin", "--threads", "8"]))
    got = _wait_ledgers(suite, {q.pid, crowd.pid}, 0.5, 15)
    line = _npd(suite, "cpu-contention", 0, re.compile(r"^no CPU contention: .*$"))
    if _share(got[q.pid], "quota_s") < 0.9 or _share(got[crowd.pid], "self_s") < 0.8:
        raise TestFailure("want >= 90 %% of the quota'd loop's CPU wait quota and >= 80 %% "
                          "of the crowd's self: %s, %s" % (got[q.pid], got[crowd.pid]))
    kill_group(q)
    kill_group(crowd)
    quiet = "quota %.0f %%, self %.0f %%, %s" % (100 * _share(got[q.pid], "quota_s"),
                                                 100 * _share(got[crowd.pid], "self_s"), line)

    # make -j of one-thread loops in one CPU cgroup: its own crowd (its
    # group's share is known from its second window on)
    mem_make = _child(ctx, top, "make")
    jobs = 2 * len(cpus)
    mk = _make_j(ctx, _cpu_cgroup(ctx, mem_make, cpu_top), jobs)
    deadline = mono() + 20
    while True:
        loops = _loops_of(mem_make.procs, "hkload")
        got = _wait_ledgers(suite, loops, 0.15, 15) if len(loops) == jobs else {}
        if got and all(_share(got[p], "self_s") >= 0.8 for p in loops):
            break
        if mono() > deadline:
            raise TestFailure("make -j%d in one CPU cgroup: want >= 80 %% of each loop's CPU "
                              "wait self in a window, got %s" % (jobs, got))
        time.sleep(0.5)
    line = _npd(suite, "cpu-contention", 0, re.compile(r"^no CPU contention: .*$"))
    kill_group(mk)
    quiet += "; make -j%d self %s" % (jobs, ", ".join(
        "%.0f %%" % (100 * _share(got[p], "self_s")) for p in sorted(loops)))

    # two hogs of two cgroups on one CPU: each waits for the other
    hogs = [ctx.workload("hog%d" % i, cgroups.run_in(_child(ctx, top, "hog%d" % i), [
        "taskset", "-c", str(cpus[0]), ctx.hkload, "spin"])) for i in (1, 2)]
    pids = {h.pid for h in hogs}
    got = _wait_ledgers(suite, pids, 0.15, 15)
    deadline = mono() + 10
    while True:
        rc, out, err = _status(suite, "--npd", "cpu-contention")
        if rc != 0 or mono() > deadline:
            break
        time.sleep(0.5)
    line = _npd(suite, "cpu-contention", 1, re.compile(r"^CPU contention: pid \d+ .*$"))
    named = {int(x) for x in re.findall(r"pid (\d+)", line)}
    if named != pids:
        raise TestFailure("status --npd cpu-contention: want the hogs %s named, got: %s" %
                          (sorted(pids), line))
    for p in pids:
        if _share(got[p], "neighbor_s") < 0.9:
            raise TestFailure("want >= 90 %% of hog %d's CPU wait neighbor: %s" % (p, got[p]))
    for h in hogs:
        kill_group(h)
    urc, uout, uerr = _unpin(suite)
    if urc != 0:
        _fail("hotspot-k unpin", urc, uout, uerr)
    ctx.record("cpu_contention", True, "%s; hogs neighbor %s: %s" % (
        quiet, ", ".join("%.0f %%" % (100 * _share(got[p], "neighbor_s")) for p in sorted(pids)),
        line))


TESTS = [
    # name, function, hard timeout (s)[, rerun once when the machine was disturbed]
    ("cpu_contention", t_cpu_contention, 60, True),
]
