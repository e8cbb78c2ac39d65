# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# yardsticks.sh - what figures 1 and 2 measure hotspot-k against, one at a
# time: nothing, hotspot-k itself (as a user gets it: its sched_switch hook
# attached only while a thread is watched), hotspot-k with the hook attached
# for good (HOTSPOT_K_TEST_HOOK_ALWAYS=1, the hook before issue #20),
# hotspot-k --no-hook, bn-bpf's sched_switch programs (empty, hk_switch's
# filter alone, a per-TGID hash hook) and two libbpf-tools that hook
# sched_switch too (runqlat, cpudist: Debian's libbpf-tools package);
# sourced by run.sh (it uses lib.sh's run_bg, stop, wait_line, hk_start,
# link_prog).

# nohook_attached PID: a hotspot-k (--no-hook) holds a sched_switch link
nohook_attached()
{
	link_prog "$1" sched_switch >/dev/null
}

# nohook_said LOG: a stopped hotspot-k's summary line says "no hook"
nohook_said()
{
	grep -q '^hotspot-k: .*, no hook, ' "$1"
}

# --- the yardsticks -------------------------------------------------------------

# libbpf-tools' binaries (Debian installs them in /usr/sbin)
LIBBPF_TOOLS=/usr/sbin

# tool_start NAME ARGS...: one of libbpf-tools, up once it holds a
# sched_switch link; its PID in VPID, that link's program in VPROG
tool_start()
{
	local i

	[ -x "$LIBBPF_TOOLS/$1" ] || { echo "bench: no $LIBBPF_TOOLS/$1 (apt-get install libbpf-tools)" >&2; return 1; }
	run_bg "$WORK/variant-$1.log" "$LIBBPF_TOOLS/$1" "${@:2}"
	VPID=$BG_PID
	for ((i = 0; i < 500; i++)); do
		VPROG=$(link_prog "$VPID" sched_switch) && return 0
		alive "$VPID" || break
		sleep 0.02
	done
	echo "bench: $1 did not attach: $(tail -2 "$WORK/variant-$1.log")" >&2
	stop "$VPID"
	VPID=
	return 1
}

# variant_start none|hk|hkon|nohook|empty|filter|tgid|exitempty|forkhook|runqlat|cpudist
# [HOTSPOT-K ARGS]: VPID and VPROG (its sched_switch program, or bn-bpf's
# one program; none for none, nohook and hk, whose hook waits for a
# watched thread)
variant_start()
{
	VPID=
	VPROG=
	case $1 in
	none)
		return 0
		;;
	hk)
		hk_start "$WORK/variant-hk.log" --json "${@:2}" || return 1
		VPID=$HK_PID
		return 0
		;;
	hkon)
		HOTSPOT_K_TEST_HOOK_ALWAYS=1 hk_start "$WORK/variant-hkon.log" --json "${@:2}" || return 1
		VPID=$HK_PID
		VPROG=$(link_prog "$VPID" sched_switch)
		;;
	runqlat | cpudist)
		# one interval longer than any storm: no output meanwhile
		tool_start "$1" 3600 1 || return 1
		;;
	nohook)
		hk_start "$WORK/variant-nohook.log" --json --no-hook "${@:2}" || return 1
		VPID=$HK_PID
		return 0
		;;
	empty | filter | tgid | exitempty | forkhook)
		run_bg "$WORK/variant-$1.log" "$OUT/bn-bpf" attach "$1"
		VPID=$BG_PID
		wait_line "$WORK/variant-$1.log" '^ready' 10 "$VPID" || {
			stop "$VPID"
			VPID=
			return 1
		}
		VPROG=$(sed -n 's/^ready prog_id=//p' "$WORK/variant-$1.log")
		;;
	esac
	[ -n "$VPROG" ]
}

variant_stop()
{
	stop "$VPID"
	VPID=
}

