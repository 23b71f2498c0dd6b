/* map_read.c: the strict MovingAI map reader (formats/map.md).  Anything
 * unexpected is an error naming the file, line and column.
 *
 * The header is read first; then one pass finds where each row starts,
 * and bands of rows are checked and copied on the bake's threads
 * (parallel.h): each band writes only its own cells, and the error of the
 * lowest failing band is the first in the text, as one thread finds it. */
#include <stdio.h>
#include <stdlib.h>

#include "bake_int.h"
#include "parallel/parallel.h"

/* Rows per unit of work on the threads. */
#define ROWS_PER_BAND 64

struct cursor {
    const char *buf, *name;
    size_t len, pos;
    unsigned long line; /* 1-based line of pos */
    size_t line_start;  /* offset of the current line */
};

static unsigned long column(const struct cursor *c, size_t at) { return (unsigned long)(at - c->line_start) + 1; }

/* A printable rendering of one character for messages. */
static const char *show(unsigned char ch, char out[8])
{
    if (ch >= '!' && ch <= '~')
        snprintf(out, 8, "'%c'", ch);
    else if (ch == ' ')
        snprintf(out, 8, "space");
    else if (ch == '\t')
        snprintf(out, 8, "tab");
    else if (ch == '\r')
        snprintf(out, 8, "CR");
    else
        snprintf(out, 8, "0x%02x", ch);
    return out;
}

/* The extent of the current line, without its LF or CRLF. */
static size_t line_end(const struct cursor *c)
{
    size_t e = c->pos;
    while (e < c->len && c->buf[e] != '\n')
        e++;
    if (e > c->pos && c->buf[e - 1] == '\r')
        e--;
    return e;
}

static void next_line(struct cursor *c)
{
    while (c->pos < c->len && c->buf[c->pos] != '\n')
        c->pos++;
    if (c->pos < c->len)
        c->pos++;
    c->line++;
    c->line_start = c->pos;
}

static int is_blank(char ch) { return ch == ' ' || ch == '\t'; }

/* Splits a header line into at most 3 words; returns how many. */
static int words(const struct cursor *c, size_t end, size_t at[3], size_t wlen[3])
{
    int n = 0;
    size_t i = c->pos;
    while (i < end) {
        while (i < end && is_blank(c->buf[i]))
            i++;
        if (i == end)
            break;
        if (n == 3)
            return 4;
        at[n] = i;
        while (i < end && !is_blank(c->buf[i]))
            i++;
        wlen[n] = i - at[n];
        n++;
    }
    return n;
}

static int word_is(const struct cursor *c, size_t at, size_t len, const char *w)
{
    return strlen(w) == len && memcmp(c->buf + at, w, len) == 0;
}

static nb_status fail_at(const struct cursor *c, nb_err *err, nb_status code, size_t at,
                         const char *fmt, ...) NBP_PRINTF(5, 6);
static nb_status fail_at(const struct cursor *c, nb_err *err, nb_status code, size_t at,
                         const char *fmt, ...)
{
    char what[NB_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return nbi_fail(err, code, "%s:%lu:%lu: %s", c->name, c->line, column(c, at), what);
}

/* One header line "keyword value"; value NULL for a line of one word. */
static nb_status header_line(struct cursor *c, const char *keyword, const char *value, nb_err *err)
{
    size_t end = line_end(c), at[3], wlen[3];
    if (c->pos >= c->len)
        return nbi_fail(err, NB_ERR_SYNTAX, "%s:%lu: the file ends before the header line '%s%s%s'",
                        c->name, c->line, keyword, value ? " " : "", value ? value : "");
    int n = words(c, end, at, wlen), want = value ? 2 : 1;
    size_t bad;
    if (n == 0)
        bad = c->pos;
    else if (!word_is(c, at[0], wlen[0], keyword))
        bad = at[0];
    else if (n < want)
        bad = end;
    else if (value && !word_is(c, at[1], wlen[1], value))
        bad = at[1];
    else if (n > want)
        bad = at[want];
    else {
        next_line(c);
        return NB_OK;
    }
    return fail_at(c, err, NB_ERR_SYNTAX, bad, "expected '%s%s%s', found '%.*s'", keyword,
                   value ? " " : "", value ? value : "",
                   (int)(end - c->pos > 40 ? 40 : end - c->pos), c->buf + c->pos);
}

/* "height N" or "width N", in either order; sets *h and *w. */
static nb_status size_line(struct cursor *c, uint32_t *h, uint32_t *w, nb_err *err)
{
    size_t end = line_end(c), at[3], wlen[3];
    if (c->pos >= c->len)
        return nbi_fail(err, NB_ERR_SYNTAX, "%s:%lu: the file ends before the 'height' and 'width' lines",
                        c->name, c->line);
    int n = words(c, end, at, wlen);
    uint32_t *slot = NULL;
    const char *key = NULL;
    if (n >= 1 && word_is(c, at[0], wlen[0], "height"))
        slot = h, key = "height";
    else if (n >= 1 && word_is(c, at[0], wlen[0], "width"))
        slot = w, key = "width";
    if (!slot)
        return fail_at(c, err, NB_ERR_SYNTAX, n ? at[0] : c->pos,
                       "expected 'height N' or 'width N', found '%.*s'",
                       (int)(end - c->pos > 40 ? 40 : end - c->pos), c->buf + c->pos);
    if (*slot)
        return fail_at(c, err, NB_ERR_SYNTAX, at[0], "'%s' is given twice", key);
    if (n != 2)
        return fail_at(c, err, NB_ERR_SYNTAX, n < 2 ? end : at[2], "expected '%s N' with one number",
                       key);
    uint64_t v = 0;
    for (size_t i = 0; i < wlen[1]; i++) {
        char ch = c->buf[at[1] + i];
        if (ch < '0' || ch > '9')
            return fail_at(c, err, NB_ERR_SYNTAX, at[1] + i,
                           "%s must be a whole number, found '%.*s'", key, (int)wlen[1], c->buf + at[1]);
        v = v * 10 + (uint64_t)(ch - '0');
        if (v > NB_MAP_MAX_SIDE)
            break;
    }
    if (v < 1 || v > NB_MAP_MAX_SIDE)
        return fail_at(c, err, NB_ERR_LIMIT, at[1], "%s %.*s is outside the limits 1 to %d", key,
                       (int)wlen[1], c->buf + at[1], NB_MAP_MAX_SIDE);
    *slot = (uint32_t)v;
    next_line(c);
    return NB_OK;
}

/* A map's rows being read on threads. */
typedef struct rows_job {
    const struct cursor *c; /* at the first row */
    const size_t *start;    /* [y]: where row y starts; [rows]: where the last one ends */
    const nbi_legend *legend;
    uint32_t w, rows;       /* rows: those the text holds, at most the height */
    uint8_t *cells;
} rows_job;

/* Row y: exactly w characters of the legend. */
static nb_status read_row(const rows_job *j, uint32_t y, nb_err *err)
{
    struct cursor c = *j->c;
    c.pos = c.line_start = j->start[y];
    c.line += y;
    /* The row ends where the next starts, less its LF or CRLF. */
    size_t end = j->start[y + 1];
    if (end > c.pos && c.buf[end - 1] == '\n')
        end--;
    if (end > c.pos && c.buf[end - 1] == '\r')
        end--;
    const char *buf = c.buf;
    const nbi_legend *legend = j->legend;
    uint32_t w = j->w;
    for (size_t i = c.pos; i < end; i++) {
        unsigned char ch = (unsigned char)buf[i];
        char shown[8];
        if (i - c.pos == w)
            return fail_at(&c, err, NB_ERR_SYNTAX, i,
                           "row %u is longer than the width %u (%zu characters)", y, w, end - c.pos);
        if (legend->code[ch] == NBI_CELL_INVALID) {
            char known[NBI_CHARS_MAX + 1];
            size_t k = 0;
            for (unsigned q = '!'; q <= '~'; q++)
                if (legend->code[q] != NBI_CELL_INVALID)
                    known[k++] = (char)q;
            known[k] = '\0';
            return fail_at(&c, err, NB_ERR_SYNTAX, i,
                           "character %s is not in the legend (it knows \"%s\")", show(ch, shown),
                           known);
        }
        j->cells[(size_t)y * w + (i - c.pos)] = ch;
    }
    if (end - c.pos < w)
        return fail_at(&c, err, NB_ERR_SYNTAX, end, "row %u has %zu characters, the width is %u", y,
                       end - c.pos, w);
    return NB_OK;
}

static nb_status read_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    const rows_job *j = ctx;
    uint32_t y0 = (uint32_t)band * ROWS_PER_BAND, y1 = y0 + ROWS_PER_BAND;
    (void)worker;
    if (y1 > j->rows)
        y1 = j->rows;
    for (uint32_t y = y0; y < y1; y++) {
        nb_status st = read_row(j, y, err);
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

nb_status nbb_map_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                        unsigned threads, nbb_grid *grid, nb_err *err)
{
    struct cursor c = {buf, name, len, 0, 1, 0};
    uint32_t w = 0, h = 0;
    nb_status st;
    memset(grid, 0, sizeof *grid);
    if ((st = header_line(&c, "type", "octile", err)) != NB_OK ||
        (st = size_line(&c, &h, &w, err)) != NB_OK || (st = size_line(&c, &h, &w, err)) != NB_OK ||
        (st = header_line(&c, "map", NULL, err)) != NB_OK)
        return st;
    uint8_t *cells = nbb_malloc((size_t)w * h);
    size_t *start = nbb_malloc(((size_t)h + 1) * sizeof *start);
    if (!cells || !start) {
        nbb_free(cells);
        nbb_free(start);
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %u x %u cells", name, w, h);
    }
    /* Where each row starts; the text after the rows found. */
    struct cursor after = c;
    uint32_t rows = 0;
    while (rows < h && after.pos < len) {
        start[rows++] = after.pos;
        const char *nl = memchr(buf + after.pos, '\n', len - after.pos);
        after.pos = nl ? (size_t)(nl - buf) + 1 : len;
        after.line++;
        after.line_start = after.pos;
    }
    start[rows] = after.pos;
    rows_job j = {&c, start, legend, w, rows, cells};
    st = nbb_par_for(threads, (rows + ROWS_PER_BAND - 1) / ROWS_PER_BAND, read_band, &j, err);
    nbb_free(start);
    if (st == NB_OK && rows < h)
        st = nbi_fail(err, NB_ERR_SYNTAX, "%s:%lu: the map ends after %u of its %u rows", name,
                      after.line, rows, h);
    /* Only empty lines may follow the last row. */
    while (st == NB_OK && after.pos < len) {
        size_t end = line_end(&after);
        if (end != after.pos)
            st = fail_at(&after, err, NB_ERR_SYNTAX, after.pos,
                         "text after the %u rows that the header declares", h);
        next_line(&after);
    }
    if (st != NB_OK) {
        nbb_free(cells);
        return st;
    }
    grid->width = w;
    grid->height = h;
    grid->cells = cells;
    return NB_OK;
}

nb_status nbb_map_read(const char *path, const nbi_legend *legend, unsigned threads, nbb_grid *grid,
                       nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file_threads(path, NBB_MAP_FILE_MAX, threads, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_map_parse(buf, len, nbb_input_name(path), legend, threads, grid, err);
    nbb_free(buf);
    return st;
}

void nbb_grid_free(nbb_grid *grid)
{
    nbb_free(grid->cells);
    grid->cells = NULL;
}
