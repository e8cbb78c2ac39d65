/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * flame/ - named frames -> folded stacks and an SVG flame graph: the last
 * step of a profile. Pure: no BPF, no /proc.
 *
 *   flamegraph.c  stacks merged into one tree (tree.h)
 *   folded.c      the tree as folded stacks, one line per stack
 *   svg.c         the tree as an SVG flame graph
 *   svg_script.c  its script: zoom, search, details (svg_script.h)
 *   frame_name.c  a function name made fit to be one frame
 */
#ifndef HK_USER_FLAME_FACE_H
#define HK_USER_FLAME_FACE_H

#include "flamegraph.h"
#include "frame_name.h"

#endif /* HK_USER_FLAME_FACE_H */
