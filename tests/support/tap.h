/* tap.h: a minimal Test Anything Protocol producer, so that automake's TAP
 * driver counts every assertion. */
#ifndef NB_TAP_H
#define NB_TAP_H

#include <stdarg.h>

#include "port.h"

#define TAP_PRINTF(f, a) NBP_PRINTF(f, a)

/* Each returns its condition, so a test can stop a dependent check. */
int tap_ok(int cond, const char *file, int line, const char *fmt, ...) TAP_PRINTF(4, 5);
int tap_is_int(long long got, long long want, const char *file, int line, const char *fmt, ...)
    TAP_PRINTF(5, 6);
int tap_is_str(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
    TAP_PRINTF(5, 6);
/* got contains want. */
int tap_like(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
    TAP_PRINTF(5, 6);
void diag(const char *fmt, ...) TAP_PRINTF(1, 2);
/* Skips the whole test program (prints "1..0 # SKIP why" and exits 0). */
void skip_all(const char *fmt, ...) TAP_PRINTF(1, 2);
/* Records n skipped tests. */
void skip(int n, const char *fmt, ...) TAP_PRINTF(2, 3);
/* Prints the plan; returns the exit status (0 when nothing failed). */
int done_testing(void);

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) tap_is_int((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)
#define like(got, want, ...) tap_like((got), (want), __FILE__, __LINE__, __VA_ARGS__)

#endif
