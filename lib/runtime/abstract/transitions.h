/* transitions.h: the entrances and transitions of one border between two
 * clusters (transitions.c), the one rule the bake and the runtime's repair
 * under an overlay share.  Internal. */
#ifndef NB_TRANSITIONS_H
#define NB_TRANSITIONS_H

#include "abstract/abstract.h"

/* What the placement depends on: the graph's placement and spread, its
 * capabilities' count and its served sizes (ascending). */
typedef struct nbi_tr_opts {
    uint32_t placement, spread, ncaps, nsizes;
    const uint32_t *sizes;
} nbi_tr_opts;

/* A run of pairs that must hold a transition: [lo, hi) of capability ci,
 * part of an entrance of len pairs; at is the pair chosen for it. */
typedef struct nbi_tr_run {
    uint32_t lo, hi, len, at;
    uint8_t ci;
} nbi_tr_run;

/* A transition: pair k of the border, capability ci, clearance cv (the
 * lesser of the pair's), on an entrance of len pairs. */
typedef struct nbi_transition {
    uint32_t k, len;
    uint8_t ci, cv;
} nbi_transition;

/* Room for the runs of a border of len pairs (scratch below). */
size_t nbi_tr_max_runs(const nbi_tr_opts *o, uint32_t len);
/* The transitions of a border of len pairs (at most NBI_CLUSTER_MAX),
 * from the clearances of its two facing lines, capped at the graph's cap:
 * ca[ci * len + k] on the first cluster's side, cb[...] on the second's.
 * runs has room for nbi_tr_max_runs; out for as many.  Returns their count,
 * in the order the bake numbers them; *entrances gets the entrances any
 * served size may cross. */
size_t nbi_border_transitions(const nbi_tr_opts *o, uint32_t len, const uint8_t *ca,
                              const uint8_t *cb, nbi_tr_run *runs, nbi_transition *out,
                              uint32_t *entrances);

#endif
