/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef HK_TESTS_UNIT_SUITES_H
#define HK_TESTS_UNIT_SUITES_H

/* Each registers its CUnit suite; 0 on success. */
int hk_add_config_suite(void);
int hk_add_format_suite(void);
int hk_add_classify_suite(void);

#endif
