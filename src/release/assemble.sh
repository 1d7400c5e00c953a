#!/bin/sh
# src/release/assemble.sh files|finish: build/release/ from a finished dist
# (make release-files runs it: ./build.sh release has built every library
# and build/jbigi.jar).  The environment gives VERSION, SOURCE_DATE_EPOCH,
# JAVAC, JAR and CC.
#   files   jbigi-<version>.jar, jbigi-<version>-src.tar.gz, the release
#           notes (CHANGELOG.md's section for the version) and
#           jbigi-<version>.buildinfo
#   finish  (after the Debian packages) checks that no artifact holds the
#           build directory or the host name, then writes SHA256SUMS
# Every output depends only on the source, SOURCE_DATE_EPOCH and the
# toolchain the buildinfo names: no date, host, user or path of this machine.
set -eu
cd "$(dirname "$0")/../.."
# GMP's version (the build/gmp-<version>-<cpu> folders), named once in build.sh.
GMP_VERSION=$(sed -n 's/^readonly GMP_VERSION=//p' build.sh)
: "${VERSION:?}" "${SOURCE_DATE_EPOCH:?}"
name=jbigi-$VERSION
out=build/release
export LC_ALL=C TZ=UTC

say() { printf 'release: %s\n' "$*"; }
die() { printf 'release: error: %s\n' "$*" >&2; exit 1; }

# The rows the dist built, as dist-jar names them in the jar.
jar_rows() {
    unzip -Z1 "$out/$name.jar" | sed -n 's#^libjbigi-linux-\(.*\)\.so$#\1#p; s#^jbigi-windows-\(.*\)_64\.dll$#windows-\1#p' |
        sed 's#_64$##' | sort
}

# The Debian source package the GMP builds came from: the bundled one of a
# source tarball, else the one build.sh downloaded.
gmp_source_dir() {
    for d in gmp-source build/gmp-source; do
        if ls "$d"/gmp_*.dsc >/dev/null 2>&1; then echo "$d"; return 0; fi
    done
    die "no GMP source package in gmp-source/ or build/gmp-source/ (./build.sh release fetches it)"
}

# One line per tool: its version as it reports it.
tool_line() { # label command...
    label=$1
    shift
    v="not installed"
    ! command -v "$1" >/dev/null || v=$("$@" 2>&1 | head -n 1)
    printf ' %s: %s\n' "$label" "$v"
}

buildinfo() {
    gmp=$(gmp_source_dir)
    printf 'Format: jbigi-buildinfo 1\nSource: jbigi\nVersion: %s\nSource-Date-Epoch: %s\n' "$VERSION" "$SOURCE_DATE_EPOCH"
    printf 'Build-Architecture: %s\n' "$(dpkg --print-architecture 2>/dev/null || uname -m)"
    printf 'Artifacts-Built-On-Any-CPU: yes (every row of src/cpu/variants.tsv, no host detection)\n'
    printf 'GMP-Source:\n'
    (cd "$gmp" && sha256sum gmp_*.dsc gmp_*.orig.tar.xz gmp_*.debian.tar.xz) | sed 's/^/ /'
    printf 'GMP-Configure:\n'
    for row in $(jar_rows); do
        printf ' %s: %s\n' "$row" "$(cat "build/gmp-$GMP_VERSION-$row/install/jbigi-config")"
    done
    printf 'Toolchain:\n'
    tool_line cc "${CC:-cc}" --version
    tool_line x86_64-w64-mingw32-gcc x86_64-w64-mingw32-gcc --version
    tool_line aarch64-linux-gnu-gcc aarch64-linux-gnu-gcc --version
    tool_line arm-linux-gnueabihf-gcc arm-linux-gnueabihf-gcc --version
    tool_line ld ld --version
    tool_line x86_64-w64-mingw32-ld x86_64-w64-mingw32-ld --version
    tool_line javac "$JAVAC" -version
    tool_line strip-nondeterminism strip-nondeterminism --version
    tool_line tar tar --version
    tool_line gzip gzip --version
    if command -v dpkg-query >/dev/null; then
        printf 'Installed-Build-Depends:\n'
        dpkg-query -W -f='${binary:Package} (= ${Version})\n' binutils binutils-aarch64-linux-gnu \
            binutils-arm-linux-gnueabihf binutils-mingw-w64-x86-64 dpkg-dev gcc-12 gcc-12-aarch64-linux-gnu \
            gcc-12-arm-linux-gnueabihf gcc-mingw-w64-x86-64-win32 gzip libc6-dev libc6-dev-arm64-cross \
            libc6-dev-armhf-cross m4 make mingw-w64-x86-64-dev openjdk-17-jdk-headless strip-nondeterminism tar \
            2>/dev/null | sort | sed 's/^/ /'
    fi
}

files() {
    rm -rf "$out" build/release-src
    mkdir -p "$out"
    if [ -e .git ] && [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] &&
        [ "${JBIGI_RELEASE_DIRTY:-0}" != 1 ]; then
        die "uncommitted changes: a release is of a commit (JBIGI_RELEASE_DIRTY=1 to go on anyway)"
    fi
    cp build/jbigi.jar "$out/$name.jar"
    # Again, in case the jar was made under another SOURCE_DATE_EPOCH.
    strip-nondeterminism --type jar --timestamp "$SOURCE_DATE_EPOCH" "$out/$name.jar" >/dev/null
    [ "$(unzip -Z1 "$out/$name.jar" | head -n 1)" = META-INF/ ] || die "$name.jar: the manifest is not first"
    say "$name.jar: $(jar_rows | tr '\n' ' ')"

    # The source: sorted names, one time, owner 0/0, modes from the
    # executable bit alone, gzip without a name or time.
    src=build/release-src/$name
    sh src/release/source-tree.sh "$src" "$(gmp_source_dir)"
    tar -C build/release-src --sort=name --format=gnu --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 \
        --numeric-owner --mode='u+rw,go=rX' -cf - "$name" | gzip -n -9 >"$out/$name-src.tar.gz"
    rm -rf build/release-src
    say "$name-src.tar.gz: $(gzip -dc "$out/$name-src.tar.gz" | tar -tf - | grep -vc '/$') files"

    awk -v v="$VERSION" '/^## / { p = ($2 == v) } p' CHANGELOG.md >"$out/$name-release-notes.md"
    [ -s "$out/$name-release-notes.md" ] || die "CHANGELOG.md has no section '## $VERSION'"
    buildinfo >"$out/$name.buildinfo"
}

# The build directory (as given and resolved), the GMP source's, and the
# host name: none may appear in an artifact, compressed parts unpacked.
finish() {
    scan=build/release-scan
    rm -rf "$scan" && mkdir -p "$scan/jar" "$scan/src"
    (cd "$scan/jar" && unzip -q "../../../$out/$name.jar")
    gzip -dc "$out/$name-src.tar.gz" >"$scan/src.tar"
    for deb in "$out"/*.deb; do
        [ -f "$deb" ] || continue
        dpkg-deb --fsys-tarfile "$deb" >"$scan/$(basename "$deb").tar"
    done
    bad=
    for needle in "$PWD" "$(pwd -P)" "$(readlink -f build/gmp-src-$GMP_VERSION 2>/dev/null || echo "$PWD")" "$(hostname)"; do
        [ ${#needle} -ge 6 ] || continue
        hits=$(grep -rlF -- "$needle" "$scan" "$out" || true)
        [ -z "$hits" ] || bad="$bad$needle in: $hits
"
    done
    rm -rf "$scan"
    [ -z "$bad" ] || die "artifacts carry this machine's paths or name:
$bad"
    (cd "$out" && rm -f SHA256SUMS && find . -maxdepth 1 -type f ! -name SHA256SUMS | sed 's#^\./##' | sort |
        xargs sha256sum >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS)
    say "build/release/:"
    (cd "$out" && ls -l | sed 1d | awk '{ print "  " $5 "\t" $NF }')
}

case ${1:-} in
files) files ;;
finish) finish ;;
*) echo "usage: $0 files|finish" >&2; exit 2 ;;
esac
