#!/bin/sh
# The constant-time measurement (make ct-check): compiles test/ct/CtCheck.java
# against build/classes and runs it on lib/libjbigi.so.  Arguments go to
# CtCheck: --measurements N (default 100000), --wide-measurements N (the
# 4096-bit experiments; default a tenth of N), --seed S, --no-fixed-base,
# --only-top-bit, --only-short (the short-exponent experiments alone),
# --only-p25519 (the experiments under 2^255 - 19 alone).
# JAVA and JAVAC come from the environment (the Makefile passes its own),
# else from PATH.  Exit status: 0 no leak seen, 1 a constant-time path
# leaks, 2 inconclusive (the variable-time contrast showed nothing either).
set -eu
cd "$(dirname "$0")/../.."
JAVA=${JAVA:-java}
JAVAC=${JAVAC:-javac}
if [ ! -r lib/libjbigi.so ] || [ ! -r build/classes/net/i2p/util/NativeBigInteger.class ]; then
    echo "lib/libjbigi.so or build/classes missing: run make first" >&2
    exit 1
fi
rm -rf build/ct
mkdir -p build/ct
"$JAVAC" -Xlint:all -Werror -d build/ct -cp build/classes test/ct/CtCheck.java
exec "$JAVA" -Djava.library.path=lib -cp build/classes:build/ct net.i2p.util.CtCheck "$@"
