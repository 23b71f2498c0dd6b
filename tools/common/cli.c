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

int nbc_bad_option(void)
{
    fprintf(stderr, "Try '%s --help' for more information.\n", nbc_prog);
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

int nbc_threads(const char *opt, const char *text, unsigned *out)
{
    unsigned long v;
    if (!nbc_uint(opt, text, 1, NBB_MAX_THREADS, &v))
        return 0;
    *out = (unsigned)v;
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

/* A whole number, signed, at s (a digit or a sign and a digit first): its
 * end in *end, or NULL when it is not one. */
static int whole(const char *s, long *v, char **end)
{
    const char *d = s + (*s == '-' || *s == '+');
    if (*d < '0' || *d > '9')
        return 0;
    errno = 0;
    *v = strtol(s, end, 10);
    return errno == 0 && *v >= -0x7fffffffL - 1 && *v <= 0x7fffffffL;
}

int nbc_point(const char *opt, const char *text, long *x, long *y)
{
    char *end = NULL;
    long a, b;
    /* Any two whole numbers: whether they name a cell of the map is
     * nbc_cell_on_map's to say, with the map's size. */
    if (!whole(text, &a, &end) || *end != ',' || !whole(end + 1, &b, &end) || *end) {
        nbc_usage("%s: '%s' is not a cell X,Y (two whole numbers)", opt, text);
        return 0;
    }
    *x = a;
    *y = b;
    return 1;
}

int nbc_cell_on_map(const char *opt, long x, long y, unsigned long w, unsigned long h)
{
    if (x >= 0 && y >= 0 && (unsigned long)x < w && (unsigned long)y < h)
        return 1;
    nbc_usage("%s %ld,%ld is outside the %lu x %lu map (cells 0,0 to %lu,%lu)", opt, x, y, w, h,
              w ? w - 1 : 0, h ? h - 1 : 0);
    return 0;
}

int nbc_real_point(const char *opt, const char *text, double xmin, double xmax, double ymin,
                   double ymax, double *x, double *y)
{
    char *end;
    errno = 0;
    double a = strtod(text, &end), b = NAN;
    if (end != text && *end == ',') {
        const char *s = end + 1;
        b = strtod(s, &end);
        if (end == s)
            end = (char *)"x";
    } else {
        end = (char *)"x";
    }
    if (*end || errno || !isfinite(a) || !isfinite(b)) {
        nbc_usage("%s: '%s' is not a point X,Y (two numbers)", opt, text);
        return 0;
    }
    if (a < xmin || a > xmax || b < ymin || b > ymax) {
        nbc_usage("%s %s is outside %g to %g, %g to %g", opt, text, xmin, xmax, ymin, ymax);
        return 0;
    }
    *x = a;
    *y = b;
    return 1;
}

int nbc_uint64(const char *opt, const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (text[0] < '0' || text[0] > '9' || *end || errno) {
        nbc_usage("%s: '%s' is not a whole number from 0 to %llu", opt, text,
                  (unsigned long long)UINT64_MAX);
        return 0;
    }
    *out = (uint64_t)v;
    return 1;
}

int nbc_samples(const char *opt, double step, double len, size_t *last)
{
    /* In doubles first: a tiny step must not overflow the count. */
    double n = ceil(len / step);
    if (!(step > 0 && len >= 0 && n + 1 <= NBC_MAX_SAMPLES)) {
        nbc_usage("%s %g: %.0f samples along a path of %g, more than the %d allowed; give a "
                  "larger step",
                  opt, step, n + 1, len, NBC_MAX_SAMPLES);
        return 0;
    }
    *last = (size_t)n;
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

/* The length of the valid UTF-8 sequence at s (shortest form, no
 * surrogates), or 0. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (n == 0 || c >= 0xf5)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) || (c == 0xf0 && s[1] < 0x90) ||
        (c == 0xf4 && s[1] >= 0x90))
        return 0;
    return n;
}

void nbc_json_string_to(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    putc('"', f);
    while (*p) {
        unsigned c = *p;
        size_t n = c >= 0x80 ? utf8_length(p) : 1;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f || n == 0)
            fprintf(f, "\\u%04x", c);
        else
            fwrite(p, 1, n, f);
        p += n ? n : 1;
    }
    putc('"', f);
}

void nbc_json_string(const char *s) { nbc_json_string_to(stdout, s); }

const char *nbc_printable(const char *s, char *buf, size_t len)
{
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && at + 5 <= len; p++) {
        if (*p == '\\')
            at += (size_t)snprintf(buf + at, len - at, "\\\\");
        else if (*p >= 0x20 && *p < 0x7f)
            buf[at++] = (char)*p;
        else
            at += (size_t)snprintf(buf + at, len - at, "\\x%02x", *p);
    }
    if (len)
        buf[at < len ? at : len - 1] = '\0';
    return buf;
}

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
