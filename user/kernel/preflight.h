/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * preflight.h - the checks before a load (preflight.c), each turning one
 * of libbpf's vague failures into one clear line.
 */
#ifndef HK_USER_PREFLIGHT_H
#define HK_USER_PREFLIGHT_H

#include <stddef.h>

/* 0 when we may load BPF programs; else -1 with a reason in err. */
int hk_preflight__check_privileges(char *err, size_t err_len);

/*
 * The running kernel's release (uname), or for tests
 * HOTSPOT_K_TEST_RELEASE's, into buf; buf. Only said, never judged: what
 * the kernel has is probed in its BTF (hk_driver__check_features), so a
 * vendor kernel with backports (RHEL 9's 5.14) loads.
 */
const char *hk_preflight__release(char *buf, size_t len);

/* 0 when the kernel has BTF; else -1 with a reason in err. */
int hk_preflight__check_btf(char *err, size_t err_len);

/*
 * Whether --profile can work here, probed once at start (the shipped unit
 * forbids it unless a drop-in allows it: hotspot-k(8), SERVICE). 0; -1
 * with why when every profile will fail (perf_event_open refused: a
 * seccomp filter, no CAP_PERFMON; no CAP_SYS_PTRACE to read the memory
 * maps of processes); 1 with why when profiles lack a part (no
 * CAP_SYSLOG: kernel frames without names).
 */
int hk_preflight__check_profile(char *why, size_t why_len);

#endif /* HK_USER_PREFLIGHT_H */
