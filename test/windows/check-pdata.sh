#!/bin/sh
# Windows' unwinder (exception dispatch, crash dumps, debuggers, profilers)
# knows a function only by its entry in .pdata: a function without one is
# taken for a leaf that never moved rsp, and an unwind from inside it goes
# wrong.  For each Windows object given (the library's own, never GMP's),
# every function its symbol table defines, written in C or in top-level
# assembly, must have a .pdata entry that begins at the function's first
# byte and covers all its code: what follows the entry's end up to the
# next function (or the section's end) is padding only.
#
#   test/windows/check-pdata.sh OBJECT...
#
# One check per object; ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
OBJDUMP=${OBJDUMP:-x86_64-w64-mingw32-objdump}
out=build/test/windows/pdata
mkdir -p "$out"
passed=0
failed=0

for obj in "$@"; do
    # Tagged lines for one awk: S section, Y symbol, R relocation of a
    # .pdata section, P a .pdata section's bytes (hex), D an instruction.
    {
        $OBJDUMP -h "$obj" | awk '$1 ~ /^[0-9]+$/ { print "S", $1 + 1, $2, $3 }'
        $OBJDUMP -t "$obj" | sed -n 's/^\[ *[0-9]*\](sec *\(-*[0-9]*\))(fl [^)]*)(ty *\([0-9a-f]*\))(scl *[0-9]*) (nx [0-9]*) 0x\([0-9a-f]*\) \(.*\)$/Y \1 \2 \3 \4/p'
        $OBJDUMP -r "$obj" | awk '/^RELOCATION RECORDS FOR \[/ { s = $4; gsub(/[\[\]:]/, "", s); next }
            s ~ /^\.pdata/ && $1 ~ /^[0-9a-f]+$/ { print "R", s, $1, $3 }'
        $OBJDUMP -s "$obj" | awk '/^Contents of section / { s = $4; sub(/:$/, "", s); next }
            s ~ /^\.pdata/ { sub(/^ [0-9a-f]+ /, ""); d = substr($0, 1, 35); gsub(/ /, "", d); print "P", s, d }'
        $OBJDUMP -d --no-show-raw-insn "$obj" | awk '/^Disassembly of section / { s = $4; sub(/:$/, "", s); next }
            /^ *[0-9a-f]+:\t/ { a = $1; sub(/:$/, "", a); $1 = ""; print "D", s, a, ($0 ~ /^ *(nop|xchg +%ax,%ax|data16|cs nop|int3)/) ? 1 : 0 }'
    } >"$out/facts"
    verdict=$(awk '
        function hex(s,   i, v) { v = 0; s = tolower(s)
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v }
        function le32(s, byte,   h) { h = substr(s, 2 * byte + 1, 8)
            return hex(substr(h, 7, 2) substr(h, 5, 2) substr(h, 3, 2) substr(h, 1, 2)) }
        $1 == "S" { secname[$2] = $3; secsize[$3] = hex($4) }
        $1 == "Y" { symsec[$5] = $2; symval[$5] = hex($4)
            if ($3 == "20" && $2 + 0 > 0) { nf++; fname[nf] = $5; fsec[nf] = $2; fval[nf] = hex($4) } }
        $1 == "R" { rel[$2, hex($3)] = $4 }
        $1 == "P" { bytes[$2] = bytes[$2] $3 }
        $1 == "D" { ni++; isec[ni] = $2; iaddr[ni] = hex($3); ipad[ni] = $4 }
        # A .pdata word: the section and offset its relocation and addend name.
        function target(p, off,   v, s, n) {
            v = rel[p, off]; n = 0
            if (v == "") return ""
            if (index(v, "+0x")) { n = hex(substr(v, index(v, "+0x") + 3)); v = substr(v, 1, index(v, "+0x") - 1) }
            if (!(v in symsec)) return ""
            s = secname[symsec[v]]
            return s SUBSEP (symval[v] + n + le32(bytes[p], off))
        }
        END {
            for (p in bytes) for (off = 0; 2 * off + 24 <= length(bytes[p]); off += 12) {
                b = target(p, off); e = target(p, off + 4)
                if (b == "" || e == "") { print "BAD a .pdata entry of " p " at " off " names no section"; continue }
                split(b, bb, SUBSEP); split(e, ee, SUBSEP)
                begins[bb[1], bb[2]] = ee[2]
            }
            bad = ""
            for (i = 1; i <= nf; i++) {
                s = secname[fsec[i]]; a = fval[i]
                if (!((s, a) in begins)) { bad = bad " " fname[i] "(no entry)"; continue }
                stop = begins[s, a]
                next_fn = secsize[s]
                for (j = 1; j <= nf; j++) if (secname[fsec[j]] == s && fval[j] > a && fval[j] < next_fn) next_fn = fval[j]
                if (stop <= a || stop > next_fn) { bad = bad " " fname[i] "(entry ends outside it)"; continue }
                for (k = 1; k <= ni; k++)
                    if (isec[k] == s && iaddr[k] >= stop && iaddr[k] < next_fn && !ipad[k]) {
                        bad = bad " " fname[i] sprintf("(code at 0x%x past the entry)", iaddr[k]); break }
            }
            if (bad != "") print "BAD" bad
            else print "OK " nf
        }' "$out/facts")
    case $verdict in
    "OK 0") not_ok "$obj: defines no function" ;;
    OK*) ok "$obj: a .pdata entry covers each of its ${verdict#OK } functions" ;;
    *) not_ok "$obj: ${verdict#BAD }" ;;
    esac
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
