/* world_plan.h: navbake world plan, the action graph of a world of tiles
 * written for an engine that runs it (world_plan.c): Ninja on one machine
 * (world_ninja.c), Slurm on a cluster (world_slurm.c).  Every path in
 * what they write is absolute, so the file runs from any folder and, on a
 * cluster, on any node that sees the same file system. */
#ifndef NB_WORLD_PLAN_H
#define NB_WORLD_PLAN_H

#include <stdio.h>

#include "bake.h"

/* Where the actions write, under the output folder (the tile and link
 * actions write the same names). */
#define NBC_WORLD_TILES_DIR "tiles"
#define NBC_WORLD_BUNDLE "world.nbw"

/* What a plan is made of: the manifest as read from its absolute path (so
 * every path it gives is absolute too), and the rest, absolute. */
typedef struct nbc_world_plan {
    nbb_world w;
    char *manifest;       /* the manifest */
    char *legend, *agents; /* the files the manifest names, or NULL */
    char *navbake;        /* the navbake the actions run */
    char *out;            /* the folder the actions write to */
    char **maps;          /* each tile's map, row by row (columns x rows) */
    uint32_t *twin;       /* each tile's twin (world_twins.c): the first tile, row by
                             row, baked from the same cells; itself when none is.
                             NULL: none looked for (--no-twins) */
    size_t twins;         /* tiles whose twin is another */
} nbc_world_plan;

/* The Slurm job's requests; NULL or 0 when the cluster's defaults hold. */
typedef struct nbc_slurm_opts {
    const char *partition, *time, *mem;
    unsigned long throttle; /* tasks of an array running at once */
} nbc_slurm_opts;

/* Finds each tile's twin (p->twin): 1, else 0 with the error printed. */
int nbc_world_twins(nbc_world_plan *p);

/* The Ninja file: one edge a tile, then the link. */
void nbc_world_ninja(FILE *f, const nbc_world_plan *p);
/* The shell script that submits the plan to Slurm with sbatch. */
void nbc_world_slurm(FILE *f, const nbc_world_plan *p, const nbc_slurm_opts *o);

/* s as one word for the shell: in single quotes, each quote as '\''; each
 * '$' doubled when ninja (a Ninja variable's value) (shell_word.c). */
void nbc_shell_word(FILE *f, const char *s, int ninja);

#endif
