#!/bin/sh
# test/deb/run.sh - the Debian packages (make deb), in make check's --all
# tier: built for amd64, arm64 and armhf (JBIGI_DEB_ARCHES) with each GMP
# build reused from build/ where build.sh's cache says it is the same
# configuration, unpacked with dpkg -x into a temporary root, and run from
# there with -Djava.library.path=<root>/usr/lib/jni:
#  1. the packages: files, fields (Provides/Conflicts/Replaces libjbigi-jni,
#     Built-Using the gmp source package, Depends libc6 only), lintian with
#     no error (its warnings are printed; doc/measurements.md explains them);
#     the amd64 and source packages built again at another path, the same
#     bytes; the amd64 package installed (dpkg --root) over a stand-in for
#     I2P's libjbigi-jni, which dpkg removes;
#  2. amd64 on this CPU: the JNI harness on the packaged library, the speed
#     test, the known-answer vectors with the jar's classes, and the library
#     loaded from the path as the newer jar's equal (LibraryRelease);
#  3. amd64 under qemu-x86_64 on old CPUs (Core 2, Opteron G3): the same
#     library loads and computes what this CPU computes;
#  4. arm64 and armhf in Debian's ARM JVMs under QEMU (build/arm64-jvm,
#     build/armhf-jvm, fetched by test/emulated/fetch-arm-jvm.sh); the armhf
#     library has no init or fini code (see the Makefile's -nostartfiles),
#     so on an ARMv6 nothing of it runs before its CPU check refuses.
# Needs build/jbigi.jar and the compiled test classes (make check's native
# tier made them).  Ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
out=build/test/deb
rm -rf "$out"
mkdir -p "$out"
passed=0
failed=0
skipped=0
# A path: qemu-x86_64 runs a file, not a command name.
JAVA=$(command -v "${JAVA:-java}")
VECTORS=test/vectors/modpow-public.txt
classes=build/test/classes
version=$(cat VERSION)
field() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# ---- building: the GMP builds the packages reuse, then make deb ----
arches=${JBIGI_DEB_ARCHES:-amd64 arm64 armhf}
built=""
for arch in $arches; do
    case $arch in
        amd64) gmp=fat cross=cc ;;
        arm64) gmp=armv8 cross=aarch64-linux-gnu-gcc ;;
        armhf) gmp=armv7 cross=arm-linux-gnueabihf-gcc ;;
    esac
    if ! command -v "$cross" >/dev/null; then
        skip "$arch package: no $cross (apt-get install crossbuild-essential-$arch)"
        continue
    fi
    # The fat GMP once in build/ (make check's dist built the ARM ones).
    [ -f "build/gmp-$GMP_VERSION-$gmp/install/jbigi-config" ] || ./build.sh --gmp-only "$gmp" >"$out/gmp-$gmp.log" 2>&1 ||
        { tail -n 20 "$out/gmp-$gmp.log"; not_ok "GMP for the $arch package did not build"; continue; }
    built="$built $arch"
done
start=$(date +%s)
if [ -n "$built" ] && make --no-print-directory deb DEB_OUT="$out/packages" DEB_ARCHES="$built" DEB_GMP_CACHE=build \
    >"$out/make-deb.log" 2>&1; then
    ok "make deb for$built in $(($(date +%s) - start)) s"
else
    tail -n 30 "$out/make-deb.log"
    [ -z "$built" ] || not_ok "make deb for$built"
fi

# ---- 1. each package: contents and fields ----
for arch in $built; do
    deb=$out/packages/jbigi-jni_${version}_$arch.deb
    root=$out/root-$arch
    if [ ! -f "$deb" ]; then
        not_ok "$deb was not built"
        continue
    fi
    mkdir -p "$root" && dpkg -x "$deb" "$root"
    want="./usr/lib/jni/libjbigi.so ./usr/share/lintian/overrides/jbigi-jni"
    [ "$arch" = amd64 ] && want="$want ./usr/lib/jni/libjcpuid.so"
    got=$(dpkg -c "$deb" | awk '$1 !~ /^d/ { print $NF }' | grep -v '^./usr/share/doc/' | sort | tr '\n' ' ')
    if [ "$got" = "$(printf '%s\n' $want | sort | tr '\n' ' ')" ]; then
        ok "$arch package holds $got(and its doc)"
    else
        not_ok "$arch package holds $got, expected $want"
    fi
    problems=""
    for f in Provides Conflicts Replaces; do
        [ "$(dpkg-deb -f "$deb" "$f")" = libjbigi-jni ] || problems="$problems $f"
    done
    case $(dpkg-deb -f "$deb" Built-Using) in "gmp (= "*"$GMP_VERSION"*")") ;; *) problems="$problems Built-Using" ;; esac
    case $(dpkg-deb -f "$deb" Depends) in "libc6 (>= "*")") ;; *) problems="$problems Depends" ;; esac
    if [ -z "$problems" ]; then
        ok "$arch package: Provides, Conflicts, Replaces libjbigi-jni; $(dpkg-deb -f "$deb" Built-Using); Depends $(dpkg-deb -f "$deb" Depends)"
    else
        not_ok "$arch package fields wrong:$problems"
        dpkg-deb -f "$deb"
    fi
    needed=$(readelf -d "$root/usr/lib/jni/libjbigi.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    [ "$needed" = "libc.so.6 " ] && ok "$arch libjbigi.so needs libc.so.6 only" || not_ok "$arch libjbigi.so needs: $needed"
done

# The amd64 packages (and the source package) built again from a tree at
# another path, reusing the same GMP build: the same bytes.  The whole
# release, GMP included, was compared by hand:
# doc/measurements.md: "The release built twice (2026-12-07)"
if [ -f "$out/packages/jbigi-jni_${version}_amd64.deb" ]; then
    again=$out/packages-again
    if JBIGI_DEB_TREE=$out/tree-built-a-second-time make --no-print-directory deb DEB_OUT="$again" DEB_ARCHES=amd64 \
        DEB_GMP_CACHE=build >"$out/make-deb-again.log" 2>&1; then
        for f in "$again"/*.deb "$again"/*.dsc "$again"/*.tar.xz; do
            name=$(basename "$f")
            if cmp -s "$f" "$out/packages/$name"; then
                ok "$name built again at another path: the same bytes"
            else
                not_ok "$name differs when built again at another path"
            fi
        done
    else
        tail -n 30 "$out/make-deb-again.log"
        not_ok "make deb for amd64 a second time"
    fi
fi

# The amd64 package installed over I2P's: in a dpkg root of its own, a
# stand-in for I2P's libjbigi-jni (its two files in /usr/lib/jni) first,
# then ours, which dpkg must take in its place (Conflicts, Replaces).
if [ -f "$out/packages/jbigi-jni_${version}_amd64.deb" ] && command -v dpkg-deb >/dev/null; then
    droot=$out/dpkg-root
    standin=$out/standin
    mkdir -p "$droot/var/lib/dpkg/info" "$droot/var/lib/dpkg/updates" "$standin/DEBIAN" "$standin/usr/lib/jni"
    : >"$droot/var/lib/dpkg/status"
    : >"$droot/var/lib/dpkg/available"
    echo "I2P's library stands here" >"$standin/usr/lib/jni/libjbigi.so"
    echo "I2P's jcpuid stands here" >"$standin/usr/lib/jni/libjcpuid.so"
    printf 'Package: libjbigi-jni\nVersion: 2.10.0-1\nArchitecture: amd64\nMaintainer: test <test@example.org>\nDescription: stand-in for I2P'"'"'s package\n' \
        >"$standin/DEBIAN/control"
    # --force-depends: the root holds no libc6 package.
    dpkgr() { dpkg --root="$droot" --force-not-root --force-depends --log=/dev/null "$@"; }
    if dpkg-deb --root-owner-group --build "$standin" "$out/libjbigi-jni_2.10.0-1_amd64.deb" >"$out/dpkg-root.log" 2>&1 &&
        dpkgr -i "$out/libjbigi-jni_2.10.0-1_amd64.deb" >>"$out/dpkg-root.log" 2>&1 &&
        dpkgr -i "$out/packages/jbigi-jni_${version}_amd64.deb" >>"$out/dpkg-root.log" 2>&1; then
        status=$(dpkg-query --admindir="$droot/var/lib/dpkg" -W -f='${Package} ${db:Status-Abbrev}\n' 2>/dev/null | tr '\n' ';')
        if [ "$status" = "jbigi-jni ii ;" ] && grep -q 'Removing libjbigi-jni' "$out/dpkg-root.log" &&
            cmp -s "$droot/usr/lib/jni/libjbigi.so" "$out/root-amd64/usr/lib/jni/libjbigi.so" &&
            cmp -s "$droot/usr/lib/jni/libjcpuid.so" "$out/root-amd64/usr/lib/jni/libjcpuid.so"; then
            ok "installed over a stand-in for I2P's libjbigi-jni: dpkg removed it, /usr/lib/jni holds ours"
        else
            not_ok "installed over I2P's package: packages '$status', /usr/lib/jni not ours"
            cat "$out/dpkg-root.log"
        fi
    else
        cat "$out/dpkg-root.log"
        not_ok "installing over a stand-in for I2P's libjbigi-jni failed"
    fi
fi

# lintian over the source and binary packages: no error.
changes=$(ls "$out"/packages/*.changes 2>/dev/null | head -n 1)
if ! command -v lintian >/dev/null; then
    skip "lintian not installed (apt-get install lintian)"
elif [ -n "$changes" ]; then
    for c in "$out"/packages/*.changes; do lintian --tag-display-limit 0 "$c"; done >"$out/lintian.log" 2>&1
    cat "$out/lintian.log"
    if grep -q '^E: ' "$out/lintian.log"; then
        not_ok "lintian reports errors"
    else
        ok "lintian: no error ($(grep -c '^W: ' "$out/lintian.log") warning lines, explained in doc/measurements.md)"
    fi
fi

# ---- 2. amd64 on this CPU ----
root=$out/root-amd64/usr/lib/jni
empty=$(mktemp -d)
# What the jar computes with its own library, which every run below must match.
host_digest=none
[ -f build/jbigi.jar ] && [ -f "$classes/net/i2p/util/VectorProbe.class" ] &&
    "$JAVA" -Djava.library.path="$empty" -cp "build/jbigi.jar:$classes" net.i2p.util.VectorProbe "$VECTORS" 300 \
        >"$out/host.log" 2>&1 && host_digest=$(field results "$out/host.log")
# A JVM's run: the packaged library loaded from the path, results as the jar's.
check_run() { # log label
    if [ "$(field native "$1")" = true ] && [ "$(field resource "$1")" = null ] &&
        [ "$(field results "$1")" = "$host_digest" ] && [ "$(field vectors "$1")" = "300 0" ]; then
        ok "$2: loaded from the package, 300 vectors and the random cases as with the jar"
    else
        not_ok "$2"
        cat "$1"
    fi
}
if [ ! -f "$root/libjbigi.so" ]; then
    skip "amd64 package tests: no amd64 package"
elif [ ! -f build/jbigi.jar ] || [ ! -f "$classes/net/i2p/util/VectorProbe.class" ]; then
    not_ok "build/jbigi.jar or the compiled test classes are missing"
else
    # A tenth of the random cases: make test's run covers the same code in full.
    JBIGI_TEST_SCALE=${JBIGI_TEST_SCALE:-10} sh test/jni/run.sh "$root/libjbigi.so" >"$out/jni-harness.log" 2>&1
    rc=$?
    grep -v '^ok ' "$out/jni-harness.log"
    tally "$out/jni-harness.log" "jni-harness (the amd64 package)" "$rc"

    "$JAVA" -Djava.library.path="$root" -cp build/jbigi.jar net.i2p.util.NativeBigInteger -n >"$out/speedtest.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q "loaded from file" "$out/speedtest.log"; then
        ok "the speed test with the packaged library: $(grep -m1 '^Status' "$out/speedtest.log")"
    else
        not_ok "the speed test with the packaged library exited $rc"
        cat "$out/speedtest.log"
    fi

    "$JAVA" -Xcheck:jni -Djava.library.path="$root" -cp "build/jbigi.jar:$classes" net.i2p.util.VectorProbe "$VECTORS" 300 \
        >"$out/amd64.log" 2>&1
    check_run "$out/amd64.log" "amd64 package on this CPU (the jar's release $version)"

    # ---- 3. amd64 on old CPUs ----
    if ! command -v qemu-x86_64 >/dev/null; then
        skip "amd64 package on old CPUs: qemu-x86_64 not installed (apt-get install qemu-user)"
    else
        for model in core2duo Opteron_G3; do
            qemu-x86_64 -cpu $model "$JAVA" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.library.path="$root" \
                -cp "build/jbigi.jar:$classes" net.i2p.util.VectorProbe "$VECTORS" 300 >"$out/amd64-$model.log" 2>&1
            check_run "$out/amd64-$model.log" "amd64 package under qemu-x86_64 -cpu $model"
        done
    fi
fi

# ---- 4. ARM under QEMU ----
if command -v qemu-arm >/dev/null && { [ ! -d build/armhf-jvm/root ] || [ ! -d build/arm64-jvm/root ]; }; then
    sh test/emulated/fetch-arm-jvm.sh >"$out/fetch-arm-jvm.log" 2>&1 ||
        echo "# the ARM JVMs could not be fetched: see $out/fetch-arm-jvm.log"
fi
while read -r arch emulator level; do
    lib=$out/root-$arch/usr/lib/jni
    jvm=build/$arch-jvm/root
    java=$jvm/usr/lib/jvm/java-17-openjdk-$arch/bin/java
    what="$arch package in Debian's $arch JVM ($emulator, ARMv$level)"
    if [ ! -f "$lib/libjbigi.so" ]; then
        skip "$what: no $arch package"
        continue
    elif ! command -v "$emulator" >/dev/null || [ ! -x "$java" ]; then
        skip "$what: needs $emulator and $jvm (sh test/emulated/fetch-arm-jvm.sh)"
        continue
    fi
    info=$out/$arch.cpuinfo
    printf 'processor\t: 0\nmodel name\t: ARMv%s Processor (qemu)\nFeatures\t: fp half thumb vfp edsp tls\nCPU architecture: %s\n\n' \
        "$level" "$level" >"$info"
    log=$out/$arch.log
    "$emulator" -L "$jvm" "$java" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xcheck:jni \
        -Djava.library.path="$lib" -Djbigi.cpuinfo="$info" -cp "build/jbigi.jar:$classes" \
        net.i2p.util.VectorProbe "$VECTORS" 300 >"$log" 2>&1
    check_run "$log" "$what"
done <<'ROWS'
arm64 qemu-aarch64 8
armhf qemu-arm 7
ROWS
# Nothing of the armhf library runs at dlopen: no init or fini code for an
# ARMv6 to die of before JNI_OnLoad's ARMv6 check refuses it.
lib=$out/root-armhf/usr/lib/jni/libjbigi.so
if [ -f "$lib" ]; then
    dynamic=$(readelf -d "$lib" | grep -E '\((INIT|FINI|INIT_ARRAY|FINI_ARRAY|PREINIT_ARRAY)\)')
    if [ -z "$dynamic" ]; then
        ok "armhf libjbigi.so has no init or fini code: JNI_OnLoad's check is the first of it to run"
    else
        not_ok "armhf libjbigi.so runs code at dlopen or exit, before or after its ARMv6 check: $dynamic"
    fi
fi
rm -rf "$empty"

report_failures
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
