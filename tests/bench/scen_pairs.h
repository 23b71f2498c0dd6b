/* scen_pairs.h: a MovingAI scenario file's start and goal cells, for the
 * benchmarks that tests/bench/api-ab.sh and search-ab.sh build against
 * several commits' libraries (header-only, on navbake.h's nb_cell, which every API
 * has). */
#ifndef SCEN_PAIRS_H
#define SCEN_PAIRS_H

#include <stdio.h>
#include <stdlib.h>

typedef struct pair {
    nb_cell s, g;
} pair;

/* The scenario lines of path whose pair keep(ctx, pair) accepts (every line when keep is
 * NULL), into *out (malloc'd); their count, 0 when the file cannot be read. */
static size_t read_scen_pairs(const char *path, int (*keep)(const void *, const pair *),
                              const void *ctx, pair **out)
{
    FILE *f = fopen(path, "r");
    *out = NULL;
    if (!f)
        return 0;
    char line[512];
    size_t n = 0, cap = 0;
    while (fgets(line, sizeof line, f)) {
        int b, w, h, sx, sy, gx, gy;
        char map[256];
        double opt;
        if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &b, map, &w, &h, &sx, &sy, &gx, &gy,
                   &opt) != 9)
            continue;
        pair p = {{sx, sy}, {gx, gy}};
        if (keep && !keep(ctx, &p))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            *out = realloc(*out, cap * sizeof **out);
        }
        (*out)[n++] = p;
    }
    fclose(f);
    return n;
}

#endif
