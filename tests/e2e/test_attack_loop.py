# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Attacks on the tool's event loop and on its lines (security review 2,
findings M1, M4 and L7), by nobody with a delegated memory cgroup subtree.

- attack_oom_loop (M1, L7): nobody makes 5 000 empty memory cgroups and a
  memory cgroup 20 levels deep with a 16 MiB limit, and OOM-kills tiny
  processes there in 4 loops. The tool looked for each kill's memory cgroup
  by walking the hierarchy, 16 levels deep, in its event loop: every kill
  cost a walk of every cgroup, the loop fell behind and took a whole CPU.
  Root's busy loop, started while the kills go on, must get its cpu_bound
  line within the usual windows; the kills' lines must name the deep
  cgroup by its path; the tool must stay under a third of a CPU. And
  nobody's lines are bounded (L7): at most 20 in the interval (10 s), then
  a line says they are held back; the kernel's count of kills is taken
  from the cgroup, to show there were more.
- attack_oom_loop_unit (M1): the same, the tool with the shipped unit's
  capabilities only (CAP_BPF, CAP_PERFMON): no file handles, so each
  kill's cgroup is searched for by name, within a budget per kill and per
  second, once per id in 10 s; the lines say ".../d", and are bounded as
  those of an unknown owner.
- attack_json_line_max (M4): nobody's busy loop 16 cgroup levels deep, each
  name 250 control bytes (\\x01: 6 bytes each in JSON): its JSON line went
  to ~25 KiB, and a journald stream line past LineMax (48 KiB) is split,
  the rest read as a new entry at a priority the attacker chose. Every
  line must stay within 16 KiB (HK_FORMAT_LINE_MAX), parse, and the
  cpu_bound line say the path was cut.

On the base binary each fails: the kills' lines say ".../d", the tool takes
~85 % of a CPU and every kill makes a line; the line is 25 739 bytes.
"""

import os
import subprocess
import time

from hk_e2e import cgroups
from hk_e2e.attack import NOBODY_UID, as_nobody
from hk_e2e.checks import history
from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL, FAST_INTERVAL_S
from hk_e2e.procs import TestFailure, fmt_events, indent, mono, workload_alive
from hk_e2e.tool import Tool
from test_attack_kernel import delegate, remove_tree

LINE_MAX = 16384                # HK_FORMAT_LINE_MAX
LINES = 20                      # HK_LINELIMIT_LINES: a user's lines an interval (10 s)
OWNER_UNKNOWN = -2              # HK_LINELIMIT_OWNER_UNKNOWN
WIDE = 5000                     # empty cgroups beside the OOM loop's
DEEP = 18                       # levels below cg/deep: 20 below the mount
BUSY = ["sh", "-c", "while :; do :; done"]

# nobody, in the delegated cgroup ($PWD): WIDE empty cgroups, a chain DEEP
# levels deep with a 16 MiB limit, then OOM kills there in a loop
OOM_LOOP_SH = r'''
wide=$1 deep=$2 hkload=$3
mkdir wide && (cd wide && eval "mkdir c{1..$wide}") || exit 96
p=deep; for i in $(seq "$deep"); do p=$p/d; done
mkdir -p "$p" && cd "$p" || exit 97
echo 0 > memory.swappiness 2>/dev/null
echo 16M > memory.limit_in_bytes 2>/dev/null || echo 16M > memory.max || exit 98
echo $$ > cgroup.procs || exit 99
echo ready
for j in 1 2 3 4; do
	(while :; do "$hkload" grow --start 64M >/dev/null 2>&1; done) &
done
wait
'''

# nobody: nest 16 levels of 250 \x01 bytes each, move there, spin
HOSTILE_SH = r'''
name=$(printf '\001%.0s' $(seq 250))
for i in $(seq 16); do mkdir "$name" && cd "$name" || exit 97; done
echo $$ > cgroup.procs || exit 98
exec sh -c 'while :; do :; done'
'''


def delegated(ctx, name_hint):
    """A memory cgroup of the test's, given to nobody (as systemd delegates)."""
    cg = cgroups.make(ctx, "memory")
    if cg is None:
        raise TestFailure("no memory cgroup hierarchy on this host")
    delegate(cg)
    ctx.undo.append(lambda: remove_tree(cg.path))
    return cg


def in_cgroup(cg, script, *args):
    """script run by nobody, from the delegated cgroup cg (root puts it there)."""
    return ["sh", "-c", 'cd "$1" && echo $$ > cgroup.procs && shift && exec "$@"', "run",
            cg.path, *as_nobody(["bash", "-c", script, "attack", *map(str, args)])]


def cpu_ticks(pid):
    """utime + stime of pid, in clock ticks."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def start_oom_loop(ctx, cg):
    loop = ctx.workload("oom_loop", in_cgroup(cg, OOM_LOOP_SH, WIDE, DEEP, ctx.hkload),
                        stdout=subprocess.PIPE)
    line = loop.stdout.readline().decode().strip()
    if line != "ready":
        workload_alive(ctx, loop)
        raise TestFailure("the OOM loop did not start (said %r, rc %r)" % (line, loop.poll()))
    return loop


def oom_kills(path):
    """The kernel's count of OOM kills in the memory cgroup at path (v1, v2)."""
    for name in ("memory.oom_control", "memory.events"):
        try:
            with open(os.path.join(path, name)) as f:
                for line in f:
                    k, _, v = line.partition(" ")
                    if k == "oom_kill":
                        return int(v)
        except OSError:
            continue
    return 0


def unit_caps(ctx):
    """The tool as the shipped unit runs it: root, its capabilities bounded
    to CAP_BPF and CAP_PERFMON (no CAP_DAC_READ_SEARCH: no file handles)."""
    wrapper = os.path.join(ctx.workdir, "unit-caps")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nexec setpriv --bounding-set=-all,+bpf,+perfmon --inh-caps=-all '
                '-- "%s" "$@"\n' % ctx.tool)
    os.chmod(wrapper, 0o755)
    ctx.tool = wrapper


def oom_loop(suite, ctx, name, by_handle):
    cg = delegated(ctx, "oom_loop")
    if not by_handle:
        unit_caps(ctx)
    tool = Tool(ctx, name, extra=["-i", FAST_INTERVAL])
    tool.wait_ready()
    start_oom_loop(ctx, cg)
    deep = cgroups.path_of(cg) + "/deep" + "/d" * DEEP
    deep_dir = os.path.join(cg.path, "deep" + "/d" * DEEP)
    # the kills go on for a second before root's loop starts, and then
    hz = os.sysconf("SC_CLK_TCK")
    c0, t0, k0 = cpu_ticks(tool.proc.pid), mono(), oom_kills(deep_dir)
    time.sleep(1.0)
    w0 = tool.windows()
    hog = ctx.workload("hog", BUSY)
    found = tool.wait_event(lambda o: o.get("pid") == hog.pid and o.get("to") == "cpu_bound",
                            ENTER_WINDOWS, w0)
    # kills enough to pass a user's lines an interval (within it: 10 s)
    while oom_kills(deep_dir) - k0 < LINES + 10 and mono() - t0 < 6.0:
        time.sleep(0.2)
    took = mono() - t0
    cpu_pct = 100.0 * (cpu_ticks(tool.proc.pid) - c0) / hz / took
    killed = oom_kills(deep_dir) - k0
    tool.wait_windows(2)
    evs = [o for _, o in tool.events()]
    kills = [o for o in evs if o.get("to") == "oom_killed" and o.get("oom_memcg_id")]
    # the owner of a cgroup not found is not known: its kills bounded together
    held_uid = NOBODY_UID if by_handle else OWNER_UNKNOWN
    held = [o for o in evs if o.get("event") == "lines_held" and o.get("uid") == held_uid]
    if killed < LINES + 10:
        raise TestFailure("the kernel OOM-killed %d processes in %.1f s: too few to judge "
                          "the tool's lines" % (killed, took))
    bad = []
    # M1: nothing the attacker does holds the loop
    if not found:
        bad.append("root's busy loop (pid %d) got no cpu_bound line within %d windows "
                   "while nobody's OOM loop ran" % (hog.pid, ENTER_WINDOWS))
    if cpu_pct > 33.0:
        bad.append("the tool used %.0f %% of a CPU" % cpu_pct)
    # without file handles, the search stops at 16 levels: the name alone
    wrong = [o for o in kills if o.get("oom_memcg") != (deep if by_handle else ".../d")]
    if wrong:
        bad.append("%d of %d kill lines do not name the memory cgroup %s (%r)" %
                   (len(wrong), len(kills), deep, wrong[0].get("oom_memcg")))
    # L7: nobody's lines bounded in the interval, and said to be
    if len(kills) > LINES:
        bad.append("%d kill lines of nobody's in %.1f s, want at most %d an interval" %
                   (len(kills), took, LINES))
    if not held:
        bad.append("no line says nobody's lines are held back")
    if bad:
        raise TestFailure("%d OOM kills in %.1f s (%d kill lines, the tool at %.0f %% of a "
                          "CPU):\n    %s\n%s" %
                          (killed, took, len(kills), cpu_pct, "\n    ".join(bad),
                           fmt_events(history(tool, hog.pid))))
    ctx.record("attack_" + name, True, "%d OOM kills in %.1f s: root's loop cpu_bound "
               "%.1f s after its start; %d kill lines (%s), then held back and said; the "
               "tool at %.0f %% of a CPU" %
               (killed, took, found[0] - hog.hk_started, len(kills),
                "by path" if by_handle else "by name: searched within budget", cpu_pct))


def t_attack_oom_loop(suite, ctx):
    oom_loop(suite, ctx, "oom_loop", True)


def t_attack_oom_loop_unit(suite, ctx):
    oom_loop(suite, ctx, "oom_loop_unit", False)


def t_attack_json_line_max(suite, ctx):
    cg = delegated(ctx, "line_max")
    tool = Tool(ctx, "line_max", extra=["-i", FAST_INTERVAL], journal=True)
    tool.wait_ready()
    w0 = tool.windows()
    spin = ctx.workload("hostile", in_cgroup(cg, HOSTILE_SH))
    found = tool.wait_event(lambda o: o.get("pid") == spin.pid and o.get("to") == "cpu_bound",
                            ENTER_WINDOWS, w0)
    with tool.cond:
        lines = list(tool.lines)
    long_lines = [(len(txt.encode()), err) for _, txt, _, err in lines
                  if len(txt.encode()) + 1 > LINE_MAX or err]
    if long_lines:
        raise TestFailure("lines over %d bytes or not JSON (length, error): %s" %
                          (LINE_MAX, long_lines[:5]))
    if not found:
        workload_alive(ctx, spin)
        raise TestFailure("nobody's busy loop (pid %d) got no cpu_bound line within %d "
                          "windows:\n%s" % (spin.pid, ENTER_WINDOWS,
                                            fmt_events(history(tool, spin.pid))))
    o = found[1]
    path = o.get("cgroup") or ""
    if not o.get("cgroup_truncated") or not path.startswith(cgroups.path_of(cg) + "/\x01"):
        raise TestFailure("the line's cgroup %r (truncated %r): want the test's cgroup, "
                          "then \\x01 bytes, cut" % (path[:80], o.get("cgroup_truncated")))
    longest = max(len(txt.encode()) for _, txt, _, _ in lines)
    ctx.record("attack_json_line_max", True, "a path of 16 x 250 control bytes: the "
               "longest line %d bytes (limit %d), parsed, the cgroup cut to %d characters" %
               (longest, LINE_MAX, len(path)))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("attack_oom_loop", t_attack_oom_loop, 60, True),
    ("attack_oom_loop_unit", t_attack_oom_loop_unit, 60, True),
    ("attack_json_line_max", t_attack_json_line_max, 45, True),
]
