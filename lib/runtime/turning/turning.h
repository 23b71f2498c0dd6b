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
/* The unit called name, decoded and checked; NB_ERR_NOTFOUND naming the
 * units there are. */
nb_status nbi_unit_named(const nb_bundle *b, const char *name, nb_unit *out, nb_err *err);
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

/* A table of version 2 stores the entries of the first K/4 start
 * headings; the others are the same curves turned by quarter turns (the
 * neighbourhoods are square, the headings a multiple of 4).  A quarter
 * turn takes the offset (x, y) to (-y, x) and heading h to h + K/4.
 * Version 1 stores every start heading, every candidate, a record each;
 * the accessors below read either. */
typedef struct nbi_hitcheck {
    unsigned version;       /* 1 or 2 */
    unsigned headings, neighbourhood, window;
    int all;                /* entries hold every candidate (index); always in version 1 */
    uint32_t nstored;       /* stored entries: K/4 x K x N (version 1: K x K x N) */
    uint32_t ncurves;
    double radius, width;
    int off[NBI_MAX_NEIGHBOURS][2];
    uint8_t turn[NBI_MAX_NEIGHBOURS]; /* the offset a quarter turn makes of each */
    const uint8_t *index;   /* all: nstored + 1 u32, entry e's curves first[e] .. first[e+1];
                               version 1: nstored (u32 first, u32 count) */
    const uint8_t *lengths; /* ncurves f64 */
    const uint8_t *codes;   /* ncurves u8: word | variant << 3 */
    const uint8_t *bits;    /* ncurves bitsets of window^2 bits, one after another */
    const uint8_t *records; /* version 1: ncurves records of recsize bytes, else NULL */
    size_t recsize;
} nbi_hitcheck;

/* Checks a hit-check payload of this section version (1 or 2) through and
 * through (every count and index in range, every code a curve, no bit past
 * the last bitset) and describes it. */
nb_status nbi_hitcheck_view(const uint8_t *p, size_t len, uint32_t version, nbi_hitcheck *h,
                            nb_err *err);
/* The start headings whose entries are stored (K/4, or K in version 1),
 * and the turns of them that make the rest (4, or 1). */
static inline unsigned nbi_hc_stored_headings(const nbi_hitcheck *h)
{
    return h->records ? h->headings : h->headings / 4;
}
static inline unsigned nbi_hc_quarters(const nbi_hitcheck *h) { return h->records ? 1 : 4; }
/* The stored curves of entry (h0, h1, o): their count, the first in
 * *first, and the quarter turns *quarter that take them to this entry. */
unsigned nbi_hc_entry(const nbi_hitcheck *h, unsigned h0, unsigned h1, unsigned o,
                      uint32_t *first, unsigned *quarter);
static inline const uint8_t *nbi_hc1_record(const nbi_hitcheck *h, uint32_t i)
{
    return h->records + (size_t)i * h->recsize;
}
static inline double nbi_hc_length(const nbi_hitcheck *h, uint32_t i)
{
    return h->records ? nbi_getf64(nbi_hc1_record(h, i) + NBI_HC1_R_LENGTH)
                      : nbi_getf64(h->lengths + 8 * (size_t)i);
}
static inline unsigned nbi_hc_word(const nbi_hitcheck *h, uint32_t i)
{
    return h->records ? nbi_hc1_record(h, i)[NBI_HC1_R_WORD] : h->codes[i] & 7u;
}
static inline unsigned nbi_hc_variant(const nbi_hitcheck *h, uint32_t i)
{
    return h->records ? nbi_hc1_record(h, i)[NBI_HC1_R_VARIANT]
                      : (h->codes[i] & NBI_HC_CODE_VARIANT) != 0;
}
/* Bit b (row-major over the window, b < window^2) of stored curve i's
 * bitset, as stored (no turn). */
static inline int nbi_hc_bit(const nbi_hitcheck *h, uint32_t i, uint64_t b)
{
    if (h->records)
        return nbi_hc1_record(h, i)[NBI_HC1_RECORD_HEAD + b / 8] >> (b % 8) & 1;
    b += (uint64_t)i * h->window * h->window;
    return h->bits[b / 8] >> (b % 8) & 1;
}
/* 1 when stored curve i, turned by quarter quarter turns, touches the
 * cell (dx, dy) from the origin; 0 outside the window. */
int nbi_hc_touches(const nbi_hitcheck *h, uint32_t i, unsigned quarter, int dx, int dy);

/* ---- the curve heuristic table (curvetable.c) ---- */

typedef struct nbi_curvetab {
    unsigned distance, steps, angles, cols;
    double radius;
    const uint8_t *rows; /* distance * steps rows of cols u16 */
    const uint8_t *far;  /* cols u16 */
    double far_max;      /* the far row's largest excess, in cells */
} nbi_curvetab;

nb_status nbi_curvetab_view(const uint8_t *p, size_t len, nbi_curvetab *t, nb_err *err);
/* A lower bound of the length of any forward path with the table's
 * turning radius from a pose to the point (x, y). */
double nbi_curvetab_lookup(const nbi_curvetab *t, const nb_pose *from, double x, double y);
/* 1 when the look-up from any pose to a point (dx, dy) away is sure to be
 * at most h (past the table's distance, where it is the distance plus at
 * most far_max): a search that has a bound h already may skip it. */
static inline int nbi_curvetab_below(const nbi_curvetab *t, double dx, double dy, double h)
{
    double d2 = dx * dx + dy * dy, lim = t->distance + 1.0, s = h - t->far_max - 1e-6;
    return d2 >= lim * lim && s > 0 && d2 <= s * s;
}
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
/* The registry's structural checks of the unit, hit-check table or curve
 * table in section index: what the planner reads of it, each table with
 * its unit. */
nb_status nbi_unit_section_check(const nb_bundle *b, size_t index, nb_err *err);
nb_status nbi_hitcheck_section_check(const nb_bundle *b, size_t index, nb_err *err);
nb_status nbi_curves_section_check(const nb_bundle *b, size_t index, nb_err *err);

#endif
