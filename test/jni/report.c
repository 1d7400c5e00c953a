/*
 * report.c - counting and printing checks.  stdout is flushed after each
 * line, so a crash in the library leaves every line before it on record.
 */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>

static unsigned long passed, failed, skipped;

static void line(const char *prefix, const char *format, va_list args)
{
    fputs(prefix, stdout);
    vprintf(format, args);
    putchar('\n');
    fflush(stdout);
}

void report_ok(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    line("ok - ", format, args);
    va_end(args);
    passed++;
}

void report_fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    line("not ok - ", format, args);
    va_end(args);
    failed++;
}

void report_skip(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    line("skip - ", format, args);
    va_end(args);
    skipped++;
}

void report_note(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    line("# ", format, args);
    va_end(args);
}

void report_check(int ok, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    line(ok ? "ok - " : "not ok - ", format, args);
    va_end(args);
    if (ok)
        passed++;
    else
        failed++;
}

unsigned long report_failed(void)
{
    return failed;
}

int report_summary(void)
{
    printf("%lu passed, %lu failed, %lu skipped\n", passed, failed, skipped);
    fflush(stdout);
    return failed > 0 ? 1 : 0;
}

void report_case(struct report_batch *b, int ok, const char *format, ...)
{
    b->cases++;
    if (ok)
        return;
    if (++b->failures <= REPORT_CASE_NOTES) {
        va_list args;
        va_start(args, format);
        line("#   failed: ", format, args);
        va_end(args);
    }
}

void report_batch_end(struct report_batch *b, const char *format, ...)
{
    char what[512];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    if (b->cases == 0)
        report_fail("%s: no cases ran", what); /* a check that ran nothing must not look passed */
    else if (b->failures == 0)
        report_ok("%s: %lu cases", what, b->cases);
    else
        report_fail("%s: %lu of %lu cases wrong%s", what, b->failures, b->cases,
                    b->failures > REPORT_CASE_NOTES ? " (first ones above)" : " (above)");
    b->cases = b->failures = 0;
}
