#!/bin/sh
# test/check-paths.sh - every path the sources and docs name exists.
#
# A file moved or renamed leaves its old path behind in comments and prose;
# this check finds them.  Files read: everything under src/, java/ and doc/
# (src/cpu/variants.tsv among them), README.md, test/README.md, the test
# scripts and test sources (test/**/*.sh, *.c, *.h, *.java), the Makefile
# and build.sh; not this script, whose header shows placeholders.
#
# What counts as a path: a word that starts with one of the repository's
# top-level folders followed by a slash (src/, java/, test/, doc/, include/,
# .ci/), in backquotes or bare, not preceded by a letter, digit, '_', '.',
# '-' or '/' (so build/test/... or a URL is not read as test/...).  It ends
# at the first character outside [A-Za-z0-9_.*<>{},/+-].  Generated outputs
# (build/..., lib/...) start with no tracked folder and are not checked.
#
# Placeholders, and how each is matched against the tree:
#   <word>      any non-empty name within one path component
#               (src/engines/<name>/, build/gmp-6.2.1-<cpu>/)
#   *           any text within one component (test/c/test_*.c)
#   **          any text, across components (test/java/**/*Test.java)
#   {a,b}       either alternative (src/jni/onload.{c,h})
#   ...         at the end: anything below (src/engines/...)
#   $v ${v} $(v)  a shell or make variable: any text, like *
# Trailing '.', ',' and ':' are punctuation, not part of the path; a ','
# or '}' outside braces ends the path.  A trailing '/' asks for a folder.
# java/lang/, java/io/, java/util/, java/math/, java/nio/ and
# java/security/ name the Java platform's classes (JNI class names such as
# java/lang/ArithmeticException), not files of the tree: not checked.
#
# A path exists if a file of the tree (git ls-files, untracked files not
# ignored included; without git, the files on disk outside build/, lib/) is
# it or lies below it.  One ok/not ok line per file
# read; each missing path is named with its line.  Ends with
# "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1

# Outside a git checkout (an unpacked source tarball), the files on disk
# less the generated folders.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    tree=$(git ls-files --cached --others --exclude-standard)
else
    tree=$(find . \( -path ./build -o -path ./lib -o -path ./.git \) -prune -o -type f -print | sed 's|^\./||')
fi
if [ -z "$tree" ]; then
    echo "not ok - no file of the tree found"
    echo "0 passed, 1 failed"
    exit 1
fi
files=$(printf '%s\n' "$tree" | grep -E '^(src|java|doc)/|^(README\.md|test/README\.md|Makefile|build\.sh)$|^test/.*\.(sh|c|h|java)$' | grep -v '^test/check-paths\.sh$')

# shellcheck disable=SC2086 # the file list is meant to split
printf '%s\n' "$tree" | awk -v list="$(printf '%s\n' $files)" '
function regex_of(p,    r, c, i, n, out, tail) {
    out = ""
    n = length(p)
    if (p ~ /\.\.\.$/) { p = substr(p, 1, n - 3); n -= 3; tail = ".*" } else tail = ""
    for (i = 1; i <= n; i++) {
        c = substr(p, i, 1)
        if (c == "<") {
            r = index(substr(p, i), ">")
            if (r > 0) { out = out "[^/]+"; i += r - 1; continue }
            out = out "<"
        } else if (c == "*" && substr(p, i + 1, 1) == "*") { out = out ".*"; i++ }
        else if (c == "*") out = out "[^/]*"
        else if (c == "{") out = out "("
        else if (c == "}") out = out ")"
        else if (c == "," ) out = out "|"
        else if (c ~ /[.+]/) out = out "\\" c
        else out = out c
    }
    return out tail
}
function exists(p,    re, dir, f) {
    if (p in known) return known[p]
    dir = (p ~ /\/$/)
    re = regex_of(p)
    if (dir) re = "^" re
    else re = "^(" re ")(/|$)"
    known[p] = 0
    for (f in tracked) if (f ~ re) { known[p] = 1; break }
    return known[p]
}
function trim(t,    i, c, depth, n) {
    # a comma or closing brace outside braces ends the path
    depth = 0; n = length(t)
    for (i = 1; i <= n; i++) {
        c = substr(t, i, 1)
        if (c == "{") depth++
        else if (c == "}") { if (depth == 0) { t = substr(t, 1, i - 1); break } depth-- }
        else if (c == "," && depth == 0) { t = substr(t, 1, i - 1); break }
    }
    if (t !~ /\.\.\.$/) while (t ~ /[.,:]$/) t = substr(t, 1, length(t) - 1)
    return t
}
{ tracked[$0] = 1 }
END {
    nf = split(list, names, "\n")
    pass = 0; fail = 0
    for (k = 1; k <= nf; k++) {
        file = names[k]
        if (file == "") continue
        bad = ""; count = 0; ln = 0
        while ((getline line < file) > 0) {
            ln++
            gsub(/\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*/, "*", line)
            rest = " " line
            while (match(rest, /[^A-Za-z0-9_.\/-](src|java|test|doc|include|\.ci)\/[A-Za-z0-9_.*<>{},\/+-]*/)) {
                tok = trim(substr(rest, RSTART + 1, RLENGTH - 1))
                rest = substr(rest, RSTART + RLENGTH)
                if (tok ~ /^java\/(lang|io|util|math|nio|security)(\/|$)/) continue
                count++
                if (!exists(tok)) bad = bad sprintf("\n#   %s:%d names %s", file, ln, tok)
            }
        }
        close(file)
        if (bad == "") { pass++; printf "ok - %s (%d paths)\n", file, count }
        else { fail++; printf "not ok - %s names paths that do not exist:%s\n", file, bad }
    }
    printf "%d passed, %d failed\n", pass, fail
    exit fail > 0
}'
