// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * fuzz_cgroup.c - libFuzzer target: any text as a /proc/PID/cgroup file
 * (hk_sysinfo__cgroup_parse, hk_workload__from_proc) and as a cgroup path
 * (hk_workload__parse). A delegated user names its cgroups: every byte of
 * a path is someone's choice.
 *
 * A path taken is "" or the path part of one of the text's lines, shorter
 * than PATH_MAX - 1; NULL only with ENAMETOOLONG (or ENOMEM). What a path
 * names is "" or whole: a unit of systemd's characters ending in .service
 * or .scope that is one of the path's components, a container id of 64
 * lowercase hex digits, a pod UID 8-4-4-4-12 with dashes.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "fuzz.h"
#include "lib/sysinfo.h"
#include "lib/workload.h"

static bool hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static void check_workload(const struct hk_workload *w, const char *path)
{
	size_t n = strnlen(w->unit, sizeof(w->unit)), i;

	FZ_CHECK(n < sizeof(w->unit), "unit not NUL-terminated");
	if (n) {
		FZ_CHECK((n > 8 && !strcmp(w->unit + n - 8, ".service")) ||
			 (n > 6 && !strcmp(w->unit + n - 6, ".scope")), "unit \"%s\"", w->unit);
		for (i = 0; i < n; i++)
			FZ_CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					"0123456789:-_.\\@", w->unit[i]) && w->unit[i],
				 "unit byte 0x%02x", (unsigned char)w->unit[i]);
		if (path) {
			/* a component of the path, whole */
			const char *at = path;
			bool found = false;

			while (!found && (at = strstr(at, w->unit))) {
				found = (at == path || at[-1] == '/') &&
					(at[n] == '/' || !at[n]);
				at++;
			}
			FZ_CHECK(found, "unit \"%s\" is no component of the path", w->unit);
		}
	}
	n = strnlen(w->container_id, sizeof(w->container_id));
	FZ_CHECK(n == 0 || n == 64, "container id of %zu bytes", n);
	for (i = 0; i < n; i++)
		FZ_CHECK(hex(w->container_id[i]), "container id \"%s\"", w->container_id);
	n = strnlen(w->pod_uid, sizeof(w->pod_uid));
	FZ_CHECK(n == 0 || n == 36, "pod UID of %zu bytes", n);
	for (i = 0; i < n; i++)
		FZ_CHECK(i == 8 || i == 13 || i == 18 || i == 23 ? w->pod_uid[i] == '-' :
			 hex(w->pod_uid[i]), "pod UID \"%s\"", w->pod_uid);
}

/* p is "" or what follows the second ':' of one of text's lines */
static void check_path(const char *text, const char *ctrl, const char *p, int e)
{
	const char *line, *next;
	size_t n;
	bool found = false;

	if (!p) {
		FZ_CHECK(e == ENAMETOOLONG || e == ENOMEM, "NULL with errno %d", e);
		return;
	}
	n = strlen(p);
	FZ_CHECK(n < PATH_MAX - 1, "\"%s\": a path of %zu bytes", ctrl, n);
	if (!n)
		return;
	for (line = text; *line && !found; line = next) {
		size_t len = strcspn(line, "\n");
		const char *c1 = memchr(line, ':', len), *c2;

		next = line + len + (line[len] == '\n');
		if (!c1)
			continue;
		c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line));
		found = c2 && (size_t)(line + len - (c2 + 1)) == n && !memcmp(c2 + 1, p, n);
	}
	FZ_CHECK(found, "\"%s\": \"%s\" is no line's path", ctrl, p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ctrls[] = { "", "cpu", "memory", "name=systemd" };
	struct hk_workload w;
	char *text, *p;
	size_t i;

	text = malloc(size + 1);
	FZ_CHECK(text, "out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	for (i = 0; i < ARRAY_SIZE(ctrls); i++) {
		errno = 0;
		p = hk_sysinfo__cgroup_parse(text, ctrls[i]);
		check_path(text, ctrls[i], p, errno);
		free(p);
	}
	/* no mount known: the path is read, none of its names is root's */
	hk_workload__from_proc(&w, text, &(struct hk_workload_fs){ "", 0 });
	check_workload(&w, NULL);
	FZ_CHECK(!w.unit[0] && !w.container_id[0] && !w.pod_uid[0],
		 "a name with no mount point to check it under");
	hk_workload__parse(&w, text, HK_WORKLOAD_ALL_NAMED);
	check_workload(&w, text);
	hk_workload__parse(&w, text, (unsigned int)(size % 8));
	check_workload(&w, text);
	free(text);
	return 0;
}
