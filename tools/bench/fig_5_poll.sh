# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_5_poll.sh - figure 5, the alternative: polling /proc (pidstat, a
# minimal C reader) vs the window, at 1 k and 10 k idle processes. The
# populations and the walk figures to compare with are figure 3's
# (fig_3_walk.sh's walk_config, walk_rows), which runs poll_at in them.
# Sourced by run.sh (it uses lib.sh's helpers).

# poll_at PROCS: with the population up, alternate pidstat and the C reader
poll_at()
{
	local r line c

	log "5. poll: pidstat and the minimal C reader at $1 processes"
	for ((r = 0; r < 2; r++)); do
		# pidstat reads everything once, then once per interval: 3 reads
		if run_fg "$WORK/pidstat.out" "$OUT/bn-poll" run -q -- pidstat -u -w -r -h 1 2; then
			line=$(grep '^run ' "$WORK/pidstat.out")
			echo "$1 pidstat $r $(calc "$(kv cpu_s "$line") / 3")" >>"$WORK/poll.tsv"
		fi
		if run_fg "$WORK/cread.out" "$OUT/bn-poll" read -n 3; then
			while read -r line; do
				c=$(kv cpu_s "$line")
				echo "$1 cread $r $c $(kv procs "$line")" >>"$WORK/poll.tsv"
			done < <(grep '^refresh' "$WORK/cread.out")
		fi
	done
}

fig_poll()
{
	: >"$WORK/walk.tsv"
	: >"$WORK/poll.tsv"
	walk_config 1000 1 "" poll
	walk_config 10000 1 "" poll
	poll_report
}

poll_report()
{
	local p ps cr w1 w5 nprocs any=0 sp=""

	section 5-poll
	say "## 5. The alternative: polling /proc"
	say ""
	say "| processes | pidstat -u -w -r -h: CPU per refresh | minimal C reader: CPU per refresh | hotspot-k walk per window (-i 1s / -i 5s) | pidstat ÷ hotspot-k | C reader ÷ hotspot-k | CPU at one refresh or window per 5 s: pidstat / C reader / hotspot-k |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	for p in $(awk '{ print $1 }' "$WORK/poll.tsv" | sort -un); do
		ps=$(awk -v p="$p" '$1 == p && $2 == "pidstat" { print $4 }' "$WORK/poll.tsv" | med)
		cr=$(awk -v p="$p" '$1 == p && $2 == "cread" { print $4 }' "$WORK/poll.tsv" | med)
		nprocs=$(awk -v p="$p" '$1 == p && $2 == "cread" { print $5 }' "$WORK/poll.tsv" | med)
		w1=$(walk_rows procs threads w1 | awk -v p="$p" '$1 == p && $2 == "1" { print $3 }')
		w5=$(walk_rows procs threads w5 | awk -v p="$p" '$1 == p && $2 == "1" { print $3 }')
		[ "$ps" != nan ] && [ "$cr" != nan ] && any=1
		sp+="${sp:+; }$p processes: pidstat $(fmt %.0f "$(calc "$ps * 1000")") ms, C reader $(fmt %.0f "$(calc "$cr * 1000")") ms per refresh vs hotspot-k $(fmt %.1f "$(calc "$w5 / 1e6")") ms per window"
		say "| $p idle + the machine's ($(fmt %.0f "$nprocs") in /proc) | $(fmt %.1f "$(calc "$ps * 1000")") ms | $(fmt %.1f "$(calc "$cr * 1000")") ms | $(fmt %.2f "$(calc "$w1 / 1e6")") / $(fmt %.2f "$(calc "$w5 / 1e6")") ms | $(fmt %.0f "$(calc "$ps * 1e9 / $w5")")× | $(fmt %.0f "$(calc "$cr * 1e9 / $w5")")× | $(fmt %.2f "$(calc "$ps * 20")") % / $(fmt %.2f "$(calc "$cr * 20")") % / $(fmt %.3f "$(calc "$w5 / 5e7")") % |"
	done
	say ""
	say "Method: in the same run as figure 3, on the same single-thread populations, once the two hotspot-k had stopped: 2 rounds, each \`pidstat -u -w -r -h 1 2\` (3 reads of every process: the baseline and 2 reports; its output to /dev/null; CPU = user+sys of pidstat from wait4 rusage, ÷ 3) then \`bn-poll read -n 3\` (a minimal C poller: per refresh it opens, reads and parses /proc/PID/stat and /proc/PID/schedstat of every process: CPU time, faults, RSS, run delay; CPU = getrusage user+sys around each refresh). Medians. hotspot-k's cost per window is its in-kernel walk (figure 3, same population: it does nothing in userspace per window); the ratios use the 5 s walk, the default interval. Both pollers see per-process totals only: no per-thread share, no aggressor, no memory-cgroup limit."
	say ""
	summary "5. polling /proc" "$sp" "–"
	[ "$any" = 1 ] || fail poll "no polling run completed"
}
