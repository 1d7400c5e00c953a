#!/bin/sh
# The jcpuid library, as I2P's loader uses it: a class with the name,
# package and natives of I2P's freenet.support.CPUInformation.CPUID loads
# libjcpuid-x86_64-linux.so from each jar's resources and checks CPUID's
# answers against /proc/cpuinfo and the library's own CPU check
# (build/cpu-probe).  Then build/i2p/jbigi.jar, the jar that
# replaces I2P's lib/jbigi.jar, is checked to hold libraries and licence
# texts only, no classes.  Needs JAVA and JAVAC; ends with
# "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
out=build/test/jcpuid
mkdir -p "$out"
passed=0
failed=0
skipped=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
skip() { echo "skip - $*"; skipped=$((skipped + 1)); }
jar_tool="$(dirname "$JAVA")/jar"

if [ "$(uname -m)" != x86_64 ]; then
    skip "jcpuid: x86-64 only, this machine is $(uname -m)"
elif ! $JAVAC --release 8 -Xlint:all,-options -Werror -d "$out/classes" \
    test/jcpuid/freenet/support/CPUInformation/CPUID.java >"$out/javac.log" 2>&1; then
    cat "$out/javac.log"
    not_ok "the CPUID test class did not compile"
else
    # The I2P jar comes from ./build.sh dist: make check's tier only.
    jars=build/jbigi.jar
    [ "${JBIGI_TEST_TIER:-all}" != all ] || jars="$jars build/i2p/jbigi.jar"
    for jar in $jars; do
        if [ ! -f "$jar" ]; then
            skip "$jar not built (build/i2p/jbigi.jar comes from ./build.sh dist)"
            continue
        fi
        "$JAVA" -Xcheck:jni -Djbigi.cpuFeatures="$(build/cpu-probe)" -cp "$out/classes:$jar" \
            freenet.support.CPUInformation.CPUID >"$out/run.log" 2>&1
        rc=$?
        sed 's/^/    /' "$out/run.log"
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out/run.log" | tail -n 1)
        if [ "$rc" -eq 0 ] && [ -n "$line" ] && ! grep -q '^WARNING' "$out/run.log"; then
            ok "$jar: jcpuid loads and agrees with the CPU check ($line, -Xcheck:jni clean)"
        else
            not_ok "$jar: jcpuid (exit $rc)"
        fi
    done
fi

# The I2P jar: what I2P's own jbigi.jar holds (libraries, jcpuid, licences).
# Built by ./build.sh dist: checked in make check's tier (JBIGI_TEST_TIER=all),
# not in make test's, which tests the host's jar.
jar=build/i2p/jbigi.jar
if [ "${JBIGI_TEST_TIER:-all}" != all ]; then
    echo "# $jar: checked by make check (the dist jar's tier)"
elif [ ! -f "$jar" ]; then
    skip "$jar not built (make dist)"
else
    "$jar_tool" tf "$jar" >"$out/i2p-jar.list"
    if grep -q '\.class$' "$out/i2p-jar.list"; then
        not_ok "$jar holds classes: $(grep -c '\.class$' "$out/i2p-jar.list")"
    else
        ok "$jar holds no classes"
    fi
    if grep -q '^libjcpuid-x86_64-linux\.so$' "$out/i2p-jar.list"; then
        ok "$jar holds libjcpuid-x86_64-linux.so"
    else
        not_ok "$jar has no libjcpuid-x86_64-linux.so"
    fi
    missing=""
    for cpu in $(awk '!/^#/ && NF >= 7 { print $1 }' src/cpu/variants.tsv); do
        grep -Eq "^libjbigi-linux-${cpu}(_64)?\.so$" "$out/i2p-jar.list" || missing="$missing $cpu"
    done
    if [ -z "$missing" ]; then
        ok "$jar holds a library for every row of src/cpu/variants.tsv"
    else
        # A row whose cross compiler is not installed is left out by the build.
        skip "$jar lacks:$missing (cross compiler not installed?)"
    fi
    if grep -q '^META-INF/COPYING.LESSERv3$' "$out/i2p-jar.list"; then
        ok "$jar holds GMP's licence texts"
    else
        not_ok "$jar lacks GMP's licence texts"
    fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
