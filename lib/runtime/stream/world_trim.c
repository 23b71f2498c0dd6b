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
 * bytes kept.  The mapping is also turned to small pages (nbi_file_map
 * advises huge pages for a big bundle, which would map 2 MiB for each page
 * read and map given pages back in the background).
 *
 * No lock: the slots are read once each, and a tile loaded or unloaded
 * while this runs only means its pages are kept or given back a trim
 * early, which a query never sees (a page given back is read again from
 * the file).  The arrays' places come from the section table's counts and
 * the payload's length (checked against each other here, as the readers
 * do); the tile index and the arc index are read unchecked (the queries
 * check them, a tile at a time) and clamped to their arrays, so damaged
 * bytes only move which of the section's own pages are given back.
 * The optimal layer's world_opt (read in place by nb_world_sg_find) gives
 * back its tiles' borders the same way; its landmark distances are kept
 * (a tile's nodes' place needs every tile's count, which is in the pages
 * given back). */
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

/* A graph's arrays as its section lays them out (format.h), from the
 * section table's counts and the payload's length alone: a trim reads no
 * page that it would then give back (nbi_wgraph_at and nbi_wlmk_at read
 * the ends of the arc index and each landmark's row, pages all over the
 * sections, and each read maps the pages around it). */
typedef struct lay {
    uint32_t nodes, arcs, tiles, count;
    const uint8_t *tile_first, *node, *arc_first, *arc, *dist;
} lay;

static int graph_lay(const nb_bundle *b, size_t i, uint32_t tiles, lay *g)
{
    const nb_section_info *in = &b->sections[i].info;
    memset(g, 0, sizeof *g);
    g->nodes = in->param[2], g->arcs = in->param[3], g->tiles = tiles;
    uint64_t want = NBI_WGRAPH_HEADER + 4 * ((uint64_t)tiles + 1) +
                    (uint64_t)g->nodes * NBI_WGRAPH_NODE + 4 * ((uint64_t)g->nodes + 1) +
                    (uint64_t)g->arcs * NBI_WGRAPH_ARC;
    if (in->usize != want)
        return 0;
    g->tile_first = b->sections[i].payload + NBI_WGRAPH_HEADER;
    g->node = g->tile_first + 4 * ((size_t)tiles + 1);
    g->arc_first = g->node + (size_t)g->nodes * NBI_WGRAPH_NODE;
    g->arc = g->arc_first + 4 * ((size_t)g->nodes + 1);
    return 1;
}

/* The landmark distances of graph g in section j, if it is g's: count
 * and where the distances start. */
static int lmk_lay(const nb_bundle *b, size_t j, const nb_section_info *gin, lay *g)
{
    const nb_section_info *in = &b->sections[j].info;
    uint32_t count = in->param[2];
    if (in->type != NB_SEC_WORLD_LANDMARKS || in->param[0] != gin->param[0] ||
        in->param[1] != gin->param[1] || count < 1 || count > NBI_WLMK_MAX ||
        in->usize != NBI_WLMK_HEADER + 4 * (uint64_t)count +
                         NBI_WLMK_DIST * (uint64_t)g->nodes * count)
        return 0;
    g->count = count;
    g->dist = b->sections[j].payload + NBI_WLMK_HEADER + 4 * (size_t)count;
    return 1;
}

/* The runs of tiles not loaded of graph g (with its landmarks when count).
 * With give 0, only the arc index's entries at the runs' ends are read:
 * a read maps the pages around it too (the kernel's fault-around), so
 * every read comes before the first page is given, else a read for one
 * run would map back pages of the run given before it. */
static uint32_t trim_graph(span *s, const nb_world *w, const lay *g, int give_back)
{
    uint32_t seen = 0;
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
        n0 = n0 < g->nodes ? n0 : g->nodes;
        n1 = n1 < g->nodes ? n1 : g->nodes;
        if (n1 > n0) {
            /* The arc index's two entries read before its pages are given. */
            uint32_t a0 = nbi_u32at(g->arc_first, n0), a1 = nbi_u32at(g->arc_first, n1);
            a0 = a0 < g->arcs ? a0 : g->arcs;
            a1 = a1 < g->arcs ? a1 : g->arcs;
            seen ^= a0 ^ a1;
            if (!give_back) {
                t = t1;
                continue;
            }
            give(s, g->node + (size_t)n0 * NBI_WGRAPH_NODE,
                 g->node + (size_t)n1 * NBI_WGRAPH_NODE);
            give(s, g->arc_first + 4 * (size_t)n0, g->arc_first + 4 * (size_t)n1);
            give(s, g->arc + (size_t)a0 * NBI_WGRAPH_ARC, g->arc + (size_t)a1 * NBI_WGRAPH_ARC);
            if (g->count) {
                size_t row = (size_t)NBI_WLMK_DIST * g->count;
                give(s, g->dist + n0 * row, g->dist + n1 * row);
            }
        }
        t = t1;
    }
    return seen;
}

/* The optimal layer's borders (world_opt, read in place by opt_wview.c):
 * tile by tile, so a run of tiles not loaded is a run of bytes, found
 * from the tiles' offsets alone (clamped to the borders; the reader
 * checks them).  With give 0 only those offsets are read. */
static uint32_t trim_opt(span *s, const nb_world *w, size_t i, uint32_t tiles, int give_back)
{
    const nb_section_info *in = &s->b->sections[i].info;
    const uint8_t *p = s->b->sections[i].payload;
    if (in->usize < NBI_WOPT_HEADER || nbi_get32(p + NBI_WOPT_TILES) != tiles)
        return 0;
    uint32_t links = nbi_get32(p + NBI_WOPT_LINKS), bytes = nbi_get32(p + NBI_WOPT_BYTES);
    const uint8_t *off = p + NBI_WOPT_HEADER, *at = off + 4 * ((size_t)tiles + 1) + 4 * (size_t)links;
    if ((uint64_t)(at - p) + bytes > in->usize)
        return 0;
    uint32_t seen = 0;
    for (uint32_t t = 0; t < tiles;) {
        if (atomic_load(&w->slots[t].tile)) {
            t++;
            continue;
        }
        uint32_t t1 = t + 1;
        while (t1 < tiles && !atomic_load(&w->slots[t1].tile))
            t1++;
        uint32_t b0 = nbi_u32at(off, t), b1 = nbi_u32at(off, t1);
        b0 = b0 < bytes ? b0 : bytes;
        b1 = b1 < bytes ? b1 : bytes;
        seen ^= b0 ^ b1;
        if (give_back)
            give(s, at + b0, at + b1);
        t = t1;
    }
    return seen;
}

size_t nb_world_trim(nb_world *w)
{
    if (!w || !w->index->mapping)
        return 0;
    const nb_bundle *b = w->index;
    span s = {b, 0};
    /* A game that trims wants memory to follow the pages read: small pages
     * (else each page read maps the 2 MiB around it, and the kernel maps
     * them back over what was given). */
    nbi_file_small_pages(b->mapping, b->mapping_len);
    uint32_t tiles = w->x.columns * w->x.rows;
    for (size_t i = 0; i < b->nsections; i++) {
        lay g;
        if (b->sections[i].info.type != NB_SEC_WORLD_GRAPH || !in_file(b, i) ||
            !graph_lay(b, i, tiles, &g))
            continue;
        for (size_t j = 0; j < b->nsections && !g.count; j++)
            if (!in_file(b, j) || !lmk_lay(b, j, &b->sections[i].info, &g))
                g.count = 0, g.dist = NULL;
        /* The reads, then the gives (kept from being optimised away). */
        volatile uint32_t sink = trim_graph(&s, w, &g, 0);
        (void)sink;
        trim_graph(&s, w, &g, 1);
    }
    for (size_t i = 0; i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_WORLD_OPT && in_file(b, i)) {
            volatile uint32_t sink = trim_opt(&s, w, i, tiles, 0);
            (void)sink;
            trim_opt(&s, w, i, tiles, 1);
        }
    return s.bytes;
}
