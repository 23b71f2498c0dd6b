/* forest.h: round obstacles inside the library: the geometry shared
 * by the bake (bake/forest/bitangent_build.c), the baked search and the deferred search
 * (forest_search.c), so that both see exactly the same graph; the
 * forest object (forest.c); the section layouts are in core/format.h.
 * Internal.
 *
 * Circles here are already inflated by the agent radius.  Senses: a node
 * of the graph is a tangent point together with the sense in which a path
 * goes round its circle there; NBI_CCW is counter-clockwise (positive
 * angles), NBI_CW clockwise. */
#ifndef NB_FORESTINT_H
#define NB_FORESTINT_H

#include <stdlib.h>

#include "bundle/bundle.h"
#include "core/angle.h"

#define NBI_CCW 0u
#define NBI_CW 1u

/* The tolerance of every geometric test: 1e-10 of the inflated circles'
 * extent (at least 1e-10); the bake and both searches compute it alike.  Distances within eps of a radius count as tangent. */
double nbi_forest_eps(const nb_circle *c, size_t n);

/* ---- tangents (bitangent.c) ---- */

/* One bitangent from circle A to circle B: its two tangent points, their
 * angles on their circles, and the senses of a path that goes A -> B
 * along it: it leaves A going round A in sense_a and arrives at B going
 * round B in sense_b (taken the other way, B -> A, both senses flip). */
typedef struct nbi_bitangent {
    nb_vec2 pa, pb;
    double angle_a, angle_b;
    unsigned sense_a, sense_b;
} nbi_bitangent;

/* The bitangents of A and B that exist: two external ones when neither
 * circle holds the other (d > |rA - rB|), two internal ones when they are
 * apart (d > rA + rB), none for touching, overlapping or nested pairs
 * (within eps).  Returns how many (0 to 4), in a fixed order. */
int nbi_bitangents(const nb_circle *a, const nb_circle *b, double eps, nbi_bitangent out[4]);

/* The tangents from a point p to circle c (p outside c or on it): the
 * tangent points, their angles, and the sense of a path that goes from p
 * to the tangent point and on round c.  Returns 2, or 0 when p is inside
 * (by more than eps); a point on the circle gives its own position twice,
 * once with each sense. */
typedef struct nbi_ptangent {
    nb_vec2 p;
    double angle;
    unsigned sense;
} nbi_ptangent;
int nbi_point_tangents(nb_vec2 p, const nb_circle *c, double eps, nbi_ptangent out[2]);

/* ---- hugging arcs (bitangent.c) ---- */

/* What circle b does to the boundary of circle a: 0 nothing (apart,
 * inside a, or the same circle), 1 it covers the closed arc from *from
 * counter-clockwise by *span (span 0 where they touch), 2 it covers all
 * of a (a lies inside b). */
int nbi_cover(const nb_circle *a, const nb_circle *b, double eps, double *from, double *span);

/* A maximal arc of a circle that no other circle covers: from angle start
 * counter-clockwise by span (< 2 pi), or the whole circle (NBI_WHOLE_SPAN). */
typedef struct nbi_free_arc {
    double start, span;
} nbi_free_arc;

/* The free arcs of a circle from the covered intervals (from, span pairs,
 * 2 * n doubles, reordered in place); eps_angle merges intervals that
 * almost touch.  Returns how many arcs were written to out (at most n,
 * or 1 for a whole circle); 0 means that nothing of the circle is free. */
size_t nbi_free_arcs(double *intervals, size_t n, int covered_whole, double eps_angle,
                     nbi_free_arc *out);

/* The free arc that holds angle a, and a's offset into it
 * (counter-clockwise from its start); -1 when none does. */
long nbi_free_arc_find(const nbi_free_arc *arcs, size_t n, double a, double eps_angle, double *offset);

/* The sweep (>= 0) of going round a circle in sense from angle a to angle
 * b; a sweep within eps_angle of a full turn is 0 (the same point). */
double nbi_sweep(double a, double b, unsigned sense, double eps_angle);

/* 1 when a hugging arc that starts at offset o of free arc arc and sweeps
 * sweep in sense stays inside it. */
int nbi_arc_fits(const nbi_free_arc *arc, double o, double sweep, unsigned sense, double eps_angle);

/* ---- line of sight (lineofsight.c) ---- */

/* A uniform grid over circles: cell (i, j) lists every circle whose
 * bounding box meets it.  Built for each inflated forest; its memory is
 * reused by the next build. */
typedef struct nbi_cgrid {
    const nb_allocator *a; /* set before the first build; NULL: the C library's */
    double x0, y0, cell;
    uint32_t w, h;
    uint32_t *start; /* w * h + 1 */
    uint32_t *items;
    size_t start_cap, items_cap;
} nbi_cgrid;

/* Returns 0 when out of memory. */
int nbi_cgrid_build(nbi_cgrid *g, const nb_circle *c, size_t n, double eps);
void nbi_cgrid_free(nbi_cgrid *g);

/* The first circle (lowest cell first) whose interior holds p by more
 * than eps, or -1. */
long nbi_inside(const nbi_cgrid *g, const nb_circle *c, nb_vec2 p, double eps);

/* Line of sight from a to b: 1 when no circle other than skip1 and skip2
 * (UINT32_MAX for none) comes closer than its radius less eps to the
 * segment.  The distance is to the segment, u clamped to [0, 1], so a
 * circle over either end blocks it. */
int nbi_los(const nbi_cgrid *g, const nb_circle *c, nb_vec2 a, nb_vec2 b, uint32_t skip1,
            uint32_t skip2, double eps);

/* The same by testing every circle: the reference for the grid. */
int nbi_los_brute(const nb_circle *c, size_t n, nb_vec2 a, nb_vec2 b, uint32_t skip1, uint32_t skip2,
                  double eps);

/* The circles whose bounding boxes share a cell with circle i's, i
 * excluded, each once, ascending; returns how many (out holds n). */
size_t nbi_cgrid_near(const nbi_cgrid *g, const nb_circle *c, size_t n, size_t i, uint32_t *out,
                      uint8_t *seen);

/* Free arcs of circle i against the circles near it: out must hold n + 1
 * arcs, intervals 2 * (n + 1) doubles, near n ids and seen n zero bytes
 * (left zero).  Returns how many arcs. */
size_t nbi_circle_free_arcs(const nbi_cgrid *g, const nb_circle *c, size_t n, size_t i, double eps,
                            double *intervals, uint32_t *near, uint8_t *seen, nbi_free_arc *out);

/* ---- segments ---- */

/* 1 when segments ab and cd cross at a point inside both (not at an end
 * and not along a common line). */
int nbi_segments_cross(nb_vec2 a, nb_vec2 b, nb_vec2 c, nb_vec2 d, double eps);

/* ---- the forest object (forest.c) ---- */

/* One baked graph, read in place from its bitangent section. */
typedef struct nbi_fgraph {
    nb_forest_graph_info info;
    nb_circle *infl; /* the circles inflated by the agent radius (owned) */
    nbi_cgrid grid;
    double eps;
    uint32_t nodes, narcs;
    const uint8_t *node;   /* nodes * NBI_BITANGENT_NODE */
    const uint8_t *arc;    /* narcs * NBI_BITANGENT_ARC */
    const uint8_t *first;  /* (n + 1) u32: the nodes of circle i */
    const uint8_t *afirst; /* (n + 1) u32: the free arcs of circle i */
} nbi_fgraph;

struct nb_forest {
    nb_allocator alloc;     /* nb_forest_open_circles: the caller's */
    const nb_allocator *a;  /* what it allocates with: &alloc, the bundle's, or NULL */
    int owned;            /* made by nb_forest_open_circles: may change */
    nb_circle *circles;
    size_t n, cap;
    int has_bounds;
    double bounds[4];
    unsigned ngraphs;
    nbi_fgraph *graph;
};

/* Checks a forest section's payload and decodes its header. */
nb_status nbi_forest_decode(const uint8_t *p, size_t len, const char *where, size_t *n,
                            int *has_bounds, double bounds[4], nb_err *err);

/* The registry's structural checks: the forest's is nb_forest_open's, of
 * the forest and every bitangent graph; a bitangent graph's, that there is
 * a forest to check it. */
nb_status nbi_forest_section_check(const nb_bundle *b, size_t index, nb_err *err);
nb_status nbi_bitangent_section_check(const nb_bundle *b, size_t index, nb_err *err);

/* The forest a workspace searches. */
const nb_forest *nbi_forest_ws_forest(const nb_forest_ws *ws);

#endif
