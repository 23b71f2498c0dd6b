/* bench_insert_table.c: what a baked table would make of a query end's
 * insertion into its tile (issue 31: the ends' insertion under 1 ms),
 * measured on one baked tile before any format holds such a table.
 *
 *   bench_insert_table TILE.nbb [ENDS [B ...]]
 *
 * Today an end is inserted by a Dijkstra over its tile's whole graph
 * (tile_dijkstra.c) until every portal is settled: on a street tile that
 * is nearly the whole graph.  The table sized here: the tile cut into
 * blocks of B x B clusters; a block's border nodes (graph nodes of the
 * tile's own cells with an arc to another block) each with its distance
 * to every portal (u16 cardinal and u16 diagonal steps).  An end is then
 * a Dijkstra kept to its block, and a portal's cost the least of its
 * distance inside the block and, over the block's border nodes b, the
 * end's distance to b plus the table's b to the portal: a path leaving
 * the block leaves it first at a border node, so the costs are exact.
 *
 * For each B it prints the border nodes, the table's bytes (a tile, a
 * cell), the CPU the tile action would spend on it (a Dijkstra from each
 * border node), and for ENDS nodes of the tile graph (every n-th) the
 * costs both ways compared (the number that differ: 0 expected), the
 * nodes each settles and its CPU an end.  callgrind's --toggle-collect on
 * by_search and by_table counts the two insertions' instructions.
 * NB_BENCH_PLANT=1 leaves out the distances inside the end's block (a
 * planted fault: costs must then differ). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream/haa_world.h"
#include "world/world.h"

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct tile {
    const nbi_agraph *g;
    const nbi_wtile *t;
    nb_capability cap;
    uint32_t *portal, np;
    uint8_t *want; /* portals marked, for the Dijkstra's stop */
} tile;

static uint32_t nx(const nbi_agraph *g, uint32_t u) { return nbi_u16at(g->node_xy, 2 * (size_t)u); }
static uint32_t ny(const nbi_agraph *g, uint32_t u) { return nbi_u16at(g->node_xy, 2 * (size_t)u + 1); }

static int in_core(const nbi_wtile *t, uint32_t x, uint32_t y)
{
    return x >= t->core_x && y >= t->core_y && x < t->core_x + t->core_w &&
           y < t->core_y + t->core_h;
}

/* Block of a node of the tile's cells: blocks of side cells from the core's corner. */
static uint32_t block(const tile *k, uint32_t u, uint32_t side, uint32_t bcols)
{
    return (ny(k->g, u) - k->t->core_y) / side * bcols + (nx(k->g, u) - k->t->core_x) / side;
}

static int run(nbi_tdijk *dj, const tile *k, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
               uint32_t from)
{
    uint32_t z = 0;
    int r = nbi_tdijk_run_buckets(dj, k->g, k->cap, 1, x0, y0, x1, y1, &from, &z, &z, 1);
    if (r < 0)
        r = nbi_tdijk_run(dj, k->g, k->cap, 1, x0, y0, x1, y1, &from, &z, &z, 1);
    return r;
}

static double len(const nbi_tdijk *dj, uint32_t u)
{
    return nbi_tdijk_reached(dj, u) && dj->stamp[u] & 1
               ? nbi_steps_length(dj->card[u], dj->diag[u])
               : -1;
}

/* Today's insertion from node u: the tile graph until every portal is settled. */
NBP_NOINLINE static int by_search(nbi_tdijk *dj, const tile *k, uint32_t u, double *cost)
{
    const nbi_wtile *t = k->t;
    dj->target = k->want;
    dj->left = k->np;
    int r = run(dj, k, t->core_x, t->core_y, t->core_x + t->core_w, t->core_y + t->core_h, u);
    dj->target = NULL;
    for (uint32_t i = 0; i < k->np; i++)
        cost[i] = len(dj, k->portal[i]);
    return r;
}

/* The table's insertion from node u: its block searched, then the sums. */
NBP_NOINLINE static int by_table(nbi_tdijk *dj, const tile *k, uint32_t u, uint32_t side,
                                 uint32_t bcols, const uint32_t *bfirst, const uint32_t *border,
                                 const uint16_t *tab, int plant, double *cost)
{
    const nbi_wtile *t = k->t;
    uint32_t b = block(k, u, side, bcols), x0 = t->core_x + b % bcols * side,
             y0 = t->core_y + b / bcols * side;
    uint32_t x1 = x0 + side < t->core_x + t->core_w ? x0 + side : t->core_x + t->core_w;
    uint32_t y1 = y0 + side < t->core_y + t->core_h ? y0 + side : t->core_y + t->core_h;
    int r = run(dj, k, x0, y0, x1, y1, u);
    for (uint32_t i = 0; i < k->np; i++)
        cost[i] = plant ? -1 : len(dj, k->portal[i]);
    for (uint32_t j = bfirst[b]; j < bfirst[b + 1]; j++) {
        double d = len(dj, border[j]);
        if (d < 0)
            continue;
        const uint16_t *row = tab + (size_t)j * k->np * 2;
        for (uint32_t i = 0; i < k->np; i++) {
            if (row[2 * i] == UINT16_MAX)
                continue; /* the portal is not reached from this border node */
            double c = d + nbi_steps_length(row[2 * i], row[2 * i + 1]);
            if (cost[i] < 0 || c < cost[i])
                cost[i] = c;
        }
    }
    return r;
}

/* Blocks of b clusters a side: the table built, then ends inserted both ways. */
static int measure(nbi_tdijk *dj, const tile *k, uint32_t bsz, uint32_t ends, int plant)
{
    const nbi_agraph *g = k->g;
    const nbi_wtile *t = k->t;
    uint32_t side = bsz * g->cluster, bcols = (t->core_w + side - 1) / side,
             brows = (t->core_h + side - 1) / side, nb = bcols * brows, nborder = 0;
    uint32_t *bfirst = calloc((size_t)nb + 1, sizeof *bfirst), *border = NULL;
    uint16_t *tab = NULL;
    double *c1 = malloc(((size_t)k->np + 1) * sizeof *c1), *c2 = malloc(((size_t)k->np + 1) * sizeof *c2);
    int rc = 1;
    if (!bfirst || !c1 || !c2)
        goto out;
    /* Border nodes, by block (counted, then placed). */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t u = 0; u < g->nnodes; u++) {
            if (!in_core(t, nx(g, u), ny(g, u)))
                continue;
            uint32_t bu = block(k, u, side, bcols);
            int is = 0;
            for (uint32_t a = nbi_u32at(g->node_first, u); !is && a < nbi_u32at(g->node_first, u + 1); a++) {
                uint32_t v = nbi_u32at(g->arc_to, a);
                is = nbi_agraph_admits(g, a, k->cap, 1) && in_core(t, nx(g, v), ny(g, v)) &&
                     block(k, v, side, bcols) != bu;
            }
            if (is && !pass)
                bfirst[bu + 1]++;
            else if (is)
                border[bfirst[bu]++] = u;
        }
        if (!pass) {
            for (uint32_t b = 0; b < nb; b++)
                bfirst[b + 1] += bfirst[b];
            nborder = bfirst[nb];
            border = malloc(((size_t)nborder + 1) * sizeof *border);
            tab = malloc(((size_t)nborder * k->np + 1) * 2 * sizeof *tab);
            if (!border || !tab)
                goto out;
        } else { /* bfirst[b] now holds block b's end: shift back */
            memmove(bfirst + 1, bfirst, nb * sizeof *bfirst);
            bfirst[0] = 0;
        }
    }
    /* The table, as the tile action would write it. */
    double t0 = cpu();
    unsigned wide = 0;
    for (uint32_t j = 0; j < nborder; j++) {
        if (run(dj, k, t->core_x, t->core_y, t->core_x + t->core_w, t->core_y + t->core_h,
                border[j]) != 1)
            goto out;
        uint16_t *row = tab + (size_t)j * k->np * 2;
        for (uint32_t i = 0; i < k->np; i++) {
            uint32_t p = k->portal[i];
            int has = nbi_tdijk_reached(dj, p) && dj->stamp[p] & 1;
            wide += has && (dj->card[p] >= UINT16_MAX || dj->diag[p] >= UINT16_MAX);
            row[2 * i] = has ? (uint16_t)dj->card[p] : UINT16_MAX;
            row[2 * i + 1] = has ? (uint16_t)dj->diag[p] : 0;
        }
    }
    double tbuild = cpu() - t0;
    /* Ends: every step-th node of the tile's cells. */
    uint32_t step = g->nnodes / (ends ? ends : 1) + 1, asked = 0, differ = 0;
    double ta = 0, tb = 0;
    unsigned long long sa = 0, sb = 0;
    for (uint32_t u = 0; u < g->nnodes; u += step) {
        if (!in_core(t, nx(g, u), ny(g, u)))
            continue;
        double b0 = cpu();
        if (by_search(dj, k, u, c1) != 1)
            goto out;
        double b1 = cpu();
        for (uint32_t v = 0; v < g->nnodes; v++)
            sa += nbi_tdijk_reached(dj, v) && dj->stamp[v] & 1;
        double b2 = cpu();
        if (by_table(dj, k, u, side, bcols, bfirst, border, tab, plant, c2) != 1)
            goto out;
        double b3 = cpu();
        for (uint32_t v = 0; v < g->nnodes; v++)
            sb += nbi_tdijk_reached(dj, v) && dj->stamp[v] & 1;
        ta += b1 - b0, tb += b3 - b2;
        asked++;
        for (uint32_t i = 0; i < k->np; i++)
            differ += (c1[i] < 0) != (c2[i] < 0) ||
                      (c1[i] >= 0 && (c1[i] - c2[i] > 1e-9 * c1[i] || c2[i] - c1[i] > 1e-9 * c1[i]));
    }
    size_t bytes = (size_t)nborder * k->np * 4 + (size_t)nborder * 4 + ((size_t)nb + 1) * 4;
    printf("blocks of %u x %u clusters (%u cells, %u blocks): %u border nodes (%.0f a block), "
           "table %zu bytes (%.3f bytes a cell), %u over u16; built in %.2f s CPU; %u ends: "
           "%u portal costs differ, settled %.0f -> %.0f nodes an end, CPU %.3f -> %.3f ms an end\n",
           bsz, bsz, side, nb, nborder, (double)nborder / nb, bytes,
           (double)bytes / ((double)t->core_w * t->core_h), wide, tbuild, asked, differ,
           asked ? (double)sa / asked : 0, asked ? (double)sb / asked : 0,
           asked ? 1e3 * ta / asked : 0, asked ? 1e3 * tb / asked : 0);
    rc = 0;
out:
    free(bfirst), free(border), free(tab), free(c1), free(c2);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_insert_table TILE.nbb [ENDS [B ...]]\n");
        return 2;
    }
    nb_bundle *b = NULL;
    nb_err err;
    nbi_agraph g;
    nbi_wtile t;
    if (nb_bundle_open(argv[1], 0, NULL, &b, &err) != NB_OK || nbi_wtile_find(b, &t, &err) != NB_OK ||
        nbi_agraph_find(b, &g, &err) != NB_OK || !nb_agent_get(b, 0)) {
        if (b && nbi_agraph_find(b, &g, &err) == NB_OK)
            fprintf(stderr, "%s: no agent class\n", argv[1]);
        else
            fprintf(stderr, "%s\n", err.msg);
        nb_bundle_close(b);
        return 1;
    }
    tile k = {&g, &t, nb_agent_get(b, 0)->capability, NULL, 0, NULL};
    nbi_tdijk dj;
    k.portal = malloc(((size_t)g.nnodes + 1) * sizeof *k.portal);
    k.want = calloc((size_t)g.nnodes + 1, 1);
    int rc = 1;
    if (!k.portal || !k.want || !nbi_tdijk_init(&dj, NULL, g.nnodes)) {
        fprintf(stderr, "no memory\n");
        free(k.portal), free(k.want), nb_bundle_close(b);
        return 1;
    }
    /* Portals as the border graph has them (border_graph.c): nodes on the
     * tile's own edges with an arc out of its cells. */
    for (uint32_t u = 0; u < g.nnodes; u++) {
        uint32_t x = nx(&g, u), y = ny(&g, u);
        if (!in_core(&t, x, y) || (x != t.core_x && y != t.core_y && x != t.core_x + t.core_w - 1 &&
                                   y != t.core_y + t.core_h - 1))
            continue;
        for (uint32_t a = nbi_u32at(g.node_first, u); a < nbi_u32at(g.node_first, u + 1); a++) {
            uint32_t v = nbi_u32at(g.arc_to, a);
            if (nbi_agraph_admits(&g, a, k.cap, 1) && !in_core(&t, nx(&g, v), ny(&g, v))) {
                k.portal[k.np++] = u, k.want[u] = 1;
                break;
            }
        }
    }
    uint32_t ends = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 100;
    const char *pl = getenv("NB_BENCH_PLANT");
    int plant = pl && *pl == '1';
    printf("%s: tile %u,%u, %u x %u cells, clusters of %u; %u graph nodes, %u portals\n", argv[1],
           t.column, t.row, t.core_w, t.core_h, g.cluster, g.nnodes, k.np);
    rc = 0;
    for (int i = 3; i < argc || (argc <= 3 && i < 6); i++) {
        uint32_t bsz = argc > 3 ? (uint32_t)strtoul(argv[i], NULL, 10) : 8u << (i - 3);
        if (bsz && measure(&dj, &k, bsz, ends, plant)) {
            fprintf(stderr, "no memory\n");
            rc = 1;
            break;
        }
    }
    nbi_tdijk_free(&dj);
    free(k.portal), free(k.want);
    nb_bundle_close(b);
    return rc;
}
