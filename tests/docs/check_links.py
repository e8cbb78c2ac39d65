#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""check_links.py - the docs cannot point at what does not exist.

    tests/docs/check_links.py [--tool ./hotspot-k]

Over README.md, docs/*.md and docs/runbooks/*.md, each of these is an error, said in one line
as FILE:LINE: what:
  - a relative link whose file does not exist, or whose #anchor is no
    heading's GitHub slug in that file;
  - `make X` quoted (in code) where X is no target of the Makefile or the
    files it includes;
  - a --flag quoted (in code) that neither `hotspot-k --help` nor any of
    its commands' --help prints (IGNORED_FLAGS: other tools' flags);
  - a README.md longer than README_MAX lines (a landing page, not a manual).
Exit 0 when there is none, 1 otherwise. Python 3 standard library only.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

README_MAX = 300
# the commands whose --help lists flags (user/cmd/)
COMMANDS = ['status', 'follow', 'unpin', 'thaw', 'profile']
# flags of other tools quoted in the docs, each with the tool it belongs to
IGNORED_FLAGS = {
    '--now': 'systemctl enable --now',
    '--update-catalog': 'journalctl --update-catalog',
    '--attacks': 'tests/e2e/run.py --attacks',
    '--min-margin': 'tests/bpf-prog-test/stack_chain.py --min-margin',
    '--min-frame-margin': 'tests/bpf-prog-test/stack_chain.py --min-frame-margin',
    '--network': 'podman run --network host',
    '--read-only': 'podman run --read-only',
    '--cap-drop': 'podman run --cap-drop all',
    '--cap-add': 'podman run --cap-add BPF,PERFMON',
    '--security-opt': 'podman run --security-opt seccomp=unconfined',
}

FENCE = re.compile(r'^\s*(```|~~~)')
LINK = re.compile(r'(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|!\[[^\]]*\]\(([^)\s]+)\)')
CODE_SPAN = re.compile(r'(`+)(.+?)\1')
FLAG = re.compile(r'(?<![\w-])--[a-z][a-z0-9-]*')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')


def github_slug(text):
    """The anchor GitHub gives a heading: lower case, markup and punctuation
    dropped (letters, digits, '-', '_' and spaces kept), spaces to '-'."""
    text = re.sub(r'<[^>]+>', '', text)
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = text.strip().lower()
    text = ''.join(c for c in text if c.isalnum() or c in ' -_')
    return text.replace(' ', '-')


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        out = set()
        fence = False
        with open(path, encoding='utf-8') as f:
            for line in f:
                if FENCE.match(line):
                    fence = not fence
                    continue
                m = None if fence else HEADING.match(line)
                if not m:
                    continue
                s = github_slug(m.group(2))
                n = seen.get(s, 0)
                seen[s] = n + 1
                out.add(s if n == 0 else '%s-%d' % (s, n))
        cache[path] = out
    return cache[path]


def lines_of(path):
    """(number, text, in_code_block) for each line."""
    fence = False
    with open(path, encoding='utf-8') as f:
        for no, line in enumerate(f, 1):
            if FENCE.match(line):
                fence = not fence
                continue
            yield no, line.rstrip('\n'), fence


def code_of(text, in_block):
    """The code on a line: all of it in a fenced block, else its spans."""
    if in_block:
        return [text]
    return [m.group(2) for m in CODE_SPAN.finditer(text)]


def make_targets(root):
    """Rule targets of the Makefile and of what it includes."""
    targets = set()
    todo = [os.path.join(root, 'Makefile')]
    done = set()
    while todo:
        mk = todo.pop()
        if mk in done or not os.path.exists(mk):
            continue
        done.add(mk)
        with open(mk, encoding='utf-8') as f:
            for line in f:
                m = re.match(r'^-?include\s+(.*)', line)
                if m:
                    todo += [os.path.join(root, p) for p in m.group(1).split()]
                    continue
                m = re.match(r'^([^\s#:=][^:=]*?)\s*::?(?!=)', line)
                if m:
                    for t in m.group(1).split():
                        targets.add(t.replace('$(OUTPUT)', 'build'))
    return targets


def help_flags(tool):
    flags = set()
    for args in [['--help']] + [[c, '--help'] for c in COMMANDS]:
        try:
            p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=10)
        except OSError as e:
            sys.exit('check_links.py: %s %s: %s' % (tool, ' '.join(args), e.strerror))
        text = p.stdout + p.stderr
        if p.returncode != 0 or 'Usage' not in text:
            sys.exit('check_links.py: %s %s exited %d without a usage' %
                 (tool, ' '.join(args), p.returncode))
        flags |= set(FLAG.findall(text))
    return flags


def main():
    ap = argparse.ArgumentParser(description='check the links, make targets and flags the docs quote')
    ap.add_argument('--tool', default='./hotspot-k')
    ap.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    a = ap.parse_args()
    root = os.path.normpath(a.root)
    os.chdir(root)
    pages = ['README.md'] + sorted(glob.glob('docs/*.md')) + sorted(glob.glob('docs/runbooks/*.md'))
    targets = make_targets(root)
    flags = help_flags(a.tool)
    errors = []
    links = make_refs = flag_refs = 0

    with open('README.md', encoding='utf-8') as f:
        n = sum(1 for _ in f)
    if n > README_MAX:
        errors.append('README.md: %d lines, over %d: move the rest to docs/' % (n, README_MAX))

    for page in pages:
        for no, text, in_block in lines_of(page):
            where = '%s:%d' % (page, no)
            if not in_block:
                prose = CODE_SPAN.sub('', text)
                for m in LINK.finditer(prose):
                    url = m.group(1) or m.group(2)
                    if re.match(r'^[a-z][a-z0-9+.-]*:', url):
                        continue  # http:, https:, mailto:
                    links += 1
                    path, _, frag = url.partition('#')
                    target = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                    if not os.path.exists(target):
                        errors.append('%s: link %s: no file %s' % (where, url, target))
                        continue
                    if frag and target.endswith('.md') and frag not in anchors(target):
                        errors.append('%s: link %s: no heading #%s in %s' % (where, url, frag, target))
            for code in code_of(text, in_block):
                code = code.split(' #')[0]
                for m in re.finditer(r'(?<![\w$(./-])make((?:\s+[^\s;|&#)`]+)*)', code):
                    make_refs += 1
                    # the first word that is no option or VAR=value is a
                    # target; after it, only paths (build/hkload): prose in
                    # a block ("make test runs, each ...") names one
                    first = True
                    for w in m.group(1).split():
                        if not re.match(r'^[A-Za-z0-9_./=-]+$', w):
                            break
                        if w.startswith('-') or '=' in w:
                            continue
                        if not first and '/' not in w:
                            break
                        first = False
                        if w not in targets:
                            errors.append('%s: `make %s`: no such target in the Makefile' % (where, w))
                for f in FLAG.findall(code):
                    flag_refs += 1
                    if f not in flags and f not in IGNORED_FLAGS:
                        errors.append('%s: %s: not in the --help of hotspot-k or of its commands' % (where, f))

    for e in errors:
        print(e)
    print('docs: %d pages, README %d lines (at most %d), %d relative links, %d make commands, %d flags quoted: %s' %
          (len(pages), n, README_MAX, links, make_refs, flag_refs,
           'ok' if not errors else '%d errors' % len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
