#!/bin/sh
# Memory and undefined-behaviour checks of the C shim.  Called by
# `make check-native`; ends with one line "N passed, N failed, N skipped"
# and exits non-zero on any failure.
#
#  1. asan:     the library's sources (the Makefile's C_SOURCES), compiled
#               once with clang's AddressSanitizer + UndefinedBehaviorSanitizer,
#               and every C test (test/c/test_*.c) linked with them (but the
#               JNI layer) and run, leak checking included; any report stops
#               the test and fails it.  Where the CPU has no AVX-512 IFMA the
#               sources are built on the portable model of its instructions
#               (test/model/), so the IFMA engine runs under the sanitizers
#               everywhere (its own tests then at JBIGI_ASAN_MODEL_SCALE
#               percent, default 10: check-engines runs them in full).
#  2. jni:      libjbigi.so itself, linked from the same objects, and the whole JUnit
#               suite run against it (from java.library.path, and from a
#               copy of the jar carrying it) in a JVM with clang's ASan
#               runtime preloaded.  Leak checking is off (the JVM's own
#               memory is not ours) and ASan leaves SIGSEGV to the JVM,
#               which uses it itself.  Reports go to files, from the test
#               JVM and every JVM it starts; any report fails the phase.
#               The leak soak does not run here (it is `make test`'s).
#  3. valgrind: the C tests built without sanitizers, run under memcheck;
#               any error or definite/indirect leak fails.  Memcheck is slow,
#               so the tests run JBIGI_VALGRIND_SCALE percent (default 10) of
#               their random cases through JBIGI_TEST_SCALE.  Valgrind cannot
#               run AVX-512: the sources are built on the portable model of
#               the instructions, so the IFMA engine's code runs here too.
#
# Environment: CLANG (default clang), GMP_CFLAGS, GMP_LIBS (default -lgmp),
# C_SOURCES (default: asked of the Makefile), JAVA_HOME (default: the JDK
# of javac), JAVA, JAVAC (default: JAVA_HOME's), JUNIT_JAR (default
# Debian's junit5 jar), JBIGI_TEST_SEED (default: the time; printed, and
# used by every phase, so a failure replays), JBIGI_CHECK_PHASES (default
# "asan jni valgrind": the phases to run).  Phase 2 needs build/classes and
# build/jbigi.jar, which `make check-native` builds first.
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/.." || exit 1
. test/lib.sh

CLANG=${CLANG:-clang}
GMP_CFLAGS=${GMP_CFLAGS:-}
GMP_LIBS=${GMP_LIBS:--lgmp}
if [ -z "${JAVA_HOME:-}" ] && command -v javac >/dev/null 2>&1; then
    JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
fi
JAVA=${JAVA:-${JAVA_HOME:-}/bin/java}
JAVAC=${JAVAC:-${JAVA_HOME:-}/bin/javac}
JUNIT_JAR=${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}
JBIGI_TEST_SEED=${JBIGI_TEST_SEED:-$(date +%s)}
export JBIGI_TEST_SEED
phases=${JBIGI_CHECK_PHASES:-asan jni valgrind}
echo "# check-native: seed $JBIGI_TEST_SEED, GMP: ${GMP_CFLAGS:+$GMP_CFLAGS }$GMP_LIBS, phases: $phases"

out=build/check-native
mkdir -p "$out/asan" "$out/plain"
passed=0
failed=0
skipped=0

phase() {
    case " $phases " in *" $1 "*) return 0 ;; esac
    echo "# phase $1 not run (JBIGI_CHECK_PHASES=$phases)"
    return 1
}

# Like tally (test/lib.sh), and a sanitizer or valgrind report in the log
# counts as one more failure, whether or not a result line follows
# (LeakSanitizer ends the process before stdout is flushed).
san_tally() { # log name exit-code
    if grep -q -E '^==[0-9]+==|runtime error:|Sanitizer' "$1"; then
        echo "!! $2: sanitizer or valgrind report above" >&2
        failed=$((failed + 1))
        if read_result "$1"; then
            passed=$((passed + res_passed))
            failed=$((failed + res_failed))
            skipped=$((skipped + res_skipped))
        fi
        return
    fi
    tally "$1" "$2" "$3"
}

# The release mark a library of this tree carries (src/jni/onload.c), which
# the loader compares (LibraryRelease): the sanitized library stands in the
# jar for the host's, so it carries the same.
release_mark="-DJBIGI_RELEASE=\"$(cat VERSION)\""
warn="-std=c11 -Wall -Wextra -Werror"
# -Wno-pass-failed: at -O1 clang cannot honour the unrolling the IFMA engine
# asks for (a hint for speed, nothing to do with correctness).
san="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -Wno-pass-failed $release_mark"
# valgrind 3.19 cannot read the DWARF 5 that clang 14 writes by default.
plain="-g -gdwarf-4 -O1 -Wno-pass-failed"
# The library's sources as the Makefile lists them, and every C test: a new
# one is checked without an edit here.
sources=$(c_sources_below_jni)
tests=$(c_tests)
echo "# sources (C tests): $sources"
echo "# tests: $tests"

# A test that makes GMP run out of memory under jbigi_run_guarded (test_oom)
# abandons what GMP had allocated for the interrupted call, as wipe.h says.
# For such tests, and only them, leaks of blocks allocated under the guard
# are suppressed; any other leak and every memory error still fails.  The
# slow unwinder lets LeakSanitizer see the guard's frame through GMP's
# frame-pointer-less code.
guarded() {
    grep -q 'jbigi_run_guarded *(' "test/c/$1.c"
}
echo "leak:jbigi_run_guarded" >"$out/lsan-guarded.supp"
cat >"$out/valgrind-guarded.supp" <<'EOF2'
{
   gmp-memory-abandoned-by-jbigi_run_guarded
   Memcheck:Leak
   match-leak-kinds: definite,indirect
   ...
   fun:jbigi_run_guarded
}
EOF2

# The IFMA engine on the model of its instructions (-DJBIGI_IFMA_MODEL): in
# the valgrind phase always, under the sanitizers where the CPU lacks them.
model="-DJBIGI_IFMA_MODEL -Itest/model"
asan_model=$(ifma_model_unless_cpu "$CLANG" "$out") || {
    echo "!! test/c/test_avx512_model.c did not compile: cannot tell whether this CPU has AVX-512 IFMA" >&2
    failed=$((failed + 1))
}
if [ -z "$asan_model" ]; then
    echo "# this CPU has AVX-512 IFMA: the sanitizer phases run the engine on its instructions"
else
    echo "# no AVX-512 IFMA here: the sanitizer phases run the engine on the model of its instructions"
fi
# The tests whose large moduli go to the engine when it runs, else to GMP.
gmp_paths() {
    case $1 in test_arith | test_fixedbase) return 0 ;; *) return 1 ;; esac
}

jni_includes="-Iinclude -I${JAVA_HOME:-}/include -I${JAVA_HOME:-}/include/linux"

# Compiles every source of the library once per phase ($1) with flags $2
# into $out/$1/obj/, position-independent so that the JNI phase links
# libjbigi.so from the same objects; 0 when the objects are there.  The C
# tests link those but the JNI layer's (lib_objects, test_objects).
objects_built=
build_objects() {
    case " $objects_built " in *" $1 "*) return 0 ;; esac
    mkdir -p "$out/$1/obj"
    rm -f "$out/$1/obj/"*.o
    # The JNI layer's files only with a JDK: the C tests do without them.
    if [ -r "${JAVA_HOME:-}/include/jni.h" ]; then all=$(c_sources); else all=$sources; fi
    for src in $all; do
        obj=$out/$1/obj/$(basename "$src" .c).o
        if ! $CLANG $warn $2 -fPIC -fvisibility=hidden $jni_includes $GMP_CFLAGS -Isrc -c -o "$obj" "$src" \
            >"$obj.log" 2>&1; then
            cat "$obj.log"
            echo "!! $1: $src did not compile" >&2
            return 1
        fi
    done
    objects_built="$objects_built $1"
}

# The objects of phase $1: all of them (the library), or those below JNI (the C tests).
lib_objects() {
    for src in $(c_sources); do printf '%s ' "$out/$1/obj/$(basename "$src" .c).o"; done
}
test_objects() {
    for src in $sources; do printf '%s ' "$out/$1/obj/$(basename "$src" .c).o"; done
}

# Builds test $2 into $out/$1/ with flags $3, linked with the sources'
# objects for that phase; on failure prints why.
build() {
    if ! build_objects "$1" "$3"; then
        failed=$((failed + 1))
        return 1
    fi
    # shellcheck disable=SC2046 # c_test_link_flags gives a list of flags
    if $CLANG $warn $3 $GMP_CFLAGS -Isrc -Itest/c -Itest/model -o "$out/$1/$2" "test/c/$2.c" $(test_objects "$1") \
        $GMP_LIBS $(c_test_link_flags "$2") >"$out/$1/$2.build.log" 2>&1; then
        return 0
    fi
    cat "$out/$1/$2.build.log"
    echo "!! $1: $2 did not compile" >&2
    failed=$((failed + 1))
    return 1
}

# ---- 1. AddressSanitizer + UndefinedBehaviorSanitizer: the C tests ----
if phase asan; then
    for t in $tests; do
        echo "## asan: $t"
        build asan "$t" "$san $asan_model" || continue
        asan=detect_leaks=1:halt_on_error=1
        lsan=
        if guarded "$t"; then
            echo "# leaks under jbigi_run_guarded suppressed (GMP's memory, abandoned on purpose)"
            asan=$asan:fast_unwind_on_malloc=0:malloc_context_size=64
            lsan=suppressions=$out/lsan-guarded.supp
        fi
        # On the model, the engine's tests at JBIGI_ASAN_MODEL_SCALE percent
        # (default 10): check-engines runs them in full, unsanitized.
        scale=
        [ -n "$asan_model" ] && case " $(engine_tests) " in
            *" $t "*) scale=JBIGI_TEST_SCALE=${JBIGI_ASAN_MODEL_SCALE:-10} ;;
        esac
        env $scale ASAN_OPTIONS=$asan LSAN_OPTIONS=$lsan UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            "$out/asan/$t" >"$out/asan/$t.log" 2>&1
        rc=$?
        cat "$out/asan/$t.log"
        san_tally "$out/asan/$t.log" "asan $t" "$rc"
        # With the engine on the model, GMP's own large-modulus paths once
        # more, the engine switched off.
        if [ -n "$asan_model" ] && gmp_paths "$t"; then
            echo "## asan: $t, JBIGI_ENGINE=gmp"
            JBIGI_ENGINE=gmp ASAN_OPTIONS=$asan LSAN_OPTIONS=$lsan UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
                "$out/asan/$t" >"$out/asan/$t-gmp.log" 2>&1
            rc=$?
            cat "$out/asan/$t-gmp.log"
            san_tally "$out/asan/$t-gmp.log" "asan $t (JBIGI_ENGINE=gmp)" "$rc"
        fi
    done
fi

# ---- 2. the JNI layer: libjbigi.so under the sanitizers, in the JVM ----
jni=$out/jni
jni_phase() {
    rm -rf "$jni"
    mkdir -p "$jni/lib" "$jni/reports" "$jni/jar"
    if [ ! -r "${JAVA_HOME:-}/include/jni.h" ]; then
        echo "!! jni.h not found under JAVA_HOME=${JAVA_HOME:-}: set JAVA_HOME to a JDK" >&2
        failed=$((failed + 1))
        return
    fi
    asan_runtime=$($CLANG -print-file-name="libclang_rt.asan-$(uname -m).so")
    if [ ! -r "$asan_runtime" ]; then
        echo "!! clang's libclang_rt.asan-$(uname -m).so not found: apt-get install libclang-rt-14-dev" >&2
        failed=$((failed + 1))
        return
    fi
    for f in build/classes/net/i2p/util/NativeBigInteger.class build/jbigi.jar; do
        [ -r "$f" ] && continue
        echo "!! $f not built: run this through make check-native" >&2
        failed=$((failed + 1))
        return
    done
    lib_sources=$(c_sources)
    echo "# sources (libjbigi.so): $lib_sources"
    # As the Makefile links the library, from the asan phase's objects,
    # against the shared ASan runtime (the JVM has it preloaded).
    if ! build_objects asan "$san $asan_model" ||
        ! $CLANG $san -shared-libsan -shared -o "$jni/lib/libjbigi.so" $(lib_objects asan) $GMP_LIBS \
        -Wl,--version-script=src/jni/jbigi.map -Wl,-z,defs -Wl,-z,noexecstack >"$jni/build.log" 2>&1; then
        cat "$jni/build.log"
        echo "!! libjbigi.so does not build with the sanitizers" >&2
        failed=$((failed + 1))
        return
    fi
    # The jar the loading tests extract from: build/jbigi.jar with every
    # library in it replaced by the sanitized one.
    cp build/jbigi.jar "$jni/jbigi.jar"
    for name in $("$JAVA_HOME/bin/jar" --list --file "$jni/jbigi.jar" | grep '\.so$'); do
        # Only this machine's architecture: another's library (aarch64 in a
        # dist jar) stays as it is, to be refused as it must be.
        cpu=${name#libjbigi-linux-}
        cpu=${cpu%.so}
        cpu=${cpu%_64}
        arch=$(awk -v cpu="$cpu" '!/^#/ && $1 == cpu { print $2 }' src/cpu/variants.tsv)
        [ -z "$arch" ] || [ "$arch" = "$(uname -m)" ] || continue
        cp "$jni/lib/libjbigi.so" "$jni/jar/$name"
        "$JAVA_HOME/bin/jar" --update --file "$jni/jbigi.jar" -C "$jni/jar" "$name" || {
            echo "!! could not put the sanitized library into $jni/jbigi.jar" >&2
            failed=$((failed + 1))
            return
        }
    done
    # The JVM, and every JVM the tests start (they inherit the environment),
    # runs with the ASan runtime preloaded; each writes any report to
    # $jni/reports/report.PID.  halt_on_error ends the process at the first.
    cat >"$jni/java" <<EOF2
#!/bin/sh
LD_PRELOAD=$asan_runtime\${LD_PRELOAD:+:\$LD_PRELOAD}
ASAN_OPTIONS=detect_leaks=0:handle_segv=0:allow_user_segv_handler=1:halt_on_error=1:log_path=$PWD/$jni/reports/report
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$PWD/$jni/reports/report
export LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS
exec "$JAVA" "\$@"
EOF2
    chmod +x "$jni/java"
    failed_before=$failed
    # No -Djbigi.soak: the million-call soak is make test's, and slow here.
    java_plain=$JAVA
    JAVA=$jni/java
    junit_suite "$jni" -Xcheck:jni -XX:ErrorFile="$jni/hs_err_pid%p.log" \
        -Djava.library.path="$jni/lib" -Djbigi.test.jar="$jni/jbigi.jar" \
        -Djbigi.vectors=test/vectors/modpow-public.txt
    JAVA=$java_plain
    for report in "$jni"/reports/*; do
        [ -e "$report" ] || continue
        cat "$report"
        echo "!! sanitizer report $report (above): counted as failed" >&2
        failed=$((failed + 1))
    done
    if grep -q -E '^==[0-9]+==ERROR|runtime error:' "$jni/junit.log"; then
        echo "!! sanitizer report in $jni/junit.log: counted as failed" >&2
        failed=$((failed + 1))
    fi
    if [ "$failed" -eq "$failed_before" ]; then
        echo "# jni: the JUnit suite ran clean under ASan+UBSan"
    fi
}
if phase jni; then
    echo "## asan: libjbigi.so in the JVM (the JUnit suite)"
    jni_phase
fi

# ---- 3. valgrind memcheck ----
if ! phase valgrind; then
    :
elif ! command -v valgrind >/dev/null 2>&1; then
    echo "!! valgrind not found: apt-get install valgrind" >&2
    failed=$((failed + 1))
else
    # valgrind runs ADCX and ADOX but hides ADX from CPUID: on a host that
    # has it, the valgrind build's engine asks for BMI2 only.  That build's
    # engine also selects table entries without AVX2 (JBIGI_ADX_NO_AVX2),
    # the path of CPUs that lack it, which the other phases do not run.
    adx_valgrind=
    # The hardware's ADX as the library's check reads it (CPUID, outside valgrind).
    if build/cpu-probe | grep -qw adx; then adx_valgrind="-DJBIGI_ADX_VALGRIND -DJBIGI_ADX_NO_AVX2"; fi
    for t in $tests; do
        echo "## valgrind: $t"
        build plain "$t" "$plain $model $adx_valgrind" || continue
        supp=
        if guarded "$t"; then
            echo "# leaks under jbigi_run_guarded suppressed (GMP's memory, abandoned on purpose)"
            supp=--suppressions=$out/valgrind-guarded.supp
        fi
        # The model runs the IFMA engine's code: no AVX-512 instruction.
        JBIGI_TEST_SCALE=${JBIGI_VALGRIND_SCALE:-10} valgrind -q --error-exitcode=1 \
            --leak-check=full --errors-for-leak-kinds=definite,indirect --num-callers=64 $supp \
            "$out/plain/$t" >"$out/plain/$t.log" 2>&1
        rc=$?
        cat "$out/plain/$t.log"
        san_tally "$out/plain/$t.log" "valgrind $t" "$rc"
        # GMP's own large-modulus paths once more, the engine switched off.
        if gmp_paths "$t"; then
            echo "## valgrind: $t, JBIGI_ENGINE=gmp"
            JBIGI_ENGINE=gmp JBIGI_TEST_SCALE=${JBIGI_VALGRIND_SCALE:-10} valgrind -q --error-exitcode=1 \
                --leak-check=full --errors-for-leak-kinds=definite,indirect --num-callers=64 $supp \
                "$out/plain/$t" >"$out/plain/$t-gmp.log" 2>&1
            rc=$?
            cat "$out/plain/$t-gmp.log"
            san_tally "$out/plain/$t-gmp.log" "valgrind $t (JBIGI_ENGINE=gmp)" "$rc"
        fi
    done
fi

report_failures
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
