#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# Run a command the way dist/hotspot-k.service runs hotspot-k, as far as
# that goes without systemd, in namespaces of its own (nothing outside
# changes):
#   CapabilityBoundingSet=CAP_BPF CAP_PERFMON, NoNewPrivileges  setpriv
#   ProtectSystem=strict, ProtectKernelTunables,                every mount
#     ProtectControlGroups                                      read-only but
#                                                               /dev, /proc; /proc/sys too
#   ProtectHome                                                 empty /home, /root, /run/user
#   PrivateTmp                                                  empty /tmp, /var/tmp,
#                                                               bound from a
#                                                               systemd-private-*
#                                                               directory as systemd does
#   PrivateNetwork, PrivateIPC, ProtectHostname                 new net, ipc, uts namespaces
# The seccomp settings (SystemCallFilter, MemoryDenyWriteExecute,
# RestrictAddressFamilies, RestrictNamespaces) are not applied: check.sh
# traces the calls made instead.
#   tests/install/unit-run.sh [--caps +CAP,...] [--keep DIR] -- CMD [ARG...]
# --keep DIR: a directory under /tmp to show again, read-only, at the same
# path (where make install DESTDIR=DIR put the files). --caps: more
# capabilities in the bounding set, as a drop-in's CapabilityBoundingSet=
# adds them (setpriv's names: +sys_ptrace,+syslog). Needs root.
set -eu

keep=
caps=${HK_UNIT_RUN_CAPS:-}
if [ "${1:-}" = --caps ]; then
	caps=$2
	shift 2
fi
if [ "${1:-}" = --keep ]; then
	keep=$(cd "$2" && pwd)
	shift 2
fi
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [--keep DIR] -- CMD [ARG...]" >&2; exit 2; }

if [ "${HK_UNIT_RUN_INSIDE:-}" != 1 ]; then
	HK_UNIT_RUN_INSIDE=1 HK_UNIT_RUN_CAPS=$caps exec unshare --mount --net --ipc --uts -- \
		"$0" --keep "${keep:-/}" -- "$@"
fi
unset HK_UNIT_RUN_INSIDE HK_UNIT_RUN_CAPS
[ "$keep" != / ] || keep=

mount --make-rprivate /
# the kept directory, held open while /tmp is covered
[ -z "$keep" ] || exec 9<"$keep"
# PrivateTmp: the unit's own directory, bound over /tmp and /var/tmp (its
# mountinfo root names it, as hotspot-k's PrivateTmp probe expects); in a
# tmpfs of this namespace, so that nothing is left outside
for t in /tmp /var/tmp; do
	[ -d "$t" ] || continue
	mount -t tmpfs -o mode=0700,nosuid,nodev tmpfs "$t"
	p=$t/systemd-private-unitrun-hotspot-k.service-test/tmp
	mkdir -p "$p"
	chmod 1777 "$p"
	mount --bind "$p" "$t"
done
for h in /home /root /run/user; do
	[ -d "$h" ] && mount -t tmpfs -o ro,mode=0755 tmpfs "$h"
done
mount --bind /proc/sys /proc/sys
# every mount read-only but /dev, /proc and what PrivateTmp just made;
# mounts below /tmp, /var/tmp and the homes are under those covers now, as
# under systemd (no path reaches them to remount); mount points with
# escapes in their names are left alone
awk '{ print $5, $6 }' /proc/self/mountinfo | while read -r mp opts; do
	case $mp in
	/dev | /dev/* | /tmp | /var/tmp) continue ;;
	/tmp/* | /var/tmp/* | /home/* | /root/* | /run/user/*) continue ;;
	/proc | /proc/*) [ "$mp" = /proc/sys ] || continue ;;
	*\\*) continue ;;
	esac
	case ,$opts, in *,ro,*) continue ;; esac
	mount -o remount,bind,ro "$mp"
done
if [ -n "$keep" ]; then
	mkdir -p "$keep"
	# -c: the magic link itself, not the path it reads as (now covered)
	mount -c --bind /proc/self/fd/9 "$keep"
	mount -o remount,bind,ro "$keep"
	exec 9<&-
fi
# root, with only the unit's capabilities in its bounding set
exec setpriv --bounding-set=-all,+bpf,+perfmon${caps:+,$caps} --inh-caps=-all --no-new-privs -- "$@"
