/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * grow.h - a growing array: capacity doubled as needed, so that n appends
 * cost O(n) copies.
 */
#ifndef HK_USER_GROW_H
#define HK_USER_GROW_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* Make *p (*cap elements of sz bytes) hold at least need; 0 or -ENOMEM. */
static inline int hk_array__grow(void **p, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (n > SIZE_MAX / sz)
		return -ENOMEM;
	q = realloc(*p, n * sz);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

#endif /* HK_USER_GROW_H */
