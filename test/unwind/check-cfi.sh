#!/bin/sh
# Every function of the library carries call frame information that holds,
# so that gdb, perf and the JVM's crash reports unwind through it: the
# compiler's functions and the ones written in top-level assembly alike
# (jbigi_adx_redc8 and the adx_mont4.c kernels, whose CFI comes from
# src/platform/asm.h).  The functions are the ones our objects define
# (their symbol tables; GMP's own code is GMP's), found in the library by
# name:
#  1. in the library ($1, default lib/libjbigi.so), for each function: an
#     FDE covers its whole range; the CFA is rsp+8 at its first
#     instruction and at every ret; and after every push, pop, and
#     sub or add of a constant to rsp, the CFA (where it is reckoned from
#     rsp) has moved by just what rsp did;
#  2. where gdb and the CPU's BMI2 and ADX are here, a probe program
#     (test/unwind/probe.c, which runs the MULX/ADX engine) stopped at the
#     first MULX of each of our functions that has one and that the probe
#     reaches shows a backtrace that reaches main.
#
#   test/unwind/check-cfi.sh [LIBRARY [OBJECT...]]
#
# OBJECT...: the library's objects; by default the ones the Makefile builds
# it from.  Ends with "N passed, N failed, N skipped".  Environment as for
# run-tests.sh: CC, CFLAGS, GMP_LIBS, C_SOURCES.
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
lib=${1:-lib/libjbigi.so}
[ $# -gt 0 ] && shift
out=build/test/unwind
mkdir -p "$out"
passed=0
failed=0
skipped=0
bad() { echo "FAIL $*" >&2; failed=$((failed + 1)); }

objects="$*"
if [ -z "$objects" ]; then
    # shellcheck disable=SC2016 # $(...) are make's, not the shell's
    objects=$(make -s --no-print-directory --eval \
        'jbigi-print-objects: ; @echo $(patsubst src/%.c,$(OBJ)/%.o,$(call arch_sources,$(LIB_ARCH)))' \
        jbigi-print-objects)
fi
for o in $objects; do
    [ -f "$o" ] || { bad "no object $o (build the library first)"; objects=; break; }
done

# Our functions, by name (static ones of two objects may share a name:
# each symbol of that name in the library is checked).
nm --defined-only $objects 2>/dev/null | awk '$2 ~ /^[Tt]$/ { print $3 }' | sort -u >"$out/functions.txt"
# Their ranges in the library: "start end name", in hex.
readelf -sW "$lib" | awk 'NR == FNR { want[$1] = 1; next }
    $4 == "FUNC" && $7 != "UND" && ($8 in want) && $3 + 0 > 0 { print $2, $3, $8 }' "$out/functions.txt" - |
    sort -u >"$out/ranges.txt"
count=$(wc -l <"$out/ranges.txt")
echo "# $count functions of $(echo $objects | wc -w) objects, in $lib"

# ---- 1. the FDEs in the library ----
if [ "$count" -eq 0 ]; then
    bad "none of our objects' functions is in $lib"
else
    readelf --debug-dump=frames-interp "$lib" >"$out/frames.txt" 2>/dev/null
    objdump -d --no-show-raw-insn "$lib" >"$out/disassembly.txt"
    awk '
        function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v }
        # The CFA offset from rsp in effect at address a of FDE f: -1 when
        # it is reckoned from another register or an expression.
        function cfa(f, a,   k, c) { c = "rsp+8"
            for (k = 1; k <= nrow[f]; k++) { if (rowat[f, k] > a) break; c = rowcfa[f, k] }
            return c ~ /^rsp\+[0-9]+$/ ? substr(c, 5) + 0 : -1 }
        FILENAME == ARGV[1] { nf++; fstart[nf] = hex($1); fend[nf] = hex($1) + $2; fname[nf] = $3; next }
        FILENAME == ARGV[2] && / FDE / {
            if (match($0, /pc=[0-9a-f]+\.\.[0-9a-f]+/)) {
                split(substr($0, RSTART + 3, RLENGTH - 3), p, /\.\./)
                nfde++; lo[nfde] = hex(p[1]); hi[nfde] = hex(p[2]); cur = nfde }
            next }
        FILENAME == ARGV[2] && /^$/ { cur = 0; next }
        FILENAME == ARGV[2] && cur && /^[0-9a-f]+ / { k = ++nrow[cur]; rowat[cur, k] = hex($1); rowcfa[cur, k] = $2; next }
        FILENAME == ARGV[3] && /^ *[0-9a-f]+:\t/ {
            a = $1; sub(/:$/, "", a); ni++; iat[ni] = hex(a); $1 = ""; sub(/^ +/, ""); itext[ni] = $0 }
        END {
            for (i = 1; i <= nf; i++) {
                f = 0
                for (j = 1; j <= nfde; j++) if (lo[j] <= fstart[i] && fend[i] <= hi[j]) { f = j; break }
                if (!f) { print "FAIL", fname[i], "no FDE covers it"; continue }
                why = ""
                # A .cold part starts inside the frame of the function it is part of.
                if (fname[i] !~ /\.cold(\.[0-9]+)?$/ && cfa(f, fstart[i]) != 8)
                    why = "the CFA at its first instruction is not rsp+8"
                # The first instruction at or after the start (the
                # disassembly is in address order).
                l = 1; h = ni
                while (l < h) { m = int((l + h) / 2); if (iat[m] < fstart[i]) l = m + 1; else h = m }
                for (k = l; k <= ni && iat[k] < fend[i] && why == ""; k++) {
                    t = itext[k]; d = 0
                    if (t ~ /^ret/) { if (cfa(f, iat[k]) != 8) why = sprintf("the CFA at the ret at 0x%x is not rsp+8", iat[k]); continue }
                    if (t ~ /^push/) d = 8
                    else if (t ~ /^pop/) d = -8
                    else if (t ~ /^sub +\$0x[0-9a-f]+,%rsp$/) { split(t, o, /[$,]/); d = hex(o[2]) }
                    else if (t ~ /^add +\$0x[0-9a-f]+,%rsp$/) { split(t, o, /[$,]/); d = -hex(o[2]) }
                    else if (t ~ /^add +\$0xffffffffffffff[0-9a-f]+,%rsp$/) { split(t, o, /[$,]/); d = 2^64 - hex(o[2]) }
                    if (d == 0 || k == ni || iat[k + 1] >= fend[i]) continue
                    here = cfa(f, iat[k]); after = cfa(f, iat[k + 1])
                    if (here >= 0 && after >= 0 && after - here != d)
                        why = sprintf("at 0x%x (%s) rsp moves by %d but the CFA by %d", iat[k], t, d, after - here)
                }
                print (why == "" ? "OK" : "FAIL"), fname[i], why
            }
        }' "$out/ranges.txt" "$out/frames.txt" "$out/disassembly.txt" >"$out/verdicts.txt"
    while read -r verdict name why; do
        if [ "$verdict" = OK ]; then ok "$name: its CFI holds"; else bad "$name: $why"; fi
    done <"$out/verdicts.txt"
fi

# ---- 2. gdb unwinds from inside each function to main ----
if ! command -v gdb >/dev/null 2>&1; then
    echo "# SKIP: no gdb here"
    skipped=$((skipped + 1))
elif ! $CC $CFLAGS -Isrc -o "$out/probe" test/unwind/probe.c $(c_sources_below_jni) $GMP_LIBS \
    >"$out/probe.build.log" 2>&1; then
    cat "$out/probe.build.log"
    bad "the probe did not compile"
else
    "$out/probe" >"$out/probe.log" 2>&1
    rc=$?
    if [ "$rc" = 2 ]; then
        echo "# SKIP: this CPU has no BMI2 and ADX: the probe cannot run the functions"
        skipped=$((skipped + 1))
    elif [ "$rc" != 0 ]; then
        bad "the probe failed ($rc)"
    else
        # A breakpoint at the first MULX of each of our functions that has
        # one (the probe is position independent: gdb places them once it
        # runs); at each stop, a backtrace, then on.
        objdump -d --no-show-raw-insn "$out/probe" |
            awk 'NR == FNR { want[$1] = 1; next }
                /^[0-9a-f]+ <.*>:$/ { name = $2; gsub(/[<>:]/, "", name); start = $1; inside = (name in want); found = 0; next }
                inside && !found && /mulx/ { a = $1; sub(/:$/, "", a); print name, start, a; found = 1 }' \
                "$out/functions.txt" - >"$out/mulx.txt"
        : >"$out/gdb.cmd"
        while read -r fn start at; do
            printf "break *('%s' + %d)\ncommands\nbt\ncontinue\nend\n" "$fn" $((0x$at - 0x$start)) >>"$out/gdb.cmd"
        done <"$out/mulx.txt"
        printf 'run\n' >>"$out/gdb.cmd"
        gdb -q -batch -nx -x "$out/gdb.cmd" "$out/probe" >"$out/gdb.log" 2>&1
        # One stop's backtrace: from "Breakpoint N, ... in fn" up to the next stop.
        awk '/^Breakpoint [0-9]+, / { if (fn != "") print fn, good; fn = ""; good = 0
                 for (i = 1; i <= NF; i++) if ($i == "in") { fn = $(i + 1); break }
                 if (fn == "") fn = $NF; next }
             fn != "" && / main / { good = 1 }
             fn != "" && /Backtrace stopped/ { good = -1 }
             END { if (fn != "") print fn, good }' "$out/gdb.log" | sort -u >"$out/stops.txt"
        if [ ! -s "$out/stops.txt" ]; then
            cat "$out/gdb.log"
            bad "gdb stopped in none of our functions with a MULX ($(wc -l <"$out/mulx.txt") breakpoints)"
        fi
        while read -r fn good; do
            if [ "$good" = 1 ]; then ok "$fn: gdb's backtrace from its first MULX reaches main"; else
                bad "$fn: gdb's backtrace from its first MULX does not reach main (see $out/gdb.log)"; fi
        done <"$out/stops.txt"
    fi
fi

echo "# check-cfi"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
