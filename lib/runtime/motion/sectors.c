/* sectors.c: the sector abstraction that long motion-constrained paths
 * are planned on first (Sturtevant, "Memory-efficient abstractions for
 * pathfinding", 2007, as the motion paper uses it): the map is cut into
 * square sectors; the cells an agent may stand on in a sector split into
 * regions (connected inside the sector by octile moves that cut no
 * corner); a region's node sits at its cell nearest the region's centre;
 * regions of neighbouring sectors are joined when a move crosses between
 * them.  An abstract path over regions then gives the intermediate goals
 * that the motion search refines a few sectors at a time. */
#include <math.h>
#include <stdlib.h>

#include "core/grid.h"
#include "motion/motion.h"

/* An octile move from (x, y) by move k (core/grid.h) that cuts no corner. */
static int move_ok(const nbi_stand *stand, long x, long y, unsigned k)
{
    long nx = x + nbi_move_dx[k], ny = y + nbi_move_dy[k];
    if (!nbi_stand_at(stand, nx, ny))
        return 0;
    return !NBI_MOVE_IS_DIAGONAL(k) || (nbi_stand_at(stand, nx, y) && nbi_stand_at(stand, x, ny));
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double octile(long dx, long dy)
{
    return nbi_octile((uint32_t)labs(dx), (uint32_t)labs(dy));
}

void nbi_sectors_free(nbi_sectors *s)
{
    nbi_free(s->a, s->region);
    nbi_free(s->a, s->rx);
    nbi_free(s->a, s->ry);
    nbi_free(s->a, s->adj_start);
    nbi_free(s->a, s->adj);
    nbi_free(s->a, s->adj_cost);
    nbi_free(s->a, s->g);
    nbi_free(s->a, s->parent);
    nbi_free(s->a, s->stamp);
    nbi_free(s->a, s->apath);
    nbi_heap_free(&s->heap);
    memset(s, 0, sizeof *s);
}

size_t nbi_sectors_bytes(const nbi_sectors *s)
{
    size_t nr = s->nregions, arcs = s->adj_start ? s->adj_start[nr] : 0;
    return (size_t)s->w * s->h * sizeof *s->region +
           nr * (sizeof *s->rx + sizeof *s->ry + sizeof *s->g + sizeof *s->parent +
                 sizeof *s->stamp + sizeof *s->apath) +
           (nr + 1) * sizeof *s->adj_start + arcs * (sizeof *s->adj + sizeof *s->adj_cost) +
           nbi_heap_bytes(&s->heap);
}

nb_status nbi_sectors_build(nbi_sectors *s, const nb_allocator *alloc, const nbi_stand *stand,
                            unsigned size, nb_err *err)
{
    uint32_t w = stand->w, h = stand->h;
    memset(s, 0, sizeof *s);
    s->a = alloc;
    s->size = size;
    s->w = w;
    s->h = h;
    s->sw = (w + size - 1) / size;
    s->sh = (h + size - 1) / size;
    size_t cells = (size_t)w * h, cap = 1024, npairs = 0, pcap = 4096;
    uint32_t *members = nbi_alloc_array(s->a, (size_t)size * size, sizeof *members);
    uint64_t *pairs = nbi_alloc_array(s->a, pcap, sizeof *pairs);
    s->region = nbi_alloc_array(s->a, cells, sizeof *s->region);
    s->rx = nbi_alloc_array(s->a, cap, sizeof *s->rx);
    s->ry = nbi_alloc_array(s->a, cap, sizeof *s->ry);
    nb_status st = NB_OK;
    if (!members || !pairs || !s->region || !s->rx || !s->ry) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the sector abstraction");
        goto done;
    }
    for (size_t i = 0; i < cells; i++)
        s->region[i] = NBI_HEAP_NONE;
    for (uint32_t sy = 0; sy < s->sh; sy++)
        for (uint32_t sx = 0; sx < s->sw; sx++) {
            long x0 = (long)sx * (long)size, y0 = (long)sy * (long)size;
            long x1 = x0 + (long)size < (long)w ? x0 + (long)size : (long)w;
            long y1 = y0 + (long)size < (long)h ? y0 + (long)size : (long)h;
            for (long y = y0; y < y1; y++)
                for (long x = x0; x < x1; x++) {
                    if (!nbi_stand_at(stand, x, y) || s->region[(size_t)y * w + x] != NBI_HEAP_NONE)
                        continue;
                    if (s->nregions == cap) {
                        cap *= 2;
                        int32_t *a = nbi_realloc_array(s->a, s->rx, cap, sizeof *a);
                        int32_t *b2 = a ? nbi_realloc_array(s->a, s->ry, cap, sizeof *b2) : NULL;
                        if (a)
                            s->rx = a;
                        if (!a || !b2) {
                            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the sector abstraction");
                            goto done;
                        }
                        s->ry = b2;
                    }
                    uint32_t r = s->nregions++;
                    size_t n = 0, head = 0;
                    double cx = 0, cy = 0;
                    members[n++] = (uint32_t)((size_t)y * w + x);
                    s->region[(size_t)y * w + x] = r;
                    while (head < n) {
                        uint32_t c = members[head++];
                        long px = (long)(c % w), py = (long)(c / w);
                        cx += px;
                        cy += py;
                        for (unsigned k = 0; k < NBI_MOVES; k++) {
                            long qx = px + nbi_move_dx[k], qy = py + nbi_move_dy[k];
                            if (qx < x0 || qy < y0 || qx >= x1 || qy >= y1 || !move_ok(stand, px, py, k) ||
                                s->region[(size_t)qy * w + qx] != NBI_HEAP_NONE)
                                continue;
                            s->region[(size_t)qy * w + qx] = r;
                            members[n++] = (uint32_t)((size_t)qy * w + qx);
                        }
                    }
                    cx /= (double)n;
                    cy /= (double)n;
                    double best = INFINITY;
                    for (size_t i = 0; i < n; i++) {
                        long px = (long)(members[i] % w), py = (long)(members[i] / w);
                        double d = (px - cx) * (px - cx) + (py - cy) * (py - cy);
                        if (d < best - 1e-9) {
                            best = d;
                            s->rx[r] = (int32_t)px;
                            s->ry[r] = (int32_t)py;
                        }
                    }
                }
        }
    /* Edges: moves that cross a sector border between two regions. */
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t r = s->region[(size_t)y * w + x];
            if (r == NBI_HEAP_NONE)
                continue;
            for (unsigned k = 0; k < NBI_MOVES; k++) {
                long qx = (long)x + nbi_move_dx[k], qy = (long)y + nbi_move_dy[k];
                if (!move_ok(stand, x, y, k) || (qx / (long)size == (long)x / (long)size &&
                                                    qy / (long)size == (long)y / (long)size))
                    continue;
                uint32_t r2 = s->region[(size_t)qy * w + qx];
                if (npairs == pcap) {
                    pcap *= 2;
                    uint64_t *p = nbi_realloc_array(s->a, pairs, pcap, sizeof *p);
                    if (!p) {
                        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the sector abstraction");
                        goto done;
                    }
                    pairs = p;
                }
                pairs[npairs++] = (uint64_t)r << 32 | r2;
            }
        }
    nbi_sort(pairs, npairs, sizeof *pairs, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < npairs; i++)
        if (u == 0 || pairs[i] != pairs[u - 1])
            pairs[u++] = pairs[i];
    uint32_t nr = s->nregions;
    s->adj_start = nbi_zalloc_array(s->a, (size_t)nr + 1, sizeof *s->adj_start);
    s->adj = nbi_alloc_array(s->a, (u ? u : 1), sizeof *s->adj);
    s->adj_cost = nbi_alloc_array(s->a, (u ? u : 1), sizeof *s->adj_cost);
    s->g = nbi_alloc_array(s->a, (nr ? nr : 1), sizeof *s->g);
    s->parent = nbi_alloc_array(s->a, (nr ? nr : 1), sizeof *s->parent);
    s->stamp = nbi_zalloc_array(s->a, nr ? nr : 1, sizeof *s->stamp);
    s->apath = nbi_alloc_array(s->a, (nr ? nr : 1), sizeof *s->apath);
    if (!s->adj_start || !s->adj || !s->adj_cost || !s->g || !s->parent || !s->stamp || !s->apath ||
        !nbi_heap_init(&s->heap, s->a, 1024, NULL)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the sector abstraction");
        goto done;
    }
    for (size_t i = 0; i < u; i++) {
        uint32_t a = (uint32_t)(pairs[i] >> 32), b = (uint32_t)pairs[i];
        s->adj_start[a + 1]++;
        s->adj[i] = b;
        s->adj_cost[i] = (float)octile(s->rx[a] - s->rx[b], s->ry[a] - s->ry[b]);
    }
    for (uint32_t r = 0; r < nr; r++)
        s->adj_start[r + 1] += s->adj_start[r];
done:
    nbi_free(s->a, members);
    nbi_free(s->a, pairs);
    if (st != NB_OK)
        nbi_sectors_free(s);
    return st;
}

int nbi_sectors_path(nbi_sectors *s, long ax, long ay, long bx, long by)
{
    uint32_t ra = s->region[(size_t)ay * s->w + ax], rb = s->region[(size_t)by * s->w + bx];
    s->apath_len = 0;
    if (ra == NBI_HEAP_NONE || rb == NBI_HEAP_NONE)
        return 0;
    if (s->gen >= UINT32_MAX / 2 - 1) {
        memset(s->stamp, 0, s->nregions * sizeof *s->stamp);
        s->gen = 0;
    }
    s->gen++;
    uint32_t open = 2 * s->gen, closed = open + 1;
    nbi_heap_clear(&s->heap);
    s->g[ra] = 0;
    s->parent[ra] = NBI_HEAP_NONE;
    s->stamp[ra] = open;
    if (!nbi_heap_push(&s->heap, octile(s->rx[ra] - s->rx[rb], s->ry[ra] - s->ry[rb]), 0, ra))
        return 0;
    int found = 0;
    while (!nbi_heap_empty(&s->heap)) {
        uint32_t r = nbi_heap_pop(&s->heap).id;
        if (s->stamp[r] == closed)
            continue;
        s->stamp[r] = closed;
        if (r == rb) {
            found = 1;
            break;
        }
        for (uint32_t e = s->adj_start[r]; e < s->adj_start[r + 1]; e++) {
            uint32_t q = s->adj[e];
            double g = s->g[r] + s->adj_cost[e];
            if (s->stamp[q] == closed || (s->stamp[q] == open && g >= s->g[q]))
                continue;
            s->stamp[q] = open;
            s->g[q] = g;
            s->parent[q] = r;
            if (!nbi_heap_push(&s->heap, g + octile(s->rx[q] - s->rx[rb], s->ry[q] - s->ry[rb]), -g, q))
                return 0;
        }
    }
    if (!found)
        return 0;
    size_t n = 0;
    for (uint32_t r = rb; r != NBI_HEAP_NONE; r = s->parent[r])
        n++;
    s->apath_len = n;
    for (uint32_t r = rb; r != NBI_HEAP_NONE; r = s->parent[r])
        s->apath[--n] = r;
    return 1;
}
