#!/bin/sh
# Builds and runs test/ct/engine_ct.c: the dudect-style timing check of an
# engine's constant-time exponentiation (IFMA, MULX/ADX or the special-form
# field of 2^255 - 19), with its variable-time path as the control.
# Usage: test/ct/run-engine-ct.sh [ifma|adx|gmp|p25519 [MEASUREMENTS [BITS [random|2]]]] (the base:
# 2 takes the base-2 path; gmp: GMP's functions on it, base 2 only; p25519:
# BITS 256, the modulus 2^255 - 19).
# A measurement, not a test: run it on a quiet machine.
set -eu
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
mkdir -p build/ct
. test/lib.sh
# shellcheck disable=SC2046 # the sources are words
$CC -O2 -std=c11 -Wall -Wextra -Werror ${GMP_CFLAGS:-} -Isrc -o build/ct/engine_ct test/ct/engine_ct.c \
    $(c_sources_below_jni) ${GMP_LIBS:--lgmp} -lm
exec build/ct/engine_ct "$@"
