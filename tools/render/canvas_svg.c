/* canvas_svg.c: the SVG backend.  The document is built in memory and
 * written whole.  Cell grids become one path per colour, each cell run
 * merged with the identical runs of the rows below it into one rectangle,
 * so a level of large uniform areas stays small. */
#include <math.h>
#include <stdlib.h>

#include "canvasint.h"

static void colour(nbr_buf *b, uint32_t rgb)
{
    if (rgb == NBR_NONE)
        nbr_buf_add(b, "none", 4);
    else
        nbr_buf_printf(b, "#%06x", rgb & 0xffffffu);
}

/* Text as XML character data: the five special characters escaped and
 * anything outside printable ASCII shown as '?'. */
static void escaped(nbr_buf *b, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        switch (*p) {
        case '&': nbr_buf_add(b, "&amp;", 5); break;
        case '<': nbr_buf_add(b, "&lt;", 4); break;
        case '>': nbr_buf_add(b, "&gt;", 4); break;
        case '"': nbr_buf_add(b, "&quot;", 6); break;
        case '\'': nbr_buf_add(b, "&apos;", 6); break;
        default: nbr_buf_add(b, *p >= 32 && *p < 127 ? (const char *)p : "?", 1);
        }
    }
}

static void style(nbr_buf *b, const nbr_style *s, int fillable)
{
    nbr_buf_add(b, " fill=\"", 7);
    colour(b, fillable ? s->fill : NBR_NONE);
    nbr_buf_add(b, "\"", 1);
    if (s->stroke != NBR_NONE) {
        nbr_buf_add(b, " stroke=\"", 9);
        colour(b, s->stroke);
        nbr_buf_add(b, "\" stroke-width=\"", 16);
        nbr_buf_num(b, s->width);
        nbr_buf_add(b, "\" stroke-linecap=\"round\" stroke-linejoin=\"round\"", 48);
    }
    if (s->opacity < 1) {
        nbr_buf_add(b, " opacity=\"", 10);
        nbr_buf_num(b, s->opacity < 0 ? 0 : s->opacity);
        nbr_buf_add(b, "\"", 1);
    }
}

static void attr(nbr_buf *b, const char *name, double v)
{
    nbr_buf_printf(b, " %s=\"", name);
    nbr_buf_num(b, v);
    nbr_buf_add(b, "\"", 1);
}

void nbr_svg_begin(nbr_canvas *c)
{
    nbr_buf *b = &c->svg;
    nbr_buf_printf(b,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" "
                   "height=\"%u\" viewBox=\"0 0 %u %u\">\n",
                   c->width, c->height, c->width, c->height);
    nbr_buf_printf(b, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"", c->width,
                   c->height);
    colour(b, c->background);
    nbr_buf_add(b, "\"/>\n", 4);
}

void nbr_svg_end(nbr_canvas *c) { nbr_buf_add(&c->svg, "</svg>\n", 7); }

void nbr_svg_group(nbr_canvas *c, const char *id, const char *title, const double *clip)
{
    nbr_buf *b = &c->svg;
    unsigned clip_id = 0;
    if (clip) {
        clip_id = ++c->clip_ids;
        nbr_buf_printf(b, "<clipPath id=\"clip%u\"><rect", clip_id);
        attr(b, "x", clip[0]);
        attr(b, "y", clip[1]);
        attr(b, "width", clip[2]);
        attr(b, "height", clip[3]);
        nbr_buf_add(b, "/></clipPath>\n", 14);
    }
    nbr_buf_add(b, "<g", 2);
    if (id && *id) {
        /* ids are names: keep [A-Za-z0-9_-] and make the rest '-'; a
         * repeated id gets "-2", "-3"... so that ids stay unique. */
        char name[64];
        size_t n = 0;
        for (const char *p = id; *p && n + 1 < sizeof name - 12; p++) {
            char ch = *p;
            int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                     (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
            name[n++] = ok ? ch : '-';
        }
        name[n] = '\0';
        unsigned seen = 0;
        for (const char *p = c->ids.s; p && *p;) {
            const char *e = strchr(p, '\n');
            size_t k = (size_t)(e - p);
            if (k >= n && memcmp(p, name, n) == 0 &&
                (k == n || (p[n] == '-' && strspn(p + n + 1, "0123456789") == k - n - 1)))
                seen++;
            p = e + 1;
        }
        if (seen)
            snprintf(name + n, sizeof name - n, "-%u", seen + 1);
        nbr_buf_printf(&c->ids, "%s\n", name);
        nbr_buf_printf(b, " id=\"%s\"", name);
    }
    if (clip_id)
        nbr_buf_printf(b, " clip-path=\"url(#clip%u)\"", clip_id);
    nbr_buf_add(b, ">\n", 2);
    if (title && *title) {
        nbr_buf_add(b, "<title>", 7);
        escaped(b, title);
        nbr_buf_add(b, "</title>\n", 9);
    }
}

void nbr_svg_group_end(nbr_canvas *c) { nbr_buf_add(&c->svg, "</g>\n", 5); }

/* ---- cells ---- */

static nbr_buf *path_of(nbr_canvas *c, uint32_t rgb)
{
    nbr_cells_state *cs = &c->cells;
    if (cs->ncolours * 2 >= cs->nslots) {
        size_t nslots = cs->nslots ? cs->nslots * 2 : 64;
        uint32_t *slot = calloc(nslots, sizeof *slot);
        if (!slot) {
            c->svg.failed = 1;
            return NULL;
        }
        for (size_t i = 0; i < cs->ncolours; i++) {
            size_t h = (cs->colours[i] * 2654435761u) & (nslots - 1);
            while (slot[h])
                h = (h + 1) & (nslots - 1);
            slot[h] = (uint32_t)i + 1;
        }
        free(cs->slot);
        cs->slot = slot;
        cs->nslots = nslots;
    }
    size_t h = (rgb * 2654435761u) & (cs->nslots - 1);
    while (cs->slot[h]) {
        if (cs->colours[cs->slot[h] - 1] == rgb)
            return &cs->paths[cs->slot[h] - 1];
        h = (h + 1) & (cs->nslots - 1);
    }
    if (cs->ncolours == cs->capcolours) {
        size_t cap = cs->capcolours ? cs->capcolours * 2 : 16;
        uint32_t *cols = realloc(cs->colours, cap * sizeof *cols);
        if (cols)
            cs->colours = cols;
        nbr_buf *paths = cols ? realloc(cs->paths, cap * sizeof *paths) : NULL;
        if (!paths) {
            c->svg.failed = 1;
            return NULL;
        }
        cs->paths = paths;
        cs->capcolours = cap;
    }
    size_t i = cs->ncolours++;
    cs->colours[i] = rgb;
    memset(&cs->paths[i], 0, sizeof cs->paths[i]);
    cs->slot[h] = (uint32_t)i + 1;
    return &cs->paths[i];
}

/* A finished rectangle of equal cells, rows run->y0 to end - 1. */
static void emit(nbr_canvas *c, const nbr_run *run, uint32_t end)
{
    nbr_buf *p = path_of(c, run->colour);
    if (p)
        nbr_buf_printf(p, "M%u %uh%uv%uh-%uz", run->x0, run->y0, run->x1 - run->x0, end - run->y0,
                       run->x1 - run->x0);
}

void nbr_svg_cells_row(nbr_canvas *c, const uint32_t *rgb)
{
    nbr_cells_state *cs = &c->cells;
    if (!cs->open)
        return;
    uint32_t y = cs->row;
    size_t j = 0;
    cs->nnext = 0;
    for (uint32_t x = 0; x < cs->w;) {
        uint32_t x1 = x + 1;
        while (x1 < cs->w && rgb[x1] == rgb[x])
            x1++;
        if (rgb[x] != NBR_NONE) {
            while (j < cs->nopen && cs->open[j].x0 < x)
                emit(c, &cs->open[j++], y);
            nbr_run r = {x, x1, y, rgb[x]};
            if (j < cs->nopen && cs->open[j].x0 == x && cs->open[j].x1 == x1 &&
                cs->open[j].colour == rgb[x])
                r.y0 = cs->open[j++].y0;
            cs->next[cs->nnext++] = r;
        }
        x = x1;
    }
    while (j < cs->nopen)
        emit(c, &cs->open[j++], y);
    nbr_run *t = cs->open;
    cs->open = cs->next;
    cs->next = t;
    cs->nopen = cs->nnext;
}

void nbr_svg_cells_end(nbr_canvas *c)
{
    nbr_cells_state *cs = &c->cells;
    for (size_t j = 0; j < cs->nopen; j++)
        emit(c, &cs->open[j], cs->row);
    cs->nopen = 0;
    nbr_buf *b = &c->svg;
    nbr_buf_add(b, "<g transform=\"translate(", 24);
    nbr_buf_num(b, cs->ox);
    nbr_buf_add(b, " ", 1);
    nbr_buf_num(b, cs->oy);
    nbr_buf_add(b, ") scale(", 8);
    nbr_buf_num(b, cs->scale);
    nbr_buf_add(b, ")\" shape-rendering=\"crispEdges\"", 31);
    if (cs->opacity < 1) {
        nbr_buf_add(b, " opacity=\"", 10);
        nbr_buf_num(b, cs->opacity);
        nbr_buf_add(b, "\"", 1);
    }
    nbr_buf_add(b, ">\n", 2);
    for (size_t i = 0; i < cs->ncolours; i++) {
        nbr_buf_add(b, "<path fill=\"", 12);
        colour(b, cs->colours[i]);
        nbr_buf_add(b, "\" d=\"", 5);
        if (cs->paths[i].failed)
            b->failed = 1;
        else
            nbr_buf_add(b, cs->paths[i].s, cs->paths[i].len);
        nbr_buf_add(b, "\"/>\n", 4);
        nbr_buf_free(&cs->paths[i]);
    }
    nbr_buf_add(b, "</g>\n", 5);
    cs->ncolours = 0;
    if (cs->slot)
        memset(cs->slot, 0, cs->nslots * sizeof *cs->slot);
}

/* ---- shapes ---- */

void nbr_svg_rect(nbr_canvas *c, double x, double y, double w, double h, const nbr_style *s)
{
    nbr_buf *b = &c->svg;
    nbr_buf_add(b, "<rect", 5);
    attr(b, "x", x);
    attr(b, "y", y);
    attr(b, "width", w);
    attr(b, "height", h);
    style(b, s, 1);
    nbr_buf_add(b, "/>\n", 3);
}

void nbr_svg_polyline(nbr_canvas *c, const double *xy, size_t n, int closed, const nbr_style *s)
{
    nbr_buf *b = &c->svg;
    if (n == 1) {
        /* A single point: a dot of the stroke's width. */
        nbr_style dot = nbr_paint(s->stroke, NBR_NONE, 0);
        dot.opacity = s->opacity;
        nbr_svg_circle(c, xy[0], xy[1], s->width / 2, &dot);
        return;
    }
    nbr_buf_add(b, closed ? "<polygon points=\"" : "<polyline points=\"", closed ? 17 : 18);
    for (size_t i = 0; i < n; i++) {
        if (i)
            nbr_buf_add(b, " ", 1);
        nbr_buf_num(b, xy[2 * i]);
        nbr_buf_add(b, ",", 1);
        nbr_buf_num(b, xy[2 * i + 1]);
    }
    nbr_buf_add(b, "\"", 1);
    style(b, s, closed);
    if (closed && s->fill != NBR_NONE)
        nbr_buf_add(b, " fill-rule=\"evenodd\"", 20);
    nbr_buf_add(b, "/>\n", 3);
}

void nbr_svg_circle(nbr_canvas *c, double cx, double cy, double r, const nbr_style *s)
{
    nbr_buf *b = &c->svg;
    nbr_buf_add(b, "<circle", 7);
    attr(b, "cx", cx);
    attr(b, "cy", cy);
    attr(b, "r", r);
    style(b, s, 1);
    nbr_buf_add(b, "/>\n", 3);
}

void nbr_svg_arc(nbr_canvas *c, double cx, double cy, double r, double a0, double a1,
                 const nbr_style *s)
{
    nbr_buf *b = &c->svg;
    /* SVG cannot draw a whole turn as one arc: split it in two halves. */
    int halves = fabs(a1 - a0) > 2 * M_PI - 1e-9;
    double mid = (a0 + a1) / 2;
    nbr_buf_add(b, "<path d=\"M", 10);
    nbr_buf_num(b, cx + r * cos(a0));
    nbr_buf_add(b, " ", 1);
    nbr_buf_num(b, cy + r * sin(a0));
    for (int k = 0; k <= halves; k++) {
        double from = halves && k == 1 ? mid : a0, to = halves && k == 0 ? mid : a1;
        nbr_buf_add(b, "A", 1);
        nbr_buf_num(b, r);
        nbr_buf_add(b, " ", 1);
        nbr_buf_num(b, r);
        nbr_buf_printf(b, " 0 %d %d ", fabs(to - from) > M_PI, to > from);
        nbr_buf_num(b, cx + r * cos(to));
        nbr_buf_add(b, " ", 1);
        nbr_buf_num(b, cy + r * sin(to));
    }
    nbr_buf_add(b, "\"", 1);
    style(b, s, 0);
    nbr_buf_add(b, "/>\n", 3);
}

void nbr_svg_text(nbr_canvas *c, double x, double y, double px, uint32_t rgb,
                  enum nbr_anchor anchor, const char *text)
{
    static const char *const anchors[] = {"start", "middle", "end"};
    nbr_buf *b = &c->svg;
    /* A monospace font whose capitals are px high advances about
     * 0.857 px a character: the raster font's 6/7. */
    double size = 7.0 * nbr_font_scale(px) / 0.7;
    nbr_buf_add(b, "<text", 5);
    attr(b, "x", x);
    attr(b, "y", y);
    nbr_buf_add(b, " font-family=\"monospace\"", 24);
    attr(b, "font-size", size);
    nbr_buf_printf(b, " text-anchor=\"%s\" fill=\"", anchors[anchor]);
    colour(b, rgb);
    nbr_buf_add(b, "\">", 2);
    escaped(b, text);
    nbr_buf_add(b, "</text>\n", 8);
}
