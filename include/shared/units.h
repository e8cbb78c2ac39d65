/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * units.h - the one set of time and size constants, for the BPF program,
 * the tool, the tests and their workloads alike.
 */
#ifndef HK_SHARED_UNITS_H
#define HK_SHARED_UNITS_H

#define HK_NSEC_PER_USEC	1000ULL
#define HK_NSEC_PER_MSEC	1000000ULL
#define HK_NSEC_PER_SEC		1000000000ULL
#define HK_NSEC_PER_MIN		(60 * HK_NSEC_PER_SEC)
#define HK_NSEC_PER_HOUR	(3600 * HK_NSEC_PER_SEC)
#define HK_NSEC_PER_DAY		(86400 * HK_NSEC_PER_SEC)
#define HK_USEC_PER_SEC		1000000ULL
#define HK_MSEC_PER_SEC		1000ULL
#define HK_SEC_PER_MIN		60ULL
#define HK_SEC_PER_HOUR		3600ULL
#define HK_SEC_PER_DAY		86400ULL

#define HK_KIB			(1ULL << 10)
#define HK_MIB			(1ULL << 20)
#define HK_GIB			(1ULL << 30)
#define HK_TIB			(1ULL << 40)

#endif /* HK_SHARED_UNITS_H */
