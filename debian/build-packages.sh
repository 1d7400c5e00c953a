#!/bin/sh
# debian/build-packages.sh OUT ARCH... - jbigi's source package and its
# binary packages for each ARCH (amd64, arm64, armhf; another than this
# machine's is cross-built) into OUT.  Called by make deb.
#
# The package is built in build/deb-tree/jbigi-<version>/ (JBIGI_DEB_TREE
# names another folder than build/deb-tree: the tests build it twice, in two
# places, to compare the bytes): this project's
# files (git's list in a checkout, else every file but build/ and lib/)
# and, as gmp-src/, the GMP source build.sh verified
# (build/gmp-src-<version>, Debian's gmp source package).  Nothing is
# fetched during the build.  JBIGI_GMP_CACHE=DIR: debian/rules may reuse
# DIR's GMP builds where build.sh's cache says they are the same
# configuration (the tests do, to stay short); unset, GMP is built from
# gmp-src/ for each architecture.
set -eu
cd "$(dirname "$0")/.."
die() { echo "debian/build-packages.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: $0 OUT ARCH..."
out=$1
shift
version=$(cat VERSION)
deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
[ "$deb_version" = "$version" ] ||
    die "debian/changelog's version is $deb_version, VERSION says $version: add a debian/changelog entry (dch -v $version)"
gmp_version=$(sed -n 's/^readonly GMP_VERSION=//p' build.sh)
gmp_src=build/gmp-src-$gmp_version
[ -f "$gmp_src/.jbigi-verified" ] || die "no verified GMP source in $gmp_src: run ./build.sh first"
[ -f "$gmp_src/debian/changelog" ] ||
    die "$gmp_src is not Debian's gmp source package ($(cat "$gmp_src/.jbigi-verified")): the package names it in Built-Using"

top=${JBIGI_DEB_TREE:-build/deb-tree}
tree=$top/jbigi-$version
rm -rf "$top"
mkdir -p "$tree" "$out"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$tree"
else
    tar --exclude=./build --exclude=./lib --exclude=./.git -cf - . | tar -xf - -C "$tree"
fi
cp -a "$gmp_src/." "$tree/gmp-src/"
# quilt's record of the Debian patches dpkg-source applied: not source.
rm -rf "$tree/gmp-src/.pc"

first=1
for arch in "$@"; do
    what=any
    # The source package once, with the first architecture.
    [ $first -eq 1 ] && what=source,any
    first=0
    echo "debian/build-packages.sh: building $what for $arch"
    # The compiler for the architecture, as dpkg-architecture expects it.
    cc=cc
    [ "$arch" = "$(dpkg --print-architecture)" ] || cc=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)-gcc
    (cd "$tree" && CC=$cc dpkg-buildpackage --build=$what --host-arch="$arch" -Jauto -us -uc -ui) >"$top/build-$arch.log" 2>&1 || {
        tail -n 40 "$top/build-$arch.log" >&2
        die "dpkg-buildpackage for $arch failed (log: $top/build-$arch.log)"
    }
done
for f in "$top"/*.deb "$top"/*.dsc "$top"/*.tar.* "$top"/*.buildinfo "$top"/*.changes; do
    [ -e "$f" ] && mv "$f" "$out/"
done
ls -l "$out"
