/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * profiler.h - profile a process for a while: on-CPU samples and off-CPU
 * time with stacks, or the stacks that grow its anonymous memory
 * (bpf/profile.bpf.c), then a folded file and an SVG
 * flame graph. Several at once, up to HK_PROF_TARGETS, at most
 * HK_PROF_PER_UID of them of one uid; the BPF object is loaded with the
 * first and unloaded with the last.
 *
 * A profile's end takes its stacks out of the BPF maps at once; naming
 * them and writing the files happen in a child (worker.h) with a memory
 * cap and a time budget, which the caller's event loop polls: a process
 * with a 64 GiB perf map or 65 k mappings cannot stall the tool.
 */
#ifndef HK_USER_PROFILER_H
#define HK_USER_PROFILER_H

#include <stddef.h>
#include <linux/types.h>
#include "profile_share.h"
#include "profile_write.h"
#include "shared/profile.h"

/* The child that names and writes a profile: its address space may grow
 * this much past the parent's, and it is killed past this time. What it
 * holds at most: 256 MiB of symbol tables (the budget of symbolize.h), a
 * 64 MiB perf map's table, 16 MiB of paths, the graph; a real profile's
 * child peaks at 20 MiB of RSS. The files are parsed in children of its
 * own, confined, each within 256 MiB more (elf_child.c). */
#define HK_PROF_WRITER_AS_BYTES (512ULL * 1024 * 1024)
#define HK_PROF_WRITER_BUDGET_S 30

typedef void (*hk_profile_done_fn)(void *ctx, const struct hk_profile_result *r);

struct hk_profiler;

struct hk_profiler *hk_profiler__new(hk_profile_done_fn done, void *ctx);
/* End the profiles still sampling, wait for every child writing (each
 * within its budget: HK_PROF_WRITER_BUDGET_S), report them, unload. */
void hk_profiler__free(struct hk_profiler *p);

/*
 * Profile pid for duration_ns, into dir, for kind: HK_PROF_ON_CPU (on-CPU
 * samples and off-CPU time) or HK_PROF_MEMORY (the stacks that grow its
 * anonymous memory, in bytes), if pid is still the process that
 * started at start_boottime_ns (CLOCK_BOOTTIME, as struct hk_event has it).
 * 0 and the files' prefix (without .folded/.svg) in prefix; -1 with why in
 * err: the caps are reached (all slots, or its uid's), it is profiled
 * already, its PID went to another process, the BPF object cannot load or
 * attach.
 */
int hk_profiler__start(struct hk_profiler *p, __u32 pid, __u64 start_boottime_ns,
		       const char *label, __u32 kind, __u64 duration_ns, const char *dir,
		       char *prefix, size_t prefix_len, char *err, size_t err_len);

/* The name of a process being profiled, as of its start; NULL: it is not. */
const char *hk_profiler__comm(const struct hk_profiler *p, __u32 pid);

/* Is pid being profiled, or its profile written, or is it one of the
 * profiler's own children (not to be profiled)? */
int hk_profiler__active(const struct hk_profiler *p, __u32 pid);
/* Profiles running or being written. */
int hk_profiler__count(const struct hk_profiler *p);

/* ms until the profiler wants poll() again; -1: nothing runs. */
int hk_profiler__timeout_ms(const struct hk_profiler *p);

/*
 * End the profiles whose time is up, whose process is gone, or that fill
 * the maps the others share; report those whose files are written (or
 * not) to done(). Never waits for a child.
 */
void hk_profiler__poll(struct hk_profiler *p);

/* End pid's profile now (its process exited): written with what there is. */
void hk_profiler__stop(struct hk_profiler *p, __u32 pid);

/*
 * End every profile now (the tool stops): written with what there is.
 * When none is sampling any more, stop the children still writing (their
 * profiles are reported not written).
 */
void hk_profiler__stop_all(struct hk_profiler *p);

#endif /* HK_USER_PROFILER_H */
