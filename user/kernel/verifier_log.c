// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * verifier_log.c - which BPF program failed to load and the verifier's last
 * lines about it, or what else failed (the maps, a CO-RE relocation), in
 * one line: the loader's error when hotspot_bpf__load() fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "preflight.h"
#include "verifier_log.h"

/*
 * libbpf's own messages: all of them with -v; else the last few are kept,
 * for a failure the kernel has no log of (a CO-RE relocation, an ELF
 * problem). The verifier's log comes to prog_logs instead.
 */
static int log_verbose;
static char log_tail[4][256];
static unsigned int log_lines;

/* Where the kernel writes the verifier's log of a program that failed to
 * load, one buffer per program (libbpf asks for it only after a failure). */
#define HK_VERIFIER_LOG_BYTES (1 << 20)
#define HK_MAX_PROGS 16
static char *prog_logs[HK_MAX_PROGS];

void hk_verifier_log__free(void)
{
	int i;

	for (i = 0; i < HK_MAX_PROGS; i++) {
		free(prog_logs[i]);
		prog_logs[i] = NULL;
	}
}

/* the verifier's statistics close its log: they say nothing of why */
static int log_line_is_noise(const char *p)
{
	static const char *const noise[] = {
		"processed ", "verification time", "stack depth", "PROG LOAD LOG",
		"Validating ", "mark_precise", "last_idx",
	};
	size_t i;

	if (!*p)
		return 1;
	for (i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
		if (strstr(p, noise[i]))
			return 1;
	return 0;
}

static void keep_line(const char *p)
{
	if (!log_line_is_noise(p))
		snprintf(log_tail[log_lines++ % 4], sizeof(log_tail[0]), "%s", p);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *text = NULL, *p, *save = NULL;

	if (log_verbose)
		return vfprintf(stderr, fmt, ap);
	if (level == LIBBPF_DEBUG || vasprintf(&text, fmt, ap) < 0)
		return 0;
	for (p = strtok_r(text, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		keep_line(p);
	free(text);
	return 0;
}

/* The last two lines worth reading, after ": ", joined by " | ". */
static size_t append_tail(char *err, size_t err_len, size_t off)
{
	unsigned int n = log_lines < 2 ? log_lines : 2, i;

	for (i = log_lines - n; i < log_lines && off < err_len; i++)
		off += snprintf(err + off, err_len - off, "%s%s",
				i == log_lines - n ? ": " : " | ", log_tail[i % 4]);
	return off;
}

void hk_verifier_log__init(int verbose)
{
	log_verbose = verbose;
	libbpf_set_print(libbpf_print);
}

int hk_verifier_log__attach(struct bpf_object *obj)
{
	struct bpf_program *prog;
	int i = 0;

	bpf_object__for_each_program(prog, obj) {
		if (i == HK_MAX_PROGS)
			break;
		prog_logs[i] = calloc(1, HK_VERIFIER_LOG_BYTES);
		if (!prog_logs[i] ||
		    bpf_program__set_log_buf(prog, prog_logs[i], HK_VERIFIER_LOG_BYTES))
			return -1;
		i++;
	}
	return 0;
}

void hk_verifier_log__detach(struct bpf_object *obj)
{
	struct bpf_program *prog;

	/* only a failed load writes there; libbpf keeps no reference after it */
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_log_buf(prog, NULL, 0);
	hk_verifier_log__free();
}

/*
 * Why hotspot_bpf__load() failed, from libbpf's log buffer options rather
 * than the words of its messages. A failed load closes every map and
 * program, so their fds say nothing; but each program has a log buffer of
 * its own (libbpf fills it only when the program fails to load, retrying
 * with the verifier's log on): the one with a log is the one refused. With
 * none, the load failed before any program: creating the maps. A refusal
 * for want of the JIT is said as the preflight says it (the cause, the fix).
 */
void hk_verifier_log__failure(struct bpf_object *obj, const struct bpf_map *big,
			      __u32 max_procs, char *err, size_t err_len, int e)
{
	struct bpf_program *prog;
	char *p, *save = NULL;
	size_t off, n;
	int i = 0;

	bpf_object__for_each_program(prog, obj) {
		char *log = prog_logs[i++];

		if (!log || !log[0])
			continue;
		/* the JIT off where the preflight could not read its switch
		 * (a network namespace of its own): the same one line */
		if (hk_preflight__jit_refusal(log)) {
			hk_preflight__jit_off(err, err_len);
			return;
		}
		/* an RT kernel whose version string did not say so */
		if (strstr(log, "cannot be used for PREEMPT_RT")) {
			snprintf(err, err_len, "loading BPF program %s failed: the kernel is "
				 "PREEMPT_RT, whose verifier refuses bpf_timer: --driver iter",
				 bpf_program__name(prog));
			return;
		}
		off = snprintf(err, err_len, "loading BPF program %s failed: %s",
			       bpf_program__name(prog), strerror(e));
		log_lines = 0;
		for (p = strtok_r(log, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
			keep_line(p);
		off = append_tail(err, err_len, off);
		if (off < err_len)
			snprintf(err + off, err_len - off, " (full log with --verbose)");
		return;
	}
	if (e == ENOMEM || e == E2BIG) {
		n = (size_t)bpf_map__max_entries(big) * bpf_map__value_size(big);
		snprintf(err, err_len, "cannot create the BPF maps (the largest, hk_procs, holds "
			 "%u entries of %u bytes, %zu MiB): %s: too little memory for them, in "
			 "the kernel or in this memory cgroup; try a smaller --max-procs (now %u)",
			 bpf_map__max_entries(big), bpf_map__value_size(big), n >> 20,
			 strerror(e), max_procs);
		return;
	}
	/* the capabilities were checked before: a filter is the likelier
	 * cause, and naming the capabilities again would send the reader
	 * after what they have */
	if (e == EPERM && hk_preflight__seccomp_filtered()) {
		snprintf(err, err_len, "loading BPF failed: %s under a seccomp filter (a container "
			 "runtime's default profile allows bpf() only with CAP_SYS_ADMIN): run it "
			 "unconfined (Kubernetes seccompProfile type Unconfined, docker or podman "
			 "--security-opt seccomp=unconfined)", strerror(e));
		return;
	}
	if (e == EPERM) {
		snprintf(err, err_len, "loading BPF failed: %s (needs CAP_BPF and CAP_PERFMON, "
			 "or CAP_SYS_ADMIN)", strerror(e));
		return;
	}
	off = snprintf(err, err_len, "loading the BPF object failed: %s", strerror(e));
	append_tail(err, err_len, off);
}
