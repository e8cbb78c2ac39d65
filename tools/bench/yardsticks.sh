# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# yardsticks.sh - what figures 1 and 2 measure hotspot-k against, one at a
# time: nothing, hotspot-k itself, hotspot-k --no-hook, and bn-bpf's
# sched_switch programs (empty, hk_switch's filter alone, a per-TGID hash
# hook); sourced by run.sh (it uses lib.sh's run_bg, stop, wait_line,
# hk_start, link_prog).

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

# variant_start none|hk|nohook|empty|filter|tgid [HOTSPOT-K ARGS]: VPID and
# VPROG (its sched_switch program; none for none and nohook)
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
		VPROG=$(link_prog "$VPID" sched_switch)
		;;
	nohook)
		hk_start "$WORK/variant-nohook.log" --json --no-hook "${@:2}" || return 1
		VPID=$HK_PID
		return 0
		;;
	empty | filter | tgid)
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

