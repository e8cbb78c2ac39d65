#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# /init of the vmtest guest (busybox sh as PID 1). Mounts what hotspot-k
# needs, runs the checks and prints for each
#     HKVM RESULT <check> PASS|FAIL|SKIP <seconds>s <detail>
# then "HKVM DONE <failures>", and leaves qemu through isa-debug-exit.
# tools/vmtest/vmtest.sh parses these lines from the serial console.
#
# Every process started here runs under busybox timeout (which execs the
# program in place, so $! is the program's PID) and is killed by that PID
# when its check ends. Limits are for TCG, measured in README.md.
#
# Kernel command line: hkvm.cgroup=v1 skips cgroup v2 (to test the v1 path);
# hkvm.node=1 runs the node guest's checks instead (node.sh, sourced);
# hkvm.skip=a,b leaves checks out (no RESULT line: vmtest.sh knows, and
# says where each runs instead: GUEST_SKIP).

export PATH=/bin

mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
mount -t bpf bpf /sys/fs/bpf

read -r up _ </proc/uptime
echo "HKVM BOOT $up"

HKVM_SKIP=" $(sed -n 's/.*hkvm\.skip=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ') "

# skipped CHECK: left out by hkvm.skip
skipped()
{
	case $HKVM_SKIP in *" $1 "*) return 0 ;; esac
	return 1
}

MEM_LIMIT=419430400	# 400 MiB: the leak below stops at 368 MiB
fails=0
tool=
OUT=/tmp/tool.out
ERR=/tmp/tool.err

# NOW: centiseconds since boot (/proc/uptime always has two decimals)
now()
{
	read -r up _ </proc/uptime
	frac=${up#*.}
	NOW=$((${up%.*} * 100 + ${frac#0}))
}

secs()
{
	printf '%d.%02d' $(($1 / 100)) $(($1 % 100))
}

# result CHECK PASS|FAIL|SKIP START_CS DETAIL...
result()
{
	r_check=$1
	r_status=$2
	r_start=$3
	shift 3
	now
	echo "HKVM RESULT $r_check $r_status $(secs $((NOW - r_start)))s $*"
	if [ "$r_status" = FAIL ]; then
		fails=$((fails + 1))
	fi
}

# alive PID: running and not a zombie (PID 1 reaps only in `wait`)
alive()
{
	[ -r "/proc/$1/stat" ] || return 1
	read -r _ _ a_state _ <"/proc/$1/stat" 2>/dev/null || return 1
	[ "$a_state" != Z ]
}

dead()
{
	! alive "$1"
}

# until_true LIMIT_CS CMD...: poll CMD every 0.2 s; 0 iff it succeeded in time
until_true()
{
	u_limit=$1
	shift
	now
	u_end=$((NOW + u_limit))
	while ! "$@"; do
		now
		[ "$NOW" -lt "$u_end" ] || return 1
		sleep 0.2
	done
}

# stop PID: SIGKILL and reap
stop()
{
	kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# event PID LABEL: hotspot-k printed PID's transition to LABEL
event()
{
	grep -q "\"pid\":$1,.*\"to\":\"$2\"" "$OUT"
}

# started PID: PID exited, or its first window is closed
started()
{
	dead "$1" || [ "$(hkvm windows 2>/dev/null)" -ge 1 ] 2>/dev/null
}

# with_tool CHECK: the check starts (t0), if hotspot-k runs; else it is
# skipped
with_tool()
{
	now
	t0=$NOW
	[ -n "$tool" ] && return 0
	result "$1" SKIP "$t0" "hotspot-k is not running"
	return 1
}

# awaited LABEL PID LIMIT_CS: PID's transition to LABEL came in time; else
# the check named LABEL fails (t0: its start)
awaited()
{
	until_true "$3" event "$2" "$1" && return 0
	result "$1" FAIL "$t0" "no $1 event for pid $2 in $(($3 / 100)) s"
	show events "$OUT" 5
	return 1
}

hk_progs_gone()
{
	# shellcheck disable=SC2046 # split "COUNT NAME..." into words
	set -- $(hkvm progs hk_)
	[ "${1:-x}" = 0 ]
}

# execed PID COMM: wait (5 s at most) until PID runs COMM. busybox's timeout
# execs the command in the PID $! names: a profile must see the program, not
# timeout's image half-way through the exec (seen once, on a loaded host:
# "cannot read its memory map: No such process")
execed()
{
	e_i=0
	while [ "$(cat /proc/$1/comm 2>/dev/null)" != "$2" ] && [ $e_i -lt 50 ]; do
		sleep 0.1
		e_i=$((e_i + 1))
	done
}

# indent the last lines of FILE under a label, for the host's failure tail
show()
{
	tail -n "$3" "$2" | sed "s/^/  $1: /"
}

echo "HKVM INFO kernel $(uname -r)"
if [ -e /sys/kernel/btf/vmlinux ]; then
	echo "HKVM INFO btf yes"
else
	echo "HKVM INFO btf no"
fi
echo "HKVM INFO cpus $(nproc) mem $(sed -n 's/^MemTotal: *//p' /proc/meminfo)"

# --- core: CO-RE relocations against this kernel's BTF ----------------------
# Every relocation libbpf applied, and the fields it found absent here. An
# absent field is fine only where the program guards it (field_exists or a
# ___flavor twin): an unguarded one leaves a poisoned call that the
# verifier reaches, and the load fails ("unknown#195896080").
# (after the load; the node guest calls it after its own)
core_check()
{
	now
	t0=$NOW
	core=$(awk '
		/relo #[0-9]+: <[a-z_]+> \[[0-9]+\] / && !/candidate/ {
			spec = $0
			sub(/.*relo #[0-9]+: /, "", spec)
			sub(/ \(.*/, "", spec)
			sub(/\[[0-9]+\] /, "", spec)
			n++
			next
		}
		/no matching targets found/ {
			if (!(spec in gone)) {
				gone[spec] = 1
				k++
				list = list (k > 1 ? ", " : "") spec
			}
		}
		END { printf "%d relocations, %d absent here: %s\n", n, k, (k ? list : "none") }
	' "$ERR")
	# each relocation's value here, one line per spec: vmtest.sh compares the
	# same kernel's on x86 and arm64 (the relocations that differ by arch)
	awk '
		/relo #[0-9]+: <[a-z_]+> \[[0-9]+\] / && !/candidate/ {
			spec = $0
			sub(/.*relo #[0-9]+: /, "", spec)
			sub(/ \(.*/, "", spec)
			sub(/\[[0-9]+\] /, "", spec)
			next
		}
		/relo #[0-9]+: patched insn/ { v = $0; sub(/.*-> /, "", v); val[spec] = v }
		/relo #[0-9]+: (substituting|poison)/ { val[spec] = "absent" }
		END { for (k in val) print "HKVM CORE " k " = " val[k] }
	' "$ERR" | sort
	if grep -q 'unknown#195896080\|failed to resolve CO-RE' "$ERR"; then
		result core FAIL "$t0" "an unguarded relocation: $(grep -m 1 'unknown#195896080\|failed to resolve CO-RE' "$ERR")"
	elif [ -z "$tool" ]; then
		result core FAIL "$t0" "not loaded; $core"
	else
		result core PASS "$t0" "$core"
	fi
}

# --- profile: the profiler's object loads, samples a busy loop, writes ------
profile_check()
{
	now
	t0=$NOW
	timeout -s KILL 60 hkload spin >/dev/null &
	spin=$!
	execed "$spin" hkload
	PROF=/tmp/profile.out
	# not /tmp itself: a directory anyone can write is refused, sticky too
	mkdir -p -m 0700 /tmp/prof
	if timeout -s KILL 120 hotspot-k profile "$spin" --duration 2s --dir /tmp/prof --json \
		>"$PROF" 2>&1 && grep -q '"state":"written"' "$PROF"; then
		done_line=$(grep '"state":"written"' "$PROF")
		samples=$(echo "$done_line" | sed -n 's/.*"on_cpu_samples":\([0-9]*\).*/\1/p')
		stacks=$(echo "$done_line" | sed -n 's/.*"stacks":\([0-9]*\).*/\1/p')
		svg=$(echo "$done_line" | sed -n 's/.*"svg":"\([^"]*\)".*/\1/p')
		if [ "${samples:-0}" -gt 0 ] && [ -s "$svg" ]; then
			result profile PASS "$t0" "$samples samples on-CPU, $stacks stacks in 2 s"
		else
			result profile FAIL "$t0" "no sample or no SVG: $(tail -n 1 "$PROF")"
		fi
	else
		result profile FAIL "$t0" "$(tail -n 2 "$PROF" | tr '\n' ' ')"
	fi
	stop "$spin"
}

# starved_noisy_check, jit_off_check
# shellcheck disable=SC1091 # tools/vmtest/extra.sh, at / in the guest
. /extra.sh

# --- prog-test: the in-kernel test runner (the node guest's too) ----------
now
t0=$NOW
if ! skipped prog-test; then
	timeout -s KILL 120 prog-test >/tmp/prog-test.out 2>&1
	st=$?
	last=$(grep -v '^[[:space:]]*$' /tmp/prog-test.out | tail -n 1)
	if [ "$st" = 0 ]; then
		result prog-test PASS "$t0" "$last"
	else
		result prog-test FAIL "$t0" "exit $st: $last"
		show prog-test /tmp/prog-test.out 20
	fi
fi

# the node guest: a cgroup v2 hierarchy and checks of its own; ends the guest
if grep -q 'hkvm\.node=1' /proc/cmdline; then
	# shellcheck disable=SC1091 # tools/vmtest/node.sh, at / in the guest
	. /node.sh
fi

# --- memory cgroup: v2 if it can be had, else the v1 controller ------------
memcg=
limit_file=
if ! grep -q 'hkvm.cgroup=v1' /proc/cmdline &&
	mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null; then
	if echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null &&
		mkdir /sys/fs/cgroup/hkvm; then
		memcg=/sys/fs/cgroup/hkvm
		limit_file=memory.max
		echo "HKVM INFO cgroup v2"
	else
		rmdir /sys/fs/cgroup/hkvm 2>/dev/null
		umount /sys/fs/cgroup
	fi
fi
if [ -z "$memcg" ] &&
	mount -t tmpfs cgroup /sys/fs/cgroup &&
	mkdir /sys/fs/cgroup/memory &&
	mount -t cgroup -o memory memory /sys/fs/cgroup/memory 2>/dev/null &&
	mkdir /sys/fs/cgroup/memory/hkvm; then
	memcg=/sys/fs/cgroup/memory/hkvm
	limit_file=memory.limit_in_bytes
	echo "HKVM INFO cgroup v1"
fi
if [ -n "$memcg" ] && ! echo "$MEM_LIMIT" >"$memcg/$limit_file"; then
	memcg=
fi
[ -n "$memcg" ] || echo "HKVM INFO cgroup none"

# --- load: hotspot-k loads, attaches and closes its first window -----------
now
t0=$NOW
# --verbose: libbpf's CO-RE log for the core check (and the verifier's on
# failure); it says nothing more once loaded
timeout -s KILL 300 hotspot-k --verbose --json -i 1s >"$OUT" 2>"$ERR" &
tool=$!
# the verifier runs ~15x slower under TCG: 40-60 s to load here (3.3 s
# natively: hk_arm verifies 615 k instructions since issue #17)
until_true 12000 started "$tool"
if dead "$tool"; then
	wait "$tool"
	st=$?
	result load FAIL "$t0" "exit $st: $(grep '^hotspot-k:' "$ERR" | head -n 1)"
	# the verifier's last steps say why
	grep -v '^libbpf: elf:\|^libbpf: sec\|^libbpf: map' "$ERR" |
		grep -B 60 -m 1 'too complex\|END PROG LOAD LOG\|processed [0-9]* insns' |
		sed 's/^/  verbose: /'
	show hotspot-k "$ERR" 5
	tool=
elif [ "$(hkvm windows 2>/dev/null)" -ge 1 ] 2>/dev/null; then
	# shellcheck disable=SC2046 # split "COUNT NAME..." into words
	set -- $(hkvm progs hk_)
	n=${1:-?}
	shift
	driver=$(grep -o 'driver [a-z]* ([^)]*)' "$ERR" | head -n 1)
	echo "HKVM INFO ${driver:-driver ?}"
	result load PASS "$t0" "first window closed; ${driver:-driver ?}; $n programs hk_*: $*"
else
	result load FAIL "$t0" "running, but no window closed in 120 s ($(hkvm windows 2>&1))"
	show hotspot-k "$ERR" 5
fi

core_check

# --- cpu_bound: a busy loop is diagnosed --------------------------------------
if skipped cpu_bound; then
	:
elif ! with_tool cpu_bound; then
	:
else
	timeout -s KILL 60 hkload spin >/dev/null &
	spin=$!
	if awaited cpu_bound "$spin" 2000; then
		result cpu_bound PASS "$t0" "pid $spin"
	fi
	stop "$spin"
fi

starved_noisy_check

skipped profile || profile_check

# --- leaf: the caller a leaf in a library hides, put back -------------------
# Where the image has a dynamic leakload and its libc (the arm64 guests: on
# x86, e2e's memprof_manual and memprof_offcpu_leaf on the host): leakload's
# leak_here() fills 1 MiB every 100 ms with libc's memset, a leaf that sets
# up no frame record, so the frame walk from a fault inside it goes from
# memset to leak_here's caller: leak_here is only in the link register,
# where the profiler takes it from on arm64 (profile.bpf.c,
# hk_prof_top_read). A memory profile of 3 s passes when >= 80 % of its
# bytes are under leak_here, as e2e asks on x86. (Off-CPU, arm64's libc
# needs no such help: clock_nanosleep keeps a frame record.)
if [ -x /bin/leakload ] && ! skipped leaf; then
	now
	t0=$NOW
	timeout -s KILL 60 leakload leak 1024 100 >/dev/null &
	lk=$!
	execed "$lk" leakload
	mkdir -p /tmp/leaf
	LEAF=/tmp/leaf.out
	if timeout -s KILL 120 hotspot-k profile "$lk" --memory --duration 3s --dir /tmp/leaf \
		--json >"$LEAF" 2>&1 && grep -q '"state":"written"' "$LEAF"; then
		folded=$(grep '"state":"written"' "$LEAF" | sed -n 's/.*"folded":"\([^"]*\)".*/\1/p')
		# bytes in all, and under leak_here
		set -- $(awk '{ t += $NF; if ($0 ~ /(^|;)leak_here(;| )/) k += $NF }
			END { print t + 0, k + 0 }' "$folded" 2>/dev/null)
		l_total=${1:-0}
		l_kept=${2:-0}
		if [ "$l_total" -gt 0 ] && [ $((l_kept / 1024 * 100)) -ge $((l_total / 1024 * 80)) ]; then
			result leaf PASS "$t0" "$((l_kept / 1024 * 100 / (l_total / 1024))) % of" \
				"$((l_total / 1048576)) MiB grown under leak_here"
		else
			result leaf FAIL "$t0" "of $l_total bytes grown, $l_kept under leak_here (want >= 80 %)"
			sort -t' ' -k2 -n -r "$folded" 2>/dev/null | head -n 4 | sed 's/^/  folded: /'
		fi
	else
		result leaf FAIL "$t0" "$(tail -n 2 "$LEAF" | tr '\n' ' ')"
	fi
	stop "$lk"
fi

# --- mem_throttled: a leak held at memory.high -------------------------------
# A cgroup v2 sibling of hkvm with memory.high = 64 MiB and no memory.max;
# the 16 MiB/s leak is held there after ~4 s (no swap in the guest: the
# kernel reclaims in vain, then sleeps it up to 2 s per return to user).
# A sleeper in the same cgroup must not be named. The detail gives what
# the tool saw and what the kernel counted (memory.events "high", the
# cgroup's growth) over 5 s once the event is in. Started before oom_risk's
# leak and judged after it: the two leaks grow side by side, each in its
# own cgroup and judged by its own PID, so that the guest waits for both
# trends at once (~10 s less a guest).
MEM_HIGH=67108864
mt_grow=
start_mem_throttled()
{
	skipped mem_throttled && return 0
	with_tool mem_throttled || return 0
	mt_t0=$t0
	if [ "$limit_file" != memory.max ]; then
		result mem_throttled SKIP "$t0" "no cgroup v2 memory controller (memory.high is v2's)"
		return 0
	fi
	hcg=/sys/fs/cgroup/hkvm-high
	if ! mkdir "$hcg" || ! echo "$MEM_HIGH" >"$hcg/memory.high"; then
		result mem_throttled FAIL "$t0" "cannot make $hcg with memory.high"
		return 0
	fi
	# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
	timeout -s KILL 60 sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 60' \
		sh "$hcg" &
	sleeper=$!
	# shellcheck disable=SC2016
	timeout -s KILL 60 sh -c 'echo $$ >"$1/cgroup.procs" &&
		exec hkload grow --step 4M --every 250ms --max 368M' \
		sh "$hcg" >/dev/null &
	mt_grow=$!
}

# finish_mem_throttled: its verdict, once oom_risk's is in (t0: its start)
finish_mem_throttled()
{
	[ -n "$mt_grow" ] || return 0
	grow=$mt_grow
	t0=$mt_t0
	if awaited mem_throttled "$grow" 3000; then
		line=$(grep "\"pid\":$grow,.*\"to\":\"mem_throttled\"" "$OUT" | head -n 1)
		m_from=$(echo "$line" | sed -n 's/.*"from":"\([a-z_]*\)".*/\1/p')
		m_high=$(echo "$line" | sed -n 's/.*"mem_high_bytes":\([0-9]*\).*/\1/p')
		m_use=$(echo "$line" | sed -n 's/.*"mem_high_usage_bytes":\([0-9]*\).*/\1/p')
		m_eps=$(echo "$line" | sed -n 's/.*"mem_high_events_per_s":\([0-9]*\).*/\1/p')
		m_flt=$(echo "$line" | sed -n 's/.*"faults_per_s":\([0-9]*\).*/\1/p')
		m_gro=$(echo "$line" | sed -n 's/.*"rss_growth_bytes_per_s":\(-*[0-9]*\).*/\1/p')
		k_ev0=$(sed -n 's/^high //p' "$hcg/memory.events")
		read -r k_cur0 <"$hcg/memory.current"
		sleep 5
		k_ev1=$(sed -n 's/^high //p' "$hcg/memory.events")
		read -r k_cur1 <"$hcg/memory.current"
		k_rate="kernel over 5 s: $(((k_ev1 - k_ev0) / 5)) high events/s, usage $(((k_cur1 - k_cur0) / 5120)) KiB/s, high count $k_ev1"
		if [ "$m_high" != "$MEM_HIGH" ]; then
			result mem_throttled FAIL "$t0" "pid $grow: mem_high_bytes '$m_high', want $MEM_HIGH"
		elif event "$sleeper" mem_throttled; then
			result mem_throttled FAIL "$t0" "the sleeper $sleeper was named too"
		else
			result mem_throttled PASS "$t0" "pid $grow $m_from -> mem_throttled: high $m_high," \
				"usage $m_use, $m_eps high events/s, $m_flt faults/s, anon $m_gro B/s; $k_rate"
		fi
	fi
	stop "$grow"
	stop "$sleeper"
	rmdir "$hcg" 2>/dev/null
}
start_mem_throttled

# --- oom_risk: a steady leak inside a memory cgroup with a limit -------------
if skipped oom_risk; then
	:
elif ! with_tool oom_risk; then
	:
elif [ -z "$memcg" ]; then
	result oom_risk FAIL "$t0" "no memory cgroup"
else
	# 16 MiB/s: oom_risk needs >= 10 s of trend and 64 MiB of growth;
	# --max keeps it under the limit if the kill comes late
	# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
	timeout -s KILL 60 sh -c 'echo $$ >"$1/cgroup.procs" &&
		exec hkload grow --step 4M --every 250ms --max 368M' \
		sh "$memcg" >/dev/null &
	grow=$!
	if awaited oom_risk "$grow" 2500; then
		limit=$(grep "\"pid\":$grow,.*\"to\":\"oom_risk\"" "$OUT" | head -n 1 |
			sed -n 's/.*"limit_kind":"\([a-z]*\)","limit_bytes":\([0-9]*\).*/\1 \2/p')
		if [ "$limit" = "memcg $MEM_LIMIT" ]; then
			result oom_risk PASS "$t0" "pid $grow, limit $limit"
		else
			result oom_risk FAIL "$t0" "pid $grow: limit '$limit', want 'memcg $MEM_LIMIT'"
		fi
	fi
	stop "$grow"
fi
finish_mem_throttled

# --- sigint: a clean stop with the exit summary -------------------------------
if ! with_tool sigint; then
	:
else
	kill -INT "$tool"
	if until_true 1000 dead "$tool"; then
		wait "$tool"
		st=$?
		summary=$(grep -m 1 '^hotspot-k: [0-9]* windows' "$ERR" | cut -d, -f1-2)
		if [ "$st" = 0 ] && [ -n "$summary" ]; then
			result sigint PASS "$t0" "exit 0: $summary"
		elif [ "$st" = 0 ]; then
			result sigint FAIL "$t0" "exit 0 but no exit summary on stderr"
			show hotspot-k "$ERR" 5
		else
			result sigint FAIL "$t0" "exit $st"
			show hotspot-k "$ERR" 5
		fi
	else
		stop "$tool"
		result sigint FAIL "$t0" "still running 10 s after SIGINT"
	fi
	tool=
fi

# the whole story, for the log
if [ -s "$OUT" ]; then
	show event "$OUT" 30
fi

# --- no_bpf_left: nothing of hotspot-k stays loaded ---------------------------
now
t0=$NOW
# freeing the timer's map is deferred to a workqueue: allow it a moment
if until_true 500 hk_progs_gone; then
	result no_bpf_left PASS "$t0" "no hk_* program loaded"
else
	result no_bpf_left FAIL "$t0" "still loaded: $(hkvm progs hk_ 2>&1)"
fi

# --- drivers: every other driver this kernel has runs windows -------------
# Refused drivers must be refused by name ("--driver X: the kernel has no").
now
t0=$NOW
d_ok=
d_fail=
drivers_left="wq table timer iter"
skipped drivers && drivers_left=
for d in $drivers_left; do
	case $driver in "driver $d "*) continue ;; esac
	timeout -s KILL 120 hotspot-k --driver "$d" -i 1s --duration 3s \
		>/dev/null 2>/tmp/driver.err
	st=$?
	w=$(sed -n 's/^hotspot-k: \([0-9]*\) windows.*/\1/p' /tmp/driver.err | head -n 1)
	if [ "$st" = 0 ] && [ "${w:-0}" -ge 2 ]; then
		d_ok="$d_ok $d:${w}w"
	elif [ "$st" = 1 ] && grep -q "^hotspot-k: --driver $d: the kernel has no" /tmp/driver.err; then
		d_ok="$d_ok $d:refused"
	else
		d_fail="$d_fail $d:exit$st/${w:-0}w"
		show "driver $d" /tmp/driver.err 5
	fi
done
if skipped drivers; then
	:
elif [ -z "$d_fail" ]; then
	result drivers PASS "$t0" "${d_ok# }"
else
	result drivers FAIL "$t0" "${d_fail# }; passed:${d_ok:- none}"
fi
if until_true 500 hk_progs_gone; then :; else
	result drivers FAIL "$t0" "left loaded: $(hkvm progs hk_ 2>&1)"
fi

jit_off_check

# --- as_5_15: the paths of kernels older than this one ----------------------
# Bounded loops for bpf_loop() (5.15, 5.16) and the 4-argument sched_switch
# program (< 5.18), through this kernel's verifier: 3 s of the tool with the
# iter driver, which loads every program the old kernels get (the window's
# step and its loops are hk_iter's). The vectors under bounded loops run on
# the host (make prog-test); here they took 46 s of 6.1's verifier for a
# test-only program (hk_test_win), and proved nothing the tool's load does not.
# 240 s at most: on arm64-6.1 beside the other guests and make test's
# suites it took 87-114 s (2026-11-29), and once over the 120 it had then.
now
t0=$NOW
if ! skipped as_5_15; then
	HOTSPOT_K_AS_5_15=1 timeout -s KILL 240 hotspot-k --driver iter -i 1s --duration 3s \
		>/dev/null 2>/tmp/as515.err
	st=$?
	w=$(sed -n 's/^hotspot-k: \([0-9]*\) windows.*/\1/p' /tmp/as515.err | head -n 1)
	if [ "$st" = 0 ] && [ "${w:-0}" -ge 2 ] && grep -q 'bounded loops' /tmp/as515.err; then
		result as_5_15 PASS "$t0" "tool: ${w} windows, bounded loops, 4-argument sched_switch"
	else
		result as_5_15 FAIL "$t0" "tool exit $st, ${w:-0} windows"
		show hotspot-k /tmp/as515.err 10
	fi
fi

echo "HKVM DONE $fails"
sync
hkvm exit "$fails"
poweroff -f
