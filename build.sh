#!/usr/bin/env bash
#
# build.sh - build lib/libjbigi.so, the JNI shim over GNU MP used by I2P.
#
#   ./build.sh            static (default): GMP built from source for this CPU,
#                         linked into libjbigi.so with its symbols hidden
#   ./build.sh dynamic    link the system libgmp.so (quick, not tuned)
#   ./build.sh fat        GMP --enable-fat linked in: one portable library
#
# GMP builds live under build/ and are reused; build/gmp-static and
# build/gmp-fat are symlinks to the install trees the Makefile links against.
# Run with --help for the environment variables it understands.

set -euo pipefail

PROJECT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly PROJECT_DIR
readonly BUILD_DIR=$PROJECT_DIR/build

# Release tarball used only when neither a local tarball nor Debian's source
# package is available, with the SHA-256 of the official gmp-6.3.0.tar.xz
# (GMP_SHA256 in the environment replaces it).
readonly GMP_RELEASE=gmp-6.3.0.tar.xz
readonly GMP_RELEASE_SHA256=a3c2b80201b89e68616f4ad30bc66aee4927c3ce50e33929ca819d5c43538898
readonly GMP_RELEASE_URLS=(
    "https://gmplib.org/download/gmp/$GMP_RELEASE"
    "https://ftp.gnu.org/gnu/gmp/$GMP_RELEASE"
)

# The key Debian's own apt sources are signed with; used for the temporary
# deb-src entry when the machine's entry does not name a keyring file.
readonly DEBIAN_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

JOBS=$(nproc 2>/dev/null || echo 2)
readonly JOBS

# Set by the functions below.
SCRATCH=""          # private temporary directory, removed on exit
UNPACK_TMP=""       # half-unpacked source under build/, removed on exit
GMP_SRC=""          # unpacked GMP source tree
GMP_VERSION=""      # its version, e.g. 6.2.1
GMP_HOST_TRIPLET="" # --host given to GMP's configure
GMP_TARGET=""       # CPU name used in directory names and jbigi-gmp-target
GMP_LINK_CHANGED=0  # 1 when build/gmp-<variant> was (re)pointed by this run

# ---------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------

say() { printf 'build.sh: %s\n' "$*"; }
warn() { printf 'build.sh: warning: %s\n' "$*" >&2; }
die() { printf 'build.sh: error: %s\n' "$*" >&2; exit 1; }

usage() {
    cat <<'EOF'
Usage: ./build.sh [static|dynamic|fat]
       ./build.sh --gmp-only static|fat
       ./build.sh -h|--help

Modes:
  static    (default) build GMP from source for this CPU and link it into
            lib/libjbigi.so; ldd shows no libgmp
  dynamic   link lib/libjbigi.so against the system libgmp.so (libgmp-dev)
  fat       build GMP with --enable-fat (run-time CPU dispatch) and link it
            in: one portable library for distribution
  --gmp-only static|fat
            only make sure build/gmp-static (or build/gmp-fat) exists, then exit

Where the GMP source comes from (first found wins):
  1. $GMP_TARBALL, or a gmp-*.tar.* file in the project directory
  2. Debian's source package "gmp" (apt-get source, dpkg-source -x)
  3. gmplib.org (gmp-6.3.0.tar.xz, checked against a recorded SHA-256)

Environment:
  GMP_TARBALL=/path/gmp-X.tar.*   GMP source tarball to use
  GMP_HOST=<cpu>-pc-linux-gnu     GMP target for static builds (default: detected)
  GMP_SHA256=<hex>                expected SHA-256 of the downloaded release
  GMP_CHECK=1                     run GMP's own test suite after building it
  JAVA_HOME                       JDK to build with (default: the one javac is from)
  CC                              C compiler (default: gcc, else cc)
  CFLAGS etc. apply to jbigi only; GMP picks its own flags for its target.
EOF
}

# ---------------------------------------------------------------------------
# Scratch space
# ---------------------------------------------------------------------------

cleanup() {
    if [[ -n $SCRATCH ]]; then
        rm -rf -- "$SCRATCH"
    fi
    if [[ -n $UNPACK_TMP ]]; then
        rm -rf -- "$UNPACK_TMP"
    fi
}
trap cleanup EXIT

scratch_dir() {
    if [[ -z $SCRATCH ]]; then
        SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/jbigi-build.XXXXXX")
        # apt's downloader runs as the unprivileged _apt user and must be
        # able to reach the download directory inside.
        chmod 755 "$SCRATCH"
    fi
}

# ---------------------------------------------------------------------------
# Prerequisites
# ---------------------------------------------------------------------------

check_c_compiler() {
    if [[ -n ${CC:-} ]]; then
        command -v "${CC%% *}" >/dev/null ||
            die "C compiler '$CC' (from \$CC) not found"
    elif ! command -v gcc >/dev/null && ! command -v cc >/dev/null; then
        die "no C compiler (gcc or cc) found: apt-get install gcc"
    fi
}

check_make() {
    command -v make >/dev/null || die "make not found: apt-get install make"
}

check_m4() {
    command -v m4 >/dev/null ||
        die "m4 not found (GMP's configure needs it): apt-get install m4"
}

# Sets and exports JAVA_HOME, which the Makefile uses for the JNI headers.
check_java() {
    local javac
    if [[ -n ${JAVA_HOME:-} ]]; then
        javac=$JAVA_HOME/bin/javac
        [[ -x $javac ]] ||
            die "no javac in JAVA_HOME=$JAVA_HOME: point JAVA_HOME at a JDK, or apt-get install openjdk-17-jdk-headless"
    else
        javac=$(command -v javac) ||
            die "javac not found: apt-get install openjdk-17-jdk-headless, or set JAVA_HOME to a JDK"
        # .../jdk/bin/javac -> .../jdk
        JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$javac")")")
    fi
    local header
    for header in include/jni.h include/linux/jni_md.h; do
        [[ -f $JAVA_HOME/$header ]] ||
            die "$JAVA_HOME/$header missing (a JRE, not a JDK?): apt-get install openjdk-17-jdk-headless, or set JAVA_HOME to a JDK"
    done
    export JAVA_HOME
    say "using JDK $JAVA_HOME"
}

check_system_gmp() {
    printf '#include <gmp.h>\n' | "${CC:-cc}" -E -x c - >/dev/null 2>&1 ||
        die "gmp.h not found for the dynamic build: apt-get install libgmp-dev"
}

# ---------------------------------------------------------------------------
# GMP source: unpacking
# ---------------------------------------------------------------------------

# Debian's orig tarball leaves out doc/ (the manual is under the GFDL).  Its
# patch removes doc/ from Makefile.am and configure.ac, but the shipped
# configure and Makefile.in are not regenerated, so configure still wants
# doc/Makefile.in.  A stub whose every target does nothing stands in for it.
add_doc_stub() {
    local src=$1
    [[ -e $src/doc/Makefile.in ]] && return 0
    grep -q 'doc/Makefile' "$src/configure" || return 0
    mkdir -p "$src/doc"
    cat >"$src/doc/Makefile.in" <<'EOF'
# Stand-in for GMP's doc/Makefile: this source tree has no manual.
# Every target (all, install, check, clean, ...) does nothing.
.DEFAULT:
	@:
EOF
    say "source has no doc/: added a do-nothing doc/Makefile.in so configure and make run"
}

configure_version() {
    sed -n "s/^PACKAGE_VERSION='\\(.*\\)'\$/\\1/p" "$1/configure"
}

# Unpacking happens in a hidden directory under build/ (same file system, so
# the finished tree can be renamed into place in one step).
new_unpack_dir() {
    mkdir -p "$BUILD_DIR"
    UNPACK_TMP=$(mktemp -d "$BUILD_DIR/.gmp-unpack.XXXXXX")
}

# Moves an unpacked tree into build/gmp-src-<version>, selects it and
# removes the unpack directory.
adopt_source_tree() {
    local tree=$1
    [[ -f $tree/configure && -f $tree/gmp-h.in ]] ||
        die "$tree does not look like a GMP source tree"
    local version
    version=$(configure_version "$tree")
    [[ -n $version ]] || die "cannot read the GMP version from $tree/configure"
    add_doc_stub "$tree"
    local dest=$BUILD_DIR/gmp-src-$version
    if [[ -d $dest ]]; then
        rm -rf -- "$tree"
    else
        mv -- "$tree" "$dest" || die "cannot move the GMP source to $dest"
    fi
    rm -rf -- "$UNPACK_TMP"
    UNPACK_TMP=""
    GMP_SRC=$dest
    GMP_VERSION=$version
    say "GMP $version source is in build/gmp-src-$version"
}

unpack_tarball() {
    local tarball=$1
    say "unpacking $tarball"
    new_unpack_dir
    tar -xf "$tarball" -C "$UNPACK_TMP" || die "cannot unpack $tarball"
    local tops=("$UNPACK_TMP"/*/)
    [[ ${#tops[@]} -eq 1 && -d ${tops[0]} ]] ||
        die "$tarball should hold exactly one top-level directory"
    mv -- "${tops[0]%/}" "$UNPACK_TMP/gmp" || die "cannot rename the unpacked GMP source"
    adopt_source_tree "$UNPACK_TMP/gmp"
}

# ---------------------------------------------------------------------------
# GMP source: the three ways to get it
# ---------------------------------------------------------------------------

# Way 1: GMP_TARBALL, else the newest gmp-*.tar.* in the project directory.
local_tarball() {
    if [[ -n ${GMP_TARBALL:-} ]]; then
        printf '%s\n' "$GMP_TARBALL"
        return 0
    fi
    local found
    found=$(find "$PROJECT_DIR" -maxdepth 1 -type f -name 'gmp-*.tar.*' | sort -V | tail -n 1)
    [[ -n $found ]] && printf '%s\n' "$found"
}

use_local_tarball() {
    local tarball=$1
    local base version
    base=$(basename "$tarball")
    version=${base#gmp-}
    version=${version%%.tar.*}
    if [[ -f $BUILD_DIR/gmp-src-$version/configure ]]; then
        GMP_SRC=$BUILD_DIR/gmp-src-$version
        GMP_VERSION=$version
        say "reusing GMP $version source in build/gmp-src-$version"
        return 0
    fi
    unpack_tarball "$tarball"
}

# A tree unpacked by an earlier run (the newest version if several).
reuse_unpacked_source() {
    local dir
    dir=$(find "$BUILD_DIR" -maxdepth 1 -type d -name 'gmp-src-*' 2>/dev/null | sort -V | tail -n 1)
    [[ -n $dir && -f $dir/configure ]] || return 1
    GMP_SRC=$dir
    GMP_VERSION=$(configure_version "$dir")
    say "reusing GMP $GMP_VERSION source in build/${dir##*/}"
}

# Prints "URI SUITE KEYRING" for every enabled binary ("deb") apt source of
# the machine, from both the one-line and the deb822 formats.  KEYRING is "-"
# when the entry names no keyring file.
apt_deb_entries() {
    local file
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -r $file ]] || continue
        awk '
            $1 == "deb" {
                line = $0; sub(/^deb[ \t]+/, "", line); key = "-"
                if (line ~ /^\[/) {
                    opts = substr(line, 2, index(line, "]") - 2)
                    line = substr(line, index(line, "]") + 1)
                    n = split(opts, o, /[ \t]+/)
                    for (i = 1; i <= n; i++)
                        if (o[i] ~ /^signed-by=/) key = substr(o[i], 11)
                }
                n = split(line, w, /[ \t]+/); k = 0
                for (i = 1; i <= n; i++) if (w[i] != "") f[++k] = w[i]
                if (k >= 2) print f[1], f[2], key
            }' "$file"
    done
    for file in /etc/apt/sources.list.d/*.sources; do
        [[ -r $file ]] || continue
        # Paragraph mode: one stanza per record.  Continuation lines (an
        # inline Signed-By key, say) start with a blank and are skipped.
        awk '
            BEGIN { RS = ""; FS = "\n" }
            {
                types = uris = suites = ""; key = "-"; enabled = "yes"
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^[ \t#]/ || index($i, ":") == 0) continue
                    name = tolower(substr($i, 1, index($i, ":") - 1))
                    value = substr($i, index($i, ":") + 1)
                    gsub(/^[ \t]+|[ \t]+$/, "", value)
                    if (name == "types") types = value
                    else if (name == "uris") uris = value
                    else if (name == "suites") suites = value
                    else if (name == "enabled") enabled = tolower(value)
                    else if (name == "signed-by" && value ~ /^\//) key = value
                }
                if (enabled == "no" || (" " types " ") !~ / deb /) next
                nu = split(uris, u, /[ \t]+/); ns = split(suites, s, /[ \t]+/)
                for (a = 1; a <= nu; a++)
                    for (b = 1; b <= ns; b++)
                        if (u[a] != "" && s[b] != "") print u[a], s[b], key
            }' "$file"
    done
}

# Writes a sources.list with a deb-src line for each of the machine's
# entries for its own release (e.g. bookworm, bookworm-updates,
# bookworm-security), so apt picks the newest gmp source including security
# fixes.  Third-party repositories for other suites are left out.
write_private_sources() {
    local out=$1 codename="" uri suite key
    if [[ -r /etc/os-release ]]; then
        codename=$(awk -F= '$1 == "VERSION_CODENAME" { gsub(/["\047]/, "", $2); print $2 }' /etc/os-release)
    fi
    while read -r uri suite key; do
        if [[ -n $codename && $suite != "$codename" && $suite != "$codename"-* ]]; then
            continue
        fi
        # An entry with its key inline (or none) is given Debian's archive
        # keyring if it is a Debian mirror; otherwise apt's default trust.
        if [[ $key == - && -r $DEBIAN_KEYRING ]] && [[ $uri == *debian* ]]; then
            key=$DEBIAN_KEYRING
        fi
        if [[ $key == - ]]; then
            printf 'deb-src %s %s main\n' "$uri" "$suite"
        else
            printf 'deb-src [signed-by=%s] %s %s main\n' "$key" "$uri" "$suite"
        fi
    done < <(apt_deb_entries) | sort -u >"$out"
    [[ -s $out ]]
}

# Way 2: Debian's source package, fetched with a private sources list and a
# private lists directory so the machine's own apt state is not touched.
fetch_debian_source() {
    command -v apt-get >/dev/null || { say "apt-get not available: skipping Debian's source package"; return 1; }
    if ! command -v dpkg-source >/dev/null; then
        say "dpkg-source not found, so Debian's gmp source cannot be unpacked: apt-get install dpkg-dev"
        return 1
    fi
    scratch_dir
    local apt_dir=$SCRATCH/apt
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/download"
    if ! write_private_sources "$apt_dir/sources.list"; then
        say "no Debian apt sources found: skipping Debian's source package"
        return 1
    fi
    local apt_opts=(
        -o "Dir::Etc::SourceList=$apt_dir/sources.list"
        -o "Dir::Etc::SourceParts=/nonexistent"
        -o "Dir::State::Lists=$apt_dir/lists"
        -o "Dir::Cache::pkgcache="
        -o "Dir::Cache::srcpkgcache="
    )
    if [[ $EUID -eq 0 ]] && id _apt >/dev/null 2>&1; then
        chown _apt "$apt_dir/download"
    fi
    local log=$apt_dir/apt.log
    say "fetching Debian's gmp source package (deb-src for $(awk '{print $(NF-1)}' "$apt_dir/sources.list" | paste -sd' ' -))"
    # One unreachable entry makes "update" fail although the others are
    # fine; whether "source" then finds gmp is what counts.
    apt-get "${apt_opts[@]}" update >"$log" 2>&1 || true
    if ! (cd "$apt_dir/download" && apt-get "${apt_opts[@]}" source --download-only gmp) >>"$log" 2>&1; then
        say "could not download Debian's gmp source package:"
        tail -n 5 "$log" | sed 's/^/    /'
        return 1
    fi
    local dsc
    dsc=$(find "$apt_dir/download" -maxdepth 1 -name 'gmp_*.dsc' | head -n 1)
    [[ -n $dsc ]] || { say "apt-get source left no gmp_*.dsc"; return 1; }
    say "got ${dsc##*/}; unpacking with dpkg-source (applies Debian's patches)"
    new_unpack_dir
    if ! dpkg-source -x "$dsc" "$UNPACK_TMP/gmp" >>"$log" 2>&1; then
        tail -n 10 "$log" >&2
        die "dpkg-source -x $dsc failed"
    fi
    adopt_source_tree "$UNPACK_TMP/gmp"
}

download() {
    local url=$1 out=$2
    if command -v curl >/dev/null; then
        curl -fsSL --connect-timeout 10 --max-time 600 -o "$out" "$url"
    elif command -v wget >/dev/null; then
        wget -q --connect-timeout=10 --read-timeout=60 --tries=1 -O "$out" "$url"
    else
        return 2
    fi
}

# Way 3: the release tarball from gmplib.org, checked against its SHA-256.
fetch_release_tarball() {
    local expected=${GMP_SHA256:-$GMP_RELEASE_SHA256}
    if ! command -v curl >/dev/null && ! command -v wget >/dev/null; then
        say "neither curl nor wget available: cannot download $GMP_RELEASE"
        return 1
    fi
    scratch_dir
    local out=$SCRATCH/$GMP_RELEASE url
    for url in "${GMP_RELEASE_URLS[@]}"; do
        say "downloading $url"
        if download "$url" "$out"; then
            local actual
            actual=$(sha256sum "$out" | awk '{print $1}')
            if [[ $actual != "$expected" ]]; then
                die "SHA-256 mismatch for $url: got $actual, expected $expected"
            fi
            say "SHA-256 verified"
            unpack_tarball "$out"
            return 0
        fi
    done
    say "could not download $GMP_RELEASE"
    return 1
}

# Sets GMP_SRC and GMP_VERSION.
obtain_gmp_source() {
    if [[ -n ${GMP_TARBALL:-} && ! -f $GMP_TARBALL ]]; then
        die "GMP_TARBALL=$GMP_TARBALL: no such file"
    fi
    local tarball
    if tarball=$(local_tarball); then
        use_local_tarball "$tarball"
    elif reuse_unpacked_source; then
        :
    elif fetch_debian_source; then
        :
    elif fetch_release_tarball; then
        :
    else
        die "no GMP source found. Either
    1. put a GMP release tarball in $PROJECT_DIR (gmp-X.tar.xz) or set GMP_TARBALL=/path/to/it,
    2. make Debian's mirror reachable (apt-get source gmp; unpacking needs dpkg-dev), or
    3. allow downloads from gmplib.org ($GMP_RELEASE)"
    fi
}

# ---------------------------------------------------------------------------
# CPU target
# ---------------------------------------------------------------------------

cpuinfo_field() {
    awk -F'\t*: *' -v key="$1" '$1 == key { print $2; exit }' /proc/cpuinfo 2>/dev/null
}

cpu_has() {
    local flags flag
    flags=" $(cpuinfo_field flags) "
    for flag in "$@"; do
        [[ $flags == *" $flag "* ]] || return 1
    done
}

# True when this GMP accepts CPU as a --host and its configure has a case
# for it (config.sub alone accepts patterns like zen*, including future ones).
gmp_knows_cpu() {
    local cpu=$1
    "$GMP_SRC/config.sub" "$cpu-pc-linux-gnu" >/dev/null 2>&1 &&
        grep -Eq "^[[:space:]]*([^#)]*[|[:space:]])?${cpu}[[:space:]]*[|)]" "$GMP_SRC/configure"
}

# GMP targets this x86_64 CPU can run, newest first.  Every CPU with BMI2
# also has LZCNT, which GMP's BMI2-era targets assume as well.
x86_64_candidates() {
    local vendor
    vendor=$(cpuinfo_field vendor_id)
    case $vendor in
        AuthenticAMD | HygonGenuine)
            if cpu_has bmi2 adx avx2; then
                if cpu_has avx512f; then
                    local family
                    family=$(cpuinfo_field 'cpu family')
                    if [[ ${family:-0} -ge 26 ]]; then echo zen5; fi
                    echo zen4
                fi
                echo zen3 zen2 zen
            fi
            if cpu_has bmi2 avx2; then echo excavator; fi
            if cpu_has popcnt abm; then echo k10; fi
            ;;
        GenuineIntel)
            if cpu_has bmi2 adx avx2; then echo skylake coreibwl; fi
            if cpu_has bmi2 avx2; then echo coreihwl; fi
            if cpu_has avx; then echo coreisbr; fi
            if cpu_has sse4_2 popcnt; then echo coreinhm; fi
            if cpu_has ssse3; then echo core2; fi
            ;;
    esac
}

# Describes the instructions behind a candidate for the one-line reason.
feature_summary() {
    if cpu_has bmi2 adx; then echo "BMI2+ADX"
    elif cpu_has bmi2; then echo "BMI2 but no ADX"
    elif cpu_has avx; then echo "AVX but no BMI2"
    else echo "no AVX/BMI2"
    fi
}

# GMP's config.guess only knows CPUs older than the GMP release; for a newer
# x86_64 it answers plain "x86_64".  Then pick the newest target this GMP
# knows among those the CPU's instructions allow.
refine_generic_x86_64() {
    local vendor family model cand skipped=()
    vendor=$(cpuinfo_field vendor_id)
    family=$(cpuinfo_field 'cpu family')
    model=$(cpuinfo_field model)
    local who="${vendor:-unknown vendor} family ${family:-?} model ${model:-?}"
    for cand in $(x86_64_candidates); do
        if gmp_knows_cpu "$cand"; then
            GMP_TARGET=$cand
            GMP_HOST_TRIPLET=$cand-pc-linux-gnu
            local note=""
            if [[ ${#skipped[@]} -gt 0 ]]; then
                note=" (GMP $GMP_VERSION has no ${skipped[*]})"
            fi
            say "GMP's config.guess says x86_64 (it does not know this CPU: $who);"
            say "CPU has $(feature_summary), so using GMP target $cand$note"
            return 0
        fi
        skipped+=("$cand")
    done
    say "GMP's config.guess says x86_64 ($who); no more specific GMP target fits, using generic x86_64"
}

# Sets GMP_HOST_TRIPLET and GMP_TARGET for the CPU-specific (static) build.
choose_static_target() {
    if [[ -n ${GMP_HOST:-} ]]; then
        local host=$GMP_HOST
        [[ $host == *-* ]] || host=$host-pc-linux-gnu
        "$GMP_SRC/config.sub" "$host" >/dev/null 2>&1 ||
            die "GMP_HOST=$GMP_HOST is not a host GMP $GMP_VERSION accepts"
        GMP_HOST_TRIPLET=$host
        GMP_TARGET=${host%%-*}
        gmp_knows_cpu "$GMP_TARGET" ||
            warn "GMP $GMP_VERSION has no specific code for '$GMP_TARGET'; its configure will fall back to a generic build"
        say "using GMP target $GMP_TARGET (from GMP_HOST)"
        return 0
    fi
    local guess
    guess=$("$GMP_SRC/config.guess") || die "GMP's config.guess failed"
    GMP_HOST_TRIPLET=$guess
    GMP_TARGET=${guess%%-*}
    if [[ $GMP_TARGET == x86_64 ]]; then
        refine_generic_x86_64
    else
        say "GMP's config.guess says $guess: using GMP target $GMP_TARGET"
    fi
}

# Fat builds target the plain architecture; GMP picks code at run time.
choose_fat_target() {
    GMP_HOST_TRIPLET=$("$GMP_SRC/configfsf.guess") || die "GMP's configfsf.guess failed"
    GMP_TARGET=fat
    case $GMP_HOST_TRIPLET in
        x86_64-* | i?86-*) ;;
        *) warn "GMP supports --enable-fat only on x86; on $GMP_HOST_TRIPLET this is a generic build" ;;
    esac
}

# ---------------------------------------------------------------------------
# GMP build
# ---------------------------------------------------------------------------

gmp_install_complete() {
    local install=$1
    [[ -f $install/lib/libgmp.a && -f $install/include/gmp.h && -f $install/jbigi-gmp-target ]]
}

# Runs a build step in DIR with output appended to LOG; on failure shows
# the end of the log and stops.  Variables from an outer make (MAKEFLAGS
# carries command-line settings such as CFLAGS=...) and the environment's
# CFLAGS are kept away from GMP, which chooses its own flags per target.
gmp_step() {
    local dir=$1 log=$2 what=$3
    shift 3
    printf '\n=== %s: %s\n' "$what" "$*" >>"$log"
    if ! (cd "$dir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
            -u CFLAGS -u CPPFLAGS -u LDFLAGS "$@") >>"$log" 2>&1; then
        printf '%s\n' "--- last lines of $log:" >&2
        tail -n 30 "$log" >&2
        die "GMP $what failed (full log: $log)"
    fi
}

# Installs just the library and gmp.h (no manual, which may be absent).
install_gmp_library() {
    local dir=$1 log=$2
    if (cd "$dir" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
            make install-libLTLIBRARIES install-nodist_includeexecHEADERS) >>"$log" 2>&1; then
        return 0
    fi
    echo "--- automake install targets failed; copying the files instead" >>"$log"
    mkdir -p "$dir/install/lib" "$dir/install/include"
    cp "$dir/gmp.h" "$dir/install/include/gmp.h"
    cp "$dir/.libs/libgmp.a" "$dir/install/lib/libgmp.a"
}

build_gmp() {
    local dir=$1
    shift
    local name=${dir##*/}
    local log=$dir/build.log
    rm -rf -- "$dir"
    mkdir -p "$dir"
    say "building GMP $GMP_VERSION for $GMP_TARGET in build/$name ($JOBS jobs, a few minutes; log: build/$name/build.log)"
    local start=$SECONDS
    gmp_step "$dir" "$log" configure "$GMP_SRC/configure" \
        --with-pic --disable-shared --enable-static \
        --host="$GMP_HOST_TRIPLET" --prefix="$dir/install" "$@"
    gmp_step "$dir" "$log" make make -j"$JOBS"
    if [[ ${GMP_CHECK:-0} == 1 ]]; then
        say "running GMP's make check (GMP_CHECK=1)"
        gmp_step "$dir" "$log" "make check" make -j"$JOBS" check
    fi
    install_gmp_library "$dir" "$log"
    # Written last: its presence marks a finished build.
    if [[ $GMP_TARGET == fat ]]; then
        echo none >"$dir/install/jbigi-gmp-target"
    else
        echo "$GMP_TARGET" >"$dir/install/jbigi-gmp-target"
    fi
    say "GMP built in $((SECONDS - start))s"
}

# Points build/gmp-<variant> at NAME/install (a relative link).
link_gmp_install() {
    local variant=$1 name=$2
    local link=$BUILD_DIR/gmp-$variant
    if [[ -e $link && ! -L $link ]]; then
        die "$link exists and is not a symlink; remove it"
    fi
    local old=""
    old=$(readlink "$link" 2>/dev/null || true)
    if [[ $old != "$name/install" ]]; then
        ln -sfn "$name/install" "$link"
        GMP_LINK_CHANGED=1
        say "build/gmp-$variant -> $name/install"
    fi
}

# Makes sure build/gmp-<variant> holds a finished GMP for the chosen target.
ensure_gmp() {
    local variant=$1
    obtain_gmp_source
    local configure_extra=()
    if [[ $variant == fat ]]; then
        choose_fat_target
        configure_extra=(--enable-fat)
    else
        choose_static_target
    fi
    local name=gmp-$GMP_VERSION-$GMP_TARGET
    local dir=$BUILD_DIR/$name
    if gmp_install_complete "$dir/install"; then
        say "reusing build/$name (GMP $GMP_VERSION built for $GMP_TARGET)"
    else
        build_gmp "$dir" "${configure_extra[@]}"
    fi
    link_gmp_install "$variant" "$name"
}

# ---------------------------------------------------------------------------
# libjbigi.so
# ---------------------------------------------------------------------------

# make cannot see that lib/libjbigi.so must be relinked when the mode
# changes or build/gmp-<variant> points elsewhere; a stamp remembers what
# the library was last linked against.
force_relink_if_changed() {
    local what=$1
    local stamp=$BUILD_DIR/jbigi-linked-with.stamp
    local last=""
    [[ -f $stamp ]] && last=$(<"$stamp")
    if [[ $last != "$what" || $GMP_LINK_CHANGED == 1 ]]; then
        rm -f "$PROJECT_DIR/lib/libjbigi.so"
    fi
}

record_link() {
    mkdir -p "$BUILD_DIR"
    printf '%s\n' "$1" >"$BUILD_DIR/jbigi-linked-with.stamp"
}

report_library() {
    local mode=$1 lib=$PROJECT_DIR/lib/libjbigi.so
    [[ -f $lib ]] || die "make finished but lib/libjbigi.so is missing"
    say "ldd lib/libjbigi.so:"
    ldd "$lib" | sed 's/^[[:space:]]*/    /'
    local symbols java others
    symbols=$(nm -D --defined-only "$lib" | awk '{ print $NF }')
    java=$(grep -c '^Java_' <<<"$symbols" || true)
    others=$(grep -v -e '^Java_' -e '^$' <<<"$symbols" | paste -sd' ' - || true)
    say "nm -D --defined-only: $java Java_* symbols; other exports: ${others:-none}"
    if [[ $mode != dynamic ]] && ldd "$lib" | grep -q libgmp; then
        warn "lib/libjbigi.so depends on a shared libgmp although GMP should be linked in"
    fi
    if grep -q '__gmp' <<<"$symbols"; then
        warn "lib/libjbigi.so exports GMP symbols; they should be hidden"
    fi
}

build_jbigi() {
    local mode=$1 make_gmp=$2 linked_with=$3
    [[ -f $PROJECT_DIR/Makefile ]] || die "no Makefile in $PROJECT_DIR"
    force_relink_if_changed "$linked_with"
    say "make GMP=$make_gmp"
    make -C "$PROJECT_DIR" GMP="$make_gmp"
    record_link "$linked_with"
    report_library "$mode"
}

# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

main() {
    local mode=static gmp_only=0
    case ${1:-} in
        -h | --help) usage; exit 0 ;;
        --gmp-only)
            gmp_only=1
            mode=${2:-}
            [[ $mode == static || $mode == fat ]] || { usage >&2; exit 2; }
            [[ $# -le 2 ]] || { usage >&2; exit 2; }
            ;;
        "" | static | dynamic | fat)
            mode=${1:-static}
            [[ $# -le 1 ]] || { usage >&2; exit 2; }
            ;;
        *) printf 'build.sh: unknown argument: %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac

    check_c_compiler
    check_make
    if [[ $mode != dynamic ]]; then
        check_m4
    fi
    if [[ $gmp_only == 1 ]]; then
        ensure_gmp "$mode"
        return 0
    fi
    check_java

    case $mode in
        static | fat)
            ensure_gmp "$mode"
            build_jbigi "$mode" "$mode" "$mode $(readlink "$BUILD_DIR/gmp-$mode")"
            ;;
        dynamic)
            check_system_gmp
            build_jbigi dynamic system "dynamic system"
            ;;
    esac
}

main "$@"
