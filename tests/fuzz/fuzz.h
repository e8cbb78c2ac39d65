/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * fuzz.h - what every fuzz target shares: a property that does not hold
 * aborts, so that libFuzzer keeps the input as a crash and shows the stack.
 */
#ifndef HK_TESTS_FUZZ_FUZZ_H
#define HK_TESTS_FUZZ_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* abort() with what failed, where, and a printf-style detail */
#define FZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "\n%s:%d: property failed: %s\n  ", \
				__FILE__, __LINE__, #cond);		\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* Print s (n bytes) to stderr with every byte outside printable ASCII as \xHH. */
void fz_dump(const char *what, const char *s, size_t n);

#endif /* HK_TESTS_FUZZ_FUZZ_H */
