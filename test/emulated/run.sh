#!/bin/sh
# The CPU check for real, and the other architecture.  Called by
# test/run-tests.sh (make test) after the JUnit tests; ends with one line
# "N passed, N failed, N skipped".
#
#  1. test_cpu_check: the check behind JNI_OnLoad agrees with this CPU.
#  2. Under qemu-x86_64 -cpu MODEL (Core 2 to Skylake, K10 to Zen), a JVM
#     with build/jbigi.jar on its class path, twice:
#     a. as it is: /proc/cpuinfo is the host's under qemu-user, so the
#        loader ranks by the host's vendor and the libraries' own CPUID
#        checks must refuse what the emulated CPU lacks: the JVM must not
#        crash and must load the first of the host's candidates the
#        emulated CPU can run (or run in pure Java);
#     b. told the emulated CPU's vendor (-Djbigi.cpuinfo=FILE): it must
#        load the variant meant for that CPU.
#     Both times it must compute what the host computes.  And
#     lib/libjbigi.so, built for this machine, on an emulated CPU without
#     its features: refused with a clear status, no crash.
#  3. The ARM builds' C tests under qemu-aarch64 (armv8) and qemu-arm
#     (armv7, 32-bit limbs), when the dist build made their GMPs.
#  4. The dist jar in Debian's armhf and arm64 OpenJDK under qemu-arm and
#     qemu-aarch64 (fetched by test/emulated/fetch-arm-jvm.sh): armhf told it
#     runs on an ARMv7, then an ARMv6; arm64.
#
# What is missing (qemu-user, a cross compiler, an ARM GMP) is skipped,
# and counted as skipped, with a message saying how to get it.  Environment as for
# run-tests.sh: JAVA, CC, CFLAGS, GMP_LIBS.
set -u
cd "$(dirname "$0")/../.."
. test/lib.sh
out=build/test/emulated
mkdir -p "$out"
passed=0
failed=0
skipped=0
JAVA=$(command -v "${JAVA:-java}")
CC=${CC:-cc}
MODELS=${JBIGI_QEMU_MODELS:-core2duo Nehalem SandyBridge Haswell Skylake-Client Icelake-Server Opteron_G3 Opteron_G5 EPYC EPYC-Milan}
# The project's own copy of the vectors; a missing file is a failure below.
VECTORS=${JBIGI_VECTORS:-test/vectors/modpow-public.txt}
# Emulation is slow: the first 1500 vectors (all three operations), and the
# 900 random cases of LoadProbe's digest.
VECTOR_LIMIT=${JBIGI_QEMU_VECTORS:-1500}

ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
skip() { echo "skip - $*"; skipped=$((skipped + 1)); }

# Adds the counts of a C test's "N passed, N failed" line.
add_counts() {
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if [ -z "$line" ]; then
        not_ok "$2 printed no result line"
        return
    fi
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    passed=$((passed + p))
    failed=$((failed + f))
    echo "$2: $line"
}

field() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# Every feature name in the table, once.
table_features() {
    awk '!/^#/ && NF >= 7 { for (i = 7; i <= NF; i++) if ($i != "-") print $i }' src/cpu/variants.tsv | sort -u | tr '\n' ' '
}

# x86_64 candidates, best first, as the Java loader ranks them from a
# cpuinfo file's vendor (default: this machine's): rows for its vendor, the
# other vendor's, any CPU's.  No flags: each library's CPUID check decides.
candidates() {
    info=${1:-/proc/cpuinfo}
    vendor=$(awk -F': *' '/^vendor_id/ { print $2; exit }' "$info")
    case $vendor in
        GenuineIntel) vendor=intel ;;
        AuthenticAMD | HygonGenuine) vendor=amd ;;
        *) vendor=other ;;
    esac
    awk -v vendor="$vendor" '
        !/^#/ && NF >= 7 && $2 == "x86_64" {
            group = $6 == vendor ? 0 : $6 == "any" ? 2 : 1
            print group, NR, $1
        }' src/cpu/variants.tsv | sort -k1,1n -k2,2n | awk '{ print $3 }'
}

# The variant a JVM on an emulated CPU with these CPUID features should load
# from the jar, the loader ranking by cpuinfo file $2's vendor: the first
# candidate the jar has and the CPU can run.
expected_variant() {
    emulated=" $1 "
    for cpu in $(candidates "${2:-}"); do
        grep -qx "libjbigi-linux-${cpu}_64.so" "$out/jar.list" || continue
        fits=1
        for f in $(awk -v cpu="$cpu" '$1 == cpu { for (i = 7; i <= NF; i++) print $i }' src/cpu/variants.tsv); do
            [ "$f" = - ] || case $emulated in *" $f "*) ;; *) fits=0 ;; esac
        done
        if [ $fits = 1 ]; then
            echo "$cpu"
            return
        fi
    done
    echo "pure-java"
}

# Runs VectorProbe under qemu-x86_64 -cpu MODEL and checks it: check MODEL
# FEATURES EXPECTED LABEL [JVM options].
check_model() {
    model=$1 has=$2 want=$3 label=$4
    shift 4
    log=$out/$model-$label.log
    qemu-x86_64 -cpu "$model" "$JAVA" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.library.path="$empty" "$@" \
        -cp "$cp" net.i2p.util.VectorProbe "$VECTORS" "$VECTOR_LIMIT" >"$log" 2>&1
    rc=$?
    got=$(field resource "$log")
    [ "$(field native "$log")" = true ] || got=pure-java
    what="-cpu $model, $label: expected $want, got $got"
    if [ $rc -ne 0 ]; then
        not_ok "$what; the JVM exited $rc:"
        tail -n 20 "$log"
    elif [ "$got" != "$want" ] && [ "libjbigi-linux-${want}_64.so" != "$got" ]; then
        not_ok "$what"
        cat "$log"
    elif [ "$label" = host-cpuinfo ] && [ "$want" != "$(expected_variant "$(table_features)")" ] &&
        ! field status "$log" | grep -q "refused by its CPU check"; then
        not_ok "$what, but the status does not say which library refused the CPU: $(field status "$log")"
    elif [ "$(field results "$log")" != "$host_digest" ]; then
        not_ok "$what, but results differ from the host's"
    elif [ "$(field vectors "$log")" != "$(field vectors "$out/host.log")" ]; then
        not_ok "$what, but known-answer vectors: $(field vectors "$log")"
    else
        ok "$what; vectors $(field vectors "$log") (checked, failed)"
    fi
}

# ---- 1. the check on this CPU ----
if $CC -std=c11 -O2 -Wall -Wextra -Werror -Isrc -Itest/c -o "$out/test_cpu_check" test/c/test_cpu_check.c $(cpu_sources) \
    >"$out/test_cpu_check.build.log" 2>&1; then
    "$out/test_cpu_check" >"$out/test_cpu_check.log" 2>&1
    cat "$out/test_cpu_check.log"
    add_counts "$out/test_cpu_check.log" test_cpu_check
else
    cat "$out/test_cpu_check.build.log"
    not_ok "test_cpu_check did not compile"
fi

# ---- 2. emulated x86-64 CPUs ----
classes=build/test/classes
if [ "$(uname -m)" != x86_64 ]; then
    skip "emulated x86-64 CPUs: this machine is $(uname -m)"
elif ! command -v qemu-x86_64 >/dev/null; then
    skip "emulated x86-64 CPUs: qemu-x86_64 not installed (apt-get install qemu-user)"
elif [ ! -f build/jbigi.jar ] || [ ! -x build/cpu-probe ] || [ ! -f "$classes/net/i2p/util/VectorProbe.class" ]; then
    not_ok "emulated x86-64 CPUs: build/jbigi.jar, build/cpu-probe or the compiled test classes are missing"
else
    empty=$(mktemp -d)
    "$(dirname "$JAVA")/jar" tf build/jbigi.jar >"$out/jar.list"
    cp="build/jbigi.jar:$classes"
    "$JAVA" -Djava.library.path="$empty" -cp "$cp" net.i2p.util.VectorProbe "$VECTORS" "$VECTOR_LIMIT" >"$out/host.log" 2>&1
    host_digest=$(field results "$out/host.log")
    echo "jar carries: $(sed -n 's/^libjbigi-linux-\([a-z0-9]*\)\(_64\)\{0,1\}\.so$/\1/p' "$out/jar.list" | tr '\n' ' ')"
    echo "this machine's candidates: $(candidates | tr '\n' ' ')"
    for model in $MODELS; do
        # The emulated CPU as the libraries' own check sees it (build/cpu-probe).
        has=$(qemu-x86_64 -cpu "$model" build/cpu-probe 2>/dev/null)
        case $(qemu-x86_64 -cpu "$model" build/cpu-probe --vendor 2>/dev/null) in
            intel) vendor=GenuineIntel ;;
            amd) vendor=AuthenticAMD ;;
            *) vendor=unknown ;;
        esac
        echo "-cpu $model: $vendor, CPUID: ${has:-baseline}"
        check_model "$model" "$has" "$(expected_variant "$has")" "host-cpuinfo"
        info=$out/$model.cpuinfo
        printf 'vendor_id\t: %s\nmodel name\t: qemu %s\nflags\t\t: fpu sse sse2 %s\n\n' "$vendor" "$model" "$has" >"$info"
        check_model "$model" "$has" "$(expected_variant "$has" "$info")" "own-cpuinfo" -Djbigi.cpuinfo="$info"
    done

    # lib/libjbigi.so, built for this machine, on the oldest emulated CPU.
    variant=$(cat build/gmp-static/jbigi-variant 2>/dev/null || echo none)
    if [ -f lib/libjbigi.so ] && [ "$variant" != none ] && [ "$variant" != fat ]; then
        log=$out/host-library-on-core2duo.log
        qemu-x86_64 -cpu core2duo "$JAVA" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.library.path=lib \
            -cp "build/classes:$classes" net.i2p.util.LoadProbe >"$log" 2>&1
        rc=$?
        status=$(field status "$log")
        case "$rc $(field native "$log") $status" in
            "0 false "*"libjbigi.so on java.library.path: refused by its CPU check"*)
                ok "lib/libjbigi.so ($variant) on -cpu core2duo: refused, pure Java: $status" ;;
            *)
                not_ok "lib/libjbigi.so ($variant) on -cpu core2duo: exit $rc"
                cat "$log" ;;
        esac
        # The refusal reaches the status; nothing on stderr without -Djbigi.debug=true.
        if grep 'cannot run' "$log" | grep -qv '^status='; then
            not_ok "lib/libjbigi.so's refusal was printed outside the status: $(grep 'cannot run' "$log" | grep -v '^status=' | head -n 1)"
        else
            ok "lib/libjbigi.so's refusal printed nothing (without -Djbigi.debug=true)"
        fi
    else
        skip "host library refusal: lib/libjbigi.so is not a CPU-tuned build ($variant)"
    fi
    rm -rf "$empty"
fi

# ---- 3. the ARM rows' C tests under qemu-aarch64 and qemu-arm ----
# cpu (row of src/cpu/variants.tsv), its arch, cross compiler and its Debian
# packages, qemu, and the C tests of code its library leaves out or never
# runs there (the MULX/ADX engine, x86-64 only; on 32-bit limbs also the
# IFMA engine and the fixed-base tables, see the Makefile's LIMB32_OMITTED).
while read -r cpu arch cross packages emulator omitted; do
    gmp=build/gmp-$GMP_VERSION-$cpu/install
    if ! command -v "$cross" >/dev/null || ! command -v "$emulator" >/dev/null; then
        skip "$cpu: needs $packages and qemu-user"
        continue
    elif [ ! -f "$gmp/lib/libgmp.a" ]; then
        skip "$cpu: no $cpu GMP yet (./build.sh dist, or ./build.sh --gmp-only $cpu)"
        continue
    fi
    # Every C test, linked with the sources below JNI of this architecture's library.
    sources=""
    # shellcheck disable=SC2016 # $(call ...) is make's, not the shell's
    for f in $(make -s --no-print-directory --eval "jbigi-print-arch-sources: ; @echo \$(call arch_sources,$arch)" \
        jbigi-print-arch-sources); do
        grep -q '^#include <jni.h>' "$f" || sources="$sources $f"
    done
    # On 64-bit limbs the IFMA engine's code is built on the portable model
    # of its instructions (test/model/), so it runs here too, at
    # JBIGI_QEMU_MODEL_SCALE percent (default 1) of its random cases.
    model=
    [ "$arch" != armhf ] && model="-DJBIGI_IFMA_MODEL -Itest/model"
    # The sources compiled once for every test (the model's kernels take a
    # while to compile).
    flags="-std=c11 -O2 -Wall -Wextra -Werror -static -DJBIGI_PRIVATE_GMP $model -Isrc -Itest/c -Itest/model -I$gmp/include"
    mkdir -p "$out/obj-$cpu"
    objects=""
    for f in $sources; do
        obj=$out/obj-$cpu/$(basename "$f" .c).o
        "$cross" $flags -c -o "$obj" "$f" >"$obj.log" 2>&1 || { cat "$obj.log"; not_ok "$f did not compile for $cpu"; }
        objects="$objects $obj"
    done
    for t in $(c_tests); do
        case ",$omitted," in
            *",$t,"*)
                # Nothing to test: the library has no such code (not a skip).
                echo "# $t ($cpu): not built, none of its code runs on $cpu"
                continue
                ;;
        esac
        # shellcheck disable=SC2046 # c_test_link_flags gives a list of flags
        if "$cross" $flags -o "$out/$t-$cpu" "test/c/$t.c" $objects "$gmp/lib/libgmp.a" $(c_test_link_flags "$t") \
            >"$out/$t-$cpu.build.log" 2>&1; then
            scale=
            [ -n "$model" ] && case " $(engine_tests) " in *" $t "*) scale=JBIGI_TEST_SCALE=${JBIGI_QEMU_MODEL_SCALE:-1} ;; esac
            env $scale JBIGI_TEST_EMULATOR="$emulator" "$emulator" "$out/$t-$cpu" </dev/null >"$out/$t-$cpu.log" 2>&1
            add_counts "$out/$t-$cpu.log" "$t ($cpu, $emulator)"
        else
            cat "$out/$t-$cpu.build.log"
            not_ok "$t did not compile for $cpu"
        fi
    done
done <<'ROWS'
armv8 aarch64 aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu+libc6-dev-arm64-cross qemu-aarch64 test_adx
armv7 armhf arm-linux-gnueabihf-gcc gcc-arm-linux-gnueabihf+libc6-dev-armhf-cross qemu-arm test_ifma,test_fixedbase,test_avx512_model,test_adx
ROWS

# ---- 4. the jar in emulated ARM JVMs (qemu-arm, qemu-aarch64; Debian's OpenJDK) ----
# qemu-user shows the host's /proc/cpuinfo, so each JVM is told an ARM one.
# armhf: as an ARMv7 (Raspberry Pi 2/3 with a 32-bit OS) it loads
# libjbigi-linux-armv7.so; as an ARMv6 (Pi Zero) there is no library meant
# for it and it runs in pure Java.  arm64: it loads libjbigi-linux-armv8_64.so.
# Every time: the host's results, 300 known-answer vectors, -Xcheck:jni clean.
# arch qemu cpu-architecture expected-resource ("-": pure Java)
# Debian's ARM JVMs, fetched once into build/ when qemu-user is here.
if command -v qemu-arm >/dev/null && { [ ! -d build/armhf-jvm/root ] || [ ! -d build/arm64-jvm/root ]; }; then
    sh test/emulated/fetch-arm-jvm.sh >"$out/fetch-arm-jvm.log" 2>&1 ||
        echo "# the ARM JVMs could not be fetched: see $out/fetch-arm-jvm.log"
fi
empty=$(mktemp -d)
host_log=$out/arm-host.log
rm -f "$host_log" # made by the first JVM run below, from this jar
while read -r arch emulator level expected; do
    root=build/$arch-jvm/root
    java=$root/usr/lib/jvm/java-17-openjdk-$arch/bin/java
    what="$arch JVM as an ARMv$level"
    if ! command -v "$emulator" >/dev/null; then
        skip "$what: $emulator not installed (apt-get install qemu-user)"
        continue
    elif [ ! -x "$java" ]; then
        skip "$what: no JVM in $root (sh test/emulated/fetch-arm-jvm.sh fetches Debian's)"
        continue
    elif [ "$expected" != - ] && { [ ! -f build/jbigi.jar ] ||
        ! "$(dirname "$JAVA")/jar" tf build/jbigi.jar | grep -qx "$expected"; }; then
        skip "$what: build/jbigi.jar carries no $expected (make dist)"
        continue
    elif [ ! -f "$classes/net/i2p/util/VectorProbe.class" ]; then
        not_ok "$what: the compiled test classes are missing"
        continue
    fi
    [ -f "$host_log" ] || "$JAVA" -Djava.library.path="$empty" -cp "build/jbigi.jar:$classes" \
        net.i2p.util.VectorProbe "$VECTORS" 300 >"$host_log" 2>&1
    info=$out/$arch-v$level.cpuinfo
    printf 'processor\t: 0\nmodel name\t: ARMv%s Processor (qemu)\nFeatures\t: fp half thumb vfp edsp tls\nCPU architecture: %s\n\n' \
        "$level" "$level" >"$info"
    log=$out/$arch-v$level.log
    # A small heap: sized from the host's memory, a 32-bit JVM's would leave
    # too little of its address space under qemu-arm for native allocations.
    "$emulator" -L "$root" "$java" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xcheck:jni \
        -Djava.library.path="$empty" -Djbigi.cpuinfo="$info" -cp "build/jbigi.jar:$classes" \
        net.i2p.util.VectorProbe "$VECTORS" 300 >"$log" 2>&1
    rc=$?
    want=$([ "$expected" != - ] && echo "true $expected" || echo "false null")
    got="$(field native "$log") $(field resource "$log")"
    if [ "$rc" -ne 0 ] || [ "$got" != "$want" ] || grep -q '^WARNING' "$log" ||
        [ "$(field results "$log")" != "$(field results "$host_log")" ] || [ "$(field vectors "$log")" != "300 0" ]; then
        not_ok "$what: exit $rc, expected '$want', got '$got'"
        cat "$log"
    else
        ok "$what: native/resource '$got', 300 vectors and the random cases as on the host, -Xcheck:jni clean"
    fi
done <<'ROWS'
armhf qemu-arm 7 libjbigi-linux-armv7.so
armhf qemu-arm 6 -
arm64 qemu-aarch64 8 libjbigi-linux-armv8_64.so
ROWS
rm -rf "$empty"

report_failures
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
