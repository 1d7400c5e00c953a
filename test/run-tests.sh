#!/bin/sh
# Runs the tests and ends with one line "N passed, N failed, N skipped" over
# all of them; exits non-zero if any failed.  Two tiers:
#   test/run-tests.sh          every check that runs natively on this
#                              machine, this CPU's Windows DLL under Wine
#                              among them (`make test`: under 10 minutes on
#                              2 cores with GMP built)
#   test/run-tests.sh --all    those, then the other build modes' libraries
#                              (build/mode-<mode> for each of
#                              JBIGI_CHECK_MODES, default system: make check
#                              builds them), and the ones that emulate or fetch: the jar on
#                              emulated CPUs and ARM under QEMU, the Debian
#                              packages (test/deb/run.sh), the jar on
#                              JDK 8 to 26, the host pieces of a release
#                              built twice in two trees (`make check`, which
#                              adds the sanitizers, valgrind and the fuzzer)
# Called by `make test` and `make check`, which pass the tools in the environment:
# JAVA, JAVAC, JUNIT_JAR, CC, CFLAGS, GMP_LIBS, and C_SOURCES (the Makefile's
# list of the library's sources).  How each outcome is counted: test/lib.sh.
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/.." || exit 1
. test/lib.sh
tier=native
case ${1:-} in
--all) tier=all ;;
"") ;;
*) echo "usage: $0 [--all]" >&2; exit 2 ;;
esac
out=build/test
mkdir -p "$out"
passed=0
failed=0
skipped=0

# ---- C tests: the layers below JNI, linked like the library ----
sources=$(c_sources_below_jni)
# The sources compiled once, then linked into each test.
if ! objects=$(compile_objects "$out/obj" "$CC" "$CFLAGS -Isrc" "$sources"); then
    echo "!! the library's sources did not compile for the C tests" >&2
    failed=$((failed + 1))
    failed_in "the C tests' objects"
fi
for t in $(c_tests); do
    # The engines' own tests run below, on the instructions or their model.
    case " $(engine_tests) " in *" $t "*) continue ;; esac
    # shellcheck disable=SC2046 # c_test_link_flags gives a list of flags
    if $CC $CFLAGS -Isrc -Itest/c -o "$out/$t" "test/c/$t.c" $objects $GMP_LIBS $(c_test_link_flags "$t") \
        >"$out/$t.build.log" 2>&1; then
        "$out/$t" >"$out/$t.log" 2>&1
        rc=$?
        cat "$out/$t.log"
        tally "$out/$t.log" "$t" "$rc"
    else
        cat "$out/$t.build.log"
        echo "!! $t did not compile" >&2
        failed=$((failed + 1))
    fi
done

# ---- the C benchmarks still build (built on the C tests' objects, never run) ----
OBJECTS="$objects" sh test/bench/check-build.sh >"$out/bench-build.log" 2>&1
rc=$?
cat "$out/bench-build.log"
tally "$out/bench-build.log" bench-build "$rc"

# ---- the hand-written assembly's call frame information: unwinding through it ----
sh test/unwind/check-cfi.sh lib/libjbigi.so >"$out/unwind.log" 2>&1
rc=$?
cat "$out/unwind.log"
tally "$out/unwind.log" check-cfi "$rc"

# ---- the JNI layer without a JVM: every native through a JNIEnv of the harness's own ----
sh test/jni/run.sh lib/libjbigi.so >"$out/jni-harness.log" 2>&1
rc=$?
grep -v '^ok ' "$out/jni-harness.log"
tally "$out/jni-harness.log" jni-harness "$rc"

# ---- musl (Alpine-based JVMs): every Linux library needs only libc.so.6, and the harness under musl's loader ----
# The native tier checks the host's library and jcpuid; the --all tier every
# Linux library in the dist jar too.  A dynamic build (GMP=system) needs the
# system's libgmp by design, which musl's loader does not find among
# glibc's: its musl run is skipped, counted.
needed_libraries=lib/libjbigi.so
[ -f build/jcpuid/libjcpuid-x86_64-linux.so ] && needed_libraries="$needed_libraries build/jcpuid/libjcpuid-x86_64-linux.so"
dynamic_gmp=0
case " ${GMP_LIBS:-} " in *" -lgmp "*) dynamic_gmp=1 ;; esac
needed_flags=
[ "$dynamic_gmp" -eq 1 ] && needed_flags=--allow-gmp
[ "$tier" = all ] && needed_flags="$needed_flags --jar build/jbigi.jar"
sh test/musl/needed.sh $needed_flags $needed_libraries >"$out/needed.log" 2>&1
rc=$?
cat "$out/needed.log"
tally "$out/needed.log" needed-libc-only "$rc"
if [ "$dynamic_gmp" -eq 1 ]; then
    printf '%s\n%s\n' "skip - the harness under musl: a dynamic build needs glibc's libgmp" "0 passed, 0 failed, 1 skipped" \
        >"$out/jni-musl.log"
    rc=0
else
    sh test/jni/run.sh --musl lib/libjbigi.so >"$out/jni-musl.log" 2>&1
    rc=$?
fi
grep -v '^ok ' "$out/jni-musl.log"
tally "$out/jni-musl.log" jni-harness-musl "$rc"

# ---- the layers: every include points down, no engine needs another ----
sh test/check-layers.sh >"$out/layers.log" 2>&1
rc=$?
cat "$out/layers.log"
tally "$out/layers.log" check-layers "$rc"

# ---- the engines: on this CPU's instructions, and on the model of them ----
sh test/check-engines.sh >"$out/engines.log" 2>&1
rc=$?
cat "$out/engines.log"
tally "$out/engines.log" check-engines "$rc"

# ---- JDKs 8, 11, 21, 25 and 26 from other Debian releases (fetched once into build/jdks/) ----
# For the Java-version lane below, and NativeAccessTest runs on JDK 25 or
# 26 (24 and later); a JDK that could not be fetched is skipped there,
# counted.  The native tier fetches nothing: it uses them if they are here.
if [ "$tier" = all ]; then
    sh test/jdks/fetch-jdks.sh >"$out/fetch-jdks.log" 2>&1 ||
        echo "# some JDKs could not be fetched: see $out/fetch-jdks.log"
fi
. test/jdks/jdk.sh
newer_java=$(jdk_java 25 || jdk_java 26)
# The dist jar (make check) carries a DLL for every x86-64 row where mingw-w64 built them.
windows_required=false
if [ "$tier" = all ] && command -v x86_64-w64-mingw32-gcc >/dev/null; then
    windows_required=true
fi

# ---- JUnit 5 tests, against lib/libjbigi.so ----
# -Xcheck:jni: the JVM checks every JNI call the library makes and prints a
# warning for any misuse; a warning counts as a failure.
# -Djbigi.soak=true: the million-call leak soak (about 20 s) runs too.
# -Djbigi.test.newJava: the JDK 24 or later NativeAccessTest runs the jar on.
junit_suite "$out" -Xcheck:jni -Djava.library.path=lib -Djbigi.test.jar=build/jbigi.jar -Djbigi.soak=true \
    -Djbigi.vectors=test/vectors/modpow-public.txt ${newer_java:+-Djbigi.test.newJava="$newer_java"} \
    -Djbigi.test.windows=$windows_required

# ---- flags CPUID reports hidden from /proc/cpuinfo: the build, the loader and the tests still follow CPUID ----
JAVA="$JAVA" JAVAC="$JAVAC" CC="$CC" sh test/cpu/hidden-cpuinfo.sh >"$out/hidden-cpuinfo.log" 2>&1
rc=$?
cat "$out/hidden-cpuinfo.log"
tally "$out/hidden-cpuinfo.log" hidden-cpuinfo "$rc"

# ---- jcpuid as I2P's loader uses it, and the jar that replaces I2P's ----
JBIGI_TEST_TIER=$tier JAVA="$JAVA" JAVAC="$JAVAC" sh test/jcpuid/run.sh >"$out/jcpuid.log" 2>&1
rc=$?
cat "$out/jcpuid.log"
tally "$out/jcpuid.log" jcpuid "$rc"

# ---- this CPU's Windows DLL under Wine (make check's tier runs every DLL and the C tests) ----
if [ "$tier" = native ]; then
    JAVA_HOME="${JAVA_HOME:-}" sh test/windows/run.sh --host >"$out/windows.log" 2>&1
    rc=$?
    cat "$out/windows.log"
    tally "$out/windows.log" windows-host "$rc"
fi

# ---- hardening: full RELRO, a non-executable stack, the stack protector, CET's endbr64; the DLLs' ASLR and DEP ----
# The native tier reads the host's library, jcpuid and this CPU's DLL (built
# just above); the --all tier every library in the dist jar too.
hardened=lib/libjbigi.so
[ -f build/jcpuid/libjcpuid-x86_64-linux.so ] && hardened="$hardened build/jcpuid/libjcpuid-x86_64-linux.so"
if [ "$tier" = all ]; then
    hardened="$hardened --jar build/jbigi.jar"
else
    host_dll=build/dist/jbigi-windows-$(./build.sh --host-variant 2>/dev/null | tail -n 1)_64.dll
    [ -f "$host_dll" ] && hardened="$hardened $host_dll"
fi
sh test/release/check-hardening.sh $hardened >"$out/hardening.log" 2>&1
rc=$?
cat "$out/hardening.log"
tally "$out/hardening.log" check-hardening "$rc"

# ---- every path the sources, docs and test scripts name exists ----
sh test/check-paths.sh >"$out/check-paths.log" 2>&1
rc=$?
cat "$out/check-paths.log"
tally "$out/check-paths.log" check-paths "$rc"

# ---- every section of doc/measurements.md a source points to exists ----
sh test/check-doc-pointers.sh >"$out/check-doc-pointers.log" 2>&1
rc=$?
grep -v '^ok ' "$out/check-doc-pointers.log"
tally "$out/check-doc-pointers.log" check-doc-pointers "$rc"

# ---- what runs before the CPU check: baseline x86-64 code under CFLAGS=-march=x86-64-v4 ----
sh test/baseline/check-baseline.sh >"$out/baseline.log" 2>&1
rc=$?
cat "$out/baseline.log"
tally "$out/baseline.log" check-baseline "$rc"

if [ "$tier" = all ]; then
    # ---- the jar on emulated CPUs (qemu-user): the right variant or a clean refusal, never SIGILL ----
    sh test/emulated/run.sh >"$out/emulated.log" 2>&1
    rc=$?
    cat "$out/emulated.log"
    tally "$out/emulated.log" emulated-cpus "$rc"

    # ---- the other build modes (GMP=system, ...), which make check builds beside lib/libjbigi.so ----
    for mode in ${JBIGI_CHECK_MODES-system}; do
        sh test/modes/run.sh "build/mode-$mode" >"$out/mode-$mode.log" 2>&1
        rc=$?
        grep -v '^ok ' "$out/mode-$mode.log"
        tally "$out/mode-$mode.log" "GMP=$mode mode" "$rc"
    done

    # ---- the Debian packages (make deb): unpacked, run on this CPU, an old one and ARM under QEMU; lintian ----
    JAVA="$JAVA" sh test/deb/run.sh >"$out/deb.log" 2>&1
    rc=$?
    cat "$out/deb.log"
    tally "$out/deb.log" debian-packages "$rc"

    # ---- ./build.sh i2p-jar: ours merged into a jar in I2P's layout ----
    JAVA="$JAVA" sh test/i2pjar/run.sh >"$out/i2pjar.log" 2>&1
    rc=$?
    cat "$out/i2pjar.log"
    tally "$out/i2pjar.log" i2p-jar "$rc"

    # ---- I2P's loader walking the merged jar: ours first wherever our engines run ----
    JAVA="$JAVA" JAVAC="$JAVAC" sh test/i2pjar/walk.sh >"$out/i2pjar-walk.log" 2>&1
    rc=$?
    cat "$out/i2pjar-walk.log"
    tally "$out/i2pjar-walk.log" i2p-jar-walk "$rc"

    # ---- the Windows DLLs under Wine: the C tests, the JNI harness, exports and imports ----
    JAVA_HOME="${JAVA_HOME:-}" sh test/windows/run.sh >"$out/windows.log" 2>&1
    rc=$?
    cat "$out/windows.log"
    tally "$out/windows.log" windows "$rc"

    # ---- the jar on every Java from 8 to 26 ----
    JAVA="$JAVA" JAVAC="$JAVAC" sh test/jdks/run.sh >"$out/jdks.log" 2>&1
    rc=$?
    cat "$out/jdks.log"
    tally "$out/jdks.log" jdks "$rc"

    # ---- reproducible: the host library, its jar and the dist's pieces for this CPU, built in two trees ----
    sh test/release/repro.sh >"$out/repro.log" 2>&1
    rc=$?
    cat "$out/repro.log"
    tally "$out/repro.log" reproducible "$rc"

fi

report_failures
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
