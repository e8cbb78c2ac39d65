# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""[budget]: a budget a normal run exceeds (0.01 % of one CPU over 1 s) makes
the tool give up steps, each said in one line on stderr and counted in
hotspot_k_budget_* (scraped from --metrics-listen on a unix socket) and in
hk_config's interval; a reload that raises the budget puts it back to full
service, said and counted. ~7 s."""

import os
import signal
import time

from hk_e2e.common import FAST_INTERVAL
from hk_e2e.procs import TestFailure, indent, mono
from hk_e2e.tool import Tool
from test_metrics_listen import UnixHTTPConnection, get, samples
from test_service import stderr_line, write_config

MS = 1000 * 1000
DEGRADED = 'hotspot_k_budget_degraded{step="%s"}'
STEPS = 'hotspot_k_budget_steps_total{direction="%s"}'


def scrape(sock_path):
    status, _, body, _ = get(UnixHTTPConnection(sock_path, 2.0))
    if status != 200:
        raise TestFailure("GET /metrics on %s: %d" % (sock_path, status))
    return samples(body)


def wait_samples(tool, sock_path, pred, what, timeout_s=4.0):
    deadline = mono() + timeout_s
    got = {}
    while mono() < deadline:
        got = scrape(sock_path)
        if pred(got):
            return got
        tool.check_alive()
        time.sleep(0.1)
    raise TestFailure("%s: not scraped within %.0f s:\n%s" % (
        what, timeout_s, indent("\n".join("%s %s" % kv for kv in sorted(got.items())
                                          if "budget" in kv[0]))))


def t_budget(suite, ctx):
    conf = os.path.join(ctx.workdir, "budget.conf")
    sock_path = os.path.join(ctx.workdir, "budget.sock")
    write_config(conf, "[budget]\ncpu = 0.01%\nspan = 1s\n")
    tool = Tool(ctx, "budget", extra=["--config", conf, "-i", FAST_INTERVAL,
                                      "--metrics-listen", "unix:" + sock_path])
    tool.wait_ready()
    # over it from the first judgements: no profiles asked for, so the
    # records are read once a window first, then the windows double
    first = stderr_line(tool, "hotspot-k: over its CPU budget (", 6.0)
    if "budget 0.01%): records read once a window" not in first or \
            "(step 2 of 5" not in first:
        raise TestFailure("the first step's line: %r" % first)
    second = stderr_line(tool, "windows now 500ms (asked 250ms) (step 3 of 5", 6.0)
    interval = int(tool.config()["interval_ns"])
    if interval not in (500 * MS, 1000 * MS):
        raise TestFailure("hk_config's interval %d ns after %r" % (interval, second))
    got = wait_samples(tool, sock_path,
                       lambda s: s.get(DEGRADED % "interval_x2") == "1" and
                       s.get(DEGRADED % "ring_lazy") == "1" and
                       int(s.get(STEPS % "down", "0")) >= 2,
                       "two steps down in hotspot_k_budget_*")
    down = int(got[STEPS % "down"])

    # raised by a reload: full service again, at once
    write_config(conf, "[budget]\ncpu = 100%\nspan = 1s\n")
    tool.proc.send_signal(signal.SIGHUP)
    back = stderr_line(tool, "hotspot-k: reload: [budget] changed: back to full service", 5.0)
    reload_line = stderr_line(tool, "hotspot-k: reload: %s: " % conf, 5.0)
    if "budget.cpu 0.01% -> 100%" not in reload_line or "general.interval" in reload_line:
        raise TestFailure("the reload's diff, against the config as asked: %r" % reload_line)
    if int(tool.config()["interval_ns"]) != 250 * MS:
        raise TestFailure("hk_config's interval %s ns after %r" %
                          (tool.config()["interval_ns"], back))
    got = wait_samples(tool, sock_path,
                       lambda s: all(s.get(DEGRADED % st) == "0" for st in
                                     ("no_profiles", "ring_lazy", "interval_x2",
                                      "interval_x4", "no_hook")) and
                       int(s.get(STEPS % "up", "0")) >= down,
                       "full service again in hotspot_k_budget_*")
    rss = int(got["hotspot_k_own_rss_bytes"])
    if not 0 < rss <= 16 * 1024 * 1024:
        raise TestFailure("hotspot_k_own_rss_bytes %d, not within 16 MiB" % rss)
    ctx.record("budget", True, "0.01 %%: %r, then %r; reload to 100 %%: %r; "
               "%d steps down and back, RSS %.1f MiB" %
               (first.split("): ")[1][:40], second.split("): ")[1][:40],
                back[len("hotspot-k: "):], down, rss / 1048576.0))


TESTS = [
    # name, function, hard timeout (s)
    ("budget", t_budget, 30),
]
