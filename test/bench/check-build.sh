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

# test/bench/p25519_bench.c, the special-form engine beside MULX/ADX and GMP.
if sh test/bench/run-p25519-bench.sh --build-only >"$out/p25519-bench.log" 2>&1 && [ -x build/bench/p25519_bench ]; then
    ok "test/bench/run-p25519-bench.sh --build-only builds build/bench/p25519_bench"
else
    cat "$out/p25519-bench.log"
    not_ok "test/bench/run-p25519-bench.sh --build-only did not build build/bench/p25519_bench (log: $out/p25519-bench.log)"
fi

# test/bench/jacobi_bench.c, the Jacobi symbol against mpz_jacobi in C.
if sh test/bench/run-jacobi-bench.sh --build-only >"$out/jacobi-bench.log" 2>&1 && [ -x build/bench/jacobi_bench ]; then
    ok "test/bench/run-jacobi-bench.sh --build-only builds build/bench/jacobi_bench"
else
    cat "$out/jacobi-bench.log"
    not_ok "test/bench/run-jacobi-bench.sh --build-only did not build build/bench/jacobi_bench (log: $out/jacobi-bench.log)"
fi

# test/bench/LegendreBench.java, the Legendre symbol through nativeModPow
# against BigInteger, compiled against the library's classes.
if [ ! -d build/classes/net/i2p/util ]; then
    skip "test/bench/LegendreBench.java: build/classes not built (make jar)"
elif ${JAVAC:-javac} -Xlint:all -Werror -d "$out/legendre" -cp build/classes test/bench/LegendreBench.java \
    >"$out/legendre-bench.log" 2>&1; then
    ok "test/bench/LegendreBench.java compiles against build/classes"
else
    cat "$out/legendre-bench.log"
    not_ok "test/bench/LegendreBench.java does not compile (log: $out/legendre-bench.log)"
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
