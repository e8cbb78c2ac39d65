// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * samples.c - what tests/docs/drift.py checks the man pages against, printed
 * by the code the binary runs (no BPF, no root): a JSON transition line with
 * every key (an oom_killed in a PID namespace: the keys only those carry),
 * then the Prometheus file with one process flagged (every family). A list
 * of keys kept by hand beside json.c would drift as the docs did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output/format.h"
#include "output/prometheus.h"

int main(void)
{
	static const struct hk_format_ctx ctx = { .utc = 1 };
	char line[HK_FORMAT_LINE_MAX], dir[] = "/tmp/hk-samples.XXXXXX";
	char path[sizeof(dir) + 16], warn[256], err[256];
	struct hk_event e;
	struct hk_prom *p;
	int ret = 1;

	memset(&e, 0, sizeof(e));
	e.type = HK_EV_TRANSITION;
	e.tgid = 4242;
	e.ns_pid = 7;
	e.ns_ino = 4026532512ULL;
	e.from = HK_OOM_RISK;
	e.to = HK_OOM_KILLED;
	memcpy(e.comm, "leak", sizeof("leak"));
	e.ev.window_ns = 5000000000ULL;
	e.ev.eta_s = 60;
	/* its stall ledger: a leak stalled in reclaim (the family has a
	 * sample only for a cause above 0) */
	e.ev.stall_ns.ns[HK_STALL_RECLAIM] = 3000000000ULL;
	if (hk_format__json(line, sizeof(line), &e, "/hk/leak", &ctx) < 0) {
		fprintf(stderr, "samples: the JSON line did not fit\n");
		return 1;
	}
	fputs(line, stdout);

	/* the file's directory is opened and checked: a private one */
	if (!mkdtemp(dir)) {
		perror("samples: mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/hk.prom", dir);
	p = hk_prom__new(path, warn, sizeof(warn), err, sizeof(err));
	if (!p) {
		fprintf(stderr, "samples: %s\n", err);
		goto out;
	}
	e.from = HK_OK;
	e.to = HK_OOM_RISK;
	hk_prom__event(p, &e, "/hk/leak", NULL);
	/* as with --metrics-listen: its own counters' families too */
	hk_prom__http(p, &(struct hk_prom_http){ 0 });
	ret = hk_prom__format(p, NULL, "wq", stdout) ? 1 : 0;
	hk_prom__free(p);
out:
	rmdir(dir);
	return ret;
}
