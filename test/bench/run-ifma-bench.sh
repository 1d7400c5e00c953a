#!/bin/sh
# Builds and runs test/bench/ifma_bench.c: the AVX-512 IFMA engine against
# GMP's mpz_powm and mpz_powm_sec, 512 to 8192 bits, ratios of medians of
# interleaved rounds.  Usage: test/bench/run-ifma-bench.sh [ROUNDS [BITS...]]
# GMP_PREFIX: the GMP to compare with (default build/gmp-static, the one the
# static library ships; the system GMP when that is missing).
set -eu
cd "$(dirname "$0")/../.."
. test/lib.sh
CC=${CC:-cc}
prefix=${GMP_PREFIX:-build/gmp-static}
if [ -r "$prefix/lib/libgmp.a" ]; then
    gmp_cflags="-I$prefix/include"
    gmp_libs="$prefix/lib/libgmp.a"
else
    echo "# $prefix/lib/libgmp.a not found: comparing with the system GMP" >&2
    gmp_cflags=
    gmp_libs=-lgmp
fi
mkdir -p build/bench
# The library's sources below JNI, as the C tests link them (the engine
# needs its CPU check, self-test and the size table of src/engines/registry.c).
# shellcheck disable=SC2046 # a list of files
$CC -O2 -std=c11 -Wall -Wextra -Werror $gmp_cflags -Isrc -o build/bench/ifma_bench \
    test/bench/ifma_bench.c $(c_sources_below_jni) $gmp_libs
exec build/bench/ifma_bench "$@"
