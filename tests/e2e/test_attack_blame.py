# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The freeze aimed by shaping the host (security review 2, M2): nobody
lowers the host's headroom with memory the tool attributes to no process
(tmpfs), until root's steadily growing service, whose ETA is against the
host (no memory cgroup limit), falls under --freeze-on-oom.

- attack_blame_tmpfs: root's service grows 50 MiB/s in a memory cgroup
  with no limit; --freeze-on-oom is set to 85 % of its ETA against what
  the host has (MemAvailable at the start), so that its growth alone is
  never frozen: it enters oom_risk above the setting and is not. Then
  nobody writes 30 % of MemAvailable into a tmpfs: its ETA falls under the
  setting. The service must not be frozen: one line says the host's
  headroom fell more than its own growth explains (someone else's memory),
  and it is not said again;
- attack_blame_control: the same setting, a service growing 100 MiB/s (its
  ETA under the setting by itself): it is frozen, its growth explains the
  fall.

The host is shaped for real: 30 % of MemAvailable (~7 GiB on the lab's 24
GiB), in a tmpfs of the test's own (unmounted at the end, whatever
happens), allocated by fallocate(1) in ~2 s (dd took 15-25 s on a busy
machine); no test hook fakes the headroom. The 15 % margins
on either side of the setting are what other work on the host may take or
give back meanwhile. On the base binary the service is frozen ("result":
"frozen") by nobody's tmpfs.
"""

import os
import re
import subprocess

from hk_e2e import cgroups
from hk_e2e.attack import arena, as_nobody
from hk_e2e.procs import TestFailure, fmt_events, mono, read_line, workload_alive
from hk_e2e.tool import Tool
from test_memory import mem_available

MIB = 1 << 20
RATE = 50 * MIB                 # the service: 5 MiB every 100 ms
CONTROL_STEP = "10M"            # the control: 100 MiB/s
SETTING_SHARE = 0.85            # --freeze-on-oom, of its ETA at the start
FILL_SHARE = 0.30               # nobody's tmpfs, of MemAvailable
WHY = re.compile(r"the host's headroom \(MemAvailable\) fell (\d+) MiB in (\d+) s, and pid "
                 r"(\d+)'s own growth explains (\d+) MiB of it \((\d+) %, under 50 %\): "
                 r"someone else's memory$")


def blame_config(ctx):
    """OOM risk on 3 s of trend, at any ETA within an hour: what is tested
    is the freeze's decision, not the trend's patience."""
    conf = os.path.join(ctx.workdir, "%s.blame.conf" % ctx.name)
    with open(conf, "w") as f:
        f.write("[oom_risk]\nmin_trend = 3s\ntrend_span = 10s\nmin_growth = 16MiB\n"
                "eta_share = 0%\neta_horizon = 1h\n")
    return ["--config", conf]


def setting_s():
    """--freeze-on-oom: SETTING_SHARE of the service's ETA on the host now."""
    return int(mem_available() / RATE * SETTING_SHARE)


def service(ctx, name, step):
    """Root's service: a memory cgroup with no limit (the host binds), a
    freezer; growing `step` every 100 ms; its tool, filtered to it, freezing
    below setting_s(). (tool, first window, process, freezer, setting)"""
    cg = cgroups.make(ctx, "memory")
    fz = cgroups.freezer(ctx, cg) if cg else None
    if cg is None or fz is None:
        raise TestFailure("this host has no memory cgroup controller or no freezer")
    setting = setting_s()
    tool = Tool(ctx, name, extra=[*blame_config(ctx), "--freeze-on-oom", "%ds" % setting,
                                  "--cgroup", cgroups.path_of(cg)])
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload(name, cgroups.run_in_both(cg, fz, [ctx.hkload, "grow", "--step", step,
                                                        "--every", "100ms", "--max", "3G"]),
                     stdout=subprocess.PIPE)
    if read_line(p, 10) != "ready":
        workload_alive(ctx, p)
        raise TestFailure("%s did not start" % name)
    return tool, w0, p, fz, setting


def own_lines(tool, pid):
    return [o for _, o in tool.events() if o.get("pid") == pid]


def stale_tmpfs():
    """hk-blame tmpfs mounts a killed run left (no cleanup runs after a
    SIGKILL): each holds up to 30 % of the host's memory, which every later
    headroom test would count, and a mount below /tmp that outlives its
    directory."""
    with open("/proc/self/mountinfo") as f:
        return [l.split()[4] for l in f if " - tmpfs hk-blame " in l]


def tmpfs(ctx, size):
    """nobody's tmpfs of size bytes (as /dev/shm is), unmounted at the end;
    any left by an earlier run, killed, unmounted first."""
    for old in stale_tmpfs():
        subprocess.run(["umount", "-l", old], timeout=10)
        ctx.note("a tmpfs an earlier run left at %s unmounted" % old)
    path = arena(ctx, "shm", mode=0o1777)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%d,mode=1777" % size, "hk-blame",
                    path], check=True, timeout=10)
    ctx.undo.append(lambda: subprocess.run(["umount", "-l", path], timeout=10))
    return path


# ==========================================================================
def t_tmpfs(suite, ctx):
    fill = int(mem_available() * FILL_SHARE) // MIB
    shm = tmpfs(ctx, (fill + 64) * MIB)
    tool, w0, p, fz, setting = service(ctx, "service", "5M")
    # its own growth: oom_risk against the host, above the setting, not frozen
    found = tool.wait_event(lambda o: o.get("pid") == p.pid and o.get("to") == "oom_risk",
                            10, w0)
    if not found or found[1].get("limit_kind") != "host":
        raise TestFailure("the service did not enter oom_risk against the host within 10 "
                          "windows:\n%s" % fmt_events(own_lines(tool, p.pid)))
    eta0 = found[1].get("eta_s") or 0
    early = [o for o in own_lines(tool, p.pid) if o.get("event") == "freeze"]
    if eta0 <= setting or early:
        raise TestFailure("before any attack: ETA %d s, setting %d s (others took the host's "
                          "memory?):\n%s" % (eta0, setting, fmt_events(own_lines(tool, p.pid))))
    # nobody fills their tmpfs: the service's ETA falls under the setting
    w1, t_fill = tool.windows(), mono()
    fa = ctx.workload("fill", as_nobody(["fallocate", "-l", "%dM" % fill, "%s/pad" % shm]))
    found = tool.wait_event(lambda o: o.get("event") == "freeze" and o.get("pid") == p.pid,
                            8, w1)
    if fa.wait(timeout=20):
        raise TestFailure("nobody's fallocate of %d MiB in a tmpfs failed (exit %d)" %
                          (fill, fa.returncode))
    lines = own_lines(tool, p.pid)
    if not found:
        raise TestFailure("no freeze line for the service within 8 windows of nobody's %d "
                          "MiB (setting %d s, ETA %d s before):\n%s" %
                          (fill, setting, eta0, fmt_events(lines)))
    t, o = found
    state = fz.frozen()
    if o.get("result") != "refused" or state != "THAWED":
        raise TestFailure("nobody's %d MiB of tmpfs got root's service %s (%s, ETA %s s "
                          "under the setting %d s, %.1f s after the fill began):\n%s" %
                          (fill, state, o.get("result"), o.get("eta_s"), setting,
                           t - t_fill, fmt_events([o])))
    m = WHY.match(o.get("reason") or "")
    if not m:
        raise TestFailure("refused, but not for whose memory it was:\n%s" % fmt_events([o]))
    fell, span, pid, grew, pct = (int(x) for x in m.groups())
    if pid != p.pid or fell < fill // 2 or grew > fell // 2 or pct >= 50 or not 1 <= span <= 12:
        raise TestFailure("the numbers of the refusal are not the attack's (%d MiB filled, "
                          "%d MiB/s grown):\n%s" % (fill, RATE // MIB, fmt_events([o])))
    # said once for the episode: nothing more while it stays at risk
    tool.wait_windows(1)
    again = [o for o in own_lines(tool, p.pid) if o.get("event") == "freeze"]
    if len(again) != 1 or fz.frozen() != "THAWED":
        raise TestFailure("after the refusal, %s and:\n%s" % (fz.frozen(), fmt_events(again)))
    ctx.record("attack_blame_tmpfs", True, "ETA %d s above the setting %d s; nobody's %d MiB "
               "of tmpfs took it to %s s: refused, THAWED: %s" %
               (eta0, setting, fill, o.get("eta_s"), o.get("reason")))


def t_control(suite, ctx):
    tool, w0, p, fz, setting = service(ctx, "leak", CONTROL_STEP)
    found = tool.wait_event(lambda o: o.get("event") == "freeze" and o.get("pid") == p.pid,
                            10, w0)
    if not found:
        raise TestFailure("a 100 MiB/s leak against the host (setting %d s) got no freeze "
                          "line within 10 windows:\n%s" %
                          (setting, fmt_events(own_lines(tool, p.pid))))
    t, o = found
    risk = [e for e in own_lines(tool, p.pid) if e.get("to") == "oom_risk"]
    if not risk or risk[0].get("limit_kind") != "host":
        raise TestFailure("the leak's ETA is not against the host:\n%s" %
                          fmt_events(own_lines(tool, p.pid)))
    if o.get("result") != "frozen" or fz.frozen() != "FROZEN":
        raise TestFailure("a leak whose own growth is the host's fall was not frozen (%s):"
                          "\n%s" % (fz.frozen(), fmt_events([o])))
    ctx.record("attack_blame_control", True, "a 100 MiB/s leak against the host, ETA %s s "
               "under %d s: frozen" % (o.get("eta_s"), setting))


TESTS = [
    # name, function, hard timeout (s)[, rerun once when the machine was disturbed]
    ("attack_blame_tmpfs", t_tmpfs, 45, True),
    ("attack_blame_control", t_control, 40, True),
]
