/* canvas.c: the canvas itself: making one, passing each primitive to its
 * backend, and writing the picture atomically. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "canvasint.h"

/* ---- the canvas ---- */

int nbr_png_supported(void)
{
#ifdef HAVE_PNG
    return 1;
#else
    return 0;
#endif
}

nbr_canvas *nbr_canvas_new(nbr_format format, uint32_t width, uint32_t height, uint32_t background,
                           nb_err *err)
{
    if (width == 0 || height == 0 || (uint64_t)width * height > NBR_MAX_PIXELS) {
        nbb_fail(err, NB_ERR_LIMIT,
                 "a picture of %u x %u pixels is %s (at most %llu pixels; use a smaller --scale "
                 "or a --window)",
                 width, height, width && height ? "too large" : "empty",
                 (unsigned long long)NBR_MAX_PIXELS);
        return NULL;
    }
    nbr_canvas *c = calloc(1, sizeof *c);
    if (!c) {
        nbb_fail(err, NB_ERR_NOMEM, "out of memory");
        return NULL;
    }
    c->format = format;
    c->width = width;
    c->height = height;
    c->background = background;
    c->clip[0][0] = 0;
    c->clip[0][1] = 0;
    c->clip[0][2] = width;
    c->clip[0][3] = height;
    if (format == NBR_PNG) {
        size_t n = (size_t)width * height;
        c->rgb = malloc(n * 3);
        c->mask = calloc(n, 1);
        if (!c->rgb || !c->mask) {
            nbr_canvas_free(c);
            nbb_fail(err, NB_ERR_NOMEM, "out of memory for a picture of %u x %u pixels", width,
                     height);
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            c->rgb[3 * i] = (uint8_t)(background >> 16);
            c->rgb[3 * i + 1] = (uint8_t)(background >> 8);
            c->rgb[3 * i + 2] = (uint8_t)background;
        }
    } else {
        nbr_svg_begin(c);
    }
    return c;
}

void nbr_canvas_free(nbr_canvas *c)
{
    if (!c)
        return;
    nbr_cells_state *cs = &c->cells;
    for (size_t i = 0; i < cs->ncolours; i++)
        nbr_buf_free(&cs->paths[i]);
    free(cs->paths);
    free(cs->colours);
    free(cs->slot);
    free(cs->open);
    free(cs->next);
    nbr_buf_free(&c->svg);
    nbr_buf_free(&c->ids);
    free(c->rgb);
    free(c->mask);
    free(c);
}

nbr_format nbr_canvas_format(const nbr_canvas *c) { return c->format; }
uint32_t nbr_canvas_width(const nbr_canvas *c) { return c->width; }
uint32_t nbr_canvas_height(const nbr_canvas *c) { return c->height; }

uint32_t nbr_canvas_pixel(const nbr_canvas *c, uint32_t x, uint32_t y)
{
    if (!c->rgb || x >= c->width || y >= c->height)
        return NBR_NONE;
    const uint8_t *p = c->rgb + ((size_t)y * c->width + x) * 3;
    return ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
}

void nbr_group(nbr_canvas *c, const char *id, const char *title, const double *clip)
{
    if (c->depth >= NBR_MAX_DEPTH)
        return;
    c->depth++;
    if (c->format == NBR_SVG) {
        nbr_svg_group(c, id, title, clip);
        return;
    }
    long *up = c->clip[c->depth - 1], *cl = c->clip[c->depth];
    memcpy(cl, up, sizeof c->clip[0]);
    if (clip) {
        /* Pixels whose centres lie inside the rectangle. */
        long x0 = (long)ceil(clip[0] - 0.5), y0 = (long)ceil(clip[1] - 0.5);
        long x1 = (long)ceil(clip[0] + clip[2] - 0.5), y1 = (long)ceil(clip[1] + clip[3] - 0.5);
        cl[0] = x0 > cl[0] ? x0 : cl[0];
        cl[1] = y0 > cl[1] ? y0 : cl[1];
        cl[2] = x1 < cl[2] ? x1 : cl[2];
        cl[3] = y1 < cl[3] ? y1 : cl[3];
    }
}

void nbr_group_end(nbr_canvas *c)
{
    if (c->depth == 0)
        return;
    if (c->format == NBR_SVG)
        nbr_svg_group_end(c);
    c->depth--;
}

void nbr_cells_begin(nbr_canvas *c, double ox, double oy, double scale, uint32_t w, uint32_t h,
                     double opacity)
{
    nbr_cells_state *cs = &c->cells;
    cs->ox = ox;
    cs->oy = oy;
    cs->scale = scale;
    cs->w = w;
    cs->h = h;
    cs->row = 0;
    cs->opacity = opacity;
    cs->nopen = cs->nnext = 0;
    if (c->format == NBR_SVG) {
        free(cs->open);
        free(cs->next);
        cs->open = malloc(((size_t)w + 1) * sizeof *cs->open);
        cs->next = malloc(((size_t)w + 1) * sizeof *cs->next);
        if (!cs->open || !cs->next)
            c->svg.failed = 1;
    }
}

void nbr_cells_row(nbr_canvas *c, const uint32_t *rgb)
{
    if (c->cells.row >= c->cells.h)
        return;
    if (c->format == NBR_SVG)
        nbr_svg_cells_row(c, rgb);
    else
        nbr_raster_cells_row(c, rgb);
    c->cells.row++;
    if (c->watch)
        c->watch(c->watch_arg, c->cells.row, c->cells.h);
}

void nbr_canvas_watch(nbr_canvas *c, nbr_rows_fn *fn, void *arg)
{
    c->watch = fn;
    c->watch_arg = arg;
}

void nbr_cells_end(nbr_canvas *c)
{
    if (c->format == NBR_SVG)
        nbr_svg_cells_end(c);
}

void nbr_rect(nbr_canvas *c, double x, double y, double w, double h, const nbr_style *s)
{
    if (c->format == NBR_SVG)
        nbr_svg_rect(c, x, y, w, h, s);
    else
        nbr_raster_rect(c, x, y, w, h, s);
}

void nbr_line(nbr_canvas *c, double x0, double y0, double x1, double y1, const nbr_style *s)
{
    double xy[4] = {x0, y0, x1, y1};
    nbr_polyline(c, xy, 2, 0, s);
}

void nbr_polyline(nbr_canvas *c, const double *xy, size_t n, int closed, const nbr_style *s)
{
    if (n == 0)
        return;
    if (c->format == NBR_SVG)
        nbr_svg_polyline(c, xy, n, closed, s);
    else
        nbr_raster_polyline(c, xy, n, closed, s);
}

void nbr_circle(nbr_canvas *c, double cx, double cy, double r, const nbr_style *s)
{
    if (c->format == NBR_SVG)
        nbr_svg_circle(c, cx, cy, r, s);
    else
        nbr_raster_circle(c, cx, cy, r, s);
}

void nbr_arc(nbr_canvas *c, double cx, double cy, double r, double a0, double a1,
             const nbr_style *s)
{
    const double turn = 2 * M_PI;
    if (a1 - a0 > turn)
        a1 = a0 + turn;
    if (a0 - a1 > turn)
        a1 = a0 - turn;
    if (c->format == NBR_SVG) {
        nbr_svg_arc(c, cx, cy, r, a0, a1, s);
        return;
    }
    /* The raster draws the arc as chords of at most about two pixels. */
    double sweep = fabs(a1 - a0);
    size_t n = (size_t)ceil(sweep * r / 2.0);
    if (n < 8)
        n = 8;
    if (n > 4096)
        n = 4096;
    double *xy = malloc((n + 1) * 2 * sizeof *xy);
    if (!xy)
        return;
    for (size_t i = 0; i <= n; i++) {
        double a = a0 + (a1 - a0) * (double)i / (double)n;
        xy[2 * i] = cx + r * cos(a);
        xy[2 * i + 1] = cy + r * sin(a);
    }
    nbr_style st = *s;
    st.fill = NBR_NONE;
    nbr_raster_polyline(c, xy, n + 1, 0, &st);
    free(xy);
}

void nbr_blend_begin(nbr_canvas *c, double opacity)
{
    if (c->blending)
        nbr_blend_end(c);
    if (c->format == NBR_SVG) {
        nbr_buf_add(&c->svg, "<g opacity=\"", 12);
        nbr_buf_num(&c->svg, opacity);
        nbr_buf_add(&c->svg, "\">\n", 3);
    }
    c->blending = 1;
    c->blend_opacity = opacity;
    c->blend_colour = NBR_NONE;
    c->blend_box[0] = c->width;
    c->blend_box[1] = c->height;
    c->blend_box[2] = c->blend_box[3] = 0;
}

void nbr_blend_end(nbr_canvas *c)
{
    if (!c->blending)
        return;
    if (c->format == NBR_SVG)
        nbr_buf_add(&c->svg, "</g>\n", 5);
    else
        nbr_raster_blend_end(c);
    c->blending = 0;
}

void nbr_text(nbr_canvas *c, double x, double y, double px, uint32_t colour, enum nbr_anchor anchor,
              const char *text)
{
    if (c->format == NBR_SVG)
        nbr_svg_text(c, x, y, px, colour, anchor, text);
    else
        nbr_raster_text(c, x, y, px, colour, anchor, text);
}

/* ---- writing ---- */

static nb_status write_to(nbr_canvas *c, FILE *f, const char *name, nb_err *err)
{
    if (c->format == NBR_PNG)
        return nbr_png_write(c, f, name, err);
    if (c->svg.failed)
        return nbb_fail(err, NB_ERR_NOMEM, "%s: out of memory while drawing", name);
    if (fwrite(c->svg.s, 1, c->svg.len, f) != c->svg.len)
        return nbb_fail_errno(err, "cannot write", name);
    return NB_OK;
}

nb_status nbr_canvas_write(nbr_canvas *c, const char *path, nb_err *err)
{
    if (c->format == NBR_PNG && !nbr_png_supported())
        return nbb_fail(err, NB_ERR_UNSUPPORTED,
                        "%s: this navbake was built without libpng and cannot write PNG "
                        "(write .svg, or rebuild with libpng-dev installed)",
                        path);
    while (c->depth > 0)
        nbr_group_end(c);
    if (c->format == NBR_SVG)
        nbr_svg_end(c);
    if (strcmp(path, "-") == 0) {
        nb_status st = write_to(c, stdout, "standard output", err);
        if (st == NB_OK && fflush(stdout) != 0)
            return nbb_fail_errno(err, "cannot write", "standard output");
        return st;
    }
    /* A FIFO or a device (/dev/stdout) is written straight into: renaming
     * a new file onto it would replace it. */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        if (S_ISDIR(sb.st_mode))
            return nbb_fail(err, NB_ERR_IO, "%s: is a directory", path);
        FILE *f = fopen(path, "wb");
        if (!f)
            return nbb_fail_errno(err, "cannot open", path);
        nb_status st = write_to(c, f, path, err);
        if (fclose(f) != 0 && st == NB_OK)
            st = nbb_fail_errno(err, "cannot write", path);
        return st;
    }
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        nb_status st = nbb_fail_errno(err, "cannot create", tmp);
        free(tmp);
        return st;
    }
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        nb_status st = nbb_fail_errno(err, "cannot open", tmp);
        close(fd);
        unlink(tmp);
        free(tmp);
        return st;
    }
    nb_status st = write_to(c, f, path, err);
    if (fflush(f) != 0 && st == NB_OK)
        st = nbb_fail_errno(err, "cannot write", path);
    if (fclose(f) != 0 && st == NB_OK)
        st = nbb_fail_errno(err, "cannot write", path);
    /* mkstemp makes the file 0600; a picture is an ordinary file. */
    if (st == NB_OK) {
        mode_t mask = umask(0);
        umask(mask);
        chmod(tmp, 0666 & ~mask);
    }
    if (st == NB_OK && rename(tmp, path) != 0)
        st = nbb_fail_errno(err, "cannot rename into", path);
    if (st != NB_OK)
        unlink(tmp);
    free(tmp);
    return st;
}
