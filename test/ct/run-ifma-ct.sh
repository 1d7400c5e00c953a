#!/bin/sh
# Builds and runs test/ct/ifma_ct.c: the dudect-style timing check of the
# IFMA engine's constant-time exponentiation, with its variable-time path as
# the control.  Usage: test/ct/run-ifma-ct.sh [MEASUREMENTS [BITS]].
# A measurement, not a test: run it on a quiet machine.
set -eu
cd "$(dirname "$0")/../.."
CC=${CC:-cc}
mkdir -p build/ct
$CC -O2 -std=c11 -Wall -Wextra -Werror ${GMP_CFLAGS:-} -Isrc -o build/ct/ifma_ct test/ct/ifma_ct.c \
    src/ifma_cpu.c src/ifma_mont.c src/ifma_powm.c ${GMP_LIBS:--lgmp} -lm
exec build/ct/ifma_ct "$@"
