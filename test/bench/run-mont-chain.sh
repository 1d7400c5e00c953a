#!/bin/sh
# Builds and runs test/bench/mont_chain.c: Montgomery products and
# squarings of 4, 5, 6, 8 and 9 limbs in a dependent chain, on the MULX/ADX
# engine's kernels, on what GMP's mpz_powm runs, and on mpn_mont.c.
#
#   test/bench/run-mont-chain.sh [ROUNDS]
#   test/bench/run-mont-chain.sh --build-only
#
# --build-only builds build/bench/mont_chain and stops (test/bench/check-build.sh).
# GMP_PREFIX: the GMP to link (default build/gmp-static, the one a static
# build links; the system GMP when that is missing or GMP_PREFIX is set
# empty).  OBJECTS: the library's sources below JNI already compiled
# against that GMP (the tests pass theirs); by default they are compiled here.
set -eu
cd "$(dirname "$0")/../.."
. test/lib.sh
. test/bench/c-bench.sh
c_bench mont_chain "test/bench/mont_chain.c ${OBJECTS:-$(c_sources_below_jni)}" "$@"
