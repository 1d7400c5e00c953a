#!/bin/sh
# test/jni/run.sh - builds the JNI harness (test/jni/*.c) and runs it
# against a jbigi library without a JVM; the harness prints "ok"/"not ok"/
# "skip" lines and one "N passed, N failed, N skipped" line, and this
# script exits with its status.
#
#   test/jni/run.sh [--valgrind] [--no-gmp] [LIBRARY]
#       Linux: the host's cc, LIBRARY default lib/libjbigi.so (made with
#       "make lib/libjbigi.so" if missing).  --valgrind runs the harness
#       under valgrind memcheck (leaks included) at JBIGI_TEST_SCALE=10
#       unless set.  Valgrind's CPUID hides some instructions (ADX,
#       AVX-512), so a library built for this CPU may refuse to load there
#       (one skip): give it a lower variant's library, e.g. one from
#       "make dist-lib VARIANT=coreihwl".  --no-gmp builds without the GMP
#       reference (the random cases then check the natives against each
#       other only).
#
#   test/jni/run.sh --musl [--no-gmp] [LIBRARY]
#       The same harness built with Debian's musl-gcc (musl-tools) and run
#       under musl's loader, which dlopens LIBRARY (default
#       lib/libjbigi.so) as an Alpine-based JVM would: a library needing
#       any glibc file but libc.so.6 fails to load.  The GMP reference is
#       build/gmp-static's libgmp.a when it links with musl-gcc; random
#       cases at JBIGI_TEST_SCALE=10 unless set.  Without musl-gcc: one
#       skip, counted.
#
#   test/jni/run.sh --windows [--no-gmp] [DLL]
#       Windows x86-64: cross-built with x86_64-w64-mingw32-gcc, run with
#       Debian's wine64; DLL default build/dist/jbigi-windows-zen2_64.dll.
#       The GMP reference links the mingw-w64 GMP of
#       build/gmp-*-windows-*/install when one is there.  Without a DLL,
#       only the build is checked.
#
# Run from anywhere; everything is relative to the repository's root.
# Build output goes to build/jni-harness/.  JBIGI_TEST_SEED replays the
# random cases of a run (the harness prints its seed).
set -eu

cd "$(dirname "$0")/../.."
OUT=build/jni-harness
# All but bench*.c, the second program of this directory (bench.sh).
SOURCES=
for source in test/jni/*.c; do
    case $source in test/jni/bench*) ;; *) SOURCES="$SOURCES $source" ;; esac
done
VECTORS=$(ls test/vectors/*.txt)
WARNINGS="-std=c11 -O2 -Wall -Wextra -Werror"

target=linux
valgrind=0
gmp=1
library=
for arg in "$@"; do
    case $arg in
        --valgrind) valgrind=1 ;;
        --windows) target=windows ;;
        --musl) target=musl ;;
        --no-gmp) gmp=0 ;;
        -*) echo "usage: $0 [--windows | --musl] [--valgrind] [--no-gmp] [LIBRARY]" >&2; exit 2 ;;
        *) library=$arg ;;
    esac
done
mkdir -p "$OUT"

# The JDK of the javac on PATH, for jni.h.
java_home() {
    javac=$(command -v javac) || { echo "run.sh: no javac on PATH (jni.h comes from its JDK)" >&2; exit 2; }
    dirname "$(dirname "$(readlink -f "$javac")")"
}

# Whether compiler $1 (with flags $2) builds and links a GMP program: the
# reference is optional, so its absence is said, not fatal.
gmp_links() { # cc flags
    printf '#include <gmp.h>\nint main(void){mpz_t z; mpz_init(z); mpz_clear(z); return 0;}\n' >"$OUT/gmp-probe.c"
    # shellcheck disable=SC2086 # $2 is a list of flags (libraries after the source)
    "$1" "$OUT/gmp-probe.c" -o "$OUT/gmp-probe.out" $2 >/dev/null 2>&1
}

build_linux() {
    jh=$(java_home)
    flags="$WARNINGS -Iinclude -I$jh/include -I$jh/include/linux"
    gmp_flags=
    if [ "$gmp" -eq 1 ] && gmp_links cc "-lgmp"; then
        gmp_flags="-DJNI_HARNESS_GMP"
        gmp_libs="-lgmp"
    else
        [ "$gmp" -eq 1 ] && echo "# run.sh: no GMP to link (libgmp-dev): building without the GMP reference"
        gmp_libs=
    fi
    # shellcheck disable=SC2086 # lists of flags and files
    cc $flags $gmp_flags $SOURCES -o "$OUT/jni_harness" -ldl $gmp_libs
}

run_linux() {
    lib=${library:-lib/libjbigi.so}
    if [ ! -f "$lib" ] && [ "$lib" = lib/libjbigi.so ]; then
        echo "# run.sh: $lib missing: make lib/libjbigi.so (under a minute)"
        make lib/libjbigi.so
    fi
    if [ "$valgrind" -eq 1 ]; then
        command -v valgrind >/dev/null || { echo "run.sh: valgrind is not installed" >&2; exit 2; }
        # shellcheck disable=SC2086 # a list of files
        JBIGI_TEST_SCALE=${JBIGI_TEST_SCALE:-10} valgrind --error-exitcode=1 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect "$OUT/jni_harness" "$lib" $VECTORS
    else
        # shellcheck disable=SC2086 # a list of files
        "$OUT/jni_harness" "$lib" $VECTORS
    fi
}

# ---- musl: Debian's musl-gcc, and musl's loader ----

build_musl() {
    jh=$(java_home)
    flags="$WARNINGS -Iinclude -I$jh/include -I$jh/include/linux"
    gmp_flags=
    gmp_libs=
    # GMP's static library has no libc of its own to mix: it links as is.
    gmp_dir=build/gmp-static
    if [ "$gmp" -eq 1 ] && [ -f "$gmp_dir/lib/libgmp.a" ] &&
        gmp_links musl-gcc "-I$gmp_dir/include $gmp_dir/lib/libgmp.a"; then
        gmp_flags="-DJNI_HARNESS_GMP -I$gmp_dir/include"
        gmp_libs="$gmp_dir/lib/libgmp.a"
    elif [ "$gmp" -eq 1 ]; then
        echo "# run.sh: no static GMP under $gmp_dir that musl-gcc links: building without the GMP reference"
    fi
    # shellcheck disable=SC2086 # lists of flags and files
    musl-gcc $flags $gmp_flags $SOURCES -o "$OUT/jni_harness_musl" $gmp_libs
}

run_musl() {
    lib=${library:-lib/libjbigi.so}
    # The interpreter is musl's: the harness's dlopen is musl's loader.
    interpreter=$(readelf -l "$OUT/jni_harness_musl" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
    echo "# run.sh: $OUT/jni_harness_musl runs under ${interpreter:-a static musl}"
    # shellcheck disable=SC2086 # a list of files
    JBIGI_TEST_SCALE=${JBIGI_TEST_SCALE:-10} "$OUT/jni_harness_musl" "$lib" $VECTORS
}

# ---- Windows x86-64: mingw-w64 and wine64 ----

build_windows() {
    command -v x86_64-w64-mingw32-gcc >/dev/null ||
        { echo "run.sh: x86_64-w64-mingw32-gcc not installed (gcc-mingw-w64-x86-64)" >&2; exit 2; }
    jh=$(java_home)
    # include/win32/jni_md.h stands in for the Windows JDK's header.
    flags="$WARNINGS -Iinclude/win32 -Iinclude -I$jh/include"
    gmp_flags=
    gmp_libs=
    # A GMP cross-built for mingw-w64 (./build.sh --gmp-only windows-<cpu>).
    gmp_dir=
    for dir in build/gmp-*-windows-*/install; do
        [ -f "$dir/include/gmp.h" ] && [ -f "$dir/lib/libgmp.a" ] && gmp_dir=$dir && break
    done
    if [ "$gmp" -eq 1 ] && [ -n "$gmp_dir" ] &&
        gmp_links x86_64-w64-mingw32-gcc "-I$gmp_dir/include $gmp_dir/lib/libgmp.a"; then
        gmp_flags="-DJNI_HARNESS_GMP -I$gmp_dir/include"
        gmp_libs="$gmp_dir/lib/libgmp.a"
    elif [ "$gmp" -eq 1 ]; then
        echo "# run.sh: no mingw-w64 GMP under build/: building without the GMP reference"
    fi
    # -static: the .exe needs no mingw runtime DLLs beside it under wine.
    # shellcheck disable=SC2086 # lists of flags and files
    x86_64-w64-mingw32-gcc $flags $gmp_flags $SOURCES -o "$OUT/jni_harness.exe" -static $gmp_libs
}

run_windows() {
    dll=${library:-build/dist/jbigi-windows-zen2_64.dll}
    if [ ! -f "$dll" ]; then
        echo "skip - no $dll to run the Windows harness on (compiled $OUT/jni_harness.exe only)"
        echo "0 passed, 0 failed, 1 skipped"
        return 0
    fi
    wine=/usr/lib/wine/wine64 # Debian's wine64 puts no "wine" on PATH
    [ -x "$wine" ] || { echo "run.sh: $wine not installed (wine64)" >&2; exit 2; }
    # A prefix of the harness' own, under build/, made on first use.
    # shellcheck disable=SC2086 # a list of files
    WINEPREFIX=$(pwd)/$OUT/wine WINEDEBUG=-all "$wine" "$OUT/jni_harness.exe" "$dll" $VECTORS
}

if [ "$target" = windows ]; then
    [ "$valgrind" -eq 0 ] || { echo "run.sh: --valgrind is for the Linux build" >&2; exit 2; }
    build_windows
    run_windows
elif [ "$target" = musl ]; then
    [ "$valgrind" -eq 0 ] || { echo "run.sh: --valgrind is for the Linux build" >&2; exit 2; }
    if ! command -v musl-gcc >/dev/null; then
        echo "skip - no musl-gcc to build the harness for musl's loader (apt-get install musl-tools)"
        echo "0 passed, 0 failed, 1 skipped"
        exit 0
    fi
    build_musl
    run_musl
else
    build_linux
    run_linux
fi
