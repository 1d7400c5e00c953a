#!/bin/sh
# ./build.sh i2p-jar against a jar in I2P's layout that this test makes
# itself (no I2P binary in the repository): every library of the dist
# (Linux, Windows, jcpuid) is ours in the result, byte for byte; every entry
# of I2P's we do not build (macOS, FreeBSD, 32-bit x86, ARMv5/v6, PowerPC,
# CPU names we have no library for) is I2P's, byte for byte; no classes; a
# missing or broken I2P jar is refused.  The names of src/cpu/i2p-names.tsv:
# test/i2pjar/walk.sh.  Needs the dist (./build.sh dist)
# and JAVA.  Ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
out=build/test/i2pjar
rm -rf "$out"
mkdir -p "$out/theirs" "$out/result"
passed=0
failed=0
skipped=0
jar_tool="$(dirname "${JAVA:-java}")/jar"
[ -x "$jar_tool" ] || jar_tool=jar
ours=build/jar-resources

if [ ! -f build/i2p/jbigi.jar ] || [ ! -d "$ours" ]; then
    not_ok "no dist to merge: ./build.sh dist"
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 1
fi
# I2P's layout: what its own jbigi.jar holds, each file marked with its name.
kept="libjbigi-osx-core2_64.jnilib libjbigi-osx-skylake_64.jnilib libjbigi-freebsd-athlon64_64.so
libjbigi-linux-pentium4.so libjbigi-linux-armv5.so libjbigi-linux-armv6.so libjbigi-linux-ppc.so
libjbigi-linux-k10_64.so jbigi-windows-pentium4.dll jbigi-windows-piledriver_64.dll
libjcpuid-x86-linux.so libjcpuid-x86_64-osx.jnilib libjcpuid-x86_64-freebsd.so"
replaced=""
for f in $(cd "$ours" && ls *.so *.dll 2>/dev/null); do replaced="$replaced $f"; done
for f in $kept $replaced; do echo "I2P's $f" >"$out/theirs/$f"; done
mkdir -p "$out/theirs/META-INF"
printf 'Manifest-Version: 1.0\n' >"$out/theirs/META-INF/MANIFEST.MF"
"$jar_tool" --create --file "$out/i2p-jbigi.jar" -C "$out/theirs" .

cp build/i2p/jbigi.jar "$out/ours-before.jar"
if JBIGI_DIST_BUILT=1 ./build.sh i2p-jar "$out/i2p-jbigi.jar" >"$out/build.log" 2>&1; then
    ok "./build.sh i2p-jar: $(tail -n 1 "$out/build.log")"
else
    cat "$out/build.log"
    not_ok "./build.sh i2p-jar failed"
fi
(cd "$out/result" && "$jar_tool" xf "$OLDPWD/build/i2p/jbigi.jar")
n=0
for f in $kept; do
    if [ -f "$out/result/$f" ] && [ "$(cat "$out/result/$f")" = "I2P's $f" ]; then n=$((n + 1)); else
        not_ok "I2P's $f is not in the merged jar as I2P made it"
    fi
done
[ "$n" -eq "$(echo $kept | wc -w)" ] && ok "all $n of I2P's entries for what we do not build are kept unchanged"
n=0
for f in $replaced; do
    if cmp -s "$ours/$f" "$out/result/$f"; then n=$((n + 1)); else not_ok "$f in the merged jar is not ours"; fi
done
[ "$n" -gt 0 ] && [ "$n" -eq "$(echo $replaced | wc -w)" ] && ok "all $n of our libraries are in, byte for byte, in place of I2P's"
if [ -z "$(find "$out/result" -name '*.class')" ] && [ -f "$out/result/META-INF/COPYING.LESSERv3" ]; then
    ok "no classes; GMP's licence texts"
else
    not_ok "classes in the merged jar, or GMP's licence texts missing"
fi
# Refusals: no such file, not a jar.  The dist's own jar is left as it was.
cp "$out/ours-before.jar" build/i2p/jbigi.jar
echo "not a jar" >"$out/broken.jar"
if JBIGI_DIST_BUILT=1 ./build.sh i2p-jar "$out/missing.jar" >"$out/missing.log" 2>&1; then
    not_ok "a missing I2P jar was accepted"
else
    ok "a missing I2P jar is refused: $(tail -n 1 "$out/missing.log")"
fi
if JBIGI_DIST_BUILT=1 ./build.sh i2p-jar "$out/broken.jar" >"$out/broken.log" 2>&1; then
    not_ok "a file that is no jar was accepted"
else
    ok "a file that is no jar is refused: $(tail -n 1 "$out/broken.log")"
fi
cp "$out/ours-before.jar" build/i2p/jbigi.jar
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
