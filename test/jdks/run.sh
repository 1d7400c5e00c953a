#!/bin/sh
# The jar on every Java from 8 to 26.  Called by test/run-tests.sh (make
# test); ends with one line "N passed, N failed, N skipped".
#
# On each JDK (8, 11, 21, 25 and 26 from Debian's later or earlier releases,
# fetched by test/jdks/fetch-jdks.sh; 17 this machine's):
#  1. the speed test as a user starts it, java -jar build/jbigi.jar, in its
#     short form (-n: native timings only): it exits 0, loads the library
#     this machine's JDK loads from the jar, and prints nothing on stderr
#     (on JDK 24 and later the manifest's Enable-Native-Access keeps the
#     native-access warning away);
#  2. every known-answer vector of test/vectors/ and LoadProbe's random
#     cases, under -Xcheck:jni, the library loaded from the jar: the same
#     results as this machine's JDK, no failed vector, no JNI warning,
#     nothing on stderr; from JDK 17 on with the flag the README gives
#     class-path users, --enable-native-access=ALL-UNNAMED;
#  3. the loader's JUnit tests, LoadingTest and LoaderSafetyTest, under
#     -Xcheck:jni, compiled for Java 8 (as the library's classes are),
#     without the full speed test (step 1 runs the short one) and, from
#     JDK 24 on, which has none, without the security manager's test.
# A JDK that is not here is one skipped check, with the reason.
# Environment: JAVA (this machine's JDK, the reference) and JAVAC as
# run-tests.sh has them; JBIGI_JDKS, the versions (default 8 11 17 21 25 26).
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
. test/jdks/jdk.sh
out=build/test/jdks
mkdir -p "$out"
passed=0
failed=0
skipped=0
ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
skip() { echo "skip - $*"; skipped=$((skipped + 1)); }
JAVA=$(command -v "${JAVA:-java}")
JAVAC=${JAVAC:-javac}
# JUnit from Debian's separate jars, which run on Java 8, without the
# open-test-reporting listener (Debian builds it for Java 11; the standalone
# jar holds it, and JDK 8 then fails to start the launcher).
JUNIT_JAR=""
for j in junit-platform-console junit-platform-launcher junit-platform-engine junit-platform-commons \
    junit-jupiter-api junit-jupiter-engine opentest4j apiguardian-api; do
    JUNIT_JAR="$JUNIT_JAR${JUNIT_JAR:+:}/usr/share/java/$j.jar"
done
# jni.h for the stand-in libraries some loader tests compile: Debian's
# runtimes have none, so this machine's JDK's.
JNI_INCLUDE=$(dirname "$(dirname "$(readlink -f "$(command -v "$JAVAC")")")")/include
# JDK 8's own NIO code (Files.isReadable is enough) makes -Xcheck:jni print
# this line.  A "from F" warning comes from native code that calls F; the
# library never calls CallStaticObjectMethod (checked below), so it is
# never the library's.
JNI_WARNINGS_NOT_OURS="WARNING in native method: JNI call made without checking exceptions when required to from CallStaticObjectMethod"
VERSIONS=${JBIGI_JDKS:-8 11 17 21 25 26}
VECTORS=test/vectors/modpow-public.txt
classes=$out/classes

field() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# The test classes for Java 8; NativeAccessTest needs Java 9's API and
# runs in the main suite, on JDK 24 or later.
rm -rf "$classes"
mkdir -p "$classes"
sources=""
for f in test/java/net/i2p/util/*.java; do
    [ "${f##*/}" = NativeAccessTest.java ] || sources="$sources $f"
done
# shellcheck disable=SC2086 # $sources and $access are lists of arguments
if [ ! -f build/jbigi.jar ] || [ ! -r /usr/share/java/junit-platform-console.jar ]; then
    not_ok "build/jbigi.jar or JUnit 5 (apt-get install junit5) is missing"
elif grep -rq --include='*.c' CallStaticObjectMethod src; then
    not_ok "the library calls CallStaticObjectMethod: JDK 8's warning about it can no longer be told from the library's"
elif ! $JAVAC --release 8 -Xlint:all,-options -Werror -d "$classes" -cp "build/classes:$JUNIT_JAR" \
    $sources >"$out/javac.log" 2>&1; then
    cat "$out/javac.log"
    not_ok "the test classes did not compile for Java 8"
else
    # The reference: this machine's JDK, the library from the jar.
    empty=$(mktemp -d)
    "$JAVA" -Djava.library.path="$empty" -cp "build/jbigi.jar:$classes" net.i2p.util.VectorProbe "$VECTORS" \
        >"$out/reference.log" 2>&1
    resource=$(field resource "$out/reference.log")
    digest=$(field results "$out/reference.log")
    vectors="$(grep -c -v -E '^(#|$)' "$VECTORS") 0"
    if [ "$(field native "$out/reference.log")" != true ] || [ "$(field vectors "$out/reference.log")" != "$vectors" ]; then
        not_ok "the reference run on $("$JAVA" -version 2>&1 | head -n 1) is not native with every vector right:"
        cat "$out/reference.log"
        VERSIONS=""
    fi
    for v in $VERSIONS; do
        if ! java=$(jdk_java "$v"); then
            case $v in
                17) how="apt-get install openjdk-17-jdk-headless" ;;
                *) how="sh test/jdks/fetch-jdks.sh fetches Debian's; see build/test/fetch-jdks.log" ;;
            esac
            skip "JDK $v: not here ($how)"
            continue
        fi
        # The JDK is the version it is meant to be (8 says 1.8).
        "$java" -XshowSettings:properties -version >"$out/$v.settings" 2>&1
        spec=$(sed -n 's/^ *java\.specification\.version = //p' "$out/$v.settings")
        name="JDK $v ($(sed -n 's/^ *java\.runtime\.version = //p' "$out/$v.settings"))"
        feature=${spec#1.}
        if [ "$feature" != "$v" ]; then
            not_ok "JDK $v: $java is Java '$spec'"
            continue
        fi

        # 1. java -jar build/jbigi.jar -n
        "$java" -jar build/jbigi.jar -n >"$out/$v-speed.out" 2>"$out/$v-speed.err"
        rc=$?
        if [ "$rc" -eq 0 ] && [ ! -s "$out/$v-speed.err" ] &&
            grep -qx "Loaded from resource: $resource" "$out/$v-speed.out" &&
            grep -qx 'Results not compared with BigInteger (-n).' "$out/$v-speed.out"; then
            ok "$name: java -jar build/jbigi.jar -n: $resource, nothing on stderr"
        else
            not_ok "$name: java -jar build/jbigi.jar -n: exit $rc, expected $resource and an empty stderr:"
            cat "$out/$v-speed.out" "$out/$v-speed.err"
        fi

        # 2. the vectors and the random cases, -Xcheck:jni
        log=$out/$v-vectors
        # On the class path from JDK 17 on with the flag the README gives for it
        # (JDK 24 and later warn without it); JDK 8 and 11 need none.
        access=""
        [ "$feature" -ge 17 ] && access=--enable-native-access=ALL-UNNAMED
        "$java" -Xcheck:jni $access -Djava.library.path="$empty" -cp "build/jbigi.jar:$classes" \
            net.i2p.util.VectorProbe "$VECTORS" >"$log.out" 2>"$log.err"
        rc=$?
        got="$(field native "$log.out") $(field resource "$log.out")"
        if [ "$rc" -eq 0 ] && [ "$got" = "true $resource" ] && [ ! -s "$log.err" ] &&
            ! grep WARNING "$log.out" | grep -q -v -x -F -e "$JNI_WARNINGS_NOT_OURS" &&
            [ "$(field vectors "$log.out")" = "$vectors" ] && [ "$(field results "$log.out")" = "$digest" ]; then
            ok "$name: vectors $vectors (checked, failed) and the random cases as on $("$JAVA" -version 2>&1 | head -n 1 | cut -d'"' -f2), -Xcheck:jni clean"
        else
            not_ok "$name: vectors under -Xcheck:jni: exit $rc, expected 'true $resource', got '$got':"
            cat "$log.out" "$log.err"
        fi

        # 3. the loader's tests
        select="--select-class net.i2p.util.LoadingTest --select-class net.i2p.util.LoaderSafetyTest"
        select="$select --exclude-tag full-speed-test"
        [ "$feature" -ge 24 ] && select="$select --exclude-tag security-manager"
        echo "# $name: LoadingTest and LoaderSafetyTest"
        junit_run "$java" "$out/$v-junit.log" "$classes" "$select" "LoadingTest LoaderSafetyTest" \
            -Xcheck:jni -Djava.library.path=lib -Djbigi.test.jar=build/jbigi.jar -Djbigi.test.jniInclude="$JNI_INCLUDE"
    done
    rm -rf "$empty"
fi

report_failures
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
