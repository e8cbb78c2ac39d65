# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Hiding from the kernel side's walks by nesting cgroups (security review,
finding 7): a user with a delegated cgroup subtree (systemd's user@UID
service has Delegate=) nests deeper than the walk reads.

- attack_filter_deep: a hog 40 levels below the --cgroup filter's cgroup
  (the filter looked 32 levels up) must be diagnosed;
- attack_memcg_deep: a leak 70 levels below a 400 MiB memory limit (the
  limit walk read 16 levels up) must be OOM risk against that limit, and
  the evidence must say how many levels in between were not read.

The subtree is delegated as systemd does it: the cgroup and its
cgroup.procs (and v1 tasks) belong to nobody; root puts the workload in
it, nobody nests below and moves itself down.
"""

import os
import subprocess

from hk_e2e import cgroups
from hk_e2e.attack import NOBODY_GID, NOBODY_UID, as_nobody
from hk_e2e.checks import expect_enter, fast_trend
from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL, LEAK_WINDOWS
from hk_e2e.procs import TestFailure, fmt_events, read_line, workload_alive
from hk_e2e.tool import Tool

MIB = 1 << 20
LIMIT = 400 * MIB
# 10 MiB/s: against 400 MiB the ETA is well under the 15 min horizon;
# against the machine's RAM it is not
LEAK = ["grow", "--step", "5M", "--every", "500ms"]

# nobody, in the delegated cgroup: nest $1 levels, move there, run the rest
NEST_SH = r'''
n=$1; shift
for i in $(seq "$n"); do mkdir d && cd d || exit 97; done
echo $$ > cgroup.procs || exit 98
exec "$@"
'''


def delegate(cg):
    """Give cg to nobody as systemd delegates a subtree."""
    os.chown(cg.path, NOBODY_UID, NOBODY_GID)
    for f in ("cgroup.procs", "tasks", "cgroup.subtree_control", "cgroup.threads"):
        p = os.path.join(cg.path, f)
        if os.path.exists(p):
            os.chown(p, NOBODY_UID, NOBODY_GID)


def remove_tree(path):
    """Kill what is in the subtree, then remove it deepest first (the test's
    own cgroup goes with cgroups.make's undo)."""
    for top, dirs, _ in os.walk(path, topdown=False):
        try:
            with open(os.path.join(top, "cgroup.procs")) as f:
                for pid in f.read().split():
                    try:
                        os.kill(int(pid), 9)
                    except ProcessLookupError:
                        pass
        except OSError:
            pass
    for top, dirs, _ in os.walk(path, topdown=False):
        for d in dirs:
            full = os.path.join(top, d)
            for _ in range(50):
                try:
                    os.rmdir(full)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    import time
                    time.sleep(0.1)


def nested(ctx, cg, levels, name, argv, **kw):
    """argv as nobody, levels cgroups below cg (root puts it in cg first)."""
    delegate(cg)
    ctx.undo.append(lambda: remove_tree(cg.path))
    script = as_nobody(["bash", "-c", NEST_SH, "nest", str(levels), *argv])
    return ctx.workload(name, ["sh", "-c", 'cd "$1" && echo $$ > cgroup.procs && shift && '
                               'exec "$@"', "run", cg.path, *script], **kw)


def t_attack_filter_deep(suite, ctx):
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    tool = Tool(ctx, "filter_deep", extra=["--cgroup", cgroups.path_of(cg), "-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    hog = nested(ctx, cg, 40, "hog", ["yes"], stdout=subprocess.DEVNULL)
    expect_enter(suite, tool, "attack_filter_deep", hog, "cpu_bound", ENTER_WINDOWS, w0)
    ctx.record("attack_filter_deep", True, "a hog 40 cgroup levels below the --cgroup "
               "filter is CPU-bound")


def t_attack_memcg_deep(suite, ctx):
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    cgroups.memory_limit(cg, LIMIT)
    tool = Tool(ctx, "memcg_deep", extra=fast_trend(ctx))
    tool.wait_ready()
    w0 = tool.windows()
    leak = nested(ctx, cg, 70, "leak", [ctx.hkload, *LEAK], stdout=subprocess.PIPE)
    if read_line(leak, 15) != "ready":
        workload_alive(ctx, leak)
        raise TestFailure("the leak did not start 70 levels down")
    found = tool.wait_event(lambda o: o.get("pid") == leak.pid and o.get("to") == "oom_risk",
                            LEAK_WINDOWS + 5, w0)
    evs = [o for _, o in tool.events() if o.get("pid") == leak.pid]
    if not found:
        raise TestFailure("a 10 MiB/s leak 70 levels below a 400 MiB limit never became "
                          "oom_risk:\n%s" % fmt_events(evs))
    o = found[1]
    # the cgroup at level 1, the leak at 71: read 71..40 up and 1..32 down
    if o.get("limit_kind") != "memcg" or o.get("limit_bytes") != LIMIT or \
            o.get("limit_levels_unread") != 7:
        raise TestFailure("want limit_kind memcg, limit_bytes %d, limit_levels_unread 7; "
                          "got:\n%s" % (LIMIT, fmt_events([o])))
    ctx.record("attack_memcg_deep", True, "oom_risk against the 400 MiB limit 70 levels up "
               "(ETA %s s), 7 levels unread said" % o.get("eta_s"))


TESTS = [
    ("attack_filter_deep", t_attack_filter_deep, 60),
    ("attack_memcg_deep", t_attack_memcg_deep, 90),
]
