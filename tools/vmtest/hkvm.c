// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * hkvm - the two things the vmtest guest's /init cannot do with busybox.
 *
 *   hkvm exit CODE       leave qemu with status (CODE << 1) | 1 through
 *                        -device isa-debug-exit,iobase=0xf4: Debian's cloud
 *                        kernels have no /dev/port, so busybox cannot write
 *                        the port; ioperm + outl can
 *   hkvm progs [PREFIX]  one line: the number of loaded BPF programs whose
 *                        name starts with PREFIX, then their names (bpftool
 *                        is not in the guest)
 *   hkvm windows         hk_stats.windows of the newest hk_stats map: the
 *                        windows hotspot-k has closed (its --json mode prints
 *                        nothing until an event). The map's BTF must show
 *                        `windows` as the value's first member, as
 *                        tests/e2e's reader also requires.
 *
 * Exit status: 0 done, 1 failure (message on stderr), 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#if defined(__x86_64__) || defined(__i386__)
#include <sys/io.h>
#endif

#define DEBUG_EXIT_PORT	0xf4

static int usage(void)
{
	fprintf(stderr, "usage: hkvm exit CODE | hkvm progs [PREFIX] | hkvm windows\n");
	return 2;
}

static int cmd_exit(const char *arg)
{
	char *end;
	long code;

	errno = 0;
	code = strtol(arg, &end, 10);
	if (errno || end == arg || *end || code < 0 || code > 127)
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
	fprintf(stderr, "hkvm: isa-debug-exit is x86 only\n");
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

static int cmd_windows(void)
{
	struct bpf_map_info info;
	__u32 id = 0, best = 0, key = 0, len;
	__u64 value[64];
	int fd, err;

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
		if (!err && !strcmp(info.name, "hk_stats"))
			best = id;
	}
	if (!best) {
		fprintf(stderr, "hkvm: no hk_stats map loaded\n");
		return 1;
	}
	/* the fd is closed at once: holding it would keep the map alive */
	fd = bpf_map_get_fd_by_id(best);
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
	printf("%llu\n", (unsigned long long)value[0]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exit"))
		return cmd_exit(argv[2]);
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "progs"))
		return cmd_progs(argc == 3 ? argv[2] : "");
	if (argc == 2 && !strcmp(argv[1], "windows"))
		return cmd_windows();
	return usage();
}
