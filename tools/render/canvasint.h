/* canvasint.h: what the canvas backends share (canvas.c, canvas_svg.c,
 * raster.c, png_write.c, font.c).  Not for the renderers: they use
 * canvas.h only. */
#ifndef NB_CANVASINT_H
#define NB_CANVASINT_H

#include <stdio.h>

#include "canvas.h"

/* A growing text buffer (the SVG document, per-colour cell paths). */
typedef struct nbr_buf {
    char *s;
    size_t len, cap;
    int failed; /* an allocation failed: the picture cannot be written */
} nbr_buf;

void nbr_buf_add(nbr_buf *b, const char *text, size_t len);
void nbr_buf_printf(nbr_buf *b, const char *fmt, ...) NBP_PRINTF(2, 3);
/* A number as short as it can be written and still mean the same
 * (integers without a point, else at most 3 decimals). */
void nbr_buf_num(nbr_buf *b, double v);
void nbr_buf_free(nbr_buf *b);

/* An open rectangle of equal cells, growing down while rows repeat it. */
typedef struct nbr_run {
    uint32_t x0, x1, y0; /* cells [x0, x1) of rows y0 to the current one */
    uint32_t colour;
} nbr_run;

/* The cells being streamed by nbr_cells_begin/row/end. */
typedef struct nbr_cells_state {
    double ox, oy, scale, opacity;
    uint32_t w, h, row;
    /* SVG: open rectangles of the previous row and runs of this one */
    nbr_run *open, *next;
    size_t nopen, nnext;
    /* SVG: one path per colour, in order of first use */
    uint32_t *colours;
    nbr_buf *paths;
    size_t ncolours, capcolours;
    uint32_t *slot; /* open-addressed colour -> index + 1 */
    size_t nslots;
} nbr_cells_state;

#define NBR_MAX_DEPTH 32

struct nbr_canvas {
    nbr_format format;
    uint32_t width, height, background;
    nbr_cells_state cells;
    int depth;
    /* SVG */
    nbr_buf svg;
    unsigned clip_ids;
    nbr_buf ids; /* the group ids given so far, each followed by '\n' */
    /* raster: RGB, 3 bytes a pixel, rows from the top; a mask of the
     * pixels one primitive covers, so that a translucent shape is blended
     * once where its parts overlap; the clip rectangle [x0, x1) x [y0, y1)
     * of each open group */
    uint8_t *rgb, *mask;
    long clip[NBR_MAX_DEPTH + 1][4];
    /* nbr_blend_begin: the mask gathers strokes until nbr_blend_end */
    int blending;
    double blend_opacity;
    uint32_t blend_colour;
    long blend_box[4];
    /* nbr_canvas_watch */
    nbr_rows_fn *watch;
    void *watch_arg;
};

/* The SVG backend (canvas_svg.c). */
void nbr_svg_begin(nbr_canvas *c);
void nbr_svg_group(nbr_canvas *c, const char *id, const char *title, const double *clip);
void nbr_svg_group_end(nbr_canvas *c);
void nbr_svg_cells_row(nbr_canvas *c, const uint32_t *rgb);
void nbr_svg_cells_end(nbr_canvas *c);
void nbr_svg_rect(nbr_canvas *c, double x, double y, double w, double h, const nbr_style *s);
void nbr_svg_polyline(nbr_canvas *c, const double *xy, size_t n, int closed, const nbr_style *s);
void nbr_svg_circle(nbr_canvas *c, double cx, double cy, double r, const nbr_style *s);
void nbr_svg_arc(nbr_canvas *c, double cx, double cy, double r, double a0, double a1,
                 const nbr_style *s);
void nbr_svg_text(nbr_canvas *c, double x, double y, double px, uint32_t colour,
                  enum nbr_anchor anchor, const char *text);
void nbr_svg_end(nbr_canvas *c);

/* The raster backend (raster.c). */
void nbr_raster_cells_row(nbr_canvas *c, const uint32_t *rgb);
void nbr_raster_rect(nbr_canvas *c, double x, double y, double w, double h, const nbr_style *s);
void nbr_raster_polyline(nbr_canvas *c, const double *xy, size_t n, int closed, const nbr_style *s);
void nbr_raster_circle(nbr_canvas *c, double cx, double cy, double r, const nbr_style *s);
void nbr_raster_blend_end(nbr_canvas *c);
void nbr_raster_text(nbr_canvas *c, double x, double y, double px, uint32_t colour,
                     enum nbr_anchor anchor, const char *text);

/* The 5 x 7 font (font.c): nine rows of five bits (bit 4 the leftmost
 * column) for each printable ASCII character, seven above the baseline
 * and two below it for g, j, p, q and y; others get a box. */
void nbr_glyph(unsigned char ch, uint8_t rows[9]);
/* The raster font's magnification for text of height px. */
unsigned nbr_font_scale(double px);

/* PNG encoding of the raster (png_write.c). */
nb_status nbr_png_write(const nbr_canvas *c, FILE *f, const char *name, nb_err *err);

#endif
