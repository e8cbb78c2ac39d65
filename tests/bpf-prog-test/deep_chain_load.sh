#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# deep_chain_load.sh BPFTOOL OK_OBJECT OVER_OBJECT
#
# The running kernel against stack_chain.py, on the rule it applies itself
# (6.9+ with the JIT on: 16-byte frames): OK_OBJECT (deep_chain.bpf.o,
# whose timer callback needs 464 bytes there) must load, and OVER_OBJECT
# (deep_over.bpf.o, 528) must be refused with the very message
# stack_chain.py predicts for deep_tick under "6.9+ JIT" ("combined stack
# size of 7 calls is 528"): the kernel checks the async callback as a
# root, and adds it up as the model does. The 32-byte rule of 6.8 and
# older cannot be seen here (Debian's 6.1, booted once, said "combined
# stack size of 6 calls is 544" of deep_chain.bpf.o, as predicted).
# Loaded in a private mount namespace with a bpffs of its own: nothing
# stays pinned or loaded once it returns. Skipped (exit 0, said) on a
# kernel older than 6.9 or with the JIT off.
set -u
bpftool=$1 ok_obj=$2 over_obj=$3
here=$(dirname "$0")

release=$(uname -r)
major=${release%%.*}
minor=${release#*.}
minor=${minor%%[!0-9]*}
jit=$(cat /proc/sys/net/core/bpf_jit_enable 2>/dev/null || echo 0)
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 9 ]; } || [ "$jit" = 0 ]; then
	echo "deep chains in this kernel: skipped ($release, bpf_jit_enable=$jit: not the 6.9+ JIT rule)"
	exit 0
fi

# what the model says the kernel will say
want=$(python3 "$here/stack_chain.py" "$over_obj" 2>/dev/null |
	awk '$1 == "OVER" && $2 == "deep_tick" && $3 == "6.9+"' |
	grep -o '"combined stack size of [0-9]* calls is [0-9]*"' | tr -d '"')
if [ -z "$want" ]; then
	echo "deep_chain_load.sh: stack_chain.py does not count $over_obj's deep_tick over 512 under 6.9+ JIT" >&2
	exit 1
fi

# $1: the object; prints bpftool's output (the verifier log with -d)
load() {
	unshare -m sh -c '
		d=$(mktemp -d /tmp/hk-deep-chain.XXXXXX) || exit 1
		mount -t bpf bpf "$d" || exit 1
		"$1" -d prog loadall "$2" "$d/p" 2>&1
		rc=$?
		umount "$d"; rmdir "$d"
		exit $rc' sh "$bpftool" "$1"
}

if ! out=$(load "$ok_obj"); then
	printf '%s\n' "$out" | grep -E "stack|Too large|error" | tail -n 5 >&2
	echo "deep_chain_load.sh: $release refused $ok_obj, which stack_chain.py counts within 512 bytes under 6.9+ JIT" >&2
	exit 1
fi
if out=$(load "$over_obj"); then
	echo "deep_chain_load.sh: $release loaded $over_obj, of which stack_chain.py says \"$want\"" >&2
	exit 1
fi
said=$(printf '%s\n' "$out" | grep -o "combined stack size of [0-9]* calls is [0-9]*" | head -n 1)
if [ "$said" != "$want" ]; then
	printf '%s\n' "$out" | grep -E "stack|Too large|error" | tail -n 5 >&2
	echo "deep_chain_load.sh: $release said \"$said\", stack_chain.py \"$want\"" >&2
	exit 1
fi
echo "deep chains in this kernel ($release, JIT): 464 bytes loaded; refused: \"$said\", as stack_chain.py says"
