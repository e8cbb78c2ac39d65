# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# The toolchain, one block for every Makefile: the Makefile at the top and
# tools/bench/Makefile include it before their own rules. The
# libbpf-bootstrap recipe: clang -target bpf -> bpftool gen skeleton ->
# cc ... -lbpf -lelf -lz. Variables only (no rule here may become an
# includer's default goal); each includer says where its vmlinux.h goes and
# adds its own flags after (the top one: -DHK_VERSION, STATIC=1).
#   CLANG, BPFTOOL, CC, CFLAGS     the tools and the C flags, as given
#   ARCH=arm64                     the kernel's name of the target (x86,
#                                  arm64), default the host's: another one
#                                  cross-builds (tools/cross/cross.mk)
#   V=1                            show the commands

CLANG     ?= clang
BPFTOOL   ?= bpftool
CC        ?= cc
HOST_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
		-e 's/ppc64le/powerpc/' -e 's/s390x/s390/' -e 's/riscv64/riscv/')
# only the command line names another target (an ARCH in the environment,
# x86_64 say, is not the kernel's name); aarch64 and x86_64 are understood
ifneq ($(origin ARCH),command line)
ARCH      := $(HOST_ARCH)
endif
override ARCH := $(patsubst aarch64,arm64,$(patsubst x86_64,x86,$(ARCH)))
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux

CFLAGS    ?= -g -O2
CFLAGS    += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE
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
