#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""deploy/npd/'s custom-plugin-monitor config, checked as node-problem-detector
would read it, and each rule's command run against the real binary.

NPD is not in Debian: NPD itself is not run. What is checked is what its
code does with the file (pkg/custompluginmonitor/types, read for the facts):
Go's encoding/json ignores a key it does not know, so a misspelt
"max_output_lenght" would silently fall back to 80: every key must be one
NPD reads. Validate(): plugin "custom", a rule's timeout at most the
global one, every permanent rule's condition among "conditions". Then each
rule's path (the binary given here in place of the image's path) and args
run as NPD runs them, within the rule's timeout: the check a known one (the
list comes from the binary's own usage error), one line on stdout, nothing
on stderr, and its exit status mapped as NPD maps it (0 False, 1 True, 2
and above Unknown), consistent across the rules: with no hotspot-k running,
up says so (True) and the others are Unknown.

    check_config.py --tool ./hotspot-k deploy/npd/hotspot-k-monitor.json

Exit 0 when every check holds; 1 with a line per failure.
"""

import argparse
import json
import os
import re
import subprocess
import sys

TOP = {"plugin", "pluginConfig", "source", "conditions", "rules", "metricsReporting"}
PLUGIN = {"invoke_interval", "timeout", "max_output_length", "concurrency",
          "enable_message_change_based_condition_update", "skip_initial_status"}
CONDITION = {"type", "reason", "message"}
RULE = {"type", "condition", "reason", "path", "args", "timeout", "invoke_interval"}
# Go's time.ParseDuration, as these files use it
DURATION = re.compile(r"^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$")
UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600}
NOT_RUNNING = "hotspot-k not running"

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL  " + msg)


def seconds(d, where):
    if not isinstance(d, str) or not DURATION.match(d):
        fail("%s: %r is not a Go duration" % (where, d))
        return None
    return sum(float(n) * UNIT_S[u] for n, _, u in re.findall(r"(\d+(\.\d+)?)(ns|us|ms|s|m|h)", d))


def no_dups(pairs):
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        fail("duplicate keys %s (Go keeps the last)" % dup)
    return dict(pairs)


def keys_known(obj, known, where):
    extra = sorted(set(obj) - known)
    if extra:
        fail("%s: keys NPD does not read (ignored silently): %s" % (where, extra))


def valid_checks(tool):
    """The --npd checks the binary knows, from its usage error."""
    r = subprocess.run([tool, "status", "--npd", "?"], capture_output=True, text=True,
                       timeout=10)
    m = re.match(r"^hotspot-k status: unknown --npd check '\?' \(([a-z, -]+)\)\n$", r.stdout)
    if r.returncode != 2 or not m:
        fail("status --npd ?: want exit 2 and the valid checks listed on stdout; exit %d, "
             "stdout %r, stderr %r" % (r.returncode, r.stdout, r.stderr))
        return []
    return m.group(1).split(", ")


def check_config(cfg):
    keys_known(cfg, TOP, "top level")
    if cfg.get("plugin") != "custom":
        fail("plugin %r: NPD supports \"custom\" only" % cfg.get("plugin"))
    pc = cfg.get("pluginConfig") or {}
    keys_known(pc, PLUGIN, "pluginConfig")
    interval = seconds(pc.get("invoke_interval", "30s"), "invoke_interval")
    timeout = seconds(pc.get("timeout", "5s"), "timeout")
    mol = pc.get("max_output_length", 80)
    if not isinstance(mol, int) or mol < 1:
        fail("max_output_length %r: a positive integer" % mol)
    conds = cfg.get("conditions") or []
    types = [c.get("type") for c in conds]
    for c in conds:
        keys_known(c, CONDITION, "condition %r" % c.get("type"))
        if not all(c.get(k) for k in CONDITION):
            fail("condition %r: type, reason and message all set" % c)
    if len(set(types)) != len(types):
        fail("conditions: a type twice: %s" % types)
    rules = cfg.get("rules") or []
    if not rules:
        fail("no rules")
    for i, r in enumerate(rules):
        where = "rule %d (%s)" % (i, r.get("condition") or r.get("reason"))
        keys_known(r, RULE, where)
        if r.get("type") not in ("permanent", "temporary"):
            fail("%s: type %r, want permanent or temporary" % (where, r.get("type")))
        if r.get("type") == "permanent" and r.get("condition") not in types:
            fail("%s: permanent problem without a default condition" % where)
        if not r.get("reason"):
            fail("%s: no reason" % where)
        if not os.path.isabs(r.get("path") or ""):
            fail("%s: path %r is not absolute" % (where, r.get("path")))
        t = seconds(r.get("timeout", pc.get("timeout", "5s")), where + " timeout")
        if t is not None and timeout is not None and t > timeout:
            fail("%s: timeout above the global %s" % (where, pc.get("timeout")))
        if t is not None and interval is not None and t >= interval:
            fail("%s: timeout not below invoke_interval" % where)
    return rules, mol, timeout


def npd_status(rc):
    """NPD's mapping of a plugin's exit status to a condition's status."""
    return {0: "False", 1: "True"}.get(rc, "Unknown")


def run_rules(tool, rules, mol, timeout, checks):
    answers = {}
    for r in rules:
        args = r.get("args") or []
        check = args[2] if len(args) == 3 else None
        where = "rule %s %s" % (r.get("condition") or r.get("reason"), " ".join(args))
        if args[:2] != ["status", "--npd"] or check not in checks:
            fail("%s: want args status --npd CHECK, CHECK one of %s" % (where, checks))
            continue
        try:
            p = subprocess.run([tool, *args], capture_output=True, text=True,
                               timeout=seconds(r.get("timeout", "5s"), where) or timeout)
        except subprocess.TimeoutExpired:
            fail("%s: ran past its timeout (NPD kills it: Unknown)" % where)
            continue
        line = p.stdout[:-1] if p.stdout.count("\n") == 1 and p.stdout.endswith("\n") else None
        if p.returncode == 2 or p.stderr or line is None or not line.isascii():
            fail("%s: exit %d, stdout %r, stderr %r: want one ASCII line on stdout, nothing "
                 "on stderr, and not exit 2 (run as root)" % (where, p.returncode, p.stdout,
                                                              p.stderr))
            continue
        answers[check] = (p.returncode, line)
        # as NPD shows it: trimmed, cut to max_output_length bytes
        print("ok    %-24s exit %d -> %-7s %s" % (r.get("condition") or r.get("reason"),
                                                  p.returncode, npd_status(p.returncode),
                                                  line.strip()[:mol]))
    missing = sorted(set(checks) - set(answers))
    if missing:
        fail("checks no rule runs: %s" % missing)
    up = answers.get("up")
    if not up:
        return
    for check, (rc, line) in answers.items():
        if check == "up":
            continue
        # no instance: up's problem, the others' Unknown; else they can tell
        want = (3,) if up[1].startswith(NOT_RUNNING) else (0, 1)
        if rc not in want:
            fail("%s exit %d beside up's %r: want %s" % (check, rc, up[1], want))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("config")
    a = ap.parse_args()
    with open(a.config) as f:
        cfg = json.load(f, object_pairs_hook=no_dups)
    rules, mol, timeout = check_config(cfg)
    checks = valid_checks(os.path.abspath(a.tool))
    run_rules(os.path.abspath(a.tool), rules, mol, timeout or 5, checks)
    if failures:
        print("npd config: %d check(s) failed" % len(failures))
        return 1
    print("npd config: %d rules over %s, as NPD reads them; each run against %s "
          "(NPD itself not run: not in Debian)" % (len(rules), ", ".join(checks), a.tool))
    return 0


if __name__ == "__main__":
    sys.exit(main())
