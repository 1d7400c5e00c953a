#!/bin/sh
# The rules that hold src/'s layers apart (doc/architecture.md), checked on
# the sources' #include lines and the names they use:
#
#  1. no file in src/engines/ includes a header of src/core/ or src/jni/
#     (the engines sit below the core that calls them);
#  2. no engine folder (src/engines/<name>/) includes another engine's
#     folder, and the shared drivers' files beside them include none;
#  3. no engine folder names a function or variable defined in another
#     engine's folder (what engines share lives beside the drivers);
#  4. no engine folder calls a function of registry.c that engine.h does
#     not declare (engines need only the interface);
#  5. src/support/ includes only itself and src/platform/; src/platform/
#     only itself;
#  6. what the CPU is, is read in one place: no file outside src/cpu/
#     executes CPUID or XGETBV, src/cpu/ includes only itself (it runs
#     before the CPU check, compiled for the baseline), and the engines and
#     the registry ask the CPU facts (cpu_facts.h), not the check by name.
#
# Called by test/run-tests.sh (make test); prints an ok / not ok line per
# rule and ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0

# $1: what the rule says, $2: the offending lines (none: the rule holds).
report() {
    offending=$(printf '%s\n' "$2" | sed '/^[[:space:]]*$/d')
    if [ -z "$offending" ]; then
        echo "ok - $1"
        passed=$((passed + 1))
    else
        echo "not ok - $1"
        printf '%s\n' "$offending" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

# The project's own #include lines of the files under $1 (recursively).
includes_under() {
    grep -rn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1" 2>/dev/null
}

# Names defined with external linkage in the .c files of $@: functions and
# variables at the start of a line, not static, not a declaration.
defined_names() {
    cat "$@" 2>/dev/null |
        grep -E '^[A-Za-z_]' |
        grep -v -E '^(static|typedef|extern|struct [A-Za-z_]+ *\{|#)' |
        grep -E '^[A-Za-z_][A-Za-z0-9_ *]*[ *]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(\(|=|\[|;)' |
        sed -E 's/^[A-Za-z_][A-Za-z0-9_ *]*[ *]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(\(|=|\[|;).*/\1/' |
        sort -u
}

# 1. the engines include nothing of the core or the JNI layer
report "no file in src/engines/ includes src/core/ or src/jni/" \
    "$(includes_under src/engines | grep -E '"(core|jni)/')"

# 2. engine folders include no other engine's folder; the shared files none
bad=
for dir in src/engines/*/; do
    name=$(basename "$dir")
    bad="$bad$(includes_under "$dir" | grep -E '"engines/[^/"]+/' | grep -v -E "\"engines/$name/")
"
done
for f in src/engines/*.c src/engines/*.h; do
    [ "$f" = src/engines/registry.c ] && continue
    bad="$bad$(grep -n -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"engines/[^/"]+/' "$f")
"
done
report "no engine folder includes another's, the shared drivers include none" "$bad"

# 3. no engine names what another engine's folder defines
bad=
for dir in src/engines/*/; do
    name=$(basename "$dir")
    for other in src/engines/*/; do
        [ "$other" = "$dir" ] && continue
        for sym in $(defined_names "$other"*.c); do
            hits=$(grep -rn -w --include='*.c' --include='*.h' "$sym" "$dir")
            [ -n "$hits" ] && bad="$bad$(printf '%s\n' "$hits" | sed "s|\$| (defined in $(basename "$other"))|")
"
        done
    done
done
report "no engine folder names another engine's functions or data" "$bad"

# 4. no engine folder calls registry.c beyond engine.h
bad=
for sym in $(defined_names src/engines/registry.c); do
    grep -q -w "$sym" src/engines/engine.h && continue
    hits=$(grep -rn -w --include='*.c' --include='*.h' "$sym" src/engines/*/)
    [ -n "$hits" ] && bad="$bad$hits
"
done
report "no engine folder calls registry.c beyond engine.h" "$bad"

# 5. the bottom layers include nothing above them
if [ -d src/support ]; then
    report "src/support/ includes only src/support/ and src/platform/" \
        "$(includes_under src/support | grep -v -E '"(support|platform)/')"
else
    report "src/support/ exists (the helpers below core and engines)" "src/support/ is missing"
fi
report "src/platform/ includes only src/platform/" \
    "$(includes_under src/platform | grep -v -E '"platform/')"

# 6. one reading of the CPU
report "no file outside src/cpu/ executes CPUID or XGETBV" \
    "$(grep -rn -E '<cpuid\.h>|__get_cpuid|__cpuid|xgetbv|0x0f, *0x01, *0xd0' src --include='*.c' --include='*.h' |
        grep -v '^src/cpu/')"
report "src/cpu/ includes only src/cpu/" \
    "$(includes_under src/cpu | grep -v -E '"cpu/')"
report "src/engines/ asks the CPU facts (cpu_facts.h), not the check by name (cpu_check.h)" \
    "$(includes_under src/engines | grep -E '"cpu/cpu_check\.h"')
$(grep -rn -w -E 'jbigi_cpu_has|jbigi_cpu_vendor' src/engines)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
