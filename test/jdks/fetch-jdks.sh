#!/bin/sh
# Puts Debian's OpenJDK 8, 11, 21, 25 and 26 for amd64 (the runtimes, headless)
# under build/jdks/, for test/jdks/run.sh.  Debian 12 has OpenJDK 17 only;
# the others come from the releases that have them:
#   8 and 26 from sid, 11 from Debian 11 (bullseye), 21 and 25 from Debian 13 (trixie).
# Each release's packages, with that release's C library, libstdc++, libgcc
# and zlib, are unpacked with dpkg -x under build/jdks/<release>/root.  A JDK
# built for a newer C library than this machine's cannot run on this
# machine's: so every ELF program of each JDK (java, and jspawnhelper, which
# the JDK execs to start processes) is set with patchelf to its release's
# dynamic loader, with its release's library directories first on its
# search path (DT_RPATH, which the libraries it loads without a search path
# of their own inherit).  Patched in place, the programs run directly, also
# when a test starts another JVM from java.home, and this machine's own
# programs are left alone (no LD_LIBRARY_PATH).  build/jdks/java-N is the
# home of JDK N.
#
# The packages come from Debian's archive through a private apt list (the
# machine's apt state is not touched), signed as apt checks them.  Needs
# apt-get, dpkg, patchelf and the Debian mirror; does nothing for a JDK
# already there.  Exits non-zero if any JDK is missing afterwards (run.sh
# then counts it as skipped).
#   sh test/jdks/fetch-jdks.sh [VERSION...]    (default: 8 11 21 25 26)
set -eu
cd "$(dirname "$0")/../.."
mirror=${DEBIAN_MIRROR:-http://deb.debian.org}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
top=$PWD/build/jdks
[ $# -gt 0 ] || set -- 8 11 21 25 26
command -v patchelf >/dev/null || { echo "patchelf not installed (apt-get install patchelf)" >&2; exit 1; }

# The Debian release a JDK comes from.
release_of() {
    case $1 in
        11) echo bullseye ;;
        21 | 25) echo trixie ;;
        *) echo sid ;;
    esac
}

# apt-get with release $1's private state.
apt_release() { # release apt-arguments...
    a_dir=$top/$1/apt
    shift
    apt-get -o Dir::Etc::SourceList="$a_dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
        -o Dir::State::Lists="$a_dir/lists" -o Dir::State::status=/dev/null \
        -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= \
        -o APT::Architecture=amd64 -o APT::Architectures::=amd64 "$@"
}

# Release $1's package lists and its C library, libstdc++, libgcc and zlib,
# unpacked, once.
prepare_release() { # release
    dir=$top/$1
    [ -f "$dir/base-unpacked" ] && return 0
    rm -rf "$dir"
    mkdir -p "$dir/apt/lists/partial" "$dir/debs" "$dir/root"
    {
        echo "deb [arch=amd64 signed-by=$keyring] $mirror/debian $1 main"
        # sid has no security suite; the stable releases' fixes come from theirs.
        [ "$1" = sid ] || echo "deb [arch=amd64 signed-by=$keyring] $mirror/debian-security $1-security main"
    } >"$dir/apt/sources.list"
    apt_release "$1" update >"$dir/apt.log" 2>&1 || { tail -n 5 "$dir/apt.log" >&2; return 1; }
    # apt's downloader runs as _apt where that user exists.
    if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$dir/debs"; fi
    (cd "$dir/debs" && apt_release "$1" download libc6 libstdc++6 libgcc-s1 zlib1g) \
        >>"$dir/apt.log" 2>&1 || { tail -n 5 "$dir/apt.log" >&2; return 1; }
    # Unpacked, the packages are not needed again (about 220 MB for all).
    for deb in "$dir"/debs/*.deb; do
        dpkg -x "$deb" "$dir/root" && rm -f "$deb"
    done
    touch "$dir/base-unpacked"
}

# Points an absolute symbolic link in a JDK (lib/jvm.cfg, the security
# files: Debian keeps them in /etc) to the same path under the release's root.
relink_into_root() { # root jdk-home
    find "$2" -type l | while read -r link; do
        target=$(readlink "$link")
        case $target in
            /*) ln -sfn "$1$target" "$link" ;;
        esac
    done
}

# Sets every ELF program of a JDK to its release's loader and libraries.
patch_programs() { # root jdk-home
    loader=$(find "$1" -name 'ld-linux-x86-64.so.2' \( -type f -o -type l \) | head -n 1)
    [ -n "$loader" ] || { echo "no dynamic loader under $1" >&2; return 1; }
    libs=""
    for d in lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu; do
        [ -d "$1/$d" ] && libs="$libs${libs:+:}$1/$d"
    done
    find "$2" -type f -perm -u+x | while read -r f; do
        # Programs have an interpreter; libraries and scripts do not.
        old=$(patchelf --print-interpreter "$f" 2>/dev/null) || continue
        [ "$old" = "$loader" ] && continue
        rpath=$(patchelf --print-rpath "$f")
        patchelf --set-interpreter "$loader" --force-rpath --set-rpath "$libs${rpath:+:}$rpath" "$f"
    done
}

runs() { "$1/bin/java" -version >/dev/null 2>&1; }

# A JDK that no longer runs (the paths patched in are absolute: build/ was
# moved) is set up anew, with its release; first, before any is fetched.
for version in "$@"; do
    home=$top/java-$version
    if [ -L "$home" ] && ! runs "$home"; then
        echo "JDK $version in $home does not run: Debian $(release_of "$version")'s packages are unpacked anew"
        rm -rf "${top:?}/$(release_of "$version")"
    fi
done

missing=""
for version in "$@"; do
    home=$top/java-$version
    release=$(release_of "$version")
    if runs "$home"; then
        echo "JDK $version already in $home"
        continue
    fi
    rm -f "$home"
    package=openjdk-$version-jre-headless
    if ! prepare_release "$release"; then
        echo "JDK $version: Debian $release's package lists or C library could not be fetched" >&2
        missing="$missing $version"
        continue
    fi
    dir=$top/$release
    if ! (cd "$dir/debs" && apt_release "$release" download "$package") >"$dir/download-$version.log" 2>&1; then
        tail -n 3 "$dir/download-$version.log" >&2
        echo "JDK $version: Debian $release has no $package" >&2
        missing="$missing $version"
        continue
    fi
    deb=$(basename "$dir"/debs/"$package"_*.deb)
    dpkg -x "$dir/debs/$deb" "$dir/root" && rm -f "$dir/debs/$deb"
    jvm=$dir/root/usr/lib/jvm/java-$version-openjdk-amd64
    # JDK 8's runtime is in jre/ (its bin/java, if any, is a link into it).
    [ -x "$jvm/jre/bin/java" ] && jvm=$jvm/jre
    relink_into_root "$dir/root" "$dir/root/usr/lib/jvm/java-$version-openjdk-amd64"
    if ! patch_programs "$dir/root" "$jvm" || ! "$jvm/bin/java" -version >"$dir/java-$version.version" 2>&1; then
        cat "$dir/java-$version.version" >&2 2>/dev/null || true
        echo "JDK $version from Debian $release does not run here" >&2
        missing="$missing $version"
        continue
    fi
    ln -sfn "$jvm" "$home"
    echo "JDK $version in $home: $deb ($(head -n 1 "$dir/java-$version.version"))"
done
[ -z "$missing" ] || { echo "not fetched:$missing" >&2; exit 1; }
