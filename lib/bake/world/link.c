/* link.c: a world's link action (navbake world link).  It reads the
 * manifest's legend and agents and every tile's border file, never a tile
 * bundle: its time and memory grow with the tiles and their borders, not
 * with cells.  From each border it joins the components of the cells
 * just outside a tile (as the tile numbered them) with those of the same
 * cells inside their own tile, by union-find; the sets that hold a cell of
 * some tile's own are the world's components, numbered in the order of
 * the tiles, row by row.  Components are 4-connected whatever the corner
 * rule (clearance/components_build.c), so the cells of the outer ring
 * are all the joins there are.
 *
 * The borders also check each other: a tile records the digest of the
 * cells of each neighbour its halo holds, and the neighbour the digest of
 * the cells it lends; tiles baked from other versions of one map, or
 * disagreeing about a cell they share, are refused, naming the tile to
 * bake again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "world/link_tile.h"
#include "world/world.h"

typedef nbb_link_tile tile_border;

typedef struct link_state {
    const nbb_world *w;
    uint32_t classes;
    uint32_t (*cls)[2]; /* (capability, size) of each class, from tile (0, 0) */
    tile_border *tiles;
} link_state;

static uint32_t *copy_u32(const uint8_t *p, size_t n)
{
    uint32_t *a = nbb_malloc(n ? n * sizeof *a : 1);
    for (size_t i = 0; a && i < n; i++)
        a[i] = nbi_u32at(p, i);
    return a;
}

static const nbb_world_input *input_of(const tile_border *tb, uint32_t role)
{
    for (uint32_t i = 0; i < tb->t.ninputs; i++)
        if (tb->in[i].role == role)
            return &tb->in[i];
    return NULL;
}

/* The stretch the world graph's arcs inside a tile keep within
 * (spanner.c): a path above the tiles costs at most this much more than
 * through every portal pair.  (link_cache.c's version goes up with it.) */
#define HAA_STRETCH (1.0 + 1.0 / 128)

/* A portal's world cell as one key, to find a link's far end by. */
typedef struct cell_key {
    uint64_t key;
    uint32_t portal;
} cell_key;

static int by_key(const void *a, const void *b)
{
    const cell_key *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->portal > y->portal) - (x->portal < y->portal);
}

static uint64_t key_of(uint32_t x, uint32_t y) { return (uint64_t)y << 32 | x; }

static uint64_t node_key(const nbb_link_class *r, uint32_t i)
{
    const uint8_t *q = r->node + (size_t)i * NBI_WGRAPH_NODE;
    return key_of(nbi_get32(q + NBI_WGRAPH_N_X), nbi_get32(q + NBI_WGRAPH_N_Y));
}

/* Class c's border graph r into tb: its portals, links, and the arcs the
 * spanner keeps (all the link needs of it, the distances dropped). */
static nb_status take_graph(const nbi_bgraph *r, nbb_link_class *c, nb_err *err)
{
    uint32_t P = r->portals;
    uint8_t *kept = nbb_malloc((size_t)P * P + 1);
    c->has_graph = 1;
    c->portals = P;
    c->links = r->links;
    c->node = nbb_malloc((size_t)P * NBI_WGRAPH_NODE + 1);
    c->first = nbb_malloc(((size_t)P + 1) * sizeof *c->first);
    c->link = nbb_malloc((size_t)r->links * NBI_BGRAPH_LINK + 1);
    nb_status st = NB_OK;
    if (!kept || !c->node || !c->first || !c->link)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph of %u portals", P);
    if (st == NB_OK)
        st = nbb_world_spanner(r, HAA_STRETCH, kept, err);
    size_t k = 0;
    for (size_t i = 0; st == NB_OK && i < (size_t)P * P; i++)
        k += kept[i];
    if (st == NB_OK && !(c->arc = nbb_malloc((3 * k + 1) * sizeof *c->arc)))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph of %u portals", P);
    if (st == NB_OK) {
        /* The portal records are the nodes' (NBI_BGRAPH_PORTAL = NBI_WGRAPH_NODE). */
        memcpy(c->node, r->portal, (size_t)P * NBI_WGRAPH_NODE);
        memcpy(c->link, r->link, (size_t)r->links * NBI_BGRAPH_LINK);
        k = 0;
        for (uint32_t i = 0; i < P; i++) {
            c->first[i] = (uint32_t)k;
            for (uint32_t j = 0; j < P; j++) {
                if (!kept[(size_t)i * P + j])
                    continue;
                const uint8_t *d = r->dist + NBI_BGRAPH_DIST * ((size_t)i * P + j);
                c->arc[3 * k] = j;
                c->arc[3 * k + 1] = nbi_get32(d + NBI_BGRAPH_D_CARD);
                c->arc[3 * k + 2] = nbi_get32(d + NBI_BGRAPH_D_DIAG);
                k++;
            }
        }
        c->first[P] = (uint32_t)k;
        c->arcs = (uint32_t)k;
    }
    /* The portals in the order of their cells, for the links' far ends. */
    cell_key *ck = st == NB_OK ? nbb_malloc(((size_t)P + 1) * sizeof *ck) : NULL;
    if (st == NB_OK && (!ck || !(c->order = nbb_malloc(((size_t)P + 1) * sizeof *c->order))))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph of %u portals", P);
    for (uint32_t i = 0; st == NB_OK && i < P; i++)
        ck[i] = (cell_key){node_key(c, i), i};
    if (st == NB_OK && !nbb_sort(ck, P, sizeof *ck, by_key))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph of %u portals", P);
    for (uint32_t i = 0; st == NB_OK && i < P; i++)
        c->order[i] = ck[i].portal;
    nbb_free(ck);
    nbb_free(kept);
    return st;
}

/* Reads the border file at path into tb: what the link keeps of it, and
 * the file's own checks (its CRCs, its sections). */
static nb_status read_border(const char *path, tile_border *tb, nb_err *err)
{
    nb_bundle *b;
    nb_status st = nb_bundle_open(path, NB_OPEN_VERIFY, nbb_mem(), &b, err);
    if (st != NB_OK)
        return st;
    if ((st = nbi_wtile_find(b, &tb->t, err)) != NB_OK)
        goto done;
    nbi_wtile *t = &tb->t;
    if (!t->has_digest) {
        st = nbi_fail(err, NB_ERR_FORMAT,
                      "%s: a tile bundle, not a border file (navbake world tile writes both)", path);
        goto done;
    }
    nbi_put64(tb->digest + NBI_DIGEST_BYTES, t->bundle_bytes);
    nbi_put32(tb->digest + NBI_DIGEST_TABLE_CRC, t->table_crc);
    for (uint32_t i = 0; i < t->ninputs; i++) {
        const uint8_t *r = t->inputs + (size_t)i * NBI_TILE_INPUT;
        tb->in[i].role = nbi_get32(r + NBI_TILE_INPUT_ROLE);
        tb->in[i].crc = nbi_get32(r + NBI_TILE_INPUT_CRC);
        tb->in[i].length = nbi_get64(r + NBI_TILE_INPUT_LENGTH);
    }
    t->inputs = NULL;
    uint32_t count = 0, graphs = 0, opts = 0;
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        count += nb_bundle_section_get(b, i)->type == NB_SEC_BORDER;
        graphs += nb_bundle_section_get(b, i)->type == NB_SEC_BORDER_GRAPH;
        opts += nb_bundle_section_get(b, i)->type == NB_SEC_BORDER_OPT;
    }
    tb->classes = count;
    tb->graphs = graphs;
    tb->opts = opts;
    tb->cls = nbb_calloc(count + 1, sizeof *tb->cls);
    tb->gcls = nbb_calloc(graphs + 1, sizeof *tb->gcls);
    tb->c = nbb_calloc(count + 1, sizeof *tb->c);
    if (!tb->cls || !tb->gcls || !tb->c) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
        goto done;
    }
    for (size_t i = 0, c = 0, g = 0, o = 0; i < nb_bundle_section_count(b) && st == NB_OK; i++) {
        uint32_t type = nb_bundle_section_get(b, i)->type;
        if (type == NB_SEC_BORDER) {
            nbi_border r;
            if ((st = nbi_border_at(b, i, &r, err)) != NB_OK)
                break;
            nbb_link_class *k = &tb->c[c];
            tb->cls[c][0] = r.capability, tb->cls[c][1] = r.size;
            k->n = r.n;
            k->inner_count = r.inner_count;
            k->outer_count = r.outer_count;
            k->inner = copy_u32(r.inner, r.inner_count);
            k->outer = copy_u32(r.outer, r.outer_count);
            k->core = copy_u32(r.core, ((size_t)r.n + 1 + 31) / 32);
            if (!k->inner || !k->outer || !k->core)
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
            c++;
        } else if (type == NB_SEC_BORDER_GRAPH) {
            /* One per class in the borders' order, or none (a tile baked
             * without them: the world then has no HAA* graph); checked
             * against the borders with the rest (check_tile). */
            nbi_bgraph r;
            if ((st = nbi_bgraph_at(b, i, &r, err)) != NB_OK)
                break;
            tb->gcls[g][0] = r.capability, tb->gcls[g][1] = r.size;
            if (g < count && (st = take_graph(&r, &tb->c[g], err)) != NB_OK)
                break;
            g++;
        } else if (type == NB_SEC_BORDER_OPT) {
            /* The optimal layer's borders (manifest `optimal: 1`): one per
             * class in the same order, or none; opt_link.c reads them checked. */
            const nb_section_info *si = nb_bundle_section_get(b, i);
            if ((st = nbi_world_payload(b, i, NB_SEC_BORDER_OPT, NBI_OBORDER_VERSION,
                                        NBI_OBORDER_HEADER, "border_opt", err)) != NB_OK)
                break;
            if (si->usize > UINT32_MAX) {
                st = nbi_fail(err, NB_ERR_FORMAT, "%s: its border_opt %zu has %llu bytes, past 4 GiB",
                              path, o, (unsigned long long)si->usize);
                break;
            }
            if (o < count) {
                nbb_link_class *k = &tb->c[o];
                k->has_opt = 1;
                k->ocap = si->param[0], k->osize = si->param[1], k->ocorner = si->param[2];
                k->olen = (uint32_t)si->usize;
                if (!(k->obytes = nbb_malloc(si->usize ? si->usize : 1)))
                    st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
                else
                    memcpy(k->obytes, b->sections[i].payload, si->usize);
            }
            o++;
        }
    }
done:
    nb_bundle_close(b);
    return st;
}

/* The checks of tile (tx, ty)'s record against the manifest (the world's
 * shape, halo, legend and agents) and, for the classes, tile (0, 0)'s:
 * made on every record, read or cached, in one order. */
static nb_status check_tile(link_state *s, uint32_t tx, uint32_t ty, const char *path,
                            uint32_t halo, const nbb_world_input *lin, const nbb_world_input *ain,
                            const tile_border *tb, nb_err *err)
{
    const nbb_world *w = s->w;
    const nbi_wtile *t = &tb->t;
#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)
    if (t->column != tx || t->row != ty || t->width != w->width || t->height != w->height ||
        t->side != w->tile || t->cluster != w->cluster)
        return FAIL("%s: the border of tile (%u, %u) of a world of %u x %u cells in tiles of %u and "
                    "clusters of %u, not of tile (%u, %u) of this one (%u x %u, %u, %u)",
                    path, t->column, t->row, t->width, t->height, t->side, t->cluster, tx, ty,
                    w->width, w->height, w->tile, w->cluster);
    if (t->halo != halo)
        return FAIL("%s: baked with a halo of %u cells; the manifest's agent set needs %u: bake the "
                    "tile again",
                    path, t->halo, halo);
    const nbb_world_input *want[2] = {lin, ain};
    static const char *const what[2] = {"legend", "agent set"};
    for (int i = 0; i < 2; i++) {
        const nbb_world_input *had = input_of(tb, i ? NBI_ROLE_AGENTS : NBI_ROLE_LEGEND);
        if ((had != NULL) != (want[i]->role != 0) ||
            (had && (had->crc != want[i]->crc || had->length != want[i]->length)))
            return FAIL("%s: tile (%u, %u) was baked with another %s than the manifest names: bake "
                        "it again",
                        path, tx, ty, what[i]);
    }
    /* The classes: tile (0, 0)'s border sections, in their order, in
     * every tile. */
    uint32_t count = tb->classes;
    if (tx == 0 && ty == 0) {
        s->classes = count;
        if (!(s->cls = nbb_malloc((count ? count : 1) * sizeof *s->cls)))
            return nbi_fail(err, NB_ERR_NOMEM, "no memory");
        if (count)
            memcpy(s->cls, tb->cls, count * sizeof *s->cls);
    }
    if (count != s->classes)
        return FAIL("%s: borders for %u (capability, size) pairs; tile (0, 0) has %u", path, count,
                    s->classes);
    for (uint32_t c = 0; c < count; c++)
        if (s->cls[c][0] != tb->cls[c][0] || s->cls[c][1] != tb->cls[c][1])
            return FAIL("%s: its border %u is for capability %#x and size %u; tile (0, 0)'s is for "
                        "%#x and %u",
                        path, c, tb->cls[c][0], tb->cls[c][1], s->cls[c][0], s->cls[c][1]);
    for (uint32_t c = 0; c < tb->graphs; c++)
        if (c >= count || tb->gcls[c][0] != s->cls[c][0] || tb->gcls[c][1] != s->cls[c][1])
            return FAIL("%s: its border graph %u is not for its border %u's capability and size",
                        path, c, c);
    if (tb->opts > count)
        return FAIL("%s: its border_opt %u is not for its border %u's capability and size", path,
                    count, count);
    for (uint32_t c = 0; c < tb->opts; c++)
        if (tb->c[c].ocap != s->cls[c][0] || tb->c[c].osize != s->cls[c][1])
            return FAIL("%s: its border_opt %u is not for its border %u's capability and size",
                        path, c, c);
#undef FAIL
    return NB_OK;
}

/* Index of world cell (x, y) in the inner ring of tile u (any of its
 * places there: a corner is in a row and a column). */
static uint32_t inner_index(const nbi_wtile *u, uint32_t x, uint32_t y)
{
    uint32_t x0 = u->origin_x + u->core_x, y0 = u->origin_y + u->core_y, w = u->core_w,
             h = u->core_h;
    if (y == y0)
        return x - x0;
    if (y == y0 + h - 1)
        return w + (x - x0);
    if (x == x0)
        return 2 * w + (y - y0);
    return 2 * w + h + (y - y0);
}

static uint32_t find(uint32_t *parent, uint32_t a)
{
    while (parent[a] != a) {
        parent[a] = parent[parent[a]];
        a = parent[a];
    }
    return a;
}

/* The world's components of class c, as a section payload. */
static nb_status link_class(link_state *s, uint32_t c, uint8_t **out, size_t *len,
                            uint32_t *count, nb_err *err)
{
    const nbb_world *w = s->w;
    uint32_t tiles = w->columns * w->rows;
    uint64_t total = 0;
    uint32_t *base = nbb_malloc(((size_t)tiles + 1) * sizeof *base);
    if (!base)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    for (uint32_t t = 0; t < tiles; t++) {
        base[t] = (uint32_t)total;
        total += s->tiles[t].c[c].n;
    }
    base[tiles] = (uint32_t)total;
    if (total > UINT32_MAX - 1) {
        nbb_free(base);
        return nbi_fail(err, NB_ERR_LIMIT, "more than %u components in the tiles", UINT32_MAX - 1);
    }
    uint32_t *parent = nbb_malloc((total ? total : 1) * sizeof *parent);
    size_t plen = NBI_WCOMP_HEADER + 4 * ((size_t)tiles + 1) + 4 * (size_t)total;
    uint8_t *p = nbb_calloc(1, plen);
    nb_status st = NB_OK;
    if (!parent || !p) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %llu components",
                      (unsigned long long)total);
        goto done;
    }
    for (uint64_t i = 0; i < total; i++)
        parent[i] = (uint32_t)i;
    for (uint32_t t = 0; t < tiles && st == NB_OK; t++) {
        const tile_border *tb = &s->tiles[t];
        const nbi_wtile *tt = &tb->t;
        uint32_t no = nbi_ring_outer(tt->core_w, tt->core_h), h = tt->core_h;
        /* The outer ring's cells in nbi_ring_cell's order, walked here
         * (the top row, the bottom row, the left and right columns). */
        long x0 = (long)(tt->origin_x + tt->core_x), y0 = (long)(tt->origin_y + tt->core_y);
        uint32_t rw = tt->core_w + 2;
        for (uint32_t k = 0; k < no; k++) {
            long x, y;
            if (k < 2 * rw)
                x = x0 - 1 + (long)(k < rw ? k : k - rw), y = k < rw ? y0 - 1 : y0 + (long)h;
            else {
                uint32_t j = k - 2 * rw;
                x = j < h ? x0 - 1 : x0 + (long)tt->core_w;
                y = y0 + (long)(j < h ? j : j - h);
            }
            if (x < 0 || y < 0 || x >= (long)w->width || y >= (long)w->height)
                continue;
            uint32_t u = (uint32_t)(y / w->tile) * w->columns + (uint32_t)(x / w->tile);
            const tile_border *ub = &s->tiles[u];
            uint32_t a = tb->c[c].outer[k];
            uint32_t bb = ub->c[c].inner[inner_index(&ub->t, (uint32_t)x, (uint32_t)y)];
            if ((a == 0) != (bb == 0)) {
                st = nbi_fail(err, NB_ERR_FORMAT,
                              "tiles (%u, %u) and (%u, %u) disagree on cell (%ld, %ld) for "
                              "capability %#x and size %u (one says an agent stands there, the "
                              "other not): bake them again from the same maps",
                              tt->column, tt->row, ub->t.column, ub->t.row, x, y, s->cls[c][0],
                              s->cls[c][1]);
                break;
            }
            if (a) {
                uint32_t ra = find(parent, base[t] + a - 1), rb = find(parent, base[u] + bb - 1);
                /* The smaller root: the same sets whatever the order of joins. */
                if (ra < rb)
                    parent[rb] = ra;
                else
                    parent[ra] = rb;
            }
        }
    }
    if (st != NB_OK)
        goto done;
    /* Number the sets that hold a cell of some tile's own, in the order of
     * their first such component; world[] maps a root to its number. */
    uint32_t *world = nbb_calloc(total ? total : 1, sizeof *world), n = 0;
    if (!world) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
        goto done;
    }
    uint8_t *first = p + NBI_WCOMP_HEADER, *ids = first + 4 * ((size_t)tiles + 1);
    for (uint32_t t = 0; t < tiles; t++) {
        const tile_border *tb = &s->tiles[t];
        nbi_put32at(first, t, base[t]);
        for (uint32_t k = 1; k <= tb->c[c].n; k++) {
            if (!((tb->c[c].core[k / 32] >> (k % 32)) & 1))
                continue;
            uint32_t r = find(parent, base[t] + k - 1);
            if (!world[r])
                world[r] = ++n;
            nbi_put32at(ids, base[t] + k - 1, world[r]);
        }
    }
    nbi_put32at(first, tiles, base[tiles]);
    nbb_free(world);
    uint32_t head[4] = {s->cls[c][0], s->cls[c][1], n, tiles};
    for (int i = 0; i < 4; i++)
        nbi_put32(p + 4 * i, head[i]);
    *out = p;
    *len = plen;
    *count = n;
    p = NULL;
done:
    nbb_free(p);
    nbb_free(parent);
    nbb_free(base);
    return st;
}

/* Appends an arc (target, card, diag) to the growing buffer. */
static int put_arc(uint8_t **buf, size_t *cap, uint32_t k, uint32_t to, uint32_t card,
                   uint32_t diag)
{
    if ((size_t)(k + 1) * NBI_WGRAPH_ARC > *cap) {
        size_t n = *cap ? 2 * *cap : 4096 * NBI_WGRAPH_ARC;
        uint8_t *b = nbb_realloc(*buf, n);
        if (!b)
            return 0;
        *buf = b;
        *cap = n;
    }
    uint8_t *q = *buf + (size_t)k * NBI_WGRAPH_ARC;
    nbi_put32(q + NBI_WGRAPH_A_TO, to);
    nbi_put32(q + NBI_WGRAPH_A_CARD, card);
    nbi_put32(q + NBI_WGRAPH_A_DIAG, diag);
    return 1;
}

/* The first portal of class record r at world cell (x, y), or UINT32_MAX
 * (the first, as a scan of the portals would find): a binary search of
 * its portals in the order of their cells. */
static uint32_t portal_at(const nbb_link_class *r, uint32_t x, uint32_t y)
{
    uint64_t want = key_of(x, y);
    uint32_t lo = 0, hi = r->portals;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (node_key(r, r->order[mid]) < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->portals && node_key(r, r->order[lo]) == want ? r->order[lo] : UINT32_MAX;
}

/* The world's HAA* graph of class c (formats/world.md): every tile's
 * portals, tile by tile; from each, arcs to the portals of its tile that
 * the spanner keeps, then across the tile's edges to the neighbours'
 * portals its links end on. */
static nb_status haa_class(const link_state *s, uint32_t c, uint8_t **out, size_t *len,
                           uint32_t *nodes, uint32_t *arcs, uint64_t *unmatched, nb_err *err)
{
    const nbb_world *w = s->w;
    uint32_t tiles = w->columns * w->rows;
    uint64_t n = 0, nl = 0;
    for (uint32_t t = 0; t < tiles; t++) {
        n += s->tiles[t].c[c].portals;
        nl += s->tiles[t].c[c].links;
    }
    if (n >= UINT32_MAX - 2)
        return nbi_fail(err, NB_ERR_LIMIT, "a world HAA* graph of %llu nodes",
                        (unsigned long long)n);
    size_t head = NBI_WGRAPH_HEADER + 4 * ((size_t)tiles + 1) + (size_t)n * NBI_WGRAPH_NODE +
                  4 * ((size_t)n + 1);
    /* by: each tile's links by portal, in their order (a counting sort). */
    uint8_t *p = nbb_calloc(1, head), *ab = NULL;
    uint32_t *by = nbb_malloc(((size_t)nl + 1) * sizeof *by),
             *lfirst = nbb_malloc(((size_t)n + 2) * sizeof *lfirst);
    size_t acap = 0;
    nb_status st = NB_OK;
    if (!p || !by || !lfirst) {
        nbb_free(p), nbb_free(by), nbb_free(lfirst);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a world HAA* graph of %llu nodes",
                        (unsigned long long)n);
    }
    uint8_t *tf = p + NBI_WGRAPH_HEADER, *nd = tf + 4 * ((size_t)tiles + 1),
            *af = nd + (size_t)n * NBI_WGRAPH_NODE;
    for (uint32_t t = 0; t < tiles; t++)
        nbi_put32at(tf, t + 1, nbi_u32at(tf, t) + s->tiles[t].c[c].portals);
    uint32_t u = 0, k = 0;
    uint64_t lost = 0;
    for (uint32_t t = 0; t < tiles && st == NB_OK; t++) {
        const nbb_link_class *r = &s->tiles[t].c[c];
        uint32_t base = nbi_u32at(tf, t);
        memset(lfirst, 0, ((size_t)r->portals + 2) * sizeof *lfirst);
        for (uint32_t l = 0; l < r->links; l++)
            lfirst[nbi_get32(r->link + (size_t)l * NBI_BGRAPH_LINK + NBI_BGRAPH_L_PORTAL) + 2]++;
        for (uint32_t i = 0; i < r->portals; i++)
            lfirst[i + 2] += lfirst[i + 1];
        for (uint32_t l = 0; l < r->links; l++)
            by[lfirst[nbi_get32(r->link + (size_t)l * NBI_BGRAPH_LINK + NBI_BGRAPH_L_PORTAL) + 1]++] = l;
        if (r->portals)
            memcpy(nd + (size_t)u * NBI_WGRAPH_NODE, r->node, (size_t)r->portals * NBI_WGRAPH_NODE);
        for (uint32_t i = 0; i < r->portals && st == NB_OK; i++, u++) {
            nbi_put32at(af, u, k);
            for (uint32_t a = r->first[i]; a < r->first[i + 1]; a++)
                if (!put_arc(&ab, &acap, k++, base + r->arc[3 * a], r->arc[3 * a + 1],
                             r->arc[3 * a + 2])) {
                    st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a world HAA* graph");
                    break;
                }
            for (uint32_t m = lfirst[i]; m < lfirst[i + 1] && st == NB_OK; m++) {
                const uint8_t *q = r->link + (size_t)by[m] * NBI_BGRAPH_LINK;
                uint32_t x = nbi_get32(q + NBI_BGRAPH_L_X), y = nbi_get32(q + NBI_BGRAPH_L_Y);
                uint32_t ut = (y / w->tile) * w->columns + x / w->tile;
                uint32_t j = x >= w->width || y >= w->height ? UINT32_MAX
                                                             : portal_at(&s->tiles[ut].c[c], x, y);
                if (j == UINT32_MAX) {
                    lost++;
                    continue;
                }
                if (!put_arc(&ab, &acap, k++, nbi_u32at(tf, ut) + j, nbi_get32(q + NBI_BGRAPH_L_CARD),
                             nbi_get32(q + NBI_BGRAPH_L_DIAG)))
                    st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a world HAA* graph");
            }
        }
    }
    nbi_put32at(af, u, k);
    nbb_free(by), nbb_free(lfirst);
    uint8_t *all = st == NB_OK ? nbb_realloc(p, head + (size_t)k * NBI_WGRAPH_ARC) : NULL;
    if (st == NB_OK && !all)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a world HAA* graph");
    if (st != NB_OK) {
        nbb_free(ab);
        nbb_free(p);
        return st;
    }
    p = all;
    if (k)
        memcpy(p + head, ab, (size_t)k * NBI_WGRAPH_ARC);
    nbb_free(ab);
    uint32_t hd[6] = {s->cls[c][0], s->cls[c][1], (uint32_t)n, k, tiles, 0};
    for (int i = 0; i < 6; i++)
        nbi_put32(p + 4 * i, hd[i]);
    *out = p;
    *len = head + (size_t)k * NBI_WGRAPH_ARC;
    *nodes = (uint32_t)n;
    *arcs = k;
    *unmatched = lost;
    return NB_OK;
}

/* Adds a section of one (capability, size) pair cls, its parameters
 * cls, p2 and p3, taking the payload p over. */
static nb_status add_class(nbb_builder *b, uint32_t type, uint32_t version, const uint32_t cls[2],
                           uint32_t p2, uint32_t p3, uint8_t *p, size_t len, nb_err *err)
{
    nb_section_info info;
    memset(&info, 0, sizeof info);
    info.type = type;
    info.version = version;
    info.param[0] = cls[0];
    info.param[1] = cls[1];
    info.param[2] = p2;
    info.param[3] = p3;
    return nbb_builder_add_owned(b, &info, p, len, 0, err);
}

/* The checks between neighbours: the cells of each neighbour a tile's
 * halo held are the ones that neighbour was baked from (its record of the
 * cells it lends that tile). */
static nb_status check_neighbours(const link_state *s, const char *dir, nb_err *err)
{
    const nbb_world *w = s->w;
    for (uint32_t ty = 0; ty < w->rows; ty++)
        for (uint32_t tx = 0; tx < w->columns; tx++) {
            const tile_border *tb = &s->tiles[ty * w->columns + tx];
            for (uint32_t i = 0; i < tb->t.ninputs; i++) {
                uint32_t role = tb->in[i].role;
                if (role < NBI_ROLE_MAP || role >= NBI_ROLE_MAP + 9 || role == NBI_ROLE_MAP + 4)
                    continue;
                uint32_t k = role - NBI_ROLE_MAP;
                long nx = (long)tx + (long)(k % 3) - 1, ny = (long)ty + (long)(k / 3) - 1;
                const nbb_world_input *lent =
                    nx >= 0 && ny >= 0 && nx < (long)w->columns && ny < (long)w->rows
                        ? input_of(&s->tiles[ny * w->columns + nx], NBI_ROLE_LENT + 8 - k)
                        : NULL;
                if (!lent || lent->crc != tb->in[i].crc || lent->length != tb->in[i].length)
                    return nbi_fail(err, NB_ERR_FORMAT,
                                    "%stiles/%u_%u.border: tile (%u, %u) was baked from another "
                                    "version of tile (%ld, %ld)'s map than that tile was: bake "
                                    "the older of them again",
                                    dir, tx, ty, tx, ty, nx, ny);
            }
        }
    return NB_OK;
}

nb_status nbb_world_link(const nbb_world *w, const char *dir, nbb_world_file_fn fn, void *arg,
                         uint8_t **image, size_t *len, nbb_world_link_stats *stats, nb_err *err)
{
    return nbb_world_link_cached(w, dir, 0, fn, arg, image, len, NULL, NULL, stats, err);
}

/* Tile t's record into tb: from the cache when it holds one for the
 * border file's digest, else read from the file (keyed: with its digest,
 * taken before it is read). */
static nb_status tile_record(const nbb_link_cache *cache, int keyed, uint32_t t, uint32_t tx,
                             uint32_t ty, const char *path, tile_border *tb, int *read, nb_err *err)
{
    uint8_t key[NBB_LINK_KEY];
    int have = (cache || keyed) && nbb_link_key(path, key, NULL) == NB_OK;
    *read = 0;
    if (have && cache && nbb_link_cache_get(cache, t, key, tb)) {
        if (tb->t.column == tx && tb->t.row == ty)
            return NB_OK;
        nbb_link_tile_free(tb);
    }
    memset(tb, 0, sizeof *tb);
    *read = 1;
    nb_status st = read_border(path, tb, err);
    if (st == NB_OK && keyed && !have)
        st = nbi_fail(err, NB_ERR_IO, "%s: cannot read its header", path);
    memcpy(tb->key, key, have ? NBB_LINK_KEY : 0);
    return st;
}

nb_status nbb_world_link_cached(const nbb_world *w, const char *dir, int read,
                                nbb_world_file_fn fn, void *arg, uint8_t **image, size_t *len,
                                uint8_t **cache, size_t *cache_len, nbb_world_link_stats *stats,
                                nb_err *err)
{
    *image = NULL;
    *len = 0;
    if (cache)
        *cache = NULL, *cache_len = 0;
    nbb_world_link_stats ls;
    memset(&ls, 0, sizeof ls);
    nbi_legend legend;
    nbi_agentset agents;
    nbb_world_input lin, ain;
    link_state s = {w, 0, NULL, NULL};
    nbb_link_cache lc;
    memset(&lc, 0, sizeof lc);
    uint32_t tiles = w->columns * w->rows;
    nbb_builder *b = NULL;
    size_t dl = strlen(dir);
    char *d = nbb_malloc(dl + 2), *path = nbb_malloc(dl + 64);
    nb_status st = nbb_world_read_defs(w, &legend, &agents, &lin, &ain, err);
    if (st == NB_OK && (!d || !path || !(s.tiles = nbb_calloc(tiles, sizeof *s.tiles))))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %u tiles", tiles);
    if (st != NB_OK)
        goto done;
    memcpy(d, dir, dl + 1);
    if (dl && d[dl - 1] != '/')
        strcat(d, "/");
    if (read) {
        snprintf(path, dl + 64, "%s" NBB_WORLD_LINK_CACHE, d);
        nbb_link_cache_read(path, tiles, &lc);
        ls.cache_ignored = lc.why;
    }
    uint32_t halo = nbb_world_halo(w, &agents);
    for (uint32_t ty = 0; ty < w->rows && st == NB_OK; ty++)
        for (uint32_t tx = 0; tx < w->columns && st == NB_OK; tx++) {
            uint32_t t = ty * w->columns + tx;
            int fresh = 0;
            snprintf(path, dl + 64, "%stiles/%u_%u.border", d, tx, ty);
            st = tile_record(read ? &lc : NULL, cache != NULL, t, tx, ty, path, &s.tiles[t],
                             &fresh, err);
            if (st == NB_OK)
                st = check_tile(&s, tx, ty, path, halo, &lin, &ain, &s.tiles[t], err);
            ls.borders_read += (uint32_t)fresh;
            if (st == NB_OK && fn && fresh)
                fn(arg, path, 0);
        }
    nbb_link_cache_free(&lc);
    if (st == NB_OK)
        st = check_neighbours(&s, d, err);
    if (st == NB_OK)
        st = nbb_builder_new(&b, err);
    if (st == NB_OK)
        st = nbb_put_level(b, &legend, &agents, NULL, 0, err);
    if (st == NB_OK) {
        size_t ilen = NBI_WORLD_HEADER + (size_t)tiles * NBI_DIGEST_SIZE;
        uint8_t *p = nbb_calloc(1, ilen);
        if (!p)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
        else {
            uint32_t v[8] = {w->width, w->height, w->tile, w->cluster, w->columns, w->rows, halo, 0};
            for (int i = 0; i < 8; i++)
                nbi_put32(p + 4 * i, v[i]);
            for (uint32_t t = 0; t < tiles; t++)
                memcpy(p + NBI_WORLD_HEADER + (size_t)t * NBI_DIGEST_SIZE, s.tiles[t].digest,
                       NBI_DIGEST_SIZE);
            nb_section_info info;
            memset(&info, 0, sizeof info);
            info.type = NB_SEC_WORLD;
            info.version = NBI_WORLD_VERSION;
            info.param[0] = w->columns;
            info.param[1] = w->rows;
            st = nbb_builder_add_owned(b, &info, p, ilen, 0, err);
        }
    }
    for (uint32_t c = 0; st == NB_OK && c < s.classes; c++) {
        uint8_t *p = NULL;
        size_t plen = 0;
        uint32_t n = 0;
        if ((st = link_class(&s, c, &p, &plen, &n, err)) != NB_OK)
            break;
        st = add_class(b, NB_SEC_WORLD_COMPONENTS, NBI_WCOMP_VERSION, s.cls[c], n, 0, p, plen, err);
        ls.world_components += n;
    }
    /* HAA*'s graphs above the tiles, when every tile has its border graphs. */
    int haa = s.classes > 0;
    for (uint32_t t = 0; st == NB_OK && t < tiles; t++)
        for (uint32_t c = 0; c < s.classes; c++)
            haa &= s.tiles[t].c[c].has_graph != 0;
    for (uint32_t c = 0; haa && st == NB_OK && c < s.classes; c++) {
        uint8_t *p = NULL;
        size_t plen = 0;
        uint32_t n = 0, na = 0;
        uint64_t lost = 0;
        if ((st = haa_class(&s, c, &p, &plen, &n, &na, &lost, err)) != NB_OK)
            break;
        /* Its landmarks (landmarks_link.c), from the graph before it is handed over. */
        uint8_t *lp = NULL;
        size_t ll = 0;
        uint32_t nl = 0;
        nb_status lst = nbb_world_landmarks(p, w->width, w->height, w->landmarks, &lp, &ll, &nl, err);
        /* The level of blocks above it (blocks_link.c), when the manifest asks. */
        uint8_t *bp = NULL;
        size_t bl = 0;
        uint32_t nb = 0;
        nb_status bst = w->blocks && lst != NB_ERR_NOMEM
                            ? nbb_world_blocks(p, w->columns, w->rows, w->blocks, &bp, &bl, &nb, err)
                            : NB_OK;
        st = add_class(b, NB_SEC_WORLD_GRAPH, NBI_WGRAPH_VERSION, s.cls[c], n, na, p, plen, err);
        if (st == NB_OK && bst != NB_OK)
            st = bst;
        if (st == NB_OK && bp)
            st = add_class(b, NB_SEC_WORLD_BLOCKS, NBI_WBLK_VERSION, s.cls[c], w->blocks, nb, bp,
                           bl, err);
        else
            nbb_free(bp);
        if (lst == NB_OK && st == NB_OK)
            st = add_class(b, NB_SEC_WORLD_LANDMARKS, NBI_WLMK_VERSION, s.cls[c], nl, 0, lp, ll,
                           err);
        else if (lst == NB_OK)
            nbb_free(lp);
        else if (lst != NB_ERR_NOTFOUND && st == NB_OK)
            st = lst;
        ls.haa_nodes += n;
        ls.haa_arcs += na;
        ls.haa_unmatched += lost;
    }
    /* The optimal layer across tiles, when every tile has its border for
     * the class (opt_link.c). */
    for (uint32_t c = 0; st == NB_OK && c < s.classes; c++) {
        int all = 1;
        for (uint32_t t = 0; t < tiles; t++)
            all &= s.tiles[t].c[c].has_opt && s.tiles[t].c[c].ocorner == s.tiles[0].c[c].ocorner;
        if (!all)
            continue;
        const uint8_t **pl = nbb_malloc(tiles * sizeof *pl);
        size_t *ln = nbb_malloc(tiles * sizeof *ln);
        nbi_wtile *tags = nbb_malloc(tiles * sizeof *tags);
        uint8_t *p = NULL;
        size_t plen = 0;
        uint32_t nodes = 0;
        if (!pl || !ln || !tags)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
        for (uint32_t t = 0; st == NB_OK && t < tiles; t++)
            pl[t] = s.tiles[t].c[c].obytes, ln[t] = s.tiles[t].c[c].olen, tags[t] = s.tiles[t].t;
        uint32_t param[4] = {s.cls[c][0], s.cls[c][1], s.tiles[0].c[c].ocorner, 0};
        if (st == NB_OK)
            st = nbb_world_opt_join(w, tags, pl, ln, param, &p, &plen, &nodes, err);
        if (st == NB_OK)
            st = add_class(b, NB_SEC_WORLD_OPT, NBI_WOPT_VERSION, s.cls[c], param[2], nodes, p,
                           plen, err);
        nbb_free((void *)pl);
        nbb_free(ln);
        nbb_free(tags);
    }
    if (st == NB_OK)
        st = nbb_builder_image(b, image, len, err);
    if (st == NB_OK && cache)
        st = nbb_link_cache_image(s.tiles, tiles, cache, cache_len, err);
    if (st != NB_OK && *image) {
        nbb_free(*image);
        *image = NULL, *len = 0;
    }
    ls.tiles = tiles;
    ls.classes = s.classes;
    for (uint32_t t = 0; s.tiles && t < tiles; t++)
        for (uint32_t c = 0; s.tiles[t].c && c < s.classes && c < s.tiles[t].classes; c++)
            ls.local_components += s.tiles[t].c[c].n;
done:
    for (uint32_t t = 0; s.tiles && t < tiles; t++)
        nbb_link_tile_free(&s.tiles[t]);
    nbb_free(s.tiles);
    nbb_free(s.cls);
    nbb_free(d);
    nbb_free(path);
    nbb_builder_free(b);
    if (stats)
        *stats = ls;
    if (st == NB_OK)
        nbi_ok(err);
    return st;
}
