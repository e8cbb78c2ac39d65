#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# check.sh - what `make check` runs after installing the packages: the loop
# for every edit, at most 2 minutes on a 2-CPU machine from a built tree.
# `make test` stays the one command that proves everything.
#
#   tools/check.sh [MAKE]
#
# 1. build: everything the parts below run, in one make on every CPU (make
#    check-build), so that the two makes of step 2 find nothing left to
#    build. A failed build ends the check.
# 2. unit and prog-test beside each other, each into its log in build/check:
#    both only compute (prog-test runs the programs in the kernel with
#    BPF_PROG_TEST_RUN), neither measures time.
# 3. the tree and the docs: include-check, docs-check, docs-drift (< 1 s).
# 4. e2e's smoke (make e2e-smoke: tests/e2e/run.py --smoke), alone: its CPU
#    scenarios measure CPU shares, and wait for a calm machine first.
# Steps 3 and 4 run whether step 2 passed or not: one run names every broken part.
# Then a table of each part's seconds, what failed in each failed part, and
# the exit status of the first failed part (0 when all passed).
set -u
cd "$(dirname "$0")/.."

make=${1:-make}
out=build/check
times=$out/times
t_all=$(date +%s%N)
pids=

mkdir -p "$out" && : >"$times" || exit 1

. tools/times.sh

# what failed in a part, from its log: prog-test's and e2e's FAIL lines,
# CUnit's failed tests and assertions, the compiler's and make's errors
failures()
{
	grep -E '^(FAIL|RETRY) |\.\.\.FAILED|^ +[0-9]+\. [^ ]+:[0-9]+ |error:|\*\*\*' "$1" |
		cut -c1-200 | head -n 20
}

report()
{
	local name ms rc log first

	times_table part "$times" "$out" "make check" "$t_all"
	first=$(awk '$3 != 0 { print $3; exit }' "$times")
	[ -n "$first" ] || { echo "make check: all parts passed"; return 0; }
	while read -r name ms rc; do
		[ "$rc" != 0 ] || continue
		log=$out/$name.log
		echo
		[ -f "$log" ] || { echo "make check: $name (exit $rc)"; continue; }
		echo "make check: $name FAILED (exit $rc); its log: $log"
		failures "$log" | sed 's/^/  /'
	done <"$times"
	return "$first"
}

# stop the parts running in the background, by PID (their process groups)
stop_parts()
{
	local pid

	for pid in $pids; do
		kill -TERM -- "-$pid" 2>/dev/null
	done
	wait 2>/dev/null
	pids=
}

trap 'stop_parts; echo "interrupted $(ms_since "$t_all") 130" >>"$times"; report; exit 130' INT TERM

# part NAME CMD...: run it in the foreground, its output shown and kept in
# build/check/NAME.log; record its time (and an e2e run's, each test's)
part()
{
	local name=$1 t0 rc
	shift
	t0=$(date +%s%N)
	HK_E2E_TIMES=$out/e2e-times.$name "$@" 2>&1 | tee "$out/$name.log"
	rc=${PIPESTATUS[0]}
	echo "$name $(ms_since "$t0") $rc" >>"$times"
	return "$rc"
}

# beside NAME CMD...: run it in the background, in a process group of its
# own, its output into build/check/NAME.log; its time is recorded by itself
beside()
{
	local name=$1
	shift
	set -m
	( t0=$(date +%s%N); "$@" >"$out/$name.log" 2>&1; rc=$?
	  echo "$name $(ms_since "$t0") $rc" >"$out/$name.rc" ) &
	pids="$pids $!"
	set +m
}

rm -f "$out"/*.rc "$out"/e2e-times.*
if ! part build $make --no-print-directory -j"$(nproc)" STATIC=1 check-build; then
	report
	exit
fi

echo "unit and prog-test, beside each other (logs: $out/unit.log, $out/prog-test.log)"
beside unit $make --no-print-directory STATIC=1 unit
beside prog-test $make --no-print-directory STATIC=1 prog-test
wait
pids=
for name in unit prog-test; do
	cat "$out/$name.rc" >>"$times" 2>/dev/null || echo "$name 0 1" >>"$times"
	# what each says it passed: CUnit's counts, prog-test's lines of its own
	case $name in
	unit) grep -E '^ +(tests|asserts) ' "$out/unit.log" | sed 's/^ */unit: /' ;;
	prog-test) grep -E '^[0-9]+ passed, [0-9]+ failed$|^stack chains: [0-9]' \
			"$out/prog-test.log" | sed 's/^/prog-test: /' ;;
	esac
done

# the tree and the docs against the binary: under a second together
part checks $make --no-print-directory STATIC=1 include-check docs-check docs-drift
part e2e-smoke $make --no-print-directory STATIC=1 e2e-smoke
report
