# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# bash completion for hotspot-k(8): its commands, each command's options
# (checked against each --help by make install-test:
# tests/install/completion.sh) and their values: config files, cgroup
# paths under /sys/fs/cgroup, PIDs, drivers. make install puts it in
# share/bash-completion/completions, where bash-completion loads it.

# The options of each command, as its --help lists them.
_hotspot_k_opts()
{
	case $1 in
	run)
		echo --config --interval --json --utc --duration --pid --comm \
			--exclude-comm --cgroup --prometheus --metrics-listen \
			--journal --no-journal --journal-socket \
			--profile --profile-dir \
			--freeze-on-oom --freeze-max --never-freeze --postmortem-dir \
			--pin --max-procs \
			--driver --timer-walk --no-hook --bpf-stats --no-bpf-stats \
			--generate-config --check-config --verbose --help --version
		;;
	status) echo --all --top --json --watch --npd --postmortem-dir --help ;;
	follow) echo --json --utc --help ;;
	unpin) echo --help ;;
	thaw) echo --all --help ;;
	profile) echo --memory --duration --profile-dir --dir --json --help ;;
	version) echo --help ;;
	esac
}

_hotspot_k_commands="status follow unpin thaw profile help version"

# Cgroup paths as the tool takes them (/system.slice/...): the directories
# under the unified mount, else the v1 freezer's.
_hotspot_k_cgroups()
{
	local root=/sys/fs/cgroup d
	[ -e "$root/cgroup.controllers" ] || root=/sys/fs/cgroup/freezer
	[ -d "$root" ] || return
	for d in $(compgen -d -- "$root${1:-/}"); do
		echo "${d#"$root"}/"
	done
}

_hotspot_k()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=run
	local IFS=$' \t\n'

	if [ "$COMP_CWORD" -gt 1 ]; then
		case ${COMP_WORDS[1]} in
		status|follow|unpin|thaw|profile|help|version) cmd=${COMP_WORDS[1]} ;;
		esac
	fi
	# a value after the option that takes it
	case $prev in
	-c|--config|--check-config|--prometheus|--journal-socket)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--profile-dir|--dir|--postmortem-dir)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--metrics-listen)
		COMPREPLY=($(compgen -W "127.0.0.1:9101 [::1]:9101 localhost:9101
			unix:/run/hotspot-k/metrics.sock" -- "$cur"))
		return
		;;
	--driver)
		COMPREPLY=($(compgen -W "wq timer iter" -- "$cur"))
		return
		;;
	--npd)
		COMPREPLY=($(compgen -W "up oom-risk noisy-neighbor cpu-contention" -- "$cur"))
		return
		;;
	--cgroup|--never-freeze)
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$( [ "$prev" = --never-freeze ] && echo none)
			$(_hotspot_k_cgroups "$cur")" -- "$cur"))
		return
		;;
	-p|--pid)
		COMPREPLY=($(compgen -W "$(cd /proc && echo [0-9]*)" -- "$cur"))
		return
		;;
	-i|--interval|--duration|--profile|--freeze-on-oom|--freeze-max|--watch|-w)
		COMPREPLY=($(compgen -W "1s 2s 5s 10s 30s 60s 10m" -- "$cur"))
		return
		;;
	--comm|--exclude-comm|--max-procs|-n|--top)
		return
		;;
	esac
	if [ "$COMP_CWORD" = 1 ] && [[ $cur != -* ]]; then
		COMPREPLY=($(compgen -W "$_hotspot_k_commands" -- "$cur"))
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_hotspot_k_opts "$cmd")" -- "$cur"))
		return
	fi
	case $cmd in
	help)
		[ "$COMP_CWORD" = 2 ] &&
			COMPREPLY=($(compgen -W "$_hotspot_k_commands" -- "$cur"))
		;;
	profile)
		COMPREPLY=($(compgen -W "$(cd /proc && echo [0-9]*)" -- "$cur"))
		;;
	thaw)
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$(_hotspot_k_cgroups "$cur")" -- "$cur"))
		;;
	esac
}
complete -F _hotspot_k hotspot-k
