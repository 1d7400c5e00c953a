#!/bin/sh
# Runs the benchmark: BigInteger against lib/libjbigi.so against GMP called
# from C, fixed-base tables, and the cost of the library's wiping allocator,
# written to build/bench/ (results.csv, speedup.png) and stdout.
# Called by `make bench`, which passes the tools in the environment: JAVA,
# JAVAC, CC, CFLAGS (with GMP's -I), GMP_LIBS (the GMP the library was linked
# with, so the raw C figures are of the same GMP), JNI_CFLAGS (the JDK's
# include directories, for call_floor.c).  Arguments go to Bench:
# --quick, --sizes 256,2048, --ops modPow,modInverse,i2p,fixedBase,wipe,short,small,
# --samples N, --sample-ms N.  --ops small alone: the section small only
# (BenchSmall.java; build/bench/small.csv), about a minute.  JBIGI_LIB_DIR=dir benchmarks dir/libjbigi.so instead.
set -u
cd "$(dirname "$0")/../.."
out=build/bench
lib=${JBIGI_LIB_DIR:-lib}
JAVA=${JAVA:-java}
JAVAC=${JAVAC:-javac}
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2}
GMP_LIBS=${GMP_LIBS:--lgmp}
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVAC")")")")
JNI_CFLAGS=${JNI_CFLAGS:--I$jdk/include -I$jdk/include/linux}
mkdir -p "$out"

if [ ! -r "$lib/libjbigi.so" ] || [ ! -d build/classes ]; then
    echo "!! $lib/libjbigi.so or build/classes missing: run make first" >&2
    exit 1
fi

# The raw C ratios only mean something if both sides run the same GMP.  A
# library linked to libgmp.so against a static GMP_LIBS (or the reverse) is
# the likely slip when this script is run by hand.
case " $GMP_LIBS " in *" -lgmp "*) raw_links=shared ;; *) raw_links=static ;; esac
if ldd "$lib/libjbigi.so" 2>/dev/null | grep -q 'libgmp\.so'; then lib_links=shared; else lib_links=static; fi
if [ "$raw_links" != "$lib_links" ]; then
    echo "WARNING: $lib/libjbigi.so uses a $lib_links GMP but GMP_LIBS ($GMP_LIBS) a $raw_links one:" \
        "the native/raw C ratios will compare two different GMPs." >&2
fi

# src/core/wipe.c is the library's own wiping allocator, linked in so rawgmp can
# time GMP with it and without it.
# OpenSSL's libcrypto (libssl-dev), for the benchmark only: the rows every
# engine is measured against.  Without it those rows are left out.
openssl_flags=
if [ -r /usr/include/openssl/bn.h ]; then
    openssl_flags="-DJBIGI_BENCH_OPENSSL -lcrypto"
else
    echo "# no OpenSSL headers (apt-get install libssl-dev): no OpenSSL rows" >&2
fi
# shellcheck disable=SC2086 # flag lists
if ! $CC $CFLAGS -Isrc -o "$out/rawgmp" test/bench/rawgmp.c test/bench/rawgmp_openssl.c src/core/wipe.c src/platform/posix.c $GMP_LIBS \
    $openssl_flags; then
    echo "!! test/bench/rawgmp.c (with src/core/wipe.c) did not compile" >&2
    exit 1
fi
# call_floor.c: the floor under the section small's exponent-3 row, a JNI
# library against the same GMP (JNI_CFLAGS: the JDK's include directories).
# shellcheck disable=SC2086 # flag lists
if ! $CC $CFLAGS $JNI_CFLAGS -shared -o "$out/libjbigibenchfloor.so" test/bench/call_floor.c $GMP_LIBS; then
    echo "!! test/bench/call_floor.c did not compile" >&2
    exit 1
fi
rm -rf "$out/classes"
mkdir -p "$out/classes"
if ! $JAVAC -Xlint:all -Werror -d "$out/classes" -cp build/classes test/bench/*.java; then
    echo "!! test/bench/*.java did not compile" >&2
    exit 1
fi

# A fixed heap: no resizing in the middle of a measurement.
$JAVA -Xms512m -Xmx512m -Djava.library.path="$lib" -Djbigi.bench.floor="$PWD/$out/libjbigibenchfloor.so" -cp "build/classes:$out/classes" \
    net.i2p.util.Bench --rawgmp "$out/rawgmp" --out "$out" "$@"
status=$?
[ "$status" -eq 0 ] || exit "$status"

# The section small alone writes no chart data.
case " $* " in *" --ops small "*) exit 0 ;; esac
if command -v gnuplot >/dev/null 2>&1; then
    # A run of a few sizes or operations leaves lines of the chart empty:
    # gnuplot's warnings about those say nothing, the rest are shown.
    if gnuplot -e "datafile='$out/speedup.dat'; outfile='$out/speedup.png'" test/bench/speedup.gp 2>"$out/gnuplot.err"; then
        grep -v -e 'no valid points' -e 'empty y range' "$out/gnuplot.err" >&2
        echo "Wrote $out/speedup.png"
    else
        cat "$out/gnuplot.err" >&2
        echo "!! gnuplot failed: $out/speedup.png not made." >&2
    fi
else
    echo "gnuplot not found (apt-get install gnuplot-nox): $out/speedup.png not made."
fi
