/* scen.h: MovingAI scenario files (https://movingai.com/benchmarks/formats.html),
 * read by 'navbake scen' and the benchmarks.  Builder side; internal. */
#ifndef NB_SCEN_H
#define NB_SCEN_H

#include "bake.h"

typedef struct nbb_scen_line {
    unsigned line; /* in the file, from 1 */
    uint32_t bucket;
    uint32_t width, height; /* of the map the line was made for */
    nb_cell start, goal;
    double optimal;    /* the optimal length the file gives */
    unsigned decimals; /* how many decimals it was written with */
} nbb_scen_line;

typedef struct nbb_scen {
    nbb_scen_line *lines;
    size_t count;
} nbb_scen;

#define NBB_SCEN_FILE_MAX ((size_t)256 << 20)

/* Reads a scenario file: a 'version N' line, then lines of nine columns
 * separated by tabs or spaces (bucket, map, width, height, start x,
 * start y, goal x, goal y, optimal length); the map column may carry a
 * path.  Blank lines are skipped.  An error names file, line and what was
 * expected.  "-" reads standard input. */
nb_status nbb_scen_read(const char *path, nbb_scen *scen, nb_err *err);
nb_status nbb_scen_parse(const char *buf, size_t len, const char *name, nbb_scen *scen,
                         nb_err *err);
void nbb_scen_free(nbb_scen *scen);

#endif
