#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""
drift.py - the man pages against the binary: every flag, command, config
key, label, JSON key, metric and environment variable the binary has is
documented, and every one documented exists (make docs-drift).

  python3 tests/docs/drift.py --tool ./hotspot-k --samples build/doc-samples

Where each side comes from:
  flags        --help of the run and of each command it lists
  config keys  --generate-config (user/config/keys.c's table): each key's
               unit, range and default, and its help text
  labels       user/output/labels.c's table (ids and names)
  JSON keys    a real transition line (samples: hk_format__json, the code
               the binary runs, for an oom_killed in a PID namespace)
  metrics      the # TYPE lines of a real Prometheus file (samples)
  environment  the HOTSPOT_K_* strings in the binary (the journal's fields,
               each a JSON key upper-cased, apart)
against man/hotspot-k.8 (OPTIONS, COMMANDS, DESCRIPTION, DIAGNOSES, JSON,
Journal, METRICS, ENVIRONMENT) and man/hotspot-k.conf.5 (every key: its
head says what --generate-config says, its text is the key's help).
Python 3 standard library only. Prints each check; exit 1 if one failed.
"""

import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MAN8 = os.path.join(ROOT, "man", "hotspot-k.8")
MAN5 = os.path.join(ROOT, "man", "hotspot-k.conf.5")
LABELS_C = os.path.join(ROOT, "user", "output", "labels.c")

failed = 0


def check(what, missing=(), extra=(), said="not documented"):
    """One line: ok, or FAIL with what is undocumented and what is not real."""
    global failed
    if not missing and not extra:
        print("ok    %s" % what)
        return True
    failed += 1
    print("FAIL  %s" % what)
    if missing:
        print("        %s: %s" % (said, ", ".join(missing)))
    if extra:
        print("        documented, not in the binary: %s" % ", ".join(extra))
    return False


def run(args):
    r = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    if r.returncode != 0:
        sys.exit("drift: %s: exit %d: %s" % (" ".join(args), r.returncode,
                                             r.stderr.decode(errors="replace").strip()))
    return r.stdout.decode()


def plain(roff):
    """roff source as the words it renders (one line per source line)."""
    s = re.sub(r'^\.(\\".*)?$', "", roff, flags=re.M)  # empty requests, comments
    for a, b in (("\\-", "-"), ("\\%", ""), ("\\&", ""), ("\\~", " "), ("\\ ", " "),
                 ("\\e", "\\"), ("\\|", ""), ("\\c", "")):
        s = s.replace(a, b)
    s = re.sub(r"\\f[BIRP]", "", s)
    s = re.sub(r"\\\((aq|dq|lq|rq)", "'", s)
    s = re.sub(r"\\\(..", " ", s)
    s = re.sub(r"^\.(B|I|BR|RB|BI|IB|IR|RI|OP|SY|SM)( |$)", "", s, flags=re.M)
    s = re.sub(r'^(.*)$', lambda m: m.group(1).replace('"', "") if m.group(1)[:1] != "." or
               m.group(1).startswith((".SH", ".SS")) else m.group(1), s, flags=re.M)
    return s


def words(text):
    return " ".join(text.split())


def sections(src, macro):
    """{title: source lines} for each .SH (or .SS) of src, in order."""
    out, title = {}, None
    for line in src.splitlines():
        m = re.match(r"^\.%s\s+(.*)$" % macro, line)
        if m:
            title = m.group(1).replace("\\%", "").replace('"', "").strip()
            out[title] = []
        elif macro == "SS" and line.startswith(".SH"):
            title = None
        elif title is not None:
            out[title].append(line)
    return {k: "\n".join(v) for k, v in out.items()}


def tp_entries(src):
    """[(head, body)] for each .TP of src: its first line, then the rest."""
    out, lines, i = [], src.splitlines(), 0
    while i < len(lines):
        if lines[i].startswith(".TP") and i + 1 < len(lines):
            head, body, i = lines[i + 1], [], i + 2
            while i < len(lines) and not lines[i].startswith((".TP", ".SS", ".SH")):
                body.append(lines[i])
                i += 1
            out.append((head, "\n".join(body)))
        else:
            i += 1
    return out


def long_opts(text):
    return re.findall(r"(?<![\w-])(--[a-z][a-z-]*[a-z])", text)


def help_flags(help_text):
    """The option lines of a --help: '  -c, --config FILE  ...'."""
    flags = set()
    for line in help_text.splitlines():
        m = re.match(r"^\s{1,8}((?:-[A-Za-z], )?--[a-z][a-z-]*)", line)
        if m:
            flags.update(re.findall(r"--[a-z][a-z-]*|(?<![\w-])-[A-Za-z]\b", m.group(1)))
    return flags


def help_commands(help_text):
    """The first word of each line of --help's Commands: block."""
    m = re.search(r"^Commands:\n(.*?)\n\n", help_text, re.S | re.M)
    return [l.split()[0] for l in m.group(1).splitlines() if re.match(r"^  \S", l)] if m else []


# --- each kind of name ---------------------------------------------------------

def check_flags(tool, man):
    text = run([tool, "--help"])
    have = help_flags(text)
    opts = sections(man, "SH").get("OPTIONS", "")
    doc = set()
    for head, _ in tp_entries(opts):
        h = plain(head)
        doc.update(long_opts(h))
        doc.update(re.findall(r"(?<![\w-])-[A-Za-z]\b", h))
    check("every flag of hotspot-k --help heads an entry of OPTIONS, and every entry "
          "is a flag (%d)" % len(have), sorted(have - doc), sorted(doc - have))

    cmds = help_commands(text)
    body = sections(man, "SH").get("COMMANDS", "")
    entries = {plain(h).split()[0]: plain(h) + "\n" + plain(b) for h, b in tp_entries(body)}
    syn = plain(sections(man, "SH").get("SYNOPSIS", ""))
    check("every command of --help has an entry in COMMANDS, every entry is a command "
          "(%s)" % ", ".join(cmds), sorted(set(cmds) - set(entries)),
          sorted(set(entries) - set(cmds)))
    for c in cmds:
        # help and version print another's text (a command's --help, the
        # run's --version): they have no flags of their own
        if c in ("help", "version"):
            continue
        ctext = run([tool, c, "--help"])
        # its option lines, and its usage lines (follow has no others)
        usage = re.match(r"^Usage:.*?(?=\n\n|\Z)", ctext, re.S)
        cflags = (help_flags(ctext) | set(long_opts(usage.group(0) if usage else ""))) - \
            {"--help", "-h"}
        doc_c = entries.get(c, "")
        heads = [plain(h) for h, _ in tp_entries(body) if plain(h).split()[0] == c]
        head_flags = set(long_opts(" ".join(heads)))
        synflags = set()
        for block in re.findall(r'^\.SY "hotspot-k %s"\n(.*?)^\.YS' % c,
                                sections(man, "SH").get("SYNOPSIS", ""), re.S | re.M):
            synflags.update(long_opts(plain(block)))
        missing = sorted(f for f in cflags if not re.search(r"(?<![\w-])%s(?![\w-])" %
                                                            re.escape(f), doc_c))
        check("hotspot-k %s: every flag of its --help in its COMMANDS entry, every flag "
              "of its entry's head and SYNOPSIS in its --help (%d)" % (c, len(cflags)),
              missing, sorted((head_flags | synflags) - cflags - {"--help"}))
        if "hotspot-k %s" % c not in syn.replace('"', ""):
            check("hotspot-k %s is in SYNOPSIS" % c, [c])


def generated_keys(tool):
    """[(section, section help, [(key, head, help)])] from --generate-config."""
    out, comment, sec = [], [], None
    for line in run([tool, "--generate-config"]).splitlines():
        if line.startswith("#"):
            comment.append(line[2:] if line.startswith("# ") else line[1:])
            continue
        m = re.match(r"^\[(\w+)\]$", line)
        if m:
            sec = (m.group(1), " ".join(comment), [])
            out.append(sec)
        m = re.match(r"^(\w+) =", line)
        if m and sec:
            # the last comment line: "Kind, range. Default: X."
            d = re.match(r"^(.*?)\. Default: (.*)\.$", comment[-1])
            if not d:
                sys.exit("drift: --generate-config: no 'Default:' line above %s" % m.group(1))
            kind = d.group(1)
            if not kind[1:2].isupper():
                kind = kind[0].lower() + kind[1:]
            head = "%s (%s; default %s)" % (m.group(1), kind, d.group(2))
            sec[2].append((m.group(1), head, " ".join(comment[:-1])))
        if not line.strip():
            comment = []
        elif not line.startswith("#"):
            comment = []
    return out


def doc_keys(page):
    """{section: {key: (head, body)}} of a page's .SS [section] .TP entries."""
    out = {}
    for title, src in sections(page, "SS").items():
        m = re.match(r"^\[(\w+)\]$", title)
        if not m:
            continue
        out[m.group(1)] = {}
        for head, body in tp_entries(src):
            h = words(plain(head))
            k = re.match(r"^(\w+)", h)
            if k:
                out[m.group(1)][k.group(1)] = (h, words(plain(body)))
    return out


def unquote(text):
    return words(text.replace("`", "").replace('"', ""))


def check_keys(tool, man8):
    gen = generated_keys(tool)
    have = {(s, k) for s, _, keys in gen for k, _, _ in keys}
    if not os.path.exists(MAN5):
        check("man/hotspot-k.conf.5 exists", ["man/hotspot-k.conf.5"])
        ref, name = man8, "man/hotspot-k.8"
    else:
        ref, name = open(MAN5).read(), "man/hotspot-k.conf.5"
    doc = doc_keys(ref)
    docset = {(s, k) for s, keys in doc.items() for k in keys}
    check("every key of --generate-config has an entry in %s, every entry is a key (%d)" %
          (name, len(have)), sorted("%s.%s" % x for x in have - docset),
          sorted("%s.%s" % x for x in docset - have))
    if ref is man8:
        return
    wrong_head, wrong_text, wrong_sec = [], [], []
    secs = sections(ref, "SS")
    for s, shelp, keys in gen:
        body = secs.get("[%s]" % s, "")
        first = words(plain(body.split("\n.TP")[0]))
        if unquote(first) != unquote(shelp):
            wrong_sec.append("[%s]" % s)
        for k, head, khelp in keys:
            got = doc.get(s, {}).get(k)
            if not got:
                continue
            if got[0] != head:
                wrong_head.append("%s.%s: %r, --generate-config: %r" % (s, k, got[0], head))
            if unquote(got[1]) != unquote(khelp):
                wrong_text.append("%s.%s" % (s, k))
    check("each key's head in %s says its unit, range and default as --generate-config "
          "does" % name, wrong_head, said="differs")
    check("each key's text in %s is its help in user/config/keys.c" % name, wrong_text,
          said="differs")
    check("each section's text in %s is its help in user/config/keys.c" % name, wrong_sec,
          said="differs")
    # section.key and [section] key named anywhere in either page
    names = {"%s.%s" % x for x in have}
    said = set()
    for page in (man8, ref):
        t = plain(page)
        said.update(re.findall(r"(?<![\w./-])((?:%s)\.[a-z_]+[a-z])(?![\w(.])" %
                               "|".join(re.escape(s) for s, _, _ in gen), t))
        said.update("%s.%s" % m for m in re.findall(r"\[(\w+)\] ?([a-z_]+)", t)
                    if m[0] in {s for s, _, _ in gen})
    check("every section.key the man pages name is a key", (), sorted(said - names))


def labels():
    src = open(LABELS_C).read()
    return re.findall(r'\[HK_\w+\]\s*=\s*\{\s*"(\w+)",\s*"([^"]+)"', src)


def check_labels(tool, man):
    labs = labels()
    ids = [i for i, _ in labs]
    names = {i: n for i, n in labs}
    alarms = [i for i in ids if i not in ("ok", "exited", "oom_killed")]
    helptext = words(run([tool, "--help"]))
    check("--help names every diagnosis (%d)" % len(ids),
          [names[i] for i in ids if names[i] not in helptext])
    desc = words(plain(sections(man, "SH").get("DESCRIPTION", "")))
    check("DESCRIPTION names every alarm (%d)" % len(alarms),
          [names[i] for i in alarms if names[i] not in desc])
    diag = {words(plain(h)) for h, _ in tp_entries(sections(man, "SH").get("DIAGNOSES", ""))}
    doc = {i for i in ids if names[i] in diag or i in diag}
    check("DIAGNOSES has an entry for every label, every entry is a label (%d)" % len(ids),
          sorted(set(ids) - doc),
          sorted(d for d in diag if d not in names.values() and d not in ids))
    js = sections(man, "SS").get("JSON", "")
    ft = [b for h, b in tp_entries(js) if re.search(r"\bfrom\b.*\bto\b", plain(h))]
    said = set(re.findall(r"\b([a-z_]+)\b", plain(ft[0]))) & set(ids + ["unknown"]) if ft else set()
    listed = set(re.findall(r"\\fB([a-z_]+)\\fP", ft[0])) if ft else set()
    check("JSON's from and to list every label id (%d)" % len(ids), sorted(set(ids) - said),
          sorted(listed - set(ids)))
    jr = plain(sections(man, "SS").get("Journal", ""))
    check("Journal gives every label's priority (%d)" % len(ids),
          [i for i in ids if not re.search(r"(?<![\w])%s(?![\w])" % i, jr)])


def check_json(samples, man):
    line = run([samples]).splitlines()[0]
    keys = list(json.loads(line, object_pairs_hook=lambda kv: [k for k, _ in kv]))
    js = sections(man, "SS").get("JSON", "")
    doc = []
    for head, _ in tp_entries(js):
        doc += re.findall(r"\\fB\\%([a-z_]+)\\fP", head)
    check("JSON: every key of a transition line has an entry, every entry is a key (%d)" %
          len(keys), [k for k in keys if k not in doc], [k for k in doc if k not in keys])
    common = [k for k in doc if k in keys]
    order = [k for k in keys if k in doc]
    bad = next((i for i, (a, b) in enumerate(zip(common, order)) if a != b), None)
    check("JSON: the entries in the line's order", [] if bad is None else
          ["%s where the line has %s" % (common[bad], order[bad])], said="out of order")
    return keys


def check_metrics(samples, man):
    text = run([samples])
    have = set(re.findall(r"^# TYPE (hotspot_k_\w+) ", text, re.M))
    sec = sections(man, "SH").get("METRICS")
    if sec is None:
        check("man/hotspot-k.8 has a METRICS section", ["METRICS"])
        sec = sections(man, "SS").get("Prometheus", "")
    doc = {m for m in re.findall(r"hotspot_k_[a-z_]*[a-z]", plain(sec))
           if not re.search(r"%s_?\*" % re.escape(m), plain(sec))}
    check("METRICS: every metric of the Prometheus file is there, every one there is "
          "real (%d)" % len(have), sorted(have - doc), sorted(doc - have))
    t = plain(man)
    named = {m.group(0) for m in re.finditer(r"hotspot_k_[a-z_]*[a-z]", t)
             if not re.match(r"_?\*", t[m.end():])}
    check("every metric the man page names elsewhere is real", (), sorted(named - have - doc))


def check_env(tool, man, json_keys):
    with open(tool, "rb") as f:
        have = set(x.decode() for x in re.findall(rb"HOTSPOT_K_[A-Z0-9_]*[A-Z0-9]", f.read()))
    # the journal's fields (journal_event.c): each a JSON key upper-cased,
    # HOTSPOT_K_LABEL apart (JSON's "to"); any other name is a variable
    fields = {h for h in have if h[len("HOTSPOT_K_"):].lower() in json_keys or
              h == "HOTSPOT_K_LABEL"}
    have -= fields
    named = set(re.findall(r"HOTSPOT_K_[A-Z0-9_]*[A-Z0-9]",
                           plain(sections(man, "SS").get("Journal", ""))))
    check("Journal: every HOTSPOT_K_* field named is one the binary sends, each a JSON key "
          "upper-cased (%d sent)" % len(fields), (), sorted(named - fields))
    env = plain(sections(man, "SH").get("ENVIRONMENT", ""))
    doc = set(re.findall(r"HOTSPOT_K_[A-Z0-9_]*[A-Z0-9]", env))
    check("ENVIRONMENT: every HOTSPOT_K_* variable the binary reads, and no other (%d)" %
          len(have), sorted(have - doc), sorted(doc - have))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", default="./hotspot-k")
    ap.add_argument("--samples", default="build/doc-samples")
    a = ap.parse_args()
    man = open(MAN8).read()
    check_flags(a.tool, man)
    check_keys(a.tool, man)
    check_labels(a.tool, man)
    keys = check_json(a.samples, man)
    check_metrics(a.samples, man)
    check_env(a.tool, man, keys)
    if failed:
        print("docs-drift: %d check(s) failed: the man pages and the binary disagree" % failed)
        return 1
    print("docs-drift: the man pages name what the binary has, and nothing else")
    return 0


if __name__ == "__main__":
    sys.exit(main())
