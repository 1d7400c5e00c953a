#!/bin/sh
# The Windows DLLs under Wine (Debian's wine64 runs x86-64 code natively, so
# the engines' AVX-512 IFMA and MULX/ADX kernels run for real):
#
#  1. the C tests (test/c/), built with mingw-w64 against the Windows GMP of
#     this CPU's variant and the library's sources with the Windows platform
#     layer, each run under Wine; every engine's test on the instructions
#     where the CPU has them, and the IFMA engine on the model too;
#  2. the JNI-level harness (test/jni/) built for Windows, loading each DLL
#     of build/dist with LoadLibrary and calling every exported Java_*
#     function through its own JNIEnv: test/vectors, random cases, bad input;
#  3. each DLL exports the JNI functions and JNI_OnLoad only, and imports
#     nothing but system DLLs (objdump -p);
#  4. for each DLL, a .pdata entry covers every function of its objects
#     (check-pdata.sh), Windows' unwinder gets out of the hand-written
#     assembly to the caller (unwind.c), and threads that call the DLL and
#     end leave no memory or handle behind (churn.c).
#
# Needs x86_64-w64-mingw32-gcc (gcc-mingw-w64-x86-64), wine64 and the
# Windows GMP (./build.sh --gmp-only windows-<variant>); JAVA_HOME for jni.h.
# Ends with "N passed, N failed, N skipped".
#
#   test/windows/run.sh          all of it, on every DLL of build/dist
#                                (`make check`, after ./build.sh dist)
#   test/windows/run.sh --host   `make test`'s part: builds this CPU's
#                                variant's GMP for Windows (once, kept under
#                                build/) and its DLL, then 2, 3 and 4 on that DLL;
#                                the C tests are left to `make check`
# shellcheck disable=SC2086 # flag lists kept in variables are meant to split
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
host_only=false
case ${1:-} in
--host) host_only=true ;;
"") ;;
*) echo "usage: $0 [--host]" >&2; exit 2 ;;
esac
out=build/test/windows
mkdir -p "$out"
passed=0
failed=0
skipped=0
MINGW=x86_64-w64-mingw32
WINE=${WINE:-/usr/lib/wine/wine64}
JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}

if ! command -v $MINGW-gcc >/dev/null || [ ! -x "$WINE" ]; then
    skip "Windows: apt-get install gcc-mingw-w64-x86-64 wine64 to build and run the DLLs' tests"
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 0
fi
# Wine's own state under build/, made once, quietly.
export WINEPREFIX="$PWD/build/wine" WINEDEBUG=-all
mkdir -p "$WINEPREFIX"

variant=$(./build.sh --host-variant 2>/dev/null | tail -n 1)
gmp=build/gmp-$GMP_VERSION-windows-$variant/install
host_dll=build/dist/jbigi-windows-${variant}_64.dll
if $host_only; then
    if [ ! -f "$gmp/lib/libgmp.a" ]; then
        echo "# building GMP for Windows ($variant), once: about 3 minutes"
        ./build.sh --gmp-only "windows-$variant" >"$out/gmp.log" 2>&1 ||
            { tail -20 "$out/gmp.log"; not_ok "GMP for windows-$variant did not build (log: $out/gmp.log)"; }
    fi
    if [ -f "$gmp/lib/libgmp.a" ]; then
        # As ./build.sh dist builds it: not with the flags make test
        # exports for the Linux C tests (-fPIC, the host GMP's headers).
        env -u CFLAGS -u CC -u MAKEFLAGS -u MFLAGS \
            make --no-print-directory dist-lib-windows VARIANT="$variant" WERROR=1 >"$out/dll.log" 2>&1 ||
            { tail -20 "$out/dll.log"; not_ok "$host_dll did not build (log: $out/dll.log)"; }
    fi
fi
if [ ! -f "$gmp/lib/libgmp.a" ]; then
    not_ok "no Windows GMP for $variant: ./build.sh --gmp-only windows-$variant (or ./build.sh dist)"
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 1
fi

# The library's sources below JNI, with the Windows platform layer.
sources=""
for f in $(c_sources_below_jni); do
    case $f in src/platform/posix.c) f=src/platform/windows.c ;; esac
    sources="$sources $f"
done
cflags="-O2 -std=c11 -Wall -Wextra -Werror -Wa,-muse-unaligned-vector-move -Isrc -Itest/c -Itest/model -I$gmp/include -DJBIGI_PRIVATE_GMP"

# Runs $out/$1.exe under Wine with the environment assignments in $2, and counts it.
run_exe() { # name env
    env $2 "$WINE" "$out/$1.exe" >"$out/$1.raw" 2>&1
    rc=$?
    tr -d '\r' <"$out/$1.raw" >"$out/$1.log"
    cat "$out/$1.log"
    tally "$out/$1.log" "windows-$1" "$rc"
}

# ---- 1. the C tests (make check only) ----
if ! $host_only; then
    # Left to Linux: test_engine and test_engine_choice start children with
    # fork; test_table_memory, test_oom and test_wipe interpose on the C
    # library's allocator and mmap by their glibc names (-Wl,--wrap), which
    # the Windows build does not call (platform/windows.c).  The rest run as
    # on Linux.
    for t in $(c_tests); do
        case $t in test_engine | test_engine_choice | test_table_memory | test_oom | test_wipe) continue ;; esac
        if ! $MINGW-gcc $cflags -o "$out/$t.exe" "test/c/$t.c" $sources "$gmp/lib/libgmp.a" -static \
            $(c_test_link_flags "$t") >"$out/$t.build.log" 2>&1; then
            cat "$out/$t.build.log"
            not_ok "$t did not build for Windows"
            continue
        fi
        # A fifth of the random cases (JBIGI_WINDOWS_SCALE percent): the same
        # code ran every case on Linux; here the port is what is tested.
        run_exe "$t" "JBIGI_TEST_SCALE=${JBIGI_WINDOWS_SCALE:-20}"
    done
    # The IFMA engine on the model, where the CPU has the instructions (its
    # tests above ran on them): the model's build is checked on Windows too.
    if $MINGW-gcc $cflags -DJBIGI_IFMA_MODEL -o "$out/test_ifma_model.exe" test/c/test_ifma.c $sources \
        "$gmp/lib/libgmp.a" -static >"$out/test_ifma_model.build.log" 2>&1; then
        run_exe test_ifma_model "JBIGI_TEST_SCALE=2"
    else
        cat "$out/test_ifma_model.build.log"
        not_ok "test_ifma on the model did not build for Windows"
    fi
fi

# ---- 2. the JNI harness against every DLL ----
if $host_only; then
    dlls=$(ls "$host_dll" 2>/dev/null)
    jcpuid_dll=
else
    dlls=$(ls build/dist/jbigi-windows-*_64.dll 2>/dev/null)
    jcpuid_dll=build/jcpuid/jcpuid-x86_64-windows.dll
fi
if [ -z "$dlls" ]; then
    not_ok "no DLLs in build/dist: ./build.sh dist"
fi
for dll in $dlls; do
    name=$(basename "$dll" .dll)
    # Every case on this CPU's own DLL; a tenth of the random ones on the
    # others (the same sources, another GMP): vectors and bad input in full.
    scale=10
    [ "$dll" != "$host_dll" ] || scale=100
    JBIGI_TEST_SCALE=$scale sh test/jni/run.sh --windows "$dll" >"$out/$name.raw" 2>&1
    rc=$?
    tr -d '\r' <"$out/$name.raw" >"$out/$name.log"
    grep -v '^ok ' "$out/$name.log"
    tally "$out/$name.log" "$name" "$rc"
done

# ---- 3. what each DLL exports and imports ----
for dll in $dlls $jcpuid_dll; do
    [ -f "$dll" ] || continue
    $MINGW-objdump -p "$dll" >"$out/$(basename "$dll").objdump"
    imports=$(sed -n 's/^\tDLL Name: //p' "$out/$(basename "$dll").objdump" | sort -u | tr '\n' ' ')
    foreign=$(printf '%s\n' $imports | grep -viE '^(kernel32|msvcrt|advapi32|user32|ntdll|bcrypt|ucrtbase|api-ms-win-.*)\.dll$')
    if [ -z "$foreign" ]; then
        ok "$(basename "$dll") imports system DLLs only: $imports"
    else
        not_ok "$(basename "$dll") imports $foreign"
    fi
    exports=$(awk '/\[Ordinal\/Name Pointer\] Table/ { on = 1; next } on && /^\t\[/ { print $NF } on && !/^\t\[/ { on = 0 }' \
        "$out/$(basename "$dll").objdump")
    stray=$(printf '%s\n' $exports | grep -vE '^(Java_[A-Za-z0-9_]+|JNI_OnLoad)$')
    if [ -n "$exports" ] && [ -z "$stray" ]; then
        ok "$(basename "$dll") exports $(printf '%s\n' $exports | wc -l) JNI functions and nothing else"
    else
        not_ok "$(basename "$dll") exports: $(printf '%s ' $stray)"
    fi
done

# ---- 4. unwind data, and threads that come and go ----
# For each DLL built here (its objects in build/obj-windows-<cpu>): a .pdata
# entry covers every function of the library's own objects (GMP's are
# GMP's); Windows' unwinder gets from inside the hand-written assembly to
# its caller (the objects linked into test/windows/unwind.c); and threads
# that call the DLL and end leave nothing behind (test/windows/churn.c).
jni_flags="-std=c11 -O2 -Wall -Wextra -Werror -Iinclude/win32 -Iinclude -I$JAVA_HOME/include -Itest/jni"
churn_built=false
if $MINGW-gcc $jni_flags -o "$out/churn.exe" test/windows/churn.c test/jni/fake_env.c test/jni/fake_objects.c \
    test/jni/fake_state.c test/jni/fake_traps.c test/jni/loader.c test/jni/natives.c -static \
    >"$out/churn.build.log" 2>&1; then
    churn_built=true
else
    cat "$out/churn.build.log"
    not_ok "test/windows/churn.c did not build"
fi
for dll in $dlls; do
    name=$(basename "$dll" .dll)
    cpu=${name#jbigi-windows-}
    cpu=${cpu%_64}
    objects=$(find "build/obj-windows-$cpu" -name '*.o' 2>/dev/null | sort)
    if [ -z "$objects" ]; then
        not_ok "$name: no objects in build/obj-windows-$cpu to check"
    else
        sh test/windows/check-pdata.sh $objects >"$out/$name.pdata.log" 2>&1
        rc=$?
        grep -v '^ok ' "$out/$name.pdata.log"
        tally "$out/$name.pdata.log" "$name-pdata" "$rc"
        variant_gmp=build/gmp-$GMP_VERSION-windows-$cpu/install/lib/libgmp.a
        # -fstack-protector-strong links libssp, whose canary the hardened
        # objects use, as the DLL's link does.
        if $MINGW-gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$out/unwind-$cpu.exe" test/windows/unwind.c $objects \
            "$variant_gmp" -static -fstack-protector-strong >"$out/unwind-$cpu.build.log" 2>&1; then
            run_exe "unwind-$cpu" ""
        else
            cat "$out/unwind-$cpu.build.log"
            not_ok "test/windows/unwind.c did not link with the objects of $name"
        fi
    fi
    if $churn_built; then
        "$WINE" "$out/churn.exe" "$dll" >"$out/$name.churn.raw" 2>&1
        rc=$?
        tr -d '\r' <"$out/$name.churn.raw" >"$out/$name.churn.log"
        cat "$out/$name.churn.log"
        tally "$out/$name.churn.log" "$name-churn" "$rc"
    fi
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
