# Sourced by build.sh (bash): GMP's source as Debian 12 ships it, the one
# route a release takes.  Debian's source package "gmp" is three files: the
# .dsc, the .orig tarball (GMP's release less its manual) and the
# .debian.tar.xz with Debian's patches (debian/patches/series).  Each is
# pinned here by its SHA-256; the release's source tarball carries all three
# in gmp-source/, and a tree that has them builds GMP without a network.
# shellcheck shell=bash

readonly DEBIAN_DSC=gmp_6.2.1+dfsg1-1.1.dsc
readonly DEBIAN_DSC_SHA256=2831ed4f83bc3304c2403474b335652ab2dc507cd517de44414d9142171748f0
readonly DEBIAN_DIFF=gmp_6.2.1+dfsg1-1.1.debian.tar.xz
readonly DEBIAN_DIFF_SHA256=4e3e324d72fe688e409c716d33b35aa8657f6016cc1aabd5d9c7ec137412e5ef
# Where the three files are looked for: the source tarball's folder, then
# the one a download fills (build/gmp-source).
readonly BUNDLED_GMP=$PROJECT_DIR/gmp-source
readonly FETCHED_GMP=$BUILD_DIR/gmp-source

# debian_files_ok DIR: DIR holds the three files, each matching its pin.
debian_files_ok() {
    local pair
    for pair in "$DEBIAN_DSC:$DEBIAN_DSC_SHA256" "$DEBIAN_ORIG:$DEBIAN_ORIG_SHA256" "$DEBIAN_DIFF:$DEBIAN_DIFF_SHA256"; do
        [[ -f $1/${pair%%:*} && $(sha256_of "$1/${pair%%:*}") == "${pair#*:}" ]] || return 1
    done
}

# The folder holding the pinned files, bundled first; nothing if neither has them.
debian_source_dir() {
    local dir
    for dir in "$BUNDLED_GMP" "$FETCHED_GMP"; do
        if debian_files_ok "$dir"; then
            printf '%s\n' "$dir"
            return 0
        fi
        [[ ! -e $dir/$DEBIAN_DSC ]] || die "$dir: a file differs from its pinned SHA-256 (src/release/gmp-debian.sh)"
    done
    return 1
}

# Unpacks DIR's source package, Debian's patches applied, and adopts it.
# dpkg-source when it is installed (its signature check is left out: the
# pins above stand for it), else the same by tar and patch.
unpack_debian_source() {
    local dir=$1 tree patch
    scratch_dir
    tree=$SCRATCH/gmp
    if command -v dpkg-source >/dev/null; then
        dpkg-source --no-check -x "$dir/$DEBIAN_DSC" "$tree" >"$SCRATCH/unpack.log" 2>&1 ||
            { cat "$SCRATCH/unpack.log" >&2; die "dpkg-source -x $DEBIAN_DSC failed"; }
    else
        mkdir -p "$tree"
        tar -xf "$dir/$DEBIAN_ORIG" -C "$tree" --strip-components=1 && tar -xf "$dir/$DEBIAN_DIFF" -C "$tree" ||
            die "cannot unpack $DEBIAN_ORIG and $DEBIAN_DIFF"
        while read -r patch _; do
            [[ -z $patch || $patch == \#* ]] && continue
            patch -s -p1 -d "$tree" <"$tree/debian/patches/$patch" || die "Debian's $patch did not apply"
        done <"$tree/debian/patches/series"
    fi
    adopt_source "$tree" "$DEBIAN_DSC, $DEBIAN_ORIG sha256 $DEBIAN_ORIG_SHA256"
}

# A release's GMP is Debian's only: the builds under build/ were made from
# its source (build/gmp-src's note says so), and its three files are at hand
# for the release's source tarball (downloaded to build/gmp-source if not).
release_gmp_source() {
    obtain_gmp_source
    local proof
    proof=$(<"$GMP_SRC/.jbigi-verified")
    [[ $proof == "$DEBIAN_DSC, $DEBIAN_ORIG sha256 $DEBIAN_ORIG_SHA256" ]] ||
        die "build/gmp-src-$GMP_VERSION came from $proof, not $DEBIAN_DSC: a release takes Debian's (move build/ away and build again)"
    debian_source_dir >/dev/null || fetch_debian_source ||
        die "$DEBIAN_DSC, $DEBIAN_ORIG and $DEBIAN_DIFF are needed in gmp-source/ or build/gmp-source/"
}
