#!/bin/sh
# Builds and runs test/bench/jacobi_bench.c: the Jacobi symbol
# (src/core/jacobi.c) against GMP's mpz_jacobi in one process, ratios of
# medians of interleaved rounds, 64 to 2048 bits and 2^255 - 19.
#
#   test/bench/run-jacobi-bench.sh [ROUNDS [BITS...]]
#   test/bench/run-jacobi-bench.sh --build-only
#
# --build-only builds build/bench/jacobi_bench and stops: how the tests
# (test/bench/check-build.sh) keep the benchmark compiling.
# GMP_PREFIX: the GMP to compare with (default build/gmp-static, the one a
# static build links; the system GMP when that is missing or GMP_PREFIX is
# set empty).
set -eu
cd "$(dirname "$0")/../.."
. test/bench/c-bench.sh
c_bench jacobi_bench "test/bench/jacobi_bench.c src/core/jacobi.c" "$@"
