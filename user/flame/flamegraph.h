/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * flamegraph.h - stacks of names with their time, merged into one tree,
 * written as folded stacks (for flamegraph.pl, inferno, speedscope) or as
 * a self-contained SVG flame graph.
 *
 * Frames are cleaned as they come in (frame_name.h: ';' becomes ':',
 * whitespace and control characters '_', bytes outside UTF-8 '?'), so the
 * folded output always parses; two names that clean alike are one frame.
 * Kernel frames are told apart by the suffix "_[k]" (HK_FLAME_KERNEL_SUFFIX)
 * that the caller appends, as perf's folded stacks have them.
 */
#ifndef HK_USER_FLAMEGRAPH_H
#define HK_USER_FLAMEGRAPH_H

#include <stdio.h>
#include <linux/types.h>

#define HK_FLAME_KERNEL_SUFFIX	"_[k]"
/* the extra leaf frame of an off-CPU stack */
#define HK_FLAME_OFF_CPU	"[off-cpu]"
/* frames of a stack kept, the leaf-most (bpf_get_stackid gives 127 + 127) */
#define HK_FLAME_MAX_DEPTH	1024

/*
 * What one profile may write, whatever the process made of its stacks
 * (16384 distinct stacks of 258 frames of 159-byte names would be about
 * 0.2 GB folded and 1.5 GB of SVG): the folded file, and the SVG's frames
 * and bytes. Past them, the lightest subtrees are merged into one frame
 * HK_FLAME_OTHER (folded) or not drawn (SVG), and the profile says so.
 */
#define HK_FLAME_FOLDED_MAX_BYTES	(64ULL << 20)
#define HK_FLAME_SVG_MAX_FRAMES		50000
#define HK_FLAME_SVG_MAX_BYTES		(64ULL << 20)
#define HK_FLAME_OTHER			"[other]"

struct hk_flame;

struct hk_flame *hk_flame__new(void);

/*
 * One stack: frames[0] is the root (outermost), frames[n-1] the leaf; a
 * NULL or empty frame, or no frame at all, is "[unknown]"; weight in microseconds
 * of thread time (0: nothing added); off_cpu: time blocked, not on a CPU.
 * The same stack added twice sums. Returns 0 or -ENOMEM.
 */
int hk_flame__add(struct hk_flame *f, const char *const *frames, size_t n,
		  __u64 weight_us, int off_cpu);

/*
 * Folded stacks: one line per distinct stack, "root;...;leaf COUNT\n",
 * COUNT in microseconds; an off-CPU stack ends with the extra leaf frame
 * "[off-cpu]". In byte order (as LC_ALL=C sort puts them), so the same
 * stacks always give the same file. 0 or -errno (write errors too).
 */
int hk_flame__write_folded(const struct hk_flame *f, FILE *out);

/*
 * A self-contained SVG flame graph (nothing fetched): the root ("all") at
 * the bottom, one <rect> per frame, width by weight, callees above their
 * callers sorted by name. On-CPU frames warm (red to yellow, by a hash of
 * the name; "_[k]" kernel frames pale amber), frames mostly off-CPU blue.
 * Each has a <title> "NAME (12.3 ms, 45.67%)" (% of all the weight in the
 * graph), and a label cut to its box with "..", none when under 3
 * characters fit. Frames narrower than 0.1 px are not drawn; the footer
 * says how many. A graph with frames carries an inline script
 * (svg_script.h): click to zoom, search with the matched share, the
 * hovered frame's title on a details line; without scripts it reads as
 * before, with the controls hidden. 0 or -errno (write errors too).
 */
struct hk_flame_svg_opts {
	const char *title, *subtitle;	/* NULL: empty */
	/*
	 * what a weight counts, one word without parentheses ("bytes",
	 * "samples"): titles say "NAME (4096 bytes, 45.67%)"; NULL: weights
	 * are microseconds of thread time, said in ms as above
	 */
	const char *unit;
	const char *legend;	/* the footer's key to the colours; NULL: on-/off-CPU */
};

int hk_flame__write_svg_opts(const struct hk_flame *f, FILE *out,
			     const struct hk_flame_svg_opts *opts);

/* The same with weights in microseconds and the on-/off-CPU legend. */
int hk_flame__write_svg(const struct hk_flame *f, FILE *out, const char *title,
			const char *subtitle);

/*
 * Make the folded output fit max_bytes: under each frame, the children
 * lighter than one weight (the least that makes it fit) are merged into
 * one child HK_FLAME_OTHER, with their on- and off-CPU time (the off-CPU
 * part under it as "[off-cpu]"); totals do not change. The number of
 * frames merged away (0: it fitted), or -ENOMEM.
 */
long hk_flame__cap_folded(struct hk_flame *f, __u64 max_bytes);

/* Frames the SVG leaves out for its caps (HK_FLAME_SVG_MAX_FRAMES and
 * _BYTES), not counting those too narrow to see. */
size_t hk_flame__svg_cut(const struct hk_flame *f, const struct hk_flame_svg_opts *opts);

/* Microseconds of all the stacks added, on-CPU (off_cpu 0) or off-CPU. */
__u64 hk_flame__total_us(const struct hk_flame *f, int off_cpu);

/*
 * Microseconds spent in frames named name (cleaned as frames are) and
 * below them, on- or off-CPU; a frame under another of the same name
 * (recursion) is not counted twice.
 */
__u64 hk_flame__frame_us(const struct hk_flame *f, const char *name, int off_cpu);

void hk_flame__free(struct hk_flame *f);

#endif /* HK_USER_FLAMEGRAPH_H */
