# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# hotspot-k: in-kernel per-process diagnosis with libbpf.
#
#   make            build ./hotspot-k (installs missing Debian packages first)
#   make run        build and run with the embedded defaults (needs root)
#   make test       unit + ASan/UBSan + fuzz smoke + in-kernel + end-to-end
#                   tests (both drivers) + the attacks of an unprivileged
#                   user + make vmtest, on one static binary
#                   (needs root)
#   make check      the loop for every edit (<= 2 minutes): build, unit,
#                   prog-test and a smoke of e2e (needs root)
#   make docs-drift  the man pages against the binary's flags, keys, labels,
#                   JSON keys and metrics (tests/docs/drift.py; in make test)
#   make fuzz       libFuzzer targets, FUZZ_SECONDS (60) each (tests/fuzz/)
#   make sanitize   unit tests and hotspot-k under ASan + UBSan
#   make install    into PREFIX (/usr/local) and /etc; DESTDIR, SBINDIR, MANDIR,
#                   SYSCONFDIR, UNITDIR; make uninstall removes what it wrote
#   make install-test  install/uninstall, the unit and the man page, checked
#   make bench      benchmarks (needs root; slow, not part of make test)
#   make vmtest     boot Debian's kernels under qemu and test there: 6.12's
#                   PREEMPT_RT build, 6.12 as a node (8 vCPUs, cgroup v2
#                   only, pods), and arm64 6.1 and 6.12 with the aarch64 binary
#   make STATIC=1 ARCH=arm64   the aarch64 ./hotspot-k, cross-built
#   STATIC=1        link fully static binaries (libbpf.a, libelf.a, libz.a)
#   ARCH=arm64      cross-build ./hotspot-k for aarch64 (objects in
#                   build/arm64; tools/cross/cross.mk)
#   V=1             show the commands

VERSION   := 0.1.0
# whatever the included files define first
.DEFAULT_GOAL := all

# clang, bpftool, CC, CFLAGS, BPF_CFLAGS, libbpf's flags, ARCH, V=1: shared
# with tools/bench/Makefile
include tools/toolchain.mk
ifeq ($(ARCH),$(HOST_ARCH))
OUTPUT    ?= build
CROSS     :=
else
OUTPUT    ?= build/$(ARCH)
CROSS     := 1
endif
VMLINUX_H ?= $(OUTPUT)/vmlinux.h
ifeq ($(CROSS),1)
include tools/cross/cross.mk
endif
INCLUDES  := -I$(OUTPUT) -Iinclude -Iuser
CFLAGS    += -DHK_VERSION='"$(VERSION)"'

# STATIC=1: one file to copy to a fleet, whatever libraries the hosts have.
# Debian's libbpf-dev, libelf-dev and zlib1g-dev ship the archives.
ifeq ($(STATIC),1)
LIBBPF_LIBS   := -l:libbpf.a -l:libelf.a -l:libz.a
ELF_LIBS      := -l:libelf.a -l:libz.a
LDFLAGS_LINK  := -static
LINK_KIND     := static
else
ELF_LIBS      := -lelf -lz
LDFLAGS_LINK  :=
LINK_KIND     := dynamic
endif
# switching STATIC relinks: the stamp names the kind of the last link
LINK_STAMP    := $(OUTPUT)/link.$(LINK_KIND)
# ./hotspot-k is one file for every ARCH: its stamp (in build/, whatever
# OUTPUT) names the architecture and the kind it was last linked for
TOOL_STAMP    := build/tool-link.$(ARCH).$(LINK_KIND)

SHARED_H  := $(wildcard include/shared/*.h)
USER_SRCS := $(wildcard user/*.c user/*/*.c)
USER_H    := $(wildcard user/*.h user/*/*.h)
# the loader: loader.c and its loader_*.c, on one struct (loader_state.h)
LOADER_SRCS := $(wildcard user/kernel/loader*.c)
# The libbpf boundary, by folder: the BPF skeletons' users and the
# profiler's, linked into hotspot-k only: main, the commands (but the run's
# flags, which the unit tests parse), the loader, the profiler, the acts.
# Every other file is linked into the unit tests and the fuzz targets too.
SKEL_USERS := user/hotspot-k.c \
	      $(filter-out user/cmd/cli.c user/cmd/usage.c,$(wildcard user/cmd/*.c)) \
	      $(LOADER_SRCS) user/kernel/verifier_log.c user/kernel/driver.c \
	      user/profile/profiler.c user/profile/profile_object.c \
	      user/profile/profile_stacks.c user/profile/profile_write.c \
	      user/act/act.c
USER_LIB  := $(filter-out $(SKEL_USERS),$(USER_SRCS))
# build/<folder>/<name>.o: output/json.c and status/json.c share a name
USER_LIB_O := $(patsubst user/%.c,$(OUTPUT)/%.o,$(USER_LIB))
UNIT_SRCS := $(wildcard tests/unit/*.c tests/common/*.c)
VECTORS   := $(wildcard tests/vectors/*.h tests/vectors/*.inc)

.DELETE_ON_ERROR:
.PHONY: all deps run test unit docs-check docs-drift promtool-test browser-test npd-test journal-catalog-test include-check prog-test e2e e2e-attack e2e-iter vmtest bench clean

# Each entry point installs what is missing first, then re-enters make so
# that pkg-config and bpftool are looked up after the install.
all: deps
	$(Q)$(MAKE) --no-print-directory hotspot-k

deps:
	$(Q)tools/deps.sh build
ifeq ($(CROSS),1)
	$(Q)tools/deps.sh cross-$(ARCH)
endif

$(OUTPUT):
	$(Q)mkdir -p $@

$(VMLINUX_H): | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@

$(OUTPUT)/hotspot.bpf.o: bpf/hotspot.bpf.c $(wildcard bpf/*.bpf.h) $(SHARED_H) $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(INCLUDES) $(LIBBPF_CFLAGS) -c $< -o $@

$(OUTPUT)/hotspot.skel.h: $(OUTPUT)/hotspot.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name hotspot_bpf > $@

$(OUTPUT)/profile.bpf.o: bpf/profile.bpf.c $(wildcard bpf/*.bpf.h) $(SHARED_H) $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(INCLUDES) $(LIBBPF_CFLAGS) -c $< -o $@

$(OUTPUT)/profile.skel.h: $(OUTPUT)/profile.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name profile_bpf > $@

$(OUTPUT)/%.o: user/%.c $(USER_H) $(SHARED_H) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(INCLUDES) $(LIBBPF_CFLAGS) -c $< -o $@

# --version says the build: the commit (git describe; "unknown" outside
# git), the link and the BPF objects' clang, to version.c alone; a stamp
# that changes with the commit rebuilds it
HK_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
HK_COMMIT_STAMP := $(OUTPUT)/commit.stamp
$(shell mkdir -p $(OUTPUT) && { echo '$(HK_COMMIT)' | cmp -s - $(HK_COMMIT_STAMP) || \
	echo '$(HK_COMMIT)' > $(HK_COMMIT_STAMP); })
$(OUTPUT)/cmd/version.o: CFLAGS += -DHK_COMMIT='"$(HK_COMMIT)"' -DHK_LINK='"$(LINK_KIND)"' \
	-DHK_BPF_CLANG='"$(shell $(CLANG) -dumpversion 2>/dev/null || echo unknown)"'
$(OUTPUT)/cmd/version.o: $(HK_COMMIT_STAMP) $(LINK_STAMP)

# the two skeletons' includers
$(patsubst user/%.c,$(OUTPUT)/%.o,$(LOADER_SRCS)): $(OUTPUT)/hotspot.skel.h
$(OUTPUT)/profile/profile_object.o: $(OUTPUT)/profile.skel.h

$(LINK_STAMP): | $(OUTPUT)
	$(Q)rm -f $(OUTPUT)/link.* && touch $@

$(TOOL_STAMP): | $(OUTPUT)
	$(Q)rm -f build/tool-link.* && touch $@

TOOL_O := $(patsubst user/%.c,$(OUTPUT)/%.o,$(SKEL_USERS)) $(USER_LIB_O)
hotspot-k: $(TOOL_O) $(LINK_STAMP) $(TOOL_STAMP)
	$(call msg,LINK,$@ ($(ARCH)))
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(filter %.o,$^) $(LIBBPF_LIBS) -o $@

# the same tool inside OUTPUT, where ./hotspot-k stays another
# architecture's (make vmtest's arm64 guests)
$(OUTPUT)/hotspot-k.$(ARCH): $(TOOL_O) $(LINK_STAMP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(filter %.o,$^) $(LIBBPF_LIBS) -o $@

run: all
	./hotspot-k $(ARGS)

# --- tests -------------------------------------------------------------
# STATIC=1 links it static too: the symbolizer's tests then find libc
# inside the binary, as they would in a static hotspot-k
$(OUTPUT)/unit-tests: $(UNIT_SRCS) $(USER_LIB_O) $(wildcard tests/unit/*.h tests/common/*.h) $(VECTORS) $(SHARED_H) $(LINK_STAMP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(INCLUDES) -Itests -Itests/common $(UNIT_SRCS) $(USER_LIB_O) -lcunit $(ELF_LIBS) -o $@

$(OUTPUT)/prog-test: tests/bpf-prog-test/prog_test.c tests/bpf-prog-test/room.inc $(OUTPUT)/hotspot.skel.h $(VECTORS) $(USER_LIB_O) $(LINK_STAMP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(INCLUDES) -Itests $(LIBBPF_CFLAGS) $< $(USER_LIB_O) $(LIBBPF_LIBS) -o $@

# the object loaded against stand-in BTFs of kernels without optional configs
$(OUTPUT)/standin-test: tests/bpf-prog-test/standin_test.c tests/bpf-prog-test/btf_standin.h \
		user/kernel/kfields.h $(OUTPUT)/hotspot.skel.h $(OUTPUT)/kernel/driver.o \
		$(OUTPUT)/kernel/loader_kptr.o $(USER_LIB_O) $(LINK_STAMP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(INCLUDES) -Itests $(LIBBPF_CFLAGS) $< \
		$(OUTPUT)/kernel/driver.o $(OUTPUT)/kernel/loader_kptr.o $(USER_LIB_O) \
		$(LIBBPF_LIBS) -o $@

# frame pointers, no inlining: the profiler's tests look for its functions
$(OUTPUT)/profload: tests/e2e/profload.c $(LINK_STAMP) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O1 -fno-omit-frame-pointer -fno-inline -Wall -Wextra $(LDFLAGS_LINK) \
		-pthread $< -o $@

# frame pointers for its own code, libc's memset and clock_nanosleep called
# (not inlined): the profiler's leaf-frame recovery is what is tested.
# Always dynamic, even with STATIC=1: the leaf is Debian's shared libc, built
# without frame pointers (linked in, its frames are leakload's own and the
# recovery rightly leaves them alone)
$(OUTPUT)/leakload: tests/e2e/leakload.c $(LINK_STAMP) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) -g -O1 -fno-omit-frame-pointer -fno-inline -fno-builtin -Wall -Wextra \
		$< -o $@

# an idle io_uring server (raw system calls: no liburing)
$(OUTPUT)/uringidle: tests/e2e/uringidle.c $(LINK_STAMP) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $< -o $@

$(OUTPUT)/hkload: tests/e2e/hkload.c include/shared/units.h $(LINK_STAMP) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) -Iinclude -pthread $< -o $@

# issue #19's and #33's memory workloads (tests/e2e/test_memtruth.py, test_memblame.py)
$(OUTPUT)/memload: tests/e2e/memload.c include/shared/units.h $(LINK_STAMP) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) -Iinclude $< -o $@

# the includes of user/, bpf/ and include/: no circle, none up the flow
# (config -> kernel -> output, flame -> profile -> act -> status -> cmd; lib
# and include/shared/ below all), each said with the file and the name that
# makes it; the rules are tools/check_includes.py's docstring; and no C
# file there over 500 lines, a file a job (tools/check_sizes.sh) (< 1 s)
include-check:
	$(Q)python3 tools/check_includes.py
	$(Q)tools/check_sizes.sh

# a cross build's unit tests run under qemu-user (CROSS_RUN, cross.mk),
# whose packages are installed first
unit: $(CROSS_UNIT_DEPS) $(OUTPUT)/unit-tests
	$(Q)$(CROSS_RUN) $(OUTPUT)/unit-tests

# README.md and docs/: every relative link and #anchor resolves, every
# `make X` quoted is a target, every --flag quoted is in the binary's help,
# and README.md stays a landing page (<= 300 lines); under a second
docs-check: hotspot-k
	$(Q)python3 tests/docs/check_links.py --tool ./hotspot-k

# a timer callback's chain and a bpf_loop callback's that the 6.9+ JIT rule
# passes and the 32-byte rule refuses: stack_chain.py must refuse them, the
# running kernel load them; deep_over's timer callback is over 512 bytes
# under the 16-byte rule too: the kernel must refuse it
$(OUTPUT)/deep_chain.bpf.o: tests/bpf-prog-test/deep_chain.bpf.c $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(INCLUDES) $(LIBBPF_CFLAGS) -c $< -o $@

$(OUTPUT)/deep_over.bpf.o: tests/bpf-prog-test/deep_chain.bpf.c $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(INCLUDES) $(LIBBPF_CFLAGS) -DDEEP_TICK_WORDS=53 -c $< -o $@

# again with the bounded loops that stand in for bpf_loop() on 5.15/5.16
# first, each program's and each async callback's deepest call chain as
# each supported kernel adds it up (32-byte frames up to 6.8 and without
# the JIT, 16 with it on 6.9+): 512 bytes, 8 frames, and 64 bytes left for
# another compiler's spills (hk_iter at 512 was refused at 544 by the 6.1
# guest; the timer driver's callback at 576 by 6.7-6.8) and a frame left
# for one more call level (the timer and wq callbacks were at 8/8); then that it
# refuses deep_chain.bpf.o, under the 32-byte rules and not the 16-byte
# one (its bpf_loop chain, at 8 of 8 frames, under the frame margin too),
# and that this kernel (6.9+, JIT) agrees on the 16-byte rule
STACK_MARGIN := 64
STACK_FRAME_MARGIN := 2
PROG_TEST_DEPS := $(OUTPUT)/prog-test $(OUTPUT)/standin-test $(OUTPUT)/profile.bpf.o \
		  $(OUTPUT)/deep_chain.bpf.o $(OUTPUT)/deep_over.bpf.o
prog-test: $(PROG_TEST_DEPS)
	$(Q)python3 tests/bpf-prog-test/stack_chain.py --min-margin $(STACK_MARGIN) \
		--min-frame-margin $(STACK_FRAME_MARGIN) $(OUTPUT)/hotspot.bpf.o >$(OUTPUT)/stack-chain.log 2>&1 && \
		python3 tests/bpf-prog-test/stack_chain.py --min-margin $(STACK_MARGIN) \
		--min-frame-margin $(STACK_FRAME_MARGIN) $(OUTPUT)/profile.bpf.o >>$(OUTPUT)/stack-chain.log 2>&1 || \
		{ cat $(OUTPUT)/stack-chain.log; exit 1; }
	@echo "stack chains: $$(grep -c '^ok' $(OUTPUT)/stack-chain.log) (root, rule) pairs within 512 bytes and 8 frames, >= $(STACK_MARGIN) bytes and $(STACK_FRAME_MARGIN) frame left; $$(grep '^minimum margin' $(OUTPUT)/stack-chain.log | sort -k3,3n | head -n 1); $$(grep '^minimum frame margin' $(OUTPUT)/stack-chain.log | sort -k4,4n | head -n 1)"
	$(Q)! python3 tests/bpf-prog-test/stack_chain.py $(OUTPUT)/deep_chain.bpf.o \
		>$(OUTPUT)/stack-chain-deep.log 2>&1 && \
		grep -Eq '^OVER deep_tick +6\.7-6\.8 +/32 576 bytes, 7 frames.*"combined stack size of 6 calls is 544"' \
			$(OUTPUT)/stack-chain-deep.log && \
		grep -Eq '^OVER deep_tick +no JIT +/32 576 bytes' $(OUTPUT)/stack-chain-deep.log && \
		grep -Eq '^ok   deep_tick +6\.9\+ JIT +/16 464 bytes' $(OUTPUT)/stack-chain-deep.log && \
		grep -Eq '^ok   deep_arm ' $(OUTPUT)/stack-chain-deep.log && \
		grep -Eq '^OVER deep_loop +5\.15-6\.6 +/32 608 bytes, 8 frames' $(OUTPUT)/stack-chain-deep.log && \
		grep -Eq '^ok   deep_loop +6\.9\+ JIT +/16 464 bytes' $(OUTPUT)/stack-chain-deep.log || \
		{ cat $(OUTPUT)/stack-chain-deep.log; \
		  echo "stack_chain.py: deep_chain.bpf.o's timer callback (576 bytes under the 32-byte rule) or bpf_loop chain (608) not refused as expected"; exit 1; }
	$(Q)! python3 tests/bpf-prog-test/stack_chain.py --min-frame-margin 1 $(OUTPUT)/deep_chain.bpf.o \
		>$(OUTPUT)/stack-chain-frames.log 2>&1 && \
		grep -Eq '^LOW  deep_loop +6\.9\+ JIT +/16 464 bytes, 8 frames' $(OUTPUT)/stack-chain-frames.log && \
		grep -Eq '^ok   deep_tick +6\.9\+ JIT +/16 464 bytes, 7 frames' $(OUTPUT)/stack-chain-frames.log || \
		{ cat $(OUTPUT)/stack-chain-frames.log; \
		  echo "stack_chain.py: deep_chain.bpf.o's bpf_loop chain (8 of 8 frames) not refused by --min-frame-margin 1"; exit 1; }
	@echo "stack chains: deep_chain.bpf.o refused, as it must be: $$(grep -E '^OVER deep_tick +6\.7-6\.8' $(OUTPUT)/stack-chain-deep.log | awk '{ print $$2, "under", $$3, $$4, $$5, "bytes" }') (464 under 6.9+ JIT /16)"
	$(Q)tests/bpf-prog-test/deep_chain_load.sh $(BPFTOOL) $(OUTPUT)/deep_chain.bpf.o $(OUTPUT)/deep_over.bpf.o
	$(Q)$(OUTPUT)/prog-test
	$(Q)$(OUTPUT)/prog-test -b >$(OUTPUT)/prog-test-b.log 2>&1 || \
		{ cat $(OUTPUT)/prog-test-b.log; exit 1; }
	@echo "bounded loops: $$(tail -n 1 $(OUTPUT)/prog-test-b.log)"
	$(Q)$(OUTPUT)/standin-test >$(OUTPUT)/standin-test.log 2>&1 || \
		{ cat $(OUTPUT)/standin-test.log; exit 1; }
	@echo "stand-in BTFs (optional configs off): $$(tail -n 1 $(OUTPUT)/standin-test.log)"

# the man pages against the binary (tests/docs/drift.py): every flag, command,
# config key, label, JSON key, metric and test variable documented, and every
# one documented real; doc-samples prints a JSON line and a Prometheus file
# with the code the binary runs. No root, no BPF: a second or two
$(OUTPUT)/doc-samples: tests/docs/samples.c $(USER_LIB_O) $(LINK_STAMP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(INCLUDES) $< $(USER_LIB_O) $(ELF_LIBS) -o $@

docs-drift: hotspot-k $(OUTPUT)/doc-samples
	$(Q)python3 tests/docs/drift.py --tool ./hotspot-k --samples $(OUTPUT)/doc-samples

# tests/browser/flame.folded's flame graph, written by the code hotspot-k
# profile writes it with, for make browser-test
$(OUTPUT)/flame-svg: tests/browser/flame_svg.c $(USER_LIB_O) $(LINK_STAMP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(INCLUDES) $< $(USER_LIB_O) $(ELF_LIBS) -o $@

# the fleet's alert and recording rules (deploy/prometheus/) and dashboard
# (deploy/grafana/) against Debian's promtool: the rules' unit tests, every
# dashboard expression parsed and non-empty over the tool's own families,
# and promtool check metrics over a textfile the tool writes in a 3 s run
# beside a busy loop; then scrape.py: the real prometheus scraping the
# tool's --metrics-listen and node_exporter's textfile collector over its
# --prometheus file on loopback, and its queries equal to what the tool
# printed (each run under /tmp/hk-bpf.lock); measures no time
promtool-test: hotspot-k $(OUTPUT)/hkload
	$(Q)tools/deps.sh prometheus
	$(Q)tests/prometheus/run.sh ./hotspot-k $(OUTPUT)/hkload
	$(Q)python3 tests/prometheus/scrape.py ./hotspot-k $(OUTPUT)/hkload

# deploy/npd/'s node-problem-detector config read as NPD reads it (every
# key one it knows, Validate()'s rules) and each rule's command run against
# the binary: a known --npd check, one line, its exit status mapped as NPD
# maps it. NPD is not in Debian: NPD itself is not run. Under 1 s
npd-test: hotspot-k
	$(Q)python3 tests/npd/check_config.py --tool ./hotspot-k deploy/npd/hotspot-k-monitor.json

# the flame graph's script and the dashboard's queries in Debian's headless
# chromium, driven over its DevTools pipe (tests/browser/browser.py): a
# click, a search, Reset zoom and Escape on tests/browser/flame.folded's
# SVG (build/flame-svg: profile's own SVG code), the DOM read after each;
# then each dashboard query in Debian's prometheus UI over fixture series
# from doc-samples' families. In a network namespace of its own (loopback
# only), no root of the tool, no BPF; about 5 s; measures no time
browser-test: $(OUTPUT)/flame-svg $(OUTPUT)/doc-samples
	$(Q)tools/deps.sh browser
	$(Q)unshare --net sh -c 'ip link set lo up && exec python3 tests/browser/browser.py \
		$(OUTPUT)/flame-svg $(OUTPUT)/doc-samples'

# dist/hotspot-k.catalog: the same MESSAGE_IDs as the code sends
# (user/output/journal_ids.c), each taken by the real journalctl
# --update-catalog in a scratch root; under a second, measures nothing
journal-catalog-test:
	$(Q)tools/deps.sh journal
	$(Q)tests/journal/catalog.sh

# the OCI image of the static binary, FROM scratch, by Debian's buildah:
# $(OUTPUT)/hotspot-k.oci.tar (tools/image.sh); STATIC=1 whatever was asked
.PHONY: image kube-test
image:
	$(Q)tools/deps.sh image
	$(Q)$(MAKE) --no-print-directory STATIC=1 hotspot-k
	$(Q)tools/image.sh ./hotspot-k $(VERSION) $(OUTPUT)/hotspot-k.oci.tar

# deploy/kubernetes/'s pod template played by podman kube play with that
# image: the tool in it flags a busy loop in a kubelet-named cgroup with its
# pod_uid and container_id; measures no time (under /tmp/hk-bpf.lock)
kube-test: image $(OUTPUT)/hkload
	$(Q)python3 tests/kubernetes/kube_play.py $(OUTPUT)/hotspot-k.oci.tar $(OUTPUT)/hkload $(VERSION)

e2e: hotspot-k $(OUTPUT)/hkload $(OUTPUT)/profload $(OUTPUT)/leakload $(OUTPUT)/uringidle $(OUTPUT)/memload $(OUTPUT)/standin-test
	$(Q)python3 tests/e2e/run.py --tool ./hotspot-k --hkload $(OUTPUT)/hkload

# the adversarial suite: an unprivileged user (nobody) against the root
# tool, one test per attack of the security review (tests/e2e/test_attack_*.py)
e2e-attack: hotspot-k $(OUTPUT)/hkload $(OUTPUT)/profload $(OUTPUT)/leakload $(OUTPUT)/uringidle $(OUTPUT)/memload
	$(Q)python3 tests/e2e/run.py --attacks --tool ./hotspot-k --hkload $(OUTPUT)/hkload

# The scenarios whose path in the kernel depends on the driver, as a 5.15
# kernel runs them: the iter/task driver (the one kernels before 6.7 get:
# threads by TID, a process closed once all its threads were met, parked
# meanwhile), bounded loops for bpf_loop() and the 4-argument sched_switch
# program (HOTSPOT_K_AS_5_15). What runs the same code whatever walks (the
# command line, output, filters' userspace, status, pins, a freeze, the
# profiler, the delay-accounting switch) e2e runs once.
# the walk and the iter link's teardown, a process's exit seen by the walk
E2E_ITER_ONLY := cli_sigint_teardown,cpu_bound
# threads met by TID: two processes' TIDs interleaved, a leader gone, a
# pool's threads summed, TIDs that wrapped (wrap_starved: Starved, and the
# 4-argument hook names its Noisy neighbor; it made starved_noisy_neighbor
# here a second copy, 9 s of make test's), a walk cut in chunks. (The
# negative controls' 10 000 daemon threads make e2e's own tool choose iter.)
E2E_ITER_ONLY := $(E2E_ITER_ONLY),interleaved,oom_main_exited,io_pool,wrap_starved
E2E_ITER_ONLY := $(E2E_ITER_ONLY),walk_in_progress
# bounded loops: the memory cgroups' walk, the task groups' quota walk
E2E_ITER_ONLY := $(E2E_ITER_ONLY),oom_memcg_bursts,throttled_v1
# a filter asked per process at its first thread met
E2E_ITER_ONLY := $(E2E_ITER_ONLY),filter_cgroup
# --only matches names in part: "cpu_bound" takes wrap_cpu_bound too, whose
# walk is wrap_starved's (7 s)
E2E_ITER_SKIP := wrap_cpu_bound
e2e-iter: hotspot-k $(OUTPUT)/hkload $(OUTPUT)/profload $(OUTPUT)/leakload $(OUTPUT)/uringidle $(OUTPUT)/memload
	$(Q)HOTSPOT_K_AS_5_15=1 python3 tests/e2e/run.py --tool ./hotspot-k \
		--hkload $(OUTPUT)/hkload --tool-args "--driver iter" --only "$(E2E_ITER_ONLY)" \
		--skip "$(E2E_ITER_SKIP)"

# One static binary for every suite: natively here under both drivers, then
# in Debian's kernels under qemu (make vmtest: 6.12-rt, 6.12 as a node, arm64
# 6.1 and 6.12). tests/all.sh runs them, the guests beside the suites that measure
# no time, and prints each suite's time.
test: deps
	$(Q)tools/deps.sh test
	$(Q)tests/all.sh "$(MAKE)"

# The loop for every edit, <= 2 minutes from a built tree: the build, unit
# beside prog-test, then e2e's smoke alone (tools/check.sh), and a table of
# each part's seconds. make test stays the one command that proves everything.
.PHONY: check check-build e2e-smoke
check: deps
	$(Q)tools/deps.sh check
	$(Q)tools/check.sh "$(MAKE)"

# what check's parts run, built in one make: unit and prog-test, run beside
# each other, then have nothing left to build
check-build: hotspot-k $(OUTPUT)/hkload $(OUTPUT)/unit-tests $(OUTPUT)/doc-samples $(PROG_TEST_DEPS)
	@:

# a few scenarios of each main path, from e2e and e2e-attack (run.py's SMOKE)
e2e-smoke: hotspot-k $(OUTPUT)/hkload
	$(Q)python3 tests/e2e/run.py --smoke --tool ./hotspot-k --hkload $(OUTPUT)/hkload

# FIGS: the figures (tools/bench/run.sh's names), e.g. make bench FIGS=scrape
bench: deps
	$(Q)tools/deps.sh bench
	$(Q)$(MAKE) --no-print-directory hotspot-k $(OUTPUT)/hkload
	$(Q)tools/bench/run.sh $(FIGS)

# booting other kernels under qemu: tools/vmtest/
-include tools/vmtest/vmtest.mk

# libFuzzer targets and ASan + UBSan builds: tests/fuzz/
-include tests/fuzz/fuzz.mk

# make install, make uninstall, make install-test: tools/install.mk
-include tools/install.mk

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUTPUT) hotspot-k
