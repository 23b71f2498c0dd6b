/* bounce.h: bundles whose stored paths bounce (issue 29), made as an
 * attacker would, for the tests and the fuzz corpus: a stored path made
 * to go back and forth between its first two nodes (or cells) before it
 * goes on, every CRC right.  Before issue 29 the readers accepted such a
 * path as long as it was no longer than the level below had nodes, and a
 * refinement's work multiplied from one level to the next. */
#ifndef NB_TEST_BOUNCE_H
#define NB_TEST_BOUNCE_H

#include "navbake.h"

/* The payload of b's abstract levels section with the stored paths of
 * level `level` (0: of every level above the graph's) bouncing: each path,
 * from its lower-numbered node, takes its first arc and that arc's way
 * back `reps` times before it goes on, within the length the reader
 * checked before (no longer than the level below has nodes).  The arcs
 * keep their weights.  malloc'd (free() it), its table entry in *info; NULL
 * when b has no levels with stored paths. */
uint8_t *tb_bounce_levels(const nb_bundle *b, uint32_t level, uint32_t reps, size_t *len,
                          nb_section_info *info);
/* The payload of b's abstract graph with its stored cell paths bouncing:
 * each path's first move and its opposite `reps` times before the path,
 * within its cluster's cells (what the reader checked before); the arcs'
 * weights grow with their paths, as the reader wants.  NULL when the graph
 * stores no paths. */
uint8_t *tb_bounce_graph(const nb_bundle *b, uint32_t reps, size_t *len, nb_section_info *info);

#endif
