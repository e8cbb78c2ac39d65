#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""test_flame_svg_run.py SVG [STEP...] - check a flame graph SVG as a
browser would meet it, then play STEPs on its script.

Python's XML parser reads it (exit 2 if it is not well-formed), and the
parsed tree must hold exactly one <script> (inline: no href), no event
attribute (on...) and no element that fetches or embeds (a, image, use,
foreignObject, iframe): any of those is a way for text to become code or
a request. Then test_flame_svg_dom.js runs the script on that tree in
node and prints the state of every frame after each step (exit 1 on any
failure, with the reason on stderr).
"""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"
FORBIDDEN = {"a", "image", "use", "foreignObject", "iframe", "object", "embed"}


def local(name):
    return name[len(SVG_NS):] if name.startswith(SVG_NS) else name


def as_json(el):
    for k in el.attrib:
        if local(k).lower().startswith("on") or local(k).endswith("href"):
            sys.exit("attribute %s on <%s>" % (k, local(el.tag)))
    if not el.tag.startswith(SVG_NS):
        sys.exit("element outside SVG: %s" % el.tag)
    if local(el.tag) in FORBIDDEN:
        sys.exit("element <%s>" % local(el.tag))
    return {"tag": local(el.tag), "attrs": {local(k): v for k, v in el.attrib.items()},
            "text": el.text or "", "kids": [as_json(k) for k in el]}


def main():
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except ET.ParseError as e:
        print("not well-formed XML: %s" % e, file=sys.stderr)
        sys.exit(2)
    scripts = list(root.iter(SVG_NS + "script"))
    if len(scripts) != 1 or len(list(scripts[0])) or not scripts[0].text:
        sys.exit("%d <script> elements, the first with %d children" %
                 (len(scripts), len(list(scripts[0])) if scripts else 0))
    tree = as_json(root)
    js = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_flame_svg_dom.js")
    run = subprocess.run(["node", js], input=json.dumps(
        {"root": tree, "script": scripts[0].text, "steps": sys.argv[2:]}),
        text=True, capture_output=True, timeout=30)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    sys.exit(1 if run.returncode else 0)


if __name__ == "__main__":
    main()
