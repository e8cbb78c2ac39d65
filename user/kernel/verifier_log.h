/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * verifier_log.h - libbpf's messages and the verifier's logs, kept for the
 * one line that says why a load failed (verifier_log.c). One object at a
 * time: the state is this file's.
 */
#ifndef HK_USER_VERIFIER_LOG_H
#define HK_USER_VERIFIER_LOG_H

#include <stddef.h>
#include <bpf/libbpf.h>

/* libbpf's messages: every one on stderr when verbose; else the last few
 * kept for hk_verifier_log__failure. */
void hk_verifier_log__init(int verbose);
/* A log buffer for each program of obj, before its load: 0, or -1 (ENOMEM:
 * the buffers given so far are freed by hk_verifier_log__free). */
int hk_verifier_log__attach(struct bpf_object *obj);
/* After the load: the buffers taken back from obj's programs, and freed. */
void hk_verifier_log__detach(struct bpf_object *obj);
void hk_verifier_log__free(void);
/*
 * Why the load of obj failed with errno e, into err: the program the
 * verifier refused and its last lines, or the maps (big: the largest, as
 * sized by max_procs) that could not be created, or libbpf's last lines.
 * Before hk_verifier_log__detach.
 */
void hk_verifier_log__failure(struct bpf_object *obj, const struct bpf_map *big,
			      __u32 max_procs, char *err, size_t err_len, int e);

#endif /* HK_USER_VERIFIER_LOG_H */
