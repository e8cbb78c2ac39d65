#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""browser.py - the flame graph and the dashboard in Debian's headless
chromium (make browser-test), in one browser session:

    tests/browser/browser.py FLAME_SVG_BIN DOC_SAMPLES_BIN

1. flame.py: the SVGs that FLAME_SVG_BIN (build/flame-svg) writes from
   tests/browser/flame.folded, as a CPU and as a memory profile: a click on a frame, a search, Reset zoom,
   Escape, each as the browser's own input, and the DOM read after each.
2. dashboard.py: every query of deploy/grafana/hotspot-k.json in the
   Prometheus UI, over fixture series made from what DOC_SAMPLES_BIN
   (build/doc-samples) writes.

make runs it in a network namespace of its own (unshare --net, loopback
up): chromium reaches nothing but the prometheus this starts. A hard
timeout (SIGALRM, 120 s) and any failure end it the same way: chromium's
process group and prometheus killed by PID, the temporary directory
removed. Exit 0 when all pass, 1 with the reason otherwise.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import cdp
import dashboard
import flame

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT_S = 120
# wide enough for the SVG's 1200 px: no frame outside the viewport
WIDTH, HEIGHT = 1280, 900
# the two graphs a profile writes: its flags to flame-svg, compute's title
GRAPHS = [("cpu", [], "compute (6.0 ms, 50.00%)"),
          ("memory", ["--bytes"], "compute (6000 bytes, 50.00%)")]


class Timeout(Exception):
    pass


def on_alarm(sig, frame):
    raise Timeout("not done in %d s" % TIMEOUT_S)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: browser.py FLAME_SVG_BIN DOC_SAMPLES_BIN")
    for exe in (cdp.CHROMIUM, "prometheus", "promtool"):
        if not shutil.which(exe):
            sys.exit("browser-test: no %s (tools/deps.sh browser)" % exe)
    cdp.set_subreaper()
    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGTERM, on_alarm)
    signal.alarm(TIMEOUT_S)
    t0 = time.monotonic()
    tmp = tempfile.mkdtemp(prefix="hk-browser.")
    kids, b, rc = [], None, 1
    try:
        svgs = []
        for kind, args, title in GRAPHS:
            svgs.append((kind, os.path.join(tmp, kind + ".svg"), title))
            with open(os.path.join(HERE, "flame.folded")) as fin, open(svgs[-1][1], "w") as fout:
                subprocess.run([sys.argv[1]] + args, stdin=fin, stdout=fout, check=True, timeout=10)
        b = cdp.Browser(os.path.join(tmp, "profile"), os.path.join(tmp, "chromium.log"),
                        WIDTH, HEIGHT)
        b.open_page()
        b.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT,
               deviceScaleFactor=1, mobile=False)
        print("chromium: up in %.1f s" % (time.monotonic() - t0))
        for kind, svg, title in svgs:
            for line in flame.run(b, svg, title):
                print("flame graph (%s): %s" % (kind, line))
        for line in dashboard.run(b, tmp, sys.argv[2], kids):
            print("dashboard: " + line)
        rc = 0
    except (flame.Fail, dashboard.Fail, cdp.CdpError, Timeout,
            subprocess.SubprocessError) as e:
        print("browser-test: FAIL: %s" % e, file=sys.stderr)
        log = os.path.join(tmp, "chromium.log")
        if os.path.exists(log):
            with open(log) as f:
                tail = [l for l in f.read().splitlines() if "dbus" not in l][-10:]
            print("chromium's log (its last lines, dbus's left out):\n" + "\n".join(tail),
                  file=sys.stderr)
    finally:
        signal.alarm(0)
        if b:
            b.stop()
        for p in kids:
            p.kill()
            p.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    if rc == 0:
        print("browser-test: passed in %.1f s" % (time.monotonic() - t0))
    return rc


if __name__ == "__main__":
    sys.exit(main())
