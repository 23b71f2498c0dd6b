/* turning.h: the sections of a unit (formats/hitcheck.md) as the runtime
 * reads them: the unit (unit.c), its hit-check table (hitcheck.c) and its
 * curve heuristic table (curvetable.c).  Internal. */
#ifndef NB_HITCHECK_H
#define NB_HITCHECK_H

#include "bundle/bundle.h"
#include "core/angle.h"

/* ---- units (unit.c) ---- */

#define NBI_UNIT_MAX_RADIUS 16.0
#define NBI_UNIT_MAX_WIDTH 8.0

void nbi_unit_encode(const nb_unit *u, uint8_t out[NBI_UNIT_SIZE]);
nb_status nbi_unit_decode(const uint8_t *p, size_t len, const char *name, nb_unit *u,
                          nb_err *err);
/* Checks ranges: radius, width, headings, neighbourhood, penalty. */
nb_status nbi_unit_check(const nb_unit *u, nb_err *err);

/* The heading of index k of n, in radians. */
static inline double nbi_heading(unsigned k, unsigned n)
{
    return (double)k * NBI_TWO_PI / (double)n;
}

/* The offsets of a neighbourhood (8, 24 or 48) in their canonical order:
 * ring by ring (distance 1, 2, 3), each ring row by row.  Returns the
 * count, 0 for another n. */
#define NBI_MAX_NEIGHBOURS 48
unsigned nbi_neighbourhood(unsigned n, int off[][2]);

/* Curve words, numbered as the hit-check table stores them. */
#define NBI_NWORDS 6
extern const char *const nbi_words[NBI_NWORDS]; /* LSL RSR LSR RSL LRL RLR */
int nbi_word_code(const char *word);

/* ---- the hit-check table (hitcheck.c) ---- */

typedef struct nbi_hitcheck {
    unsigned headings, neighbourhood, window, words;
    uint32_t ncurves;
    size_t recsize;
    double radius, width;
    int off[NBI_MAX_NEIGHBOURS][2];
    const uint8_t *index;   /* (h0 K + h1) N + o: u32 first, u32 count */
    const uint8_t *records; /* ncurves records of recsize bytes */
} nbi_hitcheck;

/* Checks a hit-check payload through and through (every index in range,
 * no bit outside the window) and describes it. */
nb_status nbi_hitcheck_view(const uint8_t *p, size_t len, nbi_hitcheck *h, nb_err *err);
static inline double nbi_hc_length(const nbi_hitcheck *h, uint32_t i)
{
    return nbi_getf64(h->records + (size_t)i * h->recsize);
}

/* ---- the curve heuristic table (curvetable.c) ---- */

typedef struct nbi_curvetab {
    unsigned distance, steps, angles, cols;
    double radius;
    const uint8_t *rows; /* distance * steps rows of cols u16 */
    const uint8_t *far;  /* cols u16 */
} nbi_curvetab;

nb_status nbi_curvetab_view(const uint8_t *p, size_t len, nbi_curvetab *t, nb_err *err);
/* A lower bound of the length of any forward path with the table's
 * turning radius from a pose to the point (x, y). */
double nbi_curvetab_lookup(const nbi_curvetab *t, const nb_pose *from, double x, double y);
/* The table's row and column for a distance and a relative bearing. */
void nbi_curvetab_cell(const nbi_curvetab *t, double rho, double alpha, long *row, unsigned *col);

/* The length of the shortest forward curve from the pose (0, 0, 0) to the
 * point (px, py) with turning radius r (curve.c): the first of
 * nb_curve_to_point, without building it. */
double nbi_curve_point_length(double r, double px, double py);

/* ---- finding a unit's sections in a bundle ---- */

/* The decoded sections of the unit called name: any of hc, ct may be NULL
 * when not wanted; a missing table is an error naming it. */
nb_status nbi_unit_sections(const nb_bundle *b, const char *name, nb_unit *u, nbi_hitcheck *hc,
                            nbi_curvetab *ct, nb_err *err);

#endif
