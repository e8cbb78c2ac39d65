// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * version.c - `hotspot-k --version` and `hotspot-k version`: what was
 * built, for a bug report or a fleet's inventory. The first line stays
 * "hotspot-k X.Y.Z" (scripts read it); then the commit (git describe at
 * build time, "unknown" outside git), libbpf (the headers built against
 * and the library running: a dynamic build may meet another), the
 * architecture, the link, and the clang that compiled the BPF objects.
 * The Makefile gives HK_COMMIT, HK_LINK and HK_BPF_CLANG to this file
 * alone, and rebuilds it when they change.
 */
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <bpf/libbpf_version.h>
#include "cmd.h"
#include "usage.h"

#ifndef HK_COMMIT
#define HK_COMMIT "unknown"
#endif
#ifndef HK_LINK
#define HK_LINK "unknown"
#endif
#ifndef HK_BPF_CLANG
#define HK_BPF_CLANG "unknown"
#endif

#if defined(__x86_64__)
#define HK_ARCH_NAME "x86_64"
#elif defined(__aarch64__)
#define HK_ARCH_NAME "aarch64"
#else
#define HK_ARCH_NAME "unknown"
#endif

#define STR_(x) #x
#define STR(x) STR_(x)

int hk_cmd_version(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs("Usage: hotspot-k version\n"
		      "       hotspot-k --version\n"
		      "\n"
		      "What was built: the version, the git commit, libbpf (built against,\n"
		      "running), the architecture, static or dynamic, the BPF objects' clang.\n"
		      "\n"
		      "Exit status: 0 shown, 1 output failed, 2 usage error.\n", stdout);
		return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
	}
	if (argc > 1)
		return hk_usage__error("version", "unexpected argument '%s'", argv[1]);
	printf("hotspot-k %s\n"
	       "commit:  %s\n"
	       "libbpf:  %s (built against %s.%s)\n"
	       "arch:    %s\n"
	       "linked:  %s\n"
	       "bpf:     clang %s\n",
	       HK_VERSION, HK_COMMIT, libbpf_version_string(), STR(LIBBPF_MAJOR_VERSION),
	       STR(LIBBPF_MINOR_VERSION), HK_ARCH_NAME, HK_LINK, HK_BPF_CLANG);
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}
