/* runs_build.h: the runs section mkclear bakes beside each component
 * layer (runs_build.c; formats/runs.md), for the bake side, its deep
 * check and the tests.  The runtime reads it through place/place.h. */
#ifndef NB_RUNS_BUILD_H
#define NB_RUNS_BUILD_H

#include "bake_int.h"
#include "clearance/clearance.h"
#include "place/place.h"

typedef struct nbb_runs {
    uint8_t *payload; /* malloc'ed; formats/runs.md's layout */
    size_t len;
    uint32_t n, count, cells; /* components, runs, standable cells */
} nbb_runs;

/* The runs of a component labelling (label[y W + x]: 0 where the agent
 * cannot stand, else its component, numbered 1 to n in the row-major
 * order of their first cells, as nbb_components_compute makes them):
 * each component's maximal runs of cells along a row, in row-major order,
 * the components one after the other.  NB_ERR_NOMEM, or NB_ERR_FORMAT
 * for a label above n. */
nb_status nbb_runs_build(const uint32_t *label, uint32_t width, uint32_t height, uint32_t n,
                         nbb_runs *out, nb_err *err);
/* The same on up to threads threads (0: the online CPUs), bands of rows
 * counted and written apart: the same bytes for any number. */
nb_status nbb_runs_build_threads(const uint32_t *label, uint32_t width, uint32_t height,
                                 uint32_t n, unsigned threads, nbb_runs *out, nb_err *err);
void nbb_runs_free(nbb_runs *r);
/* 0 when the runs section payload have (len bytes: a checked view's, or
 * one this library made) is want, on a map of this width; else 1 and the
 * first difference in msg (counts, a component's first run, or a run by
 * its cell and count). */
int nbb_runs_differ(const uint8_t *have, size_t len, const nbb_runs *want, uint32_t width,
                    char *msg, size_t size);
/* The same question without building want: 0 when the payload have (any
 * len bytes) is what nbb_runs_build makes of label (n components, stand
 * cells not 0), in one pass over the standable cells; else 1 and the
 * first thing wrong in msg. */
int nbb_runs_check(const uint8_t *have, size_t len, const uint32_t *label, uint32_t width,
                   uint32_t height, uint32_t n, uint64_t stand, char *msg, size_t size);
/* Runs whose before fields hold their lengths get the count of cells
 * before each instead; returns the cells of all. */
uint64_t nbb_runs_lengths_to_before(uint8_t *runs, uint64_t nruns);

/* Builds the runs of component layer (cap, size)'s labelling and adds
 * them to the builder as its runs section (raw, zlib when compress). */
nb_status nbb_runs_add(nbb_builder *b, nb_capability cap, uint32_t size, const uint32_t *label,
                       uint32_t width, uint32_t height, uint32_t n, unsigned threads, int compress,
                       nb_err *err);

/* Adds runs built by nbb_runs_build or nbb_runs_patch as the runs
 * section of component layer (cap, size). */
nb_status nbb_runs_add_built(nbb_builder *b, nb_capability cap, uint32_t size, const nbb_runs *runs,
                             int compress, nb_err *err);

/* The runs of a component layer that differs from the one old describes
 * only in rows y0 to y1 - 1 (runs_patch.c): old's runs outside them and
 * layer's within, in O(runs + components + the rows' cells), the same
 * bytes as nbb_runs_build of the whole layer when old describes the old
 * layer.  NB_ERR_FORMAT when old's runs are out of row order or name a
 * component past layer's count outside the rows (build from the whole
 * layer then), NB_ERR_NOMEM. */
nb_status nbb_runs_patch(const nbi_runs *old, const nbi_layer *layer, uint32_t y0, uint32_t y1,
                         nbb_runs *out, nb_err *err);

#endif
