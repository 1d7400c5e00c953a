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
$CC -O2 -std=c11 -Wall -Wextra -Werror $gmp_cflags -Isrc -o build/bench/p25519_bench \
    test/bench/p25519_bench.c $objects $gmp_libs
$build_only && exit 0
exec build/bench/p25519_bench "$@"
