#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Run libFuzzer targets one after the other (make fuzz, make fuzz-smoke).
#   tests/fuzz/run.sh --bin DIR --seconds N [--replay] TARGET...
# DIR holds fuzz_TARGET and gets, per target, a scratch corpus (a copy of
# tests/fuzz/corpus/TARGET that grows run after run, so that the committed
# one stays small), its log and any crash input:
#   DIR/corpus/TARGET/  DIR/log/TARGET.log  DIR/crashes/TARGET/crash-SHA1
# --replay first runs each committed input once: a regression test.
# Exits 1 when any target found something.
set -u

bin= seconds= replay=0
while [ $# -gt 0 ]; do
	case $1 in
	--bin) bin=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--replay) replay=1; shift ;;
	--) shift; break ;;
	-*) echo "usage: $0 --bin DIR --seconds N [--replay] TARGET..." >&2; exit 2 ;;
	*) break ;;
	esac
done
[ -n "$bin" ] && [ -n "$seconds" ] && [ $# -gt 0 ] ||
	{ echo "usage: $0 --bin DIR --seconds N [--replay] TARGET..." >&2; exit 2; }

here=$(dirname "$0")
src=$here/corpus
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# a hang is a finding too, but never one that holds make test
hard_limit=$((seconds + 120))
found=0

# What a finding looks like: the property or sanitizer report, the top of
# the stack, the input as hex, and the command that reproduces it.
report() {	# TARGET LOG [INPUT...]
	t=$1 log=$2
	shift 2
	grep -E 'property failed|^  [^ ]| bytes\): "|ERROR: |runtime error|SUMMARY: |^ *#[0-9]+ .* in ' "$log" |
		grep -v -E ' in (fuzzer::|main |__libc_start|_start |__sanitizer_print_stack_trace|__pthread_kill|raise |abort )' |
		head -n 30 | cut -c 1-400 | sed 's/^/           /'
	for f in "$@"; do
		echo "           input $f ($(wc -c <"$f") bytes):"
		od -A x -t x1z -v "$f" | head -n 16 | sed 's/^/             /'
		echo "           reproduce: $bin/fuzz_$t $f"
	done
	echo "           log: $log"
}

mkdir -p "$bin/log"
for t in "$@"; do
	fuzzer=$bin/fuzz_$t crashes=$bin/crashes/$t scratch=$bin/corpus/$t
	mkdir -p "$crashes" "$scratch"
	if [ ! -x "$fuzzer" ] || [ ! -d "$src/$t" ]; then
		echo "fuzz: no target $t ($fuzzer, $src/$t)" >&2
		exit 2
	fi

	if [ $replay = 1 ]; then
		log=$bin/log/$t.replay.log
		if ! timeout -k 10 $hard_limit "$fuzzer" -artifact_prefix="$crashes/" \
			"$src/$t"/* >"$log" 2>&1; then
			echo "  REPLAY   $t: FAILED on a committed input"
			report "$t" "$log" $(sed -n 's/^Running: //p' "$log" | tail -n 1)
			found=1
			continue
		fi
		echo "  REPLAY   $t: $(ls "$src/$t" | wc -l) committed inputs"
	fi

	# whole tokens that mutations rarely build byte by byte
	case $t in
	human|json) dict=-dict=$here/event.dict ;;
	*) dict=-dict=$here/config.dict ;;
	esac
	cp "$src/$t"/* "$scratch"/
	log=$bin/log/$t.log
	stamp=$bin/log/$t.stamp
	touch "$stamp"
	timeout -k 10 $hard_limit "$fuzzer" -max_total_time="$seconds" \
		-print_final_stats=1 -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
		"$dict" -artifact_prefix="$crashes/" "$scratch" >"$log" 2>&1
	rc=$?
	new=$(find "$crashes" -type f -newer "$stamp" \
		\( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.* cov: \([0-9]*\).* corp: \([0-9]*\).*/, cov \1, corpus \2/p')
	n=$(printf '%s' "$new" | grep -c .)
	echo "  FUZZ     $t: ${execs:-?} execs in ${seconds}s$cov, $n crashes"
	if [ $rc != 0 ] || [ $n != 0 ]; then
		[ $rc = 124 ] && echo "           killed after ${hard_limit}s"
		report "$t" "$log" $new
		found=1
	fi
done
exit $found
