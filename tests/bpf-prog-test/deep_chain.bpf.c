// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * deep_chain.bpf.c - a BPF object that stack_chain.py must refuse: what
 * the timer driver's callback was before issue #29, in miniature.
 *
 * deep_arm arms a bpf_timer; its callback deep_tick, a root of its own on
 * 6.5+ (and 6.1.y), calls a chain of six functions of 8 bytes of stack
 * each, from a 360-byte frame: 368 + 6 x 16 = 464 bytes under the 16-byte
 * rounding of JITed programs on 6.9+ (it loads there), 384 + 6 x 32 = 576
 * under the 32-byte rounding of 6.8 and older, and of any kernel without
 * the JIT (it does not). The program that arms it needs 32 bytes: a check
 * that roots only programs passes it. deep_loop runs the same chain from
 * a bpf_loop callback of no stack, in its own frame of 360 bytes: 464
 * bytes again under the 16-byte rule, 608 under the 32-byte one, counted
 * only by a check that follows the callback from the call that names it.
 * make prog-test reads it, then loads it into this kernel (6.9+ with the
 * JIT: it must load) and loads deep_over.bpf.o, this file built with a
 * bigger timer callback frame (it must be refused, with the bytes that
 * stack_chain.py counts under the 16-byte rule).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define CLOCK_MONOTONIC 1
#define DEEP_FRAME_WORDS 45	/* 360 bytes */
/* the timer callback's frame: 53 (424 bytes) makes deep_over.bpf.o,
 * 528 bytes under the 16-byte rule too, which this host must refuse */
#ifndef DEEP_TICK_WORDS
#define DEEP_TICK_WORDS DEEP_FRAME_WORDS
#endif

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct deep_timer_val {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct deep_timer_val);
} deep_timer SEC(".maps");

/* one 8-byte slot each: 16 bytes of frame on 6.9+ with the JIT, 32 else */
#define DEEP_LEVEL(name, next)				\
	static __noinline __u64 name(__u64 x)		\
	{						\
		volatile __u64 slot = x;		\
							\
		return next(slot + 1);			\
	}

static __noinline __u64 deep_leaf(__u64 x)
{
	volatile __u64 slot = x;

	return slot * 3;
}

DEEP_LEVEL(deep_5, deep_leaf)
DEEP_LEVEL(deep_4, deep_5)
DEEP_LEVEL(deep_3, deep_4)
DEEP_LEVEL(deep_2, deep_3)
DEEP_LEVEL(deep_1, deep_2)

/* an async callback returns 0 */
static int deep_tick(void *map, int *key, struct deep_timer_val *v)
{
	volatile __u64 frame[DEEP_TICK_WORDS];
	__u32 i;

	for (i = 0; i < DEEP_TICK_WORDS; i++)
		frame[i] = i;
	frame[0] = deep_1(frame[DEEP_TICK_WORDS - 1]);
	return 0;
}

static int deep_loop_cb(__u32 i, void *ctx)
{
	return deep_1(i) & 1;
}

SEC("syscall")
int deep_loop(void *ctx)
{
	volatile __u64 frame[DEEP_FRAME_WORDS];
	__u32 i;

	for (i = 0; i < DEEP_FRAME_WORDS; i++)
		frame[i] = i;
	return bpf_loop(frame[DEEP_FRAME_WORDS - 1], deep_loop_cb, NULL, 0);
}

SEC("syscall")
int deep_arm(void *ctx)
{
	struct deep_timer_val *v;
	__u32 zero = 0;

	v = bpf_map_lookup_elem(&deep_timer, &zero);
	if (!v)
		return 0;
	bpf_timer_init(&v->timer, &deep_timer, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&v->timer, deep_tick);
	return bpf_timer_start(&v->timer, 1000000, 0);
}
