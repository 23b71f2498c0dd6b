/* sweep.h: the cells a disc-shaped unit touches along a path (sweep.c).
 * Internal to the runtime. */
#ifndef NB_SWEEP_H
#define NB_SWEEP_H

#include "core/angle.h"
#include "core/base.h"

/* A cell is touched when its square comes nearer the path than width/2 by
 * more than this: a unit of width 1 driving along a row of cell centres
 * grazes the rows beside it without touching them. */
#define NBI_TOUCH_EPS 1e-9

/* Segments are swept only within +-NBI_SWEEP_MAX_COORD (far beyond any
 * map), so that every cell fits a long and every loop ends; a sweep of a
 * segment beyond, or with a number that is not finite, touches no cell
 * and returns NBI_SWEEP_FAR. */
#define NBI_SWEEP_MAX_COORD 1e9
#define NBI_SWEEP_FAR (-1)

/* Called for each touched cell (a cell may come more than once, once per
 * segment); a non-zero return stops the sweep and is returned. */
typedef int (*nbi_cell_fn)(void *ctx, long x, long y);

/* The distance from a segment to the square of cell (x, y). */
double nbi_segment_cell_distance(const nb_segment *s, long x, long y);
/* The distance from a point to the square of cell (x, y). */
double nbi_point_cell_distance(double px, double py, long x, long y);
/* The bounding box of a segment. */
void nbi_segment_bounds(const nb_segment *s, double *x0, double *y0, double *x1, double *y1);
/* 1 when every number of the segment is finite and it lies within the
 * box [0, w) x [0, h) (its centre line: a disc on it touches no cell
 * outside the box's cells). */
int nbi_segment_within(const nb_segment *s, double w, double h);
/* Every cell a disc of diameter width touches along the segments. */
int nbi_sweep_cells(const nb_segment *seg, size_t n, double width, nbi_cell_fn fn, void *ctx);
/* Every cell a disc of diameter width centred at (px, py) touches. */
int nbi_disc_cells(double px, double py, double width, nbi_cell_fn fn, void *ctx);

#endif
