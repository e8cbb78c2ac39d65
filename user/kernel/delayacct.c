// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * delayacct.c - turn delay accounting on for io_blocked, and back off,
 * even after a crash (delayacct.h).
 *
 * The kernel keeps each thread's time blocked in I/O wait (blkio_delay)
 * only with kernel.task_delayacct = 1 (off by default since 5.14: it costs
 * two clock reads and a lock per I/O sleep). It is a global switch: a
 * tool that turns it on must turn it off again, even when it was killed
 * before it could, and must not turn off what the administrator turned on.
 * So the duty is written down in /run (a tmpfs: gone at boot, as the
 * switch's value is) before the switch is, and dropped after.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bpf_sys.h"
#include "bpffs.h"
#include "delayacct.h"
#include "instance.h"
#include "pindir.h"
#include "lib/log.h"
#include "lib/rundir.h"
#include "lib/safefile.h"

enum hk_delayacct_step hk_delayacct__at_start(const struct hk_delayacct_facts *f)
{
	if (f->value < 0)
		return HK_DELAYACCT_NOTHING;
	if (f->value == 0)
		/* whatever the record says: nobody's 1 to keep */
		return f->want ? HK_DELAYACCT_TURN_ON :
		       f->recorded && !f->others ? HK_DELAYACCT_FORGET : HK_DELAYACCT_NOTHING;
	/* 1, and no record: the administrator's */
	if (!f->recorded)
		return HK_DELAYACCT_NOTHING;
	if (f->want)
		return HK_DELAYACCT_TAKE;
	/* a hotspot-k set it and none runs: it died without putting 0 back */
	return f->others ? HK_DELAYACCT_NOTHING : HK_DELAYACCT_PUT_BACK;
}

enum hk_delayacct_step hk_delayacct__at_exit(const struct hk_delayacct_facts *f)
{
	/* another runs: the last one puts it back */
	if (f->value < 0 || f->others || (!f->want && !f->recorded))
		return HK_DELAYACCT_NOTHING;
	if (f->value == 0)
		/* put back by someone else meanwhile */
		return f->recorded ? HK_DELAYACCT_FORGET : HK_DELAYACCT_NOTHING;
	return HK_DELAYACCT_PUT_BACK;
}

static const char *sysctl_path(const struct hk_delayacct *d)
{
	return d->path ? d->path : HK_DELAYACCT_SYSCTL;
}

/* The switch's value: 0 or 1, or -1 with errno. */
static int read_switch(const char *path)
{
	char buf[8] = "";
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || (buf[0] != '0' && buf[0] != '1')) {
		errno = n < 0 ? errno : EINVAL;
		return -1;
	}
	return buf[0] - '0';
}

/*
 * The state directory: 0 open; 1 there is none (and create was not
 * asked: no record can be there); -1 with why in err.
 */
static int rundir(const struct hk_delayacct *d, int create, struct hk_safedir *dir,
		  char *err, size_t err_len)
{
	const char *path = d->rundir ? d->rundir : HK_RUNDIR;
	struct stat st;

	if (!create && lstat(path, &st) && errno == ENOENT)
		return 1;
	return hk_rundir__open(dir, path, err, err_len);
}

int hk_delayacct__recorded(const struct hk_delayacct *d)
{
	char buf[sizeof(HK_DELAYACCT_RECORD)], err[256];
	struct hk_safedir dir;
	int n;

	if (rundir(d, 0, &dir, err, sizeof(err)))
		return 0;
	n = hk_rundir__get(&dir, HK_DELAYACCT_STATE, buf, sizeof(buf));
	hk_safefile__dir_close(&dir);
	/* any text of ours: "it was 0" is the only thing ever recorded */
	return n > 0 && !strncmp(buf, "hotspot-k ", 10);
}

static int record(const struct hk_delayacct *d, char *err, size_t err_len)
{
	struct hk_safedir dir;
	int e;

	if (rundir(d, 1, &dir, err, err_len))
		return -1;
	e = hk_rundir__put(&dir, HK_DELAYACCT_STATE, HK_DELAYACCT_RECORD,
			   strlen(HK_DELAYACCT_RECORD));
	if (e)
		snprintf(err, err_len, "%.256s/%s: %s", dir.path, HK_DELAYACCT_STATE,
			 strerror(-e));
	hk_safefile__dir_close(&dir);
	return e ? -1 : 0;
}

static void forget(const struct hk_delayacct *d)
{
	struct hk_safedir dir;
	char err[256];

	if (rundir(d, 0, &dir, err, sizeof(err)))
		return;
	hk_rundir__drop(&dir, HK_DELAYACCT_STATE);
	hk_safefile__dir_close(&dir);
}

/* 0 back, then the record dropped: 0, or -errno. */
static int put_back(const struct hk_delayacct *d)
{
	int e = hk_safefile__write_ctl(sysctl_path(d), "0");

	if (!e)
		forget(d);
	return e;
}

int hk_delayacct__start(struct hk_delayacct *d, int want, unsigned int others,
			char *note, size_t note_len)
{
	struct hk_delayacct_facts f = { .others = others, .want = want };
	const char *path = sysctl_path(d);
	char err[512] = "";
	int e;

	note[0] = '\0';
	if (d->turned_on)
		return 0;
	f.value = read_switch(path);
	if (f.value < 0) {
		if (want)
			snprintf(note, note_len, "%s: %s", path, strerror(errno));
		return want ? -1 : 0;
	}
	f.recorded = hk_delayacct__recorded(d);
	switch (hk_delayacct__at_start(&f)) {
	case HK_DELAYACCT_TURN_ON:
		/* written down first: a crash right after the switch leaves
		 * a record to honour, never a 1 nobody knows of */
		if (record(d, err, sizeof(err)))
			snprintf(note, note_len, "kernel.task_delayacct set to 1 for io_blocked, "
				 "but it cannot be recorded (%s): a crash or a SIGKILL would "
				 "leave it at 1", err);
		e = hk_safefile__write_ctl(path, "1");
		if (e) {
			if (!err[0])
				forget(d);
			snprintf(note, note_len, "cannot turn delay accounting on (%s): %s", path,
				 strerror(-e));
			return -1;
		}
		d->turned_on = 1;
		return 0;
	case HK_DELAYACCT_TAKE:
		d->turned_on = 1;
		if (!others)
			snprintf(note, note_len, "kernel.task_delayacct is 1, left so by a "
				 "hotspot-k that did not exit (a crash, a SIGKILL): this one puts "
				 "0 back when it exits");
		return 0;
	case HK_DELAYACCT_PUT_BACK:
		e = put_back(d);
		if (e)
			snprintf(note, note_len, "cannot put kernel.task_delayacct back to 0 "
				 "(%s), left at 1 by a hotspot-k that did not exit: %s", path,
				 strerror(-e));
		else
			snprintf(note, note_len, "kernel.task_delayacct back to 0: a hotspot-k "
				 "that did not exit (a crash, a SIGKILL) had left it at 1");
		return 0;
	case HK_DELAYACCT_FORGET:
		forget(d);
		return 0;
	case HK_DELAYACCT_NOTHING:
		break;
	}
	return 0;
}

int hk_delayacct__exit(struct hk_delayacct *d, int want, unsigned int others,
		       char *note, size_t note_len)
{
	struct hk_delayacct_facts f = { .others = others, .want = want || d->turned_on };
	int e;

	note[0] = '\0';
	f.value = read_switch(sysctl_path(d));
	f.recorded = f.value >= 0 && hk_delayacct__recorded(d);
	d->turned_on = 0;
	switch (hk_delayacct__at_exit(&f)) {
	case HK_DELAYACCT_PUT_BACK:
		e = put_back(d);
		if (e) {
			snprintf(note, note_len, "cannot turn delay accounting back off (%s): %s",
				 sysctl_path(d), strerror(-e));
			return -1;
		}
		return 1;
	case HK_DELAYACCT_FORGET:
		forget(d);
		return 0;
	default:
		if (f.want && others && f.value == 1)
			snprintf(note, note_len, "kernel.task_delayacct stays 1: another "
				 "hotspot-k runs, and turns it off when it exits");
		return 0;
	}
}

unsigned int hk_delayacct__instances(void)
{
	struct hk_instance m;
	unsigned int nr;
	char err[256];

	/* none, or none that can be seen (no CAP_SYS_ADMIN): alone */
	if (hk_instance__find(&m, err, sizeof(err)))
		return 0;
	nr = m.nr_instances ? m.nr_instances : 1;
	hk_instance__close(&m);
	return nr;
}

/* --- the running instance's side (one per process) ------------------- */

/* kernel.task_delayacct, for io_blocked: put back at exit (delayacct.h) */
static struct hk_delayacct delayacct;
/* loaded: hk_delayacct__instances() counts this instance too */
static int loaded;

/* What could not be done, said once the load went well: a tool that
 * cannot load has a better first line to give. */
static char delayacct_note[1024];
static int delayacct_note_prio;

void hk_delayacct__say(void)
{
	if (!delayacct_note[0])
		return;
	if (delayacct_note_prio == HK_LOG_WARNING)
		hk_log__print(HK_LOG_WARNING, "delay accounting off: %s; I/O wait and memory "
			      "stalls are sampled at each walk instead, a coarser share (boot "
			      "with delayacct, or under the shipped unit: a sysctl.d file, "
			      "hotspot-k(8) SERVICE)\n", delayacct_note);
	else
		hk_log__print(delayacct_note_prio, "%s\n", delayacct_note);
	delayacct_note[0] = '\0';
}

/* Others than this instance running now (the count finds ours once loaded). */
static unsigned int delayacct_others(void)
{
	unsigned int n = hk_delayacct__instances();

	return loaded && n ? n - 1 : n;
}

int hk_delayacct__coverage(const struct hk_stats *st, int wanted, int *said, char *line,
			   size_t len)
{
	line[0] = '\0';
	if (*said || !st->windows)
		return 0;
	*said = 1;
	if (!wanted || !st->procs_no_delays)
		return 0;
	/* no switch: the kernel has no delay accounting at all */
	if (access(HK_DELAYACCT_SYSCTL, F_OK)) {
		snprintf(line, len, "this kernel has no delay accounting "
			 "(CONFIG_TASK_DELAY_ACCT): the I/O wait and memory stall of every "
			 "process (%llu running) are sampled at each walk (a share of 8 walks: "
			 "coarser)\n", (unsigned long long)st->procs_no_delays);
		return HK_LOG_NOTICE;
	}
	/* kernel.task_delayacct at run time reaches only the tasks forked
	 * after it (delayacct_tsk_init at fork): a service older than the
	 * switch has no task->delays, ever */
	snprintf(line, len, "delay accounting does not cover %llu running processes (started "
		 "before kernel.task_delayacct was 1, which reaches only processes started "
		 "after): their I/O wait and memory stall are sampled at each walk instead "
		 "(a share of 8 walks: coarser); to cover them, boot with delayacct on the "
		 "kernel command line, or have the unit's sysctl.d file turn it on early "
		 "(hotspot-k(8) SERVICE), and restart them\n",
		 (unsigned long long)st->procs_no_delays);
	return HK_LOG_NOTICE;
}

/* io_blocked (blkio) and Mem-thrashing's stall rule (memory stalls) read
 * delay accounting. */
int hk_delayacct__wanted(const struct hk_config *cfg)
{
	return cfg->io_blocked_pct_x100 != 0 || cfg->thrash_stall_pct_x100 != 0;
}

/*
 * Delay accounting is on while something reads it (hk_delayacct__wanted);
 * a record a dead instance left honoured either way. Called before the
 * load, and by a reload that turns a reader on (after its config is in
 * place); the duty is shown in cfg.
 */
void hk_delayacct__for(struct hk_config *cfg)
{
	int want = hk_delayacct__wanted(cfg);

	if (hk_delayacct__start(&delayacct, want, delayacct_others(), delayacct_note,
				sizeof(delayacct_note)))
		delayacct_note_prio = HK_LOG_WARNING;
	else
		delayacct_note_prio = HK_LOG_NOTICE;
	cfg->delayacct_duty = delayacct.turned_on;
}

/* Exiting: 0 back, unless another instance still runs (it takes over). */
void hk_delayacct__put_back(void)
{
	char note[1024];
	int e;

	e = hk_delayacct__exit(&delayacct, 0, delayacct_others(), note, sizeof(note));
	if (note[0])
		hk_log__print(e < 0 ? HK_LOG_WARNING : HK_LOG_INFO, "%s\n", note);
}

void hk_delayacct__loaded(void)
{
	loaded = 1;
}

int hk_delayacct__duty(void)
{
	return delayacct.turned_on;
}

void hk_delayacct__leave_on(void)
{
	delayacct.turned_on = 0;
}

/* --- `hotspot-k unpin`'s side: the pinned instance's duty --------------- */

int hk_delayacct__pinned_duty(const struct hk_pindir *pd, char *note, size_t len)
{
	/* a value of another size would be copied over cfg, on the stack */
	static const struct hk_pindir_map want = {
		BPF_MAP_TYPE_ARRAY, sizeof(__u32), sizeof(struct hk_config), 1,
	};
	struct hk_config cfg;
	__u32 zero = 0;
	int fd, duty = 0;

	note[0] = '\0';
	fd = hk_pindir__map(pd, "hk_config", &want, BPF_F_RDONLY, note, len);
	if (fd == -ENOENT)
		note[0] = '\0';
	if (fd < 0)
		return 0;
	if (!hk_bpf_sys__lookup(fd, &zero, &cfg))
		duty = cfg.delayacct_duty != 0;
	close(fd);
	return duty;
}

void hk_delayacct__unpin(int duty)
{
	struct hk_delayacct d = {};
	unsigned int others = 1;
	char note[1024];
	int i, e;

	if (!duty && !hk_delayacct__recorded(&d))
		return;
	for (i = 0; i < 20 && others; i++) {
		others = hk_delayacct__instances();
		if (others)
			usleep(100 * 1000);
	}
	e = hk_delayacct__exit(&d, duty, others, note, sizeof(note));
	if (e < 0)
		fprintf(stderr, "hotspot-k unpin: %s\n", note);
	else if (note[0])
		printf("hotspot-k: %s\n", note);
	else if (e > 0)
		printf("hotspot-k: kernel.task_delayacct back to 0, as the pinned instance "
		       "found it\n");
}
