/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* selftest.h - the checkers, checked (abort() when one accepts a bad line). */
#ifndef HK_TESTS_FUZZ_SELFTEST_H
#define HK_TESTS_FUZZ_SELFTEST_H

void fz_selftest(void);

#endif /* HK_TESTS_FUZZ_SELFTEST_H */
