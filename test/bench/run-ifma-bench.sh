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
# The library's sources below JNI, as the C tests link them (the engine
# needs its CPU check, self-test and the size rules of src/engines/registry.c).
objects=${OBJECTS:-$(c_sources_below_jni)}
# shellcheck disable=SC2086 # lists of files and flags
$CC -O2 -std=c11 -Wall -Wextra -Werror $gmp_cflags -Isrc -o build/bench/ifma_bench \
    test/bench/ifma_bench.c $objects $gmp_libs
$build_only && exit 0
exec build/bench/ifma_bench "$@"
