/* cli.c: shared command-line habits. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

const char *nbc_prog = "navbake";

int nbc_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", nbc_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return NBC_EXIT_FAIL;
}

int nbc_fail_err(const nb_err *err)
{
    return nbc_fail("%s", err->msg[0] ? err->msg : nb_status_str(err->code));
}

int nbc_usage(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", nbc_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", nbc_prog);
    return NBC_EXIT_USAGE;
}

int nbc_version(void)
{
    printf("%s (navbake) %s\nbundle format %d.%d\n", nbc_prog, NB_VERSION_STRING, NB_FORMAT_MAJOR,
           NB_FORMAT_MINOR);
    return NBC_EXIT_OK;
}

int nbc_uint(const char *opt, const char *text, unsigned long min, unsigned long max,
             unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end || errno || v < min || v > max) {
        nbc_usage("%s: '%s' is not a whole number from %lu to %lu", opt, text, min, max);
        return 0;
    }
    *out = v;
    return 1;
}

int nbc_neighbourhood(const char *text, unsigned long *out)
{
    if (!nbc_uint("--neighbourhood", text, 8, 48, out))
        return 0;
    if (*out != 8 && *out != 24 && *out != 48) {
        nbc_usage("--neighbourhood: %lu; expected 8, 24 or 48", *out);
        return 0;
    }
    return 1;
}

int nbc_real(const char *opt, const char *text, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v) || v < min || v > max) {
        nbc_usage("%s: '%s' is not a number from %g to %g", opt, text, min, max);
        return 0;
    }
    *out = v;
    return 1;
}

int nbc_point(const char *opt, const char *text, long *x, long *y)
{
    char *end;
    errno = 0;
    long a = strtol(text, &end, 10), b = -1;
    if (end != text && *end == ',' && text[0] >= '0' && text[0] <= '9' && end[1] >= '0' && end[1] <= '9') {
        const char *s = end + 1;
        b = strtol(s, &end, 10);
    } else {
        end = (char *)"x";
    }
    if (*end || errno || a < 0 || b < 0 || a > 0x7fffffffL || b > 0x7fffffffL) {
        nbc_usage("%s: '%s' is not a cell X,Y (two whole numbers)", opt, text);
        return 0;
    }
    *x = a;
    *y = b;
    return 1;
}

int nbc_format(const char *opt, const char *text, nbb_format *out)
{
    if (strcmp(text, "binary") == 0)
        *out = NBB_FORMAT_BINARY;
    else if (strcmp(text, "sqlite") == 0)
        *out = NBB_FORMAT_SQLITE;
    else if (strcmp(text, "auto") == 0)
        *out = NBB_FORMAT_AUTO;
    else {
        nbc_usage("%s: '%s' is not a bundle form (binary, sqlite or auto)", opt, text);
        return 0;
    }
    return 1;
}

void nbc_json_string_to(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            putc(c, f);
    }
    putc('"', f);
}

void nbc_json_string(const char *s) { nbc_json_string_to(stdout, s); }

int nbc_progress_ok(void) { return isatty(STDERR_FILENO); }

int nbc_close_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        nbc_fail("write error on standard output: %s", strerror(errno));
        return NBC_EXIT_FAIL;
    }
    return NBC_EXIT_OK;
}

double nbc_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}
