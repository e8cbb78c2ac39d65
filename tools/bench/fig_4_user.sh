# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_4_user.sh - figure 4, the hotspot-k process over USER_S seconds with
# the defaults, started under strace -f: system calls, wake-ups, CPU, RSS;
# figure 7's maps are read from the same process (fig_7_mem.sh's
# mem_section). Sourced by run.sh (it uses lib.sh's helpers).

USER_S=${BENCH_USER_S:-60}

# status_field PID KEY: a field of /proc/PID/status
status_field()
{
	awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"
}

fig_user()
{
	local pid c0 c1 v0 v1 n0 n1 e0 e1 t0 t1 rss hwm calls=0 sys tick

	log "4. userspace: hotspot-k with the defaults, ${USER_S} s, started under strace -f"
	# strace from the exec: attaching to a running hotspot-k interrupts its
	# epoll_wait with EINTR, which hotspot-k took for a stop when written
	if ! strace_start user --json; then
		fail user "hotspot-k did not start under strace: $(tail -2 "$WORK/hk-user.log")"
		return
	fi
	pid=$TR_PID
	mem_section "$pid"
	nap 1
	t0=$(date +%s.%N)
	c0=$(cpu_ticks "$pid")
	v0=$(status_field "$pid" voluntary_ctxt_switches)
	n0=$(status_field "$pid" nonvoluntary_ctxt_switches)
	e0=$(grep -c '^{' "$WORK/hk-user.log")
	nap "$USER_S"
	t1=$(date +%s.%N)
	c1=$(cpu_ticks "$pid")
	v1=$(status_field "$pid" voluntary_ctxt_switches)
	n1=$(status_field "$pid" nonvoluntary_ctxt_switches)
	e1=$(grep -c '^{' "$WORK/hk-user.log")
	rss=$(status_field "$pid" VmRSS)
	hwm=$(status_field "$pid" VmHWM)
	stop "$pid" TERM 15
	stop "$TR_STRACE" TERM 15
	tick=$(getconf CLK_TCK)
	sys=$(syscalls_in "$WORK/strace-user.txt" "$t0" "$t1")
	[ -z "$sys" ] || calls=$(awk '{ s += $2 } END { print s }' <<<"$sys")
	[ -z "$sys" ] || sys=$(awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }' <<<"$sys")

	section 4-user
	say "## 4. Userspace: the hotspot-k process over ${USER_S} s"
	say ""
	say "| measure | value | target |"
	say "| --- | --- | --- |"
	local met
	# the watchdog (a timer driver's windows must keep coming) wakes the
	# tool when 3 intervals of 5 s pass without a walk ending: at least
	# 2 intervals apart, one epoll_wait each (hk_stats is mapped)
	local watchdog=$(( (USER_S + 9) / 10 ))
	met=$(awk -v c="$calls" -v e="$((e1 - e0))" -v w="$watchdog" 'BEGIN { print (c <= 2 + w + 4 * e) ? 1 : 0 }')
	say "| system calls in ${USER_S} s (strace -f) | $calls${sys:+ ($sys)} | only the watchdog's ($watchdog at most) and the transitions': $(verdict "$met") |"
	summary "4. userspace" "$calls system calls, $((v1 - v0)) wake-ups (voluntary switches), $(fmt %.0f "$(calc "($c1 - $c0) * 1000 / $tick")") ms CPU in ${USER_S} s ($((e1 - e0)) transitions printed); RSS $(fmt %.1f "$(calc "$rss / 1024")") MiB" "only the watchdog's wake-ups (≤ $watchdog): $(verdict "$met")"
	say "| transitions printed meanwhile (each: a wake-up, a write) | $((e1 - e0)) | |"
	say "| voluntary / involuntary context switches in ${USER_S} s (/proc/PID/status) | $((v1 - v0)) / $((n1 - n0)) | |"
	say "| CPU time in ${USER_S} s (utime + stime, /proc/PID/stat) | $(fmt %.0f "$(calc "($c1 - $c0) * 1000 / $tick")") ms | |"
	say "| RSS (VmRSS) / peak (VmHWM) | $(fmt %.1f "$(calc "$rss / 1024")") MiB / $(fmt %.1f "$(calc "$hwm / 1024")") MiB | |"
	say ""
	say "Method: one hotspot-k with the defaults (5 s windows, \`--json\`) started under \`strace -f -ttt\` (strace from the exec: attaching with \`strace -p\` interrupts the epoll_wait with EINTR, which hotspot-k at the time of writing took for a stop, exiting 0), nothing started by the bench meanwhile (other users' processes may still change state: their transitions are counted above). After a 1 s settle, the system calls strace saw entered during the next ${USER_S} s are counted by name; CPU from /proc/PID/stat fields 14+15 ($tick Hz ticks) and switches from /proc/PID/status at both ends. Met when the calls are explained by the watchdog (one epoll_wait when 3 intervals pass without a window: at most one per 2 intervals, ${watchdog} in ${USER_S} s) and the transitions printed (≤ 2 + 4 per transition)."
	say ""
	[ -s "$WORK/strace-user.txt" ] && [ -n "$rss" ] || fail user "hotspot-k or strace stopped early"
}
