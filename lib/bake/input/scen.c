/* scen.c: MovingAI scenario files (bake.h: nbb_scen_read). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "bake_int.h"

/* The whitespace-separated fields of one line (at most max). */
static size_t split(char *line, char **field, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        field[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

static int whole(const char *s, unsigned long max, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || *end || errno || v > max)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

nb_status nbb_scen_parse(const char *buf, size_t len, const char *name, nbb_scen *scen, nb_err *err)
{
    static const char *const cols[] = {"bucket",  "map",    "width",  "height",        "start x",
                                       "start y", "goal x", "goal y", "optimal length"};
    scen->lines = NULL;
    scen->count = 0;
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        unsigned at = 1;
        for (const char *p = buf; p < nul; p++)
            at += *p == '\n';
        return nbi_fail(err, NB_ERR_SYNTAX, "%s:%u: a NUL byte: not a scenario file", name, at);
    }
    char *text = nbb_malloc(len + 1);
    if (!text)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory", name);
    memcpy(text, buf, len);
    text[len] = '\0';
    size_t cap = 0;
    unsigned lineno = 0;
    int have_version = 0;
    nb_status st = NB_OK;
    for (char *line = text, *next; line && st == NB_OK; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!next && !*line)
            break;
        lineno++;
        char *f[10];
        size_t n = split(line, f, 9);
        if (!have_version) {
            char *end;
            if (n != 2 || strcmp(f[0], "version") != 0 || (strtod(f[1], &end), *end != '\0')) {
                st = nbi_fail(err, NB_ERR_SYNTAX,
                              "%s:%u: expected 'version 1' (a MovingAI scenario file)", name,
                              lineno);
                break;
            }
            have_version = 1;
            continue;
        }
        if (n == 0)
            continue;
        if (n != 9) {
            st = nbi_fail(err, NB_ERR_SYNTAX,
                          "%s:%u: %s%zu columns, expected 9 (bucket, map, width, height, start x, "
                          "start y, goal x, goal y, optimal length)",
                          name, lineno, n > 9 ? "more than " : "", n > 9 ? (size_t)9 : n);
            break;
        }
        nbb_scen_line l;
        memset(&l, 0, sizeof l);
        l.line = lineno;
        uint32_t v[9];
        for (int k = 0; k < 8 && st == NB_OK; k++) {
            if (k == 1)
                continue;
            unsigned long max = k == 0   ? UINT32_MAX
                                : k <= 3 ? NB_MAP_MAX_SIDE
                                         : NB_MAP_MAX_SIDE - 1;
            if (!whole(f[k], max, &v[k]))
                st = nbi_fail(err, NB_ERR_SYNTAX,
                              "%s:%u: %s '%s' is not a whole number from 0 to %lu", name, lineno,
                              cols[k], f[k], max);
        }
        if (st != NB_OK)
            break;
        char *end;
        errno = 0;
        l.optimal = strtod(f[8], &end);
        if (end == f[8] || *end || errno || !isfinite(l.optimal) || l.optimal < 0) {
            st = nbi_fail(err, NB_ERR_SYNTAX, "%s:%u: optimal length '%s' is not a number >= 0",
                          name, lineno, f[8]);
            break;
        }
        const char *dot = strchr(f[8], '.');
        l.decimals = dot ? (unsigned)strspn(dot + 1, "0123456789") : 0;
        l.bucket = v[0];
        l.width = v[2];
        l.height = v[3];
        l.start.x = (int32_t)v[4];
        l.start.y = (int32_t)v[5];
        l.goal.x = (int32_t)v[6];
        l.goal.y = (int32_t)v[7];
        if (l.width < 1 || l.height < 1 || v[4] >= l.width || v[6] >= l.width || v[5] >= l.height ||
            v[7] >= l.height) {
            st =
                nbi_fail(err, NB_ERR_SYNTAX, "%s:%u: (%u,%u) -> (%u,%u) is outside its %u x %u map",
                         name, lineno, v[4], v[5], v[6], v[7], l.width, l.height);
            break;
        }
        if (scen->count == NBB_SCEN_MAX_LINES) {
            st = nbi_fail(err, NB_ERR_LIMIT, "%s:%u: more than %zu scenario lines, the limit", name,
                          lineno, NBB_SCEN_MAX_LINES);
            break;
        }
        if (scen->count == cap) {
            size_t ncap = cap ? 2 * cap : 256;
            nbb_scen_line *p = nbb_realloc(scen->lines, ncap * sizeof *p);
            if (!p) {
                st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %zu lines", name, ncap);
                break;
            }
            scen->lines = p;
            cap = ncap;
        }
        scen->lines[scen->count++] = l;
    }
    if (st == NB_OK && !have_version)
        st = nbi_fail(err, NB_ERR_SYNTAX, "%s: empty, expected 'version 1' and scenario lines",
                      name);
    nbb_free(text);
    if (st != NB_OK)
        nbb_scen_free(scen);
    return st;
}

nb_status nbb_scen_read(const char *path, nbb_scen *scen, nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(path, NBB_SCEN_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_scen_parse(buf, len, nbb_input_name(path), scen, err);
    nbb_free(buf);
    return st;
}

void nbb_scen_free(nbb_scen *scen)
{
    nbb_free(scen->lines);
    scen->lines = NULL;
    scen->count = 0;
}
