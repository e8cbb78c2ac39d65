// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test_pindir.c - the checks that keep root from acting on a pin directory
 * someone else made (user/kernel/pindir.c, bpffs.c; security review 2,
 * finding H1): what is at /sys/fs/bpf/hotspot-k is judged from its lstat
 * and filesystem, only the names --pin gives are removed, a pinned map is
 * read only when its type and sizes are the reader's (a 16 KiB hk_config
 * overflowed unpin's stack), and a bpffs every user can write is said.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <CUnit/CUnit.h>
#include "kernel/bpffs.h"
#include "kernel/pindir.h"
#include "suites.h"

#define BPFFS 0xcafe4a11UL
#define TMPFS 0x01021994UL

static int judge(mode_t mode, uid_t uid, unsigned long fs, uid_t me, char *err, size_t len)
{
	struct stat st = { .st_mode = mode, .st_uid = uid };

	err[0] = '\0';
	return hk_pindir__judge(&st, fs, me, err, len);
}

static void test_judge(void)
{
	char err[768];

	CU_ASSERT_EQUAL(judge(S_IFDIR | 0700, 0, BPFFS, 0, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(judge(S_IFDIR | 0755, 0, BPFFS, 0, err, sizeof(err)), 0);
	/* a service user's own --pin with CAP_BPF: its own directory */
	CU_ASSERT_EQUAL(judge(S_IFDIR | 0700, 1000, BPFFS, 1000, err, sizeof(err)), 0);

	CU_ASSERT_EQUAL(judge(S_IFLNK | 0777, 65534, BPFFS, 0, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "is a symlink of uid 65534 (mode 0777), made by "
				      "someone else"));
	CU_ASSERT_EQUAL(judge(S_IFDIR | 0700, 65534, BPFFS, 0, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "a directory of uid 65534 (mode 0700)"));
	CU_ASSERT_EQUAL(judge(S_IFDIR | 01777, 0, BPFFS, 0, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(mode 1777), writable by others"));
	CU_ASSERT_EQUAL(judge(S_IFDIR | 0770, 0, BPFFS, 0, err, sizeof(err)), -1);
	CU_ASSERT_EQUAL(judge(S_IFDIR | 0700, 0, TMPFS, 0, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "not on bpffs"));
	/* a map pinned at the directory's name */
	CU_ASSERT_EQUAL(judge(S_IFREG | 0600, 0, BPFFS, 0, err, sizeof(err)), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "a pinned object of uid 0"));
	/* root is told to look and to mount bpffs private, never to run
	 * unpin: unpin is what would act on it */
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "mount -t bpf -o mode=0700 bpf /sys/fs/bpf"));
	CU_ASSERT_PTR_NULL(strstr(err, "unpin"));
	CU_ASSERT_PTR_NULL(strchr(err, '\n'));
}

static void test_ours(void)
{
	static const char *const yes[] = {
		"hk_config", "hk_procs", "hk_events", "hk_oom_counts", "hotspot__bss",
		"hotspot__rodata", "link_hk_switch", "link_hk_switch_noarg",
		"link_hk_oom_kill_pid",
	};
	static const char *const no[] = {
		"", "hk_", "link_hk_", "hotspot__", "hotspot-k", "passwd", "shadow",
		"HK_CONFIG", "hk_config\n", "hk_a/b", "hk_a-b", "xhk_config", "link_other",
		"hk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		CU_ASSERT_EQUAL(hk_pindir__ours(yes[i]), 1);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		CU_ASSERT_EQUAL(hk_pindir__ours(no[i]), 0);
}

static void test_check_map(void)
{
	static const struct hk_pindir_map config = { BPF_MAP_TYPE_ARRAY, 4, 2880, 1 };
	static const struct hk_pindir_map ring = { BPF_MAP_TYPE_RINGBUF, 0, 0, 2 << 20 };
	static const struct hk_pindir_map any = { BPF_MAP_TYPE_HASH, 4, 64, 0 };
	struct bpf_map_info info = { .type = BPF_MAP_TYPE_ARRAY, .id = 7, .key_size = 4,
				     .value_size = 2880, .max_entries = 1 };
	char err[512] = "";

	CU_ASSERT_EQUAL(hk_pindir__check_map(&info, "hk_config", &config, err, sizeof(err)), 0);
	/* review 2's planted hk_config: 16 KiB copied onto 2880 bytes of stack */
	info.value_size = 16384;
	CU_ASSERT_EQUAL(hk_pindir__check_map(&info, "hk_config", &config, err, sizeof(err)),
			-EPROTO);
	CU_ASSERT_STRING_EQUAL(err, "hk_config (map id 7) is an array (type 2) of 4-byte keys, "
			       "16384-byte values, 1 entries; this hotspot-k reads an array of "
			       "4, 2880, 1: not read");
	info.value_size = 2880;
	info.key_size = 8;
	CU_ASSERT_EQUAL(hk_pindir__check_map(&info, "hk_config", &config, err, sizeof(err)),
			-EPROTO);
	info.key_size = 4;
	info.type = BPF_MAP_TYPE_HASH;
	CU_ASSERT_EQUAL(hk_pindir__check_map(&info, "hk_config", &config, err, sizeof(err)),
			-EPROTO);
	/* a ring buffer of another size is someone else's */
	info = (struct bpf_map_info){ .type = BPF_MAP_TYPE_RINGBUF, .max_entries = 4096 };
	CU_ASSERT_EQUAL(hk_pindir__check_map(&info, "hk_events", &ring, err, sizeof(err)),
			-EPROTO);
	info.max_entries = 2 << 20;
	CU_ASSERT_EQUAL(hk_pindir__check_map(&info, "hk_events", &ring, err, sizeof(err)), 0);
	info = (struct bpf_map_info){ .type = BPF_MAP_TYPE_HASH, .key_size = 4,
				      .value_size = 64, .max_entries = 12345 };
	CU_ASSERT_EQUAL(hk_pindir__check_map(&info, "hk_procs", &any, err, sizeof(err)), 0);
}

static void test_shared(void)
{
	char note[512] = "";

	CU_ASSERT_EQUAL(hk_bpffs__mode_shared(S_IFDIR | 01777, "/sys/fs/bpf", note,
					      sizeof(note)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "/sys/fs/bpf is writable by every user (mode 1777"));
	CU_ASSERT_PTR_NOT_NULL(strstr(note, "mount -t bpf -o mode=0700 bpf /sys/fs/bpf"));
	CU_ASSERT_EQUAL(hk_bpffs__mode_shared(S_IFDIR | 0775, "/sys/fs/bpf", note,
					      sizeof(note)), 1);
	CU_ASSERT_EQUAL(hk_bpffs__mode_shared(S_IFDIR | 01700, "/sys/fs/bpf", note,
					      sizeof(note)), 0);
	CU_ASSERT_EQUAL(hk_bpffs__mode_shared(S_IFDIR | 0755, "/sys/fs/bpf", note,
					      sizeof(note)), 0);
}

int hk_add_pindir_suite(void)
{
	static const struct hk_unit_test tests[] = {
		{ "pin dir: judged from lstat, never 'run unpin'", test_judge },
		{ "pin dir: only the names --pin gives", test_ours },
		{ "pinned maps: type and sizes before a read", test_check_map },
		{ "bpffs writable by every user: said", test_shared },
	};

	return HK_ADD_SUITE("pindir", tests);
}
