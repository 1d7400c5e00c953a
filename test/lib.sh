# Shared by test/run-tests.sh and test/check-native.sh (sourced, POSIX sh):
# reading result lines and running the JUnit suite.  Both scripts keep three
# counters, passed, failed and skipped, and end with the line
# "N passed, N failed, N skipped".
# shellcheck shell=sh

# GMP's version (the build/gmp-<version>-<cpu> folders), named once in
# build.sh; the scripts that source this file run from the tree's root.
GMP_VERSION=$(sed -n 's/^readonly GMP_VERSION=//p' build.sh)

# Reads the last result line of log $1, "N passed, N failed" with an optional
# ", N skipped" (a C test that cannot run some checks on this machine, e.g.
# for lack of a CPU feature, says so there), into res_passed, res_failed and
# res_skipped.  Returns 1 when the log has no such line.
read_result() {
    res_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" | tail -n 1)
    [ -n "$res_line" ] || return 1
    res_passed=${res_line%% passed*}
    res_failed=${res_line#*passed, }
    res_failed=${res_failed%% failed*}
    case $res_line in
        *skipped) res_skipped=${res_line##*failed, }; res_skipped=${res_skipped%% skipped} ;;
        *) res_skipped=0 ;;
    esac
}

# Adds log $1's result line to the counters and says how long the part took
# (since the previous tally).  A log with no result line (the
# test crashed), or a non-zero exit code $3 with no failed check, counts as
# one more failure.  $2 names the test in messages.
tally_mark=$(date +%s)
tally() { # log name exit-code
    tally_now=$(date +%s)
    echo "# $2: $((tally_now - tally_mark)) s"
    tally_mark=$tally_now
    if ! read_result "$1"; then
        echo "!! $2 printed no result line: counted as failed" >&2
        failed=$((failed + 1))
        failed_in "$2 (no result line)"
        return
    fi
    passed=$((passed + res_passed))
    failed=$((failed + res_failed))
    skipped=$((skipped + res_skipped))
    [ "$res_failed" -eq 0 ] || failed_in "$2 ($res_failed)"
    [ "$res_skipped" -eq 0 ] || echo "!! $2 skipped $res_skipped check(s): see its log above" >&2
    if [ "$3" -ne 0 ] && [ "$res_failed" -eq 0 ]; then
        echo "!! $2 exited $3" >&2
        failed=$((failed + 1))
        failed_in "$2 (exit $3)"
    fi
}

# The names of what failed, for the summary: a long run's log is often read
# from its end only, where the individual reports are long gone.
failures=""
failed_in() { # what
    failures="$failures${failures:+; }$1"
}

# Printed just before the "N passed, N failed, N skipped" line when anything
# failed: what, by name, with a pointer for failures counted without one.
report_failures() {
    [ "$failed" -eq 0 ] && return
    echo "!! failed: ${failures:-see the lines starting with !! above}"
}

# The test classes the suite must run: every test/java/**/*Test.java.
# One check's outcome, counted in passed, failed or skipped.
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
skip() { echo "skip - $*"; skipped=$((skipped + 1)); }

junit_classes() {
    for f in test/java/net/i2p/util/*Test.java; do
        f=${f##*/}
        printf '%s\n' "${f%.java}"
    done
}

# Compiles the JUnit tests into $1/classes and runs them with the JVM options
# that follow, output in $1/junit.log (printed), then adds the outcome to the
# counters.  Needs JAVA, JAVAC, JUNIT_JAR and build/classes.
junit_suite() { # out-dir jvm-options...
    j_out=$1
    shift
    if [ ! -r "$JUNIT_JAR" ]; then
        echo "!! $JUNIT_JAR not found: apt-get install junit5" >&2
        failed=$((failed + 1))
        return
    fi
    rm -rf "$j_out/classes"
    mkdir -p "$j_out/classes"
    if ! $JAVAC -Xlint:all -Werror -d "$j_out/classes" -cp "build/classes:$JUNIT_JAR" test/java/net/i2p/util/*.java \
        >"$j_out/javac.log" 2>&1; then
        cat "$j_out/javac.log"
        echo "!! the JUnit tests did not compile" >&2
        failed=$((failed + 1))
        return
    fi
    junit_run "$JAVA" "$j_out/junit.log" "$j_out/classes" "--scan-classpath $j_out/classes" "$(junit_classes)" "$@"
}

# Runs JUnit with java $1 over the test classes in $3, selected by the
# launcher options $4 (e.g. --scan-classpath DIR, or --select-class and
# --exclude-tag options), with the JVM options that follow $5; output in log
# $2 (printed), then adds the outcome to the counters, every class of the
# list $5 having to show up in the run.
#
# Counting: a successful test passes; a failed test fails; a test that was
# skipped (disabled) or aborted (an assumption did not hold) is skipped.  A
# failed container (a test class that did not initialise, a @BeforeAll that
# threw) counts as one failure, an aborted one (an assumption in @BeforeAll)
# as one skip.  A test class that never shows up in the run (it could not be
# loaded: JUnit's class-path scan drops such a class without a word), a JNI
# warning from -Xcheck:jni, no summary (the JVM died), or a non-zero exit
# with nothing counted as failed, each count as one more failure.
junit_run() { # java log classes-dir launcher-options classes jvm-options...
    j_java=$1 j_log=$2 j_classes=$3 j_select=$4 j_expected=$5
    shift 5
    # The ASCII tree does not depend on the locale's character set; the
    # class check below reads it.
    # shellcheck disable=SC2086 # j_select is a list of options
    "$j_java" "$@" -cp "build/classes:$j_classes:$JUNIT_JAR" \
        org.junit.platform.console.ConsoleLauncher --disable-banner --details=tree --details-theme=ascii \
        --disable-ansi-colors $j_select >"$j_log" 2>&1
    j_rc=$?
    cat "$j_log"
    junit_tally "$j_log" "$j_rc" "$j_expected"
}

# Adds the outcome of the JUnit run logged in $1 (exit code $2) to the
# counters; $3: the test classes that must have run.
junit_tally() { # log exit-code classes
    j_failed_before=$failed
    # JNI_WARNINGS_NOT_OURS: a line the JDK's own native code prints (the
    # caller has shown it is not the library's), not counted.
    j_warnings=$(grep -E 'WARNING in native method|FATAL ERROR in native method|^WARNING: JNI' "$1" |
        grep -c -v -x -F -e "${JNI_WARNINGS_NOT_OURS:-}")
    if [ "$j_warnings" -gt 0 ]; then
        echo "!! -Xcheck:jni printed $j_warnings warning line(s): counted as failed" >&2
        failed=$((failed + 1))
    fi
    j_ok=$(junit_count "$1" 'tests successful')
    j_bad=$(junit_count "$1" 'tests failed')
    j_aborted=$(junit_count "$1" 'tests aborted')
    j_skip=$(junit_count "$1" 'tests skipped')
    j_cbad=$(junit_count "$1" 'containers failed')
    j_caborted=$(junit_count "$1" 'containers aborted')
    if [ -z "$j_ok" ] || [ -z "$j_bad" ] || [ -z "$j_aborted" ] || [ -z "$j_skip" ] \
        || [ -z "$j_cbad" ] || [ -z "$j_caborted" ]; then
        echo "!! JUnit printed no summary (the JVM died?): counted as failed" >&2
        failed=$((failed + 1))
        return
    fi
    for j_class in $3; do
        grep -q -E "^[| ]*[+']-- $j_class \[" "$1" || {
            echo "!! JUnit: $j_class did not run (it could not be loaded?): counted as failed" >&2
            failed=$((failed + 1))
        }
    done
    passed=$((passed + j_ok))
    failed=$((failed + j_bad + j_cbad))
    # The failed tests and classes by name ("[X]" in the ASCII tree).
    for j_name in $(sed -n "s/^[| ]*[+']-- \([^ ]*\) .*\[X\].*/\1/p" "$1"); do
        failed_in "JUnit $j_name"
    done
    skipped=$((skipped + j_skip + j_aborted + j_caborted))
    [ "$j_cbad" -eq 0 ] ||
        echo "!! JUnit: $j_cbad test class(es) failed as a whole (did not initialise, or @BeforeAll/@AfterAll threw): counted as failed" >&2
    [ "$j_aborted" -eq 0 ] || echo "!! JUnit: $j_aborted test(s) aborted (an assumption did not hold): counted as skipped" >&2
    [ "$j_caborted" -eq 0 ] ||
        echo "!! JUnit: $j_caborted test class(es) aborted (an assumption in @BeforeAll did not hold): counted as skipped" >&2
    [ "$j_skip" -eq 0 ] || echo "!! JUnit: $j_skip test(s) skipped (disabled here)" >&2
    # What was skipped or aborted, and why.
    grep -E "^[| ]*[+']-- .* \[[SA]\]" "$1" >&2
    if [ "$2" -ne 0 ] && [ "$failed" -eq "$j_failed_before" ]; then
        echo "!! JUnit exited $2" >&2
        failed=$((failed + 1))
    fi
}

# The number in JUnit's summary line "[ N what ]".
junit_count() { # log what
    sed -n "s/^\[ *\([0-9]*\) $2 *\]\$/\1/p" "$1" | tail -n 1
}

# The library's C sources: $C_SOURCES as `make` passes it (the Makefile's
# C_SOURCES, the one list), else asked of the Makefile.
c_sources() {
    if [ -n "${C_SOURCES:-}" ]; then
        printf '%s\n' "$C_SOURCES"
    else
        # shellcheck disable=SC2016 # $(C_SOURCES) is make's, not the shell's
        make -s --no-print-directory --eval 'jbigi-print-c-sources: ; @echo $(C_SOURCES)' jbigi-print-c-sources
    fi
}

# The CPU layer's sources (the Makefile's CPU_SOURCES: the facts and the
# check), what a program that asks the check links.
cpu_sources() {
    # shellcheck disable=SC2016 # $(CPU_SOURCES) is make's, not the shell's
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
        --eval 'jbigi-print-cpu-sources: ; @echo $(CPU_SOURCES)' jbigi-print-cpu-sources
}

# The same without the JNI layer (the files that include <jni.h>): what the
# C tests link.
c_sources_below_jni() {
    for f in $(c_sources); do
        grep -q '^#include <jni.h>' "$f" || printf '%s ' "$f"
    done
}

# Compiles each source of list $4 with compiler $2 and flags $3 into
# directory $1 (object named after the source's file name), as many at
# once as there are cores, and prints the objects' paths.  A source that
# does not compile has its compiler's output shown on stderr, and the
# status is then 1.  Each C test links these instead of compiling every
# source again.
compile_objects() { # dir compiler flags sources
    mkdir -p "$1"
    c_status=0
    # shellcheck disable=SC2016 # $0..$3 belong to the inner shell
    printf '%s\n' $4 | xargs -P "$(nproc 2>/dev/null || echo 2)" -n 1 sh -c '
        obj=$0/$(basename "$3" .c).o
        rm -f "$obj"
        $1 $2 -c -o "$obj" "$3" >"$obj.log" 2>&1 || { cat "$obj.log" >&2; echo "!! $3 did not compile" >&2; exit 1; }' \
        "$1" "$2" "$3" || c_status=1
    for src in $4; do printf '%s ' "$1/$(basename "$src" .c).o"; done
    return "$c_status"
}

# The engines' differential tests, which test/check-engines.sh runs on the
# instructions or on the portable model of them (the other C tests run once,
# as the library is built).
engine_tests() {
    printf '%s\n' "test_ifma test_avx512_model"
}

# Flags that build the IFMA engine on the portable model of its instructions
# (test/model/) when this CPU cannot execute them, else nothing: the engine's
# code then runs under the sanitizers and the fuzzer on any CPU.  $1: the C
# compiler, $2: a scratch directory.  JBIGI_IFMA_FORCE_MODEL=1 takes the
# model on any CPU (how a CPU without IFMA is tried on one with it).
ifma_model_unless_cpu() { # compiler scratch-dir
    if [ "${JBIGI_IFMA_FORCE_MODEL:-0}" != 1 ]; then
        # The probe: test_avx512_model --has-instructions.  When it does not
        # compile, the model, and status 1 for the caller to count.
        if ! $1 -std=c11 -O1 -Isrc -Itest/c -Itest/model -o "$2/has-ifma" test/c/test_avx512_model.c \
            >/dev/null 2>&1; then
            printf '%s' "-DJBIGI_IFMA_MODEL -Itest/model"
            return 1
        fi
        "$2/has-ifma" --has-instructions && return 0
    fi
    printf '%s' "-DJBIGI_IFMA_MODEL -Itest/model"
}

# Every C test, test/c/test_*.c: a new one runs without an edit anywhere.
c_tests() {
    for f in test/c/test_*.c; do
        f=${f#test/c/}
        printf '%s ' "${f%.c}"
    done
}

# Tests that watch the allocator (test_wipe, test_oom, test_table_memory)
# intercept the C library's functions at link time, test_engine the
# engines' self-tests, test_karatsuba GMP's mpn_sec_* functions, and
# test_table_memory the process lock's release (to write a block's header
# while jbigi_tm_free runs): a test defining __wrap_NAME is linked with
# --wrap=NAME.
c_test_link_flags() { # test
    for f in malloc calloc aligned_alloc realloc free mmap munmap jbigi_ifma_selftest jbigi_adx_selftest \
        __gmpn_sec_mul_itch __gmpn_sec_sqr_itch __gmpn_sec_add_1_itch __gmpn_sec_mul __gmpn_sec_sqr __gmpn_sec_add_1 \
        jbigi_process_unlock; do
        grep -q "__wrap_$f *(" "test/c/$1.c" && printf ' -Wl,--wrap=%s' "$f"
    done
}
