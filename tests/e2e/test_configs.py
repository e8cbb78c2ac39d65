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

RHEL 9 (review kernel-2, finding 11): its 5.14 carries the BPF features
backported, and PSI is off unless booted with psi=1. As its release names
itself (HOTSPOT_K_TEST_RELEASE), walking as before 5.17 (HOTSPOT_K_AS_5_15:
iter, bounded loops), with no /proc/pressure/memory
(HOTSPOT_K_TEST_PSI_MEMORY), the tool is not refused by version: it loads,
says once that PSI is off, and a busy loop is CPU-bound.
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
RHEL9_RELEASE = "5.14.0-503.11.1.el9_5.x86_64"


def run_standin(suite, ctx, name, env):
    """The tool under env until a busy loop is CPU-bound; its stderr after SIGINT."""
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)      # the tool inherits the environment when spawned
    try:
        tool = Tool(ctx, name)
    finally:
        for k, v in old.items():
            if v is None:
                del os.environ[k]
            else:
                os.environ[k] = v
    tool.wait_ready(timeout_s=40.0)
    w0 = tool.windows()
    hog = ctx.workload("hog_" + name, [ctx.hkload, "spin"])
    expect_enter(suite, tool, name, hog, "cpu_bound", ENTER_WINDOWS, w0)
    kill_group(hog)
    rc = tool.stop(timeout_s=15.0)
    err = tool.stderr_text()
    if rc != 0:
        raise TestFailure("%s: exit %s after SIGINT; stderr:\n%s" % (name, rc, indent(err)))
    return err


def t_rhel9(suite, ctx):
    err = run_standin(suite, ctx, "rhel9", {
        "HOTSPOT_K_TEST_RELEASE": RHEL9_RELEASE, "HOTSPOT_K_AS_5_15": "1",
        "HOTSPOT_K_TEST_PSI_MEMORY": os.path.join(ctx.workdir, "no-pressure-memory")})
    psi = [l for l in err.splitlines() if "PSI" in l]
    if len(psi) != 1 or "psi=1" not in psi[0]:
        raise TestFailure("want one line saying PSI is off (boot with psi=1), got %d:\n%s" %
                          (len(psi), indent(err)))
    ctx.record("rhel9", True, "%s loads (iter, bounded loops), CPU-bound seen; said: %s" %
               (RHEL9_RELEASE, psi[0]))


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
        err = run_standin(suite, ctx, "standin_" + config, {
            "HOTSPOT_K_TEST_BTF": os.path.join(out, config + ".btf")})
        lines = [l for l in err.splitlines() if BLIND in l]
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
    ("rhel9", t_rhel9, 90, True),
]
