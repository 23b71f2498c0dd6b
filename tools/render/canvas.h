/* canvas.h: the drawing surface of 'navbake render'.  One small set of
 * primitives, two backends: SVG (text, no dependency) and a raster that
 * is written as PNG through libpng when this build has it (HAVE_PNG).
 * The raster is also what the tests read back, so it is always built.
 *
 * Coordinates are pixels of the picture, (0, 0) its top-left corner, x to
 * the right and y down.  Colours are 0xRRGGBB; NBR_NONE means "nothing"
 * (no fill, no stroke, a transparent cell).  Nothing is antialiased in
 * the raster, so a colour drawn is the colour read back. */
#ifndef NB_CANVAS_H
#define NB_CANVAS_H

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "bake.h"

#define NBR_NONE 0xffffffffu

typedef enum nbr_format { NBR_SVG, NBR_PNG } nbr_format;

typedef struct nbr_style {
    uint32_t fill;   /* NBR_NONE: not filled */
    uint32_t stroke; /* NBR_NONE: not stroked */
    double width;    /* stroke width in pixels */
    double opacity;  /* of fill and stroke, 0 to 1 */
} nbr_style;

/* Text anchors: where (x, y) lies on the text's baseline. */
enum nbr_anchor { NBR_LEFT, NBR_MIDDLE, NBR_RIGHT };

typedef struct nbr_canvas nbr_canvas;

/* The largest picture, in pixels, either backend makes: a 16384 x 16384
 * map at one pixel per cell, with room for a legend under it. */
#define NBR_MAX_PIXELS ((uint64_t)16384 * (16384 + 1024))

/* 1 when this build writes PNG. */
int nbr_png_supported(void);

/* A picture of width x height pixels filled with background.  NULL with
 * err filled when it is too large or memory runs out. */
nbr_canvas *nbr_canvas_new(nbr_format format, uint32_t width, uint32_t height, uint32_t background,
                           nb_err *err);
void nbr_canvas_free(nbr_canvas *c);
nbr_format nbr_canvas_format(const nbr_canvas *c);
uint32_t nbr_canvas_width(const nbr_canvas *c);
uint32_t nbr_canvas_height(const nbr_canvas *c);

/* Writes the picture to path ("-": standard output), through a temporary
 * file renamed into place so that a failure leaves no half-written file.
 * PNG without libpng is NB_ERR_UNSUPPORTED. */
nb_status nbr_canvas_write(nbr_canvas *c, const char *path, nb_err *err);

/* Told as the canvas works through its long loops, rows of cells streamed
 * (nbr_cells_row) and rows of pixels written (PNG): done of total, each
 * loop from 1; a tool shows its progress from it. */
typedef void nbr_rows_fn(void *arg, uint32_t done, uint32_t total);
void nbr_canvas_watch(nbr_canvas *c, nbr_rows_fn *fn, void *arg);

/* The raster's colour at a pixel (tests; NBR_NONE for SVG or outside). */
uint32_t nbr_canvas_pixel(const nbr_canvas *c, uint32_t x, uint32_t y);

/* A named layer (an SVG group with this id and title), clipped to the
 * rectangle clip[4] = {x, y, w, h} when clip is not NULL.  Groups nest. */
void nbr_group(nbr_canvas *c, const char *id, const char *title, const double *clip);
void nbr_group_end(nbr_canvas *c);

/* A grid of cells, each scale x scale pixels, the top-left one at
 * (ox, oy): begin, then each of the h rows in order (w colours, NBR_NONE
 * for a cell left as it is), then end.  Rows are streamed so that a large
 * map never needs a second copy; the SVG backend merges runs of a colour
 * into rectangles. */
void nbr_cells_begin(nbr_canvas *c, double ox, double oy, double scale, uint32_t w, uint32_t h,
                     double opacity);
void nbr_cells_row(nbr_canvas *c, const uint32_t *rgb);
void nbr_cells_end(nbr_canvas *c);

void nbr_rect(nbr_canvas *c, double x, double y, double w, double h, const nbr_style *s);
void nbr_line(nbr_canvas *c, double x0, double y0, double x1, double y1, const nbr_style *s);
/* n points (x, y pairs in xy); closed joins the last to the first and
 * may be filled (even-odd rule). */
void nbr_polyline(nbr_canvas *c, const double *xy, size_t n, int closed, const nbr_style *s);
void nbr_circle(nbr_canvas *c, double cx, double cy, double r, const nbr_style *s);
/* The arc of the circle (cx, cy, r) from angle a0 to a1 (radians,
 * measured from +x towards +y, that is clockwise on screen), going the
 * way a1 - a0 says (its sign) and at most a whole turn. */
void nbr_arc(nbr_canvas *c, double cx, double cy, double r, double a0, double a1,
             const nbr_style *s);
/* Strokes drawn between these two, all of one colour and opaque, are
 * blended as one shape at this opacity: where they overlap (the joints of
 * a band made of several pieces) the picture is tinted once. */
void nbr_blend_begin(nbr_canvas *c, double opacity);
void nbr_blend_end(nbr_canvas *c);
/* Text of height px pixels (capital height; rounded to a multiple of 7 in
 * the raster, whose font is 5 x 7), baseline at y. */
void nbr_text(nbr_canvas *c, double x, double y, double px, uint32_t colour, enum nbr_anchor anchor,
              const char *text);
/* The advance of text at that height, so that layouts fit both backends. */
double nbr_text_width(double px, const char *text);

/* A style: fill f, stroke s of width w, opacity 1. */
static inline nbr_style nbr_paint(uint32_t f, uint32_t s, double w)
{
    nbr_style st = {f, s, w, 1.0};
    return st;
}

#endif
