# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""flame.py - the flame graph's script (user/flame/svg_script.c) in
chromium, on the SVGs that build/flame-svg writes (as a CPU profile and
as a memory one, --bytes) from
tests/browser/flame.folded (12 ms: main; compute (parse 1, spin 5);
io; fsync_[k]; [off-cpu] 2; parse (lex 1, read_file 3)).

Every action is the browser's own input: a mouse moved, pressed and
released where the frame is drawn (chromium hit-tests it: the point is
checked to be on that frame first), the Search prompt answered through
the browser's dialog, Escape as a key. After each, the DOM is read: each
frame's attributes and the box chromium laid it out in.

    hover compute  its title on the details line: "compute (6.0 ms,
                   50.00%)", or "(6000 bytes, 50.00%)"

    click compute  it spans the graph's 1180 px (its box too), main and
                   all dimmed at full width, its callees rescaled (parse
                   10.00+196.67, spin 206.67+983.33), the other 6 frames
                   hidden (no box); "Reset zoom" shown
    search         "^(parse|lex)$": exactly parse, parse and lex filled
                   rgb(230,0,230), "Matched: 41.7%" (5 of 12 ms: lex
                   inside parse counted once)
    Reset zoom     every frame's geometry as loaded, the hits kept; and
                   painted: a screenshot's pixel inside each of the 11
                   frames (left of its label) is its fill, the 3 hits'
                   rgb(230,0,230)
    Escape         every frame exactly as loaded, the share cleared
and the page threw no exception meanwhile.
"""

HIT = "rgb(230,0,230)"
GRAPH_PX = 1180
QUERY = "^(parse|lex)$"

# name@depth: x and width after the click on compute@2
ZOOMED = {
    "all@0": ("10.00", "1180.00", "0.5"),
    "main@1": ("10.00", "1180.00", "0.5"),
    "compute@2": ("10.00", "1180.00", None),
    "parse@3": ("10.00", "196.67", None),
    "spin@3": ("206.67", "983.33", None),
}
HIDDEN = {"io@2", "fsync_[k]@3", "[off-cpu]@4", "parse@2", "lex@3", "read_file@3"}
HITS = {"parse@3", "parse@2", "lex@3"}

# every frame (name@depth), its attributes and the box chromium drew it in
STATE_JS = r"""
(function () {
  var out = {frames: {}};
  function id(n) { return document.getElementById(n); }
  out.unzoom = id("hk-unzoom").getAttribute("display");
  out.search = id("hk-search").getAttribute("display");
  out.details = id("hk-details").textContent;
  out.matched = id("hk-matched").textContent;
  Array.prototype.forEach.call(id("hk-frames").querySelectorAll("g[data-w]"), function (g) {
    var t = g.querySelector("title").textContent, r = g.querySelector("rect");
    var l = g.querySelector("text"), b = r.getBoundingClientRect();
    var key = t.slice(0, t.lastIndexOf(" (")) + "@" + g.getAttribute("data-d");
    if (key in out.frames)
      throw new Error("two frames " + key);
    out.frames[key] = {
      display: g.getAttribute("display"), opacity: g.getAttribute("opacity"),
      x: r.getAttribute("x"), width: r.getAttribute("width"), fill: r.getAttribute("fill"),
      label: l ? l.textContent : null, label_x: l ? l.getAttribute("x") : null,
      box: [b.left, b.top, b.width, b.height],
      cx: b.left + b.width / 2, cy: b.top + b.height / 2
    };
  });
  return out;
})()
"""

# the frame drawn at the point: its key, or null
HIT_TEST_JS = r"""
(function (x, y) {
  var g = document.elementFromPoint(x, y);
  for (; g && !(g.hasAttribute && g.hasAttribute("data-w")); g = g.parentNode)
    ;
  if (!g)
    return null;
  var t = g.querySelector("title").textContent;
  return t.slice(0, t.lastIndexOf(" (")) + "@" + g.getAttribute("data-d");
})(%r, %r)
"""

CONTROL_JS = r"""
(function () {
  var b = document.querySelector("#%s text").getBoundingClientRect();
  return [b.left + b.width / 2, b.top + b.height / 2, b.width];
})()
"""


def near(a, b):
    return abs(a - b) < 0.51


class Fail(Exception):
    pass


def expect(problems, ok, what):
    if not ok:
        problems.append(what)


def click_frame(b, key, state):
    f = state["frames"][key]
    at = b.eval(HIT_TEST_JS % (f["cx"], f["cy"]))
    if at != key:
        raise Fail("the point %.1f,%.1f is on %s, not on %s" % (f["cx"], f["cy"], at, key))
    for mid in b.click(f["cx"], f["cy"]):
        b.wait_answer(mid)


def click_control(b, name):
    x, y, w = b.eval(CONTROL_JS % name)
    if w <= 0:
        raise Fail("%s is not drawn" % name)
    return b.click(x, y)


def check_zoomed(s, start):
    p = []
    for key, f in s["frames"].items():
        if key in HIDDEN:
            expect(p, f["display"] == "none" and f["box"][2] == 0,
                   "%s: not hidden after the zoom (display %s, box %s)" % (key, f["display"], f["box"]))
            continue
        x, w, op = ZOOMED[key]
        expect(p, (f["x"], f["width"], f["opacity"], f["display"]) == (x, w, op, None),
               "%s: x=%s width=%s opacity=%s display=%s, not x=%s width=%s opacity=%s" %
               (key, f["x"], f["width"], f["opacity"], f["display"], x, w, op))
        # as chromium laid it out: the attributes drawn, at the same height
        expect(p, near(f["box"][0], float(x)) and near(f["box"][2], float(w)) and
               f["box"][1] == start["frames"][key]["box"][1],
               "%s: drawn at %s, not x=%s width=%s" % (key, f["box"], x, w))
    expect(p, set(s["frames"]) == set(ZOOMED) | HIDDEN, "frames: %s" % sorted(s["frames"]))
    expect(p, s["unzoom"] is None, "Reset zoom not shown after the zoom: %s" % s["unzoom"])
    expect(p, s["frames"]["compute@2"]["label"] == "compute", "compute's label: %s" %
           s["frames"]["compute@2"]["label"])
    return p


def geometry(s):
    return {k: (f["display"], f["opacity"], f["x"], f["width"], f["label"], f["label_x"],
                f["box"]) for k, f in s["frames"].items()}


def check_search(s, start):
    p = []
    for key, f in s["frames"].items():
        want = HIT if key in HITS else start["frames"][key]["fill"]
        expect(p, f["fill"] == want, "%s: fill %s after the search, not %s" % (key, f["fill"], want))
    expect(p, s["matched"] == "Matched: 41.7%", "matched [%s], not [Matched: 41.7%%]" % s["matched"])
    return p


def run(b, svg_path, compute_title):
    """The steps on svg_path in the browser b, compute's title what the
    hover shows; a line per step, or Fail."""
    b.events = [e for e in b.events if e.get("method") != "Runtime.exceptionThrown"]
    b.navigate("file://" + svg_path)
    start = b.eval(STATE_JS)
    if start["search"] is not None or start["unzoom"] != "none":
        raise Fail("the script did not run: Search %s, Reset zoom %s" % (start["search"], start["unzoom"]))
    if not (near(start["frames"]["all@0"]["box"][2], GRAPH_PX) and
            near(start["frames"]["compute@2"]["box"][2], GRAPH_PX / 2)):
        raise Fail("drawn before any click: all %s, compute %s" %
                   (start["frames"]["all@0"]["box"], start["frames"]["compute@2"]["box"]))
    out = []

    # the hover, on the way to the click
    f = start["frames"]["compute@2"]
    b.wait_answer(b.mouse("mouseMoved", f["cx"], f["cy"]))
    s = b.eval(STATE_JS)
    if s["details"] != compute_title:
        raise Fail("hovering compute: details [%s]" % s["details"])
    click_frame(b, "compute@2", start)
    s = b.eval(STATE_JS)
    p = check_zoomed(s, start)
    if p:
        raise Fail("after the click on compute:\n  " + "\n  ".join(p))
    out.append("click compute: 1180 px wide, 2 callers dimmed, 2 callees rescaled, 6 hidden")

    # the prompt holds the release's answer until the dialog is closed
    ids = click_control(b, "hk-search")
    d = b.wait_event("Page.javascriptDialogOpening")
    if d.get("type") != "prompt" or d.get("defaultPrompt", "") != "":
        raise Fail("the Search click opened %s" % d)
    b.call("Page.handleJavaScriptDialog", accept=True, promptText=QUERY)
    for mid in ids:
        b.wait_answer(mid)
    s = b.eval(STATE_JS)
    p = check_search(s, start)
    if p:
        raise Fail("after the search %s:\n  %s" % (QUERY, "\n  ".join(p)))
    out.append("search %s: exactly %d frames highlighted, %s" % (QUERY, len(HITS), s["matched"]))

    for mid in click_control(b, "hk-unzoom"):
        b.wait_answer(mid)
    s = b.eval(STATE_JS)
    if geometry(s) != geometry(start) or s["unzoom"] != "none":
        diff = [k for k in start["frames"] if geometry(s)[k] != geometry(start)[k]]
        raise Fail("Reset zoom: frames not as loaded: %s; Reset zoom %s" % (diff, s["unzoom"]))
    if check_search(s, start):
        raise Fail("Reset zoom cleared the search: %s" % check_search(s, start))
    painted = [(k, b.pixel(f["box"][0] + 1, f["box"][1] + 1), f["fill"]) for k, f in s["frames"].items()]
    wrong = ["%s %s, not %s" % w for w in painted if w[1] != w[2]]
    if wrong:
        raise Fail("Reset zoom: painted: %s" % "; ".join(wrong))
    out.append("Reset zoom: all %d frames' geometry as loaded, hits kept, each painted its fill "
               "(%d pixels of rgb(230,0,230))" % (len(s["frames"]), sum(1 for w in painted if w[2] == HIT)))

    for kind in ("keyDown", "keyUp"):
        b.call("Input.dispatchKeyEvent", type=kind, key="Escape", code="Escape",
               windowsVirtualKeyCode=27)
    b.wait_answer(b.mouse("mouseMoved", 0, 0))
    s = b.eval(STATE_JS)
    if s != start:
        diff = [k for k in start["frames"] if s["frames"].get(k) != start["frames"][k]]
        raise Fail("Escape: not as loaded: frames %s, matched [%s]" % (diff, s["matched"]))
    thrown = [e["params"]["exceptionDetails"] for e in b.events
              if e.get("method") == "Runtime.exceptionThrown"]
    if thrown:
        raise Fail("the script threw: %s" % [t.get("exception", {}).get("description", t)
                                              for t in thrown])
    out.append("Escape: every frame as loaded, the share cleared; nothing thrown")
    return out
