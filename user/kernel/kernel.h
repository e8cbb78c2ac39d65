/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * kernel/ - the second step of the flow: struct hk_config -> the BPF
 * object's maps and programs (bpf/hotspot.bpf.c -> hotspot.skel.h ->
 * loader.c), the ring buffer's fd, the pins; and, from another process, a
 * running instance's maps (instance.c, snapshot.c). What the kernel has is
 * probed here (preflight.c, driver.c, kfields.h, bpffs.c), and the one
 * switch the tool turns on the host, kernel.task_delayacct (delayacct.c).
 *
 *   loader.c        open -> configure -> load -> attach -> arm; reconfigure;
 *                   destroy; its parts on one struct (loader_state.h):
 *   loader_hook.c   the sched_switch hook, attached at the walk's ask
 *   loader_walk.c   the iter driver's walks from here; a timer's take-over
 *   loader_cost.c   the programs' cost, hk_stats, the tool's cost written
 *   loader_pin.c    --pin: the maps and links pinned
 *   verifier_log.c  which program failed to load, the verifier's last lines
 *   driver.c        the kernel's BTF probed; wq, table, timer or iter chosen
 *   preflight.c     capabilities, kernel version, BTF: checked before a load
 *   bpffs.c         the BPF filesystem --pin needs; HK_PIN_DIR
 *   pindir.c        HK_PIN_DIR opened once, checked, used by fd; unpin
 *   delayacct.c     kernel.task_delayacct, and who turns it back off
 *   instance.c      a running instance's maps, found and opened read-only
 *   snapshot.c      ... read into a snapshot (struct hk_status_snap)
 *   bpf_sys.c       the few bpf(2) commands issued without libbpf
 *   watch.c         what the loop checks beside the ring: the cgroup
 *                   filter's cgroup made anew, hk_procs filling up
 *
 * Only loader*.c, verifier_log.c and driver.c link libbpf (the Makefile's
 * SKEL_USERS); the rest is linked into the unit tests too.
 */
#ifndef HK_USER_KERNEL_FACE_H
#define HK_USER_KERNEL_FACE_H

#include "bpffs.h"
#include "delayacct.h"
#include "instance.h"
#include "loader.h"
#include "pindir.h"
#include "preflight.h"
#include "watch.h"

#endif /* HK_USER_KERNEL_FACE_H */
