# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The OOM post-mortem (#33): a leak killed in a 400 MiB memory cgroup that
the test removes at once after the kill (rmdir within 100 ms of seeing the
leak die) leaves exactly one record, STATE/oom/UNIX_S-PID.json, with >= 10 s
of trend (ETA and slope window by window), the memory cgroup's limit and
its memory.events oom_kill as the kernel had them at the kill, and the
growth profile's paths (--profile on, --profile-dir given); `status --json`
lists it. The tool has a state directory of its own (--postmortem-dir):
the other tools of its group record the same kill in theirs.

- postmortem_oom: fails on a tool that writes no record, or reads the
  cgroup's limits or counters after the kill (the cgroup is gone by then),
  or keeps no trend while the leak holds OOM risk.
"""

import glob
import json
import os
import subprocess
import time

from hk_e2e.checks import fast_trend
from hk_e2e.procs import TestFailure, indent, mono
from hk_e2e.tool import Tool
from test_oom_kill import MIB, grow_in, wait_killed

LIMIT = 400 * MIB


def remove_at_once(cg, p, timeout_s):
    """Wait for p to die (the OOM kill), then rmdir its cgroup: the seconds
    from its death seen to the rmdir done."""
    deadline = mono() + timeout_s
    while p.poll() is None:
        if mono() > deadline:
            raise TestFailure("the leak (pid %d) was not killed within %d s" %
                              (p.pid, timeout_s))
        time.sleep(0.005)
    died = mono()
    while True:
        try:
            os.rmdir(cg.path)
            return mono() - died
        except FileNotFoundError:
            return mono() - died
        except OSError:
            # a killed task lingers in cgroup.procs for a moment
            if mono() - died > 1.0:
                raise
            time.sleep(0.002)


def t_postmortem_oom(suite, ctx):
    state = os.path.join(ctx.workdir, "pm-state")
    prof = os.path.join(ctx.workdir, "pm-profiles")
    os.makedirs(prof, mode=0o700, exist_ok=True)
    tool = Tool(ctx, "postmortem", extra=fast_trend(ctx) + [
        "--postmortem-dir", state, "--profile", "60s", "--profile-dir", prof])
    tool.wait_ready()
    w0 = tool.windows()
    # 40 MiB, then 20 MiB/s into 400 MiB: OOM risk after ~5 s, the kill
    # ~18 s in (~12 s of windows in OOM risk)
    cg, leak = grow_in(ctx, "leak", LIMIT, ["--start", "40M", "--step", "5M",
                                            "--every", "250ms"])
    gone_s = remove_at_once(cg, leak, 60)
    if gone_s > 0.1:
        raise TestFailure("the cgroup was removed %.0f ms after the kill: the test "
                          "must do it within 100 ms" % (gone_s * 1000))
    wait_killed(tool, leak, w0, tool.windows() - w0 + 10)
    files, deadline = [], mono() + 5
    while not files and mono() < deadline:
        files = glob.glob(os.path.join(state, "oom", "*-%d.json" % leak.pid))
        time.sleep(0.1)
    if len(files) != 1:
        raise TestFailure("%d post-mortem files for pid %d, want 1: %s\nstderr:\n%s" %
                          (len(files), leak.pid, os.listdir(state) if os.path.isdir(state)
                           else "(no %s)" % state, indent(tool.stderr_text())))
    st = os.stat(files[0])
    with open(files[0]) as f:
        rec = json.load(f)
    bad = []
    if st.st_mode & 0o777 != 0o600:
        bad.append("mode %04o, want 0600" % (st.st_mode & 0o777))
    want = {"pid": leak.pid, "flagged": True, "tracked": True, "limit_bytes": LIMIT}
    for k, v in want.items():
        if rec.get(k) != v:
            bad.append("%s %r, want %r" % (k, rec.get(k), v))
    ev = rec.get("memory_events") or {}
    if not isinstance(ev.get("oom_kill"), int) or ev["oom_kill"] < 1:
        bad.append("memory_events %r: no oom_kill counted" % ev)
    trend = rec.get("trend") or []
    span_ms = trend[-1]["t_ms"] - trend[0]["t_ms"] if trend else 0
    if span_ms < 10000 or rec.get("trend_span_ms") != span_ms:
        bad.append("trend spans %d ms (trend_span_ms %r), want >= 10 s: %d samples" %
                   (span_ms, rec.get("trend_span_ms"), len(trend)))
    if not any(s.get("eta_s") is not None for s in trend):
        bad.append("no ETA in the trend")
    if not isinstance(rec.get("growth_bytes_per_s"), int) or rec["growth_bytes_per_s"] <= 0:
        bad.append("growth_bytes_per_s %r, want > 0" % rec.get("growth_bytes_per_s"))
    if not any(l.get("to") == "oom_risk" for l in rec.get("labels") or []):
        bad.append("labels %r: no entry into oom_risk" % rec.get("labels"))
    profile = rec.get("profile") or {}
    if not str(profile.get("svg", "")).startswith(prof + "/hotspot-k.%d." % leak.pid):
        bad.append("profile %r, want its files in %s" % (profile, prof))
    if bad:
        raise TestFailure("the post-mortem %s: %s\n%s" % (files[0], "; ".join(bad),
                                                           json.dumps(rec)[:3000]))
    out = subprocess.run([ctx.tool, "status", "--json", "--postmortem-dir", state],
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    try:
        listed = json.loads(out.stdout).get("postmortems") or []
    except ValueError:
        listed = []
    if not [x for x in listed if x.get("pid") == leak.pid and x.get("file") == files[0]
            and x.get("flagged") is True]:
        raise TestFailure("status --json does not list %s: %s %s" %
                          (files[0], out.stdout[:2000], out.stderr[:500]))
    tool.stop()
    ctx.record("postmortem_oom", True, "cgroup removed %.0f ms after the kill; one record, "
               "%.1f s of trend in %d samples, limit %d MiB, oom_kill %d, profile %s" %
               (gone_s * 1000, span_ms / 1000.0, len(trend), LIMIT // MIB, ev["oom_kill"],
                os.path.basename(profile["svg"])))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("postmortem_oom", t_postmortem_oom, 90, True),
]
