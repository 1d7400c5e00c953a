#!/bin/sh
# Memory and undefined-behaviour checks of the C shim.  Called by
# `make check-native`; ends with one line "N passed, N failed" and exits
# non-zero on any failure.
#
#  1. asan:     the non-JNI sources (src/*.c but jbigi.c) and every C test
#               (test/c/test_*.c), built with clang's AddressSanitizer +
#               UndefinedBehaviorSanitizer (leak checking included) and run;
#               any report stops the test and fails it.
#  2. jbigi.c:  compiled with the same flags and -Werror, so the JNI layer is
#               held to the same warnings (it needs a JVM to run).
#  3. valgrind: the same tests built without sanitizers, run under memcheck;
#               any error or definite/indirect leak fails.  Memcheck is slow,
#               so the tests run JBIGI_VALGRIND_SCALE percent (default 10) of
#               their random cases through JBIGI_TEST_SCALE.
#
# Environment: CLANG (default clang), GMP_CFLAGS, GMP_LIBS (default -lgmp),
# JAVA_HOME (default: the JDK of javac), JBIGI_TEST_SEED (default: the time;
# printed, and used by both phases, so a failure replays).
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/.." || exit 1

CLANG=${CLANG:-clang}
GMP_CFLAGS=${GMP_CFLAGS:-}
GMP_LIBS=${GMP_LIBS:--lgmp}
if [ -z "${JAVA_HOME:-}" ] && command -v javac >/dev/null 2>&1; then
    JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
fi
JBIGI_TEST_SEED=${JBIGI_TEST_SEED:-$(date +%s)}
export JBIGI_TEST_SEED
echo "# check-native: seed $JBIGI_TEST_SEED, GMP: ${GMP_CFLAGS:+$GMP_CFLAGS }$GMP_LIBS"

out=build/check-native
mkdir -p "$out/asan" "$out/plain"
passed=0
failed=0

# Adds the counts of a log's last "N passed, N failed" line.  A sanitizer
# or valgrind report in the log, a missing result line (LeakSanitizer ends
# the process before stdout is flushed), or a non-zero exit with no failed
# check each count as one more failure.
tally() { # log name exit-code
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if grep -q -E '^==[0-9]+==|runtime error:|Sanitizer' "$1"; then
        echo "!! $2: sanitizer or valgrind report above" >&2
        failed=$((failed + 1))
        rc_counted=1
    else
        rc_counted=0
    fi
    if [ -z "$line" ]; then
        [ "$rc_counted" -eq 1 ] || {
            echo "!! $2 printed no result line: counted as failed" >&2
            failed=$((failed + 1))
        }
        return
    fi
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc_counted" -eq 0 ] && [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "!! $2 exited $3" >&2
        failed=$((failed + 1))
    fi
}

warn="-std=c11 -Wall -Wextra -Werror"
san="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
# valgrind 3.19 cannot read the DWARF 5 that clang 14 writes by default.
plain="-g -gdwarf-4 -O1"
# Every source but the JNI layer, and every C test: a new one is checked
# without an edit here.
sources=
for f in src/*.c; do
    [ "$f" = src/jbigi.c ] || sources="$sources $f"
done
tests=
for f in test/c/test_*.c; do
    f=${f#test/c/}
    tests="$tests ${f%.c}"
done
echo "# sources: $sources"
echo "# tests: $tests"

# Tests that watch the allocator (test_wipe, test_oom) intercept the C
# library's functions at link time: a test defining __wrap_NAME is linked
# with --wrap=NAME, so a new one needs no edit here.
link_flags() {
    for f in malloc calloc realloc free; do
        grep -q "__wrap_$f *(" "test/c/$1.c" && printf ' -Wl,--wrap=%s' "$f"
    done
}

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
cat >"$out/valgrind-guarded.supp" <<'EOF'
{
   gmp-memory-abandoned-by-jbigi_run_guarded
   Memcheck:Leak
   match-leak-kinds: definite,indirect
   ...
   fun:jbigi_run_guarded
}
EOF

# Builds test $2 into $out/$1/ with flags $3; on failure prints why.
build() {
    # shellcheck disable=SC2046 # link_flags gives a list of flags
    if $CLANG $warn $3 $GMP_CFLAGS -Isrc -Itest/c -o "$out/$1/$2" "test/c/$2.c" $sources \
        $GMP_LIBS $(link_flags "$2") >"$out/$1/$2.build.log" 2>&1; then
        return 0
    fi
    cat "$out/$1/$2.build.log"
    echo "!! $1: $2 did not compile" >&2
    failed=$((failed + 1))
    return 1
}

# ---- 1. AddressSanitizer + UndefinedBehaviorSanitizer ----
for t in $tests; do
    echo "## asan: $t"
    build asan "$t" "$san" || continue
    asan=detect_leaks=1:halt_on_error=1
    lsan=
    if guarded "$t"; then
        echo "# leaks under jbigi_run_guarded suppressed (GMP's memory, abandoned on purpose)"
        asan=$asan:fast_unwind_on_malloc=0:malloc_context_size=64
        lsan=suppressions=$out/lsan-guarded.supp
    fi
    ASAN_OPTIONS=$asan LSAN_OPTIONS=$lsan UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$out/asan/$t" >"$out/asan/$t.log" 2>&1
    rc=$?
    cat "$out/asan/$t.log"
    tally "$out/asan/$t.log" "asan $t" "$rc"
done

# ---- 2. the JNI layer, compiled only ----
echo "## asan: src/jbigi.c (compile)"
if [ ! -r "${JAVA_HOME:-}/include/jni.h" ]; then
    echo "!! jni.h not found under JAVA_HOME=${JAVA_HOME:-}: set JAVA_HOME to a JDK" >&2
    failed=$((failed + 1))
elif $CLANG $warn $san -fPIC -fvisibility=hidden -Iinclude -I"$JAVA_HOME/include" \
    -I"$JAVA_HOME/include/linux" $GMP_CFLAGS -Isrc -c src/jbigi.c -o "$out/asan/jbigi.o" \
    >"$out/asan/jbigi.build.log" 2>&1; then
    echo "src/jbigi.c: clean"
    passed=$((passed + 1))
else
    cat "$out/asan/jbigi.build.log"
    echo "!! src/jbigi.c does not compile cleanly with the sanitizer flags" >&2
    failed=$((failed + 1))
fi

# ---- 3. valgrind memcheck ----
if ! command -v valgrind >/dev/null 2>&1; then
    echo "!! valgrind not found: apt-get install valgrind" >&2
    failed=$((failed + 1))
else
    for t in $tests; do
        echo "## valgrind: $t"
        build plain "$t" "$plain" || continue
        supp=
        if guarded "$t"; then
            echo "# leaks under jbigi_run_guarded suppressed (GMP's memory, abandoned on purpose)"
            supp=--suppressions=$out/valgrind-guarded.supp
        fi
        JBIGI_TEST_SCALE=${JBIGI_VALGRIND_SCALE:-10} valgrind -q --error-exitcode=1 \
            --leak-check=full --errors-for-leak-kinds=definite,indirect --num-callers=64 $supp \
            "$out/plain/$t" >"$out/plain/$t.log" 2>&1
        rc=$?
        cat "$out/plain/$t.log"
        tally "$out/plain/$t.log" "valgrind $t" "$rc"
    done
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
