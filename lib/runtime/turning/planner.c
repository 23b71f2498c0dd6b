/* planner.c: the workspace of a unit on a bundle's map.  Making one reads
 * and checks the unit's three sections and decodes the hit-check table;
 * nothing in it is sized by the map but the tile directory (4 bytes for
 * 64 x 64 cells): the blocked cells are read by tiles and the search
 * nodes made as queries reach them (cells.c, nodes.c). */
#include <math.h>
#include <stdlib.h>

#include "turning/planner.h"

nb_status nb_planner_open(const nb_bundle *b, const char *unit, nb_planner **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_planner_open: no place for the planner");
    *out = NULL;
    if (!nb_has_map(b))
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle has no map to plan on", b->path);
    nb_planner *p = nbi_zalloc_array(b->a, 1, sizeof *p);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for a planner");
    p->bundle = b;
    p->a = b->a;
    p->route.a = p->fwd.a = p->bwd.a = p->mid.a = p->tmp.a = p->a;
    nb_status st = nbi_unit_sections(b, unit, &p->unit, &p->hc, &p->ct, err);
    if (st != NB_OK)
        goto fail;
    unsigned nt = nb_terrain_count(b);
    if (nt < 32 && (p->unit.capability >> nt)) {
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: unit '%s' names terrains the legend does not have",
                      b->path, unit);
        goto fail;
    }
    p->K = p->unit.headings;
    p->W = nb_map_width(b);
    p->H = nb_map_height(b);
    /* The unit's terrains as a mask (0 in a unit is every terrain). */
    p->cap = p->unit.capability ? p->unit.capability
                                : nt >= 32 ? ~(nb_capability)0 : ((nb_capability)1 << nt) - 1;
    nbi_neighbourhood(48, p->off);
    for (int i = 0; i < NBI_MAX_NEIGHBOURS; i++)
        p->oindex[p->off[i][1] + 3][p->off[i][0] + 3] = (int8_t)i;
    p->oindex[3][3] = -1;
    nbi_nodes_init(&p->nodes, p->a, p->K);
    nbi_nodes_init(&p->rra.nodes, p->a, 1);
    if ((st = nbi_cells_init(&p->cells, b, p->cap, p->unit.width, err)) ||
        (st = nbi_edges_init(&p->edges, &p->hc, p->a, 32, err)))
        goto fail;
    if (!nbi_open_init(&p->heap, p->a, 1024) || !nbi_open_init(&p->rra.heap, p->a, 1024) ||
        !nbi_route_reserve(&p->route, 64) ||
        !nbi_route_reserve(&p->fwd, 64) || !nbi_route_reserve(&p->bwd, 64) ||
        !nbi_route_reserve(&p->mid, 64) || !nbi_route_reserve(&p->tmp, 64) ||
        !(p->seg = nbi_alloc_array(p->a, 64 * NB_CURVE_MAX_SEGMENTS, sizeof *p->seg))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "out of memory for a planner");
        goto fail;
    }
    p->capseg = 64 * NB_CURVE_MAX_SEGMENTS;
    p->heap.nodes = &p->nodes;
    p->rra.heap.nodes = &p->rra.nodes;
    *out = p;
    nbi_ok(err);
    return NB_OK;
fail:
    nb_planner_close(p);
    return st;
}

void nb_planner_close(nb_planner *p)
{
    if (!p)
        return;
    nbi_cells_free(&p->cells);
    nbi_edges_free(&p->edges, p->a);
    nbi_nodes_free(&p->nodes);
    nbi_nodes_free(&p->rra.nodes);
    nbi_open_free(&p->rra.heap);
    nbi_free(p->a, p->path);
    nbi_free(p->a, p->seg);
    nbi_open_free(&p->heap);
    nbi_route_free(&p->route);
    nbi_route_free(&p->fwd);
    nbi_route_free(&p->bwd);
    nbi_route_free(&p->mid);
    nbi_route_free(&p->tmp);
    nbi_free(p->a, p);
}

const nb_unit *nb_planner_unit(const nb_planner *p) { return &p->unit; }

size_t nb_planner_bytes(const nb_planner *p)
{
    const nbi_edges *e = &p->edges;
    size_t entries = (size_t)e->K * e->K * e->N, curves = e->ncurves;
    size_t table = entries * (sizeof *e->efirst + 1 + sizeof *e->least) + curves * (sizeof *e->len + sizeof *e->code) +
                   (e->masks ? curves * e->words * sizeof *e->mask
                             : curves * (sizeof *e->cfirst + sizeof *e->cnum));
    size_t routes = (p->route.cap + p->fwd.cap + p->bwd.cap + p->mid.cap + p->tmp.cap) *
                    (sizeof(nb_pose) + sizeof(nb_curve));
    return sizeof *p + table + (size_t)(p->cells.tw * p->cells.th) * sizeof *p->cells.dir +
           p->cells.n * sizeof(nbi_tile) + p->cells.capn * sizeof *p->cells.pool +
           nbi_nodes_bytes(&p->nodes) + nbi_nodes_bytes(&p->rra.nodes) +
           nbi_open_bytes(&p->heap) + nbi_open_bytes(&p->rra.heap) + routes +
           p->capseg * sizeof *p->seg + p->cappath * sizeof *p->path;
}
