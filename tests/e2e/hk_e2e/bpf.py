# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""The kernel's BPF objects, through bpftool and, for one hot read, bpf(2).

BPFTOOL is set by run.py's main once it has found bpftool; read it here, as
bpf.BPFTOOL, at call time (a copy taken at import time would miss that).
"""

import ctypes
import json
import os
import platform
import re
import struct
import subprocess

from .procs import TestFailure

BPFTOOL = "bpftool"


def bpftool(*args, timeout=10):
    r = subprocess.run([BPFTOOL, *args], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    if r.returncode != 0:
        raise TestFailure("bpftool %s: rc=%d %s" % (" ".join(args), r.returncode,
                                                    r.stderr.decode(errors="replace").strip()))
    return json.loads(r.stdout or b"null")


# bpf(2) through ctypes, only to read hk_stats.windows without spawning bpftool
NR_BPF = {"x86_64": 321, "aarch64": 280, "riscv64": 280, "s390x": 351,
          "ppc64le": 361}.get(platform.machine())
BPF_MAP_LOOKUP_ELEM = 1
BPF_MAP_GET_FD_BY_ID = 14
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def bpf_lookup_u64(map_id, value_size):
    """The first u64 of entry 0 of an array map, by map id; None on error.

    The fd is closed at once: holding it would keep the tool's map alive
    after the tool exits (and spoil the teardown checks).
    """
    attr = ctypes.create_string_buffer(128)
    struct.pack_into("=III", attr, 0, map_id, 0, 0)
    fd = _libc.syscall(NR_BPF, BPF_MAP_GET_FD_BY_ID, attr, 128)
    if fd < 0:
        return None
    try:
        key = ctypes.create_string_buffer(4)
        val = ctypes.create_string_buffer(value_size)
        attr = ctypes.create_string_buffer(128)
        struct.pack_into("=I4xQQQ", attr, 0, fd, ctypes.addressof(key),
                         ctypes.addressof(val), 0)
        if _libc.syscall(NR_BPF, BPF_MAP_LOOKUP_ELEM, attr, 128) < 0:
            return None
        return struct.unpack_from("=Q", val, 0)[0]
    finally:
        os.close(fd)


def fd_ids(pid):
    """IDs of the BPF programs (links included) and maps among a process's
    fds, from /proc/PID/fdinfo; empty sets once it is gone."""
    progs, maps = set(), set()
    fddir = "/proc/%d/fdinfo" % pid
    try:
        fds = os.listdir(fddir)
    except OSError:
        return progs, maps
    for fd in fds:
        try:
            with open(os.path.join(fddir, fd)) as f:
                info = f.read()
        except OSError:
            continue
        m = re.search(r"^map_id:\s*(\d+)", info, re.M)
        if m:
            maps.add(int(m.group(1)))
        m = re.search(r"^prog_id:\s*(\d+)", info, re.M)
        if m:
            progs.add(int(m.group(1)))
    return progs, maps


def bpf_ids_loaded():
    """IDs of every BPF program and map loaded in the kernel right now."""
    progs = {p["id"] for p in bpftool("prog", "show", "-j") or []}
    maps = {m["id"] for m in bpftool("map", "show", "-j") or []}
    return progs, maps


def bss_set_u32(map_ids, var, value):
    """Write a u32 global of the BPF program (its .bss), as the program sees
    it, through the map's shared mapping (.bss is BPF_F_MMAPABLE): the
    offset comes from the map's BTF datasec. Raises TestFailure if absent."""
    import mmap
    bss = [m for m in bpftool("map", "show", "-j") or []
           if m["id"] in map_ids and m.get("name", "").endswith(".bss")]
    if not bss:
        raise TestFailure("no .bss map among the tool's maps %s" % sorted(map_ids))
    m = bss[0]
    types = bpftool("btf", "dump", "id", str(m["btf_id"]), "-j")["types"]
    names = {t["id"]: t.get("name") for t in types}
    offset = None
    for t in types:
        if t["kind"] == "DATASEC" and t["name"] == ".bss":
            for v in t["vars"]:
                if names.get(v["type_id"]) == var:
                    offset = v["offset"]
    if offset is None:
        raise TestFailure("no variable %s in the .bss datasec" % var)
    attr = ctypes.create_string_buffer(128)
    struct.pack_into("=III", attr, 0, m["id"], 0, 0)
    fd = _libc.syscall(NR_BPF, BPF_MAP_GET_FD_BY_ID, attr, 128)
    if fd < 0:
        raise TestFailure("BPF_MAP_GET_FD_BY_ID %d: errno %d" % (m["id"], ctypes.get_errno()))
    try:
        size = (m["bytes_value"] + mmap.PAGESIZE - 1) // mmap.PAGESIZE * mmap.PAGESIZE
        with mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE) as mm:
            struct.pack_into("=I", mm, offset, value)
    finally:
        os.close(fd)


def hook_state(prog_ids):
    """The sched_switch hook among prog_ids (a tool's programs): (its
    program as bpftool shows it, or None under --no-hook; ids of the links
    that attach it now)."""
    hook = [p for p in bpftool("prog", "show", "-j") or []
            if p["id"] in prog_ids and p.get("name", "").startswith("hk_switch")]
    if not hook:
        return None, []
    links = [l["id"] for l in bpftool("link", "show", "-j") or []
             if l.get("prog_id") == hook[0]["id"]]
    return hook[0], links
