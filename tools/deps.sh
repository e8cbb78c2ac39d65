#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Install the Debian packages a step needs, only those that are missing.
#   tools/deps.sh build|check|test|fuzz|vmtest|bench|install|prometheus|browser|journal|image|cross-arm64|cross-arm64-unit|cross-x86
# cross-ARCH: Debian's cross compiler for that target and its -dev packages
# through multiarch (the Debian architecture added to dpkg first).
set -eu

build="clang llvm libbpf-dev libelf-dev zlib1g-dev bpftool pkg-config make gcc"
# nodejs: the unit and e2e tests run the flame graph SVG's script
test="libcunit1-dev python3 nodejs util-linux procps coreutils strace"
# make fuzz, fuzz-smoke, sanitize: clang 14's libFuzzer, ASan and UBSan
# runtimes (libclang-common-14-dev only recommends them, and recommends are
# not installed); flock and timeout for the sanitized runs
fuzz="libclang-rt-14-dev libcunit1-dev python3 util-linux coreutils"
# make vmtest: Debian's kernels under qemu, with a static busybox as /init;
# the arm64 guests' busybox is the arm64 package's, unpacked by vmtest.sh
# (busybox-static is not co-installable across architectures)
vmtest="qemu-system-x86 qemu-system-arm busybox-static"
# make ARCH=arm64 (or ARCH=x86 on an arm64 host): the cross compiler, the
# target's static libbpf, libelf and zlib; python3 finds the BTF in the
# target kernel's image (tools/cross/image_btf.py)
cross_pkgs()
{
	echo "gcc-$1-linux-gnu libc6-dev-$2-cross libbpf-dev:$2 libelf-dev:$2 zlib1g-dev:$2 python3"
}
# libbpf-tools: runqlat and cpudist, figure 1's peers on sched_switch;
# iproute2: ss, figure 15's send queues
bench="rt-tests stress-ng linux-perf sysstat strace libbpf-tools iproute2"
# make install-test: systemd-analyze (verify, security, syscall-filter), man
# and groff for the man page, setpriv, unshare and flock, strace, and
# /bin/kill, which the unit's ExecReload runs; zsh for
# the completions' checks
install="systemd man-db groff-base util-linux strace coreutils gzip procps zsh"
# make promtool-test: promtool and the server (Debian ships both in
# prometheus) and node_exporter (prometheus-node-exporter), each started by
# the test on loopback ports of its own (tests/prometheus/scrape.py), never
# as a service; flock and timeout for the tool's run
prometheus="prometheus prometheus-node-exporter python3 util-linux coreutils"
# make browser-test: Debian's chromium, headless (about 0.5 GiB installed
# with what it pulls in: 23 s here), and the prometheus whose web UI it
# loads; unshare and ip for the test's network namespace
browser="chromium prometheus python3 util-linux iproute2"
# make journal-catalog-test and the e2e journal_native: journalctl, and a
# systemd-journald of the test's own (started by PID in a mount namespace
# of its own, never as a service; unshare and mount for that)
journal="systemd util-linux coreutils"
# make image and kube-test: buildah builds the image FROM scratch; podman
# plays the DaemonSet's pod (catatonit: the pause image podman builds
# itself, nothing pulled; runc: crun refuses a hybrid host whose cgroup2 has
# a controller); python3-yaml reads the manifest. podman's units (socket,
# auto-update, restart) are stopped and disabled where an init started them
image="buildah podman runc catatonit python3-yaml"

# make unit ARCH=arm64: the aarch64 unit tests under qemu-user
cross_unit="qemu-user-static libcunit1-dev:arm64"
host_deb=$(dpkg --print-architecture)
foreign=	# the Debian architecture a cross build needs dpkg to know
case "${1:-build}" in
build) want=$build ;;
# make check: build, unit, prog-test and e2e's smoke: no guests, no fuzzer
check) want="$build $test" ;;
test) want="$build $test $fuzz $vmtest $install $prometheus $browser $journal $image $(cross_pkgs aarch64 arm64)"; foreign=arm64 ;;
fuzz) want="$build $fuzz" ;;
vmtest) want="$build $vmtest $(cross_pkgs aarch64 arm64)"; foreign=arm64 ;;
bench) want="$build $test $bench" ;;
install) want="$build $install" ;;
prometheus) want="$prometheus" ;;
browser) want="$browser" ;;
journal) want="$journal" ;;
image) want="$image" ;;
cross-arm64) want="$build $(cross_pkgs aarch64 arm64)"; foreign=arm64 ;;
cross-arm64-unit) want="$build $(cross_pkgs aarch64 arm64) $cross_unit"; foreign=arm64 ;;
cross-x86) want="$build $(cross_pkgs x86-64 amd64)"; foreign=amd64 ;;
*) echo "usage: $0 build|check|test|fuzz|vmtest|bench|install|prometheus|browser|journal|image|cross-arm64|cross-arm64-unit|cross-x86" >&2; exit 2 ;;
esac
[ "$foreign" != "$host_deb" ] || foreign=

arch_known()
{
	[ -z "$foreign" ] || dpkg --print-foreign-architectures | grep -qx "$foreign"
}

missing=
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && arch_known && exit 0

if [ "$(id -u)" != 0 ]; then
	arch_known || echo "deps: dpkg does not know the $foreign architecture (run as root, or: sudo dpkg --add-architecture $foreign)" >&2
	[ -z "$missing" ] || echo "deps: missing Debian packages:$missing (run as root, or: sudo apt-get install$missing)" >&2
	exit 1
fi
if ! arch_known; then
	echo "deps: dpkg --add-architecture $foreign"
	dpkg --add-architecture "$foreign"
fi
[ -z "$missing" ] && { apt-get update -qq; exit 0; }
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
# the prometheus and prometheus-node-exporter packages enable and start
# their servers where an init runs them: the tests start their own, by PID,
# and want none left on :9090 or :9100
for svc in prometheus prometheus-node-exporter; do
	case " $missing " in
	*" $svc "*) ;;
	*) continue ;;
	esac
	if systemctl is-active --quiet "$svc" 2>/dev/null; then
		echo "deps: stopping and disabling $svc.service (installed for make promtool-test)"
		systemctl disable --now "$svc" >/dev/null 2>&1 || true
	elif [ -x "/etc/init.d/$svc" ] && "/etc/init.d/$svc" status >/dev/null 2>&1; then
		echo "deps: stopping and disabling $svc (installed for make promtool-test)"
		"/etc/init.d/$svc" stop >/dev/null 2>&1 || true
		update-rc.d "$svc" disable >/dev/null 2>&1 || true
	fi
done
# podman enables its API socket, auto-update timer and restart service: the
# tests run podman by hand, in storage of their own, and want none of them
case " $missing " in
*" podman "*)
	for unit in podman.socket podman.service podman-auto-update.timer podman-restart.service; do
		systemctl is-enabled --quiet "$unit" 2>/dev/null || systemctl is-active --quiet "$unit" 2>/dev/null ||
			continue
		echo "deps: stopping and disabling $unit (installed for make image)"
		systemctl disable --now "$unit" >/dev/null 2>&1 || true
	done ;;
esac
