# jbigi - GMP-backed modPow/modInverse for Java, a drop-in libjbigi.so for I2P.
#
#   make                  lib/libjbigi.so + build/jbigi.jar, GMP built for this CPU (static)
#   make GMP=system       the same against the system libgmp.so (quick, not tuned)
#   make GMP=fat          the same against a portable --enable-fat GMP
#   make test             every check that runs natively here (C, engines, JUnit, CPU view, jcpuid);
#                         about 10 minutes on 2 cores; ends with "N passed, N failed, N skipped"
#   make check            everything: the dist jar's variants, make test's checks, the dynamic
#                         mode (GMP=system: the JNI harness and JUnit; CHECK_MODES), emulated
#                         CPUs and ARM under QEMU, JDK 8-26, then check-native and a short fuzz (CI)
#   make speedtest        java net.i2p.util.NativeBigInteger against the built library
#   make bench            benchmark vs BigInteger and raw GMP (BENCH_ARGS="--quick"); output in build/bench/
#   make check-engines    every engine's tests: on this CPU's instructions, and on the portable model of them
#   make check-native     C tests, then the JUnit suite against libjbigi.so, under ASan+UBSan; C tests under valgrind
#   make fuzz             libFuzzer on conversion and arithmetic, FUZZ_SECONDS (60) per target
#   make ct-check         timing-leak measurement of the constant-time paths (CT_ARGS="--measurements N")
#   make deb              the Debian packages (jbigi-jni, amd64 arm64 armhf) in build/deb (DEB_OUT, DEB_ARCHES)
#   make dist             build/jbigi.jar with every variant of src/cpu/variants.tsv (./build.sh dist),
#                         and build/i2p/jbigi.jar (libraries only, to replace I2P's lib/jbigi.jar)
#   make release          build/release/: the versioned dist jar, the source tarball (GMP's source
#                         included), release notes, a buildinfo and SHA256SUMS (./build.sh release)
#   make install I2P=dir  copy lib/libjbigi.so and GMP's licence texts into an I2P install directory
#   make header           regenerate include/jbigi.h after changing the natives
#   make clean

GMP ?= static
I2P ?=
# Where the library, its jar and their stamps go: lib/libjbigi.so and
# build/jbigi.jar by default.  OUTPUT=DIR puts them in DIR (DIR/libjbigi.so,
# DIR/jbigi.jar), beside the default ones and without touching them: how
# make check builds and tests the other build modes (CHECK_MODES below).
OUTPUT ?=
LIBRARY := $(or $(OUTPUT),lib)/libjbigi.so
OUT_DIR := $(or $(OUTPUT),build)
JAR_FILE := $(OUT_DIR)/jbigi.jar
# The release version, in one file (the jbigi ABI version I2P reads is
# JBIGI_VERSION in src/jni/jbigi.c, and stays apart from it).
VERSION := $(shell cat VERSION)
# GMP's version, named once, in build.sh beside its pinned source.
GMP_VERSION := $(shell sed -n 's/^readonly GMP_VERSION=//p' build.sh)

# ---- tools and their Debian packages ----
JAVAC := $(shell command -v javac 2>/dev/null)
ifeq ($(JAVAC),)
$(error javac not found: apt-get install openjdk-17-jdk-headless)
endif
JAVA_HOME ?= $(patsubst %/bin/javac,%,$(realpath $(JAVAC)))
JAVA := $(JAVA_HOME)/bin/java
JAR := $(JAVA_HOME)/bin/jar
ifeq ($(wildcard $(JAVA_HOME)/include/jni.h),)
$(error jni.h not found under JAVA_HOME=$(JAVA_HOME): apt-get install openjdk-17-jdk-headless, or set JAVA_HOME to a JDK)
endif
ifeq ($(wildcard $(JAVA_HOME)/include/linux/jni_md.h),)
$(error jni_md.h not found under $(JAVA_HOME)/include/linux: set JAVA_HOME to a full JDK (apt-get install openjdk-17-jdk-headless))
endif
JUNIT_JAR ?= /usr/share/java/junit-platform-console-standalone.jar

CC ?= cc
# CFLAGS are the user's (optimisation, -march=native, ...); the flags the
# library needs to be correct come after them, so no CFLAGS can drop them.
CFLAGS ?= -O2
REQUIRED_CFLAGS := -std=c11 -fPIC -fvisibility=hidden
# WERROR=1 (CI and the tests) turns warnings into errors; a release build
# must not break on the next compiler's new warnings.
WERROR ?=
WARN_CFLAGS := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
JAVAC_WERROR := $(if $(filter 1,$(WERROR)),-Werror)
# Hardening, as distributions check it (lintian's hardening tags): a canary
# in every function with an array or an address-taken local, full RELRO
# with BIND_NOW, a non-executable stack, and on x86-64 CET's endbr64 and
# shadow-stack-ready code (src/platform/asm.h gives our assembly the same;
# the property note itself needs every object to carry it, and Debian 12's
# crti.o and GMP's assembly carry none).  __stack_chk_fail is in glibc
# 2.4 and musl alike.  _FORTIFY_SOURCE adds glibc-only __*_chk imports,
# which musl's loader refuses: off (-U, whatever CFLAGS or the compiler's
# defaults say) unless HARDEN_FORTIFY=<level> asks for it, as a package for
# glibc systems alone may (the jar's libraries must load under musl).
HARDEN_FORTIFY ?=
HARDEN_CFLAGS = -fstack-protector-strong -U_FORTIFY_SOURCE \
  $(if $(filter-out 0,$(HARDEN_FORTIFY)),-D_FORTIFY_SOURCE=$(HARDEN_FORTIFY))
# $(call harden_arch_cflags,ARCH): the flags that exist for that architecture only.
harden_arch_cflags = $(if $(filter x86_64,$(1)),-fcf-protection=full)
HARDEN_LDFLAGS := -Wl,-z,relro,-z,now -Wl,-z,noexecstack
LIB_CFLAGS = $(CFLAGS) $(REQUIRED_CFLAGS) $(HARDEN_CFLAGS) $(WARN_CFLAGS)
# What runs before the CPU is checked (BASELINE_SOURCES below, jcpuid.c) gets
# none of the user's CFLAGS: a -march=native there would defeat the check.
BASELINE_CFLAGS = -O2 $(REQUIRED_CFLAGS) $(HARDEN_CFLAGS) $(WARN_CFLAGS) -Isrc
JNI_CFLAGS := -Isrc -Iinclude -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux

# ---- architectures: the table's names, and the compiler for each on this machine ----
variant_arch = $(strip $(shell awk -v cpu='$(1)' '!/^\#/ && $$1 == cpu { print $$2 }' src/cpu/variants.tsv))
HOST_ARCH := $(patsubst armv7%,armhf,$(patsubst armv8l,armhf,$(shell uname -m)))
CROSS_CC_aarch64 := aarch64-linux-gnu-gcc
CROSS_CC_armhf := arm-linux-gnueabihf-gcc
CROSS_CC_x86_64 := x86_64-linux-gnu-gcc
# $(call arch_cc,ARCH): CC for this machine's architecture, the cross compiler for another.
arch_cc = $(if $(filter $(HOST_ARCH),$(1)),$(CC),$(CROSS_CC_$(1)))
# 64-bit JVMs ask for libjbigi-linux-<cpu>_64.so, 32-bit ones (armhf) for libjbigi-linux-<cpu>.so.
resource_name = libjbigi-linux-$(1)$(if $(filter armhf,$(call variant_arch,$(1))),,_64).so
# I2P's CPU identification library, for x86-64 JVMs.
JCPUID := libjcpuid-x86_64-linux.so
JCPUID_LIB := build/jcpuid/$(JCPUID)

# ---- which GMP ----
ifeq ($(GMP),system)
  GMP_CFLAGS :=
  GMP_LIBS := -lgmp
  GMP_DEPS :=
  VARIANT := none
  ifeq ($(wildcard /usr/include/gmp.h /usr/include/*/gmp.h),)
    $(error gmp.h not found: apt-get install libgmp-dev)
  endif
else ifneq ($(filter static fat,$(GMP)),)
  # build.sh builds GMP once under build/ and points this link at it.
  GMP_PREFIX := build/gmp-$(GMP)
  # JBIGI_PRIVATE_GMP: GMP is the library's own, so its memory functions may be replaced (wipe.h).
  GMP_CFLAGS := -I$(GMP_PREFIX)/include -DJBIGI_PRIVATE_GMP
  # --exclude-libs keeps GMP's symbols out of the dynamic symbol table.
  GMP_LIBS := $(GMP_PREFIX)/lib/libgmp.a -Wl,--exclude-libs,ALL
  GMP_DEPS := $(GMP_PREFIX)/lib/libgmp.a
  # The row of src/cpu/variants.tsv GMP was built for (build.sh writes it; fat runs anywhere).
  VARIANT = $(patsubst fat,none,$(strip $(shell cat $(GMP_PREFIX)/jbigi-variant 2>/dev/null)))
else
  $(error GMP must be static, system or fat, not '$(GMP)')
endif

JAVA_SOURCES := $(wildcard java/net/i2p/util/*.java)
# The library's sources, by layer (doc/architecture.md): the JNI entry
# points, the core (BigInteger semantics, tables, conversion, wiping), the
# engines (the interface's registry and drivers, then one folder each), the
# support helpers both of them use (wiped scratch, the limb inverse, the
# compiler barrier), the CPU check, the platform layer.
JNI_SOURCES := $(sort $(wildcard src/jni/*.c))
CORE_SOURCES := $(sort $(wildcard src/core/*.c))
SUPPORT_SOURCES := $(sort $(wildcard src/support/*.c))
# An engine's folder is picked up whole: adding one is its folder and its
# row in src/engines/registry.c.  ifma_none.c stands in for the IFMA engine
# on 32-bit targets only (LIMB32_OMITTED below).
ENGINE_SOURCES := $(filter-out src/engines/ifma/ifma_none.c,$(sort $(wildcard src/engines/*.c src/engines/*/*.c)))
# The CPU layer: the facts (read once) and the check over them.  Both run
# before the CPU check has passed, so both are baseline units (below).
CPU_SOURCES := src/cpu/cpu_facts.c src/cpu/cpu_check.c
PLATFORM_SOURCES := src/platform/table_memory.c src/platform/once.c src/platform/posix.c
C_SOURCES := $(JNI_SOURCES) $(CORE_SOURCES) $(ENGINE_SOURCES) $(SUPPORT_SOURCES) $(CPU_SOURCES) $(PLATFORM_SOURCES)
# The units that run before the CPU check has passed (JNI_OnLoad, jbigi_throw,
# the check): every library rule compiles them with BASELINE_CFLAGS, told
# their variant by variant.h, and test/baseline/check-baseline.sh checks them.
BASELINE_SOURCES := $(CPU_SOURCES) src/jni/onload.c
C_HEADERS := $(wildcard src/*/*.h src/*/*/*.h) include/jbigi.h
# 32-bit targets (armhf): GMP's limbs are 32 bits there, and the IFMA engine
# (x86-64 only) and the fixed-base tables are written for 64-bit limbs, so
# they are left out and ifma_none.c says the engine is never available; the
# Java side then runs FixedBase on BigInteger (FixedBase.nativesWork() is false).
# mpn_mont.c (any limb size) stays: the base-2 path on GMP's functions.
LIMB32_OMITTED := src/jni/fixedbase_jni.c src/core/fixedbase.c \
  $(filter-out src/engines/ifma/ifma_none.c,$(wildcard src/engines/ifma/*.c))
# $(call arch_sources,ARCH): the library's sources for that architecture.
arch_sources = $(if $(filter armhf,$(1)),$(filter-out $(LIMB32_OMITTED),$(C_SOURCES)) src/engines/ifma/ifma_none.c,$(C_SOURCES))
RESOURCE_NAME = $(call resource_name,$(VARIANT))
# The library is compiled for its variant's architecture (a cross compiler for
# another's), and each compiler and variant has its own objects.
LIB_ARCH := $(or $(call variant_arch,$(VARIANT)),$(HOST_ARCH))
LIB_CC := $(call arch_cc,$(LIB_ARCH))
OBJ := build/obj-$(GMP)-$(or $(VARIANT),host)-$(notdir $(LIB_CC))
# The CPU features a variant needs: column 7 on of its row in src/cpu/variants.tsv.
variant_features = $(strip $(shell awk -v cpu='$(1)' '!/^\#/ && $$1 == cpu { for (i = 7; i <= NF; i++) if ($$i != "-") printf "%s ", $$i }' src/cpu/variants.tsv))
GMP_LICENCES := COPYING COPYING.LESSERv3 COPYINGv2

.PHONY: all jar deb dist dist-lib dist-lib-windows dist-jar release release-files release-deb test check check-all-tiers check-sanitizers speedtest bench ct-check check-engines check-native fuzz install header clean distclean check-header FORCE
.DELETE_ON_ERROR:

all: $(LIBRARY) $(JAR_FILE)

# ---- Java classes, and the check that include/jbigi.h matches them ----
build/classes.stamp: $(JAVA_SOURCES)
	@rm -rf build/classes build/generated-include
	@mkdir -p build/classes build/generated-include
	$(JAVAC) --release 8 -Xlint:all,-options $(JAVAC_WERROR) -d build/classes -h build/generated-include $(JAVA_SOURCES)
	@touch $@

# The loader reads the variant table as a resource beside its classes.
build/classes/net/i2p/util/variants.tsv: src/cpu/variants.tsv build/classes.stamp
	cp src/cpu/variants.tsv $@

# include/jbigi.h is javac's headers of the classes with natives, one after the other.
build/generated-include/jbigi.h: build/classes.stamp
	cat build/generated-include/net_i2p_util_NativeBigInteger.h \
	  build/generated-include/net_i2p_util_FixedBase.h \
	  build/generated-include/net_i2p_util_Engine.h > $@

check-header: build/generated-include/jbigi.h
	@cmp -s $< include/jbigi.h || { \
	  echo "include/jbigi.h is stale: the natives in NativeBigInteger, FixedBase or Engine changed. Run 'make header' and commit include/jbigi.h." >&2; \
	  exit 1; }

header: build/generated-include/jbigi.h
	cp $< include/jbigi.h

# ---- the native library ----
$(GMP_PREFIX)/lib/libgmp.a:
	./build.sh --gmp-only $(GMP)

$(OBJ)/%.o: src/%.c $(C_HEADERS) $(GMP_DEPS) build/obj-flags.stamp | check-header
	@mkdir -p $(dir $@)
	@test -n '$(LIB_CC)' || { echo "no compiler for $(LIB_ARCH) here" >&2; exit 1; }
	$(LIB_CC) $(LIB_CFLAGS) $(call harden_arch_cflags,$(LIB_ARCH)) $(JNI_CFLAGS) $(GMP_CFLAGS) -c $< -o $@

# Objects are rebuilt when the flags change (make CFLAGS=-O3 after make).
build/obj-flags.stamp: FORCE
	@mkdir -p build
	@echo '$(LIB_CFLAGS) $(BASELINE_CFLAGS) $(call harden_arch_cflags,$(LIB_ARCH))' >$@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# The CPU check is told its variant (and onload.c the release, VERSION) by a
# generated header, rewritten only when they change.  No user CFLAGS, no -march: it must run on any CPU.
# $(call variant_header,CPU)
variant_header = printf '\#define JBIGI_VARIANT "%s"\n\#define JBIGI_RESOURCE "%s"\n\#define JBIGI_FEATURES "%s"\n\#define JBIGI_RELEASE "%s"\n' \
  '$(1)' '$(call resource_name,$(1))' '$(call variant_features,$(1))' '$(VERSION)'
$(OBJ)/variant.h: FORCE $(GMP_DEPS)
	@test -n '$(VARIANT)' || { echo "$(GMP_PREFIX)/jbigi-variant missing: rebuild GMP with ./build.sh" >&2; exit 1; }
	@mkdir -p $(dir $@)
	@$(call variant_header,$(VARIANT)) >$@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

$(patsubst src/%.c,$(OBJ)/%.o,$(BASELINE_SOURCES)): $(OBJ)/%.o: src/%.c $(C_HEADERS) $(GMP_DEPS) $(OBJ)/variant.h build/obj-flags.stamp
	@mkdir -p $(dir $@)
	$(LIB_CC) $(BASELINE_CFLAGS) $(call harden_arch_cflags,$(LIB_ARCH)) $(call cpu_check_arch_flags,$(LIB_ARCH)) $(JNI_CFLAGS) $(GMP_CFLAGS) -include $(OBJ)/variant.h -c $< -o $@

# On armhf the check also runs on an ARMv6 (Raspberry Pi Zero/1 with a 32-bit
# JVM), so it is ARM code for ARMv6 with VFP, not the compiler's Thumb-2 default.
cpu_check_arch_flags = $(if $(filter armhf,$(1)),-marm -march=armv6+fp)
# For the same reason an armhf library is linked without the C runtime's
# start files (crti.o, crtbeginS.o, crtendS.o): their init and fini code,
# which dlopen runs before JNI_OnLoad, is the compiler's Thumb-2, and an
# ARMv6 loading the library from java.library.path (Debian's armhf package
# installed on Raspberry Pi OS) would die of SIGILL there instead of being
# refused by the check.  The library has no constructors, destructors or
# atexit handlers that would need them.
override LDFLAGS += $(if $(filter armhf,$(LIB_ARCH)),-nostartfiles)

# ---- the CPU probe: this CPU as the library's own check sees it ----
# build.sh chooses the host's variant with it and the tests ask it what the
# CPU has (src/cpu/cpu_probe.c); built for the baseline, like the check.
build/cpu-probe: src/cpu/cpu_probe.c $(CPU_SOURCES) $(wildcard src/cpu/*.h)
	@mkdir -p build
	$(CC) $(BASELINE_CFLAGS) -Isrc -o $@ src/cpu/cpu_probe.c $(CPU_SOURCES)

# ---- jcpuid: I2P's CPU identification natives (x86-64 only) ----
JCPUID_CC := $(call arch_cc,x86_64)
$(JCPUID_LIB): src/cpu/jcpuid.c build/obj-flags.stamp
	@mkdir -p $(dir $@)
	$(JCPUID_CC) -shared $(BASELINE_CFLAGS) $(call harden_arch_cflags,x86_64) -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux -o $@ $< \
	  -s -Wl,-z,defs $(HARDEN_LDFLAGS) -Wl,-O1

# Relinked whenever the objects come from another directory than last time.
$(OUT_DIR)/lib-objects.stamp: FORCE
	@mkdir -p $(OUT_DIR)
	@echo '$(OBJ) $(LIB_CC)' >$@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# The library is rebuilt whenever the GMP mode changes (the stamp names it).
$(OUT_DIR)/gmp-mode-$(GMP).stamp:
	@mkdir -p $(OUT_DIR)
	@rm -f $(OUT_DIR)/gmp-mode-*.stamp
	@touch $@

$(LIBRARY): $(patsubst src/%.c,$(OBJ)/%.o,$(call arch_sources,$(LIB_ARCH))) src/jni/jbigi.map $(OUT_DIR)/gmp-mode-$(GMP).stamp $(OUT_DIR)/lib-objects.stamp
	@mkdir -p $(dir $@)
	$(LIB_CC) -shared -o $@ $(filter %.o,$^) $(GMP_LIBS) \
	  -Wl,--version-script=src/jni/jbigi.map -Wl,-z,defs $(HARDEN_LDFLAGS) -Wl,-O1 $(LDFLAGS)

# ---- the jar: classes, the library as an I2P-named resource, the speed test as Main-Class ----
jar: $(JAR_FILE)

# META-INF/ gets GMP's licence texts (the libraries link GMP statically) and
# a manifest with the version and a module name.  Enable-Native-Access: with
# java -jar, JDK 22 and later let the jar's code load libraries without the
# warning (and JDK 8 to 21 ignore the attribute).
build/jar-manifest: Makefile
	@mkdir -p build
	printf 'Implementation-Title: jbigi\nImplementation-Version: %s\nAutomatic-Module-Name: net.i2p.jbigi\nEnable-Native-Access: ALL-UNNAMED\n' '$(VERSION)' >$@

# x86-64 jars carry jcpuid as I2P's does.
HOST_JCPUID := $(if $(filter x86_64,$(LIB_ARCH)),$(JCPUID_LIB))

$(JAR_FILE): build/classes.stamp build/classes/net/i2p/util/variants.tsv $(LIBRARY) build/jar-manifest $(HOST_JCPUID)
	@rm -rf $(OUT_DIR)/jar-resources && mkdir -p $(OUT_DIR)/jar-resources/META-INF
	cp $(LIBRARY) $(OUT_DIR)/jar-resources/$(RESOURCE_NAME)
	$(if $(HOST_JCPUID),cp $(HOST_JCPUID) $(OUT_DIR)/jar-resources/)
	$(if $(GMP_DEPS),cp $(addprefix $(GMP_PREFIX)/,$(GMP_LICENCES)) $(OUT_DIR)/jar-resources/META-INF/)
	$(JAR) --create --file $@ --main-class net.i2p.util.NativeBigInteger --manifest build/jar-manifest \
	  -C build/classes . -C $(OUT_DIR)/jar-resources .
	$(NORMALIZE_JAR) $@
	@echo "$@ carries $(RESOURCE_NAME)"

# ---- the dist jar: every variant (./build.sh dist builds each GMP, then calls these) ----
dist:
	./build.sh dist

# make dist-lib VARIANT=<cpu>: build/dist/<resource name> against build/gmp-$(GMP_VERSION)-<cpu>.
DIST_GMP = build/gmp-$(GMP_VERSION)-$(VARIANT)/install
DIST_ARCH = $(call variant_arch,$(VARIANT))
DIST_CC = $(call arch_cc,$(DIST_ARCH))
DIST_OBJ = build/obj-dist-$(VARIANT)-$(notdir $(DIST_CC))
dist-lib: check-header
	@test -f $(DIST_GMP)/jbigi-config || { echo "no GMP build for '$(VARIANT)': ./build.sh --gmp-only $(VARIANT)" >&2; exit 1; }
	@test -n '$(DIST_CC)' || { echo "no compiler for $(DIST_ARCH) here" >&2; exit 1; }
	@rm -rf $(DIST_OBJ) && mkdir -p $(DIST_OBJ) build/dist
	@$(call variant_header,$(VARIANT)) >$(DIST_OBJ)/variant.h
	@for f in $(call arch_sources,$(DIST_ARCH)); do \
	  o=$(DIST_OBJ)/$${f#src/}; o=$${o%.c}.o; mkdir -p $$(dirname $$o); \
	  echo "$(DIST_CC) ... -c $$f"; \
	  case ' $(BASELINE_SOURCES) ' in \
	  *" $$f "*) $(DIST_CC) $(BASELINE_CFLAGS) $(call harden_arch_cflags,$(DIST_ARCH)) $(call cpu_check_arch_flags,$(DIST_ARCH)) -include $(DIST_OBJ)/variant.h \
	    $(JNI_CFLAGS) -I$(DIST_GMP)/include -DJBIGI_PRIVATE_GMP -c $$f -o $$o || exit 1;; \
	  *) $(DIST_CC) $(LIB_CFLAGS) $(call harden_arch_cflags,$(DIST_ARCH)) $(JNI_CFLAGS) -I$(DIST_GMP)/include -DJBIGI_PRIVATE_GMP -c $$f -o $$o || exit 1;; \
	  esac; \
	done
	$(DIST_CC) -shared -o build/dist/$(call resource_name,$(VARIANT)) $(patsubst src/%.c,$(DIST_OBJ)/%.o,$(call arch_sources,$(DIST_ARCH))) $(DIST_GMP)/lib/libgmp.a \
	  -s -Wl,--exclude-libs,ALL -Wl,--version-script=src/jni/jbigi.map -Wl,-z,defs $(HARDEN_LDFLAGS) -Wl,-O1 $(LDFLAGS)

# ---- Windows x86-64: DLLs under I2P's names, cross-built with mingw-w64 ----
# make dist-lib-windows VARIANT=<cpu>: build/dist/jbigi-windows-<cpu>_64.dll
# against build/gmp-$(GMP_VERSION)-windows-<cpu> (./build.sh --gmp-only windows-<cpu>),
# every engine and the CPU check as on Linux; the platform layer is
# windows.c.  Static: no DLL but the system's (no libgcc, no winpthread).
MINGW := x86_64-w64-mingw32
WIN_CC := $(MINGW)-gcc
win_resource_name = jbigi-windows-$(1)_64.dll
WIN_SOURCES := $(filter-out src/platform/posix.c,$(C_SOURCES)) src/platform/windows.c
# Windows keeps the stack 16-byte aligned only, and gcc spills 32- and
# 64-byte vectors there with aligned moves: the assembler makes every
# vector move an unaligned one, the same speed on aligned data.
WIN_REQUIRED_CFLAGS := -std=c11 -Wa,-muse-unaligned-vector-move -Isrc
WIN_JNI_CFLAGS = -Iinclude/win32 -Iinclude -I$(JAVA_HOME)/include
# Hardening: the stack canary comes from gcc's libssp, linked in (-static:
# no libssp-0.dll), which seeds it at load through advapi32.dll, a system
# DLL; no _FORTIFY_SOURCE (mingw-w64 routes it through libssp too, for
# little: the library's C calls few string functions).  ASLR with 64-bit
# entropy and DEP: mingw-w64's ld sets them by default since binutils
# 2.36, named here so that an older ld sets them too.
WIN_HARDEN_CFLAGS := -fstack-protector-strong -U_FORTIFY_SOURCE
WIN_LIB_CFLAGS = $(CFLAGS) $(WIN_REQUIRED_CFLAGS) $(WIN_HARDEN_CFLAGS) $(WARN_CFLAGS) $(WIN_JNI_CFLAGS)
WIN_BASELINE_CFLAGS = -O2 $(WIN_REQUIRED_CFLAGS) $(WIN_HARDEN_CFLAGS) $(WARN_CFLAGS)
WIN_LDFLAGS := -shared -static -static-libgcc -fstack-protector-strong -s -Wl,--exclude-libs,ALL \
  -Wl,--dynamicbase -Wl,--nxcompat -Wl,--high-entropy-va
WIN_GMP = build/gmp-$(GMP_VERSION)-windows-$(VARIANT)/install
WIN_OBJ = build/obj-windows-$(VARIANT)
WIN_JCPUID := build/jcpuid/jcpuid-x86_64-windows.dll
win_variant_header = printf '\#define JBIGI_VARIANT "%s"\n\#define JBIGI_RESOURCE "%s"\n\#define JBIGI_FEATURES "%s"\n\#define JBIGI_RELEASE "%s"\n' \
  '$(1)' '$(call win_resource_name,$(1))' '$(call variant_features,$(1))' '$(VERSION)'

dist-lib-windows: check-header
	@test -f $(WIN_GMP)/jbigi-config || { echo "no Windows GMP for '$(VARIANT)': ./build.sh --gmp-only windows-$(VARIANT)" >&2; exit 1; }
	@test '$(call variant_arch,$(VARIANT))' = x86_64 || { echo "'$(VARIANT)' is not an x86-64 row" >&2; exit 1; }
	@rm -rf $(WIN_OBJ) && mkdir -p $(WIN_OBJ)/cpu build/dist
	@$(call win_variant_header,$(VARIANT)) >$(WIN_OBJ)/variant.h
	@for f in $(WIN_SOURCES); do \
	  o=$(WIN_OBJ)/$${f#src/}; o=$${o%.c}.o; mkdir -p $$(dirname $$o); \
	  echo "$(WIN_CC) ... -c $$f"; \
	  case ' $(BASELINE_SOURCES) ' in \
	  *" $$f "*) $(WIN_CC) $(WIN_BASELINE_CFLAGS) $(WIN_JNI_CFLAGS) -include $(WIN_OBJ)/variant.h \
	    -I$(WIN_GMP)/include -DJBIGI_PRIVATE_GMP -c $$f -o $$o || exit 1;; \
	  *) $(WIN_CC) $(WIN_LIB_CFLAGS) -I$(WIN_GMP)/include -DJBIGI_PRIVATE_GMP -c $$f -o $$o || exit 1;; \
	  esac; \
	done
	$(WIN_CC) -o build/dist/$(call win_resource_name,$(VARIANT)) $(patsubst src/%.c,$(WIN_OBJ)/%.o,$(WIN_SOURCES)) \
	  $(WIN_GMP)/lib/libgmp.a $(WIN_LDFLAGS)

$(WIN_JCPUID): src/cpu/jcpuid.c build/obj-flags.stamp
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_BASELINE_CFLAGS) -Iinclude/win32 -I$(JAVA_HOME)/include -o $@ $< $(WIN_LDFLAGS)

# make dist-jar DIST_VARIANTS="<cpu> ..." DIST_WINDOWS_VARIANTS="<cpu> ...":
# build/jbigi.jar from the libraries of dist-lib and dist-lib-windows, and
# build/i2p/jbigi.jar, the same libraries without the classes: what I2P's own
# lib/jbigi.jar holds, so that replacing it never puts a second
# net.i2p.util.NativeBigInteger on the router's class path.
DIST_WINDOWS_VARIANTS ?=
DIST_JCPUID = $(if $(filter x86_64,$(foreach v,$(DIST_VARIANTS),$(call variant_arch,$(v)))),$(JCPUID_LIB)) \
  $(if $(strip $(DIST_WINDOWS_VARIANTS)),$(WIN_JCPUID))
dist-jar: build/classes.stamp build/classes/net/i2p/util/variants.tsv build/jar-manifest
	$(if $(strip $(DIST_JCPUID)),$(MAKE) --no-print-directory $(DIST_JCPUID))
	@rm -rf build/jar-resources build/i2p && mkdir -p build/jar-resources/META-INF build/i2p
	cp $(foreach v,$(DIST_VARIANTS),build/dist/$(call resource_name,$(v))) \
	  $(foreach v,$(DIST_WINDOWS_VARIANTS),build/dist/$(call win_resource_name,$(v))) $(DIST_JCPUID) build/jar-resources/
	cp $(addprefix build/gmp-src-$(GMP_VERSION)/,$(GMP_LICENCES)) build/jar-resources/META-INF/
	$(JAR) --create --file build/i2p/jbigi.jar --manifest build/jar-manifest -C build/jar-resources .
	$(JAR) --create --file build/jbigi.jar --main-class net.i2p.util.NativeBigInteger --manifest build/jar-manifest \
	  -C build/classes . -C build/jar-resources .
	$(NORMALIZE_JAR) build/i2p/jbigi.jar build/jbigi.jar
	@echo "build/jbigi.jar carries: $(DIST_VARIANTS)$(if $(strip $(DIST_WINDOWS_VARIANTS)), Windows: $(DIST_WINDOWS_VARIANTS))$(if $(strip $(DIST_JCPUID)), and jcpuid); build/i2p/jbigi.jar the same without classes"

# ---- the Debian packages (debian/): jbigi-jni for each of DEB_ARCHES into DEB_OUT ----
# make deb: the source package and the binary packages, built the Debian way
# (dpkg-buildpackage, cross-built for another architecture than this
# machine's) from this tree and the GMP source build.sh verified.
# DEB_GMP_CACHE=build lets each package build reuse this tree's GMP build of
# the same configuration (build/gmp-<version>-fat, -armv8, -armv7) instead of
# building GMP from the package's source again; the tests do.
DEB_OUT ?= build/deb
DEB_ARCHES ?= amd64 arm64 armhf
DEB_GMP_CACHE ?=
deb:
	JBIGI_GMP_CACHE='$(if $(DEB_GMP_CACHE),$(abspath $(DEB_GMP_CACHE)))' sh debian/build-packages.sh $(DEB_OUT) $(DEB_ARCHES)

# debian/rules adds the package's own compiler flags (_FORTIFY_SOURCE) this way.
JBIGI_EXTRA_CFLAGS ?=
override CFLAGS += $(JBIGI_EXTRA_CFLAGS)

# ---- running ----
speedtest: lib/libjbigi.so build/jbigi.jar build/cpu-probe
	$(JAVA) -Djava.library.path=lib -cp build/jbigi.jar net.i2p.util.NativeBigInteger

TEST_ENV = JAVA="$(JAVA)" JAVAC="$(JAVAC)" JUNIT_JAR="$(JUNIT_JAR)" CC="$(CC)" JBIGI_GMP_MODE="$(GMP)" \
  CFLAGS="$(CFLAGS) $(REQUIRED_CFLAGS) -Wall -Wextra -Werror $(GMP_CFLAGS)" GMP_LIBS="$(GMP_LIBS)" C_SOURCES="$(C_SOURCES)"

test: lib/libjbigi.so build/jbigi.jar build/cpu-probe
	$(TEST_ENV) sh test/run-tests.sh

# Everything: the dist jar (every variant; GMP builds cached under build/),
# then two halves side by side: make test's checks with the emulated and
# fetched ones (check-all-tiers), and the sanitizers, valgrind and a short
# fuzz (check-sanitizers).  Each half runs one process at a time for most of
# its length, so on 2 cores the pair takes little more than the longer one.
# Each half's output appears in one block when it ends, and each ends with
# its own "N passed, N failed, N skipped".
# Before them, each build mode of CHECK_MODES is built into
# build/mode-<mode>/, beside lib/libjbigi.so, for check-all-tiers to test
# too: the dynamic one by default (CHECK_MODES="system fat" adds the fat
# one, at the cost of one more GMP build, about 3 minutes on 2 cores).
CHECK_FUZZ_SECONDS ?= 20
CHECK_MODES ?= system
check: lib/libjbigi.so build/cpu-probe
	./build.sh dist
	$(MAKE) --no-print-directory build/classes.stamp build/jbigi.jar $(GMP_DEPS)
	$(foreach m,$(CHECK_MODES),$(MAKE) --no-print-directory -j2 GMP=$(m) OUTPUT=build/mode-$(m) all &&) true
	$(MAKE) --no-print-directory -j2 --output-sync=target check-all-tiers check-sanitizers

check-all-tiers:
	$(TEST_ENV) JBIGI_CHECK_MODES="$(CHECK_MODES)" sh test/run-tests.sh --all

check-sanitizers:
	$(MAKE) --no-print-directory check-native
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS)

# Every engine's differential tests: on this CPU's instructions where it has
# them, on the portable model of the instructions everywhere (0 skipped).
check-engines: $(GMP_DEPS)
	CC="$(CC)" CFLAGS="$(CFLAGS) $(REQUIRED_CFLAGS) -Wall -Wextra -Werror $(GMP_CFLAGS)" GMP_LIBS="$(GMP_LIBS)" \
	  C_SOURCES="$(C_SOURCES)" sh test/check-engines.sh

bench: lib/libjbigi.so build/classes.stamp
	JAVA="$(JAVA)" JAVAC="$(JAVAC)" CC="$(CC)" \
	  CFLAGS="$(LIB_CFLAGS) $(GMP_CFLAGS)" GMP_LIBS="$(GMP_LIBS)" JNI_CFLAGS="$(JNI_CFLAGS)" \
	  sh test/bench/run-bench.sh $(BENCH_ARGS)

# The JUnit suite also runs against a sanitized libjbigi.so built from C_SOURCES.
check-native: $(GMP_DEPS) build/classes.stamp build/jbigi.jar build/cpu-probe
	CLANG=clang GMP_CFLAGS="$(GMP_CFLAGS)" GMP_LIBS="$(GMP_LIBS)" JAVA_HOME="$(JAVA_HOME)" \
	  JAVA="$(JAVA)" JAVAC="$(JAVAC)" JUNIT_JAR="$(JUNIT_JAR)" C_SOURCES="$(C_SOURCES)" \
	  sh test/check-native.sh

FUZZ_SECONDS ?= 60
fuzz: $(GMP_DEPS)
	CLANG=clang GMP_CFLAGS="$(GMP_CFLAGS)" GMP_LIBS="$(GMP_LIBS)" C_SOURCES="$(C_SOURCES)" \
	  sh test/fuzz/run-fuzz.sh $(FUZZ_SECONDS)

# A measurement, not a test: Welch's t over interleaved timings of two exponent classes.
CT_ARGS ?=
ct-check: lib/libjbigi.so build/classes.stamp
	JAVA="$(JAVA)" JAVAC="$(JAVAC)" sh test/ct/run-ct-check.sh $(CT_ARGS)

install: lib/libjbigi.so
ifeq ($(I2P),)
	@echo "lib/libjbigi.so is built. To use it in I2P: make install I2P=/path/to/i2p"
	@echo "(the directory holding the router's jars and wrapper.config; then restart the router)."
	@echo "Any other Java program: put lib/ on -Djava.library.path, or build/jbigi.jar on the classpath."
else
	@test -d "$(I2P)" || { echo "I2P=$(I2P) is not a directory" >&2; exit 1; }
	cp lib/libjbigi.so "$(I2P)/libjbigi.so"
	$(if $(GMP_DEPS),for f in $(GMP_LICENCES); do cp $(GMP_PREFIX)/$$f "$(I2P)/libjbigi.so.GMP-$$f"; done)
	@echo "Installed $(I2P)/libjbigi.so$(if $(GMP_DEPS), with GMP's licence texts beside it (libjbigi.so.GMP-COPYING*)). Restart the I2P router to use it."
endif

clean:
	rm -rf lib build/classes build/generated-include build/obj-* build/test* build/jar-resources build/jcpuid build/i2p \
	  build/jbigi.jar build/dist build/jar-manifest build/*.stamp build/bench build/ct build/fuzz build/check-native \
	  build/mode-*

# Also removes the GMP builds under build/ (minutes to redo).
distclean: clean
	rm -rf build lib

# ---- releases: reproducible builds, and build/release/ ----
# Every build reads SOURCE_DATE_EPOCH: the time of the last commit, or in a
# release's source tarball (no git) the one its file SOURCE_DATE_EPOCH
# records; one set in the environment wins (as dpkg-buildpackage sets it).
ifndef SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH := $(shell cat SOURCE_DATE_EPOCH 2>/dev/null || git log -1 --format=%ct 2>/dev/null)
endif
ifneq ($(SOURCE_DATE_EPOCH),)
export SOURCE_DATE_EPOCH
endif
# The build directory mapped out of the binaries (__FILE__, debug info).
REPRO_CFLAGS := -ffile-prefix-map=$(CURDIR)=.
LIB_CFLAGS += $(REPRO_CFLAGS)
BASELINE_CFLAGS += $(REPRO_CFLAGS)
WIN_LIB_CFLAGS += $(REPRO_CFLAGS)
WIN_BASELINE_CFLAGS += $(REPRO_CFLAGS)
# The DLLs: no link time stamp, no image base derived from the output's path.
WIN_LDFLAGS += -Wl,--no-insert-timestamp -Wl,--disable-auto-image-base
# A jar's entries sorted (the manifest first) and all of one time,
# SOURCE_DATE_EPOCH: JDK 17's jar has no --date.  Debian's package
# strip-nondeterminism; without it (or without a SOURCE_DATE_EPOCH) the jar
# is left as jar wrote it, and make release refuses to run.
STRIP_NONDETERMINISM := $(shell command -v strip-nondeterminism 2>/dev/null)
NORMALIZE_JAR = $(if $(and $(STRIP_NONDETERMINISM),$(SOURCE_DATE_EPOCH)),TZ=UTC $(STRIP_NONDETERMINISM) --type jar \
  --timestamp $(SOURCE_DATE_EPOCH),: not normalised, no strip-nondeterminism or SOURCE_DATE_EPOCH:)

# make release: build/release/ holds jbigi-<version>.jar (the dist jar,
# every row of src/cpu/variants.tsv; no host detection), the Debian
# packages (release-deb), jbigi-<version>-src.tar.gz (this source, its
# SOURCE_DATE_EPOCH and Debian's GMP source package), the release notes from
# CHANGELOG.md, jbigi-<version>.buildinfo (the toolchain) and SHA256SUMS.
# GMP builds under build/ are reused; ./build.sh release builds the missing.
release:
	./build.sh release

# What ./build.sh release runs once every library is built.
RELEASE_ENV = VERSION="$(VERSION)" JAVAC="$(JAVAC)" JAR="$(JAR)" CC="$(CC)"
release-files:
	@test -n '$(STRIP_NONDETERMINISM)' || { echo "make release needs strip-nondeterminism: apt-get install strip-nondeterminism" >&2; exit 1; }
	@test -n '$(SOURCE_DATE_EPOCH)' || { echo "no SOURCE_DATE_EPOCH: neither git nor a file SOURCE_DATE_EPOCH says when the source was last changed" >&2; exit 1; }
	$(RELEASE_ENV) sh src/release/assemble.sh files
	$(MAKE) --no-print-directory release-deb
	$(RELEASE_ENV) sh src/release/assemble.sh finish

# The Debian packages into build/release/; release-files runs it between the
# files and SHA256SUMS.  make deb writes into build/release-deb/, and the
# release takes the binary packages and the source package (.dsc, .tar.xz).
# dpkg's own .buildinfo and .changes stay behind: they record when the
# package was built (Build-Date), so no two builds give the same bytes;
# jbigi-<version>.buildinfo records the toolchain instead.
release-deb:
	$(if $(wildcard debian/rules),rm -rf build/release-deb && $(MAKE) --no-print-directory deb DEB_OUT=build/release-deb && \
	  cp build/release-deb/*.deb build/release-deb/*.dsc build/release-deb/*.tar.xz build/release/,@echo "release-deb: no debian/ here: no Debian packages")
