/* runs_build.h: the runs section mkclear bakes beside each component
 * layer (runs_build.c; formats/runs.md), for the bake side, its deep
 * check and the tests.  The runtime reads it through place/place.h. */
#ifndef NB_RUNS_BUILD_H
#define NB_RUNS_BUILD_H

#include "bake_int.h"

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
void nbb_runs_free(nbb_runs *r);

#endif
