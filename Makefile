# jbigi - GMP-backed modPow/modInverse for Java, a drop-in libjbigi.so for I2P.
#
#   make                  lib/libjbigi.so + build/jbigi.jar, GMP built for this CPU (static)
#   make GMP=system       the same against the system libgmp.so (quick, not tuned)
#   make GMP=fat          the same against a portable --enable-fat GMP
#   make test             C and Java tests; ends with "N passed, N failed, N skipped"
#   make speedtest        java net.i2p.util.NativeBigInteger against the built library
#   make bench            benchmark vs BigInteger and raw GMP (BENCH_ARGS="--quick"); output in build/bench/
#   make check-native     C tests, then the JUnit suite against libjbigi.so, under ASan+UBSan; C tests under valgrind
#   make fuzz             libFuzzer on conversion and arithmetic, FUZZ_SECONDS (60) per target
#   make ct-check         timing-leak measurement of the constant-time paths (CT_ARGS="--measurements N")
#   make dist             build/jbigi.jar with every variant of src/variants.tsv (./build.sh dist)
#   make install I2P=dir  copy lib/libjbigi.so and GMP's licence texts into an I2P install directory
#   make header           regenerate include/jbigi.h after changing the natives
#   make clean

GMP ?= static
I2P ?=
VERSION := 5.0

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
CFLAGS ?= -O2
CFLAGS += -std=c11 -Wall -Wextra -Werror -fPIC -fvisibility=hidden
JNI_CFLAGS := -Iinclude -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux

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
  # The row of src/variants.tsv GMP was built for (build.sh writes it; fat runs anywhere).
  VARIANT = $(patsubst fat,none,$(strip $(shell cat $(GMP_PREFIX)/jbigi-variant 2>/dev/null)))
else
  $(error GMP must be static, system or fat, not '$(GMP)')
endif

JAVA_SOURCES := $(wildcard java/net/i2p/util/*.java)
C_SOURCES := src/jbigi.c src/fixedbase_jni.c src/jni_util.c src/convert.c src/arith.c src/version.c \
  src/wipe.c src/scratch.c src/fixedbase.c src/engine.c src/ifma_cpu.c src/ifma_selftest.c src/ifma_mont.c src/ifma_powm.c \
  src/small_powm.c src/cpu_check.c src/table_memory.c
C_HEADERS := $(wildcard src/*.h) include/jbigi.h
RESOURCE_NAME = libjbigi-linux-$(VARIANT)_64.so
# The CPU features a variant needs: column 7 on of its row in src/variants.tsv.
variant_features = $(strip $(shell awk -v cpu='$(1)' '!/^\#/ && $$1 == cpu { for (i = 7; i <= NF; i++) if ($$i != "-") printf "%s ", $$i }' src/variants.tsv))
GMP_LICENCES := COPYING COPYING.LESSERv3 COPYINGv2

.PHONY: all jar dist dist-lib dist-jar test speedtest bench ct-check check-native fuzz install header clean distclean check-header FORCE
.DELETE_ON_ERROR:

all: lib/libjbigi.so build/jbigi.jar

# ---- Java classes, and the check that include/jbigi.h matches them ----
build/classes.stamp: $(JAVA_SOURCES)
	@rm -rf build/classes build/generated-include
	@mkdir -p build/classes build/generated-include
	$(JAVAC) --release 8 -Xlint:all,-options -Werror -d build/classes -h build/generated-include $(JAVA_SOURCES)
	@touch $@

# The loader reads the variant table as a resource beside its classes.
build/classes/net/i2p/util/variants.tsv: src/variants.tsv build/classes.stamp
	cp src/variants.tsv $@

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

build/obj-$(GMP)/%.o: src/%.c $(C_HEADERS) $(GMP_DEPS) | check-header
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(JNI_CFLAGS) $(GMP_CFLAGS) -c $< -o $@

# The CPU check is told its variant by a generated header, rewritten only
# when the variant changes.  No -march: it must run on any CPU.
build/obj-$(GMP)/variant.h: FORCE $(GMP_DEPS)
	@test -n '$(VARIANT)' || { echo "$(GMP_PREFIX)/jbigi-variant missing: rebuild GMP with ./build.sh" >&2; exit 1; }
	@mkdir -p $(dir $@)
	@printf '#define JBIGI_VARIANT "%s"\n#define JBIGI_FEATURES "%s"\n' '$(VARIANT)' '$(call variant_features,$(VARIANT))' >$@.new
	@if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

build/obj-$(GMP)/cpu_check.o: src/cpu_check.c src/cpu_check.h build/obj-$(GMP)/variant.h
	$(CC) $(CFLAGS) -include build/obj-$(GMP)/variant.h -c $< -o $@

# The library is rebuilt whenever the GMP mode changes (the stamp names it).
build/gmp-mode-$(GMP).stamp:
	@mkdir -p build
	@rm -f build/gmp-mode-*.stamp
	@touch $@

lib/libjbigi.so: $(C_SOURCES:src/%.c=build/obj-$(GMP)/%.o) src/jbigi.map build/gmp-mode-$(GMP).stamp
	@mkdir -p lib
	$(CC) -shared -o $@ $(filter %.o,$^) $(GMP_LIBS) \
	  -Wl,--version-script=src/jbigi.map -Wl,-z,defs -Wl,-z,noexecstack -Wl,-O1 $(LDFLAGS)

# ---- the jar: classes, the library as an I2P-named resource, the speed test as Main-Class ----
jar: build/jbigi.jar

# META-INF/ gets GMP's licence texts (the libraries link GMP statically) and
# a manifest with the version and a module name.
build/jar-manifest: Makefile
	@mkdir -p build
	printf 'Implementation-Title: jbigi\nImplementation-Version: %s\nAutomatic-Module-Name: net.i2p.jbigi\n' '$(VERSION)' >$@

build/jbigi.jar: build/classes.stamp build/classes/net/i2p/util/variants.tsv lib/libjbigi.so build/jar-manifest
	@rm -rf build/jar-resources && mkdir -p build/jar-resources/META-INF
	cp lib/libjbigi.so build/jar-resources/$(RESOURCE_NAME)
	$(if $(GMP_DEPS),cp $(addprefix $(GMP_PREFIX)/,$(GMP_LICENCES)) build/jar-resources/META-INF/)
	$(JAR) --create --file $@ --main-class net.i2p.util.NativeBigInteger --manifest build/jar-manifest \
	  -C build/classes . -C build/jar-resources .
	@echo "build/jbigi.jar carries $(RESOURCE_NAME)"

# ---- the dist jar: every variant (./build.sh dist builds each GMP, then calls these) ----
dist:
	./build.sh dist

# make dist-lib VARIANT=<cpu>: build/dist/libjbigi-linux-<cpu>_64.so against build/gmp-6.2.1-<cpu>.
DIST_GMP = build/gmp-6.2.1-$(VARIANT)/install
DIST_OBJ = build/obj-dist-$(VARIANT)
DIST_CC = $(if $(filter aarch64,$(word 2,$(shell awk -v cpu='$(VARIANT)' '$$1 == cpu' src/variants.tsv))),$(if $(filter aarch64,$(shell uname -m)),$(CC),aarch64-linux-gnu-gcc),$(CC))
dist-lib: check-header
	@test -f $(DIST_GMP)/jbigi-config || { echo "no GMP build for '$(VARIANT)': ./build.sh --gmp-only $(VARIANT)" >&2; exit 1; }
	@mkdir -p $(DIST_OBJ) build/dist
	@printf '#define JBIGI_VARIANT "%s"\n#define JBIGI_FEATURES "%s"\n' '$(VARIANT)' '$(call variant_features,$(VARIANT))' >$(DIST_OBJ)/variant.h
	$(DIST_CC) $(CFLAGS) -include $(DIST_OBJ)/variant.h -c src/cpu_check.c -o $(DIST_OBJ)/cpu_check.o
	@for f in $(filter-out src/cpu_check.c,$(C_SOURCES)); do \
	  echo "$(DIST_CC) ... -c $$f"; \
	  $(DIST_CC) $(CFLAGS) $(JNI_CFLAGS) -I$(DIST_GMP)/include -DJBIGI_PRIVATE_GMP -c $$f -o $(DIST_OBJ)/$$(basename $$f .c).o || exit 1; \
	done
	$(DIST_CC) -shared -o build/dist/libjbigi-linux-$(VARIANT)_64.so $(C_SOURCES:src/%.c=$(DIST_OBJ)/%.o) $(DIST_GMP)/lib/libgmp.a \
	  -s -Wl,--exclude-libs,ALL -Wl,--version-script=src/jbigi.map -Wl,-z,defs -Wl,-z,noexecstack -Wl,-O1 $(LDFLAGS)

# make dist-jar DIST_VARIANTS="<cpu> ...": build/jbigi.jar from the libraries of dist-lib.
dist-jar: build/classes.stamp build/classes/net/i2p/util/variants.tsv build/jar-manifest
	@rm -rf build/jar-resources && mkdir -p build/jar-resources/META-INF
	cp $(foreach v,$(DIST_VARIANTS),build/dist/libjbigi-linux-$(v)_64.so) build/jar-resources/
	cp $(addprefix build/gmp-src-6.2.1/,$(GMP_LICENCES)) build/jar-resources/META-INF/
	$(JAR) --create --file build/jbigi.jar --main-class net.i2p.util.NativeBigInteger --manifest build/jar-manifest \
	  -C build/classes . -C build/jar-resources .
	@echo "build/jbigi.jar carries: $(DIST_VARIANTS)"

# ---- running ----
speedtest: lib/libjbigi.so build/jbigi.jar
	$(JAVA) -Djava.library.path=lib -cp build/jbigi.jar net.i2p.util.NativeBigInteger

test: lib/libjbigi.so build/jbigi.jar
	JAVA="$(JAVA)" JAVAC="$(JAVAC)" JUNIT_JAR="$(JUNIT_JAR)" CC="$(CC)" \
	  CFLAGS="$(CFLAGS) $(GMP_CFLAGS)" GMP_LIBS="$(GMP_LIBS)" C_SOURCES="$(C_SOURCES)" \
	  sh test/run-tests.sh

bench: lib/libjbigi.so build/classes.stamp
	JAVA="$(JAVA)" JAVAC="$(JAVAC)" CC="$(CC)" \
	  CFLAGS="$(CFLAGS) $(GMP_CFLAGS)" GMP_LIBS="$(GMP_LIBS)" \
	  sh test/bench/run-bench.sh $(BENCH_ARGS)

# The JUnit suite also runs against a sanitized libjbigi.so built from C_SOURCES.
check-native: $(GMP_DEPS) build/classes.stamp build/jbigi.jar
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
	rm -rf lib build/classes build/generated-include build/obj-* build/test* build/jar-resources \
	  build/jbigi.jar build/dist build/jar-manifest build/*.stamp build/bench build/ct build/fuzz build/check-native

# Also removes the GMP builds under build/ (minutes to redo).
distclean: clean
	rm -rf build lib
