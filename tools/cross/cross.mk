# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# make ARCH=arm64: a cross build, included by the Makefile when ARCH is not
# the host's. Debian's cross compiler and the target's libraries through
# multiarch (tools/deps.sh cross-ARCH installs them), objects in
# build/ARCH, and a vmlinux.h written from the BTF of Debian's cloud kernel
# for that architecture (tools/cross/kernel_btf.sh): the BPF objects are
# compiled for the target (__TARGET_ARCH_$(ARCH)) and relocated by CO-RE on
# the kernel they load into, as natively.
#   make STATIC=1 ARCH=arm64          ./hotspot-k for aarch64, static
#   CROSS_COMPILE=aarch64-linux-gnu-  the compiler's prefix (the default)

CROSS_TRIPLET_arm64 := aarch64-linux-gnu
CROSS_TRIPLET_x86   := x86_64-linux-gnu
CROSS_TRIPLET := $(CROSS_TRIPLET_$(ARCH))
ifeq ($(CROSS_TRIPLET),)
$(error ARCH=$(ARCH): cross-builds target arm64 (from x86) or x86 (from arm64))
endif
CROSS_COMPILE ?= $(CROSS_TRIPLET)-
# a CC given on the command line or in the environment wins; make's own
# default (cc) is the host's compiler
ifeq ($(filter command line environment,$(origin CC)),)
CC := $(CROSS_COMPILE)gcc
endif

CROSS_PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLET)/pkgconfig:/usr/share/pkgconfig pkg-config
LIBBPF_CFLAGS := $(shell $(CROSS_PKG_CONFIG) --cflags libbpf 2>/dev/null)
LIBBPF_LIBS   := $(shell $(CROSS_PKG_CONFIG) --libs libbpf 2>/dev/null || echo -lbpf) -lelf -lz
# make unit ARCH=arm64: the target's unit tests under qemu-user, which
# keeps RLIMIT_AS to itself (HK_UNIT_QEMU_USER: test_worker.c knows)
QEMU_USER_arm64 := qemu-aarch64-static
QEMU_USER_x86   := qemu-x86_64-static
CROSS_RUN := HK_UNIT_QEMU_USER=1 $(QEMU_USER_$(ARCH))
CROSS_UNIT_DEPS := cross-unit-deps
.PHONY: cross-unit-deps
cross-unit-deps:
	$(Q)tools/deps.sh cross-$(ARCH)-unit
# the target kernel's BTF, not the running kernel's
VMLINUX_BTF   := $(OUTPUT)/vmlinux.btf

$(VMLINUX_BTF): tools/cross/kernel_btf.sh tools/cross/image_btf.py | $(OUTPUT)
	$(call msg,BTF,$@)
	$(Q)tools/cross/kernel_btf.sh $(ARCH) $@ >$@.log || { cat $@.log; exit 1; }

$(VMLINUX_H): $(VMLINUX_BTF)
