// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * freeze_record.c - remember, across a crash: the record of a freeze, one
 * file per frozen cgroup in /run/hotspot-k, so that what one tool froze can be undone by another:
 * after a crash or a SIGKILL (the next start thaws it on time), by
 * `hotspot-k thaw --all`, and shown by `hotspot-k status`.
 *
 * One file per cgroup, named by its hierarchy and its id
 * (freeze.v1.4242), rather than one list: a tool, `thaw` and another
 * instance each add or remove their own file atomically, and nobody
 * rewrites what another wrote. /run is a tmpfs, cleared at boot as the
 * freezes are. The text, written before the freeze and removed after the
 * thaw:
 *
 *   hotspot-k freeze 1
 *   freezer v1
 *   id 4242
 *   dir /sys/fs/cgroup/freezer/hk/leak
 *   cgroup /hk/leak
 *   pid 1234
 *   uid 65534
 *   comm python3
 *   since 5000 1795000000          CLOCK_BOOTTIME ms, then the wall clock s
 *   until 605000 1795000600
 *   by 999 123456                  the tool's pid and its start (ticks)
 *
 * Paths and the comm may hold any byte but NUL: '\' and control bytes are
 * written \\ and \xHH, so that each value is one line and reads back the
 * same.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>
#include "freeze_record.h"
#include "lib/msg.h"
#include "lib/outbuf.h"
#include "lib/pidref.h"

#define MAGIC		"hotspot-k freeze 1"
#define PREFIX		"freeze."
/* A record's text: two paths, each byte escaped at worst, and the rest. */
#define REC_TEXT_MAX	(4 * (HK_FREEZE_DIR_MAX + HK_FREEZE_PATH_MAX) + 1024)

__u64 hk_freeze__boot_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (__u64)ts.tv_sec * 1000 + (__u64)ts.tv_nsec / 1000000;
}

__s64 hk_freeze__unix_s(void)
{
	return (__s64)time(NULL);
}

static const char *hier_name(enum hk_freeze_hier h)
{
	return h == HK_FREEZE_HIER_V1 ? "v1" : h == HK_FREEZE_HIER_V2 ? "v2" : "none";
}

void hk_freeze_record__name(char *buf, size_t len, enum hk_freeze_hier hier, __u64 id)
{
	snprintf(buf, len, PREFIX "%s.%llu", hier_name(hier), (unsigned long long)id);
}

static void out_escaped(struct hk_out *o, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\')
			hk_out__str(o, "\\\\");
		else if (c < 0x20 || c == 0x7f)
			hk_out__printf(o, "\\x%02x", c);
		else
			hk_out__mem(o, s, 1);
	}
}

int hk_freeze_record__format(char *buf, size_t len, const struct hk_freeze_rec *r)
{
	struct hk_out o;

	hk_out__init(&o, buf, len);
	hk_out__printf(&o, MAGIC "\nfreezer %s\nid %llu\ndir ", hier_name(r->hier),
		       (unsigned long long)r->id);
	out_escaped(&o, r->dir);
	hk_out__str(&o, "\ncgroup ");
	out_escaped(&o, r->cgroup);
	hk_out__printf(&o, "\npid %u\nuid %u\ncomm ", r->pid, r->uid);
	out_escaped(&o, r->comm);
	hk_out__printf(&o, "\nsince %llu %lld\nuntil %llu %lld\nby %u %llu\n",
		       (unsigned long long)r->since_boot_ms, (long long)r->since_unix_s,
		       (unsigned long long)r->until_boot_ms, (long long)r->until_unix_s,
		       r->by_pid, (unsigned long long)r->by_start);
	return hk_out__finish(&o);
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* An escaped value into dst (len bytes with the NUL): 0, or -1. */
static int unescape(char *dst, size_t len, const char *s, size_t n)
{
	size_t i, o = 0;
	int c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '\\' && i + 1 < n && s[i + 1] == '\\') {
			i++;
		} else if (c == '\\') {
			/* \xHH, two lowercase digits, never \x00 */
			if (i + 3 >= n || s[i + 1] != 'x' || hex(s[i + 2]) < 0 ||
			    hex(s[i + 3]) < 0)
				return -1;
			c = hex(s[i + 2]) * 16 + hex(s[i + 3]);
			if (!c)
				return -1;
			i += 3;
		} else if (c < 0x20 || c == 0x7f) {
			return -1;
		}
		if (o + 1 >= len)
			return -1;
		dst[o++] = (char)c;
	}
	dst[o] = '\0';
	return 0;
}

/* A decimal number up to max, all of s[0..n): 0, or -1. */
static int number(const char *s, size_t n, unsigned long long max, unsigned long long *v)
{
	unsigned long long x = 0;
	size_t i;

	if (!n || n > 20)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || x > (max - (unsigned)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (unsigned)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/* "A B", two numbers up to max_a and max_b; B may be negative when neg_ok
 * (a wall clock before 1970). 0, or -1. */
static int two(const char *s, size_t n, unsigned long long max_a, unsigned long long max_b,
	       bool neg_ok, unsigned long long *a, long long *b)
{
	const char *sp = memchr(s, ' ', n), *end = s + n;
	unsigned long long y;
	bool neg;

	if (!sp || number(s, (size_t)(sp - s), max_a, a))
		return -1;
	sp++;
	neg = neg_ok && sp < end && *sp == '-';
	if (number(sp + neg, (size_t)(end - sp) - neg, max_b, &y))
		return -1;
	*b = neg ? -(long long)y : (long long)y;
	return 0;
}

enum { K_FREEZER, K_ID, K_DIR, K_CGROUP, K_PID, K_UID, K_COMM, K_SINCE, K_UNTIL, K_BY, K_NR };

static const char *const keys[K_NR] = {
	"freezer", "id", "dir", "cgroup", "pid", "uid", "comm", "since", "until", "by",
};

/* The value of line (key) v[0..n) into r: 0, or -1. */
static int value(struct hk_freeze_rec *r, int k, const char *v, size_t n)
{
	unsigned long long a, x;
	long long b;

	switch (k) {
	case K_FREEZER:
		r->hier = n == 2 && !memcmp(v, "v1", 2) ? HK_FREEZE_HIER_V1 :
			  n == 2 && !memcmp(v, "v2", 2) ? HK_FREEZE_HIER_V2 : HK_FREEZE_HIER_NONE;
		return r->hier == HK_FREEZE_HIER_NONE ? -1 : 0;
	case K_ID:
		if (number(v, n, ~0ULL, &x))
			return -1;
		r->id = x;
		return 0;
	case K_DIR:
		return unescape(r->dir, sizeof(r->dir), v, n) || r->dir[0] != '/' ? -1 : 0;
	case K_CGROUP:
		return unescape(r->cgroup, sizeof(r->cgroup), v, n) || r->cgroup[0] != '/' ?
		       -1 : 0;
	case K_PID:
	case K_UID:
		if (number(v, n, ~0U, &x))
			return -1;
		*(k == K_PID ? &r->pid : &r->uid) = (__u32)x;
		return 0;
	case K_COMM:
		return unescape(r->comm, sizeof(r->comm), v, n);
	case K_SINCE:
	case K_UNTIL:
		if (two(v, n, ~0ULL, (1ULL << 63) - 1, true, &a, &b))
			return -1;
		*(k == K_SINCE ? &r->since_boot_ms : &r->until_boot_ms) = a;
		*(k == K_SINCE ? &r->since_unix_s : &r->until_unix_s) = b;
		return 0;
	default:
		if (two(v, n, ~0U, (1ULL << 63) - 1, false, &a, &b))
			return -1;
		r->by_pid = (__u32)a;
		r->by_start = (__u64)b;
		return 0;
	}
}

int hk_freeze_record__parse(struct hk_freeze_rec *r, const char *text, char *why,
			    size_t why_len)
{
	const char *p = text, *nl, *sp;
	unsigned int seen = 0, line = 1;
	size_t klen;
	int k;

	memset(r, 0, sizeof(*r));
	if (strncmp(p, MAGIC "\n", sizeof(MAGIC)))
		return hk_msg__fail(why, why_len, "line 1: not \"" MAGIC "\"");
	p += sizeof(MAGIC);
	while (*p) {
		line++;
		nl = strchr(p, '\n');
		if (!nl)
			return hk_msg__fail(why, why_len, "line %u: no newline at its end", line);
		sp = memchr(p, ' ', (size_t)(nl - p));
		klen = sp ? (size_t)(sp - p) : 0;
		for (k = 0; k < K_NR; k++)
			if (strlen(keys[k]) == klen && !memcmp(p, keys[k], klen))
				break;
		if (k == K_NR || (seen & (1u << k)))
			return hk_msg__fail(why, why_len, "line %u: %s key", line,
					    k == K_NR ? "unknown" : "a second");
		if (value(r, k, sp + 1, (size_t)(nl - sp - 1)))
			return hk_msg__fail(why, why_len, "line %u: bad value for %s", line,
					    keys[k]);
		seen |= 1u << k;
		p = nl + 1;
	}
	for (k = 0; k < K_NR; k++)
		if (!(seen & (1u << k)))
			return hk_msg__fail(why, why_len, "no %s", keys[k]);
	return 0;
}

int hk_freeze_record__put(const struct hk_safedir *d, const struct hk_freeze_rec *r)
{
	char name[64], *text = malloc(REC_TEXT_MAX);
	int n, e;

	if (!text)
		return -ENOMEM;
	n = hk_freeze_record__format(text, REC_TEXT_MAX, r);
	hk_freeze_record__name(name, sizeof(name), r->hier, r->id);
	e = n < 0 ? -EOVERFLOW : hk_rundir__put(d, name, text, (size_t)n);
	free(text);
	return e;
}

int hk_freeze_record__get(const struct hk_safedir *d, enum hk_freeze_hier hier, __u64 id,
			  struct hk_freeze_rec *r, char *why, size_t why_len)
{
	char name[64], *text = malloc(REC_TEXT_MAX);
	int n;

	if (!text)
		return -ENOMEM;
	hk_freeze_record__name(name, sizeof(name), hier, id);
	n = hk_rundir__get(d, name, text, REC_TEXT_MAX);
	if (n >= 0)
		n = hk_freeze_record__parse(r, text, why, why_len);
	free(text);
	return n;
}

int hk_freeze_record__drop(const struct hk_safedir *d, enum hk_freeze_hier hier, __u64 id)
{
	char name[64];

	hk_freeze_record__name(name, sizeof(name), hier, id);
	return hk_rundir__drop(d, name);
}

int hk_freeze_record__list(const char *path, struct hk_safedir *d, struct hk_freeze_rec **recs,
			   unsigned int *n, unsigned int *bad, char *bad_name, size_t bad_len,
			   char *why, size_t why_len)
{
	struct hk_freeze_rec *all = NULL, *more;
	char *text = NULL, pwhy[256];
	unsigned int cap = 0;
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int fd, len;

	*recs = NULL;
	*n = *bad = 0;
	d->fd = -1;
	if (bad_len)
		bad_name[0] = '\0';
	/* looked at, not made: nothing recorded yet is no error */
	if (lstat(path, &st) && errno == ENOENT)
		return 0;
	/* root's: to anyone else it is closed, whoever else it should be */
	if (access(path, R_OK | X_OK))
		return hk_msg__fail(why, why_len, "%s: %s", path, strerror(errno));
	if (hk_rundir__open(d, path, why, why_len))
		return -1;
	fd = dup(d->fd);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	text = malloc(REC_TEXT_MAX);
	if (!dir || !text) {
		if (dir)
			closedir(dir);
		else if (fd >= 0)
			close(fd);
		free(text);
		hk_safefile__dir_close(d);
		return hk_msg__fail(why, why_len, "%s: %s", path, strerror(dir ? ENOMEM : errno));
	}
	while ((de = readdir(dir)) != NULL) {
		if (strncmp(de->d_name, PREFIX, strlen(PREFIX)))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			more = realloc(all, cap * sizeof(*all));
			if (!more)
				break;
			all = more;
		}
		len = hk_rundir__get(d, de->d_name, text, REC_TEXT_MAX);
		if (len < 0 || hk_freeze_record__parse(&all[*n], text, pwhy, sizeof(pwhy))) {
			if (!(*bad)++ && bad_len)
				snprintf(bad_name, bad_len, "%s", de->d_name);
			continue;
		}
		(*n)++;
	}
	closedir(dir);
	free(text);
	*recs = all;
	return 0;
}

bool hk_freeze_record__holder_runs(const struct hk_freeze_rec *r)
{
	unsigned long long t;

	if (!r->by_pid)
		return false;
	t = hk_pidref__start_ticks(r->by_pid);
	return t && t == r->by_start;
}

int hk_freeze__open_rec(const struct hk_freeze_rec *rec, struct hk_freeze_cg *cg, char *why,
			size_t why_len)
{
	return hk_freeze__open_id(rec->dir, rec->hier, rec->id, cg, why, why_len);
}
