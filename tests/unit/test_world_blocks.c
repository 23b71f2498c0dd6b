/* test_world_blocks.c: the level of tile blocks the link writes above a
 * world's HAA* graph (NB_SEC_WORLD_BLOCKS; lib/bake/world/blocks_link.c,
 * lib/runtime/world/blocks.c).  Worlds cut from shared maps (the sample
 * map without them) are baked with `blocks: S` for a few S (one leaving
 * narrower blocks at the world's edges); for every block, its entries are
 * the world graph's nodes with an arc to or from another block, found
 * from the nodes' cells alone, and from each entry a plain Dijkstra (an
 * array scan, no heap) over the world graph's arcs kept to the block's
 * cells gives every other entry the length of the shortest path over the
 * level's arcs from it, and each stored arc the length of its target.
 * Then crafted damages of the section are refused by name. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/haa_world.h"
#include "worldbake.h"

#define INF HUGE_VAL

/* Shortest lengths from src over a graph given as a callback-free CSR of
 * n nodes (to, len per arc): O(n^2) scans, the plainest Dijkstra. */
static void plain_dijkstra(uint32_t n, const uint32_t *first, const uint32_t *to, const double *len,
                           uint32_t src, double *d, uint8_t *done)
{
    for (uint32_t i = 0; i < n; i++)
        d[i] = INF, done[i] = 0;
    d[src] = 0;
    for (;;) {
        uint32_t u = n;
        for (uint32_t i = 0; i < n; i++)
            if (!done[i] && d[i] < INF && (u == n || d[i] < d[u]))
                u = i;
        if (u == n)
            return;
        done[u] = 1;
        for (uint32_t k = first[u]; k < first[u + 1]; k++)
            if (d[u] + len[k] < d[to[k]])
                d[to[k]] = d[u] + len[k];
    }
}

/* Both unreached, or both reached at lengths within 1e-6 (INF against a
 * length is never close: INF - b is INF, which the tolerance would take). */
static int close_to(double a, double b)
{
    if (a == INF || b == INF)
        return a == b;
    return fabs(a - b) <= 1e-6 * (1 + fabs(a));
}

/* The checks against the independent answers, for one world graph and its level. */
static void against_dijkstra(const char *what, const nbi_wgraph *g, const nbi_wblocks *r,
                             uint32_t tile, uint32_t side)
{
    uint32_t n = g->nodes, span = tile * side;
    uint32_t bcols = (g->width + span - 1) / span;
    uint32_t *blk = malloc((n + 1) * sizeof *blk), *loc = malloc((n + 1) * sizeof *loc);
    uint8_t *border = calloc(n + 1, 1);
    for (uint32_t u = 0; u < n; u++) {
        const uint8_t *q = g->node + (size_t)u * NBI_WGRAPH_NODE;
        blk[u] = nbi_get32(q + NBI_WGRAPH_N_Y) / span * bcols + nbi_get32(q + NBI_WGRAPH_N_X) / span;
    }
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t k = nbi_u32at(g->arc_first, u); k < nbi_u32at(g->arc_first, u + 1); k++) {
            uint32_t v = nbi_get32(g->arc + (size_t)k * NBI_WGRAPH_ARC + NBI_WGRAPH_A_TO);
            if (blk[u] != blk[v])
                border[u] = border[v] = 1;
        }
    ok(r->columns == bcols && r->side == side, "%s, blocks of %u: %u x %u blocks (expected %u wide)",
       what, side, r->columns, r->rows, bcols);
    uint32_t K = r->columns * r->rows, wrong_set = 0, wrong_dist = 0, wrong_arc = 0, pairs = 0,
             joined = 0, maxm = 0;
    uint32_t *nodes = malloc((n + 1) * sizeof *nodes), *first = malloc((n + 2) * sizeof *first);
    uint32_t *to = malloc(((size_t)g->arcs + 1) * sizeof *to);
    double *len = malloc(((size_t)g->arcs + 1) * sizeof *len), *d = malloc((n + 1) * sizeof *d);
    uint8_t *done = malloc(n + 1);
    for (uint32_t k = 0; k < K; k++) {
        /* The block's nodes and arcs kept to it, numbered in the block. */
        uint32_t m = 0, a = 0;
        for (uint32_t u = 0; u < n; u++)
            if (blk[u] == k)
                loc[u] = m, nodes[m++] = u;
        for (uint32_t i = 0; i < m; i++) {
            first[i] = a;
            uint32_t u = nodes[i];
            for (uint32_t e = nbi_u32at(g->arc_first, u); e < nbi_u32at(g->arc_first, u + 1); e++) {
                const uint8_t *q = g->arc + (size_t)e * NBI_WGRAPH_ARC;
                uint32_t v = nbi_get32(q + NBI_WGRAPH_A_TO);
                if (blk[v] != k)
                    continue;
                to[a] = loc[v];
                len[a++] = nbi_get32(q + NBI_WGRAPH_A_CARD) +
                           M_SQRT2 * nbi_get32(q + NBI_WGRAPH_A_DIAG);
            }
        }
        first[m] = a;
        /* Its entries: the border nodes, in increasing order. */
        uint32_t e0 = nbi_u32at(r->block_first, k), e1 = nbi_u32at(r->block_first, k + 1), c = 0;
        for (uint32_t i = 0; i < m; i++)
            if (border[nodes[i]]) {
                uint32_t e = e0 + c++;
                wrong_set += e >= e1 || nbi_u32at(r->entry, e) != nodes[i];
            }
        wrong_set += c != e1 - e0;
        if (c != e1 - e0)
            continue;
        maxm = c > maxm ? c : maxm;
        /* The level's own arcs of the block, as a graph of its entries. */
        uint32_t *lf = malloc((c + 1) * sizeof *lf), na = 0;
        uint32_t a0 = nbi_u32at(r->arc_first, e0), a1 = nbi_u32at(r->arc_first, e1);
        uint32_t *lt = malloc((a1 - a0 + 1) * sizeof *lt);
        double *ll = malloc((a1 - a0 + 1) * sizeof *ll), *ld = malloc((c + 1) * sizeof *ld);
        uint8_t *ldone = malloc(c + 1);
        for (uint32_t e = e0; e < e1; e++) {
            lf[e - e0] = na;
            for (uint32_t x = nbi_u32at(r->arc_first, e); x < nbi_u32at(r->arc_first, e + 1); x++) {
                const uint8_t *q = r->arc + (size_t)x * NBI_WBLK_ARC;
                lt[na] = nbi_get32(q + NBI_WBLK_A_TO) - e0;
                ll[na++] = nbi_get32(q + NBI_WBLK_A_CARD) + M_SQRT2 * nbi_get32(q + NBI_WBLK_A_DIAG);
            }
        }
        lf[c] = na;
        for (uint32_t e = e0; e < e1; e++) {
            plain_dijkstra(m, first, to, len, loc[nbi_u32at(r->entry, e)], d, done);
            plain_dijkstra(c, lf, lt, ll, e - e0, ld, ldone);
            for (uint32_t f = e0; f < e1; f++) {
                double want = d[loc[nbi_u32at(r->entry, f)]];
                pairs++;
                joined += want < INF && f != e;
                if (!close_to(want, ld[f - e0]) && wrong_dist++ < 3)
                    diag("%s, block %u: entry %u to %u: %.6f over the world graph, %.6f over the "
                         "level",
                         what, k, e, f, want, ld[f - e0]);
            }
            for (uint32_t x = lf[e - e0]; x < lf[e - e0 + 1]; x++)
                wrong_arc += !close_to(d[loc[nbi_u32at(r->entry, lt[x] + e0)]], ll[x]);
        }
        free(lf), free(lt), free(ll), free(ld), free(ldone);
    }
    ok(wrong_set == 0, "%s, blocks of %u: every block's entries are the nodes with an arc to or "
       "from another block (%u wrong, %u entries, at most %u a block)",
       what, side, wrong_set, r->entries, maxm);
    ok(wrong_dist == 0,
       "%s, blocks of %u: every pair of a block's entries is as far over the level as a plain "
       "Dijkstra over the world graph in the block finds (%u of %u pairs differ, %u joined)",
       what, side, wrong_dist, pairs, joined);
    ok(wrong_arc == 0,
       "%s, blocks of %u: each of the level's %u arcs is its ends' distance in the block (%u "
       "differ; %u joined pairs)",
       what, side, r->arcs, wrong_arc, joined);
    free(blk), free(loc), free(border), free(nodes), free(first), free(to), free(len), free(d),
        free(done);
}

static int adjacent(nb_cell a, nb_cell b)
{
    return abs(a.x - b.x) <= 1 && abs(a.y - b.y) <= 1 && (a.x != b.x || a.y != b.y);
}

/* w described into in, every tile of it loaded. */
static void load_all(nb_world *w, nb_world_info *in)
{
    nb_world_describe(w, in);
    for (uint32_t y = 0; y < in->rows; y++)
        for (uint32_t x = 0; x < in->columns; x++)
            nb_world_load(w, (nb_world_tile){x, y}, NULL);
}

/* World HAA* on the level of blocks against the same search on the world
 * graph alone: the same length above the tiles for every pair (the
 * level's distances are exact), the refined path a walk of the whole map;
 * the pairs far apart expand fewer nodes.  fault plants the level's arcs
 * taken as world arcs (not walked again inside their blocks). */
static void queries(const char *what, const char *dir, const char *map, const char *agents,
                    int pairs, int fault)
{
    nb_err err;
    nb_world *w = NULL;
    nbi_whaa *q = NULL;
    nb_bundle *whole = tw_whole_bake(map, NULL, agents);
    if (!ok(whole && nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, NULL, &w, &err) == NB_OK &&
                nbi_whaa_new(w, nb_agent_get(whole, 0)->capability, 1, &q, &err) == NB_OK &&
                nbi_whaa_has_blocks(q),
            "%s: world HAA* opens on the level of blocks (%s)", what, whole ? err.msg : "no bake"))
        goto out;
    nb_capability cap = nb_agent_get(whole, 0)->capability;
    nb_world_info in;
    load_all(w, &in);
    nbi_whaa_set_block_fault(q, fault);
    tu_rng r = {0xb10c + (uint64_t)pairs};
    unsigned differ = 0, bad_walk = 0, found = 0, far = 0;
    uint64_t with = 0, without = 0;
    for (int i = 0; i < pairs; i++) {
        nb_cell e[2];
        for (int k = 0; k < 2; k++)
            for (int tries = 0; tries < 500; tries++) {
                e[k] = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
                if (i == 0) /* the first pair: the corners' nearest standable cells */
                    e[k] = k ? (nb_cell){(int32_t)in.width - 1 - tries % (int32_t)in.width,
                                         (int32_t)in.height - 1 - tries / 2 % (int32_t)in.height}
                             : (nb_cell){tries % (int32_t)in.width, tries / 2 % (int32_t)in.height};
                if (nb_can_stand(whole, cap, 1, e[k].x, e[k].y) == 1)
                    break;
            }
        nbi_whaa_result ra, rb;
        nbi_whaa_set_blocks(q, 0);
        nb_status sb = nbi_whaa_find(q, e[0], e[1], NULL, &rb, NULL, 0, NULL, &err);
        nbi_whaa_set_blocks(q, 1);
        nb_status sa = nbi_whaa_find(q, e[0], e[1], NULL, &ra, NULL, 0, NULL, &err);
        if (sa != NB_OK || sb != NB_OK || ra.found != rb.found ||
            fabs(ra.abstract_length - rb.abstract_length) > 1e-6 * (1 + rb.abstract_length)) {
            if (!differ++)
                diag("(%d, %d) to (%d, %d): on the level %d %.4f, on the world graph %d %.4f (%s)",
                     e[0].x, e[0].y, e[1].x, e[1].y, ra.found, ra.abstract_length, rb.found,
                     rb.abstract_length, sa != NB_OK || sb != NB_OK ? err.msg : "ok");
            continue;
        }
        if (!ra.found)
            continue;
        found++;
        int walk = ra.path_len >= 1 && ra.path[0].x == e[0].x && ra.path[0].y == e[0].y &&
                   ra.path[ra.path_len - 1].x == e[1].x && ra.path[ra.path_len - 1].y == e[1].y;
        for (size_t k = 0; walk && k < ra.path_len; k++)
            walk = nb_can_stand(whole, cap, 1, ra.path[k].x, ra.path[k].y) == 1 &&
                   (k == 0 || adjacent(ra.path[k - 1], ra.path[k]));
        bad_walk += !walk;
        if (nbi_octile_cells(e[0].x, e[0].y, e[1].x, e[1].y) > in.width / 2)
            far++, with += ra.expanded, without += rb.expanded;
    }
    if (fault) {
        ok(bad_walk > 0, "%s: planted, the level's arcs not walked again: %u of %u paths are "
           "not walks", what, bad_walk, found);
        goto out;
    }
    is_int(differ, 0, "%s: the same length above the tiles on the level as on the world graph "
           "(%u paths)", what, found);
    is_int(bad_walk, 0, "%s: every path on the level is a walk of the whole map", what);
    ok(found >= (unsigned)pairs / 4 && far > 0 && with < without,
       "%s: %u pairs far apart expand %llu nodes on the level, %llu on the world graph", what,
       far, (unsigned long long)with, (unsigned long long)without);
out:
    nbi_whaa_free(q);
    nb_world_close(w);
    nb_bundle_close(whole);
}

/* World HAA* on the level of blocks against the plainest answer: each
 * end's costs to its tile's portals (the insertion run to its last node by
 * a heap, nbi_whaa_insertion) joined to a plain Dijkstra over the whole
 * world graph (every arc, both ways as stored; an extra node for the
 * start); the length above the tiles is the least of the goal's portals'
 * sums.  Ends in different tiles (one tile's own path is no world graph's).
 * Corner pairs first (the longest searches), then random ones. */
static void against_plain(const char *what, const char *dir, const char *map, const char *agents,
                          int pairs)
{
    nb_err err;
    nb_world *w = NULL;
    nbi_whaa *q = NULL;
    nb_bundle *whole = tw_whole_bake(map, NULL, agents);
    nbi_wgraph g;
    long gi = -1;
    if (!ok(whole && nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, NULL, &w, &err) == NB_OK &&
                nbi_whaa_new(w, nb_agent_get(whole, 0)->capability, 1, &q, &err) == NB_OK &&
                nbi_whaa_has_blocks(q) &&
                (gi = nbi_wgraph_index(w->index, nb_agent_get(whole, 0)->capability, 1)) >= 0 &&
                nbi_wgraph_at(w->index, (size_t)gi, &g, &err) == NB_OK,
            "%s: world HAA* and its graph open on the level of blocks (%s)", what,
            whole ? err.msg : "no bake"))
        goto out;
    nb_capability cap = nb_agent_get(whole, 0)->capability;
    nb_world_info in;
    load_all(w, &in);
    uint32_t n = g.nodes, maxp = 0;
    for (uint32_t t = 0; t < g.tiles; t++) {
        uint32_t c = nbi_u32at(g.tile_first, t + 1) - nbi_u32at(g.tile_first, t);
        maxp = c > maxp ? c : maxp;
    }
    /* The graph as a CSR of n + 1 nodes: the world graph's arcs, then node n's (the start's). */
    uint32_t *first = malloc(((size_t)n + 2) * sizeof *first);
    uint32_t *to = malloc(((size_t)g.arcs + maxp + 1) * sizeof *to);
    double *len = malloc(((size_t)g.arcs + maxp + 1) * sizeof *len);
    double *d = malloc(((size_t)n + 1) * sizeof *d), *sc = malloc((maxp + 1) * sizeof *sc),
           *gc = malloc((maxp + 1) * sizeof *gc);
    uint8_t *done = malloc((size_t)n + 1);
    if (!first || !to || !len || !d || !sc || !gc || !done)
        goto out_free;
    for (uint32_t u = 0; u <= n; u++)
        first[u] = nbi_u32at(g.arc_first, u);
    for (uint32_t k = 0; k < g.arcs; k++) {
        const uint8_t *a = g.arc + (size_t)k * NBI_WGRAPH_ARC;
        to[k] = nbi_get32(a + NBI_WGRAPH_A_TO);
        len[k] = nbi_steps_length(nbi_get32(a + NBI_WGRAPH_A_CARD), nbi_get32(a + NBI_WGRAPH_A_DIAG));
    }
    tu_rng r = {0xab0e + (uint64_t)pairs};
    unsigned differ = 0, compared = 0, found = 0;
    for (int i = 0; i < pairs; i++) {
        nb_cell e[2];
        for (int k = 0; k < 2; k++)
            for (int tries = 0; tries < 500; tries++) {
                e[k] = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
                if (i < 2) /* two corner pairs: the corners' nearest standable cells */
                    e[k] = (k ^ i) ? (nb_cell){(int32_t)in.width - 1 - tries % (int32_t)in.width,
                                               (int32_t)in.height - 1 - tries / 2 % (int32_t)in.height}
                                   : (nb_cell){tries % (int32_t)in.width, tries / 2 % (int32_t)in.height};
                if (nb_can_stand(whole, cap, 1, e[k].x, e[k].y) == 1)
                    break;
            }
        uint32_t ts = (uint32_t)e[0].y / in.tile * in.columns + (uint32_t)e[0].x / in.tile,
                 tg = (uint32_t)e[1].y / in.tile * in.columns + (uint32_t)e[1].x / in.tile;
        size_t ns = 0, ng = 0;
        if (ts == tg || nbi_whaa_insertion(q, e[0], 1, sc, maxp + 1, &ns, &err) != NB_OK ||
            nbi_whaa_insertion(q, e[1], 1, gc, maxp + 1, &ng, &err) != NB_OK)
            continue;
        uint32_t fs = nbi_u32at(g.tile_first, ts), fg = nbi_u32at(g.tile_first, tg), m = g.arcs;
        for (size_t j = 0; j < ns; j++)
            if (sc[j] >= 0)
                to[m] = fs + (uint32_t)j, len[m++] = sc[j];
        first[n + 1] = m;
        plain_dijkstra(n + 1, first, to, len, n, d, done);
        double want = INF;
        for (size_t j = 0; j < ng; j++)
            if (gc[j] >= 0 && d[fg + j] + gc[j] < want)
                want = d[fg + j] + gc[j];
        nbi_whaa_result res;
        nbi_whaa_set_refine(q, 0);
        nb_status st = nbi_whaa_find(q, e[0], e[1], NULL, &res, NULL, 0, NULL, &err);
        double got = st == NB_OK && res.found ? res.abstract_length : INF;
        compared++;
        found += got < INF;
        if (!close_to(got, want) && !differ++)
            diag("(%d, %d) to (%d, %d): world HAA* on the level %.4f (%s), plain Dijkstra %.4f",
                 e[0].x, e[0].y, e[1].x, e[1].y, got, st == NB_OK ? "ok" : err.msg, want);
    }
    nbi_whaa_set_refine(q, 1);
    ok(differ == 0 && found > 0 && compared >= (unsigned)pairs / 2,
       "%s: the length above the tiles on the level equals a plain Dijkstra over the whole world "
       "graph (%u of %u pairs differ, %u joined)",
       what, differ, compared, found);
out_free:
    free(first), free(to), free(len), free(d), free(sc), free(gc), free(done);
out:
    nbi_whaa_free(q);
    nb_world_close(w);
    nb_bundle_close(whole);
}

static int with_blocks(const char *dir, uint32_t side)
{
    FILE *f = fopen(tu_path(dir, "world.yaml"), "a");
    return f && fprintf(f, "blocks: %u\n", side) > 0 && fclose(f) == 0;
}

/* A world of map in tiles of tile cut and baked in dir with blocks of side; 1 when checked. */
static int check(const char *what, const char *map_, uint32_t tile, uint32_t cluster,
                 const char *agents_, const char *dir, uint32_t side)
{
    nb_err err;
    char *map = strdup(map_), *agents = strdup(agents_);
    tw_world wd;
    snprintf(err.msg, sizeof err.msg, "the manifest not written");
    int baked = nbb_world_cut(map, NULL, agents, tile, cluster, dir, 2, NULL, NULL, NULL, &err) ==
                    NB_OK &&
                with_blocks(dir, side) && tw_bake_world(dir, 0, &wd, &err);
    free(map), free(agents);
    if (!ok(baked, "%s: cut into tiles of %u with blocks of %u, baked and linked: %s", what, tile,
            side, err.msg))
        return 0;
    nb_bundle *b = NULL;
    int checked = 0;
    if (ok(nb_bundle_open(tu_path(dir, "world.nbw"), NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK,
           "%s: the world bundle verifies: %s", what, err.msg)) {
        unsigned levels = 0;
        uint64_t arcs = 0;
        for (size_t i = 0; i < b->nsections; i++) {
            if (b->sections[i].info.type != NB_SEC_WORLD_GRAPH)
                continue;
            const nb_section_info *in = &b->sections[i].info;
            long bi = nbi_wblocks_index(b, in->param[0], in->param[1]);
            nbi_wgraph g;
            nbi_wblocks r;
            if (!ok(bi >= 0 && nbi_wgraph_at(b, i, &g, &err) == NB_OK &&
                        nbi_wblocks_at(b, (size_t)bi, &r, &err) == NB_OK,
                    "%s: capability %#x size %u: its world graph has its level of blocks", what,
                    in->param[0], in->param[1]))
                continue;
            arcs += r.arcs;
            against_dijkstra(what, &g, &r, tile, side);
            levels++;
        }
        checked = levels > 0 && arcs > 0;
        ok(checked, "%s: %u levels of blocks checked, %llu arcs in all", what, levels,
           (unsigned long long)arcs);
    }
    nb_bundle_close(b);
    tw_world_close(&wd);
    return checked;
}

/* The section of the world bundle at path with the u32 at offset set to v,
 * written to out: 1 when nb_bundle_open with NB_OPEN_VERIFY refuses it with
 * a message naming world_blocks and holding want. */
static int refuses(const char *path, const char *out, size_t offset, uint32_t v, const char *want,
                   const char *what)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(path, NB_SEC_WORLD_BLOCKS, &len, &info);
    if (!ok(p && offset + 4 <= len, "damaged: %s: the section is there", what))
        return free(p), 0;
    nbi_put32(p + offset, v);
    nb_bundle *b = NULL;
    nb_err err;
    int r = tu_section_put(path, out, &info, p, len) &&
            nb_bundle_open(out, NB_OPEN_VERIFY, NULL, &b, &err) == NB_ERR_FORMAT &&
            strstr(err.msg, "(world_blocks)") != NULL && strstr(err.msg, want) != NULL;
    ok(r, "damaged: %s: refused naming the section (%s)", what, b ? "opened" : err.msg);
    nb_bundle_close(b);
    free(p);
    return r;
}

static void damaged(const char *dir)
{
    char world[4096], out[4096];
    snprintf(world, sizeof world, "%s/world.nbw", dir);
    snprintf(out, sizeof out, "%s/damaged.nbw", tu_tmpdir());
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(world, NB_SEC_WORLD_BLOCKS, &len, &info);
    if (!ok(p && len >= NBI_WBLK_HEADER, "damaged: the world bundle has a level of blocks"))
        return free(p);
    uint32_t K = nbi_get32(p + NBI_WBLK_COLUMNS) * nbi_get32(p + NBI_WBLK_ROWS),
             M = nbi_get32(p + NBI_WBLK_ENTRIES), A = nbi_get32(p + NBI_WBLK_ARCS),
             N = nbi_get32(p + NBI_WBLK_NODES);
    size_t bf = NBI_WBLK_HEADER, en = bf + 4 * ((size_t)K + 1), af = en + 4 * (size_t)M,
           arc = af + 4 * ((size_t)M + 1);
    /* A block with two entries or more, and its first arc. */
    uint32_t k2 = K, e0 = 0;
    for (uint32_t k = 0; k < K && k2 == K; k++)
        if (nbi_u32at(p + bf, k + 1) - nbi_u32at(p + bf, k) >= 2 &&
            nbi_u32at(p + af, nbi_u32at(p + bf, k)) < nbi_u32at(p + af, nbi_u32at(p + bf, k) + 1))
            k2 = k, e0 = nbi_u32at(p + bf, k);
    uint32_t a0 = nbi_u32at(p + af, e0), e1 = nbi_u32at(p + bf, k2 + 1);
    uint32_t other = k2 + 1 < K && nbi_u32at(p + bf, K) > e1 ? nbi_u32at(p + en, e1) : 0;
    free(p);
    if (!ok(k2 < K && A > 0, "damaged: block %u has entries %u to %u and arcs from %u", k2, e0, e1,
            a0))
        return;
    refuses(world, out, NBI_WBLK_SIDE, 5, "disagree", "the side the table does not say");
    refuses(world, out, NBI_WBLK_COLUMNS, K + 1, "expected 1 to", "blocks that do not tile the world");
    refuses(world, out, NBI_WBLK_NODES, N + 1, "expected 1 to", "another world graph's node count");
    refuses(world, out, NBI_WBLK_ARCS, A + 1, "bytes for", "an arc count past the payload");
    refuses(world, out, bf + 4 * (size_t)K, M - 1, "do not start at 0", "an index not ending at M");
    refuses(world, out, bf + 4 * ((size_t)k2 + 1), e0 - 1, "out of order",
            "a block's entries running backwards");
    refuses(world, out, en + 4 * (size_t)e0, N, "is not a node of the block's tiles",
            "an entry that is no node");
    refuses(world, out, en + 4 * ((size_t)e0 + 1), 0,
            "is not a node of the block's tiles", "entries not increasing (node 0 second)");
    if (other)
        refuses(world, out, en + 4 * (size_t)e0, other, "is not a node of the block's tiles",
                "an entry of another block");
    refuses(world, out, af + 4 * ((size_t)e0 + 1), A + 1, "out of order",
            "an entry's arcs past the arcs");
    refuses(world, out, arc + (size_t)a0 * NBI_WBLK_ARC + NBI_WBLK_A_TO, e1, "leaves the block",
            "an arc to an entry of another block");
    refuses(world, out, arc + (size_t)a0 * NBI_WBLK_ARC + NBI_WBLK_A_TO, e0, "leaves the block",
            "an arc to its own entry");
    refuses(world, out, arc + (size_t)a0 * NBI_WBLK_ARC + NBI_WBLK_A_CARD, 0,
            "shorter than the cells lie apart", "an arc shorter than its ends lie apart");
    refuses(world, out, arc + (size_t)a0 * NBI_WBLK_ARC + NBI_WBLK_A_DIAG, 1u << 30,
            "shorter than the cells lie apart", "an arc past the format's bound");
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    static const struct {
        const char *map;
        uint32_t tile, side;
    } maps[] = {{"maps/dao/brc202d.map", 64, 3}, {"maps/mazes/maze512-4-0.map", 64, 2},
                {"maps/bg/AR0042SR.map", 64, 4}};
    char dir[4096], last[4096] = "";
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        /* Copies: tu_path's, tu_src's and tu_shared's buffers rotate. */
        const char *shared = tu_shared(maps[i].map);
        if (!shared)
            continue;
        char *map = strdup(shared), *agents = strdup(tu_src("data/haa-agents.yaml"));
        snprintf(dir, sizeof dir, "%s/w%zu", tmp, i);
        if (check(maps[i].map, map, maps[i].tile, 16, agents, dir, maps[i].side)) {
            snprintf(last, sizeof last, "%s", dir);
            queries(maps[i].map, dir, map, agents, 200, 0);
            against_plain(maps[i].map, dir, map, agents, 120);
            if (i == 0)
                queries(maps[i].map, dir, map, agents, 50, 1);
        }
        free(map), free(agents);
    }
    if (!*last) {
        snprintf(dir, sizeof dir, "%s/sample", tmp);
        char *map = strdup(tu_src("data/sample.map")),
             *agents = strdup(tu_src("data/sample-agents.yaml"));
        if (check("data/sample.map", map, 16, 8, agents, dir, 2)) {
            snprintf(last, sizeof last, "%s", dir);
            queries("data/sample.map", dir, map, agents, 200, 0);
        }
        free(map), free(agents);
    }
    if (*last)
        damaged(last);
    return done_testing();
}
