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
    [ -z "$prefix" ] || echo "# $prefix/lib/libgmp.a not found: linking the system GMP" >&2
    gmp_cflags=
    gmp_libs=-lgmp
fi
mkdir -p build/bench
objects=${OBJECTS:-$(c_sources_below_jni)}
# shellcheck disable=SC2086 # lists of files and flags
$CC -O2 -std=c11 -Wall -Wextra -Werror $gmp_cflags -Isrc -o build/bench/mont_chain \
    test/bench/mont_chain.c $objects $gmp_libs
$build_only && exit 0
exec build/bench/mont_chain "$@"
