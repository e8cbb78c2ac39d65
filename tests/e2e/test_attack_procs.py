# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""hk_procs filled by an unprivileged user (security review 2, finding L2).

The walk keeps a process's state in hk_procs, a preallocated hash of
--max-procs entries. Entries used to go only when their process exited, so
a user who forks more sleepers than the map holds blinded the tool to
every process started after: each was counted in procs_untracked, said
once a minute, and never diagnosed.

- attack_evict_quiet: a tool with --max-procs 256, filtered to one
  memory cgroup (a container's, say) that nobody and another user share:
  nobody forks 400 sleepers that never run again (hkload sleepers), then
  a busy loop of uid 1001 starts there. It must be CPU-bound within the
  usual windows (once the sleepers' entries are quiet), the entries given
  up counted in procs_evicted, and the full map's line must name nobody
  as the uid holding most entries. The filter keeps the rest of the host
  out: on a host where processes come and go, any exit freed an entry
  the busy loop took, and the attack held only on a quiet host.
- attack_reserve_root: nobody's 300 processes that wake every 100 ms
  (never quiet, never given up) in place of the sleepers; root's busy
  loop must be CPU-bound all the same: the last 1/16 of the map is uid
  0's.
"""

import os
import re
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.attack import NOBODY_UID, as_nobody
from hk_e2e.checks import expect_enter
from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL
from hk_e2e.procs import TestFailure, read_line, workload_alive
from hk_e2e.tool import Tool

def wait_gone(pids, timeout_s=10):
    """After the kill (the suite's cleanup): until none of pids is in /proc,
    so that the next test does not count them (test_attack_service's
    procs_full sizes its map from /proc)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not any(os.path.exists("/proc/%s" % p) for p in pids):
            return
        time.sleep(0.1)


OTHER_UID = 1001


def as_other(argv):
    """argv as uid OTHER_UID, a user beside nobody (not root)."""
    return ["setpriv", "--reuid=%d" % OTHER_UID, "--regid=%d" % OTHER_UID,
            "--clear-groups", "--"] + list(argv)


# root puts itself into the cgroup $1, then runs the rest
IN_CG = ['sh', '-c', 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"', 'in_cg']

MAX_PROCS = 256
SLEEPERS = 400
# windows an entry must be quiet before it may be given up (bpf/procs_room.bpf.h)
QUIET_WINDOWS = 4


def crowd(ctx, name, argv):
    """A --max-procs MAX_PROCS tool filtered to a new memory cgroup, and
    argv there as nobody (it says ready when its processes are there):
    (cgroup, tool, the workload)."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    tool = Tool(ctx, name, extra=["--max-procs", str(MAX_PROCS), "--cgroup",
                                  cgroups.path_of(cg), "-i", FAST_INTERVAL])
    tool.wait_ready()
    pop = ctx.workload(name + ".crowd", IN_CG + [cg.path] + as_nobody(argv),
                       stdout=subprocess.PIPE)
    if read_line(pop, 20) != "ready":
        workload_alive(ctx, pop)
        raise TestFailure("nobody's %s never said ready" % " ".join(argv[:2]))
    return cg, tool, pop


def t_attack_evict_quiet(suite, ctx):
    cg, tool, pop = crowd(ctx, "evict_quiet", [ctx.hkload, "sleepers", "--procs",
                                               str(SLEEPERS), "--threads", "1"])
    pids = cg.read("cgroup.procs").split()
    ctx.undo.append(lambda: wait_gone(pids))
    w0 = tool.wait_windows(1)
    untracked = int(tool.stats().get("procs_untracked", 0))
    if untracked == 0:
        raise TestFailure("%d sleepers beside a --max-procs %d tool, and hk_procs never "
                          "full (procs_untracked 0): the attack did not happen" %
                          (SLEEPERS, MAX_PROCS))
    hog = ctx.workload("hog", IN_CG + [cg.path] + as_other([ctx.hkload, "spin"]),
                       stdout=subprocess.PIPE)
    if read_line(hog, 10) != "ready":
        workload_alive(ctx, hog)
        raise TestFailure("uid %d's busy loop never said ready" % OTHER_UID)
    expect_enter(suite, tool, "attack_evict_quiet", hog, "cpu_bound",
                 ENTER_WINDOWS + QUIET_WINDOWS, w0)
    st = tool.stats()
    evicted = int(st.get("procs_evicted", 0))
    # nobody's sleepers fill 15/16 (the rest is uid 0's), given up down to 3/4
    want = MAX_PROCS * 15 // 16 - MAX_PROCS * 3 // 4
    if evicted != want:
        raise TestFailure("the busy loop is tracked, but procs_evicted is %d, not %d: "
                          "hk_stats %s" % (evicted, want, st))
    err = tool.stderr_text()
    m = re.search(r"hk_procs is full \(%d processes, --max-procs\).*most entries: uid "
                  r"(\d+) \((\d+) of (\d+)\)" % MAX_PROCS, err)
    if not m or int(m.group(1)) != NOBODY_UID:
        raise TestFailure("no full-map line naming uid %d as holding most entries:\n%s" %
                          (NOBODY_UID, err))
    workload_alive(ctx, pop)
    ctx.record("attack_evict_quiet", True, "%d sleepers of nobody in a %d-entry hk_procs: "
               "uid %d's busy loop CPU-bound, %d quiet entries given up, %d process-windows "
               "untracked, uid %s named with %s entries" %
               (SLEEPERS, MAX_PROCS, OTHER_UID, evicted, int(st.get("procs_untracked", 0)),
                m.group(1), m.group(2)))


# nobody, in the cgroup: $1 processes that each wake every 100 ms
NAPPERS_SH = r'''
i=0
while [ $i -lt "$1" ]; do "$2" nap --every 100ms > /dev/null & i=$((i+1)); done
echo ready
wait
'''
NAPPERS = 300


def t_attack_reserve_root(suite, ctx):
    """Processes that run every window are never quiet: nobody's 300
    nappers would hold every entry of a 256-entry map. The last 1/16 is
    kept for uid 0's processes: root's busy loop is diagnosed."""
    cg, tool, pop = crowd(ctx, "reserve_root", ["sh", "-c", NAPPERS_SH, "nappers",
                                                str(NAPPERS), ctx.hkload])
    w0 = tool.wait_windows(QUIET_WINDOWS + 1)
    pids = cg.read("cgroup.procs").split()
    ctx.undo.append(lambda: wait_gone(pids))
    if int(tool.stats().get("procs_untracked", 0)) == 0:
        raise TestFailure("%d nappers beside a --max-procs %d tool, and hk_procs never "
                          "full: the attack did not happen" % (NAPPERS, MAX_PROCS))
    hog = ctx.workload("hog", IN_CG + [cg.path, ctx.hkload, "spin"], stdout=subprocess.PIPE)
    if read_line(hog, 10) != "ready":
        workload_alive(ctx, hog)
        raise TestFailure("root's busy loop never said ready")
    expect_enter(suite, tool, "attack_reserve_root", hog, "cpu_bound", ENTER_WINDOWS, w0)
    workload_alive(ctx, pop)
    st = tool.stats()
    ctx.record("attack_reserve_root", True, "%d nappers of nobody in a %d-entry hk_procs: "
               "root's busy loop CPU-bound (%d process-windows untracked, %d entries "
               "given up)" % (NAPPERS, MAX_PROCS, int(st.get("procs_untracked", 0)),
                              int(st.get("procs_evicted", 0))))


TESTS = [
    ("attack_evict_quiet", t_attack_evict_quiet, 60),
    ("attack_reserve_root", t_attack_reserve_root, 60),
]
