/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * walk_table.bpf.h - the table driver (>= 6.10, issue #34, kernel-2.md D):
 * the open-coded walk, cut in chunks of about hk_config.chunk_ns that a
 * bpf_wq work item runs one after the other, so that no chunk holds a CPU
 * longer than that. The open-coded ALL_THREADS
 * iterator always starts at init_task and cannot resume; the table can:
 *
 *  - hk_tgids, one bit per PID (PID_MAX_LIMIT of them, 512 KiB), set for
 *    every user process: by hk_table_seed once at start (every process
 *    then), by the fork hook for each new one, cleared by the exit hook
 *    when the group's last thread goes (before its PID is freed: a PID's
 *    next owner sets its bit after this one cleared it);
 *  - hk_leaders, a reference to each process's leader (below), kept by
 *    the same hooks;
 *  - a chunk takes the set bits from a cursor in PID order; each process's
 *    leader from its slot (a reference taken: the per-process iterator
 *    wants a trusted task), its threads with BPF_TASK_ITER_PROC_THREADS
 *    in list order, as the wq walk meets them, through the same
 *    hk_walk_listed() and close;
 *  - the budget is looked at every HK_TABLE_CHECK_THREADS threads, also
 *    inside a process: once spent, the chunk ends after the thread in
 *    hand, the next PID is kept and the work item queued again. A process
 *    cut there is resumed by the next chunk from the thread it ended on
 *    (hk_table_from): its sums wait in hk_cur meanwhile, nothing walks
 *    between two chunks. If that thread exited in between, the process is
 *    walked again from its leader, its threads up to the cut one's start
 *    time skipped: so a thread exiting between chunks costs no sample.
 *
 * The bit ops are atomic (lock or / lock and, 5.12+ without returning the
 * old value, which clang 14 emits for the generic CPU too): two CPUs fork
 * processes whose PIDs share a word.
 */
#ifndef HK_BPF_WALK_TABLE_H
#define HK_BPF_WALK_TABLE_H

#include "walk.bpf.h"

#define HK_TGID_WORDS	(4194304 / 64)	/* PID_MAX_LIMIT on 64-bit */
/* threads walked between two looks at the clock */
#define HK_TABLE_CHECK_THREADS 64

#define HK_TGID_SUMMARY	(HK_TGID_WORDS / 64)

/*
 * w: a bit per PID. s: a bit per word of w that may have one set: the
 * chunks read s (1024 words, 8 KiB), not all of w (512 KiB). Set after the
 * word's bit, by whoever sets one; cleared only by the walk, which then
 * reads the word again and sets it back if a fork came in between. On
 * kernels where those atomics are not ordered (arm64's JIT emits relaxed
 * ones) a fork could still lose it: each walk audits 1/64 of w (below).
 */
struct hk_tgid_bits {
	__u64 s[HK_TGID_SUMMARY];
	__u64 w[HK_TGID_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hk_tgid_bits);
} hk_tgids SEC(".maps");

extern struct task_struct *bpf_task_from_pid(s32 pid) __weak __ksym;
extern struct task_struct *bpf_task_acquire(struct task_struct *p) __weak __ksym;
extern void bpf_task_release(struct task_struct *p) __weak __ksym;
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

/*
 * hk_leaders: a reference to each process's leader, so that a chunk finds
 * it without bpf_task_from_pid() (a PID-table lookup and a reference:
 * ~0.35 us more a process here, make bench figure 3's TGID table against
 * its kptr table). Direct-mapped by TGID: PIDs are handed out in turn, so
 * live processes share a slot only when their PIDs lie HK_LEADER_SLOTS or
 * more apart; one that lost its slot is looked up by its PID. Filled by
 * the seed and the fork hook (the newest process wins a slot), emptied by
 * the exit hook. Every reference taken out by an exchange is dropped:
 * none lost, none kept past its process's exit but by a slot's race with
 * a newer process (then until that one exits, or the map goes).
 */
#define HK_LEADER_SLOTS	65536

struct hk_leader {
	struct task_struct __kptr *task;
	__u32 tgid;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, HK_LEADER_SLOTS);	/* 1 unless the table driver runs */
	__type(key, __u32);
	__type(value, struct hk_leader);
} hk_leaders SEC(".maps");

/* set by the loader when the table driver runs: the hooks keep the table */
__u32 hk_table_on;

/* a table walk begun, not ended; not static: clang would keep a static
 * 0/1 in one byte, which the kernel's BTF check of .bss rejects */
__u32 hk_table_open;
static __u32 hk_table_pid;		/* where the next chunk starts */
static __u64 hk_table_checked;		/* hk_cur_threads at the last look */

static __always_inline __u64 *hk_tgid_word(struct hk_tgid_bits *b, __u32 pid)
{
	return &b->w[(pid / 64) & (HK_TGID_WORDS - 1)];
}

static __always_inline struct hk_leader *hk_leader_slot(__u32 tgid)
{
	__u32 slot = tgid & (HK_LEADER_SLOTS - 1);

	return bpf_map_lookup_elem(&hk_leaders, &slot);
}

/* A new process (fork hook, seed; p trusted): its bit, its leader kept. */
static __always_inline void hk_table_add(struct task_struct *p)
{
	struct task_struct *ref, *old;
	struct hk_tgid_bits *b;
	struct hk_leader *l;
	__u32 zero = 0, pid = p->pid;

	/* no check of pid against PID_MAX_LIMIT: the masks below keep
	 * every index in range, and clang drops them after such a check
	 * (in another register than the one the verifier bounded) */
	if (!hk_table_on)
		return;
	b = bpf_map_lookup_elem(&hk_tgids, &zero);
	if (!b)
		return;
	__sync_fetch_and_or(hk_tgid_word(b, pid), 1ULL << (pid & 63));
	__sync_fetch_and_or(&b->s[(pid / 4096) & (HK_TGID_SUMMARY - 1)],
			    1ULL << ((pid / 64) & 63));
	l = hk_leader_slot(pid);
	ref = l ? bpf_task_acquire(p) : NULL;
	if (!ref)
		return;
	l->tgid = pid;
	old = bpf_kptr_xchg(&l->task, ref);
	if (old)
		bpf_task_release(old);
}

/* Its last thread exits (exit hook): its bit cleared, its slot emptied. */
static __always_inline void hk_table_del(__u32 pid)
{
	struct task_struct *old;
	struct hk_tgid_bits *b;
	struct hk_leader *l;
	__u32 zero = 0;

	/* no check of pid against PID_MAX_LIMIT: the masks below keep
	 * every index in range, and clang drops them after such a check
	 * (in another register than the one the verifier bounded) */
	if (!hk_table_on)
		return;
	b = bpf_map_lookup_elem(&hk_tgids, &zero);
	if (b)
		__sync_fetch_and_and(hk_tgid_word(b, pid), ~(1ULL << (pid & 63)));
	l = hk_leader_slot(pid);
	if (!l || l->tgid != pid)
		return;
	l->tgid = 0;
	old = bpf_kptr_xchg(&l->task, NULL);
	if (old)
		bpf_task_release(old);
}

/*
 * tgid's leader, a reference, or NULL: from its slot, or by its PID if
 * the slot holds another process (or a task gone: a leader whose PID is
 * detached is off its lists, pid_alive()).
 */
static __always_inline struct task_struct *hk_table_leader(__u32 tgid)
{
	struct hk_leader *l = hk_leader_slot(tgid);
	struct task_struct *t = NULL;

	if (l && l->tgid == tgid) {
		t = l->task;
		t = t ? bpf_task_acquire(t) : NULL;
		if (t && t->pid == tgid && t->thread_pid)
			return t;
		if (t)
			bpf_task_release(t);
	}
	return bpf_task_from_pid(tgid);
}

/* The lowest set bit's index: a de Bruijn sequence, no loop. */
static const __u8 hk_debruijn64[64] = {
	0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
	62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
	63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
	46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
};

static __always_inline __u32 hk_lowest_bit(__u64 x)
{
	return hk_debruijn64[(((x & -x) * 0x03f79d71b4cb0a89ULL) >> 58) & 63];
}

/*
 * The chunk's loop-carried values live in globals, not in registers: an
 * index into a map value (the table's words, the de Bruijn table) makes
 * the verifier track its register's exact value back through the loop,
 * and then no two turns of an iterator's loop are the same state (the
 * nested loops ran past its 1 M instructions). Loaded from a global, the
 * index's history starts at the load.
 */
static __u64 hk_tb_sbits;		/* summary bits left in this word */
static __u64 hk_tb_bits;		/* PIDs left in this word */
static __u32 hk_tb_sw;			/* summary word */
static __u32 hk_tb_word;		/* word */
/* this run's start and budget: in globals too, each a register fewer
 * spilled on the walk's deepest chain, whose stack is at its margin */
static __u64 hk_tb_start_ns;
static __u64 hk_tb_budget_ns;

/* Set when the budget is spent: every loop of the chunk ends. Not static:
 * clang would keep a static 0/1 in one byte (see hk_table_open). */
__u32 hk_tb_stop;

/*
 * A process cut by the budget: its TGID (0: none), the thread the cut came
 * after and that thread's start time (threads join their list's end, so
 * those before it started no later: the fallback skips them by it).
 */
static __u32 hk_tb_cut_tgid;
static __u32 hk_tb_cut_tid;
static __u64 hk_tb_cut_start_ns;
static __u64 hk_tb_cut_sig;		/* its signal_struct: which process */
enum hk_tb_skip {
	HK_TB_SKIP_NONE,
	HK_TB_SKIP_FIRST,	/* resumed at the cut thread: walked already */
	HK_TB_SKIP_OLDER,	/* from the leader: up to the cut one's start */
};
static __u32 hk_tb_skip;

/* A cut whose process is gone: its sums, if a thread of it did something
 * before the cut, parked (the walk's end counts them unclosed), and its
 * signal_struct forgotten, as freed it may be the next process's. A call:
 * it runs about never. */
static __noinline int hk_table_cut_lost(void)
{
	hk_tb_cut_tgid = 0;
	if (hk_cur.sig != hk_tb_cut_sig)
		return 0;
	if (hk_cur_state == HK_CUR_OPEN)
		hk_cur_park();
	hk_cur_state = HK_CUR_NONE;
	hk_cur.sig = 0;
	return 0;
}

/* For the tests (HOTSPOT_K_TEST_LOSE_CUTS=1, e2e table_restart): every
 * cut thread taken as gone, so that each resume is a restart from the
 * leader, a path a thread's exit between two chunks takes about never. */
const volatile __u32 hk_table_lose_cuts;

/* Where tgid's walk starts: its leader, or the thread the last chunk
 * ended on (hk_tb_skip says what to skip); a reference, or NULL. */
static __always_inline struct task_struct *hk_table_from(__u32 tgid)
{
	struct task_struct *t = NULL;
	struct hk_stats *st;

	hk_tb_skip = HK_TB_SKIP_NONE;
	if (hk_tb_cut_tgid && hk_tb_cut_tgid != tgid)
		hk_table_cut_lost();	/* its bit cleared: all exited */
	if (hk_tb_cut_tgid == tgid) {
		hk_tb_cut_tgid = 0;
		st = hk_st();
		t = hk_table_lose_cuts ? NULL : bpf_task_from_pid(hk_tb_cut_tid);
		if (t && (__u64)t->signal == hk_tb_cut_sig) {
			hk_tb_skip = HK_TB_SKIP_FIRST;
			if (st)
				st->table_resumes++;
			return t;
		}
		if (t)
			bpf_task_release(t);
		if (st)
			st->table_restarts++;
		hk_tb_skip = HK_TB_SKIP_OLDER;
	}
	t = hk_table_leader(tgid);
	if (!t)
		return NULL;
	if (t->pid == t->tgid &&
	    (hk_tb_skip == HK_TB_SKIP_NONE || (__u64)t->signal == hk_tb_cut_sig))
		return t;
	bpf_task_release(t);
	if (hk_tb_skip != HK_TB_SKIP_NONE)
		hk_table_cut_lost();	/* its TGID is another process's now */
	return NULL;
}

/* Is the chunk's budget spent? The clock looked at every
 * HK_TABLE_CHECK_THREADS threads. */
static __always_inline int hk_table_spent(void)
{
	if (hk_cur_threads - hk_table_checked < HK_TABLE_CHECK_THREADS)
		return 0;
	hk_table_checked = hk_cur_threads;
	if (bpf_ktime_get_ns() - hk_tb_start_ns < hk_tb_budget_ns)
		return 0;
	hk_tb_stop = 1;
	return 1;
}

/* A thread already walked by the chunk that cut its process? */
static __always_inline int hk_table_skipped(struct task_struct *t)
{
	if (hk_tb_skip == HK_TB_SKIP_FIRST ||
	    (hk_tb_skip == HK_TB_SKIP_OLDER && t->start_time <= hk_tb_cut_start_ns)) {
		if (hk_tb_skip == HK_TB_SKIP_FIRST)
			hk_tb_skip = HK_TB_SKIP_NONE;
		return 1;
	}
	hk_tb_skip = HK_TB_SKIP_NONE;
	return 0;
}

/*
 * One process of the table: its threads in list order from where
 * hk_table_from says, closed on the last; cut after a thread when the
 * budget is spent. A PID whose task is gone or is not a group leader (its
 * bit still set for a moment before the exit hook clears it) is skipped.
 */
static __always_inline void hk_table_proc(__u32 tgid)
{
	struct task_struct *from, *t;
	struct bpf_iter_task it;

	from = hk_table_from(tgid);
	if (!from)
		return;
	bpf_iter_task_new(&it, from, BPF_TASK_ITER_PROC_THREADS);
	while ((t = bpf_iter_task_next(&it))) {
		/* a skipped thread that ends the list now (those after it
		 * exited between the chunks) is walked again all the same: it
		 * adds what it did since the cut, ~0, and closes the process,
		 * else left open until the walk's end and counted unclosed */
		if (hk_tb_skip && hk_table_skipped(t) && !hk_last_thread(t))
			continue;
		if (hk_walk_listed(t)) {
			hk_walk_close(t);
			break;
		}
		if (hk_table_spent()) {
			hk_tb_cut_tgid = tgid;
			hk_tb_cut_tid = t->pid;
			hk_tb_cut_start_ns = t->start_time;
			hk_tb_cut_sig = (__u64)t->signal;
			break;
		}
	}
	bpf_iter_task_destroy(&it);
	bpf_task_release(from);
}

/* A process walked whole: the budget looked at, the next PID kept when it
 * is spent. One cut keeps its own PID: the next chunk resumes it first. */
static __always_inline void hk_table_budget(__u32 pid)
{
	if (hk_tb_stop)
		hk_table_pid = pid;
	else if (hk_table_spent())
		hk_table_pid = pid + 1;
}

/*
 * hk_tb_word of the table, whose summary bit was set: its processes from
 * hk_table_pid on, or, found empty, its summary bit cleared (and set again
 * if a fork set a bit in between).
 */
static __always_inline void hk_table_word_walk(struct hk_tgid_bits *b)
{
	struct bpf_iter_num nbits;
	__u64 sbit = 1ULL << (hk_tb_word & 63), *s = &b->s[hk_tb_sw & (HK_TGID_SUMMARY - 1)];
	__u32 pid;
	int *k;

	hk_tb_bits = b->w[hk_tb_word & (HK_TGID_WORDS - 1)];
	if (!hk_tb_bits) {
		__sync_fetch_and_and(s, ~sbit);
		if (!b->w[hk_tb_word & (HK_TGID_WORDS - 1)])
			return;
		__sync_fetch_and_or(s, sbit);
		return;		/* the next walk's */
	}
	/* the cursor's word: from the cursor's PID on */
	if (hk_tb_word == hk_table_pid / 64)
		hk_tb_bits &= ~0ULL << (hk_table_pid & 63);
	bpf_iter_num_new(&nbits, 0, 64);
	while ((k = bpf_iter_num_next(&nbits)) && hk_tb_bits && !hk_tb_stop) {
		pid = hk_tb_word * 64 + hk_lowest_bit(hk_tb_bits);
		hk_tb_bits &= hk_tb_bits - 1;
		hk_table_proc(pid);
		hk_table_budget(pid);
	}
	bpf_iter_num_destroy(&nbits);
}

/*
 * One chunk: the table's processes from hk_table_pid on, by the summary
 * bits, until the budget is spent at a process's end. Returns 1 when the
 * table's end was reached (the walk ends), 0 when a chunk is left for the
 * next run.
 */
static __always_inline int hk_table_chunk(void)
{
	struct bpf_iter_num sums, words;
	struct hk_tgid_bits *b;
	__u32 zero = 0, first_sw = hk_table_pid / 4096;
	int *i, *k;

	b = bpf_map_lookup_elem(&hk_tgids, &zero);
	if (!b)
		return 1;
	hk_tb_stop = 0;
	bpf_rcu_read_lock();
	bpf_iter_num_new(&sums, first_sw, HK_TGID_SUMMARY);
	while ((i = bpf_iter_num_next(&sums)) && !hk_tb_stop) {
		hk_tb_sw = *i;
		hk_tb_sbits = b->s[hk_tb_sw & (HK_TGID_SUMMARY - 1)];
		/* the cursor's summary word: from the cursor's word on */
		if (hk_tb_sw == hk_table_pid / 4096)
			hk_tb_sbits &= ~0ULL << ((hk_table_pid / 64) & 63);
		if (!hk_tb_sbits)
			continue;
		bpf_iter_num_new(&words, 0, 64);
		while ((k = bpf_iter_num_next(&words)) && hk_tb_sbits && !hk_tb_stop) {
			hk_tb_word = hk_tb_sw * 64 + hk_lowest_bit(hk_tb_sbits);
			hk_tb_sbits &= hk_tb_sbits - 1;
			hk_table_word_walk(b);
		}
		bpf_iter_num_destroy(&words);
	}
	bpf_iter_num_destroy(&sums);
	bpf_rcu_read_unlock();
	return !hk_tb_stop || hk_table_pid >= HK_TGID_WORDS * 64;
}

/*
 * Each walk, 1/64 of the table's words against their summary bits: a bit
 * a fork set whose summary bit the walk's clearing lost (unordered
 * atomics) is found again within 64 walks. 16 summary words, their 64
 * words each read in one unrolled pass.
 */
#define HK_TABLE_AUDIT_SUMS (HK_TGID_SUMMARY / 64)
static __u32 hk_table_audit_no;

/* A call, not inlined: its stack is then not on the walk's deepest chain. */
static __noinline int hk_table_audit(void)
{
	struct hk_stats *st = hk_st();
	struct bpf_iter_num sums;
	struct hk_tgid_bits *b;
	__u32 zero = 0, sw, j;
	__u64 m, x, *w;
	int *i;

	b = bpf_map_lookup_elem(&hk_tgids, &zero);
	if (!b)
		return 0;
	sw = (hk_table_audit_no++ % 64) * HK_TABLE_AUDIT_SUMS;
	bpf_iter_num_new(&sums, sw, sw + HK_TABLE_AUDIT_SUMS);
	while ((i = bpf_iter_num_next(&sums))) {
		sw = *i & (HK_TGID_SUMMARY - 1);
		w = &b->w[sw * 64];
		m = 0;
		/* (x | -x) >> 63: x != 0 without a branch (64 branches
		 * would be 2^64 paths to the verifier); the empty asm keeps
		 * clang from turning it back into a compare and branch */
		for (j = 0; j < 64; j++) {
			x = w[j] | -w[j];
			asm volatile("" : "+r"(x));
			m |= (x >> 63) << j;
		}
		m &= ~b->s[sw];
		if (!m)
			continue;
		__sync_fetch_and_or(&b->s[sw], m);
		if (st)
			__sync_fetch_and_add(&st->table_repaired, 1);
	}
	bpf_iter_num_destroy(&sums);
	return 0;
}

#endif /* HK_BPF_WALK_TABLE_H */
