#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Install the Debian packages a step needs, only those that are missing.
#   tools/deps.sh build|test|fuzz|vmtest|bench|install
set -eu

build="clang llvm libbpf-dev libelf-dev zlib1g-dev bpftool pkg-config make gcc"
# nodejs: the unit and e2e tests run the flame graph SVG's script
test="libcunit1-dev python3 nodejs util-linux procps coreutils strace"
# make fuzz, fuzz-smoke, sanitize: clang 14's libFuzzer, ASan and UBSan
# runtimes (libclang-common-14-dev only recommends them, and recommends are
# not installed); flock and timeout for the sanitized runs
fuzz="libclang-rt-14-dev libcunit1-dev python3 util-linux coreutils"
# make vmtest: Debian's kernels under qemu, with a static busybox as /init
vmtest="qemu-system-x86 busybox-static"
# libbpf-tools: runqlat and cpudist, figure 1's peers on sched_switch
bench="rt-tests stress-ng linux-perf sysstat strace libbpf-tools"
# make install-test: systemd-analyze (verify, security, syscall-filter), man
# and groff for the man page, setpriv, unshare and flock, strace, and
# /bin/kill, which the unit's ExecReload runs
install="systemd man-db groff-base util-linux strace coreutils gzip procps"

case "${1:-build}" in
build) want=$build ;;
test) want="$build $test $fuzz $vmtest $install" ;;
fuzz) want="$build $fuzz" ;;
vmtest) want="$build $vmtest" ;;
bench) want="$build $test $bench" ;;
install) want="$build $install" ;;
*) echo "usage: $0 build|test|fuzz|vmtest|bench|install" >&2; exit 2 ;;
esac

missing=
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
