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

/* The length of the valid UTF-8 sequence at p (1 for ASCII), or 0 when p
 * does not start one (a stray continuation byte, an overlong form, a
 * surrogate, a sequence cut short by the terminator). */
static size_t utf8_seq(const unsigned char *p)
{
    unsigned c = p[0], min, cp;
    size_t n;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    cp = c & (0x3fu >> (n - 1));
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : n;
}

size_t nbc_json_escape(const char *s, char *buf, size_t len)
{
    size_t at = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        char tmp[8];
        size_t k = utf8_seq(p), n;
        if (k == 1 && (*p == '"' || *p == '\\')) {
            tmp[0] = '\\';
            tmp[1] = (char)*p;
            n = 2;
        } else if (k == 1 && *p < 0x20) {
            n = (size_t)snprintf(tmp, sizeof tmp, "\\u%04x", *p);
        } else if (k == 0) {
            /* Not UTF-8: the byte as the Latin-1 character it would be. */
            n = (size_t)snprintf(tmp, sizeof tmp, "\\u%04x", *p);
            k = 1;
        } else {
            memcpy(tmp, p, k);
            n = k;
        }
        for (size_t i = 0; i < n; i++, at++)
            if (at + 1 < len)
                buf[at] = tmp[i];
        p += k;
    }
    if (len)
        buf[at < len ? at : len - 1] = '\0';
    return at;
}

void nbc_json_string(const char *s)
{
    char small[256];
    size_t n = nbc_json_escape(s, small, sizeof small);
    char *buf = n < sizeof small ? small : malloc(n + 1);
    if (buf != small && buf)
        nbc_json_escape(s, buf, n + 1);
    printf("\"%s\"", buf ? buf : "");
    if (buf != small)
        free(buf);
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
