#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# make sanitize: the unit tests and hotspot-k built with ASan + UBSan, run
# through the command line and, as root, a real run with the BPF loaded and
# a busy loop beside it, so that events get formatted. Any sanitizer report
# fails, as does an unexpected exit status.
#   tests/fuzz/sanitize.sh --tool PATH --unit-tests PATH --out DIR
# A run that loads BPF holds /tmp/hk-bpf.lock, like every other one, so
# that two never overlap.
set -u

tool= unit= out=
while [ $# -gt 0 ]; do
	case $1 in
	--tool) tool=$2; shift 2 ;;
	--unit-tests) unit=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) echo "usage: $0 --tool PATH --unit-tests PATH --out DIR" >&2; exit 2 ;;
	esac
done
[ -n "$tool" ] && [ -n "$unit" ] && [ -n "$out" ] ||
	{ echo "usage: $0 --tool PATH --unit-tests PATH --out DIR" >&2; exit 2; }

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
LOCK=/tmp/hk-bpf.lock
REPORT='ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: AddressSanitizer|runtime error:|UndefinedBehaviorSanitizer'
failed=0
rm -rf "$out" && mkdir -p "$out"

fail() {	# NAME WHY: show what the run printed
	echo "  ASAN     $1: FAILED: $2"
	for f in "$out/$1.out" "$out/$1.err"; do
		[ -s "$f" ] || continue
		echo "           --- $f"
		tail -n 40 "$f" | sed 's/^/           /'
	done
	failed=1
}

# NAME WANT: the run's exit status was $rc; WANT a status, or "usage" (2)
check() {
	if grep -q -E "$REPORT" "$out/$1.err"; then
		fail "$1" "sanitizer report (exit $rc)"
		return 1
	fi
	if [ "$rc" != "$2" ]; then
		fail "$1" "exit status $rc, expected $2"
		return 1
	fi
	return 0
}

# NAME WANT SECONDS CMD...: a run that loads nothing
run() {
	name=$1 want=$2 limit=$3
	shift 3
	timeout -k 5 "$limit" "$@" </dev/null >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	check "$name" "$want" && echo "  ASAN     $name: exit $rc, no report"
}

# unit tests: all pass, nothing reported
timeout -k 5 300 "$unit" </dev/null >"$out/unit-tests.out" 2>"$out/unit-tests.err"
rc=$?
if check unit-tests 0; then
	echo "  ASAN     unit-tests: $(awk '$1 == "tests" { t = $3 } $1 == "asserts" { a = $3 }
		END { if (t != "") printf "%s tests, %s asserts ", t, a }' "$out/unit-tests.out")passed, no report"
fi

# the command line
run help 0 20 "$tool" --help
run version 0 20 "$tool" --version
run generate-config 0 20 "$tool" --generate-config
cp "$out/generate-config.out" "$out/good.conf"
run check-good 0 20 "$tool" --check-config "$out/good.conf"
printf '[general]\ninterval = 5\n[nope]\n' >"$out/bad.conf"
run check-bad 2 20 "$tool" --check-config "$out/bad.conf"
run check-missing 2 20 "$tool" --check-config "$out/does-not-exist.conf"
run bad-flag 2 20 "$tool" --bogus
run bad-interval 2 20 "$tool" -i nonsense
run zero-interval 2 20 "$tool" -i 0s
run bad-duration 2 20 "$tool" --duration 500ms
run bad-driver 2 20 "$tool" --driver nope
run bad-max-procs 2 20 "$tool" --max-procs 12
run extra-arg 2 20 "$tool" extra
run bad-freeze-eta 2 20 "$tool" --freeze-on-oom 1.5s
run bad-never-freeze 2 20 "$tool" --never-freeze /a/..
run freeze-with-pin 2 20 "$tool" --pin --freeze-on-oom 60s
run thaw-help 0 20 "$tool" thaw --help
run thaw-usage 2 20 "$tool" thaw
run thaw-missing 1 20 "$tool" thaw /hk-sanitize-no-such-cgroup

# A real run: a busy loop beside it for as long as the tool runs (killed
# by its PID after), so that at least one process changes diagnosis in 3 s
# of 1 s windows (enter_windows = 1: after one). Not a fixed 5 s: loading
# takes ~3 s natively since the walk grew (issue #17), more on a cold
# machine, and a loop that ended before the first window left none.
# The lock is held for the run only; every process has a hard timeout.
printf '[general]\nenter_windows = 1\n' >"$out/fast.conf"
bpf_run() {	# NAME ARGS...
	name=$1
	shift
	flock -w 900 -E 75 "$LOCK" sh -c '
		timeout 60 yes >/dev/null &
		busy=$!
		timeout -k 5 20 "$@"
		rc=$?
		kill "$busy" 2>/dev/null
		wait "$busy" 2>/dev/null
		exit $rc' sh "$tool" --config "$out/fast.conf" --duration 3s -i 1s "$@" \
		</dev/null >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	[ $rc = 75 ] && { fail "$name" "$LOCK still held after 900 s"; return 1; }
	check "$name" 0 || return 1
	lines=$(wc -l <"$out/$name.out")
	[ "$lines" -gt 0 ] || { fail "$name" "no event in 3 s"; return 1; }
	return 0
}
if [ "$(id -u)" != 0 ]; then
	echo "  ASAN     run: skipped, not root"
else
	# the freezer set up, described and freed (a busy loop is no OOM risk)
	bpf_run run-human --freeze-on-oom 60s &&
		echo "  ASAN     run-human: $lines events, no report"
	if bpf_run run-json --json --utc; then
		if python3 -c 'import json, sys
for line in sys.stdin:
	json.loads(line)' <"$out/run-json.out" 2>"$out/run-json.check"; then
			echo "  ASAN     run-json: $lines events, each JSON, no report"
		else
			cat "$out/run-json.check" >>"$out/run-json.err"
			fail run-json "not JSON lines"
		fi
	fi
fi

[ $failed = 0 ] || echo "  ASAN     logs: $out"
exit $failed
