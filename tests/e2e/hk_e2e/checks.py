# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Helpers shared by the scenarios: transition histories, expectations,
the tool's own defaults, short commands, and the teardown check."""

import json
import os
import re
import subprocess
import time

from .bpf import bpf_ids_loaded
from .common import TEARDOWN_GRACE_S
from .procs import TestFailure, fmt_events, indent, kill_group, mono, spawn, workload_alive


def history(tool, pid):
    """The transitions of one PID, up to and including its first `exited`."""
    out = []
    for _, o in tool.events():
        # "event" lines say what the tool did (a profile, a freeze)
        if o.get("pid") == pid and "event" not in o:
            out.append(o)
            if o.get("to") == "exited":
                break
    return out


def check_history(tool, pid, who, allowed):
    """Every transition of pid chains from the previous one and is allowed."""
    evs = history(tool, pid)
    prev = "ok"
    for o in evs:
        pair = (o.get("from"), o.get("to"))
        if pair[0] != prev:
            raise TestFailure("%s (pid %d): transition %s -> %s does not follow the "
                              "previous label %s (a transition was lost)\n%s" %
                              (who, pid, pair[0], pair[1], prev, fmt_events(evs)))
        if pair not in allowed:
            raise TestFailure("%s (pid %d): false transition %s -> %s\n%s" %
                              (who, pid, pair[0], pair[1], fmt_events(evs)))
        prev = pair[1]
    return evs


def describe_entry(tool, pid):
    """The tool's current view of a process, for failure messages."""
    try:
        e = tool.proc_entry(pid)
    except Exception as ex:  # diagnostics only
        return "(unreadable: %s)" % ex
    if not e:
        try:
            st = tool.stats()
            return ("(not tracked; hk_stats: procs_untracked %s, exits_lost %s: when the "
                    "map is full, the machine runs more processes than --max-procs)" %
                    (st.get("procs_untracked"), st.get("exits_lost")))
        except Exception as ex:  # diagnostics only
            return "(not tracked; hk_stats unreadable: %s)" % ex
    ev = e.get("ev", {})
    keep = ("cpu_pct_x100", "thread_cpu_pct_x100", "thread_queued_pct_x100",
            "wait_pct_x100", "thread_wait_pct_x100", "throttled_pct_x100",
            "io_pct_x100", "thread_io_pct_x100", "io_tid",
            "minor_faults_per_s", "major_faults_per_s", "unexplained_faults_per_s",
            "rss_bytes", "rss_anon_bytes", "rss_growth_bytes_per_s",
            "rss_slope_bytes_per_s", "rss_net_growth_bytes", "rss_trend_ms",
            "rss_growing_ms", "trend_samples", "trend_grow_pct_x100", "limit_kind", "limit_bytes",
            "headroom_bytes", "eta_s", "aggressor_tgid", "victim_tgid")
    return json.dumps({"windows": e.get("windows"), "hyst": e.get("hyst"),
                       "ev": {k: ev.get(k) for k in keep}}, separators=(",", ":"))


def expect_enter(suite, tool, name, p, label, max_windows, w0, extra=None):
    """Wait for pid -> label within max_windows of w0; record the latency."""
    found = tool.wait_event(lambda o: o.get("pid") == p.pid and o.get("to") == label,
                            max_windows, w0)
    workload_alive(None, p)
    if not found:
        raise TestFailure("%s (pid %d) never became %s within %d windows; its "
                          "transitions:\n%s\n  its hk_procs entry now: %s" %
                          (p.hk_name, p.pid, label, max_windows,
                           fmt_events(history(tool, p.pid)), describe_entry(tool, p.pid)))
    t, o = found
    if extra:
        problem = extra(o)
        if problem:
            raise TestFailure("%s (pid %d) -> %s with wrong evidence: %s\n%s" %
                              (p.hk_name, p.pid, label, problem, fmt_events([o])))
    return t, o


def expect_exited(suite, tool, name, procs, max_windows=5):
    """Kill the workloads; each must get an `exited` transition."""
    w0 = tool.windows()
    tool.ctx.meter.sample()
    t_kill = mono()
    for p in procs:
        kill_group(p)
    worst = 0.0
    for p in procs:
        found = tool.wait_event(lambda o, pid=p.pid: o.get("pid") == pid and
                                o.get("to") == "exited", max_windows, w0)
        if not found:
            raise TestFailure("%s (pid %d) was killed but no `exited` transition came "
                              "within %d windows; its transitions:\n%s" %
                              (p.hk_name, p.pid, max_windows,
                               fmt_events(history(tool, p.pid))))
        worst = max(worst, found[0] - t_kill)
    return worst, tool.windows() - w0


DEFAULTS = {}                   # "section.key" -> number, from --generate-config


def load_defaults(tool):
    """The tool's own defaults, so that evidence checks follow them."""
    r = subprocess.run([tool, "--generate-config"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=10)
    section = ""
    for line in r.stdout.decode(errors="replace").splitlines():
        line = line.split("#", 1)[0].strip()
        m = re.match(r"^\[(\w+)\]$", line)
        if m:
            section = m.group(1)
            continue
        # counts (k, M) and shares (%) as numbers, durations in seconds
        m = re.match(r"^(\w+)\s*=\s*([0-9.]+)\s*(%|k|M|ms|s|m|h|d)?$", line)
        if m:
            v = float(m.group(2)) * {"k": 1e3, "M": 1e6, "ms": 1e-3, "m": 60, "h": 3600,
                                     "d": 86400}.get(m.group(3), 1)
            DEFAULTS["%s.%s" % (section, m.group(1))] = v


def dflt(key):
    if key not in DEFAULTS:
        raise TestFailure("--generate-config has no numeric `%s`" % key)
    return DEFAULTS[key]


def evidence(cond, msg):
    return None if cond else msg


def run_cli(suite, argv, timeout=10, **kw):
    """Run a short command in its own process group; the group dies with it."""
    t = mono()
    p = spawn(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise TestFailure("%s did not exit within %d s" % (" ".join(argv), timeout))
    finally:
        kill_group(p)               # e.g. a tool still traced by a killed strace
    return (p.returncode, out.decode(errors="replace"),
            err.decode(errors="replace"), mono() - t)


def check_summary_and_teardown(tool, progs, maps, why):
    err = tool.stderr_text()
    if not re.search(r"^hotspot-k: \d+ windows", err, re.M):
        raise TestFailure("after %s: no summary line on stderr:\n%s" % (why, indent(err)))
    t0 = mono()
    deadline = t0 + TEARDOWN_GRACE_S
    while True:
        lp, lm = bpf_ids_loaded()
        left_p, left_m = progs & lp, maps & lm
        if not left_p and not left_m:
            return mono() - t0
        if mono() > deadline:
            raise TestFailure("after %s and exit 0: %.0f s later the kernel still holds "
                              "its programs %s and maps %s" %
                              (why, TEARDOWN_GRACE_S, sorted(left_p), sorted(left_m)))
        time.sleep(0.1)


def fast_trend(ctx, more=""):
    """Flags for a tool that must flag a 10 MiB/s leak soon, where what is
    tested is what follows (a freeze's safety, a refusal), not the trend's
    patience: a 4 s trend and 16 MiB of growth, not 10 s and 64 MiB. The
    10 MiB/s leak then enters OOM risk after ~5 s instead of ~11 s. more:
    further [oom_risk] lines."""
    conf = os.path.join(ctx.workdir, "%s.fast-trend.conf" % ctx.name)
    with open(conf, "w") as f:
        f.write("[oom_risk]\nmin_trend = 4s\nmin_growth = 16MiB\n" + more)
    return ["--config", conf]
