#!/bin/sh
# test/check-doc-pointers.sh - every section of doc/measurements.md that a
# source points to exists.
#
# Sources state what and why; measured figures live in doc/measurements.md,
# under "## " and "### " headings (dated, the CPU named).  A comment that
# needs a figure points at one section, on one line, by its exact heading:
#
#     doc/measurements.md: "<exact heading text>"
#
# A heading renamed or removed leaves such a pointer dangling; this check
# finds it.  Files read: the C sources and headers, assembly (.S), Java and
# shell scripts under src/, java/ and test/, the Makefile and build.sh; not
# this script, whose header shows a placeholder.  What fails:
#
#   - a pointer whose heading is not a "## " or "### " line of
#     doc/measurements.md (the text between the quotes, compared exactly);
#   - a pointer whose closing quote is not on its line (split across lines);
#   - a line that names doc/engines.md beside a figure or a claim of one
#     (figure, measured, tried, cycles, ticks, a percentage, a time in us or
#     ns, a ratio "0.91 of" or "1.5 times", faster, slower): doc/engines.md
#     is the design, and keeps no figures;
#   - two headings of doc/measurements.md with the same text (a pointer
#     would not say which).
#
# One ok/not ok line per pointer and per check of the headings; each failure
# named with its file and line.  Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1

doc=doc/measurements.md
if [ ! -f "$doc" ]; then
    echo "not ok - $doc is missing"
    echo "0 passed, 1 failed"
    exit 1
fi

# The tree's files (git ls-files, untracked files not ignored included;
# without git, the files on disk outside build/ and lib/).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    tree=$(git ls-files --cached --others --exclude-standard)
else
    tree=$(find . \( -path ./build -o -path ./lib -o -path ./.git \) -prune -o -type f -print | sed 's|^\./||')
fi
files=$(printf '%s\n' "$tree" | grep -E '^(src|java|test)/.*\.(c|h|S|java|sh)$|^(Makefile|build\.sh)$' |
    grep -Fvx 'test/check-doc-pointers.sh')

# shellcheck disable=SC2086 # the file list is meant to split
awk -v doc="$doc" '
BEGIN {
    pass = 0; fail = 0
    while ((getline line < doc) > 0) {
        if (line !~ /^###? /) continue
        h = line
        sub(/^###? /, "", h)
        sub(/[ \t]+$/, "", h)
        count[h]++
    }
    close(doc)
    dup = ""
    for (h in count) if (count[h] > 1) dup = dup sprintf("\n#   \"%s\" (%d times)", h, count[h])
    if (dup == "") { pass++; print "ok - the headings of " doc " are distinct" }
    else { fail++; print "not ok - headings of " doc " that appear more than once:" dup }
    marker = "doc/measurements.md: \""
    claim = "figure|[Mm]easur|tried|cycles|ticks|[0-9]%|[0-9] ?(us|ns|µs)([^A-Za-z]|$)|[0-9]\\.[0-9]+ (of|times)|faster|slower"
}
{
    line = $0
    rest = line
    while ((i = index(rest, marker)) > 0) {
        rest = substr(rest, i + length(marker))
        j = index(rest, "\"")
        if (j == 0) {
            fail++
            printf "not ok - %s:%d: a pointer whose heading does not end on its line\n", FILENAME, FNR
            break
        }
        h = substr(rest, 1, j - 1)
        rest = substr(rest, j + 1)
        if (h in count) { pass++; printf "ok - %s:%d -> \"%s\"\n", FILENAME, FNR, h }
        else {
            fail++
            printf "not ok - %s:%d points to \"%s\", which is no heading of %s\n", FILENAME, FNR, h, doc
        }
    }
    if (index(line, "doc/engines.md") > 0 && line ~ claim) {
        fail++
        printf "not ok - %s:%d names doc/engines.md beside a figure (figures live in %s):\n#   %s\n", FILENAME, FNR, doc, line
    }
}
END {
    printf "%d passed, %d failed\n", pass, fail
    exit fail > 0
}' $files
