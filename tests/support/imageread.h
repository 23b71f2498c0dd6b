/* imageread.h: reading back the pictures 'navbake render' writes, for the
 * tests, without the renderer's own code.
 *
 *  - PNG: decoded by libpng (when the build has it).
 *  - SVG: checked to be well-formed XML (every tag closed in order, one
 *    root, attributes quoted, only the five named entities and numeric
 *    references), then evaluated at a point for the subset of SVG the
 *    renderer uses: rect, circle, line, polyline, polygon, path made of
 *    M/H/V/L/Z moves (absolute or relative), groups translated and scaled,
 *    clip paths of one rectangle, opacity.  Arcs and text are skipped
 *    (they never cover the points the tests look at). */
#ifndef NB_IMAGEREAD_H
#define NB_IMAGEREAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct ir_image ir_image;

/* Reads FILE; NULL with a message in why (at least 256 bytes) when it is
 * not a well-formed PNG or SVG. */
ir_image *ir_read(const char *path, char *why);
void ir_free(ir_image *im);
/* "png" or "svg". */
const char *ir_kind(const ir_image *im);
uint32_t ir_width(const ir_image *im);
uint32_t ir_height(const ir_image *im);
/* The colour 0xRRGGBB at the centre of pixel (x, y). */
uint32_t ir_pixel(const ir_image *im, uint32_t x, uint32_t y);
/* How many elements of this name the SVG holds (0 for PNG). */
size_t ir_count(const ir_image *im, const char *element);

#endif
