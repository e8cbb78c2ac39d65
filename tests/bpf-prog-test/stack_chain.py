#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The BPF object's deepest call chains, as each supported kernel counts them.

The verifier refuses a load when a chain of BPF-to-BPF calls needs more
than 512 bytes of stack (MAX_BPF_STACK) or more than 8 frames
(check_max_stack_depth). What it adds up changed with the kernel:

  * roots: every program, and since 6.5 (b5e9ad522c4c, backported to
    6.1.y) every async callback on its own: the functions handed to
    bpf_timer_set_callback() or bpf_wq_set_callback_impl(). An async
    callback adds nothing to the program that arms it.
  * callbacks run by a helper in its caller's frame (bpf_loop,
    bpf_for_each_map_elem, bpf_find_vma, bpf_user_ringbuf_drain) are
    followed as calls from the function that names them (an ld_imm64 of
    the function's address, BPF_PSEUDO_FUNC once libbpf relocates it).
  * frames: rounded up to 32 bytes (at least 32) up to 6.8, and on every
    kernel without the JIT (bpf_jit_enable=0); to 16 bytes (0 stays 0) for
    JITed programs since 6.9 (682158ab532a, round_up_stack_depth()).

Which root loads where is read from the kfuncs its load needs (the program,
its calls and the callbacks it arms), as user/kernel/driver.c chooses the
driver: bpf_iter_task_new (the timer driver, 6.7+), bpf_wq_* (the wq
driver, 6.10+); the rest loads from 5.15. The rules it is held to:

  5.15-6.6 /32   roots loaded before 6.7 (hk_iter, the hooks)
  6.7-6.8  /32   and the timer driver's (Ubuntu 24.04's 6.8)
  6.9+ JIT /16   every root
  no JIT   /32   every root (a kernel booted with the JIT off)

Each function's stack is the deepest r10 offset it touches. Prints each
root's deepest chain and margin under each rule it loads under, then the
minimum margins in bytes and in frames; exit 1 if a chain is over 512
bytes or 8 frames under any rule, or has less than --min-margin bytes or
--min-frame-margin frames left (one more call level on a chain at 8/8
and 6.x refuses the load: "the call stack of 9 frames is too deep").

  stack_chain.py OBJECT [--limit BYTES] [--min-margin BYTES]
                 [--min-frame-margin FRAMES]
  (needs llvm-objdump)
"""

import argparse
import re
import subprocess
import sys

MAX_FRAMES = 8

# (name, frame rounding, the newest kernel it covers as (major, minor))
RULES = [
    ("5.15-6.6", 32, (6, 6)),
    ("6.7-6.8", 32, (6, 8)),
    ("6.9+ JIT", 16, None),
    ("no JIT", 32, None),
]

# The first kernel of each kfunc the object calls; a kfunc not named here
# is taken to load from 5.15, the oldest supported kernel (the stricter).
KFUNC_SINCE = {
    "bpf_iter_task_new": (6, 7), "bpf_iter_task_next": (6, 7),
    "bpf_iter_task_destroy": (6, 7),
    "bpf_wq_init": (6, 10), "bpf_wq_start": (6, 10),
    "bpf_wq_set_callback_impl": (6, 10),
}
OLDEST = (5, 15)

# helpers that call a callback: in the caller's frame, or as a root
HELPER_SYNC_CB = {164: "bpf_for_each_map_elem", 180: "bpf_find_vma",
                  181: "bpf_loop", 209: "bpf_user_ringbuf_drain"}
HELPER_ASYNC_CB = {170: "bpf_timer_set_callback"}
KFUNC_ASYNC_CB = {"bpf_wq_set_callback_impl"}

FUNC = re.compile(r"^([0-9a-f]+) <([\w.]+)>:$")
SECTION = re.compile(r"^Disassembly of section (\S+):$")
INSN = re.compile(r"^\s*(\d+):\t((?:[0-9a-f]{2} ?)+)\t(.*)$")
RELOC = re.compile(r"R_BPF_64_(32|64)\s+(\S+)")
STACK_REF = re.compile(r"\(r10 - (\d+)\)")
FROM_R10 = re.compile(r"^(r\d+) = r10$")
ADD_NEG = re.compile(r"^(r\d+) \+= -(\d+)$")


def imm32(raw):
    return int.from_bytes(bytes(int(b, 16) for b in raw[4:8]), "little", signed=True)


def disassemble(obj):
    """{name: {section, start, stack, events}} from llvm-objdump; events in
    code order: ("call", idx, imm, reloc), ("helper", idx, id),
    ("addr", idx, imm, reloc) with reloc the relocated symbol or None."""
    out = subprocess.run(["llvm-objdump", "-dr", obj], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, check=True).stdout
    funcs = {}
    section = cur = None
    from_r10 = set()
    pending = None          # a call or ld_imm64 whose symbol may follow
    for line in out.splitlines():
        m = SECTION.match(line)
        if m:
            section = m.group(1)
            continue
        m = RELOC.search(line)
        if m and pending is not None:
            pending[3] = m.group(2)
            continue
        if pending is not None:
            funcs[cur]["events"].append(tuple(pending))
            pending = None
        m = FUNC.match(line)
        if m:
            if not m.group(2).startswith("LBB"):
                cur = m.group(2)
                funcs[cur] = {"section": section, "start": int(m.group(1), 16) // 8,
                              "stack": 0, "events": []}
                from_r10 = set()
            continue            # or a label inside the function
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
        if raw[0] == "85":
            # src_reg 1: a BPF-to-BPF call (a kfunc too, until libbpf
            # relocates it); 0: a helper, by number
            if (int(raw[1], 16) >> 4) == 1:
                pending = ["call", idx, imm32(raw), None]
            elif (int(raw[1], 16) >> 4) == 0:
                funcs[cur]["events"].append(("helper", idx, imm32(raw)))
        elif raw[0] == "18":
            pending = ["addr", idx, imm32(raw), None]
    if pending is not None:
        funcs[cur]["events"].append(tuple(pending))
    return funcs


def holder(funcs, section, target):
    """The function of section whose code holds instruction target."""
    best = None
    for name, g in funcs.items():
        if g["section"] == section and g["start"] <= target and \
                (best is None or g["start"] > funcs[best]["start"]):
            best = name
    return best


def resolve(funcs):
    """Each function's calls (callbacks run in its frame included), the
    async callbacks it arms, and the kfuncs it calls."""
    code = {g["section"] for g in funcs.values()}
    for name, f in funcs.items():
        f["calls"], f["arms"], f["kfuncs"] = [], [], set()
        cbs = []            # function addresses waiting for their use
        for ev in f["events"]:
            if ev[0] == "call":
                _, idx, imm, sym = ev
                if sym is None:         # pc-relative, within the section
                    callee = holder(funcs, f["section"], idx + 1 + imm)
                elif sym in code:       # a static function: imm + 1 into it
                    callee = holder(funcs, sym, imm + 1)
                elif sym in funcs:
                    callee = sym
                else:
                    f["kfuncs"].add(sym)
                    if cbs and sym in KFUNC_ASYNC_CB:
                        f["arms"] += cbs
                        cbs = []
                    callee = None
                if callee:
                    f["calls"].append(callee)
            elif ev[0] == "addr":
                _, idx, imm, sym = ev
                if sym in code:         # a byte offset into that section
                    cbs.append(holder(funcs, sym, imm // 8))
                elif sym in funcs:
                    cbs.append(sym)
            elif ev[0] == "helper" and cbs:
                if ev[2] in HELPER_ASYNC_CB:
                    f["arms"] += cbs
                elif ev[2] in HELPER_SYNC_CB:
                    f["calls"] += cbs
                else:
                    continue
                cbs = []
        if cbs:
            sys.exit("stack_chain: %s takes the address of %s but hands it to no helper "
                     "or kfunc this script knows" % (name, ", ".join(cbs)))


def reach(funcs, name, seen=None):
    """Functions reachable from name by calls, name included."""
    seen = set() if seen is None else seen
    if name in funcs and name not in seen:
        seen.add(name)
        for callee in funcs[name]["calls"]:
            reach(funcs, callee, seen)
    return seen


def frame(bytes_, rounding):
    if rounding == 16:
        return (bytes_ + 15) // 16 * 16
    return max(32, (bytes_ + 31) // 32 * 32)


def deepest(funcs, name, rounding, seen=()):
    """(bytes, frames, [names]) of the deepest chain from name: most bytes,
    then most frames."""
    if name not in funcs or name in seen:
        return 0, 0, []
    best = (0, 0, [])
    for callee in set(funcs[name]["calls"]):
        d = deepest(funcs, callee, rounding, seen + (name,))
        if d[:2] > best[:2]:
            best = d
    return frame(funcs[name]["stack"], rounding) + best[0], best[1] + 1, [name] + best[2]


def most_frames(funcs, name, seen=()):
    """[names] of the chain from name with the most frames."""
    if name not in funcs or name in seen:
        return []
    best = []
    for callee in sorted(set(funcs[name]["calls"])):
        c = most_frames(funcs, callee, seen + (name,))
        if len(c) > len(best):
            best = c
    return [name] + best


def roots(funcs):
    """[(root, what it is, first kernel)]: the programs and the async
    callbacks they arm; a program's kernel is the newest its kfuncs (its
    callbacks' included) need, and its callbacks load with it."""
    progs = sorted(n for n, f in funcs.items() if f["section"] != ".text")
    out = []
    for prog in progs:
        unit = reach(funcs, prog)
        armed = []
        for n in sorted(unit):
            armed += [cb for cb in funcs[n]["arms"] if cb not in armed]
        for cb in armed:
            unit |= reach(funcs, cb)
        since = max([KFUNC_SINCE.get(k, OLDEST) for n in unit for k in funcs[n]["kfuncs"]],
                    default=OLDEST)
        out.append((prog, "program", since))
        out += [(cb, "callback of " + prog, since) for cb in armed]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("object")
    ap.add_argument("--limit", type=int, default=512)
    ap.add_argument("--min-margin", type=int, default=0,
                    help="bytes every chain must leave below the limit")
    ap.add_argument("--min-frame-margin", type=int, default=0,
                    help="frames every chain must leave below %d" % MAX_FRAMES)
    args = ap.parse_args()
    funcs = disassemble(args.object)
    resolve(funcs)
    over_list, short_list, low, low_frames = [], [], None, None
    for root, what, since in roots(funcs):
        for rule, rounding, upto in RULES:
            if upto is not None and since > upto:
                continue        # this root never loads on those kernels
            depth, _, chain = deepest(funcs, root, rounding)
            longest = most_frames(funcs, root)
            frames = len(longest)
            margin = args.limit - depth
            over = depth > args.limit or frames > MAX_FRAMES
            short = not over and (margin < args.min_margin or
                                  MAX_FRAMES - frames < args.min_frame_margin)
            if over or short:
                (over_list if over else short_list).append(
                    "%s under %s (%d bytes, %d frames)" % (root, rule, depth, frames))
            if low is None or margin < low[0]:
                low = (margin, root, rule)
            if low_frames is None or MAX_FRAMES - frames < low_frames[0]:
                low_frames = (MAX_FRAMES - frames, root, rule)
            says = ""
            if depth > args.limit:
                # where the kernel's walk of this chain stops, as it says it
                total = 0
                for k, name in enumerate(chain):
                    total += frame(funcs[name]["stack"], rounding)
                    if total > args.limit:
                        says = "; \"combined stack size of %d calls is %d\"" % (k + 1, total)
                        break
            print("%s %-16s %-9s /%d %3d bytes, %d frames, margin %4d: %s  [%s, %d.%d+]%s%s" %
                  ("OVER" if over else "LOW " if short else "ok  ", root, rule, rounding,
                   depth, frames, margin,
                   " -> ".join("%s(%d)" % (c, funcs[c]["stack"]) for c in chain),
                   what, since[0], since[1],
                   says, "" if frames == len(chain) else
                   "; %d frames: %s" % (frames, " -> ".join(longest))))
    if low is not None:
        print("minimum margin: %d bytes (%s under %s)" % low)
        print("minimum frame margin: %d of %d frames (%s under %s)" %
              (low_frames[0], MAX_FRAMES, low_frames[1], low_frames[2]))
    if over_list:
        print("stack_chain: over %d bytes or %d frames as the kernel counts them (the load "
              "fails there): %s" % (args.limit, MAX_FRAMES, "; ".join(over_list)),
              file=sys.stderr)
    if short_list:
        print("stack_chain: less than %d bytes or %d frames of margin (another compiler's "
              "spills, or one more call level, would break the load): %s" %
              (args.min_margin, args.min_frame_margin, "; ".join(short_list)), file=sys.stderr)
    return 1 if over_list or short_list else 0


if __name__ == "__main__":
    sys.exit(main())
