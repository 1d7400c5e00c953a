/*
 * report.h - counted checks, printed as test/lib.sh prints them: "ok - ",
 * "not ok - " or "skip - " and a description, one line each, and at the
 * end exactly one "N passed, N failed, N skipped" line, which test/lib.sh
 * and make test read.
 */
#ifndef JNI_HARNESS_REPORT_H
#define JNI_HARNESS_REPORT_H

#include "format_check.h"

void report_ok(const char *format, ...) HARNESS_PRINTF(1, 2);
void report_fail(const char *format, ...) HARNESS_PRINTF(1, 2);
void report_skip(const char *format, ...) HARNESS_PRINTF(1, 2);

/* A line of detail under a check ("# " and the text), e.g. a failing case. */
void report_note(const char *format, ...) HARNESS_PRINTF(1, 2);

/* ok or not ok, as passed says. */
void report_check(int passed, const char *format, ...) HARNESS_PRINTF(2, 3);

unsigned long report_failed(void);

/* Prints the summary line; the process' exit status (non-zero if any
 * check failed). */
int report_summary(void);

/*
 * A check made of many cases (a file of vectors, a batch of random
 * operands): each failing case is noted, the first REPORT_CASE_NOTES of
 * them in full, and the whole prints one line when it ends.
 */
#define REPORT_CASE_NOTES 10

struct report_batch {
    unsigned long cases, failures;
};

void report_case(struct report_batch *b, int passed, const char *format, ...) HARNESS_PRINTF(3, 4);

/* Ends the batch as one check named what ("N cases" appended). */
void report_batch_end(struct report_batch *b, const char *format, ...) HARNESS_PRINTF(2, 3);

#endif
