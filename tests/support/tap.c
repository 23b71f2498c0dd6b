/* tap.c: see tap.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

static int tests_run, tests_failed;

static int report(int cond, const char *file, int line, const char *fmt, va_list ap)
{
    tests_run++;
    printf("%sok %d - ", cond ? "" : "not ", tests_run);
    vprintf(fmt, ap);
    putchar('\n');
    if (!cond) {
        tests_failed++;
        printf("#   Failed at %s line %d\n", file, line);
    }
    fflush(stdout);
    return cond;
}

int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(cond, file, line, fmt, ap);
    va_end(ap);
    return cond;
}

int tap_is_int(long long got, long long want, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int cond = report(got == want, file, line, fmt, ap);
    va_end(ap);
    if (!cond)
        printf("#          got: %lld\n#     expected: %lld\n", got, want);
    return cond;
}

int tap_is_str(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int cond = report(got && want && strcmp(got, want) == 0, file, line, fmt, ap);
    va_end(ap);
    if (!cond)
        printf("#          got: '%s'\n#     expected: '%s'\n", got ? got : "(null)", want ? want : "(null)");
    return cond;
}

int tap_like(const char *got, const char *want, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int cond = report(got && want && strstr(got, want) != NULL, file, line, fmt, ap);
    va_end(ap);
    if (!cond)
        printf("#          got: '%s'\n#    expecting: '%s'\n", got ? got : "(null)", want ? want : "(null)");
    return cond;
}

void diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

void skip_all(const char *fmt, ...)
{
    va_list ap;
    printf("1..0 # SKIP ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    exit(0);
}

void skip(int n, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    for (int i = 0; i < n; i++)
        printf("ok %d # SKIP %s\n", ++tests_run, why);
}

int done_testing(void)
{
    printf("1..%d\n", tests_run);
    fflush(stdout);
    return tests_failed ? 1 : 0;
}
