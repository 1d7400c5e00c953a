#!/bin/sh
# Builds test/fuzz/fuzz_ifma.c (the AVX-512 IFMA engine against mpz_powm and
# mpz_powm_sec) with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer
# and runs it for SECONDS (default 60), as run-fuzz.sh does for the other
# targets; ends with "N passed, N failed".  Environment: CLANG, GMP_CFLAGS,
# GMP_LIBS (default -lgmp).  New inputs go to build/fuzz/corpus-ifma/.
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/../.." || exit 1
seconds=${1:-60}
case "$seconds" in
    ''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
CLANG=${CLANG:-clang}
GMP_CFLAGS=${GMP_CFLAGS:-}
GMP_LIBS=${GMP_LIBS:--lgmp}
out=build/fuzz
mkdir -p "$out/artifacts" "$out/corpus-ifma"
# -O2, not -O1 as in run-fuzz.sh: the engine keeps its accumulators in
# registers only when optimised, and runs ten times slower otherwise.
flags="-std=c11 -Wall -Wextra -Werror -g -O2 -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
bin="$out/fuzz_ifma"
if ! $CLANG $flags $GMP_CFLAGS -Isrc -o "$bin" test/fuzz/fuzz_ifma.c \
    src/ifma_cpu.c src/ifma_mont.c src/ifma_powm.c $GMP_LIBS >"$out/ifma.build.log" 2>&1; then
    cat "$out/ifma.build.log"
    echo "!! fuzz_ifma did not compile" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
# 2 + 3 * 1024 bytes reach every field at 8192 bits.
"$bin" -max_total_time="$seconds" -max_len=3074 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/ifma-" "$out/corpus-ifma" >"$out/ifma.log" 2>&1
rc=$?
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/ifma.log" | tail -n 1)
if [ "$rc" -eq 0 ] && [ -n "$execs" ]; then
    echo "fuzz_ifma: ok, ${execs} executions in ${seconds} s"
    echo "1 passed, 0 failed"
else
    grep -v -E '^#[0-9]+' "$out/ifma.log" | tail -n 60
    echo "!! fuzz_ifma FAILED (exit $rc, ${execs:-?} executions); log: $out/ifma.log" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
