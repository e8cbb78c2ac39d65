# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Kernels built without an optional config: degrade, never fail (review
kernel-2, finding 3).

For each stand-in of this kernel's BTF that build/standin-test writes
(tests/bpf-prog-test/btf_standin.h: CONFIG_MEMCG, CONFIG_FAIR_GROUP_SCHED,
CONFIG_CGROUP_SCHED, CONFIG_SMP compiled out; an rss_stat layout this build
does not read), the tool relocates against it (HOTSPOT_K_TEST_BTF) and
runs its real walk on this host:
- it loads and closes windows;
- it says once, at start, what it cannot see, naming the config (nothing
  for CONFIG_SMP: on one CPU the task on it is the current one);
- the rest works: a busy loop started after it is CPU-bound;
- SIGINT: exit 0.
"""

import os
import subprocess

from hk_e2e.checks import expect_enter
from hk_e2e.common import ENTER_WINDOWS
from hk_e2e.procs import TestFailure, indent, kill_group
from hk_e2e.tool import Tool

# stand-in: what the start line must name (None: no such line)
STANDINS = (
    ("CONFIG_MEMCG", "CONFIG_MEMCG"),
    ("CONFIG_FAIR_GROUP_SCHED", "CONFIG_FAIR_GROUP_SCHED"),
    ("CONFIG_CGROUP_SCHED", "CONFIG_CGROUP_SCHED"),
    ("CONFIG_SMP", None),
    ("rss_stat", "rss_stat"),
)
BLIND = "not seen on this kernel: "


def t_configs_standin(suite, ctx):
    writer = os.path.join(ctx.workdir, "standin-test")
    if not os.access(writer, os.X_OK):
        raise TestFailure("no standin-test beside hkload (make build/standin-test)")
    out = os.path.join(ctx.workdir, "standin")
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([writer, "-w", out], capture_output=True, timeout=60)
    if r.returncode:
        raise TestFailure("standin-test -w: %s" % r.stderr.decode(errors="replace"))
    done = []
    for config, says in STANDINS:
        # the tool inherits the environment when it is spawned
        os.environ["HOTSPOT_K_TEST_BTF"] = os.path.join(out, config + ".btf")
        try:
            tool = Tool(ctx, "standin_" + config)
        finally:
            del os.environ["HOTSPOT_K_TEST_BTF"]
        tool.wait_ready(timeout_s=40.0)
        w0 = tool.windows()
        hog = ctx.workload("hog_" + config, [ctx.hkload, "spin"])
        expect_enter(suite, tool, "standin_" + config, hog, "cpu_bound", ENTER_WINDOWS, w0)
        kill_group(hog)
        rc = tool.stop(timeout_s=15.0)
        err = tool.stderr_text()
        lines = [l for l in err.splitlines() if BLIND in l]
        if rc != 0:
            raise TestFailure("%s=n: exit %s after SIGINT; stderr:\n%s" %
                              (config, rc, indent(err)))
        if says is None and lines:
            raise TestFailure("%s=n: said %r; it sees everything" % (config, lines))
        if says is not None and (len(lines) != 1 or says not in lines[0]):
            raise TestFailure("%s=n: want one line naming %s, got %d:\n%s" %
                              (config, says, len(lines), indent("\n".join(lines))))
        done.append(config)
    ctx.record("configs_standin", True, "loaded, CPU-bound seen, said once: %s" %
               ", ".join(done))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("configs_standin", t_configs_standin, 240, True),
]
