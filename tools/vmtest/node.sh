# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# shellcheck shell=sh disable=SC2153,SC2154 # NOW, OUT, ERR, fails: init.sh's
#
# node.sh - the node guest's checks (kernel command line hkvm.node=1): a
# host shaped like a production node, 8 vCPUs, pure cgroup v2
# (cgroup_no_v1=all) laid out as systemd and kubelet do, and hotspot-k's
# diagnoses there. Sourced by init.sh after its helpers (now, result, alive,
# dead, until_true, stop, show); it ends the guest itself.
#
# Two hotspot-k run at once, both with 1 s windows: the default driver with
# --freeze-on-oom (every check but one) and --driver iter (iter_wrap). The
# workloads run in four phases, so that checks of one phase do not compete
# (each on CPUs of its own, or alone); two leaks (mem_high, freeze_v2) run
# through the first three on CPU 5 (4 in phase 2), this shell and the
# tools on 4. A check passes as soon as its events are there and fails at
# its phase's end. Every workload runs under busybox timeout and is killed
# by its PID at its phase's end. README.md has the table and the times.

CG=/sys/fs/cgroup
PHASE_CS=2000		# 20 s a phase: entering takes 3-6 windows of 1 s
QUIET_CS=800		# busy_faults: no mem_thrashing for 8 windows
IOUT=/tmp/iter.out
IERR=/tmp/iter.err

# kubelet's names: a pod UID with '_' for '-' in its slice, containerd's
# 64-hex container id in its scope
POD_A=0b6e4a52-7c1d-4f3e-9a85-2d4c6e8f1a3b
POD_B=5f2a9c1e-3b7d-4e6a-8c0f-9e1d2b3a4c5d
POD_C=a7c3e9f1-2d4b-4a6c-8e0f-1b3d5f7a9c2e
CTR_A=3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a
CTR_B=8e2c4a6f0b1d3e5a7c9f2b4d6e8a0c1e3f5b7d9a2c4e6f8b0d1a3c5e7f9b2d4c
CTR_C_BURST=c1d3e5f7a9b2c4d6e8f0a1b3c5d7e9f2a4b6c8d0e1f3a5b7c9d2e4f6a8b0c1d3
CTR_C_VICTIM=f0e1d2c3b4a5968778695a4b3c2d1e0f1f2e3d4c5b6a79880a1b2c3d4e5f6a7b

# pod_slice UID: the pod's cgroup as kubelet's systemd driver names it
pod_slice()
{
	echo "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$(echo "$1" | tr - _).slice"
}

NGINX=/system.slice/nginx.service
LEAK_HIGH=/system.slice/leak-high.service
LEAK_FREEZE=/system.slice/leak.service
SEED=/system.slice/seed.service
SPIN=/system.slice/spin.service
BUILD=/system.slice/build.service
WRAP=/system.slice/wrap.service
API=/system.slice/api.service
POD_A_CTR=$(pod_slice $POD_A)/cri-containerd-$CTR_A.scope
POD_B_CTR=$(pod_slice $POD_B)/cri-containerd-$CTR_B.scope
POD_C_BURST=$(pod_slice $POD_C)/cri-containerd-$CTR_C_BURST.scope
POD_C_VICTIM=$(pod_slice $POD_C)/cri-containerd-$CTR_C_VICTIM.scope

# --- the hierarchy -----------------------------------------------------------
# cg_make PATH: PATH and its parents, with the controllers on in every parent
# (systemd enables them where a unit below asks; the leaves hold processes)
cg_make()
{
	c_dir=
	for c_part in $(echo "$1" | tr / ' '); do
		for c_ctl in cpuset cpu io memory pids; do
			echo "+$c_ctl" >"$CG$c_dir/cgroup.subtree_control" 2>/dev/null
		done
		c_dir=$c_dir/$c_part
		mkdir -p "$CG$c_dir"
	done
}

# spawn CGROUP CPUS NICE CMD...: CMD in CGROUP ('' the root), on CPUS, at
# NICE, under a hard timeout; its PID is $!
spawn()
{
	s_cg=$1
	s_cpus=$2
	s_nice=$3
	shift 3
	# shellcheck disable=SC2016 # $$ and $1.. are the inner shell's
	# (busybox-static has no nice applet: renice the shell before the exec)
	timeout -s KILL 120 sh -c 'echo $$ >"$1/cgroup.procs" && c=$2 &&
		renice -n "$3" -p $$ >/dev/null && shift 3 && exec taskset -c "$c" "$@"' \
		sh "$CG$s_cg" "$s_cpus" "$s_nice" "$@" >>/tmp/spawn.out 2>>/tmp/spawn.err &
}

# move_to CPUS PID...: every thread of each PID to CPUS from now on
move_to()
{
	m_cpus=$1
	shift
	for m_p in "$@"; do
		taskset -a -p -c "$m_cpus" "$m_p" >/dev/null ||
			echo "HKVM INFO pid $m_p not moved to CPUs $m_cpus"
	done
}

# --- events ---------------------------------------------------------------------
# ev FILE PID LABEL: the first transition of PID to LABEL
ev()
{
	grep -m 1 "\"pid\":$2,.*\"to\":\"$3\"" "$1"
}

# labels FILE PID: the labels PID went through, "ok>starved>..."
labels()
{
	l_seq=$(grep "\"pid\":$2," "$1" | sed -n 's/.*"to":"\([a-z_]*\)".*/\1/p' | tr '\n' '>')
	echo "${l_seq%>}"
}

# field LINE KEY: a number or a string field of a JSON line
field()
{
	echo "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}

# has LINE KEY VALUE: the line has "KEY":"VALUE"
has()
{
	case $1 in *"\"$2\":\"$3\""*) return 0 ;; esac
	return 1
}

# pct_ge PCT MIN: a JSON percentage (12.34) at least MIN (whole)
pct_ge()
{
	[ -n "$1" ] && [ "${1%.*}" -ge "$2" ] 2>/dev/null
}

# settle END_CS CHECK...: poll every check's chk_NAME (0: decided, it said
# its result) until all are decided or END_CS; then late_NAME for the rest
settle()
{
	s_end=$1
	shift
	s_left=$*
	while [ -n "$s_left" ]; do
		s_next=
		for s_c in $s_left; do
			"chk_$s_c" || s_next="$s_next $s_c"
		done
		s_left=$s_next
		[ -n "$s_left" ] || break
		now
		if [ "$NOW" -ge "$s_end" ]; then
			for s_c in $s_left; do
				"late_$s_c"
			done
			break
		fi
		sleep 0.5
	done
}

# task_ticks FILE: every task's TID, comm, last CPU and CPU time (ticks)
task_ticks()
{
	cat /proc/[0-9]*/task/[0-9]*/stat 2>/dev/null | awk '{
		i = index($0, ") "); j = index($0, " (")
		split(substr($0, i + 2), f, " ")
		print substr($0, 1, j - 1) "\t" substr($0, j + 2, i - j - 2) "\t" f[37] "\t" f[12] + f[13] }' >"$1"
}

# others_ran FILE TGID: the tasks outside TGID last on CPU 0 or 1 (TGID's)
# that ran since FILE was taken, most first: "TID comm cpuN +ticks"
others_ran()
{
	task_ticks /tmp/ticks.now
	o_skip=
	for o_t in /proc/"$2"/task/*; do
		o_skip="$o_skip ${o_t##*/}"
	done
	awk -F'\t' -v skip="$o_skip " 'NR == FNR { t0[$1] = $4; next }
		index(skip, " " $1 " ") == 0 && $3 <= 1 && $4 - t0[$1] >= 2 {
			print $4 - t0[$1] "\t" $1 " " $2 " cpu" $3 " +" $4 - t0[$1] }' \
		"$1" /tmp/ticks.now | sort -n -r | head -n 8 | cut -f 2 | tr '\n' ';'
}

# --- the checks: chk_ decides when it can, late_ at the phase's end -----------
# throttled: 8 busy threads under cpu.max 4 CPUs of 8
chk_throttled()
{
	l=$(ev "$OUT" "$p_quota" throttled) || return 1
	d="cpu_pct $(field "$l" cpu_pct), throttled_pct $(field "$l" throttled_pct)"
	if ! pct_ge "$(field "$l" throttled_pct)" 25; then
		result throttled FAIL "$t_1" "pid $p_quota: $d, below 25"
	elif has "$l" quota_cgroup "$POD_B_CTR"; then
		result throttled PASS "$t_1" "pid $p_quota: $d, quota_cgroup named"
	else
		result throttled FAIL "$t_1" "pid $p_quota: $d; quota_cgroup '$(field "$l" quota_cgroup)', want $POD_B_CTR"
	fi
}

late_throttled()
{
	result throttled FAIL "$t_1" "pid $p_quota: no throttled event in $((PHASE_CS / 100)) s ($(labels "$OUT" "$p_quota"))"
}

# quota_starved: a starved victim in a quota'd pod, the hog outside named
chk_quota_starved()
{
	if l=$(ev "$OUT" "$p_victim" throttled); then
		result quota_starved FAIL "$t_2" "victim $p_victim: $(labels "$OUT" "$p_victim")," \
			"throttled_pct $(field "$l" throttled_pct), thread_run_delay_pct" \
			"$(field "$l" thread_run_delay_pct), aggressor $(field "$l" aggressor_pid);" \
			"hog $p_hog: $(labels "$OUT" "$p_hog")"
		return 0
	fi
	l=$(ev "$OUT" "$p_victim" starved) || return 1
	grep -q "\"pid\":$p_hog,.*\"to\":\"noisy_neighbor\".*\"victim_pid\":$p_victim," "$OUT" ||
		return 1
	result quota_starved PASS "$t_2" "victim $p_victim starved (throttled_pct" \
		"$(field "$l" throttled_pct), thread_run_delay_pct $(field "$l" thread_run_delay_pct))," \
		"hog $p_hog noisy_neighbor of it"
}

late_quota_starved()
{
	l=$(grep -m 1 "\"pid\":$p_victim,.*\"to\":\"[a-z]" "$OUT")
	result quota_starved FAIL "$t_2" "victim $p_victim: $(labels "$OUT" "$p_victim")" \
		"(throttled_pct $(field "$l" throttled_pct), thread_run_delay_pct $(field "$l" thread_run_delay_pct));" \
		"hog $p_hog: $(labels "$OUT" "$p_hog")"
}

# iter_wrap: a busy thread older than its process's newest, lower TID
chk_iter_wrap()
{
	if dead "$p_wrap"; then
		result iter_wrap FAIL "$t_2" "hkvm wrap exited: $(cat /tmp/spawn.err)"
		return 0
	fi
	l=$(ev "$IOUT" "$p_wrap" cpu_bound) || return 1
	# its time counted, not lost (a wrapped TID's thread missed shows
	# ~0): >= 75, not more, since the phase's other busy loops leave
	# it ~90 % of a vCPU (89.89 seen in a fresh-ci run)
	if pct_ge "$(field "$l" thread_cpu_pct)" 75; then
		result iter_wrap PASS "$t_2" "pid $p_wrap cpu_bound, thread_cpu_pct $(field "$l" thread_cpu_pct) ($(grep -m 1 '^wrap:' /tmp/spawn.out))"
	else
		result iter_wrap FAIL "$t_2" "pid $p_wrap cpu_bound with thread_cpu_pct $(field "$l" thread_cpu_pct), want >= 75"
	fi
}

late_iter_wrap()
{
	result iter_wrap FAIL "$t_2" "pid $p_wrap ($(grep -m 1 '^wrap:' /tmp/spawn.out)): no cpu_bound event under --driver iter in $((PHASE_CS / 100)) s ($(labels "$IOUT" "$p_wrap"))"
}

# attribution: unit, container and pod from the cgroup path
chk_attribution()
{
	l1=$(ev "$OUT" "$p_nginx" cpu_bound) || return 1
	l2=$(ev "$OUT" "$p_pod" cpu_bound) || return 1
	a_miss=
	has "$l1" cgroup "$NGINX" || a_miss="$a_miss nginx:cgroup='$(field "$l1" cgroup)'"
	has "$l1" unit nginx.service || a_miss="$a_miss nginx:unit"
	has "$l2" container_id "$CTR_A" || a_miss="$a_miss pod:container_id"
	has "$l2" pod_uid "$POD_A" || a_miss="$a_miss pod:pod_uid"
	has "$l2" unit "cri-containerd-$CTR_A.scope" || a_miss="$a_miss pod:unit"
	if [ -z "$a_miss" ]; then
		result attribution PASS "$t_3" "nginx.service; pod $POD_A container ${CTR_A%"${CTR_A#????????}"}..."
	else
		result attribution FAIL "$t_3" "missing or wrong:$a_miss"
	fi
}

late_attribution()
{
	result attribution FAIL "$t_3" "no cpu_bound: nginx $p_nginx $(labels "$OUT" "$p_nginx"), pod $p_pod $(labels "$OUT" "$p_pod")"
}

# oversubscribed: 8 busy threads allowed 2 CPUs want more: cpu_bound
chk_oversubscribed()
{
	if l=$(ev "$OUT" "$p_over" starved); then
		result oversubscribed FAIL "$t_3" "pid $p_over starved (cpu_pct $(field "$l" cpu_pct), thread_run_delay_pct $(field "$l" thread_run_delay_pct));" \
			"others last on CPUs 0-1 that ran in phase 3 (USER_HZ ticks): $(others_ran /tmp/ticks.3 "$p_over")"
		return 0
	fi
	l=$(ev "$OUT" "$p_over" cpu_bound) || return 1
	result oversubscribed PASS "$t_3" "pid $p_over cpu_bound, cpu_pct $(field "$l" cpu_pct)"
}

late_oversubscribed()
{
	result oversubscribed FAIL "$t_3" "pid $p_over: no cpu_bound in $((PHASE_CS / 100)) s ($(labels "$OUT" "$p_over"));" \
		"others last on CPUs 0-1 that ran in phase 3 (USER_HZ ticks): $(others_ran /tmp/ticks.3 "$p_over")"
}

# seed_pair: a loop and a nice-19 loop on one of 8 CPUs
chk_seed_pair()
{
	ev "$OUT" "$p_nice" starved >/dev/null || return 1
	ev "$OUT" "$p_loop" noisy_neighbor >/dev/null || return 1
	result seed_pair PASS "$t_3" "nice-19 $p_nice starved, $p_loop noisy_neighbor"
}

late_seed_pair()
{
	result seed_pair FAIL "$t_3" "nice-19 $p_nice $(labels "$OUT" "$p_nice"), loop $p_loop $(labels "$OUT" "$p_loop")"
}

chk_busy_loop()
{
	ev "$OUT" "$p_spin" cpu_bound >/dev/null || return 1
	result busy_loop PASS "$t_3" "pid $p_spin cpu_bound"
}

late_busy_loop()
{
	result busy_loop FAIL "$t_3" "pid $p_spin: $(labels "$OUT" "$p_spin")"
}

# mem_high: a leak held at memory.high
chk_mem_high()
{
	l=$(ev "$OUT" "$p_high" mem_throttled) || return 1
	result mem_high PASS "$t_1" "pid $p_high mem_throttled ($(labels "$OUT" "$p_high"))"
}

late_mem_high()
{
	result mem_high FAIL "$t_1" "pid $p_high: $(labels "$OUT" "$p_high");" \
		"memory.events high $(sed -n 's/^high //p' "$CG$LEAK_HIGH/memory.events")," \
		"current $(($(cat "$CG$LEAK_HIGH/memory.current") / 1048576)) MiB"
}

# the watcher's /proc/uptime in a file, in centiseconds
uptime_cs()
{
	local up frac

	read -r up _ <"$1"
	frac=${up#*.}
	echo $((${up%.*} * 100 + ${frac#0}))
}

# freeze_v2: frozen through cgroup.freeze, thawed after --freeze-max
f_frozen=
chk_freeze_v2()
{
	# its leak's refusal only: the mem_high leak may enter OOM risk too,
	# and its cgroup is in --never-freeze (seen with three guests at once);
	# "pending" (cgroup.freeze written, its tasks not all stopped within
	# the tool's 1 s: a leak faulting in 4 MiB at its limit under TCG
	# beside another guest, fresh-ci) is asked, not refused: its freeze
	# and thaw are watched as a "frozen" one's
	if l=$(grep '"event":"freeze"' "$OUT" | grep "\"pid\":$p_leak," |
		grep -v '"result":"pending"' | grep -m 1 '"reason":"'); then
		result freeze_v2 FAIL "$t_1" "refused: $(field "$l" reason)"
		return 0
	fi
	read -r f_state <"$CG$LEAK_FREEZE/cgroup.freeze"
	# the freeze and the thaw may both be over at the first look (the
	# watcher saw them in an earlier phase): decided in that one look, as
	# the phase may end before a second (fresh-ci, 3 times on a slow day:
	# "never thawed", the watcher's thawed_at written long before)
	if [ -z "$f_frozen" ]; then
		if [ -s /tmp/frozen_at ]; then
			f_frozen=$(uptime_cs /tmp/frozen_at)
		elif [ "$f_state" = 1 ]; then
			now
			f_frozen=$NOW
		fi
		[ -n "$f_frozen" ] || return 1
	fi
	if [ -s /tmp/thawed_at ]; then
		NOW=$(uptime_cs /tmp/thawed_at)
	elif [ "$f_state" = 0 ]; then
		now
	else
		return 1
	fi
	result freeze_v2 PASS "$t_1" "pid $p_leak: cgroup.freeze 1 at $(secs $((f_frozen - t_1))) s," \
		"0 again at $(secs $((NOW - t_1))) s (--freeze-max 3s)"
}

late_freeze_v2()
{
	if [ -n "$f_frozen" ]; then
		# what the cgroup, the watcher and the tool say then
		read -r lf_state <"$CG$LEAK_FREEZE/cgroup.freeze"
		lf_ev=$(tr '\n' ' ' <"$CG$LEAK_FREEZE/cgroup.events")
		lf_t=$(grep '"event":"freeze"' "$OUT" | grep "\"pid\":$p_leak," |
			sed -n 's/.*"time":"[^T]*T\([^"]*\)".*"result":"\([a-z]*\)".*/\1 \2/p' | tr '\n' ',')
		result freeze_v2 FAIL "$t_1" "frozen at $(secs $((f_frozen - t_1))) s, never thawed" \
			"(phase 3 from $(secs $((t_3 - t_1))) s)" \
			"(now: cgroup.freeze $lf_state, events $lf_ev; watcher files:" \
			"$(ls /tmp/frozen_at /tmp/thawed_at 2>&1 | tr '\n' ' '); the tool's: $lf_t)"
	else
		result freeze_v2 FAIL "$t_1" "pid $p_leak never frozen ($(labels "$OUT" "$p_leak")): $(grep -m 1 '"event":"freeze"' "$OUT")"
	fi
}

# busy_faults: 6 threads at 60 % each, 15 k minor faults/s with RSS flat
# (allocator churn): busy on 8 CPUs, so its faults are its work (finding 1)
chk_busy_faults()
{
	l=$(ev "$OUT" "$p_churn" mem_thrashing) || return 1
	result busy_faults FAIL "$t_4" "pid $p_churn mem_thrashing: cpu_pct $(field "$l" cpu_pct)," \
		"thread_cpu_pct $(field "$l" thread_cpu_pct), unexplained_faults_per_s $(field "$l" unexplained_faults_per_s)"
}

late_busy_faults()
{
	now
	read -r _ _ _ _ _ _ _ _ _ f_minflt _ <"/proc/$p_churn/stat"
	f_rate=$(((f_minflt - f_minflt0) * 100 / (NOW - t_4)))
	if [ "$f_rate" -ge 10000 ]; then
		result busy_faults PASS "$t_4" "pid $p_churn: $f_rate minor faults/s, never mem_thrashing ($(labels "$OUT" "$p_churn"))"
	else
		result busy_faults FAIL "$t_4" "pid $p_churn: only $f_rate minor faults/s, below mem_thrashing's 10000"
	fi
}

# throttling CGROUP: its quota bites hard: throttled time summed over CPUs
# >= 50 % of a second (hotspot-k's Throttled wants 25 %), in 4 s at most
throttling()
{
	tq_path=$CG$1/cpu.stat
	tq_prev=$(sed -n 's/^throttled_usec //p' "$tq_path")
	for _ in 1 2 3 4; do
		sleep 1
		tq=$(sed -n 's/^throttled_usec //p' "$tq_path")
		[ $(((tq - tq_prev) / 10000)) -ge 50 ] && return 0
		tq_prev=$tq
	done
	return 1
}

# every check's result is FAIL: hotspot-k did not load
all_fail()
{
	for a_c in throttled quota_starved iter_wrap attribution oversubscribed \
		seed_pair busy_loop mem_high freeze_v2 busy_faults sigint no_bpf_left; do
		result "$a_c" FAIL "$t0" "$1"
	done
}

# stop_all PID...: kill and reap each
stop_all()
{
	for s_p in "$@"; do
		stop "$s_p"
	done
}

# --- boot: the hierarchy, both tools ---------------------------------------------
mount -t cgroup2 cgroup2 $CG || echo "HKVM INFO cgroup2 not mounted"
# a node's /run, where --freeze-on-oom records each freeze before making it
mkdir -p /run && mount -t tmpfs tmpfs /run
for c in $NGINX $LEAK_HIGH $LEAK_FREEZE $SEED $SPIN $BUILD $WRAP $API \
	"$POD_A_CTR" "$POD_B_CTR" "$POD_C_BURST" "$POD_C_VICTIM"; do
	cg_make "$c"
done
echo "HKVM INFO cgroup v2 only: $(cat $CG/cgroup.subtree_control)" \
	"($(grep -c . /proc/cgroups) lines in /proc/cgroups, v1 hierarchies $(awk 'NR > 1 && $2 != 0' /proc/cgroups | wc -l))"
echo 400000 100000 >"$CG$POD_B_CTR/cpu.max"
echo 400000 100000 >"$CG$(pod_slice $POD_C)/cpu.max"
echo 64M >"$CG$LEAK_HIGH/memory.high"
echo 512M >"$CG$LEAK_HIGH/memory.max"
echo 400M >"$CG$LEAK_FREEZE/memory.max"

# This shell (every check's poll: ~15 % of a CPU under TCG), the tools it
# starts and the kernel's unbound work on CPU 4, the one CPU no check
# measures in any phase (phase 2's burst may use it: its quota is what
# bites there); the leaks on CPU 5 but in phase 2, where CPU 5 is the
# hog's and its victim's (move_to). A leak still growing took 39 % of a
# CPU in phase 3, and on CPU 0 it made the oversubscribed check's 8
# threads starved (cpu_pct 130.85 of 200, tried; 178.91 in the CI run
# where the scheduler put it there); an events_unbound kworker took 0.29 s
# of CPU 0 in one phase 3. This shell on CPUs 4-5 at first: phase 2's hog
# then named it, which it starved, instead of the pod's victim; all of it
# and the leaks on CPU 4: seed_pair's loop (CPU 3) stayed cpu_bound, never
# noisy_neighbor, in one run of two (the walk's kworker on a crowded CPU).
# Each workload sets its own CPUs (spawn).
taskset -p -c 4 $$ >/dev/null || echo "HKVM INFO init not pinned to CPU 4"
echo 10 >/sys/devices/virtual/workqueue/cpumask ||
	echo "HKVM INFO unbound workqueues not confined to CPU 4"
now
t0=$NOW
# no [budget] for either tool: the checks time their lines (20 s), and a
# budget step taken under TCG would delay them; what they check is the
# diagnosis, not the budget (e2e's budget tests it on the host). Seen: the
# default tool's windows at 2 s, then 4 s, in a fresh-ci run (the host
# busy), and attribution and oversubscribed late; iter_wrap's walks run in
# the tool's own read()s, the first case of it
printf '[budget]\ncpu = 0%%\nrss = 0\n' >/tmp/hk-nobudget.conf
# --verbose: libbpf's CO-RE log for init.sh's core check (the x86 6.12
# guest's, whose kernel this is)
timeout -s KILL 300 hotspot-k --verbose --json -i 1s --freeze-on-oom 600s --freeze-max 3s \
	--never-freeze "$LEAK_HIGH" --config /tmp/hk-nobudget.conf >"$OUT" 2>"$ERR" &
tool=$!
timeout -s KILL 300 hotspot-k --json -i 1s --driver iter --config /tmp/hk-nobudget.conf \
	>"$IOUT" 2>"$IERR" &
itool=$!

# both_dead: neither tool runs
both_dead()
{
	dead "$tool" && dead "$itool"
}

# both closed a window: two hk_stats maps, each with windows >= 1
both_started()
{
	dead "$tool" || dead "$itool" || {
		# shellcheck disable=SC2046 # one number per map
		set -- $(hkvm windows all 2>/dev/null)
		[ $# -ge 2 ] && [ "$1" -ge 1 ] && [ "$2" -ge 1 ]
	}
}
# 6.12's verifier took ~20 s for the wq driver's programs under TCG, more
# since issue #17's work (3.3 s natively, from 0.8 s): 180 s at most
until_true 18000 both_started
if dead "$tool" || dead "$itool"; then
	result load FAIL "$t0" "exit: $(grep '^hotspot-k:' "$ERR" "$IERR" | head -n 2 | tr '\n' ' ')"
	show hotspot-k "$ERR" 5
	show "hotspot-k iter" "$IERR" 5
	all_fail "hotspot-k is not running"
elif ! both_started; then
	result load FAIL "$t0" "running, but no window closed in 180 s ($(hkvm windows all 2>&1))"
	stop_all "$tool" "$itool"
	show hotspot-k "$ERR" 5
	show "hotspot-k iter" "$IERR" 5
	all_fail "hotspot-k did not start"
else
	driver=$(grep -o 'driver [a-z]* ([^)]*)' "$ERR" | head -n 1)
	echo "HKVM INFO ${driver:-driver ?}"
	result load PASS "$t0" "both closed a window; ${driver:-driver ?}; and driver iter"
	core_check

	# --- phase 1: a quota on 8 CPUs; the leaks start ----------------------
	now
	t_1=$NOW
	spawn "$POD_B_CTR" 0-7 0 hkload spin --threads 8
	p_quota=$!
	spawn "$LEAK_HIGH" 5 0 hkload grow --step 4M --every 250ms --max 400M
	p_high=$!
	spawn "$LEAK_FREEZE" 5 0 hkload grow --step 4M --every 250ms --max 368M
	p_leak=$!
	# the 3 s frozen, and the thaw, seen by a loop of their own: the
	# phases' poll of every check, 0.5 s apart, took longer than that
	# once with 8 vCPUs busy under single-threaded TCG beside another
	# guest (fresh-ci); and it missed a thaw once, its next look finding
	# the cgroup frozen again
	timeout -s KILL 120 sh -c 'until read -r s <"$1" && [ "$s" = 1 ]; do sleep 0.1; done
		cat /proc/uptime >"$2"
		until read -r s <"$1" && [ "$s" = 0 ]; do sleep 0.1; done
		exec cat /proc/uptime >"$3"' \
		sh "$CG$LEAK_FREEZE/cgroup.freeze" /tmp/frozen_at /tmp/thawed_at &
	p_fwatch=$!
	settle $((t_1 + PHASE_CS)) throttled
	stop "$p_quota"

	# --- phase 2: quota vs. a foreign hog (CPU 5), iter after a PID wrap ---
	now
	t_2=$NOW
	move_to 4 "$p_high" "$p_leak"
	# 10 x 90 ms of CPU in each 100 ms period on 6 CPUs: the pod's 4 CPUs
	# run out before the period does, all 6 CPUs wait for the next (under
	# TCG 20-55 % of a CPU summed, varying from boot to boot). The victim
	# comes once the quota bites, as on a node where it always does.
	spawn "$POD_C_BURST" 0-4,6 0 hkvm burst 10 90 100
	p_burst=$!
	throttling "$(pod_slice $POD_C)" ||
		echo "HKVM INFO pod $POD_C not throttled: $(tr '\n' ' ' <"$CG$(pod_slice $POD_C)/cpu.stat")"
	spawn "$POD_C_VICTIM" 5 0 hkload spin
	p_victim=$!
	# The hog in the root cgroup: cgroups beside each other share a CPU by
	# their weights, whatever the nice. The review's two at nice -5 would
	# get 43 % each, below Noisy neighbor's 50 % of a CPU, and the second
	# is then starved by the first: one at nice -10 gets ~90 %.
	spawn "" 5 -10 hkload spin
	p_hog=$!
	now
	spawn "$WRAP" 7 0 hkvm wrap
	p_wrap=$!
	echo "HKVM INFO pod C at $(secs $((NOW - t_2))) s: $(tr '\n' ' ' <"$CG$(pod_slice $POD_C)/cpu.stat")"
	settle $((t_2 + PHASE_CS)) quota_starved iter_wrap
	now
	echo "HKVM INFO pod C at $(secs $((NOW - t_2))) s: $(tr '\n' ' ' <"$CG$(pod_slice $POD_C)/cpu.stat")"
	stop_all "$p_burst" "$p_victim" "$p_hog" "$p_wrap"

	# --- phase 3: pinned shapes on CPUs of their own ------------------------
	now
	t_3=$NOW
	move_to 5 "$p_high" "$p_leak"
	spawn "$BUILD" 0-1 0 hkload spin --threads 8
	p_over=$!
	spawn "$SPIN" 2 0 hkload spin
	p_spin=$!
	spawn "$SEED" 3 0 hkload spin
	p_loop=$!
	spawn "$SEED" 3 19 hkload spin
	p_nice=$!
	spawn "$NGINX" 6 0 hkload spin
	p_nginx=$!
	spawn "$POD_A_CTR" 7 0 hkload spin
	p_pod=$!
	task_ticks /tmp/ticks.3
	settle $((t_3 + PHASE_CS)) attribution oversubscribed seed_pair busy_loop \
		mem_high freeze_v2
	echo "HKVM INFO phase 3, others on CPUs 0-1: $(others_ran /tmp/ticks.3 "$p_over")"
	stop_all "$p_over" "$p_spin" "$p_loop" "$p_nice" "$p_nginx" "$p_pod" \
		"$p_high" "$p_leak" "$p_fwatch"

	# --- phase 4: 6 threads at 60 % faulting, on 8 CPUs ----------------------
	now
	t_4=$NOW
	spawn "$API" 0-7 0 hkvm burst 6 60 100 256
	p_churn=$!
	read -r _ _ _ _ _ _ _ _ _ f_minflt0 _ <"/proc/$p_churn/stat"
	settle $((t_4 + QUIET_CS)) busy_faults
	stop "$p_churn"

	# --- the profiler, as on every other guest ------------------------------
	skipped profile || profile_check

	# --- the end: both stop on SIGINT, thaw, unload ------------------------
	now
	t0=$NOW
	kill -INT "$tool" "$itool"
	# 0.2-0.6 s in most runs. Both get 45 s: under this TCG (8 vCPUs on one
	# host thread beside another guest) a tool was still there after 5 s
	# in 3 fresh-ci runs of ~20; in the last, the iter tool, which this
	# check gave 5 s after the first's exit then, while its FAIL line named
	# the first. At 15 s where each live one's threads wait is printed; a
	# tool whose loop stayed busy 5 s (its stop guard ends it: exit 1, "...
	# still busy <phase>") fails, saying the phase.
	s_where=
	if ! until_true 1500 both_dead; then
		for s_p in "$tool" "$itool"; do
			dead "$s_p" && continue
			for s_t in /proc/"$s_p"/task/*; do
				echo "HKVM INFO sigint: 15 s on, pid $s_p thread ${s_t##*/}" \
					"$(cat "$s_t/comm" 2>/dev/null) in $(cat "$s_t/wchan" 2>/dev/null):" \
					"$(tr '\n' ' ' <"$s_t/stack" 2>/dev/null | cut -c1-400)"
				s_where="$s_where $s_p/${s_t##*/}:$(cat "$s_t/wchan" 2>/dev/null)"
			done
		done
	fi
	if until_true 3000 both_dead; then
		wait "$tool"
		st=$?
		wait "$itool"
		st2=$?
		if [ "$st" = 0 ] && [ "$st2" = 0 ]; then
			result sigint PASS "$t0" "both exit 0"
		else
			result sigint FAIL "$t0" "exit $st, iter exit $st2:" \
				"$(grep -h 'still busy' "$ERR" "$IERR" | cut -c1-200 | tr '\n' ' ')"
			show hotspot-k "$ERR" 5
			show "hotspot-k iter" "$IERR" 5
		fi
	else
		s_live=
		dead "$tool" || s_live="$s_live pid $tool (default driver)"
		dead "$itool" || s_live="$s_live pid $itool (iter)"
		stop_all "$tool" "$itool"
		result sigint FAIL "$t0" "still running 45 s after SIGINT:$s_live; at 15 s" \
			"their threads waited in:$s_where"
		show hotspot-k "$ERR" 5
		show "hotspot-k iter" "$IERR" 5
	fi
	now
	t0=$NOW
	if until_true 500 hk_progs_gone; then
		result no_bpf_left PASS "$t0" "no hk_* program loaded"
	else
		result no_bpf_left FAIL "$t0" "still loaded: $(hkvm progs hk_ 2>&1)"
	fi
fi
show event "$OUT" 40
show iter "$IOUT" 10

echo "HKVM DONE $fails"
sync
hkvm exit "$fails"
poweroff -f
