/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profile/ - one process's stacks -> named frames: the profiler that act/
 * starts (--profile) and `hotspot-k profile PID` asks for. The BPF side is
 * bpf/profile.bpf.c -> profile.skel.h -> profile_object.c; profiler.c runs
 * the profiles, profile_stacks.c takes their stacks out of the maps, and
 * profile_write.c names them in a capped child (worker.c) and hands them
 * to flame/.
 *
 *   profiler.c        several profiles at once, loaded with the first
 *   profile_object.c  the BPF object, opened, attached, torn down
 *   profile_stacks.c  one profile's counts and stacks out of the maps
 *   profile_target.c  what the profiler asks of the process it profiles
 *   profile_write.c   named and written: .folded and .svg, in a directory
 *                     lib/outdir.c checks
 *   usyms.c           addresses -> names: usyms_load.c, elf_syms.c, symtab.c
 *                     (a process), ksyms.c (the kernel)
 *   leaf.c            a leaf without a frame pointer: its caller put back
 *                     from the stack's top words
 *   worker.c          a job in a forked child with a memory cap and a time
 *                     budget
 */
#ifndef HK_USER_PROFILE_FACE_H
#define HK_USER_PROFILE_FACE_H

#include "profile_write.h"
#include "profiler.h"
#include "symbolize.h"

#endif /* HK_USER_PROFILE_FACE_H */
