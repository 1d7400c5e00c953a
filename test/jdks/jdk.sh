# Where a JDK of a given feature version is (sourced, POSIX sh): one fetched
# by test/jdks/fetch-jdks.sh into build/jdks/java-N, else Debian's own
# installed package of it.
# shellcheck shell=sh

# Prints the java launcher of JDK $1, or nothing and status 1.
jdk_java() { # version
    for jdk_home in "$PWD/build/jdks/java-$1" "/usr/lib/jvm/java-$1-openjdk-amd64"; do
        if [ -x "$jdk_home/bin/java" ]; then
            printf '%s\n' "$jdk_home/bin/java"
            return 0
        fi
    done
    return 1
}
