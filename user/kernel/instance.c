// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * instance.c - the maps of a running hotspot-k, from another process.
 *
 * Pinned mode leaves them in HK_PIN_DIR; otherwise, as bpftool
 * does, the kernel's lists of maps and programs are walked by id: every
 * map named hk_procs, hk_config or hk_stats, then every program, whose
 * map ids tie the three of one instance together (two instances' maps are
 * never mixed) and say that it still runs (a map no program uses belongs
 * to no running hotspot-k). Everything is opened read-only.
 *
 * Names are not proof: where kernel.unprivileged_bpf_disabled is 0, any
 * user can make maps named hk_procs, hk_config and hk_stats of the right
 * sizes, and a socket filter that uses them, to show forged processes in
 * `status` or keep delay accounting on. Only programs a hotspot-k loads
 * count: one of its names with its type (tracing, syscall: root's alone),
 * loaded by uid 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bpf_sys.h"
#include "bpffs.h"
#include "instance.h"
#include "pindir.h"
#include "lib/msg.h"

enum map_kind {
	MAP_PROCS,
	MAP_CONFIG,
	MAP_STATS,
	NR_MAP_KINDS,
};

static const struct {
	const char *name;
	__u32 type;
	__u32 value_size;
} kinds[NR_MAP_KINDS] = {
	[MAP_PROCS]	= { "hk_procs", BPF_MAP_TYPE_HASH, sizeof(struct hk_proc) },
	[MAP_CONFIG]	= { "hk_config", BPF_MAP_TYPE_ARRAY, sizeof(struct hk_config) },
	[MAP_STATS]	= { "hk_stats", BPF_MAP_TYPE_ARRAY, sizeof(struct hk_stats) },
};

/* A map of ours the id walk met. */
struct found_map {
	__u32 id;
	enum map_kind kind;
};

/* The maps programs use together: one running instance. */
struct instance {
	__u32 id[NR_MAP_KINDS];		/* 0: not seen */
	__u64 load_time_ns;
};

/* The programs of hotspot.bpf.c that use hk_procs, and their types. */
static const struct {
	const char *name;
	__u32 type;
} our_progs[] = {
	{ "hk_switch", BPF_PROG_TYPE_TRACING },
	{ "hk_switch_noarg", BPF_PROG_TYPE_TRACING },
	{ "hk_exit", BPF_PROG_TYPE_TRACING },
	{ "hk_exit_table", BPF_PROG_TYPE_TRACING },
	{ "hk_iter", BPF_PROG_TYPE_TRACING },
	{ "hk_arm", BPF_PROG_TYPE_SYSCALL },
	{ "hk_arm_nowq", BPF_PROG_TYPE_SYSCALL },
	{ "hk_test_win", BPF_PROG_TYPE_RAW_TRACEPOINT },
};

/* Programs' map ids read at once; more takes a second call. */
#define MAP_IDS_FIRST 64
/* An instance half there (its programs loading or going) is looked at
 * again this often, for up to a second. */
#define FIND_TRIES 10
#define FIND_RETRY_MS 100

static int map_info(int fd, struct bpf_map_info *info)
{
	memset(info, 0, sizeof(*info));
	return hk_bpf_sys__info(fd, info, sizeof(*info));
}

/* Which of ours a map's name says it is; -1: none. */
static int kind_of(const char *name)
{
	int k;

	for (k = 0; k < NR_MAP_KINDS; k++)
		if (!strncmp(name, kinds[k].name, BPF_OBJ_NAME_LEN))
			return k;
	return -1;
}

/* A kind of map from another build: the layouts differ, reading is wrong. */
static int check_sizes(const struct bpf_map_info *info, enum map_kind k,
		       char *err, size_t len)
{
	if (info->type == kinds[k].type && info->key_size == sizeof(__u32) &&
	    info->value_size == kinds[k].value_size)
		return 0;
	hk_msg__fail(err, len, "%s (map id %u) is of type %u with %u-byte keys and %u-byte "
		     "values, this hotspot-k reads type %u, %zu and %u: the running "
		     "hotspot-k is another version (use its own `hotspot-k status`)",
		     kinds[k].name, info->id, info->type, info->key_size, info->value_size,
		     kinds[k].type, sizeof(__u32), kinds[k].value_size);
	return -EPROTO;
}

/* Every map named like ours, by id. */
static int scan_maps(struct found_map **out, size_t *nr)
{
	struct found_map *maps = NULL, *grown;
	size_t n = 0, cap = 0;
	__u32 id = 0;
	int err, fd, k;

	for (;;) {
		struct bpf_map_info info;

		err = hk_bpf_sys__next_id(BPF_MAP_GET_NEXT_ID, id, &id);
		if (err == -ENOENT)
			break;
		if (err)
			goto fail;
		fd = hk_bpf_sys__map_fd(id);
		if (fd == -ENOENT)
			continue;	/* freed since it was listed */
		if (fd < 0) {
			err = fd;
			goto fail;
		}
		err = map_info(fd, &info);
		close(fd);
		if (err)
			goto fail;
		k = kind_of(info.name);
		if (k < 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			grown = realloc(maps, cap * sizeof(*maps));
			if (!grown) {
				err = -ENOMEM;
				goto fail;
			}
			maps = grown;
		}
		maps[n++] = (struct found_map){ .id = id, .kind = k };
	}
	*out = maps;
	*nr = n;
	return 0;
fail:
	free(maps);
	return err;
}

static int found_kind(const struct found_map *maps, size_t n, __u32 id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (maps[i].id == id)
			return maps[i].kind;
	return -1;
}

/* One of ours, loaded by root: a name and type of hotspot.bpf.c's. */
static bool ours(const struct bpf_prog_info *info)
{
	size_t i;

	if (info->created_by_uid != 0)
		return false;
	for (i = 0; i < sizeof(our_progs) / sizeof(our_progs[0]); i++)
		if (!strncmp(info->name, our_progs[i].name, BPF_OBJ_NAME_LEN))
			return info->type == our_progs[i].type;
	return false;
}

/*
 * A program's map ids and load time: 0, -ENOENT (gone), or -errno. No map
 * ids (*nr 0) for a program that is not one of ours (ours()).
 */
static int prog_maps(__u32 id, __u32 **ids, __u32 *nr, __u64 *load_time_ns)
{
	struct bpf_prog_info info = {};
	__u32 cap = MAP_IDS_FIRST;
	int fd, err;

	fd = hk_bpf_sys__prog_fd(id);
	if (fd < 0)
		return fd;
	for (;;) {
		__u32 *grown = realloc(*ids, cap * sizeof(**ids));

		if (!grown) {
			err = -ENOMEM;
			break;
		}
		*ids = grown;
		memset(&info, 0, sizeof(info));
		info.nr_map_ids = cap;
		info.map_ids = (__u64)(unsigned long)*ids;
		err = hk_bpf_sys__info(fd, &info, sizeof(info));
		if (err || info.nr_map_ids <= cap)
			break;
		cap = info.nr_map_ids;	/* it has more: again, with room */
	}
	close(fd);
	*nr = err || !ours(&info) ? 0 : info.nr_map_ids;
	*load_time_ns = info.load_time;
	return err;
}

static struct instance *instance_of(struct instance **all, size_t *n, __u32 procs_id)
{
	struct instance *grown;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*all)[i].id[MAP_PROCS] == procs_id)
			return &(*all)[i];
	grown = realloc(*all, (*n + 1) * sizeof(**all));
	if (!grown)
		return NULL;
	*all = grown;
	grown[*n] = (struct instance){ .id[MAP_PROCS] = procs_id };
	return &grown[(*n)++];
}

/* The programs that use an hk_procs, grouped by it: the running instances. */
static int scan_progs(const struct found_map *maps, size_t nr_maps,
		      struct instance **out, size_t *nr)
{
	struct instance *all = NULL, *in;
	__u32 *ids = NULL, nr_ids, i, procs_id, prog = 0;
	size_t n = 0;
	__u64 t;
	int err;

	for (;;) {
		err = hk_bpf_sys__next_id(BPF_PROG_GET_NEXT_ID, prog, &prog);
		if (err == -ENOENT)
			break;
		if (err)
			goto out;
		err = prog_maps(prog, &ids, &nr_ids, &t);
		if (err == -ENOENT)
			continue;
		if (err)
			goto out;
		procs_id = 0;
		for (i = 0; i < nr_ids; i++)
			if (found_kind(maps, nr_maps, ids[i]) == MAP_PROCS)
				procs_id = ids[i];
		if (!procs_id)
			continue;
		in = instance_of(&all, &n, procs_id);
		if (!in) {
			err = -ENOMEM;
			goto out;
		}
		for (i = 0; i < nr_ids; i++) {
			int k = found_kind(maps, nr_maps, ids[i]);

			if (k > MAP_PROCS)
				in->id[k] = ids[i];
		}
		if (t > in->load_time_ns)
			in->load_time_ns = t;
	}
	err = 0;
out:
	free(ids);
	if (err) {
		free(all);
		return err;
	}
	*out = all;
	*nr = n;
	return 0;
}

/* Newest first: the newest program, then the higher map id (also newer). */
static int cmp_newest(const void *a, const void *b)
{
	const struct instance *x = a, *y = b;

	if (x->load_time_ns != y->load_time_ns)
		return x->load_time_ns > y->load_time_ns ? -1 : 1;
	if (x->id[MAP_PROCS] != y->id[MAP_PROCS])
		return x->id[MAP_PROCS] > y->id[MAP_PROCS] ? -1 : 1;
	return 0;
}

/* A map from the pin directory of this look, checked (pindir.h); fd -1:
 * none to trust, and instances are found by id alone. */
static int pin_get(const struct hk_pindir *pins, const char *name)
{
	return pins->fd < 0 ? -ENOENT : hk_pindir__get(pins, name, BPF_F_RDONLY);
}

/*
 * Open (and check) the map of kind k: from its pin, else by id. -ENOENT
 * when the map went meanwhile (its hotspot-k is exiting), -EPROTO when the
 * instance has no such map (another version).
 */
static int open_map(struct hk_instance *m, const struct hk_pindir *pins,
		    enum map_kind k, __u32 id, char *err, size_t len)
{
	int *fd = k == MAP_PROCS ? &m->procs_fd : k == MAP_CONFIG ? &m->config_fd :
		  &m->stats_fd;
	struct bpf_map_info info;
	int got = *fd, e;

	if (got < 0)
		got = m->pinned ? pin_get(pins, kinds[k].name) : -ENOENT;
	if (got < 0 && id)
		got = hk_bpf_sys__map_fd(id);
	if (got == -ENOENT && id)
		return -ENOENT;
	if (got < 0) {
		hk_msg__fail(err, len, "%s of the hotspot-k whose hk_procs is map id %u: %s",
			     kinds[k].name, m->procs_id, got == -ENOENT ?
			     "not found: the running hotspot-k is another version" :
			     strerror(-got));
		return got == -ENOENT ? -EPROTO : got;
	}
	*fd = got;
	e = map_info(got, &info);
	if (e) {
		hk_msg__fail(err, len, "%s: %s", kinds[k].name, strerror(-e));
		return e;
	}
	if (k == MAP_PROCS) {
		m->procs_id = info.id;
		m->max_procs = info.max_entries;
		/* what a reader allocates for: never more than a hotspot-k makes */
		if (info.max_entries > HK_STATUS_MAX_PROCS) {
			hk_msg__fail(err, len, "hk_procs (map id %u) holds up to %u entries, more "
				     "than a hotspot-k makes (%u): not a hotspot-k's", info.id,
				     info.max_entries, HK_STATUS_MAX_PROCS);
			return -EPROTO;
		}
	}
	return check_sizes(&info, k, err, len);
}

/* All three maps: the others' programs are loaded (or gone) a moment
 * after those of hk_procs, as a hotspot-k starts (or exits). */
static bool complete(const struct instance *in)
{
	return in->id[MAP_CONFIG] && in->id[MAP_STATS];
}

/* The three maps of one instance (pinned, or in), all open, or none. */
static int open_instance(struct hk_instance *m, const struct hk_pindir *pins,
			 const struct instance *in, char *err, size_t len)
{
	int e = 0, k;

	if (in) {
		if (!m->pinned && !complete(in))
			return -ENOENT;
		m->procs_id = in->id[MAP_PROCS];
		m->load_time_ns = in->load_time_ns;
	}
	for (k = 0; k < NR_MAP_KINDS && !e; k++)
		e = open_map(m, pins, k, in ? in->id[k] : 0, err, len);
	if (e)
		hk_instance__close(m);
	return e;
}

/*
 * The pinned instance, if it runs (or programs cannot be listed to tell):
 * 1 with its hk_procs open in m and *pick its instance (NULL if not known);
 * 0 when there is none.
 */
static int pinned(struct hk_instance *m, const struct hk_pindir *pins,
		  const struct instance *all, size_t n, int scan_err,
		  const struct instance **pick)
{
	struct bpf_map_info info;
	size_t i;
	int fd;

	*pick = NULL;
	fd = pin_get(pins, kinds[MAP_PROCS].name);
	if (fd < 0)
		return 0;
	if (!map_info(fd, &info)) {
		for (i = 0; i < n; i++)
			if (all[i].id[MAP_PROCS] == info.id)
				*pick = &all[i];
		if (*pick || scan_err) {
			m->procs_fd = fd;
			m->pinned = true;
			m->alive_unknown = !*pick;
			return 1;
		}
		m->stale_pin = true;	/* left by a hotspot-k that is gone */
	}
	close(fd);
	return 0;
}

/* One look; *busy: an instance was starting or exiting meanwhile. */
static int find_once(struct hk_instance *m, char *err, size_t err_len, bool *busy)
{
	const struct instance *pick;
	struct instance *all = NULL;
	struct found_map *maps = NULL;
	struct hk_pindir pins;
	size_t nr_maps = 0, n = 0, i;
	int e, scan_err;

	*m = (struct hk_instance){ .procs_fd = -1, .config_fd = -1, .stats_fd = -1 };
	/* a pin directory that fails the checks is not ours: ignored */
	hk_pindir__open(&pins, 0, err, err_len);
	if (err_len)
		err[0] = '\0';
	scan_err = scan_maps(&maps, &nr_maps);
	if (!scan_err)
		scan_err = scan_progs(maps, nr_maps, &all, &n);
	if (n)
		qsort(all, n, sizeof(*all), cmp_newest);
	for (i = 0; i < n; i++)
		m->nr_instances += complete(&all[i]);
	if (pinned(m, &pins, all, n, scan_err, &pick)) {
		e = open_instance(m, &pins, pick, err, err_len);
		goto out;
	}
	if (scan_err) {
		hk_msg__fail(err, err_len, "listing BPF programs and maps: %s%s",
			     strerror(-scan_err),
			     scan_err == -EPERM ? " (needs root: CAP_SYS_ADMIN)" : "");
		e = scan_err;
		goto out;
	}
	/* newest first; one whose maps go as they are opened is exiting */
	e = -ENOENT;
	for (i = 0; i < n && e == -ENOENT; i++) {
		e = open_instance(m, &pins, &all[i], err, err_len);
		if (e == -ENOENT) {
			*busy = true;
			m->nr_instances -= complete(&all[i]);
		}
	}
out:
	hk_pindir__close(&pins);
	free(all);
	free(maps);
	return e;
}

int hk_instance__find(struct hk_instance *m, char *err, size_t err_len)
{
	bool busy;
	int e, tries = 0;

	/* an instance half there is starting or exiting: look again soon */
	do {
		busy = false;
		e = find_once(m, err, err_len, &busy);
	} while (e == -ENOENT && busy && ++tries < FIND_TRIES &&
		 !usleep(FIND_RETRY_MS * 1000));
	return e;
}

void hk_instance__close(struct hk_instance *m)
{
	if (m->procs_fd >= 0)
		close(m->procs_fd);
	if (m->config_fd >= 0)
		close(m->config_fd);
	if (m->stats_fd >= 0)
		close(m->stats_fd);
	m->procs_fd = m->config_fd = m->stats_fd = -1;
}
