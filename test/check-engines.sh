#!/bin/sh
# Every engine's differential tests on this machine: on the CPU's own
# instructions where it has them, and on the portable model of the
# instructions (test/model/, -DJBIGI_IFMA_MODEL) everywhere else, so that no
# engine goes unchecked for want of a CPU.  Called by `make check-engines`
# and by test/run-tests.sh (make test); ends with one line
# "N passed, N failed, N skipped" (0 skipped on any machine).
#
#  1. test_avx512_model: the model against the instructions (where the CPU
#     has them, case by case) and against digests recorded from them
#     (everywhere).
#  2. The IFMA engine on the instructions, where the CPU has AVX-512 IFMA:
#     test_ifma in full.
#  3. The IFMA engine on the model: test_ifma, and the tests that reach the
#     engine through its callers (test_arith, test_fixedbase), built from
#     the library's sources with the model.  In full where the CPU lacks
#     IFMA (then this is the engine's only check here); at
#     JBIGI_MODEL_SCALE percent (default 5) where it has it, to keep the
#     model build itself checked.
#
# Environment as for run-tests.sh: CC, CFLAGS, GMP_LIBS, C_SOURCES;
# JBIGI_TEST_SEED replays a run; JBIGI_IFMA_FORCE_MODEL=1 runs as on a CPU
# without IFMA (the model in full, not the instructions).
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/.." || exit 1
. test/lib.sh
out=build/test/engines
mkdir -p "$out/model-obj"
passed=0
failed=0
skipped=0
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -std=c11 -Wall -Wextra -Werror}
GMP_LIBS=${GMP_LIBS:--lgmp}

# Builds test $1 as $out/$2 from the objects in directory $3 with extra
# flags $4, runs it with the environment assignments in $5, and counts it.
run_test() { # test binary objects-dir extra-flags env
    # shellcheck disable=SC2046 # c_test_link_flags gives a list of flags
    if ! $CC $CFLAGS $4 -Isrc -Itest/c -Itest/model -o "$out/$2" "test/c/$1.c" $3 $GMP_LIBS \
        $(c_test_link_flags "$1") >"$out/$2.build.log" 2>&1; then
        cat "$out/$2.build.log"
        echo "!! $2 did not compile" >&2
        failed=$((failed + 1))
        return
    fi
    env $5 "$out/$2" >"$out/$2.log" 2>&1
    rc=$?
    cat "$out/$2.log"
    tally "$out/$2.log" "$2" "$rc"
}

sources=$(c_sources_below_jni)

# ---- 1. the model against the instructions ----
run_test test_avx512_model test_avx512_model "" "" ""
if [ "${JBIGI_IFMA_FORCE_MODEL:-0}" != 1 ] && "$out/test_avx512_model" --has-instructions; then
    hardware=1
    echo "# this CPU has AVX-512 IFMA: the engine runs on its instructions, and on the model at ${JBIGI_MODEL_SCALE:-5}%"
else
    hardware=0
    echo "# this CPU has no AVX-512 IFMA: the engine runs on the model, in full"
fi

# ---- 2. the IFMA engine on the instructions ----
if [ "$hardware" = 1 ]; then
    if objects=$(compile_objects "$out/obj" "$CC" "$CFLAGS -Isrc" "$sources"); then
        run_test test_ifma test_ifma "$objects" "" ""
    else
        echo "!! the sources did not compile" >&2
        failed=$((failed + 1))
    fi
fi

# ---- 3. the IFMA engine on the model ----
if ! model_objects=$(compile_objects "$out/model-obj" "$CC" "$CFLAGS -DJBIGI_IFMA_MODEL -Isrc -Itest/model" "$sources"); then
    echo "!! the sources did not compile with the model" >&2
    failed=$((failed + 1))
fi
scale=100
[ "$hardware" = 1 ] && scale=${JBIGI_MODEL_SCALE:-5}
for t in test_ifma test_arith test_fixedbase; do
    run_test "$t" "$t-model" "$model_objects" "-DJBIGI_IFMA_MODEL" "JBIGI_TEST_SCALE=$scale"
done

report_failures
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
