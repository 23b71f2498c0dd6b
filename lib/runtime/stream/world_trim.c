/* world_trim.c: nb_world_trim, the world bundle's pages of the tiles not
 * loaded given back to the system (navbake.h, nb_world_open(3)).
 *
 * A long query's search above the tiles reads the world graph's nodes,
 * arcs and landmark distances of every tile it crosses, mapped or not;
 * those pages would stay in the process after it, so that over a walk its
 * resident set grows towards the whole world bundle.  The graph keeps each
 * tile's nodes together (and so their arcs and distances), so a run of
 * tiles not loaded is a run of bytes in each array: each run's whole pages
 * are given back (nbi_file_release), the pages shared with a loaded tile's
 * bytes kept.
 *
 * No lock: the slots are read once each, and a tile loaded or unloaded
 * while this runs only means its pages are kept or given back a trim
 * early, which a query never sees (a page given back is read again from
 * the file).  The arrays' bounds come from the checked counts and tile
 * index (nbi_wgraph_at); an arc index, checked a tile at a time by the
 * queries, is clamped to the section here, so a damaged one only moves
 * which of the section's own pages are given back. */
#include <string.h>

#include "bundle/osfile.h"
#include "core/format.h"
#include "stream/stream.h"

typedef struct span {
    const nb_bundle *b;
    size_t bytes;
} span;

/* Gives back [p, e) when it lies in the mapped file. */
static void give(span *s, const uint8_t *p, const uint8_t *e)
{
    const uint8_t *m = s->b->mapping, *end = m + s->b->mapping_len;
    if (p < m || e > end || e <= p)
        return;
    s->bytes += nbi_file_release(p, (size_t)(e - p));
}

/* Whether idx's payload is the file's bytes (not inflated into memory). */
static int in_file(const nb_bundle *b, size_t idx)
{
    const uint8_t *p = b->sections[idx].payload, *m = b->mapping;
    return b->mapping && p == b->sections[idx].stored && p >= m &&
           p + b->sections[idx].info.usize <= m + b->mapping_len;
}

/* The runs of tiles not loaded of graph g (and of its landmarks lm, or NULL). */
static void trim_graph(span *s, const nb_world *w, const nbi_wgraph *g, const nbi_wlmk *lm)
{
    uint32_t t = 0;
    while (t < g->tiles) {
        if (atomic_load(&w->slots[t].tile)) {
            t++;
            continue;
        }
        uint32_t t1 = t + 1;
        while (t1 < g->tiles && !atomic_load(&w->slots[t1].tile))
            t1++;
        uint32_t n0 = nbi_u32at(g->tile_first, t), n1 = nbi_u32at(g->tile_first, t1);
        give(s, g->node + (size_t)n0 * NBI_WGRAPH_NODE, g->node + (size_t)n1 * NBI_WGRAPH_NODE);
        give(s, g->arc_first + 4 * (size_t)n0, g->arc_first + 4 * (size_t)n1);
        uint32_t a0 = nbi_u32at(g->arc_first, n0), a1 = nbi_u32at(g->arc_first, n1);
        a0 = a0 < g->arcs ? a0 : g->arcs;
        a1 = a1 < g->arcs ? a1 : g->arcs;
        give(s, g->arc + (size_t)a0 * NBI_WGRAPH_ARC, g->arc + (size_t)a1 * NBI_WGRAPH_ARC);
        if (lm) {
            size_t row = (size_t)NBI_WLMK_DIST * lm->count;
            give(s, lm->dist + n0 * row, lm->dist + n1 * row);
        }
        t = t1;
    }
}

size_t nb_world_trim(nb_world *w)
{
    if (!w || !w->index->mapping)
        return 0;
    const nb_bundle *b = w->index;
    span s = {b, 0};
    for (size_t i = 0; i < b->nsections; i++) {
        nbi_wgraph g;
        if (b->sections[i].info.type != NB_SEC_WORLD_GRAPH || !in_file(b, i) ||
            nbi_wgraph_at(b, i, &g, NULL) != NB_OK || g.tiles != w->x.columns * w->x.rows)
            continue;
        nbi_wlmk lm;
        long li = -1;
        for (size_t j = 0; j < b->nsections && li < 0; j++) {
            const nb_section_info *in = &b->sections[j].info;
            if (in->type == NB_SEC_WORLD_LANDMARKS && in->param[0] == g.capability &&
                in->param[1] == g.size && in_file(b, j) && nbi_wlmk_at(b, j, &lm, NULL) == NB_OK)
                li = (long)j;
        }
        trim_graph(&s, w, &g, li >= 0 ? &lm : NULL);
    }
    return s.bytes;
}
