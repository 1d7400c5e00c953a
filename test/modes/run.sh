#!/bin/sh
# test/modes/run.sh DIR - the tests of another build mode than the host's
# library, against the library and jar that mode built into DIR
# (make GMP=system OUTPUT=DIR all: DIR/libjbigi.so and DIR/jbigi.jar, beside
# lib/libjbigi.so, which the other tests use): the JNI harness, then the
# JUnit suite with the library on java.library.path and the jar as the
# jar under test, the million-call soak included (a shared libgmp keeps its
# own allocator, so the memory the soak watches is not the static build's).
# make check runs it on the dynamic mode (GMP=system).
#
# Environment as for run-tests.sh: JAVA, JAVAC, JUNIT_JAR.  Output under
# build/test/mode-<name of DIR>/; ends with "N passed, N failed, N skipped".
# shellcheck disable=SC2086 # option lists are meant to split
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
[ $# -eq 1 ] || { echo "usage: $0 DIR (holding libjbigi.so and jbigi.jar)" >&2; exit 2; }
dir=$1
out=build/test/mode-$(basename "$dir")
mkdir -p "$out"
passed=0
failed=0
skipped=0

for f in "$dir/libjbigi.so" "$dir/jbigi.jar"; do
    if [ ! -f "$f" ]; then
        not_ok "$f is missing: make GMP=system OUTPUT=$dir all (make check builds it)"
        echo "$passed passed, $failed failed, $skipped skipped"
        exit 1
    fi
done
echo "# $dir/libjbigi.so needs: $(readelf -d "$dir/libjbigi.so" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"

# ---- the JNI harness ----
sh test/jni/run.sh "$dir/libjbigi.so" >"$out/jni-harness.log" 2>&1
rc=$?
grep -v '^ok ' "$out/jni-harness.log"
tally "$out/jni-harness.log" "jni-harness ($dir)" "$rc"

# ---- the JUnit suite ----
junit_suite "$out" -Xcheck:jni -Djava.library.path="$dir" -Djbigi.test.jar="$dir/jbigi.jar" -Djbigi.soak=true \
    -Djbigi.vectors=test/vectors/modpow-public.txt -Djbigi.test.windows=false

report_failures
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
