#!/bin/sh
# I2P's own loader walking the merged jar: ./build.sh i2p-jar merges ours
# into a jar that holds every CPU name I2P's jbigi.jar has for Linux and
# Windows x86-64 (stand-ins marked as I2P's, with no I2P binary here), then,
# for each CPU class of test/i2pjar/classes.tsv and each OS, the walk goes
# down I2P's list from the class's name, each name first with _64 (a 32-bit
# library fails to load in a 64-bit JVM), and stops at the first library
# that loads: one of I2P's always does; one of ours does where the CPU has
# every feature of the row it was built for (JNI_OnLoad's check; the row is
# found by the library's bytes, not its name).  That library must be the
# one the table names: ours wherever our engines run.  And the merged jar
# is no larger than I2P's and ours together.  Then a few classes walked for
# real under qemu-x86_64 (skipped without it).  Needs the dist
# (./build.sh dist); JAVA and JAVAC.  Ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
out=build/test/i2pjar-walk
rm -rf "$out"
mkdir -p "$out/theirs" "$out/result"
passed=0
failed=0
skipped=0
jar_tool="$(dirname "${JAVA:-java}")/jar"
[ -x "$jar_tool" ] || jar_tool=jar
ours=build/jar-resources
classes=test/i2pjar/classes.tsv
v2="cx16 lahf_lm pni popcnt sse4_1 sse4_2 ssse3"
v3="$v2 abm avx avx2 bmi1 bmi2 f16c fma movbe xsave"

if [ ! -f build/i2p/jbigi.jar ] || [ ! -f "$ours/libjbigi-linux-none_64.so" ]; then
    not_ok "no dist to merge: ./build.sh dist"
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 1
fi

# I2P's jbigi.jar for Linux and Windows x86-64: every CPU name it carries,
# a few 32-bit libraries and jcpuid.  Each stand-in is marked with its name
# and, so that the size check below means something, weighs in a jar what
# our smallest 64-bit library does (random bytes, which do not compress):
# armv8's, GMP and a JNI layer without our x86-64 engines, as I2P's are.
linux="atom bobcat bulldozer core2 corei coreibwl coreihwl coreisbr k10 nano none pentium4 skylake steamroller zen zen2"
windows="atom bobcat bulldozer core2 corei coreihwl coreisbr k10 nano none pentium4 piledriver"
smallest=$(cd "$ours" && for f in libjbigi-linux-*_64.so; do gzip -c "$f" | wc -c; done | sort -n | head -n 1)
stand_in() { # file
    { echo "I2P's $1"; head -c "$smallest" /dev/urandom; } >"$out/theirs/$1"
}
for n in $linux; do stand_in "libjbigi-linux-${n}_64.so"; done
for n in $windows; do stand_in "jbigi-windows-${n}_64.dll"; done
for f in libjbigi-linux-none.so libjbigi-linux-pentium4.so jbigi-windows-none.dll \
    libjcpuid-x86_64-linux.so jcpuid-x86_64-windows.dll; do
    stand_in "$f"
done
mkdir -p "$out/theirs/META-INF"
printf 'Manifest-Version: 1.0\n' >"$out/theirs/META-INF/MANIFEST.MF"
"$jar_tool" --create --file "$out/i2p-jbigi.jar" -C "$out/theirs" .

cp build/i2p/jbigi.jar "$out/ours.jar"
if JBIGI_DIST_BUILT=1 ./build.sh i2p-jar "$out/i2p-jbigi.jar" >"$out/build.log" 2>&1; then
    ok "./build.sh i2p-jar: $(tail -n 1 "$out/build.log")"
else
    cat "$out/build.log"
    not_ok "./build.sh i2p-jar failed"
fi
cp build/i2p/jbigi.jar "$out/merged.jar"
cp "$out/ours.jar" build/i2p/jbigi.jar
(cd "$out/result" && "$jar_tool" xf "$OLDPWD/$out/merged.jar")

size() { wc -c <"$1" | tr -d ' '; }
bound=$(($(size "$out/i2p-jbigi.jar") + $(size "$out/ours.jar")))
if [ "$(size "$out/merged.jar")" -le "$bound" ]; then
    ok "the merged jar ($(size "$out/merged.jar") bytes) is no larger than I2P's and ours together ($bound)"
else
    not_ok "the merged jar ($(size "$out/merged.jar") bytes) is larger than I2P's and ours together ($bound)"
fi

# Our libraries by their bytes: "checksum row" lines, one per OS.
for row in $(awk '!/^#/ && NF >= 7 && $2 == "x86_64" { print $1 }' src/cpu/variants.tsv); do
    for f in "libjbigi-linux-${row}_64.so" "jbigi-windows-${row}_64.dll"; do
        [ -f "$ours/$f" ] && echo "$(cksum <"$ours/$f" | tr ' ' _) $row"
    done
done >"$out/ours.sums"

# What the file $1 of the merged jar is: "i2p", "i2p32" (I2P's 32-bit), a
# row of ours, or "unknown".
owner() {
    if head -n 1 "$1" | grep -q "^I2P's"; then
        case $1 in *_64.so | *_64.dll) echo i2p ;; *) echo i2p32 ;; esac
    else
        awk -v s="$(cksum <"$1" | tr ' ' _)" '$1 == s { print $2; found = 1; exit } END { if (!found) print "unknown" }' "$out/ours.sums"
    fi
}

# Whether feature list $2 has every feature of list $1 ("-" is none).
has_all() {
    for want in $1; do
        [ "$want" = - ] && continue
        case " $2 " in *" $want "*) ;; *) return 1 ;; esac
    done
    return 0
}

expand() { echo " $* " | sed "s/ v3 / $v3 /; s/ v2 / $v2 /"; }

# The walk for one class on one OS: prints "NAME:ROW", "NAME:i2p" or
# "nothing" (pure Java), and the names it passed over.
walk() { # first list-names features prefix suffix
    start=no
    passed_over=""
    for n in $2; do
        [ "$n" = "$1" ] && start=yes
        [ "$start" = yes ] || continue
        for f in "$4${n}_64$5" "$4$n$5"; do
            [ -f "$out/result/$f" ] || continue
            who=$(owner "$out/result/$f")
            case $who in
                i2p) echo "$n:i2p$passed_over"; return ;;
                i2p32 | unknown) passed_over="$passed_over; $f ($who)" ;;
                *)
                    if has_all "$(awk -v r="$who" '!/^#/ && $1 == r { for (i = 7; i <= NF; i++) print $i }' src/cpu/variants.tsv)" "$3"; then
                        echo "$n:$who$passed_over"
                        return
                    fi
                    passed_over="$passed_over; $f (ours, $who, refused)"
                    ;;
            esac
        done
    done
    echo "nothing$passed_over"
}

has_windows=no
ls "$ours"/jbigi-windows-*_64.dll >/dev/null 2>&1 && has_windows=yes
grep -v '^#' "$classes" | grep -v '^list ' | while read -r class first list linux_want windows_want features; do
    features=$(expand "$features")
    names=$(awk -v l="$list" '$1 == "list" && $2 == l { for (i = 3; i <= NF; i++) printf "%s ", $i }' "$classes")
    engines=no
    if has_all "bmi2 adx" "$features" || has_all avx512ifma "$features"; then engines=yes; fi
    for os in linux windows; do
        if [ "$os" = linux ]; then
            want=$linux_want prefix=libjbigi-linux- suffix=.so
        else
            want=$windows_want prefix=jbigi-windows- suffix=.dll
            if [ "$has_windows" = no ]; then
                skip "$class on Windows: the dist has no Windows DLLs (apt-get install gcc-mingw-w64-x86-64)"
                continue
            fi
        fi
        if [ "$engines" = yes ] && [ "${want#*:}" = i2p ]; then
            not_ok "$class: our engines run there, yet $classes expects I2P's $want on $os"
            continue
        fi
        got=$(walk "$first" "$names" "$features" "$prefix" "$suffix")
        if [ "${got%%;*}" = "$want" ]; then
            ok "$class on $os: I2P's walk from $first reaches $want${got#"${got%%;*}"}"
        else
            not_ok "$class on $os: I2P's walk from $first reaches ${got%%;*}, not $want${got#"${got%%;*}"}"
        fi
    done
done >"$out/walk.log"
cat "$out/walk.log"
passed=$((passed + $(grep -c '^ok' "$out/walk.log")))
failed=$((failed + $(grep -c '^not ok' "$out/walk.log")))
skipped=$((skipped + $(grep -c '^skip' "$out/walk.log")))

# The Linux walk for real, in a JVM under qemu-x86_64 -cpu MODEL: the merged
# jar's libraries in the walk's order, each written over the one file
# I2P's loader uses (test/i2pjar/SamePath.java), until one loads.  Ours
# refused by its CPU check must leave nothing behind; each of I2P's
# libraries, which this test does not have, is stood in for by a copy of
# our baseline one.
JAVA=$(command -v "${JAVA:-java}")
real_walk() { # class model
    row=$(awk -v c="$1" '$1 == c' "$classes")
    set -- "$1" "$2" $row
    names=$(awk -v l="$5" '$1 == "list" && $2 == l { for (i = 3; i <= NF; i++) printf "%s ", $i }' "$classes")
    files=""
    start=no
    for n in $names; do
        [ "$n" = "$4" ] && start=yes
        f="$out/result/libjbigi-linux-${n}_64.so"
        [ "$start" = yes ] && [ -f "$f" ] || continue
        if [ "$(owner "$f")" = i2p ]; then
            cp "$ours/libjbigi-linux-none_64.so" "$out/i2p-$n.so"
            f=$out/i2p-$n.so
        fi
        files="$files $f"
    done
    qemu-x86_64 -cpu "$2" "$JAVA" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$out/classes" SamePath "$out" $files \
        >"$out/real-$1.log" 2>/dev/null
    want=${6%%:*}
    case ${6#*:} in i2p) want_file=$out/i2p-$want.so ;; *) want_file=$out/result/libjbigi-linux-${want}_64.so ;; esac
    refused=$(grep -c '^refused .*this CPU cannot run' "$out/real-$1.log")
    if [ "$(tail -n 1 "$out/real-$1.log")" = "loaded $want_file" ] && [ "$refused" -eq $(($(wc -l <"$out/real-$1.log") - 1)) ]; then
        ok "$1 for real (qemu -cpu $2): $refused of ours refused, then $6 loaded from the same file"
    else
        sed 's/^/    /' "$out/real-$1.log"
        not_ok "$1 for real (qemu -cpu $2): not $6 after refusals"
    fi
}
if ! command -v qemu-x86_64 >/dev/null; then
    skip "the walk for real: qemu-x86_64 not installed (apt-get install qemu-user)"
elif ! "${JAVAC:-$(dirname "$JAVA")/javac}" --release 8 -Xlint:all,-options -Werror -d "$out/classes" test/i2pjar/SamePath.java; then
    not_ok "test/i2pjar/SamePath.java did not compile"
else
    real_walk skylake Skylake-Client
    real_walk skylake-celeron Skylake-Client,-avx,-avx2,-bmi1,-bmi2,-fma,-f16c,-movbe,-adx
    real_walk zen EPYC
    real_walk zen-no-adx EPYC,-adx
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
