# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_11_profile.sh - figure 11, what the profiler costs: the scheduler's
# hot path with nothing flagged (hotspot-k --profile vs without, side by
# side), the profiler's own programs while one process is profiled
# (hk_prof_switch per sched_switch for the processes that are not profiled
# and for the one that is, hk_prof_sample per sample), and the profiled
# process's slowdown; not in "all" (~3 min). Sourced by run.sh (it uses
# lib.sh's helpers and storms.sh's storm_label).
#
# The storms are bn-pingpong's (storms.sh's pipe, yield and idle, but read
# while the ping-pong still runs: a profile of it ends when it exits, and
# its programs with it). Profiles are written into $WORK/prof and removed.

PROFILE_ROUNDS=${BENCH_PROFILE_ROUNDS:-4}	# nothing flagged: rounds x 3 storms
PROFILE_RUNS=${BENCH_PROFILE_RUNS:-4}	# one profiled: rounds x {other, self}
PROFILE_PAIRS=${BENCH_PROFILE_PAIRS:-5}	# slowdown: rounds x {none, other, self}
PROFILE_STORMS="pipe yield idle"
PROFILE_WARM=1.2	# s of ping-pong before the stats' first read ...
PROFILE_WARM_SELF=2	# ... (when it is profiled: the profile starts in it)
PROFILE_READ=1.2	# s between the two reads, inside a measured part
PROFILE_SPAN=5		# this long at most (it is stopped after the reads)
PROFILE_TPUT_WARM=2	# s of ping-pong before its 1 s measured part

# prof_count PIDS...: how many hk_prof_* programs each process holds, then
# how many the machine has loaded (anyone's): one line, one bpftool call
prof_count()
{
	local all pid

	all=$(bpftool prog show 2>/dev/null | awk '$3 == "name" && $4 ~ /^hk_prof_/ { sub(/:$/, "", $1); print $1 }')
	for pid in "$@"; do
		echo -n "$(prog_ids "$pid" | grep -cxF -f <(echo "${all:-none}")) "
	done
	grep -c . <<<"$all"
}

# prog_tag ID: "tag:xlated_bytes" of a program
prog_tag()
{
	bpftool prog show id "$1" 2>/dev/null |
		awk '{ for (i = 1; i < NF; i++) { if ($i == "tag") t = $(i + 1); if ($i == "xlated") x = $(i + 1) } }
		     END { print (t ? t : "?") ":" (x ? x : "?") }'
}

# prof_bss ID: "samples switches_out" of a profile object's hk_prof_stats
prof_bss()
{
	local j

	j=$(bpftool map dump id "$1" -j 2>/dev/null)
	echo "$(grep -o '"samples":[0-9]*' <<<"$j" | head -1 | cut -d: -f2) $(grep -o '"switches_out":[0-9]*' <<<"$j" | head -1 | cut -d: -f2)"
}

# exec_wait PID COMM: until a process just started has exec'd (its comm is
# COMM): a profile started before would read the forked shell's
# address space
exec_wait()
{
	local i comm

	for ((i = 0; i < 250; i++)); do
		comm=
		read -r comm <"/proc/$1/comm" 2>/dev/null
		[ "$comm" = "$2" ] && return 0
		alive "$1" || return 1
		sleep 0.02
	done
	return 1
}

# prof_start TARGET TAG: `hotspot-k profile TARGET`, until its programs are
# attached and the target is set (it says "profiling" after both); its PID
# in PF_PID, its programs in PF_SAMPLE and PF_SWITCH, its .bss in PF_BSS
prof_start()
{
	local out=$WORK/prof-$2.log t0=$EPOCHREALTIME

	PF_SAMPLE=
	PF_SWITCH=
	PF_BSS=
	run_bg "$out" "$HK" profile "$1" --duration 60s --dir "$PROF_DIR"
	PF_PID=$BG_PID
	if ! wait_line "$out" '^hotspot-k: profiling ' 20 "$PF_PID"; then
		echo "bench: hotspot-k profile $1 did not start: $(tail -2 "$out")" >&2
		stop "$PF_PID"
		PF_PID=
		return 1
	fi
	# from the exec to "profiling": load, attach, set the target
	echo "$2 $(calc "$EPOCHREALTIME - $t0")" >>"$WORK/prof-start.tsv"
	PF_SAMPLE=$(prog_of "$PF_PID" hk_prof_sample)
	PF_SWITCH=$(prog_of "$PF_PID" hk_prof_switch)
	PF_BSS=$(map_of "$PF_PID" profile_.bss)
	[ -n "$PF_SAMPLE" ] && [ -n "$PF_SWITCH" ] && [ -n "$PF_BSS" ] && return 0
	echo "bench: hotspot-k profile $1: programs ${PF_SAMPLE:-?} ${PF_SWITCH:-?}, .bss ${PF_BSS:-?} not found (alive: $(alive "$PF_PID" && echo yes || echo no)): $(tail -2 "$out")" >&2
	return 1
}

# prof_stop TAG: end the profile (SIGINT: written with what it has, if its
# process has not ended it already), its files removed; "samples offcpu_s
# stacks" of its "written" line in PF_WRITTEN (empty if it wrote none)
prof_stop()
{
	local line

	stop "$PF_PID" INT 30
	PF_PID=
	line=$(grep -m 1 '^hotspot-k: profile of .* written' "$WORK/prof-$1.log")
	PF_WRITTEN=
	[ -z "$line" ] ||
		PF_WRITTEN=$(sed -n 's/.* written, \([0-9]*\) samples on-CPU, \([0-9.]*\) s off-CPU, \([0-9]*\) stacks.*/\1 \2 \3/p' <<<"$line")
	rm -f "$PROF_DIR"/hotspot-k.*
}

# prof_read IDS...: "run_time_ns run_cnt" of each, on one line, in PRD, and
# the wall clock halfway through in PRD_T
prof_read()
{
	local a=$EPOCHREALTIME id

	PRD=
	for id in "$@"; do
		PRD+="$(prog_stat "$id") "
	done
	PRD_T=$(awk -v a="$a" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.6f", (a + b) / 2 }')
}

# prof_delta A B: "ns_per_run runs" per program, from two prof_read lines
prof_delta()
{
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i < n; i += 2) {
			r = y[i + 1] - x[i + 1]
			printf "%s %d ", (r > 0) ? (y[i] - x[i]) / r : "nan", r
		}
	}'
}

# pp_storm NAME MODE IDS...: a bn-pingpong storm (pipe, yield or idle, as
# in storms.sh), PROFILE_WARM s unmeasured first; the BPF stats of IDS read
# when its measured part starts and PROFILE_READ s later, while it still
# runs, then it is stopped. MODE none: no profile; other: the profile in
# PF_* runs (of another process), its hk_prof_stats read with the stats
# into PF_S0 and PF_S1; self: `hotspot-k profile` of the ping-pong (its
# parent) is started in the warm-up, and its programs are read too (after
# IDS). "secs ns runs ns runs ..." in PP; fails (PP_LATE says why) when the
# profile came after the warm-up or a read after the ping-pong had ended.
pp_storm()
{
	local f=$WORK/prof-storm.out name=$1 mode=$2 pid s0 s1 t0 t1 warm=$PROFILE_WARM
	local -a pp ids

	shift 2
	ids=("$@")
	PP=
	PP_LATE=
	case $name in
	pipe) pp=(pipe -c 0) ;;
	yield) pp=(yield -c 0) ;;
	idle) pp=(pipe -c 0 -C 1) ;;
	esac
	[ "$mode" != self ] || warm=$PROFILE_WARM_SELF
	run_bg "$f" "$OUT/bn-pingpong" "${pp[@]}" -w "$warm" -d "$PROFILE_SPAN"
	pid=$BG_PID
	if [ "$mode" = self ]; then
		if ! exec_wait "$pid" bn-pingpong || ! prof_start "$pid" self; then
			stop "$pid"
			PP_LATE="profile did not start"
			return 1
		fi
		ids+=("$PF_SWITCH" "$PF_SAMPLE")
		grep -q '^go' "$f" && PP_LATE="profile attached after the warm-up"
	fi
	if ! wait_line "$f" '^go' 10 "$pid"; then
		stop "$pid"
		PP_LATE="the ping-pong did not start: $(tail -1 "$f")"
		return 1
	fi
	prof_read "${ids[@]}"
	s0=$PRD
	t0=$PRD_T
	[ "$mode" = none ] || PF_S0=$(prof_bss "$PF_BSS")
	nap "$PROFILE_READ"
	prof_read "${ids[@]}"
	s1=$PRD
	t1=$PRD_T
	[ "$mode" = none ] || PF_S1=$(prof_bss "$PF_BSS")
	grep -q '^ops=' "$f" && PP_LATE="read after the ping-pong ended"
	# its child goes with it (PR_SET_PDEATHSIG)
	stop "$pid"
	PP="$(calc "$t1 - $t0") $(prof_delta "$s0" "$s1")"
	[ -z "$PP_LATE" ]
}

# --- nothing flagged: hotspot-k with --profile next to one without ------------

profile_idle()
{
	local r v s ok
	local -a n0 n1
	local -A hp hprog

	: >"$WORK/prof-idle.tsv"
	for ((r = 0; r < PROFILE_ROUNDS; r++)); do
		log "11. profile: nothing flagged, round $((r + 1))/$PROFILE_ROUNDS: hotspot-k --profile 10s and hotspot-k, side by side, under {$PROFILE_STORMS}"
		ok=1
		# which one attaches first alternates: the second finds what
		# the first touched in cache
		for v in $(rotate "$r" plain prof); do
			# the hook attached for good (as under --pin): the
			# default tool attaches none while nothing is watched,
			# and this part compares the program, with and without
			# --profile
			if [ "$v" = prof ]; then
				HOTSPOT_K_TEST_HOOK_ALWAYS=1 hk_start "$WORK/hk-prof-$v.log" --json --profile 10s --profile-dir "$PROF_DIR"
			else
				HOTSPOT_K_TEST_HOOK_ALWAYS=1 hk_start "$WORK/hk-prof-$v.log" --json
			fi
			hp[$v]=$HK_PID
			hprog[$v]=$(link_prog "$HK_PID" sched_switch)
			[ -n "${hp[$v]}" ] && [ -n "${hprog[$v]}" ] || ok=0
		done
		if [ "$ok" = 1 ]; then
			# the same program? its tag is a hash of its instructions
			echo "$r $(prog_tag "${hprog[plain]}") $(prog_tag "${hprog[prof]}")" >>"$WORK/prof-tags"
			for s in $PROFILE_STORMS; do
				[ "$(sysctl -n kernel.bpf_stats_enabled)" = 1 ] ||
					sysctl -qw kernel.bpf_stats_enabled=1
				read -r -a n0 <<<"$(prof_count "${hp[prof]}" "${hp[plain]}")"
				if pp_storm "$s" none "${hprog[plain]}" "${hprog[prof]}" "$PF_EMPTY" ||
					pp_storm "$s" none "${hprog[plain]}" "${hprog[prof]}" "$PF_EMPTY"; then
					read -r -a n1 <<<"$(prof_count "${hp[prof]}" "${hp[plain]}")"
					# storm round secs plain_ns runs prof_ns runs
					# empty_ns runs, then hk_prof_* programs held
					# by the --profile one, the plain one (before,
					# after) and on the machine (before, after)
					echo "$s $r $PP ${n0[0]} ${n0[1]} ${n1[0]} ${n1[1]} ${n0[2]} ${n1[2]}" >>"$WORK/prof-idle.tsv"
				else
					echo "bench: storm $s: $PP_LATE" >&2
				fi
			done
		fi
		for v in plain prof; do
			stop "${hp[$v]:-}"
		done
		# what it profiled, if anything was flagged, is written at its exit
		rm -f "$PROF_DIR"/hotspot-k.*
		# a profile started means something was flagged: counted
		grep '"event":"profile","state":"started"' "$WORK/hk-prof-prof.log" >>"$WORK/prof-events"
		echo "$r $(grep -c '"event":"profile","state":"started"' "$WORK/hk-prof-prof.log")" >>"$WORK/prof-flagged"
	done
}

# --- one process profiled: hk_prof_switch and hk_prof_sample -------------------

profile_running()
{
	local r c sp line

	: >"$WORK/prof-run.tsv"
	for ((r = 0; r < PROFILE_RUNS; r++)); do
		for c in $(rotate "$r" other self); do
			log "11. profile: one process profiled, round $((r + 1))/$PROFILE_RUNS: $c"
			[ "$(sysctl -n kernel.bpf_stats_enabled)" = 1 ] ||
				sysctl -qw kernel.bpf_stats_enabled=1
			if [ "$c" = other ]; then
				run_bg /dev/null sleep 1000
				sp=$BG_PID
				if ! prof_start "$sp" other; then
					stop "$sp"
					continue
				fi
				pp_storm pipe other "$PF_SWITCH" "$PF_SAMPLE" "$PF_EMPTY"
				line="$PP"
				[ -z "$PP_LATE" ] || line=
				prof_stop other
				stop "$sp"
			else
				pp_storm pipe self "$PF_EMPTY"
				line="$PP"
				[ -z "$PP_LATE" ] || line=
				prof_stop self
			fi
			if [ -z "$line" ]; then
				echo "bench: profile $c: ${PP_LATE:-no storm}" >&2
				continue
			fi
			# "other": secs switch ns runs, sample ns runs, empty ns
			# runs; "self": secs empty ns runs, switch ns runs,
			# sample ns runs: both in the order of the "other" line
			[ "$c" = self ] && line=$(awk '{ print $1, $4, $5, $6, $7, $2, $3 }' <<<"$line")
			# then Δ hk_prof_stats (samples, switches_out) and the
			# written profile (samples, s off-CPU, stacks)
			echo "$c $r $line $(awk -v a="$PF_S0" -v b="$PF_S1" 'BEGIN { split(a, x, " "); split(b, y, " "); print y[1] - x[1], y[2] - x[2] }') ${PF_WRITTEN:-nan nan nan}" >>"$WORK/prof-run.tsv"
		done
	done
}

# --- the profiled process's slowdown: pinned pipe ping-pong ops/s --------------

profile_tput()
{
	local r v f=$WORK/prof-tput.out pid sp stats ok why

	stats=$(sysctl -n kernel.bpf_stats_enabled)
	: >"$WORK/prof-tput.tsv"
	for ((r = 0; r < PROFILE_PAIRS; r++)); do
		log "11. profile: slowdown, round $((r + 1))/$PROFILE_PAIRS (bpf_stats_enabled=$stats)"
		for v in $(rotate "$r" none other self); do
			sp=
			ok=1
			why=
			case $v in
			other)
				run_bg /dev/null sleep 1000
				sp=$BG_PID
				prof_start "$sp" tput-other || { ok=0; why="the profile did not start"; }
				;;
			esac
			if [ "$ok" = 1 ]; then
				run_bg "$f" "$OUT/bn-pingpong" pipe -c 0 -w "$PROFILE_TPUT_WARM" -d 1
				pid=$BG_PID
				if [ "$v" = self ]; then
					{ exec_wait "$pid" bn-pingpong && prof_start "$pid" tput-self; } ||
						{ ok=0; why="the profile did not start"; }
					grep -q '^go' "$f" && { ok=0; why="the profile started after the warm-up"; }
				fi
				wait "$pid" || { ok=0; why="the ping-pong failed"; }
				PIDS=$(echo " $PIDS " | sed "s/ $pid / /; s/^ *//; s/ *$//")
			fi
			[ "$v" = none ] || prof_stop "tput-$v"
			stop "$sp"
			# a profile that did not write is no profile
			[ "$v" = none ] || [ -n "$PF_WRITTEN" ] || { ok=0; why="${why:-no profile written}"; }
			if [ "$ok" = 1 ]; then
				echo "$r $v $(kv ops_per_s "$(grep '^ops=' "$f")")" >>"$WORK/prof-tput.tsv"
			else
				echo "bench: slowdown round $r, $v: not counted: $why" >&2
				echo "$r $v late" >>"$WORK/prof-tput.tsv"
			fi
		done
	done
}

fig_profile()
{
	local e

	log "11. profile: $PROFILE_ROUNDS rounds nothing flagged x {$PROFILE_STORMS}, $PROFILE_RUNS rounds one profiled x {other, self}, $PROFILE_PAIRS slowdown rounds x {none, other, self}"
	PROF_DIR=$WORK/prof
	mkdir -p "$PROF_DIR"
	rm -f "$PROF_DIR"/hotspot-k.*
	: >"$WORK/prof-flagged"
	: >"$WORK/prof-events"
	: >"$WORK/prof-start.tsv"
	: >"$WORK/prof-tags"
	sysctl_set kernel.bpf_stats_enabled 1 || { fail profile "cannot set kernel.bpf_stats_enabled"; return; }
	# an empty program beside every program measured here, for scale
	run_bg "$WORK/prof-empty.log" "$OUT/bn-bpf" attach empty
	e=$BG_PID
	if ! wait_line "$WORK/prof-empty.log" '^ready' 10 "$e"; then
		stop "$e"
		sysctl_restore kernel.bpf_stats_enabled
		fail profile "bn-bpf attach empty: $(tail -2 "$WORK/prof-empty.log")"
		return
	fi
	PF_EMPTY=$(sed -n 's/^ready prog_id=//p' "$WORK/prof-empty.log")
	profile_idle
	profile_running
	stop "$e"
	# the slowdown with the stats as found, as figure 2
	sysctl_restore kernel.bpf_stats_enabled
	profile_tput
	rmdir "$PROF_DIR" 2>/dev/null
	profile_report
}

# --- the report --------------------------------------------------------------------

# pcol FILE EXPR [FILTER]: EXPR (awk, $N fields) of every line matching FILTER
pcol()
{
	awk "${3:-1} { print ($2) }" "$1"
}

# spread_of: "lo–hi" of numbers on stdin, printf FORMAT
spread_of()
{
	minmax | awk -F– -v f="$1" '$1 == "nan" { print "n/a"; next } { printf f "–" f "\n", $1, $2 }'
}

# tput_ratios VARIANT: its ops/s ÷ nothing's, within each slowdown round
tput_ratios()
{
	awk -v v="$1" '$3 != "late" { o[$1 " " $2] = $3 }
		END { for (k in o) { split(k, p, " "); if (p[2] == v && (p[1] " none") in o) print o[k] / o[p[1] " none"] } }' "$WORK/prof-tput.tsv"
}

profile_report()
{
	local d=$WORK/prof-idle.tsv run=$WORK/prof-run.tsv tp=$WORK/prof-tput.tsv
	local s e h p rt rs r1 r2 rate nrun any=0 held all flagged sr="" met
	# a storm counts when neither hotspot-k held a profiler program
	# before or after it
	local clean='($10 + $11 + $12 + $13 == 0)'
	local oth_sw oth_smp oth_e self_sw self_smp self_e hit so stk hitns
	local n ro rself late nt

	# the line: storm round secs plain_ns runs prof_ns runs empty_ns runs
	#           prof0 plain0 prof1 plain1 all0 all1 (hk_prof_* programs)
	held=$(awk '{ s += $10 + $11 + $12 + $13 } END { print s + 0 }' "$d")
	all=$(awk '{ if ($14 > m) m = $14; if ($15 > m) m = $15 } END { print m + 0 }' "$d")
	flagged=$(awk '{ s += $2 } END { print s + 0 }' "$WORK/prof-flagged")
	nrun=$(wc -l <"$d")

	section 11-profile
	say "## 11. Profiling: the hot path with nothing flagged, and what a profile costs"
	say ""
	say "### Nothing flagged: hotspot-k \`--profile 10s\` next to hotspot-k without it"
	say ""
	say "| storm | switches/s, all CPUs | empty program (attached first) | hotspot-k \`hk_switch\` | hotspot-k \`--profile 10s\` \`hk_switch\` | \`--profile\` ÷ without: median of the per-storm ratios (spread) | storms |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	for s in $PROFILE_STORMS; do
		e=$(pcol "$d" '$8' "\$1 == \"$s\" && $clean" | med)
		h=$(pcol "$d" '$4' "\$1 == \"$s\" && $clean" | med)
		p=$(pcol "$d" '$6' "\$1 == \"$s\" && $clean" | med)
		rt=$(pcol "$d" '$6 / $4' "\$1 == \"$s\" && \$4 > 0 && $clean" | med)
		rs=$(pcol "$d" '$6 / $4' "\$1 == \"$s\" && \$4 > 0 && $clean" | spread_of %.3f)
		rate=$(pcol "$d" '$9 / $3' "\$1 == \"$s\" && \$3 > 0 && $clean" | med)
		n=$(awk -v s="$s" "\$1 == s && $clean" "$d" | wc -l)
		[ "$rt" = nan ] || any=1
		sr+="${sr:+ / }$(fmt %.0f "$h") vs $(fmt %.0f "$p")"
		say "| $(storm_label "$s") | $(fmt %.0f "$rate") | $(fmt %.0f "$e") ns | $(fmt %.1f "$h") ns | $(fmt %.1f "$p") ns | $(fmt %.3f "$rt") ($rs) | $n |"
	done
	rt=$(pcol "$d" '$6 / $4' "\$4 > 0 && $clean" | med)
	rs=$(pcol "$d" '$6 / $4' "\$4 > 0 && $clean" | spread_of %.3f)
	# rounds 0, 2, ...: the one without --profile attached first
	r1=$(pcol "$d" '$6 / $4' "\$4 > 0 && \$2 % 2 == 0 && $clean" | med)
	r2=$(pcol "$d" '$6 / $4' "\$4 > 0 && \$2 % 2 == 1 && $clean" | med)
	say "| all storms | | | | | $(fmt %.3f "$rt") ($rs) | $(awk "$clean" "$d" | wc -l) |"
	say ""
	# met: the one without --profile never holds a profiler program, and
	# the one with it holds none in a round where it started no profile
	# (a round where something on the machine was flagged proves nothing)
	met=$(awk 'NR == FNR { f[$1] = $2; next }
		{ if ($11 + $13) bad = 1; if (!f[$2]) { n++; if ($10 + $12) bad = 1 } }
		END { print bad ? 0 : n ? 1 : "nan" }' "$WORK/prof-flagged" "$d")
	# and hk_switch is the same program with --profile as without
	[ "$met" != 1 ] || awk '$2 != $3 { bad = 1 } END { exit bad }' "$WORK/prof-tags" || met=0
	say "Attach order: with \`--profile\` attached second, the ratio is $(fmt %.3f "$r1") (median); attached first, $(fmt %.3f "$r2"); the two orders together (geometric mean of those medians), $(fmt %.3f "$(calc "sqrt($r1 * $r2)")"). hk_prof_* programs held by either hotspot-k, counted before and after every storm (4 counts × $nrun storms): $held (a storm where one was held is left out of the table: $(awk "!$clean" "$d" | wc -l) were); profiles the \`--profile\` instance started (a process on the machine flagged): $flagged$([ "$flagged" = 0 ] || echo " (of $(grep -o '"comm":"[^"]*","label":"[^"]*"' "$WORK/prof-events" | sed 's/"comm":"\([^"]*\)","label":"\([^"]*\)"/\1 (\2)/' | sort -u | paste -sd, | sed 's/,/, /g'); its rounds are left out of the target)"); the most hk_prof_* programs loaded on the whole machine at any of those counts (anyone's, \`bpftool prog show\`): $all. The two \`hk_switch\` programs, tag and xlated size per \`bpftool prog show\` (a hash of the instructions as loaded): $(awk '{ if ($2 == $3) same++; else diff++ } END { printf "the same in %d of %d rounds", same, NR }' "$WORK/prof-tags") ($(awk '{ print $2 }' "$WORK/prof-tags" | sort -u | paste -sd' ')$(awk '$2 != $3 { print $3 }' "$WORK/prof-tags" | sort -u | awk '{ printf " vs %s", $1 }')). Target: with nothing flagged, no program of the profiler is loaded and \`hk_switch\` is the same program: $(verdict "$met")."
	say ""
	say "Method: kernel BPF stats (\`kernel.bpf_stats_enabled=1\` for this part and the next, then restored): Δ\`run_time_ns\` / Δ\`run_cnt\` of each hotspot-k's sched_switch program (\`hk_switch\`, found through its own bpf_link in /proc/PID/fdinfo), read with \`bpftool prog show id N -j\` when the storm's measured part starts and ${PROFILE_READ} s later. $PROFILE_ROUNDS rounds; in each, two hotspot-k with the defaults but the hook attached for good (\`HOTSPOT_K_TEST_HOOK_ALWAYS=1\`, as \`--pin\` has it; by default no hook is attached while nothing is watched) (\`--json\`, 5 s windows: no storm process lives through two windows, so none is watched and \`hk_switch\` runs its filter only), one with \`--profile 10s --profile-dir DIR\` and one without, started one after the other (which one first alternates) and left side by side, so that both programs run on the very same switches; an empty tp_btf/sched_switch program (\`bn-bpf attach empty\`) is attached before both, for the whole figure. Then the three storms, each \`bn-pingpong ... -w $PROFILE_WARM -d $PROFILE_SPAN\` (pipe: \`pipe -c 0\`, two processes on CPU 0; yield: \`yield -c 0\`; idle-heavy: \`pipe -c 0 -C 1\`), the stats read inside its measured part, then stopped by its PID. The ratio is taken per storm, then its median and min–max. Switches/s: Δ\`run_cnt\` of the empty program ÷ the wall-clock time between the reads. The empty program is no floor here: the first program on the tracepoint pays more than the ones after it (in the idle-heavy storm more than \`hk_switch\` itself); figure 1 has the floor, measured alone. hk_prof_* programs: the programs among each hotspot-k's fds (prog fds and links, named with \`bpftool prog show id N\`), counted before and after each storm; the machine-wide count is \`bpftool prog show\` lines named hk_prof_* (other users' profiles would count there). The profiler's object is loaded only when a profile starts (user/profile/profiler.c), so \`--profile\` with nothing flagged leaves the hot path as it is: the same \`hk_switch\`, nothing more attached."
	say ""

	# run.tsv: case round secs sw_ns sw_runs smp_ns smp_runs empty_ns
	#          empty_runs d_samples d_switches_out w_samples w_offcpu w_stacks
	oth_sw=$(pcol "$run" '$4' '$1 == "other"' | med)
	oth_smp=$(pcol "$run" '$6' '$1 == "other"' | med)
	oth_e=$(pcol "$run" '$8' '$1 == "other"' | med)
	self_sw=$(pcol "$run" '$4' '$1 == "self"' | med)
	self_smp=$(pcol "$run" '$6' '$1 == "self"' | med)
	self_e=$(pcol "$run" '$8' '$1 == "self"' | med)
	# a sample of the profiled process takes two stacks; the others
	# return at once, at what a sample costs with only others about
	hitns=$(awk -v m="$oth_smp" '$1 == "self" && $10 > 0 && m != "nan" { print ($6 * $7 - ($7 - $10) * m) / $10 }' "$run" | med)
	hit=$(pcol "$run" '100 * $10 / $7' '$1 == "self" && $7 > 0' | med)
	so=$(pcol "$run" '100 * $11 / $5' '$1 == "self" && $5 > 0' | med)
	stk=$(pcol "$run" '$5 / $3' '$3 > 0' | med)
	say "### One process profiled: the profiler's own programs"
	say ""
	say "| \`hotspot-k profile PID\` of | \`hk_prof_switch\` ns per sched_switch (spread) | empty program, same switches | switches where it took stacks | \`hk_prof_sample\` ns per sample (spread) | samples of the profiled process (two stacks each) | runs |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	say "| an idle \`sleep 1000\`, under the pipe ping-pong storm: what every other process pays | $(fmt %.1f "$oth_sw") ns ($(pcol "$run" '$4' '$1 == "other"' | spread_of %.1f)) | $(fmt %.1f "$oth_e") ns | $(fmt %.1f "$(pcol "$run" '100 * $11 / $5' '$1 == "other" && $5 > 0' | med)") % | $(fmt %.0f "$oth_smp") ns ($(pcol "$run" '$6' '$1 == "other"' | spread_of %.0f)) | $(fmt %.1f "$(pcol "$run" '100 * $10 / $7' '$1 == "other" && $7 > 0' | med)") % | $(awk '$1 == "other"' "$run" | wc -l) |"
	say "| the pipe ping-pong's parent: every switch on CPU 0 is to or from it | $(fmt %.1f "$self_sw") ns ($(pcol "$run" '$4' '$1 == "self"' | spread_of %.1f)) | $(fmt %.1f "$self_e") ns | $(fmt %.1f "$so") % | $(fmt %.0f "$self_smp") ns ($(pcol "$run" '$6' '$1 == "self"' | spread_of %.0f)); $(fmt %.0f "$hitns") ns per sample that took stacks | $(fmt %.1f "$hit") % | $(awk '$1 == "self"' "$run" | wc -l) |"
	say "| ratio, profiled ÷ other | $(fmt %.1f "$(calc "$self_sw / $oth_sw")")× | | | $(fmt %.1f "$(calc "$self_smp / $oth_smp")")× | | |"
	say ""
	say "The profiled ping-pong's profiles, as written: $(awk '$1 == "self" { printf "%s%s samples, %s s off-CPU, %s stacks", sep, $12, $13, $14; sep = "; " }' "$run")."
	say ""
	say "Method: the same BPF stats, of the programs of one \`hotspot-k profile PID --duration 60s --dir DIR\` (ids from its fds, once it has said \"profiling\", which it does after attaching and setting the target) and of the empty program, read at the start of the measured part of \`bn-pingpong pipe -c 0 -d $PROFILE_SPAN\` (~$(fmt %.0f "$stk") switches/s, all CPUs) and ${PROFILE_READ} s later, while it still runs (a profile ends when its process does, and unloads its programs), then stopped. $PROFILE_RUNS rounds, each profiling in a rotated order (a) a \`sleep 1000\` started for it, which never runs: every switch and sample is another process's, the early return (prev's and next's TGIDs each compared with the 4 slots; for a sample, the current TGID), ping-pong warm-up ${PROFILE_WARM} s; and (b) the ping-pong's parent, the profile started during its ${PROFILE_WARM_SELF} s warm-up (checked: it said \"profiling\" before the ping-pong's \"go\"): the child is another process, so every switch on CPU 0 has the profiled process on one side, as prev (on a voluntary sleep both stacks are taken with bpf_get_stackid and the time stamped in task storage) or next (its task storage read, the time asleep added to a hash entry), while CPU 1's switches are others'. Stacks taken: Δ\`hk_prof_stats.switches_out\` (the object's .bss, \`bpftool map dump id N -j\`, read with the stats) ÷ Δ\`run_cnt\` of hk_prof_switch. \`hk_prof_sample\` runs 99 times a second on each CPU (a CPU-clock perf event per CPU; ~$(fmt %.0f "$(calc "2 * 99 * $PROFILE_READ")") runs between two reads): ns per sample is over every sample; samples of the profiled process = Δ\`hk_prof_stats.samples\` ÷ Δ\`run_cnt\`; the ns per sample that took stacks is solved from (b)'s total with (a)'s median standing for the samples that returned at once. Medians over rounds. From its exec to its \"profiling\" line (the object loaded and verified, one perf event and link per CPU, the switch program attached, the target set) a \`hotspot-k profile\` took $(fmt %.2f "$(awk '{ print $2 }' "$WORK/prof-start.tsv" | med)") s (median, $(awk '{ print $2 }' "$WORK/prof-start.tsv" | spread_of %.2f) s over the $(wc -l <"$WORK/prof-start.tsv") profiles of this figure). The profiles' files went to the bench's work directory and were removed."
	say ""

	# tput.tsv: round variant ops (or "late")
	n=$(pcol "$tp" '$3' '$2 == "none" && $3 != "late"' | med)
	ro=$(tput_ratios other | med)
	rself=$(tput_ratios self | med)
	late=$(awk '$3 == "late"' "$tp" | wc -l)
	nt=$(awk '$2 == "none" && $3 != "late"' "$tp" | wc -l)
	say "### The profiled process's slowdown: pinned pipe ping-pong"
	say ""
	say "| running | round trips/s (median) | ratio to nothing: median (spread over rounds) | throughput lost |"
	say "| --- | --- | --- | --- |"
	say "| nothing | $(fmt %.0f "$n") | 1 | – |"
	say "| \`hotspot-k profile\` of a \`sleep 1000\` (another process) | $(fmt %.0f "$(pcol "$tp" '$3' '$2 == "other" && $3 != "late"' | med)") | $(fmt %.3f "$ro") ($(tput_ratios other | spread_of %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $ro)")") % |"
	say "| \`hotspot-k profile\` of the ping-pong (its parent) | $(fmt %.0f "$(pcol "$tp" '$3' '$2 == "self" && $3 != "late"' | med)") | $(fmt %.3f "$rself") ($(tput_ratios self | spread_of %.3f)) | $(fmt %.1f "$(calc "100 * (1 - $rself)")") % |"
	say ""
	say "Method: figure 2's: \`bn-pingpong pipe -c 0 -w $PROFILE_TPUT_WARM -d 1\`, two processes pinned to CPU 0 passing one byte back and forth over two pipes, round trips counted over 1 s after a ${PROFILE_TPUT_WARM} s warm-up. $PROFILE_PAIRS rounds; in each, in a rotated order, one at a time: nothing; \`hotspot-k profile\` of a \`sleep 1000\`, started before the ping-pong; \`hotspot-k profile\` of the ping-pong's parent, started once it runs, which must have said \"profiling\" before the ping-pong's \"go\" and have written its profile once the ping-pong exited (it ends with its process); $late of $((PROFILE_PAIRS * 3)) runs were not counted for a late profile or another failure. The ratio is taken within a round, then its median and min–max ($nt rounds). kernel.bpf_stats_enabled as found ($(sysctl -n kernel.bpf_stats_enabled)): the stats' own clock reads are not in these numbers."
	say ""
	summary "11. profiling" "nothing flagged, side by side: hk_switch $sr ns per sched_switch without and with \`--profile\` (pipe / yield / idle storms), $(fmt %.3f "$rt")× over all storms, no hk_prof_* program held ($held); one process profiled: hk_prof_switch $(fmt %.1f "$oth_sw") ns per switch of the other processes, $(fmt %.0f "$self_sw") ns on the profiled ping-pong's ($(fmt %.0f "$so") % take stacks), hk_prof_sample $(fmt %.0f "$oth_smp") / $(fmt %.0f "$self_smp") ns per sample; pinned ping-pong $(fmt %.3f "$rself")× the round trips when profiled, $(fmt %.3f "$ro")× while another process is" "nothing flagged: no profiler program loaded, the same hk_switch: $(verdict "$met")"
	[ "$any" = 1 ] || fail profile "no storm measured with nothing flagged"
	[ "$(awk '$1 == "self"' "$run" | wc -l)" -gt 0 ] && [ "$(awk '$1 == "other"' "$run" | wc -l)" -gt 0 ] || fail profile "no storm measured while a profile ran"
	[ "$rself" != nan ] || fail profile "no slowdown round"
}
