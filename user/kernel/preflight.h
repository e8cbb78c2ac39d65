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
 * 1 when a seccomp filter confines this process (/proc/self/status's
 * Seccomp: 2), else 0: an EPERM from bpf() with the capabilities held is
 * then the filter's (a container runtime's default profile).
 */
int hk_preflight__seccomp_filtered(void);

/*
 * For the commands beside the run (status, thaw, follow, unpin, profile):
 * 0 for root, or a user with CAP_SYS_ADMIN; else -1 with one line in err,
 * "needs root (what), not uid N: try sudo hotspot-k cmd", said before the
 * first step that would fail less clearly (docs review 5.1: two lines, the
 * irrelevant one first).
 */
int hk_preflight__need_root(const char *cmd, const char *what, char *err, size_t err_len);

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

/* The kernel's BPF JIT switch, net.core.bpf_jit_enable. */
#define HK_JIT_SYSCTL "/proc/sys/net/core/bpf_jit_enable"

/*
 * 0 when the BPF JIT is on, or when the switch at path (HK_JIT_SYSCTL; a
 * stand-in in the tests) cannot be read: a network namespace of its own
 * hides it, and the load will say (hk_preflight__jit_refusal). -1 with the
 * one line of hk_preflight__jit_off when it reads 0: the verifier refuses
 * every driver's programs to the interpreter (kernel function calls,
 * callbacks; the 5.15 programs' too, tried on 6.12-rt). Kernels built with CONFIG_BPF_JIT_ALWAYS_ON cannot turn it off.
 */
int hk_preflight__check_jit(const char *path, char *err, size_t err_len);

/* 1 when a line of the verifier's log refuses a program for want of the
 * JIT (the messages of kernels 5.13 to 6.18); else 0. */
int hk_preflight__jit_refusal(const char *log);

/* The one line: the JIT is off, and how to turn it on. */
void hk_preflight__jit_off(char *err, size_t err_len);

/*
 * 1 when the kernel whose uname version string (utsname.version, "#1 SMP
 * PREEMPT_RT Debian 6.12.117-1~deb12u1 ...") is given is a PREEMPT_RT
 * build, whose verifier refuses bpf_timer (the wq and timer drivers'
 * window timer); NULL: the running kernel's. Else 0.
 */
int hk_preflight__preempt_rt(const char *version);

#endif /* HK_USER_PREFLIGHT_H */
