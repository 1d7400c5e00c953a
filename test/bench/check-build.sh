#!/bin/sh
# test/bench/check-build.sh - the C benchmarks still build: each through the
# script that runs it, in its build-only mode (built, never run: a
# benchmark is a measurement, not a test).  OBJECTS: the library's sources
# below JNI as the C tests compiled them (test/run-tests.sh passes them),
# linked instead of compiling every source again, and JBIGI_GMP_MODE, the
# GMP they were compiled against (make's GMP).  Prints ok/not ok lines,
# then "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
out=build/test/bench-build
mkdir -p "$out"
passed=0
failed=0
skipped=0

# The GMP the objects were compiled against (JBIGI_GMP_MODE: make's GMP).
case ${JBIGI_GMP_MODE:-static} in
system) GMP_PREFIX= ;;
*) GMP_PREFIX=build/gmp-${JBIGI_GMP_MODE:-static} ;;
esac
export GMP_PREFIX

# test/bench/ifma_bench.c, the IFMA engine against GMP in C.
if sh test/bench/run-ifma-bench.sh --build-only >"$out/ifma-bench.log" 2>&1 && [ -x build/bench/ifma_bench ]; then
    ok "test/bench/run-ifma-bench.sh --build-only builds build/bench/ifma_bench"
else
    cat "$out/ifma-bench.log"
    not_ok "test/bench/run-ifma-bench.sh --build-only did not build build/bench/ifma_bench (log: $out/ifma-bench.log)"
fi

# test/bench/mont_chain.c, the Montgomery products of 4 to 9 limbs.
if sh test/bench/run-mont-chain.sh --build-only >"$out/mont-chain.log" 2>&1 && [ -x build/bench/mont_chain ]; then
    ok "test/bench/run-mont-chain.sh --build-only builds build/bench/mont_chain"
else
    cat "$out/mont-chain.log"
    not_ok "test/bench/run-mont-chain.sh --build-only did not build build/bench/mont_chain (log: $out/mont-chain.log)"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
