#!/bin/sh
# src/release/source-tree.sh DEST [GMP-DIR]: this project's source as a
# release carries it, copied into the new folder DEST: the files git tracks
# (as they are in the working tree), or outside a git checkout (a release's
# source tarball) every file but build/ and lib/; then the file
# SOURCE_DATE_EPOCH, which builds without git read, and with GMP-DIR, Debian's
# GMP source package from it in gmp-source/ (build.sh builds from there).
# Used by src/release/assemble.sh and test/release/repro.sh.
set -eu
: "${SOURCE_DATE_EPOCH:?SOURCE_DATE_EPOCH must be set}"
dest=$1
gmp=${2:-}
cd "$(dirname "$0")/../.."
rm -rf "$dest"
mkdir -p "$dest"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -e .git ]; then
    git ls-files -z
else
    find . \( -path ./build -o -path ./lib \) -prune -o \( -type f -o -type l \) -print0 | sed -z 's#^\./##'
fi | tar --null -T - -cf - | tar -xf - -C "$dest"
printf '%s\n' "$SOURCE_DATE_EPOCH" >"$dest/SOURCE_DATE_EPOCH"
if [ -n "$gmp" ]; then
    mkdir -p "$dest/gmp-source"
    cp "$gmp"/gmp_*.dsc "$gmp"/gmp_*.orig.tar.xz "$gmp"/gmp_*.debian.tar.xz "$dest/gmp-source/"
fi
