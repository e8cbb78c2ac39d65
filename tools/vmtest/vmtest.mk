# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# make vmtest: boot Debian's PREEMPT_RT 6.12 kernel under qemu (TCG) and
# run hotspot-k there, its 6.12 as a production node (8 vCPUs, cgroup v2 only,
# systemd and kubelet paths: node.sh; the plain 6.12 guest's checks too),
# and Debian's arm64 6.1 and 6.12 under qemu-system-aarch64 with the
# cross-built aarch64 binaries (make ARCH=arm64). tools/vmtest/README.md.
# Included by the Makefile.
#   make vmtest VMTEST_KERNELS=6.12       one kernel
#   make vmtest VMTEST_KERNELS=node       the node guest alone
#   make vmtest VMTEST_KERNELS=arm64-6.1  an arm64 guest alone
#   make vmtest VMTEST_FLAGS=--keep       keep the initramfs staging directory

# so that the two slots end together: under make test 6.12-rt (Debian's
# PREEMPT_RT build of 6.12) ~60 s, then arm64-6.1 (with as_5_15) ~90; node
# ~90, then arm64-6.12 ~55; x86 6.1 last, light (~30 s): Debian 12's own
# kernel, its in-kernel tests through x86's JIT and layouts on 6.1. The
# plain 6.12 guest (VMTEST_KERNELS=6.12) checks nothing the node does
# not; 6.1-rt is
# bookworm's own RT kernel (tools/vmtest/README.md).
VMTEST_KERNELS ?= 6.12-rt node arm64-6.1 arm64-6.12 6.1
VMTEST_FLAGS   ?=
# the arm64 guests' binaries, cross-built beside the host's
VMTEST_ARM64   := $(OUTPUT)/arm64
# (leakload: dynamic, for the leaf check, with libc6-arm64-cross's libc)
VMTEST_ARM64_BINS := $(addprefix $(VMTEST_ARM64)/,hotspot-k.arm64 prog-test hkload hkvm leakload)

# the guest's helper: isa-debug-exit and a BPF program count, static since
# the guest has no libc
$(OUTPUT)/hkvm: tools/vmtest/hkvm.c | $(OUTPUT)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -static -pthread $(LIBBPF_CFLAGS) $< -l:libbpf.a -l:libelf.a -l:libz.a -o $@

# STATIC=1 goes to a sub-make: it relinks hotspot-k, prog-test and hkload
# static (link stamp); the sub-make never comes back here
vmtest: deps
	$(Q)tools/deps.sh vmtest
	$(Q)$(MAKE) --no-print-directory STATIC=1 hotspot-k $(OUTPUT)/prog-test $(OUTPUT)/hkload
	$(Q)$(MAKE) --no-print-directory $(OUTPUT)/hkvm
ifneq ($(filter arm64-%,$(VMTEST_KERNELS)),)
	$(Q)$(MAKE) --no-print-directory STATIC=1 ARCH=arm64 OUTPUT=$(VMTEST_ARM64) $(VMTEST_ARM64_BINS)
endif
	$(Q)tools/vmtest/vmtest.sh --kernels "$(VMTEST_KERNELS)" --out $(OUTPUT)/vmtest \
		--tool ./hotspot-k --prog-test $(OUTPUT)/prog-test --hkload $(OUTPUT)/hkload \
		--hkvm $(OUTPUT)/hkvm --arm64 $(VMTEST_ARM64) $(VMTEST_FLAGS)
