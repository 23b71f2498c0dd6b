/* deep.h: the parts of nbb_verify_deep (deep.c, the driver, which the
 * registry of section types runs with its table: sections/), one file per
 * idea: layers (deep_layers.c), component runs (deep_runs.c), optimal-search
 * layers (deep_subgoal.c), the abstract graph (deep_abstract.c), its costs
 * per cost profile (deep_acosts.c) and the levels above it (deep_levels.c), perimeter
 * tables (deep_perimeter.c), a unit's tables (deep_unit.c) and bitangent graphs (deep_forest.c).  Each checks the section at d->index
 * and says where it disagrees through nbb_deep_fail (deep_report.c).
 * Internal. */
#ifndef NB_DEEP_H
#define NB_DEEP_H

#include "bake_int.h"

typedef struct nbb_deep {
    const nb_bundle *b;
    const nbb_deep_opts *o;
    nbb_deep_stats *stats;
    size_t index;    /* the section being checked */
    char what[320];  /* "section 3 (clearance capability=ground cap=3 bits=2)" */
} nbb_deep;

/* ---- deep_report.c ---- */

/* NB_ERR_FORMAT, "BUNDLE: section I (TYPE PARAMS): " then the message. */
nb_status nbb_deep_fail(const nbb_deep *d, nb_err *err, const char *fmt, ...) NBP_PRINTF(3, 4);
/* Prefixes an error already in err with the same, for a check or a
 * rebake that failed in its own words; returns st. */
nb_status nbb_deep_prefix(const nbb_deep *d, nb_status st, nb_err *err);
/* A rebake that failed: "cannot recompute it FROM: " before its own
 * message, then the prefix above; returns st. */
nb_status nbb_deep_cannot(const nbb_deep *d, nb_status st, nb_err *err, const char *from);
/* Once every value agreed, the payload byte by byte: what is left is
 * padding, which every format says is zero, so nothing goes unchecked. */
nb_status nbb_deep_bytes(const nbb_deep *d, const uint8_t *p, size_t len, const uint8_t *r,
                         size_t rlen, nb_err *err);
/* Checks the capability a section records (within the legend, not 0) and,
 * when sized, its agent size (1 to 64), before they are baked with. */
nb_status nbb_deep_agent(const nbb_deep *d, nb_capability cap, int sized, uint32_t size,
                         nb_err *err);
/* 1 when two doubles of a recomputation agree: exactly on this machine,
 * within a few units in the last place from a compiler that contracts
 * or orders floating-point operations differently. */
int nbb_deep_same(double a, double b);

/* A deep check: the section at d->index baked again and compared. */
typedef nb_status (*nbb_deep_check)(nbb_deep *d, nb_err *err);

/* nbb_verify_deep (bake.h) with the check of each type that check_of
 * gives (NULL: none); the registry (sections/section_rules.c) gives its own. */
nb_status nbb_deep_run(const nb_bundle *b, const nbb_deep_opts *o,
                       nbb_deep_check (*check_of)(uint32_t type), nbb_deep_stats *stats,
                       nb_err *err);

/* ---- the checks, one per kind of section ---- */

nb_status nbb_deep_layer(nbb_deep *d, nb_err *err);
nb_status nbb_deep_runs(nbb_deep *d, nb_err *err);
nb_status nbb_deep_abstract(nbb_deep *d, nb_err *err);
nb_status nbb_deep_acosts(nbb_deep *d, nb_err *err);
/* The graph g's costs sections as a set (deep_acosts.c): for each cost
 * profile of the agent set one section, at its profile's place, and none
 * for a profile no agent has; d is the graph's. */
nb_status nbb_deep_profiles(nbb_deep *d, const nbi_agraph *g, nb_err *err);
nb_status nbb_deep_levels(nbb_deep *d, nb_err *err);
nb_status nbb_deep_perimeter(nbb_deep *d, nb_err *err);
nb_status nbb_deep_hitcheck(nbb_deep *d, nb_err *err);
nb_status nbb_deep_curves(nbb_deep *d, nb_err *err);
nb_status nbb_deep_bitangent(nbb_deep *d, nb_err *err);
nb_status nbb_deep_subgoal(nbb_deep *d, nb_err *err);

#endif
