# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Who a process is (issue #17): a hog in a cgroup named like a systemd
unit gets that "unit" on its cpu_bound line and in `status --json`; a hog in
a docker-shaped scope of the v1 name=systemd hierarchy (a hybrid host whose
unified hierarchy holds it at its root) gets the container id from there.
And review finding 12: a hotspot-k in a PID namespace of its own says so
at start."""

import json
import os
import shutil
import subprocess

from hk_e2e import cgroups
from hk_e2e.checks import expect_enter, run_cli
from hk_e2e.common import ENTER_WINDOWS
from hk_e2e.procs import TestFailure, fmt_events, indent
from hk_e2e.tool import Tool

# a docker container id: 64 lowercase hex digits
CID = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"


def _mkdirs(ctx, root, rel):
    """root/rel made, each new directory removed at cleanup (innermost first)."""
    path = root
    for part in rel.strip("/").split("/"):
        path = os.path.join(path, part)
        if not os.path.isdir(path):
            os.mkdir(path)
            ctx.undo.append(cgroups.Cgroup(path, 2).remove)
    return cgroups.Cgroup(path, 2)


def t_attrib_unit(suite, ctx):
    root = cgroups.unified()
    v1_systemd = os.path.join(cgroups.ROOT, "systemd")
    if root is None:
        raise TestFailure("this host has no cgroup2 hierarchy")
    unit = "hk-e2e-%d.service" % os.getpid()
    # a slice at the root has no '-' (systemd nests "a-b.slice" in "a.slice"):
    # a unit counts only below slices systemd could have made
    svc = _mkdirs(ctx, root, "hke2e%d.slice/%s" % (os.getpid(), unit))
    cpus = sorted(os.sched_getaffinity(0))
    tool = Tool(ctx, "attrib_unit")
    tool.wait_ready()
    w0 = tool.windows()
    hog = ctx.workload("unit_hog", cgroups.run_in(
        svc, ["taskset", "-c", str(cpus[0]), ctx.hkload, "spin"]))
    docker = None
    if os.path.exists(os.path.join(v1_systemd, "cgroup.procs")) and root != cgroups.ROOT:
        # hybrid: the unified hierarchy keeps this one at the test's own
        # cgroup; name=systemd has the container's scope
        scope = _mkdirs(ctx, v1_systemd, "hke2e%d.slice/docker-%s.scope" %
                        (os.getpid(), CID))
        docker = ctx.workload("docker_hog", cgroups.run_in(
            scope, ["taskset", "-c", str(cpus[-1]), ctx.hkload, "spin"]))
    _, o = expect_enter(suite, tool, "attrib_unit", hog, "cpu_bound", ENTER_WINDOWS, w0)
    want = {"unit": unit, "container_id": "", "pod_uid": ""}
    got = {k: o.get(k) for k in want}
    if got != want:
        raise TestFailure("unit hog: got %r, want %r\n%s" % (got, want, fmt_events([o])))
    detail = "unit %s" % unit
    if docker is not None:
        _, o = expect_enter(suite, tool, "attrib_unit", docker, "cpu_bound", ENTER_WINDOWS,
                            w0)
        want = {"unit": "docker-%s.scope" % CID, "container_id": CID, "pod_uid": ""}
        got = {k: o.get(k) for k in want}
        if got != want:
            raise TestFailure("docker hog (name=systemd): got %r, want %r\n%s" %
                              (got, want, fmt_events([o])))
        detail += ", docker id from name=systemd"
    # the same in status's JSON rows
    rc, out, err, _ = run_cli(suite, [suite.tool, "status", "--json"], timeout=20)
    if rc != 0:
        raise TestFailure("status --json: exit %s\n%s" % (rc, indent(err)))
    rows = [r for r in json.loads(out)["flagged"] if r["pid"] == hog.pid]
    if not rows or rows[0].get("unit") != unit:
        raise TestFailure("status --json: row of pid %d: %r, want unit %s" %
                          (hog.pid, rows, unit))
    rc, out, err, _ = run_cli(suite, [suite.tool, "status"], timeout=20)
    row = [l for l in out.splitlines() if l.split()[:1] == [str(hog.pid)]]
    if not row or unit[:23] not in row[0]:
        raise TestFailure("status: row of pid %d: %r, want UNIT %s" % (hog.pid, row, unit))
    tool.stop()
    ctx.record("attrib_unit", True, detail)


def t_attrib_pidns(suite, ctx):
    """In a PID namespace of its own, the warning line at start, whole."""
    if not shutil.which("unshare"):
        raise TestFailure("no unshare(1)")
    want = ("hotspot-k: not in the host's PID namespace: the task iterator sees this "
            "namespace's processes only; run hotspot-k in the host's (docker run "
            "--pid=host, Kubernetes hostPID: true)")
    # --check-config-like runs stop before the warning: a real start, cut short
    rc, out, err, _ = run_cli(suite, ["timeout", "-s", "INT", "4", "unshare", "-p", "-f",
                                      "--mount-proc", suite.tool, "-i", "1s"], timeout=20)
    lines = err.splitlines()
    if want not in lines:
        raise TestFailure("no warning line %r; stderr:\n%s" % (want, indent(err)))
    # and none in the host's namespace
    rc, out, err2, _ = run_cli(suite, ["timeout", "-s", "INT", "3", suite.tool, "-i", "1s"],
                               timeout=20)
    if want in err2.splitlines():
        raise TestFailure("the warning in the host's PID namespace:\n%s" % indent(err2))
    ctx.record("attrib_pidns", True, "said once in a new PID namespace, not in the host's")


TESTS = [
    # name, function, hard timeout (s)[, rerun once when the machine was disturbed]
    ("attrib_unit", t_attrib_unit, 60, True),
    ("attrib_pidns", t_attrib_pidns, 30),
]
