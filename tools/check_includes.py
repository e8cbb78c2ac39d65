#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""check_includes.py - include circles and includes up the flow, in the C of
user/, bpf/ and include/ (issue #31: 0 of each).

    tools/check_includes.py [ROOT]     (ROOT: the repository, default .)

Exit 0 when there is neither; 1 with one line per circle and per include up
the flow; 2 when ROOT has none of the three folders.

Files.  Every *.c and *.h under user/, bpf/ and include/.  Includes are the
quoted ones (#include "x.h"), found as cpp does with this tree's -I flags:
beside the including file first, then user/, then include/ (bpf/ files and
include/shared/ name each other bare or as "shared/x.h").  A quoted include
that resolves to none of them (vmlinux.h, *.skel.h: generated into build/)
is ignored; so is every <...> include.

Modules.  A module is a file's path without its extension (.c, .h, and the
.bpf part of .bpf.c / .bpf.h): user/act/freeze.c and user/act/freeze.h are
the module user/act/freeze, so "a .c counts as its .h's module".  A header
with no .c of that name is a module of its own (user/output/format.h), and
so is a .c with no header of that name.

Edges.  Module A depends on module B (A -> B) when a file of A includes a
header H and either
  1. H is a file of B (B's own header), or
  2. H declares a function or an extern variable that a .c file of B
     defines (not static), and the including file of A names it.
Rule 2 is what makes a header that declares other files' functions (one
freeze.h saying what eight freeze_*.c define, as before issue #31) count
as what it is: the including file depends on those .c files, not on a
header.
It only counts names the including file uses, so a folder's face header
(output/format.h, declaring human.c's and json.c's entries) ties human.c to
json.c only if one of them calls the other.  A -> A is no edge.

Circles.  A circle is a strongly connected component of that graph with two
or more modules: each of its modules depends, through the others, on
itself.  Each is printed once, its modules sorted, with one edge path that
closes it.

Up the flow.  user/'s folders are ranked in FLOW below, bottom first, as
LAYOUT.md's tree and README's Layout give the direction of use: cmd/ uses
every folder; status/ kernel/, output/, act/; act/ config/, output/,
profile/; profile/ flame/; kernel/ config/; every folder lib/.  Below them
all is include/shared/ (the types and pure logic both halves compile), and
bpf/ stands beside user/: it may use include/shared/ and itself only.  An
edge A -> B is up the flow when B's folder ranks above A's (user/ itself,
main()'s hotspot-k.c, ranks above cmd/), or when one of bpf/ and user/
depends on the other, or include/shared/ on either.  Folders of equal rank
(output/ beside flame/) may not use each other either: only their own
folder and those below.
"""

import os
import re
import sys

# bottom first: a folder may use its own and those listed before it
FLOW = [
	"include/shared",
	"user/lib",
	"user/config",
	"user/kernel",
	["user/output", "user/flame"],	# side by side: neither uses the other
	"user/profile",
	"user/act",
	"user/status",
	"user/cmd",
	"user",				# hotspot-k.c: main()
]
ROOTS = ("user", "bpf", "include")
SEARCH = ("user", "include")		# -Iuser -Iinclude, in that order

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# the name a top-level declaration or definition declares: the last
# identifier before the first "(" that is not a function pointer's "(*"
FUNC_NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "__attribute__",
	    "_Static_assert", "static_assert", "__typeof__", "typeof", "defined",
	    "__declspec", "SEC", "__builtin_offsetof"}


def rank(folder):
	"""The rank of a folder in FLOW, or None for bpf/."""
	for i, entry in enumerate(FLOW):
		names = entry if isinstance(entry, list) else [entry]
		if folder in names:
			return i
	return None


def module_of(path):
	"""user/act/freeze.c -> user/act/freeze; bpf/walk.bpf.h -> bpf/walk."""
	for ext in (".bpf.c", ".bpf.h", ".c", ".h"):
		if path.endswith(ext):
			return path[: -len(ext)]
	return path


def strip(text):
	"""The text without comments, strings and preprocessor lines, which
	name nothing a file defines or declares; lines kept."""
	text = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
	text = STRING.sub('""', text)
	out = []
	cont = False
	for line in text.split("\n"):
		is_pp = cont or line.lstrip().startswith("#")
		cont = is_pp and line.rstrip().endswith("\\")
		out.append("" if is_pp else line)
	return "\n".join(out)


def top_level(text):
	"""Each top-level statement of stripped C: (its text, how it ends:
	";" or "{"), with the bodies of braces skipped."""
	stmts = []
	depth = 0
	start = 0
	for i, ch in enumerate(text):
		if ch == "{":
			if depth == 0:
				stmts.append((text[start:i], "{"))
			depth += 1
		elif ch == "}":
			depth -= 1
			if depth == 0:
				start = i + 1
		elif ch == ";" and depth == 0:
			stmts.append((text[start:i], ";"))
			start = i + 1
	return stmts


def declared_name(stmt):
	"""The function or variable a top-level statement names, or None."""
	s = " ".join(stmt.split())
	if not s or s.startswith(("typedef", "struct", "union", "enum")) and "(" not in s:
		return None
	if s.startswith("typedef"):
		return None
	# an initialiser is not part of the name
	s = s.split("=", 1)[0].strip()
	for m in FUNC_NAME.finditer(s):
		name = m.group(1)
		if name in KEYWORDS or name.startswith("__"):
			continue
		return name
	# a variable: the last identifier, past any array size
	s = re.sub(r"\[[^\]]*\]", "", s).strip()
	words = IDENT.findall(s)
	if len(words) >= 2 and not s.startswith(("struct", "union", "enum")) or \
	   len(words) >= 3:
		return words[-1]
	return None


class Tree:
	def __init__(self, root):
		self.root = root
		self.files = []
		for top in ROOTS:
			for dirpath, dirs, names in os.walk(os.path.join(root, top)):
				dirs.sort()
				for n in sorted(names):
					if n.endswith((".c", ".h")):
						p = os.path.relpath(os.path.join(dirpath, n), root)
						self.files.append(p.replace(os.sep, "/"))
		self.fileset = set(self.files)
		self.text = {}
		for p in self.files:
			with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
				self.text[p] = f.read()
		self.stripped = {p: strip(t) for p, t in self.text.items()}
		self.idents = {p: set(IDENT.findall(t)) for p, t in self.stripped.items()}
		self.defined = {}	# name -> .c files that define it (not static)
		self.declares = {}	# header -> names it declares (extern, not inline)
		for p in self.files:
			for stmt, end in top_level(self.stripped[p]):
				words = stmt.split()
				name = declared_name(stmt)
				if not name:
					continue
				if p.endswith(".c"):
					if "static" in words or "extern" in words:
						continue
					if end == "{" or "(" not in stmt:
						self.defined.setdefault(name, set()).add(p)
				elif end == ";" and "static" not in words:
					self.declares.setdefault(p, set()).add(name)

	def resolve(self, src, inc):
		for base in [os.path.dirname(src)] + list(SEARCH):
			p = os.path.normpath(os.path.join(base, inc)).replace(os.sep, "/")
			if p in self.fileset:
				return p
		return None

	def edges(self):
		"""{(A, B): (file of A, header, why)}: the first reason for each edge."""
		out = {}
		for src in self.files:
			a = module_of(src)
			for m in INCLUDE.finditer(self.text[src]):
				hdr = self.resolve(src, m.group(1))
				if hdr is None:
					continue
				b = module_of(hdr)
				if b != a:
					out.setdefault((a, b), (src, m.group(1), None))
				for name in sorted(self.declares.get(hdr, ())):
					if name not in self.idents[src]:
						continue
					for d in sorted(self.defined.get(name, ())):
						b = module_of(d)
						if b != a:
							out.setdefault((a, b), (src, m.group(1), name))
		return out


def circles(nodes, adj):
	"""Tarjan's strongly connected components with two or more nodes."""
	index = {}
	low = {}
	stack = []
	on = set()
	found = []
	counter = [0]

	def visit(v):
		# iterative, so that a long chain cannot hit the recursion limit
		work = [(v, iter(sorted(adj.get(v, ()))))]
		index[v] = low[v] = counter[0]
		counter[0] += 1
		stack.append(v)
		on.add(v)
		while work:
			node, it = work[-1]
			for w in it:
				if w not in index:
					index[w] = low[w] = counter[0]
					counter[0] += 1
					stack.append(w)
					on.add(w)
					work.append((w, iter(sorted(adj.get(w, ())))))
					break
				if w in on:
					low[node] = min(low[node], index[w])
			else:
				work.pop()
				if work:
					low[work[-1][0]] = min(low[work[-1][0]], low[node])
				if low[node] == index[node]:
					comp = []
					while True:
						w = stack.pop()
						on.discard(w)
						comp.append(w)
						if w == node:
							break
					if len(comp) > 1:
						found.append(sorted(comp))

	for v in sorted(nodes):
		if v not in index:
			visit(v)
	return sorted(found)


def closing_path(comp, adj):
	"""A shortest path from comp[0] back to itself inside comp."""
	inside = set(comp)
	start = comp[0]
	prev = {}
	queue = [start]
	seen = set()
	while queue:
		v = queue.pop(0)
		for w in sorted(adj.get(v, ())):
			if w not in inside:
				continue
			if w == start:
				path = [v]
				while path[-1] != start:
					path.append(prev[path[-1]])
				return [start] + path[::-1][1:] + [start] if len(path) > 1 else [start, v, start]
			if w not in seen:
				seen.add(w)
				prev[w] = v
				queue.append(w)
	return comp + [start]


def folder_of(module):
	d = os.path.dirname(module)
	return d


def up_the_flow(a, b):
	fa, fb = folder_of(a), folder_of(b)
	if fa == fb:
		return False
	bpf_a, bpf_b = fa.startswith("bpf"), fb.startswith("bpf")
	if bpf_a or bpf_b:
		return not (bpf_a and fb == "include/shared")
	ra, rb = rank(fa), rank(fb)
	if ra is None or rb is None:
		return True		# a folder FLOW does not know: say so
	return rb >= ra


def main(argv):
	root = argv[1] if len(argv) > 1 else "."
	if not any(os.path.isdir(os.path.join(root, r)) for r in ROOTS):
		print("check_includes: %s: no user/, bpf/ or include/" % root, file=sys.stderr)
		return 2
	tree = Tree(root)
	edges = tree.edges()
	adj = {}
	for a, b in edges:
		adj.setdefault(a, set()).add(b)
	nodes = {module_of(p) for p in tree.files}

	def why(a, b):
		src, hdr, name = edges[(a, b)]
		if name:
			return "%s -> %s (%s: %s)" % (a, b, src, name)
		return "%s -> %s (%s: #include \"%s\")" % (a, b, src, hdr)

	found = circles(nodes, adj)
	for comp in found:
		path = closing_path(comp, adj)
		print("circle: " + " ".join(comp))
		for i in range(len(path) - 1):
			print("  " + why(path[i], path[i + 1]))
	ups = sorted((a, b) for a, b in edges if up_the_flow(a, b))
	for a, b in ups:
		print("up the flow: " + why(a, b))
	print("check_includes: %d files, %d modules, %d edges: %d circle%s, %d up the flow"
	      % (len(tree.files), len(nodes), len(edges), len(found),
		 "" if len(found) == 1 else "s", len(ups)))
	return 1 if found or ups else 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
