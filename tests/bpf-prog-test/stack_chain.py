#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The BPF object's deepest call chains, as older verifiers add them up.

Before private stacks (6.14, x86), the verifier refuses a program whose
chain of BPF-to-BPF calls needs more than 512 bytes of stack, each frame
rounded up to 32 bytes (at least 32), and more than 8 frames. Newer kernels
load what 6.1 refuses: a walk that grew by 24 bytes passed every host test
and failed only in vmtest's 6.1 guest (hk_iter -> ... -> hk_starved, 544
bytes). This reads the object as the verifier will: each function's stack
(the deepest r10 offset it touches), its direct calls (bpf_loop callbacks
are not followed before 6.8, and are inlined after the check), and prints
each program's deepest chain; exit 1 if one is over a limit.

  stack_chain.py OBJECT [--limit BYTES]   (needs llvm-objdump)
"""

import argparse
import re
import subprocess
import sys

MAX_FRAMES = 8
FRAME_ROUND = 32

FUNC = re.compile(r"^([0-9a-f]+) <([\w.]+)>:$")
SECTION = re.compile(r"^Disassembly of section (\S+):$")
INSN = re.compile(r"^\s*(\d+):\t((?:[0-9a-f]{2} ?)+)\t(.*)$")
RELOC = re.compile(r"R_BPF_64_32\s+(\S+)")
STACK_REF = re.compile(r"\(r10 - (\d+)\)")
FROM_R10 = re.compile(r"^(r\d+) = r10$")
ADD_NEG = re.compile(r"^(r\d+) \+= -(\d+)$")


def parse(obj):
    """{name: (section, first insn, stack bytes, [callees])} from objdump."""
    out = subprocess.run(["llvm-objdump", "-dr", obj], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, check=True).stdout
    funcs, order = {}, []
    section = cur = None
    from_r10 = set()
    pending = None          # a pseudo call whose target the next line names
    for line in out.splitlines():
        m = SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        m = FUNC.match(line)
        if m and not m.group(2).startswith("LBB"):
            cur = m.group(2)
            funcs[cur] = {"section": section, "start": int(m.group(1), 16) // 8,
                          "stack": 0, "calls": [], "rel": [], "abs": []}
            order.append(cur)
            from_r10 = set()
            continue
        m = RELOC.search(line)
        if m and pending is not None:
            if m.group(1).startswith("."):
                # a static function of that section: imm + 1 into it
                funcs[cur]["abs"].append((m.group(1), pending[1] + 1))
            else:
                funcs[cur]["calls"].append(m.group(1))
            pending = None
            continue
        if pending is not None:
            # no relocation: a call within the section, pc-relative
            funcs[cur]["rel"].append(pending)
            pending = None
        m = FUNC.match(line)
        if m:
            continue            # a label inside the function
        m = INSN.match(line)
        if not m or cur is None:
            continue
        idx, raw, text = int(m.group(1)), m.group(2).split(), m.group(3).strip()
        for off in STACK_REF.findall(text):
            funcs[cur]["stack"] = max(funcs[cur]["stack"], int(off))
        r = FROM_R10.match(text)
        if r:
            from_r10.add(r.group(1))
        else:
            a = ADD_NEG.match(text)
            if a and a.group(1) in from_r10:
                funcs[cur]["stack"] = max(funcs[cur]["stack"], int(a.group(2)))
            elif text.split(" ")[0] in from_r10 and "=" in text:
                from_r10.discard(text.split(" ")[0])
        # call: opcode 0x85, src_reg 1 (BPF_PSEUDO_CALL); helpers have 0
        if raw[0] == "85" and (int(raw[1], 16) >> 4) == 1:
            imm = int.from_bytes(bytes(int(b, 16) for b in raw[4:8]), "little", signed=True)
            pending = (idx, imm)
    def holder(section, target):
        """The function of section whose code holds instruction target."""
        best = None
        for other in order:
            g = funcs[other]
            if g["section"] == section and g["start"] <= target and \
                    (best is None or g["start"] > funcs[best]["start"]):
                best = other
        return best

    for name in order:
        f = funcs[name]
        # pc-relative: within the caller's own section
        targets = [holder(f["section"], idx + 1 + imm) for idx, imm in f["rel"]]
        targets += [holder(sec, target) for sec, target in f["abs"]]
        f["calls"] += [t for t in targets if t]
    return funcs


def frame(bytes_):
    return max(FRAME_ROUND, (bytes_ + FRAME_ROUND - 1) // FRAME_ROUND * FRAME_ROUND)


def deepest(funcs, name, seen=()):
    """(bytes, [names]) of the deepest chain from name."""
    if name not in funcs or name in seen:
        return 0, []
    best = (0, [])
    for callee in set(funcs[name]["calls"]):
        d = deepest(funcs, callee, seen + (name,))
        if d[0] > best[0]:
            best = d
    return frame(funcs[name]["stack"]) + best[0], [name] + best[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("object")
    ap.add_argument("--limit", type=int, default=512)
    args = ap.parse_args()
    funcs = parse(args.object)
    bad = 0
    progs = [n for n, f in funcs.items() if f["section"] != ".text"]
    for name in sorted(progs):
        depth, chain = deepest(funcs, name)
        over = depth > args.limit or len(chain) > MAX_FRAMES
        bad += over
        print("%s %-16s %3d bytes, %d frames: %s" %
              ("OVER" if over else "ok  ", name, depth, len(chain),
               " -> ".join("%s(%d)" % (c, funcs[c]["stack"]) for c in chain)))
    if bad:
        print("stack_chain: %d program(s) over %d bytes or %d frames as kernels before "
              "private stacks count them (6.1 refuses the load)" %
              (bad, args.limit, MAX_FRAMES), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
