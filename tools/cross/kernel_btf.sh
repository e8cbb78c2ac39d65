#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# kernel_btf.sh - the BTF of a Debian kernel of another architecture, for a
# cross build's vmlinux.h: the newest Debian cloud kernel of that
# architecture that make vmtest boots (6.12: the BPF code names types 6.1
# lacks, struct bpf_wq and struct bpf_iter_task; CO-RE and the loader's
# probes take care of older kernels, as natively), fetched into make
# vmtest's cache and its BTF cut out of the image (image_btf.py).
#
#   tools/cross/kernel_btf.sh ARCH OUT      ARCH: arm64
#
# Environment: HK_VMTEST_CACHE (default ~/.cache/hotspot-k/vmtest).
# Exit status: 0 written, 1 on error.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cache=${HK_VMTEST_CACHE:-$HOME/.cache/hotspot-k/vmtest}

die()
{
	echo "kernel_btf: $*" >&2
	exit 1
}

[ $# = 2 ] || { echo "usage: $0 ARCH OUT" >&2; exit 1; }
case $1 in
arm64) series=arm64-6.12 ;;
*) die "ARCH=$1: only arm64 has a kernel image whose BTF can be cut out here (x86's bzImage is compressed by its own decompressor)" ;;
esac
# shellcheck source=../vmtest/kernels.sh
. "$here/../vmtest/kernels.sh"

mkdir -p "$cache"
apt_lists_empty && apt_update
fetch_kernel "$series"
echo "kernel_btf: $kernel_pkg ($kernel_note)"
python3 "$here/image_btf.py" "$kernel_image" "$2"
