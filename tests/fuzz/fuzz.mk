# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# libFuzzer targets and ASan + UBSan builds (tests/fuzz/README.md).
# Included by the Makefile.
#   make fuzz               every target for FUZZ_SECONDS (60) from the corpus
#   make fuzz FUZZ_TARGETS=json FUZZ_SECONDS=600
#   make fuzz-smoke         replay the corpus, then FUZZ_SMOKE_SECONDS each
#   make sanitize           unit tests and hotspot-k under ASan + UBSan
#   make fuzz-corpus        write tests/fuzz/corpus/ again (tests/fuzz/seeds.c)

FUZZ_TARGETS       ?= config units human json cgroup
FUZZ_SECONDS       ?= 60
# four targets and their replays within make test's minute
FUZZ_SMOKE_SECONDS ?= 10

# One instrumented build, a sub-make with its own OUTPUT so that it and the
# plain objects never mix, for both: its objects carry ASan + UBSan and the
# fuzzer's coverage, and link into the fuzz targets (with libFuzzer) and
# into the sanitized hotspot-k and unit-tests (without: the sanitizers'
# runtime has the coverage hooks). Two builds of the same sources took
# ~60 s of make test's busiest minute twice. The sanitizers ride on CC: a
# CFLAGS given on the command line would replace the Makefile's,
# -fsanitize included.
FUZZ_OUT := $(OUTPUT)/fuzz
SAN_OUT  := $(FUZZ_OUT)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=all
FUZZ_CC   := $(CLANG) -fsanitize=fuzzer-no-link $(SAN_FLAGS)
SAN_CC    := $(FUZZ_CC)
FUZZ_SRCS := $(filter-out tests/fuzz/fuzz_%.c tests/fuzz/seeds.c,$(wildcard tests/fuzz/*.c)) \
	     $(wildcard tests/common/*.c)
FUZZ_DEPS := $(FUZZ_SRCS) $(wildcard tests/fuzz/*.h tests/common/*.h) $(USER_LIB_O)

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-bins fuzz-corpus sanitize sanitize-bins

# --- in the sub-makes: OUTPUT is $(FUZZ_OUT) or $(SAN_OUT) -----------------
fuzz-bins: $(patsubst %,$(OUTPUT)/fuzz_%,$(FUZZ_TARGETS)) $(OUTPUT)/fuzz-seeds
	@:

$(OUTPUT)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer $(INCLUDES) -Itests/common $< $(FUZZ_SRCS) $(USER_LIB_O) $(ELF_LIBS) -o $@

$(OUTPUT)/fuzz-seeds: tests/fuzz/seeds.c $(FUZZ_DEPS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(INCLUDES) -Itests/common $< $(FUZZ_SRCS) $(USER_LIB_O) $(ELF_LIBS) -o $@

sanitize-bins: $(OUTPUT)/hotspot-k $(OUTPUT)/unit-tests
	@:

# the sanitized tool, beside its objects: never over ./hotspot-k
$(OUTPUT)/hotspot-k: $(patsubst user/%.c,$(OUTPUT)/%.o,$(SKEL_USERS)) $(USER_LIB_O) $(LINK_STAMP)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS_LINK) $(filter %.o,$^) $(LIBBPF_LIBS) -o $@

# --- entry points -------------------------------------------------------
# STATIC= : ASan does not link static
fuzz-build:
	$(Q)tools/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory OUTPUT=$(FUZZ_OUT) STATIC= CC="$(FUZZ_CC)" fuzz-bins

fuzz: deps
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)tests/fuzz/run.sh --bin $(FUZZ_OUT) --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-smoke: deps
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)tests/fuzz/run.sh --bin $(FUZZ_OUT) --seconds $(FUZZ_SMOKE_SECONDS) \
		--replay $(FUZZ_TARGETS)

fuzz-corpus: deps
	$(Q)$(MAKE) --no-print-directory fuzz-build
	$(Q)rm -rf tests/fuzz/corpus && mkdir -p tests/fuzz/corpus
	$(Q)$(FUZZ_OUT)/fuzz-seeds tests/fuzz/corpus

sanitize: deps
	$(Q)tools/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory OUTPUT=$(SAN_OUT) STATIC= CC="$(SAN_CC)" sanitize-bins
	$(Q)tests/fuzz/sanitize.sh --tool $(SAN_OUT)/hotspot-k \
		--unit-tests $(SAN_OUT)/unit-tests --out $(SAN_OUT)/run
