/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * frame_name.h - a function name made fit to be one frame of a folded
 * stack ("root;...;leaf COUNT"), where ';' separates frames and the last
 * space separates the count, and which inferno and speedscope read as
 * UTF-8 text.
 */
#ifndef HK_USER_FRAME_NAME_H
#define HK_USER_FRAME_NAME_H

#include <stddef.h>

/*
 * Copy name into buf (len >= 1 bytes; always NUL-terminated; a longer name
 * is cut where a UTF-8 sequence starts) with the bytes the folded format
 * cannot carry replaced one for one, so the length never changes:
 * ';' by ':', whitespace, control characters (C0, DEL, C1) and invisible
 * ones (bidi controls such as U+202E, zero-width characters: see
 * hk_utf8__invisible) by '_' for each of their bytes, and each byte
 * outside well-formed UTF-8 by '?'. Returns buf.
 */
char *hk_frame_name__copy(char *buf, size_t len, const char *name);

/* The same replacements in place on a NUL-terminated string. */
void hk_frame_name__clean(char *name);

#endif /* HK_USER_FRAME_NAME_H */
