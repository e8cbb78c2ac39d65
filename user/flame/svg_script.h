/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * svg_script.h - inside flame/: the script svg.c puts in every flame graph
 * that has frames (zoom on click, search, a details line on hover).
 */
#ifndef HK_USER_FLAME_SVG_SCRIPT_H
#define HK_USER_FLAME_SVG_SCRIPT_H

/*
 * Constant text, never a name pasted in: it reads the frames from the
 * document (the ids and data- attributes svg.c writes), so nothing a
 * profiled process named can become code. Holds no "]]>", so that it sits
 * in one CDATA section.
 */
extern const char hk_flame_svg_script[];

#endif /* HK_USER_FLAME_SVG_SCRIPT_H */
