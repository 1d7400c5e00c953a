#!/bin/sh
# test/jni/bench.sh - the natives' speed through the same JNI entry points
# (test/jni/bench.c, with the harness's fake JNIEnv) in two libraries,
# call for call.  A measurement, not a test: it prints figures and exits 0
# whatever they are.
#
#   test/jni/bench.sh [PAIRS [ROUNDS]]
#   test/jni/bench.sh --against BEFORE.so [PAIRS [ROUNDS]]
#
# The first form: a Windows DLL under wine against the Linux library of the
# same variant.  Builds bench for Linux (the host's cc) and for Windows
# (x86_64-w64-mingw32-gcc, run with Debian's wine64), then runs them in
# turn PAIRS times (default 5): the Linux bench on
# build/dist/libjbigi-linux-VARIANT_64.so, then the Windows bench on
# build/dist/jbigi-windows-VARIANT_64.dll, each with ROUNDS rounds (default
# 5), VARIANT being this CPU's ("./build.sh --host-variant"; VARIANT=...
# overrides it).
#
# The second form: a Linux library built from an earlier commit (against
# the same GMP) and lib/libjbigi.so, both on Linux, in turn PAIRS times:
# whether a change left the Linux library's speed as it was.
#
# Interleaved, so that a change in the machine's load falls on both.  Then
# one table: for each engine, native and modulus size, the median over the
# pairs of each side's median time per call, and the median over the pairs
# of the second side's time over the first's in the same pair.
#
# Run from anywhere (a relative BEFORE.so is taken from where it is run);
# everything else is relative to the repository's root.  Output goes to
# build/jni-bench/ (the wine prefix there too, made by a warm-up run before
# any timing).
set -eu

against=
if [ "${1:-}" = --against ]; then
    [ $# -ge 2 ] || { echo "usage: $0 --against BEFORE.so [PAIRS [ROUNDS]]" >&2; exit 2; }
    against=$(readlink -f "$2")
    shift 2
fi
cd "$(dirname "$0")/../.."
OUT=build/jni-bench
BENCH_SOURCES="test/jni/bench.c test/jni/bench_clock.c test/jni/calls.c test/jni/bigbytes.c test/jni/report.c
 test/jni/natives.c test/jni/loader.c test/jni/fake_env.c test/jni/fake_objects.c test/jni/fake_state.c
 test/jni/fake_traps.c"
WARNINGS="-std=c11 -O2 -Wall -Wextra -Werror"

pairs=${1:-5}
rounds=${2:-5}
case $pairs$rounds in
    *[!0-9]*) echo "usage: $0 [PAIRS [ROUNDS]]" >&2; exit 2 ;;
esac
if [ "$pairs" -lt 1 ] || [ "$rounds" -lt 1 ]; then echo "usage: $0 [PAIRS [ROUNDS]]" >&2; exit 2; fi

javac=$(command -v javac) || { echo "bench.sh: no javac on PATH (jni.h comes from its JDK)" >&2; exit 2; }
jh=$(dirname "$(dirname "$(readlink -f "$javac")")")
rm -rf "$OUT/runs"
mkdir -p "$OUT/runs"
# shellcheck disable=SC2086 # lists of flags and files
cc $WARNINGS -Iinclude -I"$jh/include" -I"$jh/include/linux" $BENCH_SOURCES -o "$OUT/bench" -ldl

# Side a runs first in each pair, side b second; the table gives b / a.
if [ -n "$against" ]; then
    a_lib=$against
    b_lib=lib/libjbigi.so
    for f in "$a_lib" "$b_lib"; do
        [ -f "$f" ] || { echo "bench.sh: no $f" >&2; exit 2; }
    done
    a_name=before b_name=after tolerance=0.02
    echo "# bench.sh: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPU(s)"
    echo "# bench.sh: $pairs pairs ($a_lib, then $b_lib) of $rounds rounds each"
else
    # build/dist/ names x86-64 libraries VARIANT_64 (zen2_64, core2_64).
    variant=${VARIANT:-$(./build.sh --host-variant | tail -1)}
    variant=${variant%_64}_64
    a_lib=build/dist/libjbigi-linux-$variant.so
    b_lib=build/dist/jbigi-windows-$variant.dll
    for f in "$a_lib" "$b_lib"; do
        [ -f "$f" ] || { echo "bench.sh: no $f (./build.sh dist makes it)" >&2; exit 2; }
    done
    wine=/usr/lib/wine/wine64 # Debian's wine64 puts no "wine" on PATH
    [ -x "$wine" ] || { echo "bench.sh: $wine not installed (wine64)" >&2; exit 2; }
    command -v x86_64-w64-mingw32-gcc >/dev/null ||
        { echo "bench.sh: x86_64-w64-mingw32-gcc not installed (gcc-mingw-w64-x86-64)" >&2; exit 2; }
    # include/win32/jni_md.h stands in for the Windows JDK's header;
    # -static: no mingw runtime DLLs needed beside the .exe.
    # shellcheck disable=SC2086 # lists of flags and files
    x86_64-w64-mingw32-gcc $WARNINGS -Iinclude/win32 -Iinclude -I"$jh/include" $BENCH_SOURCES \
        -o "$OUT/bench.exe" -static
    WINEPREFIX=$(pwd)/$OUT/wine
    WINEDEBUG=-all
    export WINEPREFIX WINEDEBUG
    a_name=linux b_name=windows tolerance=0.05
    echo "# bench.sh: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPU(s), variant $variant"
    echo "# bench.sh: $pairs pairs (Linux then Windows) of $rounds rounds each"
    echo "# bench.sh: wine warm-up (makes the prefix $OUT/wine on first use)"
    "$wine" "$OUT/bench.exe" "$b_lib" 1 >"$OUT/runs/warm-up.txt" 2>&1 ||
        { cat "$OUT/runs/warm-up.txt"; echo "bench.sh: the Windows bench failed" >&2; exit 1; }
fi

# run_side a|b PAIR: one bench run of that side into $OUT/runs/a-PAIR.txt.
run_side() {
    if [ "$1" = b ] && [ -z "$against" ]; then
        # A Windows console program writes CRLF.
        "$wine" "$OUT/bench.exe" "$b_lib" "$rounds" >"$OUT/runs/b-$2.raw" || {
            cat "$OUT/runs/b-$2.raw"
            return 1
        }
        tr -d '\r' <"$OUT/runs/b-$2.raw" >"$OUT/runs/b-$2.txt"
    else
        if [ "$1" = a ]; then lib=$a_lib; else lib=$b_lib; fi
        "$OUT/bench" "$lib" "$rounds" >"$OUT/runs/$1-$2.txt" || {
            cat "$OUT/runs/$1-$2.txt"
            return 1
        }
    fi
}

r=1
while [ "$r" -le "$pairs" ]; do
    run_side a "$r" || { echo "bench.sh: the $a_name bench failed" >&2; exit 1; }
    run_side b "$r" || { echo "bench.sh: the $b_name bench failed" >&2; exit 1; }
    echo "# bench.sh: pair $r of $pairs done"
    r=$((r + 1))
done
grep -h '^# engine .*skipped' "$OUT/runs/a-1.txt" | sed "s/^# /# $a_name: /" || true
grep -h '^# engine .*skipped' "$OUT/runs/b-1.txt" | sed "s/^# /# $b_name: /" || true

# One row per "engine op bits", in the order of side a's first run.
awk -v pairs="$pairs" -v a_name="$a_name" -v b_name="$b_name" -v tolerance="$tolerance" '
function median(v, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
/^#/ || NF != 4 { next }
{
    name = path[split(FILENAME, path, "/")]
    side = substr(name, 1, 1)
    run = name; sub(/^[ab]-/, "", run); sub(/\.txt$/, "", run)
    key = $1 " " $2 " " $3
    if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key; engine_of[key] = $1 }
    t[side, key, run] = $4
}
END {
    printf "%-6s %-15s %5s %12s %12s %8s\n", "engine", "op", "bits", a_name "_us", b_name "_us",
        substr(b_name, 1, 3) "/" substr(a_name, 1, 3)
    for (k = 1; k <= nkeys; k++) {
        key = keys[k]; na = nb = nr = 0
        for (r = 1; r <= pairs; r++) {
            if ((("a", key, r) in t)) va[++na] = t["a", key, r]
            if ((("b", key, r) in t)) vb[++nb] = t["b", key, r]
            if ((("a", key, r) in t) && (("b", key, r) in t) && t["a", key, r] > 0)
                q[++nr] = t["b", key, r] / t["a", key, r]
        }
        split(key, f, " ")
        printf "%-6s %-15s %5s %12s %12s %8s\n", f[1], f[2], f[3],
            na ? sprintf("%.1f", median(va, na)) : "-", nb ? sprintf("%.1f", median(vb, nb)) : "-",
            nr ? sprintf("%.3f", ratio[key] = median(q, nr)) : "-"
        if (nr) { e = engine_of[key]; if (!(e in count)) engines[++nengines] = e; rs[e, ++count[e]] = ratio[key] }
    }
    print ""
    printf "# per engine, over its rows: the median %s/%s ratio, the range, and whether every row is within %d%%\n",
        b_name, a_name, tolerance * 100
    for (i = 1; i <= nengines; i++) {
        e = engines[i]; lo = 1e9; hi = 0; within = "yes"
        for (j = 1; j <= count[e]; j++) {
            v[j] = rs[e, j]
            if (v[j] < lo) lo = v[j]
            if (v[j] > hi) hi = v[j]
            if (v[j] < 1 - tolerance || v[j] > 1 + tolerance) within = "no"
        }
        printf "%-6s median %.3f, range %.3f to %.3f, all within %d%%: %s\n", e, median(v, count[e]), lo, hi,
            tolerance * 100, within
    }
}' "$OUT"/runs/a-*.txt "$OUT"/runs/b-*.txt
