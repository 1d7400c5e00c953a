#!/bin/sh
# The MULX/ADX engine's hand-written assembly (jbigi_adx_redc8 in
# src/engines/adx/adx_mont.c, jbigi_adx_mul4 and jbigi_adx_sqr4 in src/engines/adx/adx_mont4.c)
# carries call frame information, so that gdb, perf and the JVM's crash
# reports unwind through it:
#  1. in the library ($1, default lib/libjbigi.so), an FDE covers each
#     function's whole range, the frame's CFA is rsp+8 at its first
#     instruction and at the last row (the ret), and reaches the frame's
#     full size in between (136 bytes for redc8, 64 for the others);
#  2. where gdb and the CPU's BMI2 and ADX are here, a probe program
#     (test/unwind/probe.c) stopped at the first MULX of each function (its
#     frame complete) shows a backtrace that reaches main.
# Ends with "N passed, N failed, N skipped".  Environment as for
# run-tests.sh: CC, CFLAGS, GMP_LIBS, C_SOURCES.
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
lib=${1:-lib/libjbigi.so}
out=build/test/unwind
mkdir -p "$out"
passed=0
failed=0
skipped=0
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL $*" >&2; failed=$((failed + 1)); }

functions="jbigi_adx_redc8:136 jbigi_adx_mul4:64 jbigi_adx_sqr4:64"

# ---- 1. the FDEs in the library ----
readelf --debug-dump=frames-interp "$lib" >"$out/frames.txt" 2>/dev/null
for entry in $functions; do
    fn=${entry%%:*}
    frame=${entry#*:}
    sym=$(readelf -sW "$lib" | awk -v f="$fn" '$8 == f && $4 == "FUNC" { print $2, $3; exit }')
    if [ -z "$sym" ]; then
        echo "# SKIP: $fn is not in $lib (not an x86-64 build?)"
        skipped=$((skipped + 1))
        continue
    fi
    start=$((0x${sym% *}))
    end=$((start + ${sym#* }))
    # The FDE whose range holds [start, end), and its table of rows.
    rows=$(awk -v want="$start" -v stop="$end" '
        function hex(s,   i, c, v) { v = 0; s = tolower(s)
            for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
            return v }
        / FDE / { inside = 0
            if (match($0, /pc=[0-9a-f]+\.\.[0-9a-f]+/)) {
                range = substr($0, RSTART + 3, RLENGTH - 3); split(range, p, /\.\./)
                if (hex(p[1]) <= want && stop <= hex(p[2])) { inside = 1; print "FDE", hex(p[1]), hex(p[2]) } }
            next }
        inside && /^[0-9a-f]+ +rsp\+[0-9]+/ { print hex($1), substr($2, 5) }
        inside && /^$/ { inside = 0 }' "$out/frames.txt")
    if [ -z "$rows" ]; then
        bad "$fn: no FDE covers [$start, $end)"
        continue
    fi
    ok
    first=$(printf '%s\n' "$rows" | awk 'NR == 2 { print $1, $2 }')
    last=$(printf '%s\n' "$rows" | awk 'NR > 1 { l = $2 } END { print l }')
    most=$(printf '%s\n' "$rows" | awk 'NR > 1 && $2 > m { m = $2 } END { print m + 0 }')
    [ "$first" = "$start 8" ] && ok || bad "$fn: the CFA at its first instruction is not rsp+8 ($first)"
    [ "$last" = 8 ] && ok || bad "$fn: the CFA at its last row is rsp+$last, not rsp+8"
    [ "$most" = "$frame" ] && ok || bad "$fn: the frame reaches rsp+$most, not rsp+$frame"
done

# ---- 2. gdb unwinds from inside each function to main ----
if ! command -v gdb >/dev/null 2>&1; then
    echo "# SKIP: no gdb here"
    skipped=$((skipped + 3))
elif ! $CC $CFLAGS -Isrc -o "$out/probe" test/unwind/probe.c $(c_sources_below_jni) $GMP_LIBS \
    >"$out/probe.build.log" 2>&1; then
    cat "$out/probe.build.log"
    bad "the probe did not compile"
else
    "$out/probe" >"$out/probe.log" 2>&1
    rc=$?
    if [ "$rc" = 2 ]; then
        echo "# SKIP: this CPU has no BMI2 and ADX: the probe cannot run the functions"
        skipped=$((skipped + 3))
    elif [ "$rc" != 0 ]; then
        bad "the probe failed ($rc)"
    else
        for entry in $functions; do
            fn=${entry%%:*}
            # The first MULX's offset in the function (the probe is position
            # independent: gdb places the breakpoint once it runs).
            at=$(objdump -d --no-show-raw-insn "$out/probe" |
                awk -v f="<$fn>:" '$2 == f { start = $1; inside = 1; next } inside && /^$/ { exit }
                    inside && /mulx/ { sub(/:$/, "", $1); print start, $1; exit }')
            if [ -z "$at" ]; then
                bad "$fn: no MULX found in the probe"
                continue
            fi
            offset=$((0x${at#* } - 0x${at% *}))
            gdb -q -batch -nx -ex "break *('$fn' + $offset)" -ex run -ex bt "$out/probe" >"$out/gdb-$fn.log" 2>&1
            if grep -q "in $fn\|<$fn" "$out/gdb-$fn.log" && grep -q " main " "$out/gdb-$fn.log" &&
                ! grep -q "Backtrace stopped" "$out/gdb-$fn.log"; then
                ok
            else
                cat "$out/gdb-$fn.log"
                bad "$fn: gdb's backtrace from inside it does not reach main"
            fi
        done
    fi
fi

echo "# check-cfi"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
