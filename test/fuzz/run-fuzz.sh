#!/bin/sh
# Builds every libFuzzer target, test/fuzz/fuzz_*.c (conversion,
# arithmetic, fixed-base table validation, the IFMA engine), with
# AddressSanitizer + UndefinedBehaviorSanitizer, linked with the library's
# sources below JNI, and runs each for SECONDS (default 60).  Called by
# `make fuzz FUZZ_SECONDS=n`.  Prints each target's number of executions and
# ends with one line "N passed, N failed": a target that crashes, leaks,
# trips a sanitizer or a check counts as failed.
#
# Environment: CLANG (default clang), GMP_CFLAGS, GMP_LIBS (default -lgmp),
# C_SOURCES (default: asked of the Makefile).
#
# New inputs go to build/fuzz/corpus-<target>/ (scratch, git-ignored); the
# committed seeds in test/fuzz/corpus/<target>/ are only read, because
# libFuzzer writes to the first corpus directory it is given and no other.
# A failing input is saved as build/fuzz/artifacts/<target>-crash-*; replay
# it with: build/fuzz/fuzz_<target> build/fuzz/artifacts/<target>-crash-...
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh

seconds=${1:-60}

# Every test/fuzz/fuzz_*.c: a new target runs without an edit here.
fuzz_targets() {
    for f in test/fuzz/fuzz_*.c; do
        f=${f#test/fuzz/fuzz_}
        printf '%s ' "${f%.c}"
    done
}
case "$seconds" in
    ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
CLANG=${CLANG:-clang}
GMP_CFLAGS=${GMP_CFLAGS:-}
GMP_LIBS=${GMP_LIBS:--lgmp}
out=build/fuzz
mkdir -p "$out/artifacts"
passed=0
failed=0

# -O2: the IFMA engine keeps its accumulators in registers only when
# optimised, and runs ten times slower otherwise.  -Wno-pass-failed: with the
# sanitizers clang cannot always honour the unrolling the engine asks for (a
# hint for speed, nothing to do with correctness).
flags="-std=c11 -Wall -Wextra -Werror -Wno-pass-failed -g -O2 -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"

# Files in a directory (the corpora hold only plain files).
count_files() {
    find "$1" -type f | wc -l
}

# The library's sources, compiled once for every target (with the sanitizers
# the IFMA engine's unrolled code takes minutes to compile).
# Without AVX-512 IFMA, the engine on the model of its instructions.
model=$(ifma_model_unless_cpu "$CLANG" "$out") || {
    echo "!! test/c/test_avx512_model.c did not compile: cannot tell whether this CPU has AVX-512 IFMA" >&2
    failed=$((failed + 1))
}
[ -z "$model" ] || echo "# no AVX-512 IFMA here: fuzz_engines runs the IFMA engine on the model of its instructions"
flags="$flags $model"

objects_ok=1
mkdir -p "$out/obj"
rm -f "$out/obj/"*.o
for src in $(c_sources_below_jni); do
    obj=$out/obj/$(basename "$src" .c).o
    if ! $CLANG $flags $GMP_CFLAGS -Isrc -c -o "$obj" "$src" >"$obj.log" 2>&1; then
        cat "$obj.log"
        echo "!! $src did not compile" >&2
        objects_ok=0
    fi
done
if [ "$objects_ok" = 0 ]; then
    echo "0 passed, 1 failed"
    exit 1
fi

for target in $(fuzz_targets); do
    bin="$out/fuzz_$target"
    if ! $CLANG $flags $GMP_CFLAGS -Isrc -Itest/c -o "$bin" "test/fuzz/fuzz_$target.c" \
        "$out/obj/"*.o $GMP_LIBS >"$out/$target.build.log" 2>&1; then
        cat "$out/$target.build.log"
        echo "!! fuzz_$target did not compile" >&2
        failed=$((failed + 1))
        continue
    fi
    mkdir -p "$out/corpus-$target"
    # Longest input: values up to 4 KiB for convert; arith's format cannot
    # use more than 3 + 3 * 255 bytes, fixedbase's more than 6 + 7 * 9 + 1 + 288.
    case $target in
        convert) max_len=4096 ;;
        fixedbase) max_len=384 ;;
        *) max_len=768 ;;
    esac
    seeds_before=$(count_files "test/fuzz/corpus/$target")
    # -timeout: one input running for seconds is a hang, and a failure.
    "$bin" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
        -print_final_stats=1 -artifact_prefix="$out/artifacts/$target-" \
        "$out/corpus-$target" "test/fuzz/corpus/$target" >"$out/$target.log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$target.log" | tail -n 1)
    corpus=$(count_files "$out/corpus-$target")
    seeds_after=$(count_files "test/fuzz/corpus/$target")
    if [ "$rc" -eq 0 ] && [ -n "$execs" ] && [ "$seeds_before" -eq "$seeds_after" ]; then
        echo "fuzz_$target: ok, ${execs} executions in ${seconds} s, ${corpus} inputs in $out/corpus-$target"
        passed=$((passed + 1))
    else
        # The report: libFuzzer's and the sanitizers' lines, not the progress.
        grep -v -E '^#[0-9]+' "$out/$target.log" | tail -n 60
        [ "$seeds_before" -eq "$seeds_after" ] ||
            echo "!! fuzz_$target wrote into the committed corpus test/fuzz/corpus/$target" >&2
        echo "!! fuzz_$target FAILED (exit $rc, ${execs:-?} executions); log: $out/$target.log" >&2
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
