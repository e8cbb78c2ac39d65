/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * btf_standin.h - stand-in kernel BTFs: this kernel's own, with the types,
 * members and enum values an optional config (CONFIG_MEMCG, ...) compiles
 * out renamed away. Loaded through libbpf's btf_custom_path, the real
 * object then relocates as on a kernel built without them, and the
 * verifier of this kernel checks what the relocation left reachable: a
 * failed relocation libbpf could not guard is a call to the poisoned
 * helper 0xbad2310 the verifier refuses.
 *
 * A name is "struct" (every type of that name), "struct.member" (a member
 * of a struct or union of that name, at its top level) or "enum.value".
 * A renamed name keeps its spot and gets a prefix no kernel name has.
 */
#ifndef HK_TEST_BTF_STANDIN_H
#define HK_TEST_BTF_STANDIN_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

struct hk_standin {
	const char *config;		/* what it stands in for */
	const char *const *gone;	/* NULL-terminated names */
};

/* The name_off fields are rewritten in place: btf__add_str made the type
 * data libbpf's own (modifiable) copy, so the pointers reach it. */
static int hk_standin__rename(struct btf *btf, __u32 *name_off)
{
	char name[256];
	int off;

	snprintf(name, sizeof(name), "hk_gone_%s", btf__name_by_offset(btf, *name_off));
	off = btf__add_str(btf, name);
	if (off < 0)
		return off;
	*name_off = off;
	return 0;
}

/* Rename member of the struct or union t, in its anonymous members too:
 * how many were, or -errno. */
static int hk_standin__member(struct btf *btf, struct btf_type *t, const char *member,
			      int depth)
{
	struct btf_member *m = btf_members(t);
	struct btf_type *mt;
	int i, err, found = 0;
	const char *name;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		name = btf__name_by_offset(btf, m->name_off);
		if (name && !strcmp(name, member)) {
			err = hk_standin__rename(btf, &m->name_off);
			if (err)
				return err;
			found++;
			continue;
		}
		mt = (struct btf_type *)btf__type_by_id(btf, m->type);
		if ((!name || !*name) && mt && btf_is_composite(mt) && depth < 4) {
			err = hk_standin__member(btf, mt, member, depth + 1);
			if (err < 0)
				return err;
			found += err;
		}
	}
	return found;
}

/* Rename one "type[.member]" in btf; 0, or -ENOENT when nothing matched. */
static int hk_standin__gone(struct btf *btf, const char *what)
{
	char type[128];
	const char *dot = strchr(what, '.'), *member = dot ? dot + 1 : NULL;
	__u32 id, n = btf__type_cnt(btf);
	int found = 0, i, err;

	snprintf(type, sizeof(type), "%.*s", dot ? (int)(dot - what) : (int)strlen(what), what);
	/* modifiable before any pointer into the type data is taken */
	if (btf__add_str(btf, "hk_gone_") < 0)
		return -ENOMEM;
	for (id = 1; id < n; id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, t->name_off);

		if (!name || strcmp(name, type))
			continue;
		if (!member) {
			err = hk_standin__rename(btf, &t->name_off);
			if (err)
				return err;
			found++;
			continue;
		}
		if (btf_is_composite(t)) {
			err = hk_standin__member(btf, t, member, 0);
			if (err < 0)
				return err;
			found += err;
		} else if (btf_is_enum(t)) {
			struct btf_enum *e = btf_enum(t);

			for (i = 0; i < btf_vlen(t); i++, e++) {
				name = btf__name_by_offset(btf, e->name_off);
				if (!name || strcmp(name, member))
					continue;
				err = hk_standin__rename(btf, &e->name_off);
				if (err)
					return err;
				found++;
			}
		}
	}
	return found ? 0 : -ENOENT;
}

/*
 * This kernel's BTF less s->gone, written to path. 0; else -1 with a
 * one-line reason in err (a name this kernel does not have either: the
 * stand-in would prove nothing).
 */
static int hk_standin__write(const struct hk_standin *s, const char *path, char *err,
			     size_t err_len)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const void *raw;
	__u32 size;
	FILE *f;
	int i, e;

	if (!btf) {
		snprintf(err, err_len, "cannot read the kernel's BTF: %s", strerror(errno));
		return -1;
	}
	for (i = 0; s->gone[i]; i++) {
		e = hk_standin__gone(btf, s->gone[i]);
		if (e) {
			snprintf(err, err_len, "%s: %s in this kernel's BTF: %s", s->config,
				 s->gone[i], e == -ENOENT ? "not found" : strerror(-e));
			goto fail;
		}
	}
	raw = btf__raw_data(btf, &size);
	f = raw ? fopen(path, "we") : NULL;
	e = f && fwrite(raw, 1, size, f) == size ? 0 : -1;
	if (f && fclose(f))
		e = -1;
	if (e) {
		snprintf(err, err_len, "%s: writing %.200s: %s", s->config, path,
			 strerror(errno));
		goto fail;
	}
	btf__free(btf);
	return 0;
fail:
	btf__free(btf);
	return -1;
}

#endif
