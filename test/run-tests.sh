#!/bin/sh
# Runs every test of the project and ends with one line "N passed, N failed"
# over all of them.  Called by `make test`, which passes the tools in the
# environment: JAVA, JAVAC, JUNIT_JAR, CC, CFLAGS, GMP_LIBS.
set -u
cd "$(dirname "$0")/.."
out=build/test
mkdir -p "$out"
passed=0
failed=0

# Adds the counts from a log's last "N passed, N failed" line; a run that
# printed none (it crashed) counts as one failure.
tally() {
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if [ -z "$line" ]; then
        echo "!! $2 printed no result line: counted as failed" >&2
        failed=$((failed + 1))
        return
    fi
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$3" -eq 0 ] || [ "$f" -gt 0 ] || { echo "!! $2 exited $3" >&2; failed=$((failed + 1)); }
}

# ---- C tests: the layers below JNI, linked like the library ----
C_SOURCES="src/convert.c src/arith.c src/version.c src/fixedbase.c src/wipe.c"
# Tests that watch the allocator intercept malloc (and free) at link time.
link_flags() {
    case "$1" in
        test_oom) echo "-Wl,--wrap=malloc" ;;
        test_wipe) echo "-Wl,--wrap=malloc,--wrap=realloc,--wrap=free" ;;
    esac
}
for t in test_convert test_arith test_fixedbase test_oom test_wipe; do
    if $CC $CFLAGS -Isrc -Itest/c -o "$out/$t" "test/c/$t.c" $C_SOURCES $GMP_LIBS $(link_flags $t) \
        >"$out/$t.build.log" 2>&1; then
        "$out/$t" >"$out/$t.log" 2>&1
        rc=$?
        cat "$out/$t.log"
        tally "$out/$t.log" "$t" "$rc"
    else
        cat "$out/$t.build.log"
        echo "!! $t did not compile" >&2
        failed=$((failed + 1))
    fi
done

# ---- JUnit 5 tests, against lib/libjbigi.so ----
if [ ! -r "$JUNIT_JAR" ]; then
    echo "!! $JUNIT_JAR not found: apt-get install junit5" >&2
    failed=$((failed + 1))
else
    rm -rf "$out/classes"
    mkdir -p "$out/classes"
    if $JAVAC -Xlint:all -Werror -d "$out/classes" -cp "build/classes:$JUNIT_JAR" test/java/net/i2p/util/*.java \
        >"$out/javac.log" 2>&1; then
        # -Xcheck:jni: the JVM checks every JNI call the library makes and
        # prints a warning for any misuse; a warning counts as a failure.
        # -Djbigi.soak=true: the million-call leak soak (about 20 s) runs too.
        $JAVA -Xcheck:jni -Djava.library.path=lib -Djbigi.test.jar=build/jbigi.jar -Djbigi.soak=true \
            -cp "build/classes:$out/classes:$JUNIT_JAR" \
            org.junit.platform.console.ConsoleLauncher --disable-banner --details=tree \
            --disable-ansi-colors --scan-classpath "$out/classes" >"$out/junit.log" 2>&1
        rc=$?
        cat "$out/junit.log"
        ok=$(sed -n 's/^\[ *\([0-9]*\) tests successful *\]$/\1/p' "$out/junit.log")
        bad=$(sed -n 's/^\[ *\([0-9]*\) tests failed *\]$/\1/p' "$out/junit.log")
        jni_warnings=$(grep -c -E 'WARNING in native method|FATAL ERROR in native method|^WARNING: JNI' "$out/junit.log")
        if [ "$jni_warnings" -gt 0 ]; then
            echo "!! -Xcheck:jni printed $jni_warnings warning line(s): counted as failed" >&2
            failed=$((failed + 1))
        fi
        if [ -z "$ok" ] || [ -z "$bad" ]; then
            echo "!! JUnit printed no summary: counted as failed" >&2
            failed=$((failed + 1))
        else
            passed=$((passed + ok))
            failed=$((failed + bad))
            [ "$rc" -eq 0 ] || [ "$bad" -gt 0 ] || failed=$((failed + 1))
        fi
    else
        cat "$out/javac.log"
        echo "!! the JUnit tests did not compile" >&2
        failed=$((failed + 1))
    fi
fi

sh test/emulated/run.sh >"$out/emulated.log" 2>&1; rc=$?; cat "$out/emulated.log"; tally "$out/emulated.log" emulated-cpus "$rc"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
