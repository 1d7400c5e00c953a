#!/bin/sh
# A /proc/cpuinfo that leaves out flags CPUID reports, as a hypervisor was
# seen to do (abm and sse4a on an AMD Zen 5 VM): in a private mount
# namespace a copy of /proc/cpuinfo without any of the features the CPU
# check knows (sse2 aside) is bind-mounted over it, and there
#   - the namespace really hides them (the test's own check);
#   - test_cpu_check passes, reporting the disagreement;
#   - ./build.sh --host-variant picks the row CPUID allows (build/cpu-probe
#     outside the namespace), not the one /proc/cpuinfo would;
#   - the Java loader loads that row's library from the jar, and the engine
#     is the one CPUID allows;
#   - VariantsTest and EngineChoiceTest pass.
# Needs root (or CAP_SYS_ADMIN) and util-linux's unshare; skipped, counted,
# without them.  Called by test/run-tests.sh with its environment (JAVA,
# JAVAC, JUNIT_JAR, CC); ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
out=build/test/hidden-cpuinfo
mkdir -p "$out"
passed=0
failed=0
skipped=0
finish() {
    report_failures
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
    exit
}

probe=build/cpu-probe
if [ "$(uname -m)" != x86_64 ]; then
    skip "hidden /proc/cpuinfo flags: x86-64 only (CPUID), this machine is $(uname -m)"
    finish
fi
if ! command -v unshare >/dev/null || ! unshare --mount true 2>/dev/null; then
    skip "hidden /proc/cpuinfo flags: needs root and unshare (util-linux) for a private mount namespace"
    finish
fi
if [ ! -x "$probe" ] || [ ! -f build/jbigi.jar ] || [ ! -f build/test/classes/net/i2p/util/LoadProbe.class ]; then
    not_ok "hidden /proc/cpuinfo flags: $probe, build/jbigi.jar or the compiled test classes are missing"
    finish
fi

# What CPUID allows, read outside the namespace.
features=$("$probe")
want=$("$probe" --variant src/cpu/variants.tsv)
echo "CPUID: $features"
echo "the row CPUID allows: $want"

# /proc/cpuinfo without every feature the check knows but sse2.
hidden=$(echo "$features" | tr ' ' '\n' | grep -vx sse2 | tr '\n' ' ')
awk -v hide=" $hidden " '
    /^flags/ {
        n = split($0, w, /[ \t]+/)
        line = ""
        for (i = 1; i <= n; i++) if (index(hide, " " w[i] " ") == 0) line = line (line == "" ? "" : " ") w[i]
        print line
        next
    }
    { print }' /proc/cpuinfo >"$out/cpuinfo"

# The jar's library the loader should load: the first row, in the loader's
# order for this vendor, that the jar carries and CPUID allows.
"$(dirname "$JAVA")/jar" tf build/jbigi.jar >"$out/jar.list"
vendor=$("$probe" --vendor)
jar_want=pure-java
for cpu in $(awk -v vendor="$vendor" '!/^#/ && NF >= 7 && $2 == "x86_64" {
        print ($6 == vendor ? 0 : $6 == "any" ? 2 : 1), NR, $1 }' src/cpu/variants.tsv | sort -k1,1n -k2,2n | awk '{ print $3 }'); do
    grep -qx "libjbigi-linux-${cpu}_64.so" "$out/jar.list" || continue
    if "$probe" --runs src/cpu/variants.tsv "$cpu"; then
        jar_want=libjbigi-linux-${cpu}_64.so
        break
    fi
done
# The IFMA engine needs AVX512BW too (its mask arithmetic; every IFMA CPU has it).
case " $features " in *" avx512ifma "*" avx512bw "* | *" avx512bw "*" avx512ifma "*) engine_want=avx512-ifma ;; *" adx "*) engine_want="" ;; *) engine_want=gmp ;; esac

$CC -std=c11 -O2 -Wall -Wextra -Werror -Isrc -Itest/c -o "$out/test_cpu_check" test/c/test_cpu_check.c $(cpu_sources)

# Everything that reads the CPU, run in the namespace; one file of results.
unshare --mount sh -c '
    set -u
    out=$1 JAVA=$2
    mount --bind "$out/cpuinfo" /proc/cpuinfo || exit 90
    grep -m1 "^flags" /proc/cpuinfo >"$out/flags-seen"
    "$out/test_cpu_check" >"$out/test_cpu_check.log" 2>&1
    echo $? >"$out/test_cpu_check.rc"
    ./build.sh --host-variant >"$out/build-variant" 2>"$out/build-variant.err"
    empty=$(mktemp -d)
    "$JAVA" -Djava.library.path="$empty" -cp build/jbigi.jar:build/test/classes net.i2p.util.LoadProbe \
        >"$out/loadprobe.log" 2>&1
    rmdir "$empty"
    . test/lib.sh
    passed=0 failed=0 skipped=0
    junit_run "$JAVA" "$out/junit.log" build/test/classes \
        "--select-class net.i2p.util.VariantsTest --select-class net.i2p.util.EngineChoiceTest" \
        "VariantsTest EngineChoiceTest" -Xcheck:jni -Djava.library.path=lib -Djbigi.test.jar=build/jbigi.jar \
        >/dev/null 2>&1
    echo "$passed $failed $skipped" >"$out/junit.counts"
' hidden-cpuinfo "$out" "$JAVA" 2>"$out/namespace.err"
rc=$?
if [ $rc -ne 0 ]; then
    cat "$out/namespace.err"
    not_ok "the private mount namespace did not run (exit $rc)"
    finish
fi

left=""
for f in $hidden; do
    case " $(cat "$out/flags-seen") " in *" $f "*) left="$left $f" ;; esac
done
if [ -z "$left" ]; then
    ok "in the namespace /proc/cpuinfo hides$(echo " $hidden" | sed 's/  */ /g')"
else
    not_ok "the bind mount did not hide:$left"
fi

cat "$out/test_cpu_check.log"
if [ "$(cat "$out/test_cpu_check.rc")" -eq 0 ] && grep -q 'CPUID rules' "$out/test_cpu_check.log"; then
    ok "test_cpu_check passes and reports the disagreement"
else
    not_ok "test_cpu_check with hidden flags (exit $(cat "$out/test_cpu_check.rc"))"
fi

got=$(cat "$out/build-variant")
if [ "$got" = "$want" ]; then
    ok "./build.sh --host-variant picks $want, the row CPUID allows"
else
    not_ok "./build.sh --host-variant picks '$got', CPUID allows $want: $(cat "$out/build-variant.err")"
fi

got=$(sed -n 's/^resource=//p' "$out/loadprobe.log")
[ "$(sed -n 's/^native=//p' "$out/loadprobe.log")" = true ] || got=pure-java
status=$(sed -n 's/^status=//p' "$out/loadprobe.log")
if [ "$got" = "$jar_want" ]; then
    ok "the loader loads $got from the jar"
else
    not_ok "the loader loaded $got, CPUID allows $jar_want: $status"
fi
case "$status" in
    *"engine: ${engine_want}"*) ok "engine as CPUID allows: ${status#*engine: }" ;;
    *) not_ok "engine: expected ${engine_want:-adx or gmp}, status: $status" ;;
esac

cat "$out/junit.log" 2>/dev/null | tail -n 15
set -- $(cat "$out/junit.counts" 2>/dev/null || echo "0 1 0")
passed=$((passed + $1))
failed=$((failed + $2))
skipped=$((skipped + $3))
finish
