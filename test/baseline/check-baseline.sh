#!/bin/sh
# test/baseline/check-baseline.sh - what runs before the CPU check is
# baseline x86-64 code, whatever the user's CFLAGS.
#
# JNI_OnLoad runs the CPU check (jbigi_cpu_check) and, on a CPU the variant
# cannot run on, throws with jbigi_throw: an instruction the CPU lacks in
# any of them would kill the JVM with SIGILL instead of refusing cleanly.
# Each of the Makefile's three library rules (the host's library, dist-lib,
# dist-lib-windows) builds the JNI and CPU sources here with
# CFLAGS='-O2 -march=x86-64-v4' (the objects only, under build/test/baseline;
# nothing the other tests use is touched), and objdump -d must show, in every
# object defining one of those three functions and in every object of the
# Makefile's BASELINE_SOURCES, no instruction beyond baseline x86-64:
# nothing VEX- or EVEX-encoded (a v-prefixed mnemonic, the AVX-512 mask
# instructions, a ymm, zmm, k or xmm16-31 register), no BMI1/BMI2/ADX,
# popcnt, lzcnt, movbe, SSE3 and later, AES, CLMUL or SHA.  endbr64 (a no-op
# on older CPUs) is allowed, and so is xgetbv, which the check itself runs
# only once CPUID has said OSXSAVE.  A control object built with the same
# flags must be caught.  The Windows rule needs a Windows GMP (its gmp.h);
# without one it is skipped, counted.
#
# Environment (make test passes them): JBIGI_GMP_MODE, the GMP mode of the
# host's library (static by default).  BASELINE_USER_CFLAGS replaces the
# user flags tried.  Prints ok/not ok/skip lines, then
# "N passed, N failed, N skipped".
# shellcheck disable=SC2086,SC2016 # word lists kept in variables are meant to split; $(...) in single quotes is make's
set -u
cd "$(dirname "$0")/../.." || exit 1
. test/lib.sh
out=build/test/baseline
user_cflags=${BASELINE_USER_CFLAGS:-"-O2 -march=x86-64-v4"}
mode=${JBIGI_GMP_MODE:-static}
passed=0
failed=0
skipped=0
rm -rf "$out"
mkdir -p "$out"

if [ "$(uname -m)" != x86_64 ]; then
    skip "baseline x86-64 code: this machine is $(uname -m)"
    echo "$passed passed, $failed failed, $skipped skipped"
    exit 0
fi

# make without the flags make test exports for the C tests.
mk() {
    env -u CFLAGS -u CC -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory "$@"
}
# The value of a Makefile expression, under the variable settings that follow it.
make_value() { # expression settings...
    m_expr=$1
    shift
    mk -s "$@" --eval "jbigi-print-value: ; @echo $m_expr" jbigi-print-value
}

# A compiler that compiles and never links (-shared): the library rules'
# objects without overwriting the libraries they would link.
cat >"$out/no-link.sh" <<'EOF'
#!/bin/sh
cc=$1
shift
for arg; do [ "$arg" = -shared ] && exit 0; done
exec "$cc" "$@"
EOF

# The instructions of object $1 beyond baseline x86-64, one per line as
# "<function> instruction", from objdump -d.
beyond_baseline() { # object
    objdump -d --no-show-raw-insn "$1" 2>&1 | awk '
        /^[0-9a-f]+ <.*>:$/ { fn = $2; next }
        /^ *[0-9a-f]+:\t/ {
            line = $0
            sub(/^ *[0-9a-f]+:\t/, "", line)
            n = split(line, w, /[ \t]+/)
            i = 1
            while (i < n && w[i] ~ /^(rep|repz|repe|repnz|repne|lock|notrack|bnd|data16|data32|addr16|addr32|cs|ds|es|fs|gs|ss|rex(\.[WRXB]+)?)$/)
                i++
            m = w[i]
            bad = 0
            if (m == "(bad)" || m == ".byte")
                bad = 1
            # AVX, AVX2, AVX-512, FMA, F16C: VEX and EVEX encodings.
            else if (m ~ /^v/ && m !~ /^ver[rw]$/)
                bad = 1
            # AVX-512 mask registers.
            else if (m ~ /^k(add|and|andn|mov|not|or|ortest|shiftl|shiftr|test|unpck|xnor|xor)[bwdq]/)
                bad = 1
            # SSE3, SSSE3, SSE4.1, SSE4.2, SSE4a.
            else if (m ~ /^(addsubp[sd]|hadd(p[sd])|hsubp[sd]|lddqu|movddup|movs[hl]dup|fisttp[slq]?|monitor|mwait)$/ ||
                     m ~ /^(pshufb|phadd(w|d|sw)|phsub(w|d|sw)|pmaddubsw|pmulhrsw|psign[bwd]|pabs[bwd]|palignr)$/ ||
                     m ~ /^(blendp[sd]|blendvp[sd]|dpp[sd]|extractps|insertps|movntdqa|mpsadbw|packusdw|pblendvb|pblendw)$/ ||
                     m ~ /^(pcmpeqq|pextr[bdq]|pinsr[bdq]|phminposuw|pmax(sb|sd|ud|uw)|pmin(sb|sd|ud|uw))$/ ||
                     m ~ /^(pmov[sz]x(bw|bd|bq|wd|wq|dq)|pmuldq|pmulld|ptest|round[ps][sd])$/ ||
                     m ~ /^(pcmp[ei]str[im]|pcmpgtq|crc32[bwlq]?|extrq|insertq|movnts[sd])$/)
                bad = 1
            # BMI1, BMI2, ADX, POPCNT, LZCNT, MOVBE, CX16, LAHF in 64-bit mode, and others.
            else if (m ~ /^(popcnt|lzcnt|tzcnt|movbe|adcx|adox|andn|bextr|blsi|blsmsk|blsr|bzhi|mulx|pdep|pext|rorx|sarx|shlx|shrx)[bwlq]?$/ ||
                     m ~ /^(cmpxchg16b|rdrand|rdseed|prefetchw|prefetchwt1|lahf|sahf|clflushopt|clwb|rdpid)[bwlq]?$/ ||
                     m ~ /^(xsave|xrstor)/ || m ~ /^(aes|pclmul|sha1|sha256|gf2p8)/)
                bad = 1
            if (line ~ /%(ymm|zmm|tmm)[0-9]/ || line ~ /%k[0-7]([^0-9]|$)/ || line ~ /%xmm(1[6-9]|2[0-9]|3[01])([^0-9]|$)/)
                bad = 1
            if (bad)
                print fn " " line
        }'
}

# Checks object $2 (in rule $1's objects) with beyond_baseline; $3 says what it holds.
check_object() { # rule object what
    c_bad=$(beyond_baseline "$2")
    if [ -z "$c_bad" ]; then
        ok "$1: ${2##*/} ($3) holds only baseline x86-64 instructions"
    else
        not_ok "$1: ${2##*/} ($3) holds $(printf '%s\n' "$c_bad" | wc -l) instruction(s) beyond baseline x86-64, the first:"
        printf '%s\n' "$c_bad" | head -n 5 | sed 's/^/#   /'
    fi
}

# What runs before the CPU check has passed.
before_check="JNI_OnLoad jbigi_throw jbigi_cpu_check"

# The checks of one rule's object directory $2: every object defining a
# function that runs before the check has passed, and every object of
# BASELINE_SOURCES ($3, the sources' paths under src/).
check_rule() { # rule object-dir baseline-sources
    r_checked=" "
    for sym in $before_check; do
        r_found=
        for obj in $(find "$2" -name '*.o' | sort); do
            nm --defined-only "$obj" 2>/dev/null | grep -q " [T] $sym\$" || continue
            r_found=$obj
            case $r_checked in *" $obj "*) continue ;; esac
            r_checked="$r_checked$obj "
            check_object "$1" "$obj" "$(nm --defined-only "$obj" | awk -v names=" $before_check " \
                '$2 == "T" && index(names, " " $3 " ") { printf "%s%s", sep, $3; sep = " " }')"
        done
        [ -n "$r_found" ] || not_ok "$1: no object defines $sym"
    done
    for src in $3; do
        obj=$2/${src#src/}
        obj=${obj%.c}.o
        case $r_checked in *" $obj "*) continue ;; esac
        r_checked="$r_checked$obj "
        if [ -f "$obj" ]; then
            check_object "$1" "$obj" "$src, a baseline unit"
        else
            not_ok "$1: $obj (of BASELINE_SOURCES) was not built"
        fi
    done
}

# ---- the control: the same flags elsewhere give what the check must catch ----
printf '%s\n' '#include <stdint.h>' \
    'void control(uint64_t *a, const uint64_t *b, int n) {' \
    '    for (int i = 0; i < n; i++) a[i] = a[i] * b[i] + (uint64_t)__builtin_popcountll(b[i]); }' >"$out/control.c"
if cc -std=c11 $user_cflags -c -o "$out/control.o" "$out/control.c" 2>"$out/control.log"; then
    if [ -n "$(beyond_baseline "$out/control.o")" ]; then
        ok "control: code built with $user_cflags is caught"
    else
        not_ok "control: nothing caught in code built with $user_cflags"
    fi
else
    cat "$out/control.log"
    not_ok "control: cc $user_cflags did not compile a plain C file"
fi

# The sources compiled in each rule: the JNI layer and the CPU check, and the baseline units.
sources=$(make_value '$(sort $(JNI_SOURCES) $(CPU_SOURCES) $(BASELINE_SOURCES))')
baseline=$(make_value '$(BASELINE_SOURCES)')
echo "# user flags: $user_cflags; sources: $sources; BASELINE_SOURCES: ${baseline:-(none)}"

# ---- the host's library: make's own object rules, in a private object directory ----
# -o build/obj-flags.stamp: the other flags must not make lib/libjbigi.so's objects stale.
hobj=$out/host
objects=$(make_value '$(patsubst src/%.c,$(OBJ)/%.o,$(SOURCES))' GMP="$mode" OBJ="$hobj" SOURCES="$sources")
if mk GMP="$mode" OBJ="$hobj" CFLAGS="$user_cflags" WERROR=1 -o build/obj-flags.stamp $objects >"$out/host.log" 2>&1; then
    check_rule "host (GMP=$mode)" "$hobj" "$baseline"
else
    tail -n 20 "$out/host.log"
    not_ok "host (GMP=$mode): the objects did not build (log: $out/host.log)"
fi

# ---- dist-lib: the Linux x86-64 library of a row, against the host's static GMP ----
variant=$(cat build/gmp-static/jbigi-variant 2>/dev/null)
if [ -n "$variant" ] && [ -f "build/gmp-$GMP_VERSION-$variant/install/jbigi-config" ]; then
    if mk dist-lib VARIANT="$variant" DIST_OBJ="$out/dist" DIST_CC="sh $out/no-link.sh cc" CFLAGS="$user_cflags" \
        WERROR=1 C_SOURCES="$sources" >"$out/dist.log" 2>&1; then
        check_rule "dist-lib ($variant)" "$out/dist" "$baseline"
    else
        tail -n 20 "$out/dist.log"
        not_ok "dist-lib ($variant): the objects did not build (log: $out/dist.log)"
    fi
else
    skip "dist-lib: no static GMP for this CPU's row (./build.sh builds it)"
fi

# ---- dist-lib-windows: the DLL of an x86-64 row with a Windows GMP ----
wvariant=
for dir in build/gmp-$GMP_VERSION-windows-${variant:-none} build/gmp-$GMP_VERSION-windows-*; do
    if [ -f "$dir/install/jbigi-config" ]; then
        wvariant=${dir#build/gmp-$GMP_VERSION-windows-}
        break
    fi
done
if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    skip "dist-lib-windows: apt-get install gcc-mingw-w64-x86-64"
elif [ -z "$wvariant" ]; then
    skip "dist-lib-windows: no Windows GMP under build/ (./build.sh --gmp-only windows-<cpu>, or ./build.sh dist)"
elif mk dist-lib-windows VARIANT="$wvariant" WIN_OBJ="$out/windows" WIN_CC="sh $out/no-link.sh x86_64-w64-mingw32-gcc" \
    CFLAGS="$user_cflags" WERROR=1 C_SOURCES="$sources" >"$out/windows.log" 2>&1; then
    check_rule "dist-lib-windows ($wvariant)" "$out/windows" "$baseline"
else
    tail -n 20 "$out/windows.log"
    not_ok "dist-lib-windows ($wvariant): the objects did not build (log: $out/windows.log)"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
