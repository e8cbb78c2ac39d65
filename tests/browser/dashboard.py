# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""dashboard.py - every query of the Grafana dashboard
(deploy/grafana/hotspot-k.json) in a browser: Debian's prometheus (2.42,
its classic web UI, the one Debian ships) started on loopback over a TSDB
of its own, and each query put in the UI's graph page in chromium, as a
panel draws it: range queries (Grafana's time series and stat panels) on
the Graph tab, drawn as lines by the page's rickshaw/d3; instant ones
(its tables) on the Console tab, a row per series.

The data: the Prometheus file the tool's own code writes (build/doc-samples:
every family, one oom_risk process flagged), made into the fixture series
of tests/prometheus/dashboard_check.py (40 minutes at 1 m, counters
rising, a process of every label), written as OpenMetrics with
timestamps up to now and made a TSDB block by `promtool tsdb
create-blocks-from openmetrics`; prometheus evaluates
deploy/prometheus/hotspot-k.rules.yml over it every second (the
dashboard reads a recorded series). Grafana's variables are replaced as
dashboard_check.py replaces them ($node by .*).

Each query must come back with no error and at least one series, drawn:
a console row that is not "no data" (the labels a group_left joins
in, in the rows), or a line in the graph's SVG with a point per 14 s step over
35 minutes at least and a legend entry per series. What this
does not prove: Grafana's own rendering (panels, legends, units, the
$node picker); Grafana is not in Debian.
"""

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "prometheus"))
import dashboard_check  # noqa: E402

DASHBOARD = os.path.join(ROOT, "deploy", "grafana", "hotspot-k.json")
RULES = os.path.join(ROOT, "deploy", "prometheus", "hotspot-k.rules.yml")
STEP_S = 60
PAGE_GRAPHS = 10
# a range query over the last hour goes at 14 s steps (the page's
# resolution: 3600 / 250): 35 of the fixture's 40 minutes at least, the
# first 5 left to the rates' and increases' windows
MIN_POINTS = 35 * STEP_S // 14
VALUES = re.compile(r"^(-?(?:[0-9.]+(?:e[-+]?\d+)?|inf))(?:\+(\d+))?x(\d+)$")

# each graph of the page: its tab, error, stats, rows, drawn lines, legend
READ_JS = r"""
(function () {
  return Array.prototype.map.call(document.querySelectorAll(".graph_wrapper"), function (c) {
    var rows = c.querySelectorAll(".console_table tbody tr");
    var paths = c.querySelectorAll(".graph_area svg path.path");
    var err = c.querySelector(".error");
    return {
      expr: c.querySelector("textarea[name=expr]").value,
      tab: c.querySelector(".nav-tabs .nav-link.active") ?
        c.querySelector(".nav-tabs .nav-link.active").textContent.trim() : "",
      error: err && err.style.display !== "none" ? err.textContent : "",
      stats: c.querySelector(".eval_stats").textContent,
      rows: Array.prototype.map.call(rows, function (r) { return r.textContent; }),
      lines: Array.prototype.map.call(paths, function (p) {
        return (p.getAttribute("d") || "").split(/[ML]/).filter(function (s) { return s; }).length;
      }),
      legend: c.querySelectorAll(".legend .line").length
    };
  });
})()
"""


class Fail(Exception):
    pass


def panel_queries():
    """[(where, expr, instant)], variables replaced as dashboard_check.py
    does; tables and the node variable instant, the rest ranges."""
    with open(DASHBOARD, encoding="utf-8") as f:
        dash = json.load(f)
    instant = {}
    for p in dashboard_check.panels(dash.get("panels", [])):
        for t in p.get("targets", []):
            if "expr" in t:
                instant["panel %r %s" % (p.get("title"), t.get("refId"))] = bool(t.get("instant"))
    return [(w, e, instant.get(w, True)) for w, e in dashboard_check.expressions(dash)]


def openmetrics(samples_bin, tmp, now):
    """The fixture series as OpenMetrics, the last point at now; the
    number of series."""
    prom = os.path.join(tmp, "samples.prom")
    out = subprocess.run([samples_bin], capture_output=True, text=True, timeout=10, check=True).stdout
    with open(prom, "w") as f:
        f.write(out[out.index("# HELP"):])
    types, samples = dashboard_check.parse_textfile(prom)
    series = sorted(dashboard_check.fixtures(types, samples), key=lambda s: s["series"])
    lines = []
    for s in series:
        m = VALUES.match(s["values"])
        if not m:
            raise Fail("fixture values %r of %s" % (s["values"], s["series"]))
        v0, rise, n = float(m.group(1)), int(m.group(2) or 0), int(m.group(3))
        t0 = now - n * STEP_S
        lines += ["%s %r %d" % (s["series"], v0 + i * rise, t0 + i * STEP_S) for i in range(n + 1)]
    path = os.path.join(tmp, "fixture.om")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n# EOF\n")
    return path, len(series)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(port, path, **params):
    url = "http://127.0.0.1:%d%s?%s" % (port, path, urllib.parse.urlencode(params))
    with urllib.request.urlopen(url, timeout=2) as r:
        return json.load(r)


def until(what, fn, timeout_s):
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            v = fn()
        except OSError:
            v = None
        if v:
            return v
        if time.monotonic() > deadline:
            raise Fail("%s: not within %d s" % (what, timeout_s))
        time.sleep(0.1)


def start_prometheus(tmp, om, kids):
    """prometheus over the block made from om, rules every second; port."""
    data = os.path.join(tmp, "tsdb")
    r = subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", om, data],
                       capture_output=True, text=True, timeout=60)
    if r.returncode:
        raise Fail("promtool tsdb create-blocks-from openmetrics: %s" % (r.stderr or r.stdout)[-400:])
    cfg = os.path.join(tmp, "prometheus.yml")
    with open(cfg, "w") as f:
        json.dump({"global": {"evaluation_interval": "1s"}, "rule_files": [os.path.abspath(RULES)]}, f)
    port = free_port()
    log = open(os.path.join(tmp, "prometheus.log"), "w")
    kids.append(subprocess.Popen(
        ["prometheus", "--config.file=" + cfg, "--storage.tsdb.path=" + data,
         "--web.listen-address=127.0.0.1:%d" % port, "--storage.tsdb.retention.time=30d"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT))
    log.close()
    until("prometheus ready", lambda: urllib.request.urlopen(
        "http://127.0.0.1:%d/-/ready" % port, timeout=1).status == 200, 20)
    # the recorded series the dashboard reads, evaluated over the block
    until("the rules' first evaluations", lambda: api(
        port, "/api/v1/query", query="instance_pid:hotspot_k_oom_eta_left:seconds")["data"]["result"], 20)
    return port


def joined(expr):
    """The labels a group_left (...) brings in."""
    m = re.search(r"group_left\s*\(([^)]*)\)", expr)
    return [l.strip() for l in m.group(1).split(",") if l.strip()] if m else []


def check(graphs, queries, points):
    problems = []
    if len(graphs) != len(queries):
        return ["%d graphs on the page for %d queries" % (len(graphs), len(queries))]
    for g, (where, expr, instant) in zip(graphs, queries):
        n = re.search(r"Total time series: (\d+)", g["stats"])
        n = int(n.group(1)) if n else 0
        bad = []
        if g["expr"] != expr:
            bad.append("the page holds %r" % g["expr"])
        if g["error"]:
            bad.append("error %r" % g["error"])
        if n < 1:
            bad.append("%r" % g["stats"])
        if instant:
            # a join's labels reach the rows (the table's columns; an empty
            # one, as the tool writes unit="" outside a unit, is no label)
            for label in joined(expr):
                if not any('%s="' % label in r for r in g["rows"]):
                    bad.append("no row with %s: %s" % (label, g["rows"][:2]))
            if g["tab"] != "Console" or len(g["rows"]) != n or any("no data" in r for r in g["rows"]):
                bad.append("console tab %r, rows %s" % (g["tab"], g["rows"][:3]))
        elif g["tab"] != "Graph" or g["legend"] != n or len(g["lines"]) != n or \
                min(g["lines"] or [0]) < points:
            bad.append("graph tab %r: %d legend entries, lines of %s points (want %d series of >= %d)" %
                       (g["tab"], g["legend"], g["lines"], n, points))
        if bad:
            problems.append("%s: %s: %s" % (where, expr, "; ".join(bad)))
    return problems


def load(b, port, queries):
    """The graph page with these queries, once each has its answer: its
    graphs as READ_JS reads them."""
    params = []
    for i, (_, expr, instant) in enumerate(queries):
        params += [("g%d.expr" % i, expr), ("g%d.tab" % i, "1" if instant else "0"),
                   ("g%d.range_input" % i, "1h")]
    b.navigate("http://127.0.0.1:%d/classic/graph?%s" % (port, urllib.parse.urlencode(params)))
    graphs = []

    def settled():
        nonlocal graphs
        graphs = b.eval(READ_JS)
        return len(graphs) == len(queries) and all(g["stats"] or g["error"] for g in graphs)
    try:
        until("every query answered on the page", settled, 20)
    except Fail as e:
        raise Fail("%s: %d graphs for %d queries, unanswered: %s" % (
            e, len(graphs), len(queries),
            [g["expr"] for g in graphs if not (g["stats"] or g["error"])][:5]))
    return graphs


def run(b, tmp, samples_bin, kids):
    """The dashboard's queries in the browser b; a line per result, or Fail."""
    now = int(time.time()) - 5
    om, nseries = openmetrics(samples_bin, tmp, now)
    port = start_prometheus(tmp, om, kids)
    queries = panel_queries()
    problems = []
    # the page reads ten graphs from its URL at most (its parser sorts the
    # parameters as text: g10 comes before g2): ten queries a load
    for first in range(0, len(queries), PAGE_GRAPHS):
        batch = queries[first:first + PAGE_GRAPHS]
        problems += check(load(b, port, batch), batch, MIN_POINTS)
    if problems:
        raise Fail("the dashboard's queries in the Prometheus UI:\n  " + "\n  ".join(problems))
    ranges = sum(1 for q in queries if not q[2])
    return ["%d fixture series (build/doc-samples' families) in a block by promtool" % nseries,
            "%d queries in %d page loads: %d drawn as lines on the Graph tab, %d as console rows, "
            "none empty" % (len(queries), -(-len(queries) // PAGE_GRAPHS), ranges, len(queries) - ranges)]
