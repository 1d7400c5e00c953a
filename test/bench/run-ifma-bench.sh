#!/bin/sh
# Builds and runs test/bench/ifma_bench.c: the AVX-512 IFMA engine against
# GMP's mpz_powm and mpz_powm_sec, 512 to 8192 bits, ratios of medians of
# interleaved rounds.
#
#   test/bench/run-ifma-bench.sh [ROUNDS [BITS...]]
#   test/bench/run-ifma-bench.sh --build-only
#
# --build-only builds build/bench/ifma_bench and stops: how the tests
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
c_bench ifma_bench "test/bench/ifma_bench.c ${OBJECTS:-$(c_sources_below_jni)}" "$@"
