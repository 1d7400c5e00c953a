#!/bin/sh
# Puts Debian 12's OpenJDK 17 for an ARM architecture (armhf or arm64: the
# runtime and the libraries it needs) under build/<arch>-jvm/root, unpacked
# with dpkg -x, for test/emulated/run.sh to run under qemu-arm or
# qemu-aarch64 with -L.  The packages come from Debian's archive through a
# private apt list (the machine's apt state and architectures are not
# touched), signed as apt checks them.  Needs apt-get and the Debian mirror;
# does nothing for an architecture whose JVM is already there.
#   sh test/emulated/fetch-arm-jvm.sh [armhf] [arm64]    (default: both)
set -eu
cd "$(dirname "$0")/../.."
mirror=${DEBIAN_MIRROR:-http://deb.debian.org}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ $# -gt 0 ] || set -- armhf arm64
for arch in "$@"; do
    dir=$PWD/build/$arch-jvm
    java=$dir/root/usr/lib/jvm/java-17-openjdk-$arch/bin/java
    if [ -x "$java" ]; then
        echo "$arch JVM already in $dir/root"
        continue
    fi
    rm -rf "$dir"
    mkdir -p "$dir/apt/lists/partial" "$dir/debs" "$dir/root"
    {
        echo "deb [arch=$arch signed-by=$keyring] $mirror/debian bookworm main"
        echo "deb [arch=$arch signed-by=$keyring] $mirror/debian-security bookworm-security main"
    } >"$dir/apt/sources.list"
    apt_opts="-o Dir::Etc::SourceList=$dir/apt/sources.list -o Dir::Etc::SourceParts=/nonexistent
        -o Dir::State::Lists=$dir/apt/lists -o Dir::State::status=/dev/null
        -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
        -o APT::Architecture=$arch -o APT::Architectures::=$arch"
    # shellcheck disable=SC2086 # apt_opts is a list of options
    apt-get $apt_opts update >"$dir/apt.log" 2>&1 || { tail -n 5 "$dir/apt.log"; exit 1; }
    # apt's downloader runs as _apt where that user exists.
    if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$dir/debs"; fi
    # shellcheck disable=SC2086
    (cd "$dir/debs" && apt-get $apt_opts download openjdk-17-jre-headless libc6 zlib1g libstdc++6 libgcc-s1) \
        >>"$dir/apt.log" 2>&1 || { tail -n 5 "$dir/apt.log"; exit 1; }
    for deb in "$dir"/debs/*.deb; do
        dpkg -x "$deb" "$dir/root"
    done
    [ -x "$java" ] || { echo "no $java after unpacking" >&2; exit 1; }
    echo "$arch JVM in $dir/root: $(ls "$dir/debs" | tr '\n' ' ')"
done
