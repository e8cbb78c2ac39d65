# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# shellcheck shell=sh disable=SC2154 # tool, OUT: init.sh's
#
# extra.sh - checks of the x86 guests that init.sh calls (sourced, busybox
# sh; init.sh's helpers: result, now, until_true, event, stop, with_tool,
# skipped, hk_progs_gone, show). Kept apart so that init.sh stays readable;
# the PREEMPT_RT guest was their reason (issue #29), any x86 guest may run
# them (hkvm.skip leaves them out).

# both_events PID_A LABEL_A PID_B LABEL_B: both transitions are in
both_events()
{
	event "$1" "$2" && event "$3" "$4"
}

# --- starved_noisy: a loop and a nice-19 loop on one CPU ----------------------
# The pair on CPU 1; this shell (its 0.2 s polls) and the tool on CPU 0, so
# that the victim's share of CPU 1 is decided by the pair alone. Passes when
# the nice-19 loop is starved and the loop noisy_neighbor of it.
starved_noisy_check()
{
	skipped starved_noisy && return 0
	with_tool starved_noisy || return 0
	taskset -p -c 0 $$ >/dev/null
	taskset -a -p -c 0 "$tool" >/dev/null
	timeout -s KILL 60 taskset -c 1 hkload spin >/dev/null &
	sn_loop=$!
	# shellcheck disable=SC2016 # $$ is the inner shell's
	# (busybox-static has no nice applet: renice the shell before the exec)
	timeout -s KILL 60 sh -c 'renice -n 19 -p $$ >/dev/null && exec taskset -c 1 hkload spin' \
		>/dev/null &
	sn_nice=$!
	if until_true 2500 both_events "$sn_nice" starved "$sn_loop" noisy_neighbor; then
		line=$(grep "\"pid\":$sn_nice,.*\"to\":\"starved\"" "$OUT" | head -n 1)
		delay=$(echo "$line" | sed -n 's/.*"run_delay_pct":\([0-9.]*\).*/\1/p')
		aggr=$(echo "$line" | sed -n 's/.*"aggressor_pid":\([0-9a-z]*\).*/\1/p')
		line=$(grep "\"pid\":$sn_loop,.*\"to\":\"noisy_neighbor\"" "$OUT" | head -n 1)
		vict=$(echo "$line" | sed -n 's/.*"victim_pid":\([0-9a-z]*\).*/\1/p')
		# the pair is tied by the Noisy neighbor's victim: the Starved
		# event's aggressor is null when the victim never ran in its
		# window (no involuntary switch to count: 6.1-rt, 100 % queued)
		if [ "$vict" = "$sn_nice" ]; then
			result starved_noisy PASS "$t0" "nice-19 $sn_nice starved (run_delay_pct" \
				"$delay, aggressor_pid $aggr), $sn_loop noisy_neighbor of it"
		else
			result starved_noisy FAIL "$t0" "$sn_loop noisy_neighbor, but victim_pid" \
				"'$vict', want $sn_nice"
		fi
	else
		result starved_noisy FAIL "$t0" "in 25 s: nice-19 $sn_nice" \
			"$(grep -o "\"pid\":$sn_nice,.*\"to\":\"[a-z_]*\"" "$OUT" | sed 's/.*"to"://' | tr '\n' ' ')," \
			"loop $sn_loop $(grep -o "\"pid\":$sn_loop,.*\"to\":\"[a-z_]*\"" "$OUT" | sed 's/.*"to"://' | tr '\n' ' ')"
		show events "$OUT" 5
	fi
	stop "$sn_loop"
	stop "$sn_nice"
	taskset -a -p -c 0-1 "$tool" >/dev/null
	taskset -p -c 0-1 $$ >/dev/null
}

# --- jit_off: the JIT switched off, every driver refused in one line ----------
# net.core.bpf_jit_enable=0 (Debian's kernels: no CONFIG_BPF_JIT_ALWAYS_ON),
# then each driver: exit 1, and stderr is the one line naming the cause and
# the fix; the same with the switch hidden behind a bind mount reading 1
# (the verifier's refusal mapped to that line); nothing loaded afterwards;
# the switch put back.
JIT_LINE="hotspot-k: the kernel's BPF JIT is off (net.core.bpf_jit_enable=0) and hotspot-k's programs need it: turn it on with sysctl net.core.bpf_jit_enable=1"

# jit_refused DRIVER NAME: that driver exits 1, stderr the one line; NAME
# goes to j_ok or j_fail
jit_refused()
{
	timeout -s KILL 120 hotspot-k --driver "$1" -i 1s --duration 3s \
		>/dev/null 2>/tmp/jit.err
	st=$?
	if [ "$st" = 1 ] && [ "$(cat /tmp/jit.err)" = "$JIT_LINE" ]; then
		j_ok="$j_ok $2"
	else
		j_fail="$j_fail $2:exit$st"
		show "jit_off $2" /tmp/jit.err 3
	fi
}

jit_off_check()
{
	skipped jit_off && return 0
	now
	t0=$NOW
	jit_sw=/proc/sys/net/core/bpf_jit_enable
	# (busybox's read returns 1 on this file, its line read)
	jit_was=$(cat "$jit_sw" 2>/dev/null)
	if [ -z "$jit_was" ] || ! echo 0 >"$jit_sw" 2>/dev/null; then
		result jit_off FAIL "$t0" "cannot turn the JIT off ($jit_sw: '${jit_was:-}'," \
			"CONFIG_BPF_JIT_ALWAYS_ON?)"
		return 0
	fi
	j_ok=
	j_fail=
	for d in wq timer iter; do
		jit_refused "$d" "$d"
	done
	# the switch hidden (a network namespace of its own has none): the
	# load fails, and the verifier's words give the same line
	echo 1 >/tmp/jit.on
	if mount -o bind /tmp/jit.on "$jit_sw"; then
		jit_refused iter hidden-switch
		umount "$jit_sw"
	else
		j_fail="$j_fail hidden-switch:no-bind-mount"
	fi
	echo "$jit_was" >"$jit_sw"
	if ! until_true 500 hk_progs_gone; then
		result jit_off FAIL "$t0" "left loaded: $(hkvm progs hk_ 2>&1)"
	elif [ -z "$j_fail" ]; then
		result jit_off PASS "$t0" "exit 1, the one line, for${j_ok}; bpf_jit_enable back to $jit_was"
	else
		result jit_off FAIL "$t0" "${j_fail# }; passed:${j_ok:- none}"
	fi
}
