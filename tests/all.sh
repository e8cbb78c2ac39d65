#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# all.sh - what `make test` runs after installing the packages: every suite,
# in an order that keeps the machine quiet for the ones that measure time,
# then how long each took.
#
#   tests/all.sh [MAKE]
#
# The host's end-to-end suites (e2e, e2e-attack, e2e-iter) measure CPU shares
# and latencies on a 2-CPU machine: nothing else runs beside them. The guests
# of vmtest measure inside their own kernel, and the suites that only compute
# (unit, docs-check, docs-drift, promtool-test, browser-test, npd-test,
# journal-catalog-test, kube-test, sanitize, fuzz-smoke, prog-test,
# install-test)
# measure nothing: those
# two groups overlap. vmtest's output is kept in build/vmtest.out and shown
# when it ends. A failed suite ends the run at once (a vmtest still booting is
# killed by PID) and the times so far are printed; exit status is that suite's.
set -u
cd "$(dirname "$0")/.."

make=${1:-make}
out=build
times=$out/suite-times
t_all=$(date +%s%N)
vm_pid=

mkdir -p "$out" && : >"$times" && rm -f "$out"/e2e-times.* || exit 1

. tools/times.sh

report()
{
	times_table suite "$times" "$out" "make test" "$t_all"
}

stop_vmtest()
{
	[ -n "$vm_pid" ] || return 0
	# its own process group: qemu and the guest helpers with it
	kill -TERM -- "-$vm_pid" 2>/dev/null
	wait "$vm_pid" 2>/dev/null
	vm_pid=
}

fail()
{
	stop_vmtest
	report
	exit "$1"
}

trap 'fail 130' INT TERM

# suite NAME CMD...: run it in the foreground, record its time
suite()
{
	local name=$1 t0 rc
	shift
	t0=$(date +%s%N)
	HK_E2E_TIMES=$out/e2e-times.$name "$@"
	rc=$?
	echo "$name $(ms_since "$t0") $rc" >>"$times"
	[ "$rc" = 0 ] || fail "$rc"
}

# no include circle, none up the flow (< 1 s): before the build, which it
# does not need
suite include-check $make --no-print-directory include-check

# what every suite runs, built on every CPU: nothing else runs yet; then
# the aarch64 set of make vmtest's arm64 guests, cross-built in build/arm64
t0=$(date +%s%N)
$make --no-print-directory -j"$(nproc)" STATIC=1 hotspot-k build/prog-test build/hkload \
	build/profload build/uringidle build/hkvm &&
	$make --no-print-directory -j"$(nproc)" STATIC=1 ARCH=arm64 OUTPUT=build/arm64 \
		build/arm64/hotspot-k.arm64 build/arm64/prog-test build/arm64/hkload \
		build/arm64/hkvm build/arm64/leakload
rc=$?
echo "build $(ms_since "$t0") $rc" >>"$times"
[ "$rc" = 0 ] || fail "$rc"

# vmtest in the background, in a process group of its own (set -m)
vm_t0=$(date +%s%N)
set -m
# two guests at once (HK_VMTEST_JOBS): beside these suites the machine is
# busy already; three at once took 157 s, not 144, and doubled sanitize's
$make --no-print-directory STATIC=1 vmtest >"$out/vmtest.out" 2>&1 &
vm_pid=$!
set +m
echo "vmtest: booting the guests in the background (log: $out/vmtest.out)"

# Both CPUs are busy through this phase (the guests under TCG and these
# builds): -j for the sanitizer's and the fuzzer's builds gained nothing
# (122.7 -> 119.6 s, sanitize 39.3 -> 39.5 s), and only less work in either
# half makes it shorter
suite unit $make --no-print-directory STATIC=1 unit
suite docs-check $make --no-print-directory STATIC=1 docs-check
suite docs-drift $make --no-print-directory STATIC=1 docs-drift
suite promtool-test $make --no-print-directory STATIC=1 promtool-test
suite browser-test $make --no-print-directory STATIC=1 browser-test
suite npd-test $make --no-print-directory STATIC=1 npd-test
suite journal-catalog-test $make --no-print-directory STATIC=1 journal-catalog-test
suite kube-test $make --no-print-directory STATIC=1 kube-test
suite sanitize $make --no-print-directory sanitize
# the corpus replayed, then 2 s of fuzzing a target (make fuzz: 60 s each)
suite fuzz-smoke $make --no-print-directory FUZZ_SMOKE_SECONDS=2 fuzz-smoke
suite prog-test $make --no-print-directory STATIC=1 prog-test
suite install-test $make --no-print-directory STATIC=1 install-test

wait "$vm_pid"
rc=$?
vm_pid=
cat "$out/vmtest.out"
echo "vmtest $(ms_since "$vm_t0") $rc" >>"$times"
[ "$rc" = 0 ] || fail "$rc"

suite e2e $make --no-print-directory STATIC=1 e2e
suite e2e-attack $make --no-print-directory STATIC=1 e2e-attack
suite e2e-iter $make --no-print-directory STATIC=1 e2e-iter

report
echo "all test suites passed"
