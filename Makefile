# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# hotspot-k: in-kernel per-process diagnosis with libbpf.
#
#   make            build ./hotspot-k (installs missing Debian packages first)
#   make run        build and run with the embedded defaults (needs root)
#   make test       unit + in-kernel + end-to-end tests (needs root)
#   make bench      benchmarks (needs root; slow, not part of make test)
#   V=1             show the commands

OUTPUT    ?= build
CLANG     ?= clang
BPFTOOL   ?= bpftool
CC        ?= cc
ARCH      := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
		-e 's/ppc64le/powerpc/' -e 's/s390x/s390/' -e 's/riscv64/riscv/')
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
VMLINUX_H ?= $(OUTPUT)/vmlinux.h
VERSION   := 0.1.0

INCLUDES  := -I$(OUTPUT) -Iinclude -Iuser
CFLAGS    ?= -g -O2
CFLAGS    += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE \
	     -DHK_VERSION='"$(VERSION)"'
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall \
	      -Wno-unused-function -Wno-compare-distinct-pointer-types
LIBBPF_CFLAGS := $(shell pkg-config --cflags libbpf 2>/dev/null)
LIBBPF_LIBS   := $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf) -lelf -lz

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

SHARED_H  := $(wildcard include/shared/*.h)
USER_LIB  := user/config.c user/format.c user/sysinfo.c
USER_LIB_O := $(patsubst user/%.c,$(OUTPUT)/%.o,$(USER_LIB))
UNIT_SRCS := $(wildcard tests/unit/*.c)
VECTORS   := $(wildcard tests/vectors/*.h tests/vectors/*.inc)

.DELETE_ON_ERROR:
.PHONY: all deps run test unit prog-test e2e bench clean

# Each entry point installs what is missing first, then re-enters make so
# that pkg-config and bpftool are looked up after the install.
all: deps
	$(Q)$(MAKE) --no-print-directory hotspot-k

deps:
	$(Q)tools/deps.sh build

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

$(OUTPUT)/%.o: user/%.c $(wildcard user/*.h) $(SHARED_H) | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) $(INCLUDES) $(LIBBPF_CFLAGS) -c $< -o $@

$(OUTPUT)/hotspot-k.o $(OUTPUT)/loader.o: $(OUTPUT)/hotspot.skel.h

hotspot-k: $(OUTPUT)/hotspot-k.o $(OUTPUT)/loader.o $(USER_LIB_O)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LIBBPF_LIBS) -o $@

run: all
	./hotspot-k $(ARGS)

# --- tests -------------------------------------------------------------
$(OUTPUT)/unit-tests: $(UNIT_SRCS) $(USER_LIB_O) $(wildcard tests/unit/*.h) $(VECTORS) $(SHARED_H)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(INCLUDES) -Itests $(UNIT_SRCS) $(USER_LIB_O) -lcunit -o $@

$(OUTPUT)/prog-test: tests/bpf-prog-test/prog_test.c $(OUTPUT)/hotspot.skel.h $(VECTORS) $(USER_LIB_O)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(INCLUDES) -Itests $(LIBBPF_CFLAGS) $< $(USER_LIB_O) $(LIBBPF_LIBS) -o $@

$(OUTPUT)/hkload: tests/e2e/hkload.c | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -pthread $< -o $@

unit: $(OUTPUT)/unit-tests
	$(Q)$(OUTPUT)/unit-tests

prog-test: $(OUTPUT)/prog-test
	$(Q)$(OUTPUT)/prog-test

e2e: hotspot-k $(OUTPUT)/hkload
	$(Q)python3 tests/e2e/run.py --tool ./hotspot-k --hkload $(OUTPUT)/hkload

test: deps
	$(Q)tools/deps.sh test
	$(Q)$(MAKE) --no-print-directory hotspot-k
	$(Q)$(MAKE) --no-print-directory unit
	$(Q)$(MAKE) --no-print-directory prog-test
	$(Q)$(MAKE) --no-print-directory e2e
	@echo "all test suites passed"

bench: deps
	$(Q)tools/deps.sh bench
	$(Q)$(MAKE) --no-print-directory hotspot-k
	$(Q)tools/bench/run.sh

clean:
	$(call msg,CLEAN,)
	$(Q)rm -rf $(OUTPUT) hotspot-k
