# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""Somebody else's BPF program: a socket filter on a loopback UDP socket.

It stands for the host's other BPF programs (a datapath, a tracer) that
pay for BPF_ENABLE_STATS while anyone holds it: the kernel then times each
of its runs, and bpf_prog_info's run_cnt and run_time_ns grow; otherwise
both stay 0. It runs from a real event, a datagram received, once per
datagram (socket filters see only what the socket receives).
"""

import ctypes
import os
import socket
import struct

from . import bpf
from .procs import TestFailure

BPF_PROG_LOAD = 5
BPF_OBJ_GET_INFO_BY_FD = 15
BPF_PROG_TYPE_SOCKET_FILTER = 1
SO_ATTACH_BPF = 50
# r0 = -1 (keep the whole datagram); exit
INSNS = struct.pack("=BBhi", 0xb7, 0, 0, -1) + struct.pack("=BBhi", 0x95, 0, 0, 0)
INFO_SIZE = 256


class SockFilter:
    """A socket filter named `name`, attached to a UDP socket on 127.0.0.1
    that sends to itself. close() releases both."""

    def __init__(self, name=b"hk_e2e_other"):
        ins = ctypes.create_string_buffer(INSNS, len(INSNS))
        lic = ctypes.create_string_buffer(b"GPL")
        attr = ctypes.create_string_buffer(128)
        struct.pack_into("=IIQQ", attr, 0, BPF_PROG_TYPE_SOCKET_FILTER, len(INSNS) // 8,
                         ctypes.addressof(ins), ctypes.addressof(lic))
        attr[48:48 + len(name)] = name
        self.fd = bpf._libc.syscall(bpf.NR_BPF, BPF_PROG_LOAD, attr, 128)
        if self.fd < 0:
            raise TestFailure("BPF_PROG_LOAD of a socket filter: errno %d" %
                              ctypes.get_errno())
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_BPF, self.fd)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(5)
        self.addr = self.sock.getsockname()

    def send(self, n):
        """n datagrams to itself, each received: n runs of the filter."""
        for _ in range(n):
            self.sock.sendto(b"x", self.addr)
            self.sock.recv(16)

    def runs(self):
        """(run_cnt, run_time_ns) as the kernel has them (bpf_prog_info)."""
        info = ctypes.create_string_buffer(INFO_SIZE)
        attr = ctypes.create_string_buffer(128)
        struct.pack_into("=IIQ", attr, 0, self.fd, INFO_SIZE, ctypes.addressof(info))
        if bpf._libc.syscall(bpf.NR_BPF, BPF_OBJ_GET_INFO_BY_FD, attr, 128) < 0:
            raise TestFailure("BPF_OBJ_GET_INFO_BY_FD: errno %d" % ctypes.get_errno())
        prog_id = struct.unpack_from("=I", info, 4)[0]
        # bpftool's view of it, as a user would see it: both fields are
        # left out while 0
        shown = bpf.bpftool("prog", "show", "id", str(prog_id), "-j") or {}
        return shown.get("run_cnt", 0), shown.get("run_time_ns", 0)

    def close(self):
        self.sock.close()
        os.close(self.fd)
