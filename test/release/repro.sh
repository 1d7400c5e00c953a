#!/bin/sh
# test/release/repro.sh - the host pieces of a release build to the same
# bytes from two directories: the source as a release carries it
# (src/release/source-tree.sh) is copied to two folders of different path
# lengths, and each builds, one after the other, lib/libjbigi.so and its jar,
# then this CPU's row as the dist builds it (its Linux library, its Windows
# DLL, jcpuid for both) and the dist jar's assembly from them.  Both reuse
# this tree's GMP source and builds (build/gmp-src-<version>, build/gmp-static,
# build/gmp-<version>-<cpu> and -windows-<cpu>), never build GMP.  One ok / not
# ok line per file compared, and one per tree for build paths inside; ends
# with "N passed, N failed, N skipped".  Called by test/run-tests.sh --all
# (make check); a few minutes on 2 cores.
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
passed=0
failed=0
skipped=0
finish() {
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
    exit
}

root=$PWD/build/repro
variant=$(cat build/gmp-static/jbigi-variant 2>/dev/null || true)
if [ -z "$variant" ] || [ ! -f "build/gmp-$GMP_VERSION-$variant/install/libgmp.a" ] &&
    [ ! -f "build/gmp-$GMP_VERSION-$variant/install/lib/libgmp.a" ]; then
    skip "no GMP build for this CPU's row under build/ (./build.sh first)"
    finish
fi
if ! command -v strip-nondeterminism >/dev/null; then
    skip "strip-nondeterminism not installed: the jars are not normalised (apt-get install strip-nondeterminism)"
    finish
fi
: "${SOURCE_DATE_EPOCH:=$(git log -1 --format=%ct 2>/dev/null || cat SOURCE_DATE_EPOCH)}"
export SOURCE_DATE_EPOCH
windows=
[ -f "build/gmp-$GMP_VERSION-windows-$variant/install/jbigi-config" ] && command -v x86_64-w64-mingw32-gcc >/dev/null &&
    windows=$variant

# The outputs compared, relative to a tree.
outputs="lib/libjbigi.so build/host.jar build/jcpuid/libjcpuid-x86_64-linux.so build/dist/libjbigi-linux-${variant}_64.so build/jbigi.jar build/i2p/jbigi.jar"
[ -n "$windows" ] && outputs="$outputs build/dist/jbigi-windows-${variant}_64.dll build/jcpuid/jcpuid-x86_64-windows.dll"

# build_in DIR: the source copied to DIR, this tree's GMP builds linked in, the pieces built.
build_in() {
    dir=$1
    sh src/release/source-tree.sh "$dir" || return 1
    mkdir -p "$dir/build"
    for g in gmp-src-$GMP_VERSION "gmp-$GMP_VERSION-$variant" ${windows:+"gmp-$GMP_VERSION-windows-$windows"}; do
        ln -s "$(readlink -f "build/$g")" "$dir/build/$g"
    done
    ln -s "gmp-$GMP_VERSION-$variant/install" "$dir/build/gmp-static"
    # Not this run's make or flags: the tree's own defaults, warnings as errors.
    (
        cd "$dir" && unset MAKEFLAGS MFLAGS MAKELEVEL CFLAGS GMP_LIBS C_SOURCES &&
            make -s WERROR=1 lib/libjbigi.so build/jbigi.jar && mv build/jbigi.jar build/host.jar &&
            make -s WERROR=1 dist-lib VARIANT="$variant" &&
            { [ -z "$windows" ] || make -s WERROR=1 dist-lib-windows VARIANT="$windows"; } &&
            make -s WERROR=1 dist-jar DIST_VARIANTS="$variant" DIST_WINDOWS_VARIANTS="$windows"
    ) >"$dir.log" 2>&1
}

rm -rf "$root"
mkdir -p "$root"
status=0
build_in "$root/a" || status=1
build_in "$root/second-tree/at/a/longer/path/b" || status=1
if [ "$status" -ne 0 ]; then
    tail -n 20 "$root"/*.log "$root"/second-tree/at/a/longer/path/*.log
    not_ok "the two trees built (logs above)"
    finish
fi
for f in $outputs; do
    a=$root/a/$f
    b=$root/second-tree/at/a/longer/path/b/$f
    if [ ! -f "$a" ] || [ ! -f "$b" ]; then
        not_ok "$f: not built in both trees"
    elif cmp -s "$a" "$b"; then
        ok "$f: the same bytes from both trees ($(sha256sum <"$a" | cut -c1-16))"
    else
        not_ok "$f differs between the two trees"
    fi
done
# No trace of either tree's path in what they built.
for t in a second-tree/at/a/longer/path/b; do
    hits=$(cd "$root/$t" && for f in $outputs; do
        case $f in *.jar) unzip -p "$f" ;; *) cat "$f" ;; esac | grep -caF "$root/$t" | sed "s#^[1-9].*#$f#;/^0$/d"
    done)
    if [ -z "$hits" ]; then ok "no build path in the outputs of $t"; else not_ok "$root/$t appears in: $hits"; fi
done
rm -rf "$root"
finish
