#!/usr/bin/env bash
#
# build.sh - build lib/libjbigi.so, the JNI shim over GNU MP used by I2P.
#
#   ./build.sh            static (default): GMP built from source for this
#                         CPU's variant in src/cpu/variants.tsv, linked in
#   ./build.sh dynamic    link the system libgmp.so (quick, not tuned)
#   ./build.sh fat        GMP --enable-fat linked in: one portable library
#   ./build.sh dist       every variant of src/cpu/variants.tsv into build/jbigi.jar
#
# GMP builds live under build/gmp-<version>-<cpu>/ and are reused by every
# mode; build/gmp-static and build/gmp-fat point at the ones the Makefile
# links.  Run with --help for the environment variables it understands.

set -euo pipefail

PROJECT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly PROJECT_DIR
readonly BUILD_DIR=$PROJECT_DIR/build
readonly VARIANTS=$PROJECT_DIR/src/cpu/variants.tsv

# The one GMP this project builds, pinned whichever way its source comes.
readonly GMP_VERSION=6.2.1
readonly GMP_RELEASE=gmp-6.2.1.tar.xz
readonly GMP_RELEASE_SHA256=fd4829912cddd12f84181c3451cc752be224643e87fac497b69edddadc49b4f2
readonly GMP_RELEASE_URLS=("https://gmplib.org/download/gmp/$GMP_RELEASE" "https://ftp.gnu.org/gnu/gmp/$GMP_RELEASE")
# Debian 12's source package: the .orig tarball is checked here; Debian's
# patches come with the .dsc, itself checked by apt against the signed archive.
readonly DEBIAN_ORIG=gmp_6.2.1+dfsg1.orig.tar.xz
readonly DEBIAN_ORIG_SHA256=471b9e463e04362a0124f215afc5f0a4b99caedeeb62634c61bbc12988efa64c
readonly DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
readonly GMP_SRC=$BUILD_DIR/gmp-src-$GMP_VERSION
# The other two files of Debian's source package, and the route through them.
. "$PROJECT_DIR/src/release/gmp-debian.sh"

JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
readonly JOBS
SCRATCH=""

say() { printf 'build.sh: %s\n' "$*"; }
die() { printf 'build.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
    cat <<'EOF'
Usage: ./build.sh [static|dynamic|fat|dist|release]
       ./build.sh i2p-jar PATH/TO/I2P/lib/jbigi.jar
       ./build.sh --gmp-only static|fat|<cpu>|windows-<cpu>
                                                 only build GMP (for the Makefile)
       ./build.sh --host-variant                 print this CPU's variant and exit

  static   (default) GMP built for this CPU's row of src/cpu/variants.tsv, linked
           into lib/libjbigi.so; ldd shows no libgmp
  dynamic  link lib/libjbigi.so against the system libgmp.so (libgmp-dev)
  fat      GMP --enable-fat linked in: one portable library
  dist     every row of src/cpu/variants.tsv in build/jbigi.jar (the ARM rows
           when their cross compilers are installed; a Windows DLL for every
           x86-64 row when mingw-w64 is), and build/i2p/jbigi.jar
  release  the dist with every row (none skipped), then build/release/ (make release)
  i2p-jar  the dist, then build/i2p/jbigi.jar with ours for every platform
           and CPU built and I2P's own libraries (from the jar given) for the
           rest: macOS, FreeBSD, 32-bit x86, ARMv5/v6, PowerPC

GMP 6.2.1 source, first found (each checked against a pinned SHA-256):
  1. $GMP_TARBALL, or Debian's source package "gmp" in gmp-source/ (a
     release's source tarball) or build/gmp-source/ (an earlier download)
  2. gmp-6.2.1.tar.xz in the project directory
  3. Debian's source package "gmp" (apt-get source), 4. gmplib.org

Environment:
  JBIGI_VARIANT=<cpu>   build this row of src/cpu/variants.tsv instead of the host's
  GMP_CHECK=1           run GMP's own test suite after building it
  JOBS=<n>              parallel make jobs (default: nproc)
  JBIGI_PARALLEL=<n>    GMP builds (and libraries) at once in dist
                        (default 2; each gets JOBS/n make jobs): one's
                        serial configure overlaps another's compiling
  JAVA_HOME, CC, CFLAGS as for make (CFLAGS apply to jbigi, not to GMP).
EOF
}

cleanup() { [[ -z $SCRATCH ]] || rm -rf -- "$SCRATCH"; }
trap cleanup EXIT

scratch_dir() {
    if [[ -z $SCRATCH ]]; then
        SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/jbigi-build.XXXXXX")
        chmod 755 "$SCRATCH" # apt's downloader (user _apt) writes inside
    fi
}

need() {
    command -v "$1" >/dev/null || die "$1 not found: apt-get install $2"
}

check_tools() {
    need make make
    need "${CC:-gcc}" gcc
    [[ $1 == dynamic ]] || need m4 m4
    need javac openjdk-17-jdk-headless
}

# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

# Prints the rows of src/cpu/variants.tsv (comments dropped), optionally only
# those of one architecture.
variant_rows() {
    awk -v arch="${1:-}" '!/^#/ && NF >= 7 && (arch == "" || $2 == arch)' "$VARIANTS"
}

# variant_field CPU N: column N (1 = cpu ... 7 = features) of CPU's row.
variant_field() {
    local value
    value=$(awk -v cpu="$1" -v n="$2" '!/^#/ && $1 == cpu {
        if (n < 7) print $n; else { s = ""; for (i = 7; i <= NF; i++) s = s " " $i; print substr(s, 2) } }' "$VARIANTS")
    [[ -n $value ]] || die "no variant '$1' in src/cpu/variants.tsv"
    printf '%s\n' "$value"
}

# The first row this machine can run, as the Java loader chooses: its
# architecture's rows for its vendor first, then the other vendor's, then
# those for any CPU, the first whose features CPUID reports.  The library's
# own CPU check answers (src/cpu/cpu_probe.c over src/cpu/cpu_check.c), so the build,
# the loader and JNI_OnLoad read the CPU the same way; /proc/cpuinfo only
# when the probe cannot be built or run here.
host_variant() {
    local probe=$BUILD_DIR/cpu-probe
    if make -s -C "$PROJECT_DIR" build/cpu-probe >/dev/null 2>&1 && "$probe" --variant "$VARIANTS" 2>/dev/null; then
        return 0
    fi
    say "the CPU probe (src/cpu/cpu_probe.c) did not run here: choosing from /proc/cpuinfo" >&2
    host_variant_from_cpuinfo
}

# The fallback: the same choice from /proc/cpuinfo's vendor and flags.
host_variant_from_cpuinfo() {
    local arch vendor flags group
    arch=$(host_arch)
    vendor=$(awk -F': *' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    case $vendor in
        GenuineIntel) vendor=intel ;;
        AuthenticAMD | HygonGenuine) vendor=amd ;;
        *) vendor=other ;;
    esac
    flags=" $(awk -F': *' '/^(flags|Features)/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true) "
    # ARM: "CPU architecture: 7" (or later) is the table's armv7, as for the loader.
    local arm_level
    arm_level=$(awk -F': *' '/^CPU architecture/ { n = $2 + 0; exit } END { print n + 0 }' /proc/cpuinfo 2>/dev/null || echo 0)
    if ((arm_level >= 7)); then
        flags+="armv7 "
    fi
    local cpu _arch _host _march _mtune who features f ok
    for group in own other any; do
        while read -r cpu _arch _host _march _mtune who features; do
            case $group in
                own) [[ $who == "$vendor" ]] || continue ;;
                other) [[ $who != "$vendor" && $who != any ]] || continue ;;
                any) [[ $who == any ]] || continue ;;
            esac
            ok=1
            for f in $features; do
                [[ $f == - || $flags == *" $f "* ]] || ok=0
            done
            if [[ $ok == 1 ]]; then
                printf '%s\n' "$cpu"
                return 0
            fi
        done < <(variant_rows "$arch")
    done
    die "no row of src/cpu/variants.tsv fits this $arch CPU"
}

# The table's name for the architecture this machine runs.
host_arch() {
    case $(uname -m) in
        armv7* | armv8l) echo armhf ;;
        *) uname -m ;;
    esac
}

# The cross compiler that builds for a table architecture on this machine,
# or nothing when the host compiler does (same architecture).
cross_compiler() {
    [[ $1 != "$(host_arch)" ]] || return 0
    case $1 in
        aarch64) echo aarch64-linux-gnu-gcc ;;
        armhf) echo arm-linux-gnueabihf-gcc ;;
        x86_64) echo x86_64-linux-gnu-gcc ;;
        *) die "no cross compiler known for $1" ;;
    esac
}

# Debian's package of a cross compiler.
cross_package() {
    case $1 in
        aarch64-linux-gnu-gcc) echo "gcc-aarch64-linux-gnu libc6-dev-arm64-cross" ;;
        arm-linux-gnueabihf-gcc) echo "gcc-arm-linux-gnueabihf libc6-dev-armhf-cross" ;;
        x86_64-w64-mingw32-gcc) echo "gcc-mingw-w64-x86-64" ;;
        *) echo "gcc-${1%-gcc}" ;;
    esac
}

# The system part of GMP's --host for a table architecture.
gnu_system() {
    case $1 in
        x86_64) echo pc-linux-gnu ;;
        armhf) echo linux-gnueabihf ;;
        *) echo linux-gnu ;;
    esac
}

# ---------------------------------------------------------------------------
# GMP source
# ---------------------------------------------------------------------------

sha256_of() { sha256sum "$1" | awk '{ print $1 }'; }

# Debian's orig tarball leaves out doc/, but its configure still wants
# $1/doc/Makefile.in: a stub whose every target does nothing stands in.
add_doc_stub() {
    [[ -e $1/doc/Makefile.in ]] && return 0
    mkdir -p "$1/doc"
    printf '# Stand-in: this GMP source has no manual.\n.DEFAULT:\n\t@:\n' >"$1/doc/Makefile.in"
}

# Moves an unpacked tree to build/gmp-src-<version> with a note of what it
# was verified against; only such a tree is ever reused.
adopt_source() {
    local tree=$1 proof=$2 version
    version=$(sed -n "s/^PACKAGE_VERSION='\\(.*\\)'\$/\\1/p" "$tree/configure")
    [[ $version == "$GMP_VERSION" ]] || die "the source is GMP '$version', not $GMP_VERSION"
    add_doc_stub "$tree"
    printf '%s\n' "$proof" >"$tree/.jbigi-verified"
    rm -rf -- "$GMP_SRC"
    # A fresh clone has no build/ yet; and this may run where errexit is off.
    mkdir -p -- "$(dirname -- "$GMP_SRC")" || die "cannot create $(dirname -- "$GMP_SRC")"
    mv -- "$tree" "$GMP_SRC" || die "cannot move the GMP source to $GMP_SRC"
    say "GMP $GMP_VERSION source in build/gmp-src-$GMP_VERSION ($proof)"
}

unpack_release() {
    local tarball=$1 expected=${GMP_SHA256:-$GMP_RELEASE_SHA256} actual
    actual=$(sha256_of "$tarball")
    [[ $actual == "$expected" ]] || die "SHA-256 of $tarball is $actual, expected $expected"
    scratch_dir
    tar -xf "$tarball" -C "$SCRATCH" || die "cannot unpack $tarball"
    adopt_source "$SCRATCH/gmp-$GMP_VERSION" "${tarball##*/} sha256 $actual"
}

# Route 2: Debian's source package, with a private sources list and lists
# directory (the machine's apt state is not touched).
fetch_debian_source() {
    command -v apt-get >/dev/null && command -v dpkg-source >/dev/null || return 1
    scratch_dir
    local apt=$SCRATCH/apt codename uri suite
    mkdir -p "$apt/lists/partial" "$apt/dl"
    codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
    [[ -n $codename ]] || return 1
    uri=$(grep -hE '^[[:space:]]*(deb[[:space:]]|URIs:)' /etc/apt/sources.list /etc/apt/sources.list.d/*.{list,sources} 2>/dev/null |
        grep -oE 'https?://[^ ]*debian[^ ]*' | grep -v security | head -n 1)
    [[ -n $uri ]] || return 1
    local key=""
    [[ -r $DEBIAN_KEYRING ]] && key="[signed-by=$DEBIAN_KEYRING] "
    for suite in "$codename" "$codename-updates"; do
        printf 'deb-src %s%s %s main\n' "$key" "$uri" "$suite"
    done >"$apt/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=")
    [[ $EUID -ne 0 ]] || ! id _apt >/dev/null 2>&1 || chown _apt "$apt/dl"
    say "fetching Debian's gmp source package from $uri ($codename)"
    apt-get "${opts[@]}" update >"$apt/log" 2>&1 || true
    (cd "$apt/dl" && apt-get "${opts[@]}" source --download-only gmp) >>"$apt/log" 2>&1 || {
        tail -n 3 "$apt/log"
        return 1
    }
    [[ -f $apt/dl/$DEBIAN_ORIG ]] || { say "Debian's gmp is not $GMP_VERSION ($(ls "$apt/dl"))"; return 1; }
    debian_files_ok "$apt/dl" || die "Debian's gmp source package differs from the one pinned in src/release/gmp-debian.sh"
    # Kept: a release bundles them (build/gmp-source).
    mkdir -p "$FETCHED_GMP" && cp "$apt/dl/$DEBIAN_DSC" "$apt/dl/$DEBIAN_ORIG" "$apt/dl/$DEBIAN_DIFF" "$FETCHED_GMP/"
}

fetch_release() {
    command -v curl >/dev/null || return 1
    scratch_dir
    local url
    for url in "${GMP_RELEASE_URLS[@]}"; do
        say "downloading $url"
        if curl -fsSL --connect-timeout 10 --max-time 600 -o "$SCRATCH/$GMP_RELEASE" "$url"; then
            unpack_release "$SCRATCH/$GMP_RELEASE"
            return 0
        fi
    done
    return 1
}

obtain_gmp_source() {
    [[ -f $GMP_SRC/.jbigi-verified ]] && return 0
    local tarball=${GMP_TARBALL:-$PROJECT_DIR/$GMP_RELEASE} debian
    if [[ -z ${GMP_TARBALL:-} ]] && debian=$(debian_source_dir); then
        unpack_debian_source "$debian"
    elif [[ -f $tarball ]]; then
        unpack_release "$tarball"
    elif [[ -n ${GMP_TARBALL:-} ]]; then
        die "GMP_TARBALL=$GMP_TARBALL: no such file"
    elif fetch_debian_source; then
        unpack_debian_source "$FETCHED_GMP"
    elif ! fetch_release; then
        die "no GMP $GMP_VERSION source: put $GMP_RELEASE in $PROJECT_DIR, make Debian's mirror reachable
    (with dpkg-dev installed), or allow downloads from gmplib.org"
    fi
}

# ---------------------------------------------------------------------------
# GMP builds
# ---------------------------------------------------------------------------

# GMP's configure arguments for a row of the table ("fat": --enable-fat).
# The mingw-w64 tools for Windows x86-64 (gcc-mingw-w64-x86-64).
readonly MINGW=x86_64-w64-mingw32

# GMP's configure arguments for a row (and "windows" for its Windows build).
gmp_configure_args() {
    local cpu=$1 os=${2:-linux} arch host march mtune cflags="-O2 -pipe -fomit-frame-pointer"
    if [[ $cpu == fat ]]; then
        echo "--enable-fat --host=$("$GMP_SRC/configfsf.guess") CFLAGS=$cflags"
        return 0
    fi
    arch=$(variant_field "$cpu" 2)
    host=$(variant_field "$cpu" 3)
    march=$(variant_field "$cpu" 4)
    mtune=$(variant_field "$cpu" 5)
    [[ $march == - ]] || cflags+=" -march=$march"
    [[ $mtune == - ]] || cflags+=" -mtune=$mtune"
    # GMP's gcd and inverse (mpn_hgcd2) divide two-limb numbers bit by bit
    # unless told to divide with the instruction, which the zen2 row's CPUs
    # do fast.  The other rows keep GMP's default until measured on theirs.
    # doc/measurements.md: "GMP's two-limb division in its gcd (AMD EPYC Zen 4, 2026-12-07)"
    [[ $cpu != zen2 ]] || cflags+=" -DHGCD2_DIV2_METHOD=1"
    local cross
    cross=$(cross_compiler "$arch")
    if [[ $os == windows ]]; then
        # Every tool named: without them configure quietly builds ELF objects.
        echo "--host=$host-w64-mingw32 --build=$("$GMP_SRC/configfsf.guess") CC=$MINGW-gcc AR=$MINGW-ar" \
            "RANLIB=$MINGW-ranlib NM=$MINGW-nm CFLAGS=$cflags"
    elif [[ -n $cross ]]; then
        echo "--host=$host-$(gnu_system "$arch") --build=$("$GMP_SRC/configfsf.guess") CC=$cross CFLAGS=$cflags"
    else
        echo "--host=$host-$(gnu_system "$arch") CFLAGS=$cflags"
    fi
}

# Runs a step with its output in LOG; on failure shows the end of the log.
# make's and the user's flags are kept away from GMP.
gmp_step() {
    local dir=$1 log=$2
    shift 2
    printf '\n=== %s\n' "$*" >>"$log"
    (cd "$dir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CFLAGS -u CPPFLAGS -u LDFLAGS nice -n 10 "$@") >>"$log" 2>&1 || {
        tail -n 30 "$log" >&2
        die "GMP build step failed: $* (log: $log)"
    }
}

# Makes build/gmp-<version>-<cpu>/install hold GMP built with the row's
# arguments, reusing an earlier build made with exactly the same ones.
# GMP for a row, on Linux or (os "windows") Windows, built once under
# build/gmp-<version>-<cpu> (build/gmp-<version>-windows-<cpu>).
ensure_gmp() {
    local cpu=$1 os=${2:-linux} args dir name
    obtain_gmp_source
    args=$(gmp_configure_args "$cpu" "$os")
    name=$cpu
    [[ $os == linux ]] || name=$os-$cpu
    dir=$BUILD_DIR/gmp-$GMP_VERSION-$name
    if [[ -f $dir/install/jbigi-config && $(<"$dir/install/jbigi-config") == "$args" ]]; then
        say "reusing build/gmp-$GMP_VERSION-$name"
        return 0
    fi
    rm -rf -- "$dir"
    mkdir -p "$dir"
    say "building GMP $GMP_VERSION for $cpu ($os) in build/gmp-$GMP_VERSION-$name (a few minutes)"
    local start=$SECONDS log=$dir/build.log cflags=${args#*CFLAGS=} cc=gcc opts
    read -ra opts <<<"${args%% CFLAGS=*}"
    local cross=""
    [[ $cpu == fat ]] || cross=$(cross_compiler "$(variant_field "$cpu" 2)")
    [[ $os == linux ]] || cross=$MINGW-gcc
    [[ -z $cross ]] || need "$cross" "$(cross_package "$cross")"
    local pic=--with-pic # for a shared object; PE code needs none
    [[ $os == linux ]] || pic=""
    gmp_step "$dir" "$log" "$GMP_SRC/configure" $pic --disable-shared --enable-static \
        --prefix="$dir/install" "${opts[@]}" CFLAGS="$cflags"
    # The parts of libgmp.a jbigi calls: mpn, mpz, rand and GMP's top-level
    # objects.  mpq, mpf and the printf and scanf families (a quarter of
    # GMP's objects) are left out; GMP_CHECK=1 builds everything.
    if [[ ${GMP_CHECK:-0} == 1 ]]; then
        gmp_step "$dir" "$log" make -j"${GMP_JOBS:-$JOBS}"
        gmp_step "$dir" "$log" make -j"${GMP_JOBS:-$JOBS}" check
    else
        gmp_step "$dir" "$log" make -j"${GMP_JOBS:-$JOBS}" SUBDIRS="mpn mpz rand" \
            MPQ_OBJECTS= MPF_OBJECTS= PRINTF_OBJECTS= SCANF_OBJECTS=
    fi
    mkdir -p "$dir/install/lib" "$dir/install/include"
    cp "$dir/gmp.h" "$dir/install/include/"
    cp "$dir/.libs/libgmp.a" "$dir/install/lib/"
    cp "$GMP_SRC"/COPYING "$GMP_SRC"/COPYING.LESSERv3 "$GMP_SRC"/COPYINGv2 "$dir/install/"
    echo "$cpu" >"$dir/install/jbigi-variant"
    printf '%s\n' "$args" >"$dir/install/jbigi-config" # last: marks a finished build
    say "GMP for $cpu ($os) built in $((SECONDS - start))s"
}

# Points build/gmp-<mode> (what make GMP=<mode> links) at a GMP build.
link_gmp() {
    ln -sfn "gmp-$GMP_VERSION-$2/install" "$BUILD_DIR/gmp-$1"
    say "build/gmp-$1 -> gmp-$GMP_VERSION-$2 ($(gmp_configure_args "$2"))"
}

chosen_variant() {
    if [[ -n ${JBIGI_VARIANT:-} ]]; then
        variant_field "$JBIGI_VARIANT" 1 >/dev/null
        say "variant $JBIGI_VARIANT (from JBIGI_VARIANT)" >&2
        echo "$JBIGI_VARIANT"
    else
        local cpu
        cpu=$(host_variant)
        say "this CPU runs variant $cpu: $(variant_field "$cpu" 7)" >&2
        echo "$cpu"
    fi
}

# ---------------------------------------------------------------------------
# jbigi
# ---------------------------------------------------------------------------

report_library() {
    local lib=$1
    [[ -f $lib ]] || die "$lib was not built"
    local exports
    exports=$(nm -D --defined-only "$lib" | awk '{ print $NF }' | grep -vc '^Java_' || true)
    say "${lib#"$PROJECT_DIR"/}: $(nm -D --defined-only "$lib" | grep -c ' Java_') JNI functions, $exports other exports;" \
        "$(ldd "$lib" 2>/dev/null | grep -q libgmp && echo 'links libgmp.so' || echo 'GMP linked in')"
}

build_mode() {
    local mode=$1 cpu
    case $mode in
        static) cpu=$(chosen_variant); ensure_gmp "$cpu"; link_gmp static "$cpu" ;;
        fat) ensure_gmp fat; link_gmp fat fat ;;
        dynamic) mode=system ;;
    esac
    make -C "$PROJECT_DIR" GMP="$mode"
    report_library "$PROJECT_DIR/lib/libjbigi.so"
}

# Runs "$1 item" for each further argument, JBIGI_PARALLEL (2) at a time,
# each with its share of JOBS (GMP_JOBS); stops if any failed.  A GMP build
# is a serial configure (about a third of it) then a parallel make, and a
# library's sources compile one after the other: two at once keep both
# cores busy throughout.
in_parallel() {
    local fn=$1 parallel=${JBIGI_PARALLEL:-2} item status=0
    shift
    if ((parallel <= 1)); then
        for item; do "$fn" "$item"; done
        return 0
    fi
    local share=$(((JOBS + parallel - 1) / parallel))
    for item; do
        while (($(jobs -rp | wc -l) >= parallel)); do wait -n || status=1; done
        (GMP_JOBS=$share "$fn" "$item") &
    done
    while (($(jobs -rp | wc -l) > 0)); do wait -n || status=1; done
    ((status == 0)) || die "a parallel step failed: $fn (its output is above)"
}

# GMP for "cpu:os".
gmp_for() {
    ensure_gmp "${1%%:*}" "${1#*:}"
}

# The library for "cpu:os" against its GMP, under build/dist.
library_for() {
    local target=dist-lib
    [[ ${1#*:} == linux ]] || target=dist-lib-windows
    make -C "$PROJECT_DIR" --no-print-directory "$target" VARIANT="${1%%:*}"
}

# Every row: GMP and the library for it, then one jar with all of them.
build_dist() {
    local start=$SECONDS cpu arch rows=() windows=()
    local cross
    while read -r cpu arch _; do
        cross=$(cross_compiler "$arch")
        if [[ -n $cross ]] && ! command -v "$cross" >/dev/null; then
            say "skipping $cpu: apt-get install $(cross_package "$cross") to cross-build it"
            [[ ${JBIGI_RELEASE:-0} != 1 ]] || die "a release carries every row: install the cross compiler"
            continue
        fi
        rows+=("$cpu")
    done < <(variant_rows)
    # Windows x86-64: a DLL for every x86-64 row, where mingw-w64 is installed.
    if command -v "$MINGW-gcc" >/dev/null; then
        while read -r cpu _; do windows+=("$cpu"); done < <(variant_rows x86_64)
    else
        say "skipping the Windows DLLs: apt-get install $(cross_package "$MINGW-gcc") to cross-build them"
        [[ ${JBIGI_RELEASE:-0} != 1 ]] || die "a release carries the Windows DLLs: install mingw-w64"
    fi
    local builds=()
    for cpu in "${rows[@]}"; do builds+=("$cpu:linux"); done
    for cpu in "${windows[@]}"; do builds+=("$cpu:windows"); done
    obtain_gmp_source # once, before the builds start
    in_parallel gmp_for "${builds[@]}"
    # What every library build shares, made once before they run side by side.
    make -C "$PROJECT_DIR" --no-print-directory check-header build/obj-flags.stamp
    in_parallel library_for "${builds[@]}"
    make -C "$PROJECT_DIR" --no-print-directory dist-jar DIST_VARIANTS="${rows[*]}" DIST_WINDOWS_VARIANTS="${windows[*]}"
    say "build/jbigi.jar: ${#rows[@]} Linux and ${#windows[@]} Windows variants, $(du -k "$BUILD_DIR/jbigi.jar" | cut -f1) KiB, $((SECONDS - start))s"
}

# src/cpu/i2p-names.tsv in the merged tree $1 from our libraries in $2: a
# row's library copied under I2P's name, or I2P's of that name left out.  An
# OS the dist built nothing for (no mingw-w64) keeps I2P's as they are.
i2p_names() {
    local name os row p s
    while read -r name os row; do
        case $os in
            linux) p=libjbigi-linux- s=_64.so ;;
            windows) p=jbigi-windows- s=_64.dll ;;
            *) die "src/cpu/i2p-names.tsv: '$name' for unknown OS '$os'" ;;
        esac
        compgen -G "$2/$p*$s" >/dev/null || continue
        if [[ $row == - ]]; then
            if [[ -e $1/$p$name$s ]]; then rm "$1/$p$name$s"; say "I2P's $p$name$s left out (src/cpu/i2p-names.tsv)"; fi
        elif variant_field "$row" 1 >/dev/null && [[ -f $2/$p$row$s ]]; then
            cp "$2/$p$row$s" "$1/$p$name$s" && say "ours ($row) as $p$name$s (src/cpu/i2p-names.tsv)"
        fi
    done < <(awk '!/^#/ && NF >= 3' "$PROJECT_DIR/src/cpu/i2p-names.tsv")
}

# build/i2p/jbigi.jar for an I2P installation: ours (the dist jar's
# libraries, jcpuid and GMP's licences, under I2P's names) and, from I2P's
# own jbigi.jar, every entry we do not build: macOS, FreeBSD, 32-bit x86,
# ARMv5 and ARMv6, PowerPC, and the CPU names we have no library for.  Where
# both have a name, ours is taken; src/cpu/i2p-names.tsv names the rest, so
# that I2P's loader reaches ours first wherever our engines run.
build_i2p_jar() {
    local theirs=$1 jar_tool merged ours kept=0 replaced=0 name
    [[ -f $theirs ]] || die "no such file: $theirs (I2P's lib/jbigi.jar)"
    theirs=$(readlink -f "$theirs")
    jar_tool=$(dirname "$(readlink -f "$(command -v javac)")")/jar
    # JBIGI_DIST_BUILT=1: the dist was just built (the tests), take it as it is.
    [[ ${JBIGI_DIST_BUILT:-0} == 1 && -d $BUILD_DIR/jar-resources ]] || build_dist
    scratch_dir
    merged=$SCRATCH/merged
    ours=$BUILD_DIR/jar-resources
    mkdir -p "$merged"
    (cd "$merged" && "$jar_tool" xf "$theirs") || die "$theirs is not a jar"
    rm -rf "$merged/META-INF/MANIFEST.MF"
    while IFS= read -r name; do
        [[ -e $merged/$name ]] && replaced=$((replaced + 1))
        mkdir -p "$(dirname "$merged/$name")"
        cp "$ours/$name" "$merged/$name"
    done < <(cd "$ours" && find . -type f | sed 's#^\./##' | sort)
    i2p_names "$merged" "$ours"
    kept=$(cd "$merged" && find . -type f \( -name '*.so' -o -name '*.dll' -o -name '*.jnilib' -o -name '*.dylib' \) | wc -l)
    "$jar_tool" --create --file "$BUILD_DIR/i2p/jbigi.jar" --manifest "$BUILD_DIR/jar-manifest" -C "$merged" .
    say "build/i2p/jbigi.jar: $kept native libraries, ours in place of I2P's for $replaced names, I2P's own for the rest"
}

main() {
    local mode=${1:-static}
    case $mode in
        -h | --help) usage; return 0 ;;
        --host-variant) host_variant; return 0 ;;
        --gmp-only)
            [[ $# -eq 2 ]] || { usage >&2; exit 2; }
            case $2 in
                static) local cpu; cpu=$(chosen_variant); ensure_gmp "$cpu"; link_gmp static "$cpu" ;;
                fat) ensure_gmp fat; link_gmp fat fat ;;
                windows-*) ensure_gmp "${2#windows-}" windows ;;
                *) ensure_gmp "$2" ;;
            esac
            return 0
            ;;
        i2p-jar)
            [[ $# -eq 2 ]] || { usage >&2; exit 2; }
            check_tools dist
            build_i2p_jar "$2"
            return 0
            ;;
        static | dynamic | fat | dist | release) [[ $# -le 1 ]] || { usage >&2; exit 2; } ;;
        *) printf 'build.sh: unknown argument: %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    check_tools "$mode"
    if [[ $mode == dist ]]; then
        build_dist
    elif [[ $mode == release ]]; then
        release_gmp_source && JBIGI_RELEASE=1 build_dist && make -C "$PROJECT_DIR" --no-print-directory release-files
    else
        build_mode "$mode"
    fi
}

main "$@"
exit
