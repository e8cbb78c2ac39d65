# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The table driver's walk (issue #34): in chunks of 1 ms over a table of
processes that fork and exit hooks keep, on Linux >= 6.10.

table_walk starts, as users have them, the workloads FIRST: 4 processes of
3000 sleeping threads whose threads exit one every 5 ms (one of them, the
pool, is the one judged), a busy loop, and a process of 10 000 sleeping
threads whose one busy thread ends its thread list (the big one); then the
tool with no --driver, which over 2000 threads picks the table driver; then
a second busy loop. Over 6 windows:

- the walk is cut: more work items than walks, and no stretch on a CPU
  longer than the chunk (1 ms: a budget of 7/8 of it, then up to 64
  threads and the walk's end) with a margin for this shared machine,
  STRETCH_MAX_US. Before a process could be cut inside (a process walked
  whole in one chunk) this test's longest stretch was 2.06-2.23 ms; the
  wq driver's walk, one stretch, took 18.6-27.1 ms over e2e handover's
  20 000 threads;
- the big one is cut inside at least once a walk (10 000 threads take
  more than the budget) and resumed by the next chunk: its busy thread,
  met after the cut, still makes it CPU-bound;
- the pool is sampled every walk while its threads exit;
- both busy loops are CPU-bound: the one the table's seed found at the
  start, and the one the fork hook put in it.

table_restart takes the other way on: the thread a chunk ended on gone
by the next chunk, a path this walk takes about never by chance (0 in 9
runs of table_walk). HOTSPOT_K_TEST_LOSE_CUTS=1 makes every cut take it:
the process is walked again from its leader, its threads up to the cut
one's start time skipped. The big one's busy thread, its newest, comes
after every cut: were the skip wrong (none walked after the cut, or the
leader's chunk given up) it would never be seen, and the process never
CPU-bound. Were none skipped, the threads before each cut would be walked
again at each restart (their sums unchanged: a thread adds what it did
since it was last seen), and the threads walked a walk would be several
times the host's (7 restarts a walk here: ~4x).

Then the table's references: each process's slot in hk_leaders holds its
TGID while it lives (the busy loop started before the tool: the seed's;
the one after: the fork hook's), and a process that exits leaves its slot
empty (the exit hook dropped its task reference: none kept past its exit).
"""

import subprocess

from hk_e2e.procs import TestFailure, kill_group, read_line, read_pids, workload_alive
from hk_e2e.tool import Tool

TABLE_WINDOWS = 6
STRETCH_MAX_US = 1500
BIG_THREADS = 10000
LEADER_SLOTS = 65536    # HK_LEADER_SLOTS (bpf/walk_table.bpf.h)


def _cpu_bound(tool, pid, since):
    return tool.wait_event(lambda o: o.get("pid") == pid and o.get("to") == "cpu_bound",
                           TABLE_WINDOWS, since)


def t_table_walk(suite, ctx):
    pop = ctx.workload("pool", [ctx.hkload, "interleaved", "--procs", "4", "--threads",
                                "3000", "--sleep", "--exit-every", "5ms"],
                       stdout=subprocess.PIPE)
    pool = read_pids(ctx, pop, 4, "table_walk", 60)[0]
    before = ctx.workload("before", [ctx.hkload, "spin", "--threads", "1"])
    big = ctx.workload("big", [ctx.hkload, "spin", "--threads", "1", "--idle-first",
                               str(BIG_THREADS)])
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
    found = [_cpu_bound(tool, p.pid, w0 - 1) for p in (before, after, big)]
    w1 = tool.wait_windows(TABLE_WINDOWS, since=w0)
    st1, e1 = tool.stats(), tool.proc_entry(pool)
    for p in (pop, before, after, big):
        workload_alive(ctx, p)
    walks = w1 - w0
    items = int(st1["chunks"]) - int(st0["chunks"])
    resumes = int(st1["table_resumes"]) - int(st0["table_resumes"])
    stretch_us = int(st1["stretch_ns_max"]) // 1000
    problems = []
    if int(st1["driver"]) != 4:
        problems.append("driver %s in hk_stats, not 4 (table)" % st1["driver"])
    if items < walks:
        problems.append("%d work items cut %d walks: the walk was not cut" % (items, walks))
    if stretch_us > STRETCH_MAX_US:
        problems.append("a stretch of %d us on a CPU (> %d)" % (stretch_us, STRETCH_MAX_US))
    if resumes < walks:
        problems.append("%d chunks resumed a process cut inside in %d walks (a process of "
                        "%d threads in each)" % (resumes, walks, BIG_THREADS + 1))
    if e0 is None or e1 is None:
        problems.append("the pool (PID %d) has no hk_procs entry" % pool)
    elif int(e1["windows"]) - int(e0["windows"]) < walks - 1:
        problems.append("the pool sampled %d times in %d walks while its threads exited" %
                        (int(e1["windows"]) - int(e0["windows"]), walks))
    for name, p, f in zip(("busy loop started before the tool", "busy loop started after",
                           "big process, its busy thread after the cut"),
                          (before, after, big), found):
        if not f:
            problems.append("the %s (PID %d) never CPU-bound" % (name, p.pid))
    for name, p in (("seeded", before), ("forked", after)):
        slot = tool.map_lookup("hk_leaders", p.pid & (LEADER_SLOTS - 1))
        if not slot or int(slot["tgid"]) != p.pid:
            problems.append("the %s busy loop (PID %d) is not in its hk_leaders slot: %s" %
                            (name, p.pid, slot))
    kill_group(before)
    kill_group(after)
    tool.wait_windows(1)
    for name, p in (("seeded", before), ("forked", after)):
        slot = tool.map_lookup("hk_leaders", p.pid & (LEADER_SLOTS - 1))
        if not slot or int(slot["tgid"]) == p.pid:
            problems.append("the %s busy loop (PID %d) exited, its hk_leaders slot still "
                            "held: %s" % (name, p.pid, slot))
    if problems:
        raise TestFailure("table driver: %s; stats %s" % ("; ".join(problems), st1))
    tool.stop()
    ctx.record("table_walk", True, "%d walks in %d work items, longest stretch %d us, "
               "%d resumed inside a process (%d of them from its leader); the pool "
               "sampled %d times in %d walks while it shrank; both busy loops and the "
               "big one CPU-bound; their leaders' slots held while they lived, emptied at "
               "their exits" %
               (walks, items + walks, stretch_us, resumes,
                int(st1["table_restarts"]) - int(st0["table_restarts"]),
                int(e1["windows"]) - int(e0["windows"]), walks))


def t_table_restart(suite, ctx):
    big = ctx.workload("big", [ctx.hkload, "spin", "--threads", "1", "--idle-first",
                               str(BIG_THREADS)], stdout=subprocess.PIPE)
    if read_line(big, 60) != "ready":
        raise TestFailure("table_restart: hkload spin --idle-first %d never ready" %
                          BIG_THREADS)
    tool = Tool(ctx, "table_restart", env={"HOTSPOT_K_TEST_LOSE_CUTS": "1"})
    tool.wait_ready()
    start = tool.stderr_text().splitlines()[0]
    if "driver table" not in start:
        ctx.skip("table_restart", "the tool chose another driver over %d threads: %s" %
                 (BIG_THREADS, start))
        tool.stop()
        return
    w0 = tool.wait_windows(1)
    st0 = tool.stats()
    found = _cpu_bound(tool, big.pid, w0 - 1)
    ev = found[1] if found else None
    w1 = tool.wait_windows(2, since=tool.windows())
    st1 = tool.stats()
    with open("/proc/loadavg") as f:
        host_threads = int(f.read().split()[3].split("/")[1])
    workload_alive(ctx, big)
    walks = w1 - w0
    per_walk = (int(st1["threads_walked"]) - int(st0["threads_walked"])) // max(walks, 1)
    restarts = int(st1["table_restarts"]) - int(st0["table_restarts"])
    resumes = int(st1["table_resumes"]) - int(st0["table_resumes"])
    problems = []
    if restarts < walks:
        problems.append("%d restarts from a leader in %d walks (a process of %d threads "
                        "cut in each, every cut thread taken as gone)" %
                        (restarts, walks, BIG_THREADS + 1))
    if per_walk > host_threads * 11 // 10:
        problems.append("%d threads walked a walk, the host has %d (kernel threads "
                        "included): the threads before a cut walked again" %
                        (per_walk, host_threads))
    if resumes:
        problems.append("%d chunks resumed at the cut thread: the switch did not hold" %
                        resumes)
    if not ev:
        problems.append("the big process (PID %d), its busy thread after every cut, never "
                        "CPU-bound" % big.pid)
    elif not 80 <= float(ev["cpu_pct"]) <= 120:
        problems.append("the big process CPU-bound at cpu_pct %s, not its one busy "
                        "thread's ~100" % ev["cpu_pct"])
    if problems:
        raise TestFailure("table restart: %s; stats %s" % ("; ".join(problems), st1))
    tool.stop()
    ctx.record("table_restart", True, "%d restarts from the leader in %d walks, 0 resumed "
               "at the cut thread; %d threads walked a walk of the host's %d; the big "
               "process CPU-bound at cpu_pct %s, its busy thread met after every cut" %
               (restarts, walks, per_walk, host_threads, ev["cpu_pct"]))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("table_walk", t_table_walk, 90, True),
    ("table_restart", t_table_restart, 60, True),
]
