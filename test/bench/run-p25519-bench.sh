#!/bin/sh
# Builds and runs test/bench/p25519_bench.c: powers mod 2^255 - 19 on the
# special-form engine, the MULX/ADX engine and GMP through the library's
# path, and GMP's mpz_powm and mpz_powm_sec alone, medians of interleaved
# rounds and of their ratios.
#
#   test/bench/run-p25519-bench.sh [ROUNDS]
#   test/bench/run-p25519-bench.sh --build-only
#
# --build-only builds build/bench/p25519_bench and stops: how the tests
# (test/bench/check-build.sh) keep the benchmark compiling.
# GMP_PREFIX: the GMP to compare with (default build/gmp-static, the one a
# static build links; the system GMP when that is missing or GMP_PREFIX is
# set empty).
# OBJECTS: the library's sources below JNI already compiled against that
# GMP (the tests pass theirs); by default they are compiled here.
set -eu
cd "$(dirname "$0")/../.."
. test/lib.sh
. test/bench/c-bench.sh
# The library's sources below JNI, as the C tests link them (the engine
# needs its CPU check, self-test and the size rules of src/engines/registry.c).
c_bench p25519_bench "test/bench/p25519_bench.c ${OBJECTS:-$(c_sources_below_jni)}" "$@"
