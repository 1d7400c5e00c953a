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
build_only=false
if [ "${1:-}" = --build-only ]; then
    build_only=true
    shift
fi
CC=${CC:-cc}
prefix=${GMP_PREFIX-build/gmp-static}
if [ -n "$prefix" ] && [ -r "$prefix/lib/libgmp.a" ]; then
    gmp_cflags="-I$prefix/include"
    gmp_libs="$prefix/lib/libgmp.a"
else
    [ -z "$prefix" ] || echo "# $prefix/lib/libgmp.a not found: comparing with the system GMP" >&2
    gmp_cflags=
    gmp_libs=-lgmp
fi
mkdir -p build/bench
# shellcheck disable=SC2086 # lists of flags
$CC -O2 -std=c11 -Wall -Wextra -Werror $gmp_cflags -Isrc -o build/bench/jacobi_bench \
    test/bench/jacobi_bench.c src/core/jacobi.c $gmp_libs
$build_only && exit 0
exec build/bench/jacobi_bench "$@"
