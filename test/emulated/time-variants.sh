#!/bin/sh
# A measurement, not a test: how fast each GMP variant built under build/
# (build/gmp-$GMP_VERSION-<cpu>, by ./build.sh dist or --gmp-only <cpu>) runs
# mpz_powm on this CPU.  All variants are loaded into one process and called
# in turn, round after round, so that a shared machine's changing load hits
# them alike; the median of ROUNDS rounds (default 41) per variant and size.
# This is how the rows of src/cpu/variants.tsv were chosen.
#   sh test/emulated/time-variants.sh [ROUNDS] [BITS,BITS,...]
set -eu
cd "$(dirname "$0")/../.."
# GMP's version (the build/gmp-<version>-<cpu> folders), named once in build.sh.
GMP_VERSION=$(sed -n 's/^readonly GMP_VERSION=//p' build.sh)
rounds=${1:-41}
sizes=${2:-256,1024,2048,4096}
CC=${CC:-cc}
out=build/test/variant-bench
mkdir -p "$out"
$CC -std=c11 -O2 -Wall -Wextra -Werror -o "$out/driver" test/emulated/variant_bench.c -ldl
plugins=""
for install in build/gmp-$GMP_VERSION-*/install; do
    [ -f "$install/jbigi-config" ] || continue
    case $install in build/gmp-$GMP_VERSION-windows-*) continue ;; esac # PE objects: Windows' own
    cpu=$(cat "$install/jbigi-variant")
    # x86-64 rows only (the plugins are loaded into this machine's process).
    case $(awk -v cpu="$cpu" '$1 == cpu { print $2 }' src/cpu/variants.tsv) in x86_64) ;; *) continue ;; esac
    $CC -std=c11 -O2 -fPIC -shared -DBENCH_PLUGIN -I"$install/include" -o "$out/$cpu.so" \
        test/emulated/variant_bench.c "$install/lib/libgmp.a" -Wl,--exclude-libs,ALL
    plugins="$plugins $cpu=$out/$cpu.so"
done
[ -n "$plugins" ] || { echo "no GMP variant built under build/: ./build.sh dist" >&2; exit 1; }
"$out/driver" "$rounds" "$sizes" $plugins
