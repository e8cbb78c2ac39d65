// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hkvm - the two things the vmtest guest's /init cannot do with busybox.
 *
 *   hkvm exit CODE       leave qemu with status (CODE << 1) | 1 through
 *                        -device isa-debug-exit,iobase=0xf4: Debian's cloud
 *                        kernels have no /dev/port, so busybox cannot write
 *                        the port; ioperm + outl can. On arm64 (-M virt, no
 *                        such device) a power-off: qemu's status is then 0
 *   hkvm progs [PREFIX]  one line: the number of loaded BPF programs whose
 *                        name starts with PREFIX, then their names (bpftool
 *                        is not in the guest)
 *   hkvm windows [all]   hk_stats.windows of the newest hk_stats map: the
 *                        windows hotspot-k has closed (its --json mode prints
 *                        nothing until an event); with `all`, every
 *                        hk_stats map's, oldest first. The map's BTF must
 *                        show `windows` as the value's first member, as
 *                        tests/e2e's reader also requires.
 *   hkvm burst N BUSY_MS PERIOD_MS [FAULTS]
 *                        N threads, each busy for BUSY_MS of its own CPU
 *                        time in every PERIOD_MS, then asleep to the next
 *                        period: a bursty service whose peaks exceed a
 *                        quota on many CPUs at once (node.sh). With FAULTS,
 *                        each period starts by faulting FAULTS pages in
 *                        again (MADV_DONTNEED, then a write each): RSS
 *                        flat, minor faults steady, as an allocator's churn
 *   hkvm wrap            a busy process whose newest thread has the lowest
 *                        TID, as after the PID counter wrapped: it sets
 *                        kernel.ns_last_pid to 1, adds a sleeping thread,
 *                        checks that thread's TID is below its own, then
 *                        spins in its main thread (node.sh)
 *
 * Exit status: 0 done, 1 failure (message on stderr), 2 usage.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#endif

#define DEBUG_EXIT_PORT	0xf4
#define BURST_THREADS_MAX	64
#define BURST_FAULTS_MAX	65536	/* pages a thread faults in a period */
#define HK_STATS_MAPS_MAX	8	/* hotspot-k instances `windows all` reads */
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL

static int usage(void)
{
	fprintf(stderr, "usage: hkvm exit CODE | hkvm progs [PREFIX] | hkvm windows [all] |\n"
		"       hkvm burst N BUSY_MS PERIOD_MS [FAULTS] | hkvm wrap\n");
	return 2;
}

static long arg_long(const char *arg, long lo, long hi);

static int cmd_exit(const char *arg)
{
	long code = arg_long(arg, 0, 127);

	if (code < 0)
		return usage();
#if defined(__x86_64__) || defined(__i386__)
	if (ioperm(DEBUG_EXIT_PORT, 4, 1)) {
		fprintf(stderr, "hkvm: ioperm(0x%x): %s\n", DEBUG_EXIT_PORT,
			strerror(errno));
		return 1;
	}
	outl((unsigned int)code, DEBUG_EXIT_PORT);
	/* still here: no isa-debug-exit device on that port */
	fprintf(stderr, "hkvm: port 0x%x did not end the VM\n", DEBUG_EXIT_PORT);
#else
	/* -M virt has no exit device: PSCI's power-off ends qemu with status
	 * 0, and the host reads the verdict from the console's HKVM DONE */
	sync();
	reboot(RB_POWER_OFF);
	fprintf(stderr, "hkvm: reboot(RB_POWER_OFF): %s\n", strerror(errno));
#endif
	return 1;
}

static int cmd_progs(const char *prefix)
{
	struct bpf_prog_info info;
	__u32 id = 0, len;
	size_t plen = strlen(prefix);
	char names[4096] = "";
	size_t used = 0;
	int count = 0, fd, err;

	for (;;) {
		if (bpf_prog_get_next_id(id, &id)) {
			if (errno == ENOENT)
				break;
			fprintf(stderr, "hkvm: bpf_prog_get_next_id: %s\n",
				strerror(errno));
			return 1;
		}
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0) {
			/* unloaded between the two calls */
			if (errno == ENOENT)
				continue;
			fprintf(stderr, "hkvm: bpf_prog_get_fd_by_id(%u): %s\n",
				id, strerror(errno));
			return 1;
		}
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		err = bpf_obj_get_info_by_fd(fd, &info, &len);
		close(fd);
		if (err) {
			fprintf(stderr, "hkvm: bpf_obj_get_info_by_fd(%u): %s\n",
				id, strerror(errno));
			return 1;
		}
		if (strncmp(info.name, prefix, plen))
			continue;
		count++;
		if (used + sizeof(info.name) + 1 < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used,
						 " %s", info.name);
	}
	printf("%d%s\n", count, names);
	return 0;
}

/* The value's first member is a __u64 named "windows" at offset 0. */
static int stats_layout_ok(const struct bpf_map_info *info)
{
	const struct btf_member *m;
	const struct btf_type *t;
	struct btf *btf;
	int ok = 0;

	if (!info->btf_id || !info->btf_value_type_id)
		return 0;
	btf = btf__load_from_kernel_by_id(info->btf_id);
	if (!btf)
		return 0;
	t = btf__type_by_id(btf, btf__resolve_type(btf, info->btf_value_type_id));
	if (t && btf_is_struct(t) && btf_vlen(t) > 0) {
		m = btf_members(t);
		ok = !strcmp(btf__name_by_offset(btf, m->name_off), "windows") &&
		     btf_member_bit_offset(t, 0) == 0 &&
		     btf__resolve_size(btf, m->type) == sizeof(__u64);
	}
	btf__free(btf);
	return ok;
}

/* hk_stats.windows of map ID; 0 read, else 1 (message on stderr) */
static int read_windows(__u32 id, unsigned long long *windows)
{
	struct bpf_map_info info;
	__u32 key = 0, len;
	/* hk_stats is ~0.6 KiB (stats.h); room to grow, its size checked */
	__u64 value[256];
	int fd, err;

	/* the fd is closed at once: holding it would keep the map alive */
	fd = bpf_map_get_fd_by_id(id);
	if (fd < 0) {
		fprintf(stderr, "hkvm: hk_stats is gone\n");
		return 1;
	}
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	err = bpf_obj_get_info_by_fd(fd, &info, &len);
	if (err || info.type != BPF_MAP_TYPE_ARRAY || info.value_size > sizeof(value) ||
	    !stats_layout_ok(&info)) {
		close(fd);
		fprintf(stderr, "hkvm: hk_stats is not an array of a struct starting with "
			"__u64 windows\n");
		return 1;
	}
	err = bpf_map_lookup_elem(fd, &key, value);
	close(fd);
	if (err) {
		fprintf(stderr, "hkvm: hk_stats lookup: %s\n", strerror(errno));
		return 1;
	}
	*windows = value[0];
	return 0;
}

/*
 * The newest hk_stats map's windows, or with ALL those of every hk_stats
 * map on one line, oldest first: one number per hotspot-k running (the
 * node guest runs two at once).
 */
static int cmd_windows(int all)
{
	struct bpf_map_info info;
	__u32 id = 0, ids[HK_STATS_MAPS_MAX], len;
	unsigned long long windows;
	int fd, err, n = 0, i;

	for (;;) {
		if (bpf_map_get_next_id(id, &id)) {
			if (errno == ENOENT)
				break;
			fprintf(stderr, "hkvm: bpf_map_get_next_id: %s\n", strerror(errno));
			return 1;
		}
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		err = bpf_obj_get_info_by_fd(fd, &info, &len);
		close(fd);
		if (err || strcmp(info.name, "hk_stats"))
			continue;
		if (!all)
			n = 0;
		if (n < HK_STATS_MAPS_MAX)
			ids[n++] = id;
	}
	if (!n) {
		fprintf(stderr, "hkvm: no hk_stats map loaded\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (read_windows(ids[i], &windows))
			return 1;
		printf("%s%llu", i ? " " : "", windows);
	}
	printf("\n");
	return 0;
}

/* a whole number in [lo, hi], else -1 */
static long arg_long(const char *arg, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return -1;
	return v;
}

static long long clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static long long burst_busy_ns, burst_period_ns;
static long burst_faults;

/* FAULTS pages given back and written again: one minor fault each */
static void burst_churn(char *pages, long page_bytes)
{
	long i;

	if (madvise(pages, burst_faults * page_bytes, MADV_DONTNEED))
		return;
	for (i = 0; i < burst_faults; i++)
		((volatile char *)pages)[i * page_bytes] = 1;
}

/*
 * Busy for burst_busy_ns of this thread's CPU time (not wall time: a
 * throttled burst must still ask for all of it), then asleep to the next
 * period's start; periods missed while throttled are skipped.
 */
static void *burst_loop(void *arg)
{
	long long next = clock_ns(CLOCK_MONOTONIC), start;
	long page_bytes = sysconf(_SC_PAGESIZE);
	char *pages = NULL;
	struct timespec ts;

	(void)arg;
	if (burst_faults) {
		pages = mmap(NULL, burst_faults * page_bytes, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (pages == MAP_FAILED) {
			fprintf(stderr, "hkvm: burst: mmap: %s\n", strerror(errno));
			exit(1);
		}
	}
	for (;;) {
		start = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		if (pages)
			burst_churn(pages, page_bytes);
		while (clock_ns(CLOCK_THREAD_CPUTIME_ID) - start < burst_busy_ns &&
		       clock_ns(CLOCK_MONOTONIC) < next + burst_period_ns)
			;
		next += burst_period_ns;
		while (next < clock_ns(CLOCK_MONOTONIC))
			next += burst_period_ns;
		ts.tv_sec = next / NSEC_PER_SEC;
		ts.tv_nsec = next % NSEC_PER_SEC;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return NULL;
}

static int cmd_burst(const char *n_arg, const char *busy_arg, const char *period_arg,
		     const char *faults_arg)
{
	long n = arg_long(n_arg, 1, BURST_THREADS_MAX);
	long busy_ms = arg_long(busy_arg, 1, 10000);
	long period_ms = arg_long(period_arg, 1, 10000);
	pthread_t t;
	long i;

	burst_faults = faults_arg ? arg_long(faults_arg, 1, BURST_FAULTS_MAX) : 0;
	if (n < 0 || busy_ms < 0 || period_ms < busy_ms || burst_faults < 0)
		return usage();
	burst_busy_ns = busy_ms * NSEC_PER_MSEC;
	burst_period_ns = period_ms * NSEC_PER_MSEC;
	for (i = 1; i < n; i++) {
		if (pthread_create(&t, NULL, burst_loop, NULL)) {
			fprintf(stderr, "hkvm: burst: thread %ld of %ld not made\n", i + 1, n);
			return 1;
		}
	}
	burst_loop(NULL);
	return 0;
}

static void *wrap_sleeper(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	for (;;)
		pause();
	return NULL;
}

static int cmd_wrap(void)
{
	volatile pid_t newer = 0;
	pid_t busy = getpid();
	pthread_t t;
	FILE *f;

	f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	if (!f || fputs("1", f) == EOF || fclose(f)) {
		fprintf(stderr, "hkvm: wrap: kernel.ns_last_pid: %s\n", strerror(errno));
		return 1;
	}
	if (pthread_create(&t, NULL, wrap_sleeper, (void *)&newer)) {
		fprintf(stderr, "hkvm: wrap: no thread made\n");
		return 1;
	}
	while (!newer)
		usleep(1000);
	if (newer >= busy) {
		fprintf(stderr, "hkvm: wrap: the new thread got TID %d, not below %d\n",
			(int)newer, (int)busy);
		return 1;
	}
	printf("wrap: busy tid %d, newer thread tid %d\n", (int)busy, (int)newer);
	fflush(stdout);
	for (;;)
		;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exit"))
		return cmd_exit(argv[2]);
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "progs"))
		return cmd_progs(argc == 3 ? argv[2] : "");
	if (argc == 2 && !strcmp(argv[1], "windows"))
		return cmd_windows(0);
	if (argc == 3 && !strcmp(argv[1], "windows") && !strcmp(argv[2], "all"))
		return cmd_windows(1);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "burst"))
		return cmd_burst(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	if (argc == 2 && !strcmp(argv[1], "wrap"))
		return cmd_wrap();
	return usage();
}
