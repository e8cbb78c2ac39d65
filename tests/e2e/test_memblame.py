# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Memory-pressure blame (issue #33): under one parent memory limit, a
steady service stalled in reclaim by a leak beside it names the leak; a
page-cache streamer in the same parent is never named.

- leak_blame: a 128 MiB parent memory cgroup, zram swap; in three children:
  a service touching its 80 MiB working set at 20 MiB/s (alone under the
  limit, it never waits), a page-cache writer at 32 MiB/s over a 256 MiB
  file, and, once the service is seen OK, a leak at 32 MiB/s. The leak fills
  the limit in ~2 s and goes on in swap, taking the service's pages with
  it: the service's touches become swap-ins, and its transition into
  Mem-thrashing names the leak with >= 80 % of the growers' growth; the
  writer is named in no event.
"""

import os

from hk_e2e import cgroups
from hk_e2e.common import ENTER_WINDOWS
from hk_e2e.procs import Disturbed, TestFailure, fmt_events
from hk_e2e.tool import Tool
from test_memory import memcg
from test_memtruth import memload, start, status, swap_or_skip

MIB = 1 << 20
GIB = 1 << 30
MIN_SHARE_PCT = 80.0


def child(ctx, parent, name):
    """A memory cgroup under parent, removed at cleanup (before parent)."""
    path = os.path.join(parent.path, name)
    os.mkdir(path)
    cg = cgroups.Cgroup(path, parent.version)
    ctx.undo.append(cg.remove)
    return cg


def named(o):
    return [g.get("pid") for g in (o.get("growers") or [])]


def t_leak_blame(suite, ctx):
    limit = 128 * MIB
    dev = swap_or_skip(ctx, "leak_blame", 1 * GIB)
    if dev is None:
        return
    parent = memcg(ctx, limit)
    svc_cg, stream_cg, leak_cg = (child(ctx, parent, n) for n in ("svc", "stream", "leak"))
    tool = Tool(ctx, "blame")
    tool.wait_ready()
    data = os.path.join(ctx.workdir, "blame-stream.dat")
    ctx.undo.append(lambda: os.path.exists(data) and os.unlink(data))
    svc, _ = start(ctx, "service", cgroups.run_in(svc_cg, [memload(ctx), "service", "--size",
                                                            "80M", "--rate", "20M"]))
    stream = ctx.workload("stream", cgroups.run_in(stream_cg, [ctx.hkload, "write", "--file",
                                                              data, "--rate", "32M", "--wrap",
                                                              "256M"]))
    # the premise: alone beside the streamer, the service does not stall
    w0 = tool.windows()
    tool.wait_windows(3, since=w0)
    early = [o for _, o in tool.events() if o.get("pid") == svc.pid]
    if early:
        raise Disturbed("the service changed label before the leak started:\n%s" %
                        fmt_events(early))
    # ... and the writer's page cache fills the room the service leaves
    st = stream_cg.stat()
    cache = st.get("total_cache", st.get("cache", st.get("file", 0)))
    if cache < 16 * MIB:
        raise Disturbed("the writer holds %d MiB of page cache before the leak: the test "
                        "does not test what it means to" % (cache >> 20))
    leak, t_leak = start(ctx, "leak", cgroups.run_in(leak_cg, [memload(ctx), "leak", "--step",
                                                               "8M", "--max", "768M"]))
    w1 = tool.windows()
    found = tool.wait_event(lambda o: o.get("pid") == svc.pid and
                            o.get("to") in ("mem_thrashing", "mem_throttled"),
                            ENTER_WINDOWS, w1)
    evs = [o for _, o in tool.events()]
    premise = "service VmSwap %d MiB, leak VmSwap %d MiB" % (
        status(svc.pid).get("VmSwap", 0) >> 20, status(leak.pid).get("VmSwap", 0) >> 20)
    if not found:
        if status(svc.pid).get("VmSwap", 0) < 8 * MIB:
            raise Disturbed("%s: the leak did not push the service out, the test does not "
                            "test what it means to" % premise)
        raise TestFailure("the service never stalled within %d windows (%s):\n%s" %
                          (ENTER_WINDOWS, premise, fmt_events(evs)))
    t, o = found
    growers = o.get("growers")
    if not growers or growers[0].get("pid") != leak.pid or \
            (growers[0].get("share_pct") or 0) < MIN_SHARE_PCT:
        raise TestFailure("the service's stall names %r, want the leak %d first with >= "
                          "%g %% (%s):\n%s" % (growers, leak.pid, MIN_SHARE_PCT, premise,
                                              fmt_events([o])))
    blamed_stream = [e for e in evs if stream.pid in named(e)]
    if blamed_stream:
        raise TestFailure("the page-cache writer %d named as a grower:\n%s" %
                          (stream.pid, fmt_events(blamed_stream)))
    ctx.detected("leak_blame", t - t_leak, tool.windows() - w1)
    ctx.record("leak_blame", True, "the service's %s names the leak with %s %% of %d MiB "
               "(%s; the writer's page cache %d MiB before the leak, never named)" %
               (o.get("to"), growers[0].get("share_pct"),
                (o.get("limit_growth_bytes") or 0) >> 20, premise, cache >> 20))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("leak_blame", t_leak_blame, 45, True),
]
