# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# fig_16_budget.sh - figure 16, issue #33's [budget]: the tool's own CPU
# and RSS under three storms, one hotspot-k with the default budget and
# one unbudgeted ([budget] cpu = 0%, rss = 0) side by side over the same
# storm, both with the defaults otherwise (5 s windows):
#   oom      OOM kills in a loop: BUDGET_OOM_LOOPS memory cgroups (v1
#            memory.limit_in_bytes 3 MiB, or v2 memory.max), each with a
#            shell restarting `tail /dev/zero` at oom_score_adj 1000 (it
#            holds its one endless line: a few MiB, then the OOM killer,
#            which so never takes the shell); kills counted from each
#            cgroup's oom_kill counter
#   fork     stress-ng --fork 2: processes forked and reaped as fast as two
#            CPUs go; forks counted from /proc/stat's processes
#   threads  bn-spawn -p 100 -t 1000: 100 k idle threads walked each
#            window
# Each storm lasts BUDGET_STORM_S, then BUDGET_CALM_S of calm, the tools
# still running (does the budgeted one step back?). Sourced by run.sh (it
# uses lib.sh's helpers and fig_3_walk.sh's spawn_start and sysctls).

BUDGET_STORMS=${BENCH_BUDGET_STORMS:-"oom fork threads"}
BUDGET_STORM_S=${BENCH_BUDGET_STORM_S:-60}
BUDGET_CALM_S=${BENCH_BUDGET_CALM_S:-30}
BUDGET_OOM_LOOPS=${BENCH_BUDGET_OOM_LOOPS:-8}

# budget_scrape SOCK: the tool's families over its unix socket, one
# "name{labels} value" a line
budget_scrape()
{
	curl -s --max-time 5 --unix-socket "$1" http://localhost/metrics 2>/dev/null | grep -v '^#'
}

# budget_val TEXT NAME: the value of the sample NAME (labels included)
budget_val()
{
	awk -v n="$2" '$1 == n { print $2; exit }' <<<"$1"
}

# oom_cg_make I: a memory cgroup of 3 MiB; its path in OOM_CG
oom_cg_make()
{
	local v1=/sys/fs/cgroup/memory u=/sys/fs/cgroup/unified

	if [ -e "$v1/tasks" ]; then
		OOM_CG=$v1/hkb-oom-$1
		mkdir -p "$OOM_CG" || return 1
		echo $((3 << 20)) >"$OOM_CG/memory.limit_in_bytes" || return 1
		[ -e "$OOM_CG/memory.memsw.limit_in_bytes" ] &&
			echo $((3 << 20)) >"$OOM_CG/memory.memsw.limit_in_bytes"
		return 0
	fi
	[ -e "$u/cgroup.controllers" ] || u=/sys/fs/cgroup
	grep -qw memory "$u/cgroup.subtree_control" 2>/dev/null ||
		echo +memory >"$u/cgroup.subtree_control" || return 1
	OOM_CG=$u/hkb-oom-$1
	mkdir -p "$OOM_CG" && echo $((3 << 20)) >"$OOM_CG/memory.max" &&
		{ echo 0 >"$OOM_CG/memory.swap.max" 2>/dev/null; :; }
}

# oom_kills CG: the OOM kills in that cgroup so far
oom_kills()
{
	local f=$1/memory.oom_control

	[ -e "$f" ] || f=$1/memory.events
	awk '$1 == "oom_kill" { print $2 }' "$f"
}

# budget_storm_start NAME: the storm running; its PIDs in STORM_PIDS,
# what it counts in STORM_COUNT0 (budget_storm_count gives it again)
budget_storm_start()
{
	local i

	STORM_PIDS=
	OOM_CGS=
	case $1 in
	oom)
		for ((i = 0; i < BUDGET_OOM_LOOPS; i++)); do
			oom_cg_make "$i" || return 1
			OOM_CGS="$OOM_CGS $OOM_CG"
			# the shell moves itself in first: every tail starts there.
			# Each tail is the victim, never the shell (oom_score_adj
			# 1000: a killed loop ended the storm in 2 s; lowering the
			# shell's is refused in a container)
			run_bg /dev/null bash -c 'echo $$ >"$1/cgroup.procs" &&
				while :; do choom -n 1000 -- tail /dev/zero 2>/dev/null; done' - "$OOM_CG"
			STORM_PIDS="$STORM_PIDS $BG_PID"
		done
		;;
	fork)
		run_bg "$WORK/stress-fork.out" stress-ng --fork 2 --timeout $((BUDGET_STORM_S * 3))s
		STORM_PIDS=$BG_PID
		;;
	threads)
		walk_sysctls
		spawn_start 100 1000 || return 1
		STORM_PIDS=$SPAWN_PID
		;;
	esac
	# threads: the tasks there are, not a change
	STORM_COUNT0=0
	[ "$1" = threads ] || STORM_COUNT0=$(budget_storm_count "$1")
}

# budget_storm_count NAME: OOM kills (oom), forks (fork), threads (threads)
budget_storm_count()
{
	local cg n=0

	case $1 in
	oom)
		for cg in $OOM_CGS; do
			n=$((n + $(oom_kills "$cg")))
		done
		echo "$n"
		;;
	fork) awk '$1 == "processes" { print $2 }' /proc/stat ;;
	threads) awk '{ print $4 }' /proc/loadavg | cut -d/ -f2 ;;
	esac
}

budget_storm_stop()
{
	local pid cg i

	for pid in $STORM_PIDS; do
		stop "$pid" KILL 10
	done
	# stress-ng's forked workers, and what the OOM loops left

	for cg in $OOM_CGS; do
		for pid in $(cat "$cg/cgroup.procs" 2>/dev/null); do
			kill -KILL "$pid" 2>/dev/null
		done
		for ((i = 0; i < 50; i++)); do
			[ -s "$cg/cgroup.procs" ] || break
			sleep 0.1
		done
		rmdir "$cg" 2>/dev/null
	done
	[ "$1" != threads ] || walk_sysctls_restore
}

# budget_rss_max PID...: the largest VmRSS (KiB) of each, sampled every
# second for S seconds, as "KIB KIB"; lines in $WORK/budget-rss.log
budget_sample()
{
	local s=$1 i pid r
	local -a max

	shift
	for ((i = 0; i < s; i++)); do
		r=()
		for pid in "$@"; do
			r+=("$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$pid/status" 2>/dev/null)")
		done
		echo "${r[*]}" >>"$WORK/budget-rss.log"
		nap 1
	done
	awk '{ for (i = 1; i <= NF; i++) if ($i > m[i]) m[i] = $i }
	     END { for (i = 1; i <= NF; i++) printf "%s%d", (i > 1 ? " " : ""), m[i]; print "" }' \
		"$WORK/budget-rss.log"
}

# budget_row NAME: one storm, both tools; a line in budget.tsv:
# "name count per_min cpu_a cpu_b rss_a rss_b hwm_a hwm_b down_a up_a step_end_a step_calm_a lines"
budget_row()
{
	local name=$1 a b sa=$WORK/budget-a.sock sb=$WORK/budget-b.sock conf=$WORK/budget-off.conf
	local conf_a=$WORK/budget-1pct.conf
	local ta0 tb0 ta1 tb1 t0 t1 c1 rss m a1 b1 a2 step_end step_calm

	printf '[budget]\ncpu = 0%%\nrss = 0\n' >"$conf"
	# 1 %, the fleet's alert: the default (5 %) would hold the OOM storm
	# alone
	printf '[budget]\ncpu = 1%%\nrss = 16MiB\n' >"$conf_a"
	rm -f "$sa" "$sb" "$WORK/budget-rss.log"
	hk_start "$WORK/hk-budget-a-$name.log" --json --metrics-listen "unix:$sa" --config "$conf_a" ||
		return 1
	a=$HK_PID
	hk_start "$WORK/hk-budget-b-$name.log" --json --metrics-listen "unix:$sb" --config "$conf" ||
		{ stop "$a"; return 1; }
	b=$HK_PID
	next_window "$a"
	next_window "$a"
	budget_storm_start "$name" || { budget_storm_stop "$name"; stop "$a"; stop "$b"; return 1; }
	t0=$EPOCHREALTIME
	ta0=$(budget_val "$(budget_scrape "$sa")" hotspot_k_own_cpu_seconds_total)
	tb0=$(budget_val "$(budget_scrape "$sb")" hotspot_k_own_cpu_seconds_total)
	rss=$(budget_sample "$BUDGET_STORM_S" "$a" "$b")
	a1=$(budget_scrape "$sa")
	b1=$(budget_scrape "$sb")
	t1=$EPOCHREALTIME
	c1=$(budget_storm_count "$name")
	budget_storm_stop "$name"
	ta1=$(budget_val "$a1" hotspot_k_own_cpu_seconds_total)
	tb1=$(budget_val "$b1" hotspot_k_own_cpu_seconds_total)
	step_end=$(awk '$1 ~ /^hotspot_k_budget_degraded/ && $2 == 1 { n++ } END { print n + 0 }' <<<"$a1")
	m=$(calc "$t1 - $t0")
	nap "$BUDGET_CALM_S"
	a2=$(budget_scrape "$sa")
	step_calm=$(awk '$1 ~ /^hotspot_k_budget_degraded/ && $2 == 1 { n++ } END { print n + 0 }' <<<"$a2")
	printf '%s %s %s %s %s %s %s %s %s %s %s %s\n' "$name" "$((c1 - STORM_COUNT0))" \
		"$(calc "($c1 - $STORM_COUNT0) * 60 / $m")" \
		"$(calc "($ta1 - $ta0) * 100 / $m")" "$(calc "($tb1 - $tb0) * 100 / $m")" \
		"$rss" \
		"$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$a/status") $(awk '$1 == "VmHWM:" { print $2 }' "/proc/$b/status")" \
		"$(budget_val "$a2" 'hotspot_k_budget_steps_total{direction="down"}')" \
		"$(budget_val "$a2" 'hotspot_k_budget_steps_total{direction="up"}')" \
		"$step_end $step_calm" >>"$WORK/budget.tsv"
	grep -h 'budget' "$WORK/hk-budget-a-$name.log" | sed "s/^/$name: /" >>"$WORK/budget-lines.log"
	stop "$a"
	stop "$b"
}

fig_budget()
{
	local s

	log "16. [budget] under storms: $BUDGET_STORMS, ${BUDGET_STORM_S} s each + ${BUDGET_CALM_S} s calm"
	: >"$WORK/budget.tsv"
	: >"$WORK/budget-lines.log"
	for s in $BUDGET_STORMS; do
		budget_row "$s" || fail budget "storm $s could not be run"
	done
	section 16-budget
	say "## 16. [budget] under storms: own CPU and RSS, budgeted and not, side by side"
	say ""
	say "| storm | rate | own CPU, [budget] cpu = 1% (over 30 s) | own CPU, unbudgeted | RSS max budgeted / unbudgeted (VmHWM) | steps taken down in the storm; the step in effect at its end (of 5) | after ${BUDGET_CALM_S} s of calm: the step in effect (steps back taken) |"
	say "| --- | --- | --- | --- | --- | --- | --- |"
	awk '{
		unit = $1 == "oom" ? "OOM kills" : $1 == "fork" ? "forks" : "threads"
		rate = $1 == "threads" ? sprintf("%d tasks on the host", $2) : sprintf("%d %s (%.0f/min)", $2, unit, $3)
		printf "| %s | %s | %.2f %% | %.2f %% | %.1f / %.1f MiB (%.1f / %.1f) | %d, %d | %d (%d) |\n",
			$1, rate, $4, $5, $6 / 1024, $7 / 1024, $8 / 1024, $9 / 1024, $10, $12, $13, $11
	}' "$WORK/budget.tsv" >>"$SECTION"
	say ""
	say "The budgeted tool's lines:"
	say ""
	say '```'
	sed 's/^/    /' "$WORK/budget-lines.log" >>"$SECTION"
	say '```'
	say ""
	say "Method: for each storm, two hotspot-k start with the defaults (5 s windows) and \`--metrics-listen\` on a unix socket of their own, one with `[budget] cpu = 1%` (the fleet's alert; the default is 5 %), one with \`[budget] cpu = 0%, rss = 0\` (none); after 2 windows the storm starts; own CPU = the Δ of each tool's \`hotspot_k_own_cpu_seconds_total\` (walks + its process's user and system time + its BPF programs' runs, as the tool itself counts them: estimated from run counts here unless --bpf-stats) over the storm's ${BUDGET_STORM_S} s, as a share of one CPU (the counter moves once a window, so ± one window's cost); RSS = VmRSS of each sampled every second (the max) and VmHWM at the storm's end. Steps from \`hotspot_k_budget_degraded\` and \`hotspot_k_budget_steps_total\`, scraped at the storm's end and after ${BUDGET_CALM_S} s of calm. OOM storm: ${BUDGET_OOM_LOOPS} cgroups of 3 MiB, each a shell restarting \`choom -n 1000 -- tail /dev/zero\` (the tail always the victim, never the shell), kills from the cgroups' oom_kill counters; fork storm: \`stress-ng --fork 2\`, forks from /proc/stat; threads: \`bn-spawn -p 100 -t 1000\` (kernel.pid_max raised for it, then restored). Both tools run over the same storm at once, so each also pays for the other's presence (a little CPU, no memory)."
	say ""
}
