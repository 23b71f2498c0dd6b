/* haa_of.h: the HAA* query of an Annotated A* query (the two name their
 * common fields alike) with flags, for the test programs that run both
 * families on one query; header-only, so that the programs that link the
 * public library alone (tests/port, the fuzz targets) share it. */
#ifndef NB_HAA_OF_H
#define NB_HAA_OF_H

#include "navbake.h"

static inline nb_haa_query haa_of(const nb_aa_query *q, unsigned flags)
{
    nb_haa_query h;
    nb_haa_query_init(&h);
    h.start = q->start;
    h.goal = q->goal;
    h.size = q->size;
    h.capability = q->capability;
    h.corner = q->corner;
    h.max_expansions = q->max_expansions;
    h.costs = q->costs;
    h.overlay = q->overlay;
    h.flags = flags;
    h.partial = q->partial;
    return h;
}

#endif
