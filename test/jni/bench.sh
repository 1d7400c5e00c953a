#!/bin/sh
# test/jni/bench.sh - the natives' speed through the same JNI entry points
# (test/jni/bench.c, with the harness's fake JNIEnv) in two libraries,
# round for round.  A measurement, not a test: it prints figures and exits
# 0 whatever they are.
#
#   test/jni/bench.sh [ROUNDS]
#   test/jni/bench.sh --against BEFORE.so [ROUNDS]
#
# The first form: a Windows DLL under wine against the Linux library of the
# same variant.  Builds bench for Linux (the host's cc) and for Windows
# (x86_64-w64-mingw32-gcc, run with Debian's wine64): side a is the Linux
# bench on build/dist/libjbigi-linux-VARIANT_64.so, side b the Windows
# bench on build/dist/jbigi-windows-VARIANT_64.dll, VARIANT being this
# CPU's ("./build.sh --host-variant"; VARIANT=... overrides it).
#
# The second form: side a a Linux library built from an earlier commit
# (against the same GMP), side b lib/libjbigi.so: whether a change left the
# Linux library's speed as it was.
#
# Both sides run at once as two processes, on one CPU, in lock-step (bench
# --lockstep):
# each figure's ROUNDS rounds (default 31) of about 20 ms alternate between
# them, a then b, then b then a, so that the machine's load, which drifts
# over seconds on a shared machine, falls on both sides of each ratio.
# Then one table: for each engine, native and modulus size, each side's
# median time per call and the median over the rounds of b's time over a's
# in the same step.
#
# BENCH_BITS and BENCH_OPS choose other sizes and natives (bench.c's header:
# e.g. BENCH_BITS="256 1024" BENCH_OPS="nativeModPow nativeModPow-e3").
#
# Run from anywhere (a relative BEFORE.so is taken from where it is run);
# everything else is relative to the repository's root.  Output goes to
# build/jni-bench/ (the wine prefix there too, made by a warm-up run before
# any timing).
set -eu

against=
if [ "${1:-}" = --against ]; then
    [ $# -ge 2 ] || { echo "usage: $0 --against BEFORE.so [ROUNDS]" >&2; exit 2; }
    against=$(readlink -f "$2")
    shift 2
fi
cd "$(dirname "$0")/../.."
OUT=build/jni-bench
BENCH_SOURCES="test/jni/bench.c test/jni/bench_clock.c test/jni/calls.c test/jni/bigbytes.c test/jni/report.c
 test/jni/natives.c test/jni/loader.c test/jni/fake_env.c test/jni/fake_objects.c test/jni/fake_state.c
 test/jni/fake_traps.c"
WARNINGS="-std=c11 -O2 -Wall -Wextra -Werror"

rounds=${1:-31}
case $rounds in
    '' | *[!0-9]*) echo "usage: $0 [--against BEFORE.so] [ROUNDS]" >&2; exit 2 ;;
esac
if [ "$rounds" -lt 1 ] || [ "$rounds" -gt 1000 ]; then echo "usage: $0 [--against BEFORE.so] [ROUNDS], ROUNDS 1 to 1000" >&2; exit 2; fi

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
    echo "# bench.sh: $a_lib (a) against $b_lib (b), $rounds lock-step rounds per figure"
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
    echo "# bench.sh: Linux (a) against Windows (b), $rounds lock-step rounds per figure"
    echo "# bench.sh: wine warm-up (makes the prefix $OUT/wine on first use)"
    "$wine" "$OUT/bench.exe" "$b_lib" 1 >"$OUT/runs/warm-up.txt" 2>&1 ||
        { cat "$OUT/runs/warm-up.txt"; echo "bench.sh: the Windows bench failed" >&2; exit 1; }
fi

# Both benches on one CPU (BENCH_CPU, default 0): on a virtual machine two
# virtual CPUs can differ by a fifth in speed for seconds at a time (a
# busy neighbour on the same core), which the lock-step alone would turn
# into a ratio.  taskset is util-linux's; without it, unpinned.
pin=
if command -v taskset >/dev/null 2>&1; then
    pin="taskset -c ${BENCH_CPU:-0}"
fi
# Both benches, their stdin and stdout on fifos: a's on fds 3 (go) and 4
# (its lines), b's on 5 and 6.
for f in a.in a.out b.in b.out; do
    rm -f "$OUT/$f"
    mkfifo "$OUT/$f"
done
$pin "$OUT/bench" "$a_lib" "$rounds" --lockstep <"$OUT/a.in" >"$OUT/a.out" 2>"$OUT/runs/a.err" &
a_pid=$!
if [ -n "$against" ]; then
    $pin "$OUT/bench" "$b_lib" "$rounds" --lockstep <"$OUT/b.in" >"$OUT/b.out" 2>"$OUT/runs/b.err" &
else
    $pin "$wine" "$OUT/bench.exe" "$b_lib" "$rounds" --lockstep <"$OUT/b.in" >"$OUT/b.out" 2>"$OUT/runs/b.err" &
fi
b_pid=$!
exec 3>"$OUT/a.in" 4<"$OUT/a.out" 5>"$OUT/b.in" 6<"$OUT/b.out"

fail() {
    echo "bench.sh: $1" >&2
    cat "$OUT/runs/a.err" "$OUT/runs/b.err" >&2
    kill "$a_pid" "$b_pid" 2>/dev/null || true
    exit 1
}

cr=$(printf '\r') # a Windows console program ends its lines with CRLF
# next_line SIDE: the side's next line that is not a comment, into $line;
# its comments go to runs/SIDE.txt.
next_line() {
    if [ "$1" = a ]; then fd=4; else fd=6; fi
    while :; do
        IFS= read -r line <&$fd || fail "the $1 bench ended early"
        line=${line%"$cr"}
        case $line in
            '#'*) echo "$line" >>"$OUT/runs/$1.txt" ;;
            *) return 0 ;;
        esac
    done
}
# round SIDE: one timed round of that side, its line to runs/SIDE.txt.
round() {
    if [ "$1" = a ]; then echo go >&3; else echo go >&5; fi
    next_line "$1"
    echo "$line" >>"$OUT/runs/$1.txt"
}

: >"$OUT/runs/a.txt"
: >"$OUT/runs/b.txt"
step=0
while :; do
    next_line a
    prompt_a=$line
    next_line b
    [ "$prompt_a" = "$line" ] || fail "the two benches are out of step ($prompt_a, $line)"
    [ "$line" = end ] && break
    [ "$line" = ready ] || fail "unexpected line from the benches: $line"
    if [ $((step % 2)) -eq 0 ]; then
        round a
        round b
    else
        round b
        round a
    fi
    step=$((step + 1))
done
exec 3>&- 5>&-
wait "$a_pid" || fail "the $a_name bench failed"
wait "$b_pid" || fail "the $b_name bench failed"
exec 4<&- 6<&-
rm -f "$OUT/a.in" "$OUT/a.out" "$OUT/b.in" "$OUT/b.out"
echo "# bench.sh: $step steps"
grep -h '^# engine .*skipped' "$OUT/runs/a.txt" | sed "s/^# /# $a_name: /" || true
grep -h '^# engine .*skipped' "$OUT/runs/b.txt" | sed "s/^# /# $b_name: /" || true

# One row per "engine op bits", in the order the benches ran them; the
# k-th result of a and the k-th of b are one step's pair.
awk -v a_name="$a_name" -v b_name="$b_name" -v tolerance="$tolerance" '
function median(v, n,    i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
/^#/ || NF != 4 { next }
{
    name = path[split(FILENAME, path, "/")]
    side = substr(name, 1, 1)
    key = $1 " " $2 " " $3
    k = ++count_of[side]
    key_of[side, k] = key
    t[side, k] = $4
    if (side == "a" && !(key in seen)) { seen[key] = 1; keys[++nkeys] = key; engine_of[key] = $1 }
}
END {
    printf "%-6s %-15s %5s %12s %12s %8s\n", "engine", "op", "bits", a_name "_us", b_name "_us",
        substr(b_name, 1, 3) "/" substr(a_name, 1, 3)
    if (count_of["a"] != count_of["b"]) { print "bench.sh: the sides have different counts of rounds" > "/dev/stderr"; exit 1 }
    for (i = 1; i <= count_of["a"]; i++) {
        if (key_of["a", i] != key_of["b", i]) { print "bench.sh: round " i " is of two figures" > "/dev/stderr"; exit 1 }
        key = key_of["a", i]; n = ++rounds_of[key]
        ta[key, n] = t["a", i]; tb[key, n] = t["b", i]
    }
    for (k = 1; k <= nkeys; k++) {
        key = keys[k]; na = nb = nr = 0
        for (r = 1; r <= rounds_of[key]; r++) {
            va[++na] = ta[key, r]
            vb[++nb] = tb[key, r]
            if (ta[key, r] > 0)
                q[++nr] = tb[key, r] / ta[key, r]
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
}' "$OUT/runs/a.txt" "$OUT/runs/b.txt"
