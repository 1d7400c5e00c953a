#!/bin/sh
# Puts Debian 12's armhf OpenJDK 17 (the runtime and the libraries it needs)
# under build/armhf-jvm/root, unpacked with dpkg -x, for test/emulated/run.sh
# to run under qemu-arm -L.  The packages come from Debian's archive through
# a private apt list (the machine's apt state and architectures are not
# touched), signed as apt checks them.  Needs apt-get and network access to
# the Debian mirror; does nothing if the JVM is already there.
set -eu
cd "$(dirname "$0")/../.."
dir=$PWD/build/armhf-jvm
java=$dir/root/usr/lib/jvm/java-17-openjdk-armhf/bin/java
[ -x "$java" ] && { echo "armhf JVM already in $dir/root"; exit 0; }
mirror=${DEBIAN_MIRROR:-http://deb.debian.org}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
rm -rf "$dir"
mkdir -p "$dir/apt/lists/partial" "$dir/debs" "$dir/root"
{
    echo "deb [arch=armhf signed-by=$keyring] $mirror/debian bookworm main"
    echo "deb [arch=armhf signed-by=$keyring] $mirror/debian-security bookworm-security main"
} >"$dir/apt/sources.list"
set -- -o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
    -o "Dir::State::Lists=$dir/apt/lists" -o Dir::State::status=/dev/null \
    -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= \
    -o APT::Architecture=armhf -o APT::Architectures::=armhf
apt-get "$@" update >"$dir/apt.log" 2>&1 || { tail -n 5 "$dir/apt.log"; exit 1; }
# apt's downloader runs as _apt where that user exists.
if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$dir/debs"; fi
(cd "$dir/debs" && apt-get "$@" download openjdk-17-jre-headless libc6 zlib1g libstdc++6 libgcc-s1) \
    >>"$dir/apt.log" 2>&1 || { tail -n 5 "$dir/apt.log"; exit 1; }
for deb in "$dir"/debs/*.deb; do
    dpkg -x "$deb" "$dir/root"
done
[ -x "$java" ] || { echo "no $java after unpacking" >&2; exit 1; }
echo "armhf JVM in $dir/root: $(ls "$dir/debs" | tr '\n' ' ')"
