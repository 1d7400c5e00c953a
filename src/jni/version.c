/* version.c - parse "major.minor[.patch]" without sscanf's overflow UB. */
#include "jni/version.h"

#include <limits.h>

int jbigi_gmp_version_part(const char *version, int index)
{
    const char *p = version;
    /* Skip to the start of the wanted part. */
    for (int part = 0; part < index; part++) {
        while (*p != '\0' && *p != '.')
            p++;
        if (*p == '\0')
            return 0;
        p++;
    }
    int value = 0;
    if (*p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        int digit = *p - '0';
        if (value > (INT_MAX - digit) / 10)
            return -1;
        value = value * 10 + digit;
    }
    return value;
}
