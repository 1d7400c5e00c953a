# test/bench/c-bench.sh - what the C benchmarks' scripts share (sourced by
# run-ifma-bench.sh, run-p25519-bench.sh, run-jacobi-bench.sh and
# run-mont-chain.sh, from the repository's root): the GMP to link and the
# build of one benchmark program.
#
# GMP_PREFIX: the GMP to link (default build/gmp-static, the one a static
# build links; the system GMP when that is missing or GMP_PREFIX is set
# empty).  CC: the compiler (default cc).
# shellcheck shell=sh

# c_bench NAME SOURCES [--build-only | ARGS...]: builds build/bench/NAME
# from SOURCES (one word list: the benchmark and the library's sources or
# objects it needs), then stops with --build-only (how
# test/bench/check-build.sh keeps it compiling), else runs it with ARGS in
# this process's place.
c_bench() {
    c_bench_name=$1
    c_bench_sources=$2
    shift 2
    c_bench_build_only=false
    if [ "${1:-}" = --build-only ]; then
        c_bench_build_only=true
        shift
    fi
    c_bench_prefix=${GMP_PREFIX-build/gmp-static}
    if [ -n "$c_bench_prefix" ] && [ -r "$c_bench_prefix/lib/libgmp.a" ]; then
        c_bench_gmp_cflags="-I$c_bench_prefix/include"
        c_bench_gmp_libs="$c_bench_prefix/lib/libgmp.a"
    else
        [ -z "$c_bench_prefix" ] || echo "# $c_bench_prefix/lib/libgmp.a not found: linking the system GMP" >&2
        c_bench_gmp_cflags=
        c_bench_gmp_libs=-lgmp
    fi
    mkdir -p build/bench
    # shellcheck disable=SC2086 # lists of files and flags
    ${CC:-cc} -O2 -std=c11 -Wall -Wextra -Werror $c_bench_gmp_cflags -Isrc -o "build/bench/$c_bench_name" \
        $c_bench_sources $c_bench_gmp_libs
    $c_bench_build_only && exit 0
    exec "build/bench/$c_bench_name" "$@"
}
