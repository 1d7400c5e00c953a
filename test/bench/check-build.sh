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

# The benchmark's own sources (run-bench.sh builds them only when run):
# its Java classes (LegendreBench.java among them) against the library's,
# and call_floor.c, the JNI
# library of the section small's floor, against the JDK and GMP.
if [ ! -d build/classes/net/i2p/util ]; then
    skip "test/bench/*.java: build/classes not built (make jar)"
elif ${JAVAC:-javac} -Xlint:all -Werror -d "$out/bench-classes" -cp build/classes test/bench/*.java \
    >"$out/bench-classes.log" 2>&1; then
    ok "test/bench/*.java compile against build/classes"
else
    cat "$out/bench-classes.log"
    not_ok "test/bench/*.java do not compile (log: $out/bench-classes.log)"
fi
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v "${JAVAC:-javac}")")")")
if [ -n "$GMP_PREFIX" ]; then floor_gmp="-I$GMP_PREFIX/include $GMP_PREFIX/lib/libgmp.a"; else floor_gmp=-lgmp; fi
# shellcheck disable=SC2086 # a flag list
if ${CC:-cc} -O2 -Wall -Wextra -Werror -fPIC -shared -I"$jdk/include" -I"$jdk/include/linux" \
    -o "$out/libjbigibenchfloor.so" test/bench/call_floor.c $floor_gmp >"$out/call-floor.log" 2>&1; then
    ok "test/bench/call_floor.c builds as a JNI library"
else
    cat "$out/call-floor.log"
    not_ok "test/bench/call_floor.c does not build (log: $out/call-floor.log)"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
