// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * profile_write.c - from stack ids and counts to named frames and files.
 *
 * A stack, root first: the process's name, its user frames outermost
 * first, then its kernel frames ("_[k]"). On-CPU samples weigh what a
 * sample stands for (1 / HK_PROF_FREQ_HZ s), off-CPU stacks the time
 * asleep: both in microseconds of thread time, so that one graph shows
 * where the wall-clock time of every thread went. A memory profile's
 * stacks weigh the bytes of anonymous memory they grew. A user leaf
 * without a frame pointer gets its caller back from the stack's top
 * words (leaf.h).
 *
 * The naming and the writing (hk_profile__render) run in a child
 * (profiler.c, worker.c): the names come from the process's own files and
 * perf map, which it may have made to be slow or huge.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "flame/flamegraph.h"
#include "lib/outdir.h"
#include "lib/outquota.h"
#include "lib/sysinfo.h"
#include "lib/msg.h"
#include "lib/pidref.h"
#include "leaf.h"
#include "profile_write.h"
#include "symbolize.h"
#include "shared/units.h"

#define FRAME_LEN 160

struct hk_profile_syms {
	__u32 pid;
	char comm[16];
	const struct hk_pidref *ref;
	struct hk_usyms *user;
};

/* Where every profile goes: opened and checked once (outdir.h). */
static struct hk_safedir out_dir = { .fd = -1 };

/* As long as the longest name a profile's file gets. */
#define LONGEST_NAME "hotspot-k.4194304.noisy_neighbor.20261123T073400Z.folded"

int hk_profile__dir_open(const char *path, char *warn, size_t warn_len, char *err,
			 size_t err_len)
{
	char q[HK_QUOTE_BUF], why[PATH_MAX];
	struct hk_safedir d;

	if (hk_outdir__open(&d, path, LONGEST_NAME, warn, warn_len, err, err_len))
		return -1;
	/* sticky and open to others (/tmp): anyone there can take a profile's
	 * name before it is written (a directory at it makes the rename fail),
	 * and so hide any process from its profile; unless it is a service's
	 * own private /tmp, which nobody else sees */
	if ((d.mode & (S_IWGRP | S_IWOTH)) && !hk_sysinfo__private_tmp(path, NULL, why,
								     sizeof(why))) {
		hk_msg__fail(err, err_len, "%s is writable by %s (mode %04o): anyone who can "
			     "write there can take the names of the profiles before they are "
			     "written, and hide a process from its profile; give a directory "
			     "only its owner can write (/var/lib/hotspot-k)",
			     hk_msg__quote(q, sizeof(q), path),
			     d.mode & S_IWOTH ? "everyone" : "its group",
			     (unsigned int)(d.mode & 07777));
		hk_safefile__dir_close(&d);
		return -1;
	}
	/* a reload may open it again: profiles running finish in the new one */
	hk_safefile__dir_close(&out_dir);
	out_dir = d;
	return 0;
}

/* The kernel's names, read once per child: /proc/kallsyms is 100k lines. */
static struct hk_ksyms *kernel_syms;

struct hk_profile_syms *hk_profile_syms__open(__u32 pid, const struct hk_pidref *ref,
					      char *err, size_t err_len)
{
	struct hk_profile_syms *s = calloc(1, sizeof(*s));
	struct hk_usyms_opts o = { .ref = ref };
	char path[64];
	FILE *f;

	if (!s) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	s->pid = pid;
	s->ref = ref;
	s->user = hk_usyms__open((int)pid, &o);
	if (!s->user) {
		snprintf(err, err_len, "pid %u: cannot read its memory map: %s", pid,
			 errno == ESTALE ? "it exited as it was read" : strerror(errno));
		free(s);
		return NULL;
	}
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(s->comm, sizeof(s->comm), f))
			s->comm[strcspn(s->comm, "\n")] = 0;
		fclose(f);
	}
	if (ref && !hk_pidref__held(ref)) {
		snprintf(err, err_len, "pid %u: it exited as it was read", pid);
		hk_profile_syms__close(s);
		return NULL;
	}
	if (!s->comm[0])
		snprintf(s->comm, sizeof(s->comm), "%u", pid);
	return s;
}

const char *hk_profile_syms__comm(const struct hk_profile_syms *s)
{
	return s->comm;
}

void hk_profile_syms__close(struct hk_profile_syms *s)
{
	if (!s)
		return;
	hk_usyms__close(s->user);
	free(s);
}

int hk_profile__prefix(char *buf, size_t len, const char *dir, __u32 pid,
		       const char *label, time_t when)
{
	char stamp[32];
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	return snprintf(buf, len, "%s/hotspot-k.%u.%s.%s", dir && *dir ? dir : ".", pid,
			label, stamp);
}

/*
 * A live process may have mapped more since the start: read its map
 * again, kept if the PID was still the process's (else, or when it has
 * exited, the map of the start names the frames).
 */
static void syms_refresh(struct hk_profile_syms *s)
{
	struct hk_usyms_opts o = { .ref = s->ref };
	struct hk_usyms *now;

	if (s->ref && !hk_pidref__held(s->ref))
		return;
	now = hk_usyms__open((int)s->pid, &o);
	if (!now)
		return;
	hk_usyms__close(s->user);
	s->user = now;
}

/*
 * The leaf-most frames that are the profiler's own: a BPF program and the
 * tracepoint's call into it. The program is unloaded by the time its
 * frames are named (its kallsyms line gone: it reads as the last kernel
 * symbol, _einittext), so the tracepoint's frames, within the first few,
 * mark where the process's own frames start. How many to drop from ips[0].
 */
static int own_frames(const __u64 *ips, int n)
{
	char name[FRAME_LEN];
	int i, own = 0;

	for (i = 0; i < n && i < 4; i++) {
		hk_ksyms__name(kernel_syms, ips[i], name, sizeof(name));
		if (!strncmp(name, "bpf_prog_", 9) || !strncmp(name, "bpf_trace_run", 13) ||
		    !strncmp(name, "__bpf_trace_", 12) || !strncmp(name, "__traceiter_", 12))
			own = i + 1;
	}
	return own;
}

/* The architecture this is built for, which is the profiled process's:
 * arm64's call instructions and pointer authentication (leaf.h). */
#if defined(__aarch64__)
#define BUILT_FOR_AARCH64 1
#else
#define BUILT_FOR_AARCH64 0
#endif

/* The process's address space, as leaf.c asks it. */
static int space_is_return(void *ctx, __u64 addr)
{
	unsigned char code[8];

	return !hk_usyms__code(ctx, addr, code, sizeof(code)) &&
	       hk_leaf__after_call(code, sizeof(code), BUILT_FOR_AARCH64);
}

static long space_module(void *ctx, __u64 addr)
{
	return hk_usyms__module(ctx, addr);
}

static const char *space_name(void *ctx, __u64 addr, char *buf, size_t len)
{
	return hk_usyms__name(ctx, addr, buf, len);
}

/* The user trace's frames with the leaf's lost callers put back after
 * the leaf, into ips; their number. */
static __u32 user_frames(const __u64 *trace, __u32 n, const struct hk_prof_top *top,
			 struct hk_profile_syms *s, __u64 *ips)
{
	const struct hk_leaf_space sp = {
		.ctx = s->user, .is_return = space_is_return, .module = space_module,
		.name = space_name, .pac = BUILT_FOR_AARCH64,
	};
	size_t k = 0;

	if (n && top)
		k = hk_leaf__recover(trace, n, top->words, HK_PROF_TOP_WORDS, &sp, ips + 1);
	if (n)
		ips[0] = trace[0];
	if (n > 1)
		memcpy(ips + 1 + k, trace + 1, (n - 1) * sizeof(*ips));
	return n + (__u32)k;
}

/*
 * Append one stack's frames, leaf first in the trace, root first in
 * names. Every address but a sample's own is a return address, the
 * instruction after a call: the call is the byte before, and may end its
 * function. sampled: the leaf is where a CPU sample interrupted (on-CPU),
 * not a return. top: the user stack's top words (NULL: none, or kernel).
 */
static size_t frames_of(const struct hk_profile_stacks *st, __s32 id, int kernel,
			int sampled, const struct hk_prof_top *top, struct hk_profile_syms *s,
			char (*names)[FRAME_LEN], size_t at, size_t max)
{
	__u64 ips[HK_PROF_DEPTH + HK_LEAF_MAX] = {}, addr;
	const __u64 *trace;
	char buf[FRAME_LEN];
	__u32 n;
	int i;

	trace = hk_profile_stacks__trace(st, id, &n);
	if (!trace)
		return at;
	if (kernel)
		memcpy(ips, trace, n * sizeof(*ips));
	else
		n = user_frames(trace, n, top, s, ips);
	/* the off-CPU stack is taken from inside the profiler's own program:
	 * its frames and the tracepoint's are not the process's */
	if (kernel && kernel_syms) {
		i = own_frames(ips, (int)n);
		memmove(ips, ips + i, (n - (__u32)i) * sizeof(*ips));
		n -= (__u32)i;
	}
	for (i = (int)n - 1; i >= 0 && at < max; i--, at++) {
		addr = ips[i] - (i > 0 || !sampled);
		if (kernel) {
			if (kernel_syms)
				hk_ksyms__name(kernel_syms, addr, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "[kernel]");
			snprintf(names[at], FRAME_LEN, "%.*s_[k]", FRAME_LEN - 5, buf);
		} else {
			hk_usyms__name(s->user, addr, names[at], FRAME_LEN);
		}
	}
	return at;
}

void hk_profile__tally(const struct hk_profile_stacks *st, struct hk_profile_result *r)
{
	size_t k;

	for (k = 0; k < st->n; k++) {
		if (st->counts[k].key.kind == HK_PROF_MEMORY)
			r->grown_bytes += st->counts[k].value;
		else if (st->counts[k].key.kind == HK_PROF_OFF_CPU)
			r->off_cpu_ns += st->counts[k].value;
		else
			r->on_cpu_samples += st->counts[k].value;
	}
	r->stacks = st->n;
}

/* Profiles are read by root and the directory's group (the group of a
 * setgid directory, else root's): a profile names other users' modules
 * and JIT functions */
#define PROFILE_MODE 0640

struct flame_text {
	const struct hk_flame *f;
	const struct hk_flame_svg_opts *opts;
	int svg;
};

static int flame_write(void *ctx, FILE *out)
{
	const struct flame_text *t = ctx;

	return t->svg ? hk_flame__write_svg_opts(t->f, out, t->opts) :
			hk_flame__write_folded(t->f, out);
}

/*
 * prefix + ".folded" and ".svg", both or neither: each written under a
 * temporary name in the directory hk_profile__dir_open() checked (the
 * prefix's last part names them there), then named, so that a reader
 * never sees half a file, nor a name someone planted is followed. Their
 * names into name[0] and [1].
 */
static int write_files(const char *prefix, const struct hk_flame *f,
		       const struct hk_flame_svg_opts *opts, char (*name)[NAME_MAX + 1])
{
	static const char *const ext[2] = { "folded", "svg" };
	struct flame_text t[2];
	struct hk_outdir_file files[2];
	const char *base = strrchr(prefix, '/');
	int i;

	base = base ? base + 1 : prefix;
	for (i = 0; i < 2; i++) {
		t[i] = (struct flame_text){ .f = f, .opts = opts, .svg = i };
		if ((size_t)snprintf(name[i], sizeof(name[i]), "%s.%s", base, ext[i]) >=
		    sizeof(name[i]))
			return -ENAMETOOLONG;
		files[i] = (struct hk_outdir_file){ .name = name[i], .fn = flame_write,
						    .ctx = &t[i] };
	}
	return hk_outdir__write_set(&out_dir, files, 2, PROFILE_MODE);
}

static void titles(const struct hk_profile_syms *s, const struct hk_profile_result *r,
		   char *title, size_t tlen, char *sub, size_t slen)
{
	snprintf(title, tlen, "hotspot-k: %u (%s), %s", r->pid, s->comm, r->label);
	if (r->kind == HK_PROF_MEMORY) {
		snprintf(sub, slen, "%.1f s of wall clock: anonymous memory grown by %.1f MiB "
			 "(%llu counter changes)%s",
			 (double)r->duration_ns / HK_NSEC_PER_SEC,
			 (double)r->grown_bytes / (1024 * 1024),
			 (unsigned long long)r->mem_events,
			 r->exited ? "; the process exited" : "");
		return;
	}
	snprintf(sub, slen, "%.1f s of wall clock: on-CPU %llu samples at %d Hz (%.2f s), "
		 "off-CPU %.2f s (blue), summed over threads%s",
		 (double)r->duration_ns / HK_NSEC_PER_SEC,
		 (unsigned long long)r->on_cpu_samples, HK_PROF_FREQ_HZ,
		 (double)r->on_cpu_samples / HK_PROF_FREQ_HZ,
		 (double)r->off_cpu_ns / HK_NSEC_PER_SEC,
		 r->exited ? "; the process exited" : "");
}

/* The oldest profiles removed past HK_PROFILE_DIR_MAX_BYTES, never the
 * two just written: how many, their bytes in *bytes. */
static long trim(char (*name)[NAME_MAX + 1], __u64 *bytes)
{
	static const char *const suffixes[] = { ".folded", ".svg" };
	const char *const keep[] = { name[0], name[1] };
	const struct hk_outquota q = {
		.prefix = "hotspot-k.", .suffixes = suffixes, .nsuffixes = 2,
		.max_bytes = HK_PROFILE_DIR_MAX_BYTES, .keep = keep, .nkeep = 2,
	};

	return hk_outquota__trim(&out_dir, &q, bytes);
}

/* One more clause of out->cut, "; " after those there. */
static void cut_also(struct hk_profile_outcome *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cut_also(struct hk_profile_outcome *out, const char *fmt, ...)
{
	size_t at = strnlen(out->cut, sizeof(out->cut));
	va_list ap;

	if (at && at + 2 < sizeof(out->cut))
		at += (size_t)snprintf(out->cut + at, sizeof(out->cut) - at, "; ");
	if (at >= sizeof(out->cut))
		return;
	va_start(ap, fmt);
	vsnprintf(out->cut + at, sizeof(out->cut) - at, fmt, ap);
	va_end(ap);
}

void hk_profile__render(const struct hk_profile_stacks *st, struct hk_profile_syms *syms,
			const struct hk_profile_result *r, struct hk_profile_outcome *out)
{
	/* the process, its user frames (and those put back), its kernel frames */
	const size_t most = 1 + HK_PROF_DEPTH + HK_LEAF_MAX + HK_PROF_DEPTH;
	char (*names)[FRAME_LEN] = NULL;
	const char **frames = NULL;
	char title[128], sub[256], why[200];
	struct hk_flame_svg_opts opts = {};
	struct hk_flame *f;
	char name[2][NAME_MAX + 1];
	size_t i, n, k, undrawn = 0;
	long merged = 0, trimmed = 0;
	__u64 trimmed_bytes = 0;
	__u64 us;
	int ret, sampled;

	if (!kernel_syms)
		kernel_syms = hk_ksyms__load();
	syms_refresh(syms);
	f = hk_flame__new();
	names = calloc(most, sizeof(*names));
	frames = calloc(most, sizeof(*frames));
	if (!f || !names || !frames) {
		snprintf(out->err, sizeof(out->err), "out of memory");
		goto out;
	}
	for (i = 0; i < most; i++)
		frames[i] = names[i];
	for (k = 0; k < st->n; k++) {
		const struct hk_prof_count *c = &st->counts[k];

		snprintf(names[0], FRAME_LEN, "%s", syms->comm);
		/* on-CPU, the leaf of the kernel stack was interrupted, or, with
		 * none, the user one's */
		sampled = c->key.kind == HK_PROF_ON_CPU;
		/* the user leaf is where it stopped, not a return: a sample in
		 * user mode, or the instruction that faulted (memory) */
		n = frames_of(st, c->key.user_stack, 0,
			      (sampled && c->key.kern_stack < 0) ||
			      c->key.kind == HK_PROF_MEMORY,
			      &c->top, syms, names, 1, 1 + HK_PROF_DEPTH + HK_LEAF_MAX);
		n = frames_of(st, c->key.kern_stack, 1, sampled, NULL, syms, names, n, most);
		/* memory: bytes, in the graph's "microseconds" */
		if (c->key.kind == HK_PROF_MEMORY)
			us = c->value;
		else if (c->key.kind == HK_PROF_OFF_CPU)
			us = c->value / HK_NSEC_PER_USEC;
		else
			us = c->value * HK_USEC_PER_SEC / HK_PROF_FREQ_HZ;
		if (hk_flame__add(f, frames, n, us, c->key.kind == HK_PROF_OFF_CPU)) {
			snprintf(out->err, sizeof(out->err), "out of memory");
			goto out;
		}
	}
	titles(syms, r, title, sizeof(title), sub, sizeof(sub));
	opts.title = title;
	opts.subtitle = sub;
	if (r->kind == HK_PROF_MEMORY) {
		opts.unit = "bytes";
		opts.legend = "width: bytes of anonymous memory grown (pale: kernel frames)";
	}
	/* a process's stacks must not fill the disk: the caps of flamegraph.h */
	merged = hk_flame__cap_folded(f, HK_FLAME_FOLDED_MAX_BYTES);
	if (merged < 0) {
		snprintf(out->err, sizeof(out->err), "out of memory");
		goto out;
	}
	undrawn = hk_flame__svg_cut(f, &opts);
	/* temporary files a writer killed on a filesystem without O_TMPFILE left */
	hk_safefile__sweep(&out_dir, LONGEST_NAME, HK_OUTDIR_STALE_S);
	ret = write_files(r->prefix, f, &opts, name);
	if (ret) {
		hk_outdir__why(&out_dir, ret, why, sizeof(why));
		snprintf(out->err, sizeof(out->err), "writing %.90s: %.150s", r->prefix, why);
	} else {
		out->written = 1;
		trimmed = trim(name, &trimmed_bytes);
	}
out:
	hk_usyms__cuts(syms->user, out->cut, sizeof(out->cut));
	if (merged > 0)
		cut_also(out, "%ld frames merged into %s (the folded file's %llu MiB)", merged,
			 HK_FLAME_OTHER, HK_FLAME_FOLDED_MAX_BYTES >> 20);
	if (undrawn)
		cut_also(out, "%zu lighter frames not drawn in the SVG (at most %d frames, "
			 "%llu MiB)", undrawn, HK_FLAME_SVG_MAX_FRAMES, HK_FLAME_SVG_MAX_BYTES >> 20);
	if (trimmed > 0)
		cut_also(out, "the %ld oldest profile files removed, %llu MiB (the directory "
			 "keeps %llu MiB of profiles)", trimmed,
			 (unsigned long long)(trimmed_bytes >> 20), HK_PROFILE_DIR_MAX_BYTES >> 20);
	free(frames);
	free(names);
	hk_flame__free(f);
}
