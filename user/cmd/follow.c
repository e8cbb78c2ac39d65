// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * follow.c - `hotspot-k follow`: the transitions of the instance that
 * --pin left running in the kernel, with no process of its own, printed
 * as the run would (unpin.c stops it). Its maps and hook links are files
 * under HK_PIN_DIR; its window timer lives as long as its map does. The
 * directory and the ring buffer are checked first (kernel/pindir.h): a
 * ring buffer someone else pinned there would print their records in
 * hotspot-k's words.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "cmd.h"
#include "kernel/bpffs.h"
#include "kernel/loader.h"
#include "kernel/pindir.h"
#include "kernel/preflight.h"
#include "output/format.h"
#include "output/printer.h"
#include "usage.h"

static const char follow_usage[] =
"Usage: hotspot-k follow [--json] [--utc]\n"
"\n"
"Print the transitions of the instance started with --pin, as it would\n"
"have printed them, until SIGINT/SIGTERM. The instance keeps running.\n"
"One follow at a time: its ring buffer has one reader position.\n"
"\n"
"  -j, --json      one JSON object per line instead of text\n"
"  -u, --utc       times in UTC instead of local time\n"
"  -h, --help      this help\n"
"\n"
"Exit status: 0 stopped by a signal, 1 a failure, 2 usage error, 3 no\n"
"pinned instance.\n";

int hk_cmd_follow(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "utc", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct epoll_event ev = { .events = EPOLLIN }, got;
	struct ring_buffer *rb = NULL;
	static const struct hk_pindir_map ring = {
		BPF_MAP_TYPE_RINGBUF, 0, 0, HK_EVENTS_RING_BYTES,
	};
	struct hk_printer pr;
	struct hk_pindir pd;
	int opt, json = 0, utc = 0, fd, sig_fd = -1, ep = -1, n, ret = 1;
	char err[768];
	sigset_t mask;

	optind = 0;
	opterr = 0;	/* its messages say argv[0]: usage.h says them */
	while ((opt = getopt_long(argc, argv, "+:juh", opts, NULL)) != -1) {
		if (opt == 'j')
			json = 1;
		else if (opt == 'u')
			utc = 1;
		else if (opt == 'h')
			return fputs(follow_usage, stdout) == EOF ? EXIT_RUNTIME : EXIT_OK;
		else
			return hk_usage__getopt("follow", opt, argv, opts);
	}
	/* they were ignored, and the follow ran */
	if (optind < argc)
		return hk_usage__error("follow", "unexpected argument '%s'", argv[optind]);
	if (hk_preflight__need_root("follow", "it reads the pinned ring buffer", err, sizeof(err))) {
		fprintf(stderr, "hotspot-k follow: %s\n", err);
		return EXIT_RUNTIME;
	}
	n = hk_pindir__open(&pd, 0, err, sizeof(err));
	if (n) {
		fprintf(stderr, "hotspot-k follow: %s%s\n", err, n == -ENOENT ?
			": start one with sudo hotspot-k --pin" : "");
		return n == -ENOENT ? EXIT_NOT_RUNNING : EXIT_RUNTIME;
	}
	fd = hk_pindir__map(&pd, "hk_events", &ring, 0, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "hotspot-k follow: %s%s\n", err, fd == -ENOENT ?
			" (no pinned instance: start one with sudo hotspot-k --pin)" : "");
		hk_pindir__close(&pd);
		return fd == -ENOENT ? EXIT_NOT_RUNNING : EXIT_RUNTIME;
	}
	/*
	 * The ring buffer has one consumer position, in the map: two readers
	 * would print records twice, move it back and forth, and read records
	 * the kernel is overwriting. One follow at a time, by a lock on the
	 * pin directory (held until exit).
	 */
	if (flock(pd.fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		if (e == EWOULDBLOCK)
			fprintf(stderr, "hotspot-k follow: another hotspot-k follow reads the pinned "
				"instance already (its transitions have one reader): stop that "
				"one first\n");
		else
			fprintf(stderr, "hotspot-k follow: %s: %s\n", HK_PIN_DIR, strerror(e));
		hk_pindir__close(&pd);
		close(fd);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	if (hk_printer__init_stdout(&pr, json, utc) ||
	    /* a reader that stops reading must not hold it (outfd.h) */
	    hk_printer__unblock(&pr)) {
		hk_pindir__close(&pd);
		close(fd);
		return 1;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) ||
	    (sig_fd = signalfd(-1, &mask, SFD_CLOEXEC)) < 0 ||
	    !(rb = ring_buffer__new(fd, hk_printer__event, &pr, NULL)) ||
	    (ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		fprintf(stderr, "hotspot-k follow: %s\n", strerror(errno));
		goto out;
	}
	ev.data.fd = sig_fd;
	epoll_ctl(ep, EPOLL_CTL_ADD, sig_fd, &ev);
	ev.data.fd = ring_buffer__epoll_fd(rb);
	epoll_ctl(ep, EPOLL_CTL_ADD, ev.data.fd, &ev);
	/* what the ring holds already (transitions while nobody read) first */
	for (;;) {
		hk_printer__flush(&pr);
		n = ring_buffer__consume(rb);
		if (pr.write_errno) {
			if (pr.write_errno != EPIPE)
				fprintf(stderr, "hotspot-k follow: writing output: %s\n",
					strerror(pr.write_errno));
			goto out;
		}
		if (n < 0) {
			fprintf(stderr, "hotspot-k follow: reading the ring buffer: %s\n",
				strerror(-n));
			goto out;
		}
		n = epoll_wait(ep, &got, 1, -1);
		if (n < 0 && errno != EINTR)
			goto out;
		if (n == 1 && got.data.fd == sig_fd)
			break;
	}
	ring_buffer__consume(rb);
	ret = pr.write_errno ? 1 : 0;
out:
	ring_buffer__free(rb);
	if (ep >= 0)
		close(ep);
	if (sig_fd >= 0)
		close(sig_fd);
	close(fd);
	hk_pindir__close(&pd);
	hk_printer__free(&pr);
	return ret;
}
