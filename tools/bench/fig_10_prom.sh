# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_10_prom.sh - figure 10, what --prometheus FILE costs an idle hotspot-k:
# instances with the defaults (5 s windows), with --prometheus and without,
# side by side for PROM_S seconds, each pair once under strace -f from its
# exec (system calls) and once not traced (switches, CPU: strace's stops are
# switches too); not in "all" (~1.2 min). Sourced by run.sh (it uses
# lib.sh's helpers, strace_start and syscalls_in among them).

PROM_S=${BENCH_PROM_S:-60}

# switches PID: "voluntary involuntary" context switches, all its threads
switches()
{
	cat /proc/"$1"/task/*/status 2>/dev/null |
		awk '$1 == "voluntary_ctxt_switches:" { v += $2 } $1 == "nonvoluntary_ctxt_switches:" { n += $2 } END { print v + 0, n + 0 }'
}

# prom_sample TAG: "cpu_ticks voluntary involuntary transitions" of an instance
prom_sample()
{
	echo "$(cpu_ticks "$1") $(switches "$1") $(grep -c '^{' "$WORK/hk-$2.log")"
}

# tadd T S: epoch time T plus S seconds, to the µs (calc's %.6g would round)
tadd()
{
	awk -v t="$1" -v s="$2" 'BEGIN { printf "%.6f\n", t + s }'
}

# nap_until T: sleep until epoch time T (not at all if it has passed)
nap_until()
{
	nap "$(awk -v t="$1" -v now="$(date +%s.%N)" 'BEGIN { x = t - now; print ((x > 0) ? x : 0) }')"
}

# prom_start TAG: one of the four instances (prom, plain: under strace;
# prom-bare, plain-bare: not traced); its PID in pr_pid[TAG], its window in
# pr_t0/pr_t1[TAG] (the caller's arrays)
prom_start()
{
	local tag=$1
	local -a args=(--json)

	case $tag in
	prom) args+=(--prometheus "$WORK/hk.prom") ;;
	prom-bare) args+=(--prometheus "$WORK/hk-bare.prom") ;;
	esac
	case $tag in
	*-bare)
		hk_start "$WORK/hk-$tag.log" "${args[@]}" || return 1
		pr_pid[$tag]=$HK_PID
		;;
	*)
		strace_start "$tag" "${args[@]}" || return 1
		pr_pid[$tag]=$TR_PID
		pr_st[$tag]=$TR_STRACE
		;;
	esac
	# each instance's own PROM_S from 1 s after it attached: its
	# watchdog's wake-ups (3 intervals apart from its start on) then fall
	# at the same places in all four, ~1 s from either end
	pr_t0[$tag]=$(tadd "$(date +%s.%N)" 1)
	pr_t1[$tag]=$(tadd "${pr_t0[$tag]}" "$PROM_S")
}

PROM_TAGS="prom plain prom-bare plain-bare"

fig_prom()
{
	local tag tick ok=1
	local -A pr_pid pr_st pr_t0 pr_t1 pr_s0 pr_s1 pr_sys pr_calls pr_ep pr_ren pr_drv

	log "10. --prometheus: hotspot-k with the defaults, with and without --prometheus, under strace -f and not traced, ${PROM_S} s side by side"
	rm -f "$WORK/hk.prom" "$WORK/hk.prom.tmp" "$WORK/hk-bare.prom" "$WORK/hk-bare.prom.tmp"
	for tag in $PROM_TAGS; do
		prom_start "$tag" && continue
		echo "bench: hotspot-k ($tag) did not start: $(tail -2 "$WORK/hk-$tag.log")" >&2
		ok=0
		break
	done
	if [ "$ok" = 1 ]; then
		# started in this order: each one's t0 and t1 come in it
		for tag in $PROM_TAGS; do
			nap_until "${pr_t0[$tag]}"
			pr_s0[$tag]=$(prom_sample "${pr_pid[$tag]}" "$tag")
		done
		for tag in $PROM_TAGS; do
			nap_until "${pr_t1[$tag]}"
			pr_s1[$tag]=$(prom_sample "${pr_pid[$tag]}" "$tag")
		done
	fi
	for tag in $PROM_TAGS; do
		stop "${pr_pid[$tag]:-}" TERM 15
		stop "${pr_st[$tag]:-}" TERM 15
	done
	[ "$ok" = 1 ] || { fail prom "hotspot-k did not start"; return; }
	for tag in $PROM_TAGS; do
		pr_drv[$tag]=$(grep -m 1 ' windows, ' "$WORK/hk-$tag.log" | sed -n 's/.*, driver \([a-z]*\),.*/\1/p')
		[ "${tag%-bare}" = "$tag" ] || continue
		pr_sys[$tag]=$(syscalls_in "$WORK/strace-$tag.txt" "${pr_t0[$tag]}" "${pr_t1[$tag]}")
		pr_calls[$tag]=$(awk '{ s += $2 } END { print s + 0 }' <<<"${pr_sys[$tag]}")
		pr_ep[$tag]=$(awk '$1 ~ /^epoll_p?wait$/ { s += $2 } END { print s + 0 }' <<<"${pr_sys[$tag]}")
		pr_ren[$tag]=$(awk '$1 ~ /^rename/ { s += $2 } END { print s + 0 }' <<<"${pr_sys[$tag]}")
		[ -s "$WORK/strace-$tag.txt" ] || ok=0
	done
	tick=$(getconf CLK_TCK)
	prom_report "$tick"
	[ "$ok" = 1 ] || fail prom "strace wrote nothing"
}

# prom_delta TAG FIELD: Δ over the window of a prom_sample field (0 CPU
# ticks, 1 voluntary, 2 involuntary switches, 3 transitions)
prom_delta()
{
	local -a a b

	read -r -a a <<<"${pr_s0[$1]}"
	read -r -a b <<<"${pr_s1[$1]}"
	echo $((b[$2] - a[$2]))
}

# prom_row LABEL TAG: a row of the table (the caller's arrays): system calls
# from the traced instance, switches and CPU from the untraced one
prom_row()
{
	local t=$2 u=$2-bare

	say "| $1 | ${pr_calls[$t]}$([ -z "${pr_sys[$t]}" ] || echo " ($(awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }' <<<"${pr_sys[$t]}"))") | ${pr_ep[$t]} | ${pr_ren[$t]} | $(prom_delta "$u" 1) / $(prom_delta "$u" 2) | $(prom_delta "$t" 1) | $(fmt %.0f "$(calc "$(prom_delta "$u" 0) * 1000 / $tick")") ms | $(prom_delta "$t" 3) / $(prom_delta "$u" 3) | ${pr_drv[$t]:-?} / ${pr_drv[$u]:-?} |"
}

prom_report()
{
	local tick=$1 span=$PROM_S dcalls dep dvol dren tr met lines bytes wd
	local own sep=""

	dcalls=$(calc "(${pr_calls[prom]} - ${pr_calls[plain]}) * 60 / $span")
	dep=$(calc "(${pr_ep[prom]} - ${pr_ep[plain]}) * 60 / $span")
	dvol=$(calc "($(prom_delta prom-bare 1) - $(prom_delta plain-bare 1)) * 60 / $span")
	dren=$(calc "(${pr_ren[prom]} - ${pr_ren[plain]}) * 60 / $span")
	tr=$(prom_delta prom 3)
	# the watchdog: one epoll_wait when 3 intervals of 5 s pass without a
	# window, at most one per 2 intervals
	wd=$(( (PROM_S + 9) / 10 ))
	# no wake-up of its own: at most one more than without per transition
	# it printed (news waits a window after the last write, then wakes the
	# loop once)
	own=$((pr_ep[prom] - pr_ep[plain]))
	met=$(awk -v o="$own" -v t="$tr" 'BEGIN { print ((o <= t) ? 1 : 0) }')
	lines=$(wc -l <"$WORK/hk.prom" 2>/dev/null || echo 0)
	bytes=$(wc -c <"$WORK/hk.prom" 2>/dev/null || echo 0)
	[ -s "$WORK/hk-bare.prom" ] || sep=" (the untraced instance's textfile is missing)"

	section 10-prom
	say "## 10. --prometheus FILE: the idle cost"
	say ""
	say "| hotspot-k, defaults (5 s windows) | system calls in ${PROM_S} s (strace -f, by name) | epoll_wait entered (wake-ups) | textfile rewrites (rename) | voluntary / involuntary switches, not traced | voluntary switches under strace | CPU, not traced | transitions printed (traced / not) | driver (traced / not) |"
	say "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	prom_row "without \`--prometheus\`" plain
	prom_row "with \`--prometheus FILE\`" prom
	say "| difference, per minute | $(fmt %+.1f "$dcalls") | $(fmt %+.1f "$dep") | $(fmt %+.1f "$dren") | $(fmt %+.1f "$dvol") voluntary | | | | |"
	say ""
	say "Method: four hotspot-k with the defaults (\`--json\`, 5 s windows, the driver the kernel gets by default), started one after the other and then left side by side, nothing started by the bench meanwhile (other processes on the machine may still change state: the transitions printed are counted): with \`--prometheus FILE\` and without, each once under \`strace -f -ttt\` from its exec (attaching later interrupts the epoll_wait) and once not traced (strace stops the tracee at every system call's entry and exit, each stop a voluntary switch, so the switches and CPU come from the untraced pair). Each instance is measured over its own ${PROM_S} s from 1 s after it attached, so that its watchdog's wake-ups, 3 intervals apart from its start, fall at the same places in every instance. System calls: those strace saw entered in that span, by name; wake-ups = the epoll_wait calls among them (the loop's only blocking call: each one entered is the previous one returned); textfile rewrites = the rename calls (open PATH.tmp, write, fsync, close, rename); switches from /proc/PID/task/*/status and CPU from /proc/PID/stat fields 14+15 ($tick Hz ticks) at both ends. Expected: every instance wakes only for the watchdog (one epoll_wait when 3 intervals pass without a window: at most one per 2 intervals, $wd in ${PROM_S} s), and with \`--prometheus\` it rewrites the textfile at those wake-ups when hk_stats or the flagged set moved (hk_stats' window count moves every window, so at every one of them); fsync's wait for the disk adds voluntary switches. The traced instance's textfile at the end: $lines lines, $bytes bytes$sep. Target: no periodic wake-up of its own from \`--prometheus\`, met when the instance with it enters at most one epoll_wait more than the one without per transition it printed (news is written at the next wake-up at least a window after the last write, which may be one of its own): ${pr_ep[prom]} − ${pr_ep[plain]} = $own ≤ $tr: $(verdict "$met")."
	say ""
	summary "10. --prometheus" "idle, ${PROM_S} s side by side: $(fmt %.0f "${pr_ep[prom]}") vs $(fmt %.0f "${pr_ep[plain]}") wake-ups (epoll_wait) with and without it, ${pr_calls[prom]} vs ${pr_calls[plain]} system calls ($(fmt %+.1f "$dcalls") per minute: ${pr_ren[prom]} textfile rewrites, at the watchdog's wake-ups), $(fmt %+.1f "$dvol") voluntary switches per minute (fsync)" "no periodic wake-up of its own: $(verdict "$met")"
}
