/* turning_build.h: the builders of a unit's sections (mkhitcheck): the
 * unit YAML reader (unit_yaml.c), the hit-check table (hitcheck_build.c)
 * and the curve heuristic table (curvetable_build.c).  Bake side. */
#ifndef NB_TURNING_BUILD_H
#define NB_TURNING_BUILD_H

#include "bake_int.h"
#include "turning/turning.h"

/* Parses a unit definition (formats/hitcheck.md).  Terrain names in its
 * capability are looked up in legend.  Errors name file, line and column. */
nb_status nbb_unit_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                         nb_unit *u, nb_err *err);

/* The hit-check table of a unit for a neighbourhood of 8, 24 or 48, as
 * the section's payload (malloc'ed); progress (may be NULL) is told the
 * share of heading pairs done. */
nb_status nbb_hitcheck_build(const nb_unit *u, unsigned neighbourhood, uint8_t **payload,
                             size_t *len, const nbb_progress_part *progress, nb_err *err);

/* The curve heuristic table for a turning radius: distance cells at steps
 * per cell, angles relative bearings per turn (even). */
#define NBB_CT_DISTANCE 10
#define NBB_CT_STEPS 64
#define NBB_CT_ANGLES 24
nb_status nbb_curvetab_build(double radius, unsigned distance, unsigned steps, unsigned angles,
                             uint8_t **payload, size_t *len, nb_err *err);

#endif
