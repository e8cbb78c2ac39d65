# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The flame graph's script on a real profile.

`hotspot-k profile PID` on profload (spin_here on-CPU, sleep_here and
fsync_here off-CPU, kernel frames under the last two), then the SVG's own
script, run in node on the parsed file (tests/unit/test_flame_svg_run.py):
a search for spin_here matches the share of the folded file's weight that
passes through spin_here, and a search for every kernel frame ("_[k]$",
which nest ten deep) the share of the stacks that hold one, each stack
counted once; a click on spin_here makes it the full width with main
dimmed below it; hovering it shows its title; Escape puts it back.
"""

import os
import re
import subprocess
import sys

from hk_e2e.procs import TestFailure

from test_profile import profile_profload, read_folded

RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit",
                   "test_flame_svg_run.py")
GRAPH_PX = 1180     # svg.c: 1200 less 10 px each side
MIN_FRAME_PX = 0.1


def play(svg, steps):
    """The state dump of test_flame_svg_run.py after each step, by step."""
    r = subprocess.run([sys.executable, RUN, svg] + steps, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    if r.returncode:
        raise TestFailure("the SVG's script on %s: exit %d: %s" %
                          (svg, r.returncode, (r.stderr or r.stdout)[-600:]))
    blocks, cur = {}, None
    for line in r.stdout.splitlines():
        if line.startswith("> "):
            cur = blocks.setdefault(line[2:], [])
        elif cur is not None:
            cur.append(line)
    return blocks


def matched_pct(block):
    for line in block:
        m = re.fullmatch(r"matched \[Matched: ([0-9.]+)%\]", line)
        if m:
            return float(m.group(1))
    raise TestFailure("no matched share: %s" % block[:4])


def t_profile_svg_script(suite, ctx):
    _, lines, r = profile_profload(ctx, "profsvg", "3s")
    if r.returncode != 0 or not lines or lines[-1].get("state") != "written":
        raise TestFailure("profile exited %d: %s %s" % (r.returncode, lines, r.stderr.decode()))
    done = lines[-1]
    stacks = read_folded(done["folded"])
    total = sum(c for _, c, _ in stacks)
    spin_pct = 100.0 * sum(c for fr, c, _ in stacks if "spin_here" in fr) / total
    kern = [(fr, c) for fr, c, _ in stacks if any(f.endswith("_[k]") for f in fr)]
    kern_pct = 100.0 * sum(c for _, c in kern) / total
    nested_pct = 100.0 * sum(c * sum(f.endswith("_[k]") for f in fr) for fr, c in kern) / total
    with open(done["svg"], encoding="utf-8") as f:
        m = re.search(r"(\d+) frames? narrower than", f.read())
    # what the SVG leaves out (each undrawn frame under 0.1 px of weight)
    # and the one decimal the share is shown with
    tol = 0.051 + (int(m.group(1)) if m else 0) * 100.0 * MIN_FRAME_PX / GRAPH_PX

    steps = ["hover:spin_here", "search:^spin_here$", "search:_\\[k\\]$", "click:spin_here",
             "escape"]
    b = play(done["svg"], steps)
    got = matched_pct(b["search:^spin_here$"])
    if abs(got - spin_pct) > tol:
        raise TestFailure("search spin_here: %s, the folded file says %.2f%% (+-%.2f)" %
                          (got, spin_pct, tol))
    got_k = matched_pct(b["search:_\\[k\\]$"])
    if abs(got_k - kern_pct) > tol:
        raise TestFailure("search _[k]$: %s%%, the folded file's stacks with a kernel frame "
                          "%.2f%% (+-%.2f; each kernel frame counted: %.2f%%)" %
                          (got_k, kern_pct, tol, nested_pct))
    hover = [x for x in b["hover:spin_here"] if x.startswith("details [")]
    if not hover or not re.fullmatch(r"details \[spin_here \([0-9.]+ ms, [0-9.]+%\)\]",
                                     hover[0]):
        raise TestFailure("hovering spin_here: %s" % hover)
    zoomed = b["click:spin_here"]
    spin = [x for x in zoomed if x.startswith("spin_here@")]
    main = [x for x in zoomed if x.startswith("main@")]
    if not spin or " x=10.00 w=1180.00 label=[spin_here]" not in spin[0] or \
       not main or not main[0].endswith("opacity=0.5") or "unzoom shown" not in zoomed:
        raise TestFailure("after a click on spin_here: %s; %s" % (spin[:1], main[:1]))
    hidden = sum(x.endswith(": hidden") for x in zoomed)
    if not hidden or any(x.endswith(": hidden") or "opacity" in x
                         for x in b["escape"]):
        raise TestFailure("zoomed: %d frames hidden; after Escape: %s" %
                          (hidden, [x for x in b["escape"] if "hidden" in x][:3]))
    ctx.record("profile_svg_script", True,
               "matched spin_here %.1f%% (folded %.2f%%), kernel frames %.1f%% (folded "
               "%.2f%%, %.2f%% if nested ones counted again); %d stacks, zoom hid %d frames" %
               (got, spin_pct, got_k, kern_pct, nested_pct, len(stacks), hidden))


TESTS = [
    # name, function, hard timeout (s), rerun once when the machine was disturbed
    ("profile_svg_script", t_profile_svg_script, 60, True),
]
