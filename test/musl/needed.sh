#!/bin/sh
# test/musl/needed.sh - every Linux library we build needs nothing beyond
# libc.so.6 (readelf -d: NEEDED; jcpuid calls no libc function and needs
# nothing), and imports no __tls_get_addr.
#
#   test/musl/needed.sh [--allow-gmp] [--jar JAR] [LIBRARY...]
#       LIBRARY: ELF shared libraries to check (default: lib/libjbigi.so
#       and build/jcpuid/libjcpuid-x86_64-linux.so, make test's tier);
#       --jar: also every Linux library inside JAR (make check's tier:
#       build/jbigi.jar, every variant of the dist jar, ARM ones included).
#       --allow-gmp: a dynamic build (make GMP=system) also needs the
#       system's libgmp.so.N, by design.
#
# Why: musl's loader (Alpine-based images) maps libc.so.6 onto musl itself
# but refuses any other glibc file, such as ld-linux-x86-64.so.2, which a
# _Thread_local under the general-dynamic TLS model brings in through
# __tls_get_addr.  readelf reads any architecture's ELF.  Prints "ok"/
# "not ok" lines and "N passed, N failed, N skipped".
set -u
# Paths are taken as given (relative to the caller's directory).
passed=0
failed=0
skipped=0
jar=
allow_gmp=0
libraries=
while [ $# -gt 0 ]; do
    case $1 in
        --jar) jar=$2; shift 2 ;;
        --allow-gmp) allow_gmp=1; shift ;;
        -*) echo "usage: $0 [--allow-gmp] [--jar JAR] [LIBRARY...]" >&2; exit 2 ;;
        *) libraries="$libraries $1"; shift ;;
    esac
done
[ -n "$libraries" ] || libraries="lib/libjbigi.so build/jcpuid/libjcpuid-x86_64-linux.so"
command -v readelf >/dev/null || { echo "needed.sh: readelf not found (binutils)" >&2; exit 2; }

check() { # file label
    if [ ! -f "$1" ]; then
        echo "not ok - $2: missing"
        failed=$((failed + 1))
        return
    fi
    needed=$(readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//')
    if [ "$allow_gmp" -eq 1 ]; then
        needed=$(printf '%s\n' $needed | grep -v '^libgmp\.so\.[0-9]*$' | tr '\n' ' ' | sed 's/ $//')
    fi
    if [ "$needed" = libc.so.6 ] || [ -z "$needed" ]; then
        echo "ok - $2: NEEDED ${needed:-nothing}"
        passed=$((passed + 1))
    else
        echo "not ok - $2: NEEDED ${needed:-nothing}, want libc.so.6 alone or nothing"
        failed=$((failed + 1))
    fi
    if readelf --dyn-syms -W "$1" 2>/dev/null | awk '$7 == "UND"' | grep -q '__tls_get_addr'; then
        echo "not ok - $2: imports __tls_get_addr (general-dynamic TLS: ld.so's)"
        failed=$((failed + 1))
    else
        echo "ok - $2: no __tls_get_addr"
        passed=$((passed + 1))
    fi
}

for lib in $libraries; do
    check "$lib" "$lib"
done

if [ -n "$jar" ]; then
    if [ ! -f "$jar" ]; then
        echo "not ok - $jar: missing"
        failed=$((failed + 1))
    else
        tmp=$(mktemp -d) || exit 1
        trap 'rm -rf "$tmp"' EXIT
        # The Linux libraries: I2P's names for jbigi and jcpuid.
        names=$(unzip -Z1 "$jar" | grep -E '^(lib/)?libjbigi-linux-.*\.so$|^(lib/)?libjcpuid-.*-linux\.so$')
        if [ -z "$names" ]; then
            echo "not ok - $jar: no Linux library inside"
            failed=$((failed + 1))
        fi
        for name in $names; do
            unzip -q -o "$jar" "$name" -d "$tmp" && check "$tmp/$name" "$jar!$name"
        done
    fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
