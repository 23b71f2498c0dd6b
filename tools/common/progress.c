/* progress.c: the progress line and its JSON form (progress.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

#define TTY_PERIOD_US 200000.0
#define JSON_PERIOD_US 500000.0

int nbc_progress_mode_parse(const char *text, nbc_progress_mode *out)
{
    if (strcmp(text, "auto") == 0)
        *out = NBC_PROGRESS_AUTO;
    else if (strcmp(text, "none") == 0)
        *out = NBC_PROGRESS_NONE;
    else if (strcmp(text, "json") == 0)
        *out = NBC_PROGRESS_JSON;
    else
        return nbc_usage("--progress: '%s' is not auto, none or json", text), 0;
    return 1;
}

void nbc_progress_start(nbc_progress *p, nbc_progress_mode mode, int quiet, const char *what,
                        double total, const char *unit)
{
    memset(p, 0, sizeof *p);
    if (mode == NBC_PROGRESS_JSON)
        p->out = 2;
    else if (mode == NBC_PROGRESS_AUTO && !quiet && nbc_progress_ok())
        p->out = 1;
    p->what = what;
    p->total = total;
    p->unit = unit;
    p->start = nbc_now_us();
    p->next = p->start; /* the first update draws at once */
}

/* "12.3 M", "850 k", "42": a rate in three significant digits or so. */
static void si(char *buf, size_t len, double v)
{
    if (v >= 1e9)
        snprintf(buf, len, "%.3g G", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, len, "%.3g M", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, len, "%.3g k", v / 1e3);
    else
        snprintf(buf, len, "%.3g", v);
}

/* "1 h 02 min", "3 min 05 s", "12 s". */
static void duration(char *buf, size_t len, double s)
{
    long t = (long)ceil(s);
    if (t >= 3600)
        snprintf(buf, len, "%ld h %02ld min", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
    else
        snprintf(buf, len, "%ld s", t);
}

static void draw(nbc_progress *p, double now, int final)
{
    double elapsed = (now - p->start) / 1e6, f = p->fraction;
    double rate = elapsed > 0 ? f * p->total / elapsed : 0;
    /* An estimate only once there is something to go on. */
    int known = f > 0.005 && elapsed > 0.1;
    double left = known ? elapsed * (1 - f) / f : 0;
    if (p->out == 2) {
        fprintf(stderr, "{\"tool\":");
        nbc_json_string_to(stderr, nbc_prog);
        fprintf(stderr, ",\"task\":");
        nbc_json_string_to(stderr, p->what);
        fprintf(stderr, ",\"fraction\":%.4f,\"elapsed_s\":%.3f", f, elapsed);
        if (p->total > 0) {
            fprintf(stderr, ",\"done\":%.0f,\"total\":%.0f,\"unit\":", f * p->total, p->total);
            nbc_json_string_to(stderr, p->unit);
            if (known || final)
                fprintf(stderr, ",\"rate\":%.1f", rate);
            else
                fprintf(stderr, ",\"rate\":null");
        }
        if (final)
            fprintf(stderr, ",\"finished\":true}\n");
        else if (known)
            fprintf(stderr, ",\"eta_s\":%.1f}\n", left);
        else
            fprintf(stderr, ",\"eta_s\":null}\n");
        fflush(stderr);
        return;
    }
    char line[256], r[32], t[32];
    int n = snprintf(line, sizeof line, "%s: %s %3d%%", nbc_prog, p->what, (int)(f * 100));
    if (p->total > 0 && known && n > 0 && (size_t)n < sizeof line) {
        si(r, sizeof r, rate);
        n += snprintf(line + n, sizeof line - (size_t)n, ", %s %s/s", r, p->unit);
    }
    if (n > 0 && (size_t)n < sizeof line) {
        if (known)
            duration(t, sizeof t, left);
        n += snprintf(line + n, sizeof line - (size_t)n, ", %s%s", known ? t : "estimating",
                      known ? " left" : "");
    }
    if (n < 0 || (size_t)n >= sizeof line)
        n = (int)strlen(line);
    /* Blanks over what a longer line before left (no terminal codes). */
    fprintf(stderr, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
    p->width = n;
    fflush(stderr);
}

void nbc_progress_update(void *arg, double fraction)
{
    nbc_progress *p = arg;
    if (!p->out)
        return;
    p->fraction = fraction < 0 ? 0 : fraction > 1 ? 1 : fraction;
    double now = nbc_now_us();
    if (now < p->next)
        return;
    p->next = now + (p->out == 2 ? JSON_PERIOD_US : TTY_PERIOD_US);
    draw(p, now, 0);
}

void nbc_progress_units(nbc_progress *p, double done)
{
    nbc_progress_update(p, p->total > 0 ? done / p->total : 0);
}

void nbc_progress_clear(nbc_progress *p)
{
    if (p->out == 1 && p->width) {
        fprintf(stderr, "\r%*s\r", p->width, "");
        fflush(stderr);
        p->width = 0;
        p->next = 0; /* drawn again at the next update */
    }
}

void nbc_progress_end(nbc_progress *p)
{
    if (p->out == 2) {
        p->fraction = 1;
        draw(p, nbc_now_us(), 1);
    }
    nbc_progress_clear(p);
    p->out = 0;
}
