/* textbuf.c: growing text buffers, in which the SVG backend writes a
 * picture and the canvas keeps its group ids; a failed allocation is
 * remembered, so that writing the picture reports it once. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "canvasint.h"

void nbr_buf_add(nbr_buf *b, const char *text, size_t len)
{
    if (b->failed)
        return;
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len + 1)
            cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, text, len);
    b->len += len;
    b->s[b->len] = '\0';
}

void nbr_buf_printf(nbr_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        nbr_buf_add(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    nbr_buf_add(b, big, (size_t)n);
    free(big);
}

void nbr_buf_num(nbr_buf *b, double v)
{
    char s[48];
    double r = floor(v + 0.5);
    if (fabs(v - r) < 5e-4 && fabs(r) < 1e15) {
        snprintf(s, sizeof s, "%.0f", r == 0 ? 0.0 : r);
    } else {
        snprintf(s, sizeof s, "%.3f", v);
        size_t n = strlen(s);
        while (n > 0 && s[n - 1] == '0')
            s[--n] = '\0';
    }
    nbr_buf_add(b, s, strlen(s));
}

void nbr_buf_free(nbr_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}
