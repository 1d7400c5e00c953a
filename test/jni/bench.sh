#!/bin/sh
# test/jni/bench.sh - the speed of a Windows DLL under wine against the
# Linux library of the same variant, through the same JNI entry points
# (test/jni/bench.c, with the harness's fake JNIEnv).  A measurement, not a
# test: it prints figures and exits 0 whatever they are.
#
#   test/jni/bench.sh [PAIRS [ROUNDS]]
#
# Builds bench for Linux (the host's cc) and for Windows
# (x86_64-w64-mingw32-gcc, run with Debian's wine64), then runs them in
# turn PAIRS times (default 5): the Linux bench on
# build/dist/libjbigi-linux-VARIANT_64.so, then the Windows bench on
# build/dist/jbigi-windows-VARIANT_64.dll, each with ROUNDS rounds (default
# 5), VARIANT being this CPU's ("./build.sh --host-variant"; VARIANT=...
# overrides it).  Interleaved, so that a change in the machine's load falls
# on both.  Then one table: for each engine, native and modulus size, the
# median over the pairs of each side's median time per call, and the
# median over the pairs of the Windows/Linux ratio of the same pair.
#
# Run from anywhere; everything is relative to the repository's root.
# Output goes to build/jni-bench/ (the wine prefix there too, made by a
# warm-up run before any timing).
set -eu

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

# build/dist/ names x86-64 libraries VARIANT_64 (zen2_64, core2_64).
variant=${VARIANT:-$(./build.sh --host-variant | tail -1)}
variant=${variant%_64}_64
so=build/dist/libjbigi-linux-$variant.so
dll=build/dist/jbigi-windows-$variant.dll
for f in "$so" "$dll"; do
    [ -f "$f" ] || { echo "bench.sh: no $f (./build.sh dist makes it)" >&2; exit 2; }
done
wine=/usr/lib/wine/wine64 # Debian's wine64 puts no "wine" on PATH
[ -x "$wine" ] || { echo "bench.sh: $wine not installed (wine64)" >&2; exit 2; }
command -v x86_64-w64-mingw32-gcc >/dev/null ||
    { echo "bench.sh: x86_64-w64-mingw32-gcc not installed (gcc-mingw-w64-x86-64)" >&2; exit 2; }
javac=$(command -v javac) || { echo "bench.sh: no javac on PATH (jni.h comes from its JDK)" >&2; exit 2; }
jh=$(dirname "$(dirname "$(readlink -f "$javac")")")

rm -rf "$OUT/runs"
mkdir -p "$OUT/runs"
# shellcheck disable=SC2086 # lists of flags and files
cc $WARNINGS -Iinclude -I"$jh/include" -I"$jh/include/linux" $BENCH_SOURCES -o "$OUT/bench" -ldl
# include/win32/jni_md.h stands in for the Windows JDK's header; -static:
# no mingw runtime DLLs needed beside the .exe.
# shellcheck disable=SC2086 # lists of flags and files
x86_64-w64-mingw32-gcc $WARNINGS -Iinclude/win32 -Iinclude -I"$jh/include" $BENCH_SOURCES -o "$OUT/bench.exe" -static

WINEPREFIX=$(pwd)/$OUT/wine
WINEDEBUG=-all
export WINEPREFIX WINEDEBUG

echo "# bench.sh: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPU(s), variant $variant"
echo "# bench.sh: $pairs pairs (Linux then Windows) of $rounds rounds each"
echo "# bench.sh: wine warm-up (makes the prefix $OUT/wine on first use)"
"$wine" "$OUT/bench.exe" "$dll" 1 >"$OUT/runs/warm-up.txt" 2>&1 ||
    { cat "$OUT/runs/warm-up.txt"; echo "bench.sh: the Windows bench failed" >&2; exit 1; }

r=1
while [ "$r" -le "$pairs" ]; do
    "$OUT/bench" "$so" "$rounds" >"$OUT/runs/linux-$r.txt" ||
        { cat "$OUT/runs/linux-$r.txt"; echo "bench.sh: the Linux bench failed" >&2; exit 1; }
    # A Windows console program writes CRLF.
    "$wine" "$OUT/bench.exe" "$dll" "$rounds" >"$OUT/runs/windows-$r.raw" ||
        { cat "$OUT/runs/windows-$r.raw"; echo "bench.sh: the Windows bench failed" >&2; exit 1; }
    tr -d '\r' <"$OUT/runs/windows-$r.raw" >"$OUT/runs/windows-$r.txt"
    echo "# bench.sh: pair $r of $pairs done"
    r=$((r + 1))
done
grep -h '^# engine .*skipped' "$OUT/runs/linux-1.txt" | sed 's/^# /# Linux: /' || true
grep -h '^# engine .*skipped' "$OUT/runs/windows-1.txt" | sed 's/^# /# Windows: /' || true

# One row per "engine op bits", in the order of the first Linux run.
awk -v pairs="$pairs" '
function median(v, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
/^#/ || NF != 4 { next }
{
    name = path[split(FILENAME, path, "/")]
    side = name ~ /^linux-/ ? "linux" : "windows"
    run = name; sub(/^[a-z]+-/, "", run); sub(/\.txt$/, "", run)
    key = $1 " " $2 " " $3
    if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key; engine_of[key] = $1 }
    t[side, key, run] = $4
}
END {
    printf "%-6s %-15s %5s %12s %12s %8s\n", "engine", "op", "bits", "linux_us", "windows_us", "win/lin"
    for (k = 1; k <= nkeys; k++) {
        key = keys[k]; nl = nw = nr = 0
        for (r = 1; r <= pairs; r++) {
            if ((("linux", key, r) in t)) l[++nl] = t["linux", key, r]
            if ((("windows", key, r) in t)) w[++nw] = t["windows", key, r]
            if ((("linux", key, r) in t) && (("windows", key, r) in t) && t["linux", key, r] > 0)
                q[++nr] = t["windows", key, r] / t["linux", key, r]
        }
        split(key, f, " ")
        printf "%-6s %-15s %5s %12s %12s %8s\n", f[1], f[2], f[3],
            nl ? sprintf("%.1f", median(l, nl)) : "-", nw ? sprintf("%.1f", median(w, nw)) : "-",
            nr ? sprintf("%.3f", ratio[key] = median(q, nr)) : "-"
        if (nr) { e = engine_of[key]; if (!(e in count)) engines[++nengines] = e; rs[e, ++count[e]] = ratio[key] }
    }
    print ""
    print "# per engine, over its rows: the median Windows/Linux ratio, the range, and whether every row is within 5%"
    for (i = 1; i <= nengines; i++) {
        e = engines[i]; lo = 1e9; hi = 0; within = "yes"
        for (j = 1; j <= count[e]; j++) {
            v[j] = rs[e, j]
            if (v[j] < lo) lo = v[j]
            if (v[j] > hi) hi = v[j]
            if (v[j] < 0.95 || v[j] > 1.05) within = "no"
        }
        printf "%-6s median %.3f, range %.3f to %.3f, all within 5%%: %s\n", e, median(v, count[e]), lo, hi, within
    }
}' "$OUT"/runs/linux-*.txt "$OUT"/runs/windows-*.txt
