# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The JSON lines: a hostile process name must still give valid JSON, and
every line of every run of the suite must be well-formed (so this module's
json_lines_valid runs last)."""

import json
import os
import shutil

from hk_e2e.checks import expect_enter, expect_exited, history
from hk_e2e.common import ENTER_WINDOWS, FAST_INTERVAL, LABELS, TIME_RE
from hk_e2e.procs import TestFailure, fmt_events
from hk_e2e.tool import Tool


def t_hostile_comm(suite, ctx):
    """A flagged process whose comm holds quotes, a backslash, a control byte
    and bytes that are not UTF-8: its lines must still be valid JSON."""
    name = b'y"\\\x01\xff\xc3(\xc3\xa9'          # y " \ ^A <ff> <c3>( é
    link = os.path.join(os.fsencode(suite.workdir), name)
    if not os.path.lexists(link):                       # a rerun finds it there
        os.symlink(os.fsencode(shutil.which("yes")), link)  # comm = the name exec'd
    tool = Tool(ctx, "hostile_comm", extra=["-i", FAST_INTERVAL])
    tool.wait_ready()
    w0 = tool.windows()
    p = ctx.workload("hostile", [link])
    expect_enter(suite, tool, "hostile_comm", p, "cpu_bound", ENTER_WINDOWS, w0)
    expect_exited(suite, tool, "hostile_comm", [p])
    bad = tool.bad_lines()
    if bad:
        raise TestFailure("invalid JSON for a hostile comm: %r" % (bad,))
    for o in history(tool, p.pid):
        c = o.get("comm")
        if not (isinstance(c, str) and c.startswith('y"\\\x01') and c.endswith("(\u00e9")):
            raise TestFailure("comm %r does not keep the valid parts of %r\n%s" %
                              (c, name, fmt_events([o])))
    ctx.record("json_hostile_comm", True, "comm %s" %
               json.dumps(history(tool, p.pid)[0]["comm"]))


# ==========================================================================
# JSON lines of every run
# ==========================================================================
def t_json_valid(suite, ctx):
    n = 0
    for tool in suite.all_tools:
        for txt, err in tool.bad_lines():
            raise TestFailure("%s run: %s: %r" % (tool.name, err, txt))
        for _, o in tool.events():
            n += 1
            problems = []
            # what the tool did about a transition (a profile, a freeze):
            # a line of its own, named by "event"
            if "event" in o:
                if o["event"] not in ("profile", "freeze"):
                    problems.append("event %r unknown" % o["event"])
                if not isinstance(o.get("pid"), int) or o["pid"] <= 0:
                    problems.append("pid")
                if problems:
                    raise TestFailure("%s run: bad fields (%s) in:\n%s" %
                                      (tool.name, ", ".join(problems), fmt_events([o])))
                continue
            if not isinstance(o.get("time"), str) or not TIME_RE.match(o["time"]):
                problems.append("time is not RFC 3339 with ms")
            if not isinstance(o.get("pid"), int) or o["pid"] <= 0:
                problems.append("pid")
            if not isinstance(o.get("comm"), str):
                problems.append("comm")
            if o.get("from") not in LABELS or o.get("to") not in LABELS:
                problems.append("from/to not a known label")
            if "cgroup" not in o or not (o["cgroup"] is None or isinstance(o["cgroup"], str)):
                problems.append("cgroup")
            for k in ("windows", "cpu_pct", "thread_cpu_pct", "thread_queued_pct",
                      "run_delay_pct", "thread_run_delay_pct", "throttled_pct",
                      "faults_per_s", "minor_faults_per_s", "major_faults_per_s",
                      "rss_bytes", "rss_anon_bytes", "rss_slope_bytes_per_s"):
                if not isinstance(o.get(k), (int, float)):
                    problems.append(k)
            if not isinstance(o.get("cgroup_truncated"), bool):
                problems.append("cgroup_truncated")
            # who it is: always there, "" when the path names none
            for k in ("unit", "container_id", "pod_uid", "quota_cgroup", "mem_high_cgroup"):
                if not isinstance(o.get(k), str):
                    problems.append(k)
            # what the thread that waited most asked for; steal/IRQ time
            for k in ("wait_nice", "wait_group_weight"):
                if type(o.get(k)) is not int:
                    problems.append(k)
            if not isinstance(o.get("wait_policy"), (str, int)):
                problems.append("wait_policy")
            for k in ("wait_group_idle", "victim_deprioritised"):
                if not isinstance(o.get(k), bool):
                    problems.append(k)
            if not isinstance(o.get("thread_cpu_lost_pct"), (int, float)):
                problems.append("thread_cpu_lost_pct")
            if o["faults_per_s"] != o["minor_faults_per_s"] + o["major_faults_per_s"]:
                problems.append("faults_per_s is not minor + major")
            for k in ("eta_s", "aggressor_pid", "victim_pid"):
                if k not in o:
                    problems.append(k + " missing")
            if problems:
                raise TestFailure("%s run: bad fields (%s) in:\n%s" %
                                  (tool.name, ", ".join(problems), fmt_events([o])))
    if n == 0:
        raise TestFailure("no JSON line at all was collected")
    ctx.record("json_lines_valid", True, "%d lines from %d runs" % (n, len(suite.all_tools)))


TESTS = [
    # name, function, hard timeout (s)[, rerun once when the machine was disturbed]
    ("json_hostile_comm", t_hostile_comm, 40, True),
    ("json_lines_valid", t_json_valid, 15),
]
