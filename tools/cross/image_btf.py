#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
"""image_btf.py - the kernel's BTF, cut out of its boot image.

    tools/cross/image_btf.py IMAGE OUT

A kernel built with CONFIG_DEBUG_INFO_BTF keeps its BTF in the image it
boots (the kernel serves it from memory as /sys/kernel/btf/vmlinux), so
the image of a Debian kernel package is enough to write a vmlinux.h for
another architecture: no -dbg package (~1 GB), no booted target. The blob
is found by its header (include/uapi/linux/btf.h): magic 0xeb9f, version
1, flags 0, a 24-byte header, types first, the strings right after them,
the string section starting with its empty string. An arm64 Image is
uncompressed; a gzip-compressed one (vmlinuz on some distributions) is
inflated first. x86's bzImage compresses the kernel with its own
decompressor: not handled (a native build reads /sys/kernel/btf/vmlinux).

Exit status 0 written, 1 no BTF found (or several that differ), 2 usage.
"""
import gzip
import os
import struct
import sys

HEADER = struct.Struct("<HBBIIIII")  # magic version flags hdr_len type_off type_len str_off str_len
PREFIX = b"\x9f\xeb\x01\x00\x18\x00\x00\x00\x00\x00\x00\x00"


def candidates(data):
    """Each well-formed BTF blob in data: (offset, length)."""
    at = data.find(PREFIX)
    while at >= 0:
        if at + HEADER.size <= len(data):
            _, _, _, hdr_len, type_off, type_len, str_off, str_len = HEADER.unpack_from(data, at)
            end = at + hdr_len + str_off + str_len
            if (type_off == 0 and str_off == type_len and type_len and str_len and
                    end <= len(data) and data[at + hdr_len + str_off] == 0):
                yield at, end - at
        at = data.find(PREFIX, at + 1)


def main(argv):
    if len(argv) != 3:
        print("usage: image_btf.py IMAGE OUT", file=sys.stderr)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    found = list(candidates(data))
    blobs = {data[at:at + n] for at, n in found}
    if len(blobs) != 1:
        print(f"image_btf: {argv[1]}: {len(blobs)} BTF blobs found, want 1 "
              "(a kernel built with CONFIG_DEBUG_INFO_BTF)", file=sys.stderr)
        return 1
    blob = blobs.pop()
    with open(argv[2] + ".tmp", "wb") as f:
        f.write(blob)
    os.replace(argv[2] + ".tmp", argv[2])
    print(f"image_btf: {argv[2]}: {len(blob)} bytes at offset {found[0][0]} of {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
