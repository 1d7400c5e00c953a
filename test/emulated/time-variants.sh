#!/bin/sh
# A measurement, not a test: modPow time of every x86-64 variant in
# build/jbigi.jar that this CPU can run, interleaved over ROUNDS rounds
# (default 3), each variant in a fresh JVM; prints the median per variant
# and size.  Used to choose the variants of src/variants.tsv (README, "The
# dist jar").  Needs make test's compiled test classes (build/test/classes).
#   sh test/emulated/time-variants.sh [ROUNDS] [VARIANT...]
set -eu
cd "$(dirname "$0")/../.."
rounds=${1:-3}
[ $# -gt 0 ] && shift
JAVA=${JAVA:-java}
out=build/test/variant-timing.txt
variants=${*:-$(unzip -Z1 build/jbigi.jar 2>/dev/null || "$(dirname "$(readlink -f "$(command -v "$JAVA")")")/jar" tf build/jbigi.jar)}
variants=$(printf '%s\n' $variants | sed -n 's/^libjbigi-linux-\([a-z0-9]*\)_64\.so$/\1/p; /^[a-z0-9]*$/p')
empty=$(mktemp -d)
: >"$out"
for r in $(seq "$rounds"); do
    for v in $variants; do
        "$JAVA" -Djava.library.path="$empty" -Djbigi.variant="$v" -cp build/jbigi.jar:build/test/classes \
            net.i2p.util.VariantTiming >>"$out" 2>/dev/null || echo "$v: not runnable here" >&2
    done
done
rmdir "$empty"
# Median per variant and size.
sort -k1,1 -k2,2n -k3,3n "$out" | awk '
    { key = $1 " " $2; v[key, ++n[key]] = $3; if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
    END { for (i = 1; i <= k; i++) { key = order[i]; printf "%-12s %5s bits  %10.3f us\n", substr(key, 1, index(key, " ") - 1), substr(key, index(key, " ") + 1), v[key, int((n[key] + 1) / 2)] } }'
