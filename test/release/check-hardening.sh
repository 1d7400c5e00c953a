#!/bin/sh
# test/release/check-hardening.sh - the hardening of every library we ship,
# read from the files themselves, as distributions check it.
#
#   test/release/check-hardening.sh [--fortified] [--jar JAR]... [FILE...]
#
# FILE: ELF shared libraries and PE DLLs (told apart by their headers);
# --jar: also every library inside JAR (I2P's names: libjbigi-*, jbigi-*,
# libjcpuid-*, jcpuid-*), as make check checks build/jbigi.jar, every
# variant of the dist jar.  Paths are taken as given, from the caller's
# directory.
#
# Every ELF file (x86-64, aarch64, armhf):
#   - BIND_NOW (readelf -d: FLAGS BIND_NOW or FLAGS_1 NOW) and a GNU_RELRO
#     segment (readelf -l): full RELRO, the GOT read-only before any of our
#     code runs;
#   - a GNU_STACK segment without E: the stack not executable (a file
#     without one gets an executable stack on x86);
#   - stack protector: __stack_chk_fail imported (-fstack-protector-strong
#     gives a canary to every function with an array or an address-taken
#     local, and the library has many; glibc 2.4 and musl both have it).
#     jcpuid's functions have neither, so no canary is expected there;
#   - not fortified: no glibc-only __*_chk import (_FORTIFY_SOURCE), which
#     musl's loader would refuse; with --fortified (a package for glibc
#     systems alone, built with the Makefile's HARDEN_FORTIFY), at least one;
#   - on x86-64 (-fcf-protection): every exported function starts with
#     endbr64, and so does every function written in top-level assembly
#     (the names JBIGI_ASM_FUNCTION declares in src/): found in the file's
#     symbol table, or, in a stripped dist library, in the objects it was
#     linked from (build/obj-dist-<cpu>-*/), skipped, counted, without them.
#     The IBT/SHSTK property note (readelf -n) is reported, not required:
#     the linker writes it only when every object carries it, and on Debian
#     12 crti.o and crtn.o carry none, nor does any object of GMP's.
# Every PE file (mingw-w64, objdump -p):
#   - DllCharacteristics DYNAMIC_BASE, HIGH_ENTROPY_VA and NX_COMPAT
#     (ASLR with 64-bit entropy, DEP);
#   - stack protector: libssp's __stack_chk_fail linked in (its message,
#     "stack smashing detected", is in the file: the linker takes it from
#     libssp.a only when code calls it); none expected in jcpuid's.
#     (_FORTIFY_SOURCE, which the Makefile keeps out of the DLLs, leaves no
#     trace a stripped DLL shows: libssp's __*_chk functions share that
#     object, and its messages, with __stack_chk_fail.)
#
# Prints ok/not ok/skip lines (and # lines for what is reported only), then
# "N passed, N failed, N skipped".
# shellcheck disable=SC2086 # word lists kept in variables are meant to split
set -u
passed=0
failed=0
skipped=0
fortified=0
jars=
files=
usage() { echo "usage: $0 [--fortified] [--jar JAR]... [FILE...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
        --fortified) fortified=1; shift ;;
        --jar) [ $# -ge 2 ] || usage; jars="$jars $2"; shift 2 ;;
        -*) usage ;;
        *) files="$files $1"; shift ;;
    esac
done
[ -n "$files$jars" ] || usage
for tool in readelf objdump nm unzip; do
    command -v $tool >/dev/null || { echo "check-hardening.sh: $tool not found (binutils, unzip)" >&2; exit 2; }
done
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
skip() { echo "skip - $*"; skipped=$((skipped + 1)); }

# The functions written in top-level assembly, by the macro that declares
# them (its own definition aside).
asm_functions=$(grep -rhE 'JBIGI_ASM_FUNCTION\([A-Za-z0-9_]+\)' "$root/src" 2>/dev/null | grep -v '#define' |
    grep -oE 'JBIGI_ASM_FUNCTION\([A-Za-z0-9_]+\)' | sed 's/.*(\(.*\))/\1/' | sort -u)

# Prints the first instruction's mnemonic of each function of object or
# library $1 named in $2, as "name mnemonic" (versioned names, name@@Base,
# without the version; a stripped library's own labels are its dynamic
# symbols).
first_instructions() { # file names
    objdump -d --no-show-raw-insn "$1" 2>/dev/null | awk -v names="$2" '
        BEGIN { n = split(names, w, /[ \t\n]+/); for (i = 1; i <= n; i++) if (w[i] != "") want[w[i]] = 1 }
        /^[0-9a-f]+ <[^>]+>:$/ {
            # A stripped library: objdump names the gaps sym+0x.. or sym-0x..
            fn = $2; sub(/^</, "", fn); sub(/>:$/, "", fn)
            pending = 0
            if (fn !~ /[-+]0x/) { sub(/@.*/, "", fn); pending = (fn in want) }
            next
        }
        pending && /^ *[0-9a-f]+:\t/ { line = $0; sub(/^ *[0-9a-f]+:\t/, "", line); split(line, m, /[ \t]+/); print fn, m[1]; pending = 0 }'
}

# Which of the functions named in $2 start with endbr64 in file $1: their
# names in with_endbr, the others as name(first instruction) in without,
# the names $1 does not define in missing.
check_endbr() { # file names
    first_instructions "$1" "$2" >"$tmp/first"
    with_endbr= without= missing=
    for f in $2; do
        insn=$(awk -v f="$f" '$1 == f { print $2; exit }' "$tmp/first")
        case $insn in
            "") missing="$missing $f" ;;
            endbr64) with_endbr="$with_endbr $f" ;;
            *) without="$without $f($insn)" ;;
        esac
    done
}

# One line for the functions named in $3 of file $1, "what" being $4.
report_endbr() { # file label names what
    check_endbr "$1" "$3"
    if [ -n "$without" ]; then
        not_ok "$2: $4 without endbr64 at entry (-fcf-protection):$without"
    elif [ -n "$missing" ]; then
        not_ok "$2: $4 not found:$missing"
    else
        ok "$2: $4 start with endbr64: $(echo "$with_endbr" | wc -w) of $(echo "$3" | wc -w)"
    fi
}

check_elf() { # file label
    readelf -dW "$1" >"$tmp/dynamic" 2>&1
    readelf -lW "$1" >"$tmp/segments" 2>&1
    readelf --dyn-syms -W "$1" >"$tmp/dynsyms" 2>&1
    machine=$(readelf -hW "$1" | sed -n 's/^ *Machine: *//p')
    name=$(basename "$1")

    if grep -qE '\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*[^A-Z_]NOW' "$tmp/dynamic"; then
        ok "$2: BIND_NOW"
    else
        not_ok "$2: no BIND_NOW (link with -Wl,-z,now)"
    fi
    if grep -q '^ *GNU_RELRO ' "$tmp/segments"; then
        ok "$2: GNU_RELRO"
    else
        not_ok "$2: no GNU_RELRO segment (link with -Wl,-z,relro)"
    fi
    stack=$(awk '$1 == "GNU_STACK" { f = ""; for (i = 7; i < NF; i++) f = f $i; print f }' "$tmp/segments")
    case $stack in
        "") not_ok "$2: no GNU_STACK segment: an executable stack (link with -Wl,-z,noexecstack)" ;;
        *E*) not_ok "$2: GNU_STACK $stack: an executable stack" ;;
        *) ok "$2: GNU_STACK $stack, not executable" ;;
    esac

    imports=$(awk '$7 == "UND" && $8 != "" { sub(/@.*/, "", $8); print $8 }' "$tmp/dynsyms" | sort -u)
    case $name in
        *jcpuid*) echo "# $2: no canary expected (jcpuid's functions hold no array or address-taken local)" ;;
        *)
            if printf '%s\n' $imports | grep -qx __stack_chk_fail; then
                ok "$2: imports __stack_chk_fail (stack protector)"
            else
                not_ok "$2: no __stack_chk_fail import: built without -fstack-protector-strong"
            fi ;;
    esac
    chk=$(printf '%s\n' $imports | grep -E '^__.*_chk$' | grep -vx __stack_chk_fail | tr '\n' ' ')
    if [ "$fortified" -eq 1 ]; then
        case $name in
            *jcpuid*) echo "# $2: nothing to fortify (jcpuid calls no C library function)" ;;
            *) if [ -n "$chk" ]; then ok "$2: fortified: $chk"; else not_ok "$2: no __*_chk import: not built with _FORTIFY_SOURCE"; fi ;;
        esac
    elif [ -z "$chk" ]; then
        ok "$2: no glibc-only __*_chk import (not fortified: musl loads it)"
    else
        not_ok "$2: imports $chk(_FORTIFY_SOURCE: glibc only, musl's loader refuses them)"
    fi

    case $machine in *X86-64*) ;; *) return ;; esac
    exports=$(awk '$4 == "FUNC" && $7 != "UND" && $8 != "" { sub(/@.*/, "", $8); print $8 }' "$tmp/dynsyms" | sort -u)
    if [ -z "$exports" ]; then
        not_ok "$2: exports no function"
    else
        report_endbr "$1" "$2" "$exports" "the exported functions"
    fi
    case $name in
        *jcpuid*) ;;
        *)
            if readelf -SW "$1" | grep -q ' \.symtab '; then
                report_endbr "$1" "$2" "$asm_functions" "the assembly functions ($(echo $asm_functions))"
            else
                # Stripped: the objects it was linked from, if they are here.
                cpu=${name#libjbigi-linux-}
                cpu=${cpu%.so}
                cpu=${cpu%_64}
                objects=$(ls "$root"/build/obj-dist-"$cpu"-*/engines/*/*.o 2>/dev/null)
                defining=
                [ -z "$objects" ] || defining=$(nm --defined-only $objects 2>/dev/null | awk -v names="$asm_functions" '
                    BEGIN { n = split(names, w, /[ \t\n]+/); for (i = 1; i <= n; i++) want[w[i]] = 1 }
                    /^$/ { next } /:$/ { obj = $0; sub(/:$/, "", obj); next }
                    $2 == "T" && ($3 in want) { print obj }' | sort -u)
                if [ -z "$defining" ]; then
                    skip "$2: stripped, and no objects of it under build/obj-dist-$cpu-*/ to find its assembly functions in"
                else
                    # Each object is asked for the names no earlier one defined.
                    left=$asm_functions good= bad=
                    for o in $defining; do
                        check_endbr "$o" "$left"
                        good="$good$with_endbr" bad="$bad$without" left=$missing
                    done
                    if [ -n "$bad" ]; then
                        not_ok "$2: the assembly functions without endbr64 at entry in its objects:$bad"
                    elif [ -n "$left" ]; then
                        not_ok "$2: no object under build/obj-dist-$cpu-*/ defines$left"
                    else
                        ok "$2: the assembly functions start with endbr64 in its objects (build/obj-dist-$cpu-*/):$good"
                    fi
                fi
            fi ;;
    esac
    note=$(readelf -nW "$1" 2>/dev/null | sed -n 's/.*x86 feature: *//p' | head -n 1)
    echo "# $2: IBT/SHSTK property note: ${note:-none (written only when every object has it: crti.o and crtn.o have none here, nor GMP's objects)}"
}

check_pe() { # file label
    objdump -p "$1" >"$tmp/pe" 2>&1
    name=$(basename "$1")
    flags=$(awk '/^DllCharacteristics/ { on = 1; next } on && /^\t\t/ { print $1; next } { on = 0 }' "$tmp/pe" | tr '\n' ' ')
    for f in DYNAMIC_BASE HIGH_ENTROPY_VA NX_COMPAT; do
        case " $flags " in
            *" $f "*) ok "$2: $f" ;;
            *) not_ok "$2: no $f in DllCharacteristics ($flags)" ;;
        esac
    done
    case $name in
        *jcpuid*) echo "# $2: no canary expected (jcpuid's functions hold no array or address-taken local)" ;;
        *)
            if grep -qa 'stack smashing detected' "$1"; then
                ok "$2: libssp's __stack_chk_fail linked in (stack protector)"
            else
                not_ok "$2: no __stack_chk_fail linked in: built without -fstack-protector-strong"
            fi ;;
    esac
}

check_file() { # file label
    if [ ! -f "$1" ]; then
        not_ok "$2: missing"
    elif readelf -h "$1" >/dev/null 2>&1; then
        check_elf "$1" "$2"
    elif objdump -p "$1" 2>/dev/null | grep -q 'file format pei-'; then
        check_pe "$1" "$2"
    else
        not_ok "$2: neither ELF nor PE"
    fi
}

for f in $files; do
    check_file "$f" "$f"
done
n=0
for jar in $jars; do
    n=$((n + 1))
    if [ ! -f "$jar" ]; then
        not_ok "$jar: missing"
        continue
    fi
    names=$(unzip -Z1 "$jar" | grep -E '(^|/)(lib)?(jbigi|jcpuid)-[^/]*\.(so|dll)$')
    if [ -z "$names" ]; then
        not_ok "$jar: no library inside"
        continue
    fi
    mkdir -p "$tmp/jar$n"
    for name in $names; do
        unzip -q -o "$jar" "$name" -d "$tmp/jar$n" && check_file "$tmp/jar$n/$name" "$jar!$name"
    done
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
