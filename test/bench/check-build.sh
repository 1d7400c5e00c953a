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

# A C benchmark builds through its script's build-only mode: script (under
# test/bench/), program (under build/bench/).
builds() {
    if sh "test/bench/$1" --build-only >"$out/$2.log" 2>&1 && [ -x "build/bench/$2" ]; then
        ok "test/bench/$1 --build-only builds build/bench/$2"
    else
        cat "$out/$2.log"
        not_ok "test/bench/$1 --build-only did not build build/bench/$2 (log: $out/$2.log)"
    fi
}

builds run-ifma-bench.sh ifma_bench     # the IFMA engine against GMP in C
builds run-p25519-bench.sh p25519_bench # the special-form engine beside MULX/ADX and GMP
builds run-jacobi-bench.sh jacobi_bench # the Jacobi symbol against mpz_jacobi
builds run-mont-chain.sh mont_chain     # the Montgomery products of 4 to 9 limbs

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

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
