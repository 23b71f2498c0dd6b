/* sgoverlay.c: the optimal layer under an overlay that blocks cells
 * (subgoal.h, "under an overlay"; nb_sg_find(3)).
 *
 * The blocks take cells from the agent's grid; the grid that is left has
 * the layer's subgoals (kept as nodes: a subgoal too many only splits an
 * h-path in two) and new ones at the corners the blocks make, which a
 * cell's 3 x 3 block says (formats/subgoal.md's rule for each corner
 * rule).  Only the overlay's tiles that hold a blocked cell differ from
 * the layer: a line of a scan that keeps a cell away from them is the
 * layer's own run, read a word at a time; one that comes near is read
 * cell by cell.  The search is A* over that subgoal graph, each node's
 * edges found by its scan when it is expanded (so nothing is built for
 * the whole map and nothing stored at bake time is trusted near a
 * block), joined at the goal by the goal's own scan as the layer's query
 * joins it.  sgsearch.c runs it for a few nodes when the hierarchy's path
 * meets a block (SGOV_BUDGET there says why not more).  A layer's
 * subgoal far from every block has the same scan as on the layer: that
 * scan is made once, kept with the rectangle of cells it read, and read
 * back while the overlay leaves the rectangle alone (stored_scan).
 *
 * What depends on the overlay alone is kept in the workspace while the
 * overlay's cells keep their version (nb_overlay.version, unique in the
 * process): the tiles' masks and the cells near a block (near_word), and
 * every scan made under the overlay (its hits, found with no goal as
 * target), the goal's own among them (join_goal: the goal joins by its
 * scan, as on the layer).  So queries under an unchanged overlay pay the
 * search, and the first after a change pays the scans it needs
 * (keep_prep).
 *
 * Before it, a flood from each end, a row's word at a time and bounded
 * (cut_off), answers "no path" where the blocks close one end's region:
 * the search (and Annotated A*) would learn it only by reading all the
 * other end reaches, which was most of the time under random blocks on
 * the DAO maps. */
#include <math.h>
#include <stdlib.h>

#include "blocked/blocked.h"
#include "core/u32map.h"
#include "subgoal/subgoal.h"

#define NONE UINT32_MAX

struct ovnode {
    int32_t x, y;
    uint32_t parent; /* slot, or NONE at the start */
    uint32_t heap;   /* position in the heap, or NONE */
    double g, h;     /* h: the distance to the goal on the layer without the overlay */
    uint8_t closed;
};

/* A layer node's entries for one query, by node id, stamped with the query's generation
 * (nothing is cleared between queries): its slot among the search's nodes, its index in bw,
 * and its distance to the goal (dist_node) once known.  Hash maps keyed by cell and node did
 * this before and cost about a third of a query under a prepared overlay: a search relaxes
 * some fifteen hits an expansion, nearly all of them layer subgoals. */
struct nent {
    uint32_t gen, slot, bw; /* slot, bw: NONE when not made this query */
    uint32_t dk;            /* 1: d holds the node's distance to the goal */
    double d;
};

/* A node of the hierarchy reached by the backward search from the goal. */
struct bwnode {
    uint32_t id, heap;
    double g;
    uint8_t closed;
};

/* A word of a row as the floods hold it: its free cells under the overlay, the cells each end's
 * flood reached, and those not yet spread from. */
struct fword {
    uint64_t free, v[2], pend[2];
    uint32_t key; /* y * row_words + k */
};

struct ovopen {
    double key;
    uint32_t slot;
};

/* A layer's scans, each made on the layer (no overlay) when a search first expands its subgoal
 * and kept for the workspace's later queries: under an overlay that takes nothing from the
 * agent in the scan's box and the cells round it, the scan of the grid the overlay leaves
 * finds the same subgoals by the same h-paths, so the stored hits stand for it (a bounded test
 * of the overlay's tile masks in place of a scan of eight rays and their sweeps). */
struct sghit {
    int32_t x, y;
    double len;
};
struct sgscanned {
    uint32_t first, n; /* its hits in the cache's pool; first NONE: not scanned yet */
    int32_t box[4];    /* x0, y0, x1, y1: the cells the scan read */
};
struct sgcache {
    long section; /* the layer's */
    uint32_t nodes;
    struct sgscanned *node;
    struct sghit *hit;
    size_t hn, hcap;
};

struct nbi_sgov {
    const nb_allocator *a;
    const nbi_sggrid *g;
    const nb_overlay *ov;
    uint32_t size;
    nb_cell start, goal;
    size_t max_nodes;
    uint64_t max_exp;

    struct ovnode *node;
    size_t nused, ncap;
    struct ovopen *heap;
    size_t hn, hcap;
    nbi_u32map map;  /* cell -> slot, for cells that are not the layer's subgoals (ne else) */
    nbi_u32map gmap; /* cell -> index in gd: what the goal's scan reached */
    double *gd;
    size_t gn, gcap;
    nb_cell *way;
    size_t way_cap, way_len;

    /* The heuristic: distances to the goal on the layer without the overlay, from the
     * hierarchy (the goal's upward search in full, then each node's upward edges). */
    const nbi_sglayer *L;
    struct bwnode *bw;
    size_t bwn, bwcap;
    struct ovopen *bwh;
    size_t bwhn, bwhcap;
    struct nent *ne; /* per layer node (L->nodes of them), valid where gen is qgen */
    size_t necap;
    uint32_t qgen;
    uint32_t *stack;
    size_t stack_cap;
    /* Where the overlay takes room from the agent, a tile at a time as the scans come near:
     * 64 row masks then 64 column masks a tile (bit i: cell i of the row or column has less
     * room than size), so that a scan's line tests 64 cells at once. */
    double bound; /* the goal's search stops there: distances beyond it are known as at least it */
    /* per overlay tile: 0 no block, else its masks + 1 (stamped gen), and 0 no block near,
     * else its near masks + 1 (stamped ngen; near_word), both in tmask */
    struct { uint32_t gen, idx, ngen, nidx; } *tix;
    size_t tixcap;
    uint32_t tgen;
    uint64_t *tmask;
    size_t tn, tcap;
    /* The ends' floods (cut_off): cell -> the end (1 start, 2 goal) whose flood reached it, and
     * each flood's cells in the order reached. */
    nbi_u32map fmap; /* word key -> index in fw, on maps of more than SGOV_FLOOD_INDEX words */
    struct { uint32_t gen, idx; } *fidx; /* else per word: its index in fw when gen is fgen */
    size_t fidxcap;
    uint32_t fgen;
    struct fword *fw;
    size_t fwn, fwcap;
    uint32_t *fq[2]; /* indices in fw */
    size_t fn[2], fcap[2];
    /* The layers' scans (struct sgcache), one cache a layer the workspace has searched. */
    struct sgcache *cache;
    size_t ncache, cachecap;
    struct sgcache *cur; /* this query's layer's */
    uint64_t reused;     /* expansions that read stored hits, not a scan */
    /* What was made for one overlay's cells (keep_prep): the version and layer it holds, and
     * each scan under the overlay by its cell: cell key -> index in pent, whose hits are in
     * phit. */
    uint64_t pver;
    long psection;
    uint32_t psize;
    nbi_u32map pmap;
    struct sgscanned *pent;
    size_t pentn, pentcap;
    struct sghit *phit;
    size_t phn, phcap;
    uint64_t made, prepped; /* scans kept under an overlay, and expansions that read one */
    /* The regions of the grid the overlay leaves (cardinal steps), for the overlay's version
     * (regions_for): each row word's runs of free cells (seg), the runs of word i from
     * wfirst[i] to wfirst[i + 1], joined by a union-find over them. */
    struct rseg { uint64_t run; uint32_t up; } *seg;
    size_t nseg, segcap;
    uint32_t *wfirst;
    size_t wfirstcap;
    int labeled; /* 1 made for pver, -1 not made (no memory: the floods answer) */

    uint64_t expanded, scanned;
    int ended, limit, oom;
    nb_path_status status;
    uint32_t goal_slot, best;
    double best_h, best_g;
};

/* ---- the grid less the overlay's cells ---- */

static inline int ofree(const nbi_sggrid *g, const nb_overlay *ov, uint32_t size, int32_t x,
                        int32_t y)
{
    return nbi_sg_free(g, x, y) && nbi_overlay_lim(ov, (uint32_t)x, (uint32_t)y) >= size;
}

int nbi_sgov_free_at(const nbi_sglayer *l, const nb_overlay *ov, int32_t x, int32_t y)
{
    return ofree(&l->grid, ov, l->size, x, y);
}

static int ostep_ok(const nbi_sggrid *g, const nb_overlay *ov, uint32_t size, int32_t x,
                    int32_t y, unsigned d)
{
    int32_t dx = nbi_move_dx[d], dy = nbi_move_dy[d];
    if (!ofree(g, ov, size, x + dx, y + dy))
        return 0;
    if (!NBI_MOVE_IS_DIAGONAL(d))
        return 1;
    int h = ofree(g, ov, size, x + dx, y), v = ofree(g, ov, size, x, y + dy);
    return g->strict ? h && v : h || v;
}

/* a[i] bit j becomes a[j] bit i (a 64 x 64 bit matrix transposed in six rounds of swaps of
 * ever smaller blocks): the columns' masks from the rows'. */
static void transpose64(uint64_t a[64])
{
    uint64_t mask = 0x00000000FFFFFFFFu;
    for (unsigned j = 32; j; j >>= 1, mask ^= mask << j)
        for (unsigned k = 0; k < 64; k = (k + j + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k + j]) & mask;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
}

/* The masks of overlay tile (tx, ty), made when first asked for; NULL when the tile holds no
 * block (or without memory: o->oom, and the caller's answer no longer matters).  Each tile's
 * entry in tix says which, stamped with the query's generation (no clearing between queries):
 * the scans ask this for every word they read, where a hash look-up cost a third of the search. */
static const uint64_t *tile_masks(nbi_sgov *o, uint32_t tx, uint32_t ty)
{
    const nb_overlay *ov = o->ov;
    size_t i = (size_t)ty * ov->tw + tx;
    if (o->tix[i].gen == o->tgen)
        return o->tix[i].idx ? o->tmask + (size_t)(o->tix[i].idx - 1) * 128 : NULL;
    const uint8_t *t = ov->tile[i];
    o->tix[i].gen = o->tgen;
    o->tix[i].idx = 0;
    if (t == ov->full)
        return NULL;
    if (!nbi_grow(o->a, (void **)&o->tmask, &o->tcap, (o->tn + 1) * 128, sizeof *o->tmask)) {
        o->oom = 1;
        o->pver = 0; /* the tile stamped as holding no block: made again next query */
        return NULL;
    }
    o->tix[i].idx = (uint32_t)++o->tn;
    uint64_t *m = o->tmask + (o->tn - 1) * 128;
    if (o->size > 128) {
        memset(m, 0, 128 * sizeof *m);
        for (unsigned r = 0; r < NBI_OV_SIDE; r++)
            for (unsigned c = 0; c < NBI_OV_SIDE; c++)
                if (t[r << NBI_OV_SHIFT | c] < o->size)
                    m[r] |= (uint64_t)1 << c;
    } else {
        for (unsigned r = 0; r < NBI_OV_SIDE; r++)
            m[r] = nbi_overlay_row_low(t + (r << NBI_OV_SHIFT), o->size);
    }
    uint64_t *cols = m + NBI_OV_SIDE; /* the column masks follow the row masks */
    memcpy(cols, m, NBI_OV_SIDE * sizeof *m);
    transpose64(cols);
    return m;
}

/* Bits lo..hi (0 <= lo <= hi < 64). */
static inline uint64_t bits(unsigned lo, unsigned hi)
{
    return (hi == 63 ? ~(uint64_t)0 : (((uint64_t)1 << (hi + 1)) - 1)) & ~(((uint64_t)1 << lo) - 1);
}

/* No cell of x0..x1, y0..y1 (clipped to the map) has less room than size: the overlay takes
 * nothing there from the agent.  Read by rows or columns of the tiles' masks, whichever the
 * rectangle has fewer of. */
static int cells_clear(nbi_sgov *o, int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    const nb_overlay *ov = o->ov;
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 >= (int64_t)ov->width ? (int64_t)ov->width - 1 : x1;
    y1 = y1 >= (int64_t)ov->height ? (int64_t)ov->height - 1 : y1;
    for (int64_t ty = y0 >> NBI_OV_SHIFT; ty <= y1 >> NBI_OV_SHIFT; ty++)
        for (int64_t tx = x0 >> NBI_OV_SHIFT; tx <= x1 >> NBI_OV_SHIFT; tx++) {
            const uint64_t *m = tile_masks(o, (uint32_t)tx, (uint32_t)ty);
            if (!m)
                continue;
            int64_t bx = tx << NBI_OV_SHIFT, by = ty << NBI_OV_SHIFT;
            unsigned cx0 = (unsigned)((x0 > bx ? x0 : bx) - bx);
            unsigned cx1 = (unsigned)((x1 < bx + NBI_OV_MASK ? x1 : bx + NBI_OV_MASK) - bx);
            unsigned cy0 = (unsigned)((y0 > by ? y0 : by) - by);
            unsigned cy1 = (unsigned)((y1 < by + NBI_OV_MASK ? y1 : by + NBI_OV_MASK) - by);
            if (cy1 - cy0 <= cx1 - cx0) {
                uint64_t want = bits(cx0, cx1);
                for (unsigned r = cy0; r <= cy1; r++)
                    if (m[r] & want)
                        return 0;
            } else {
                uint64_t want = bits(cy0, cy1);
                for (unsigned c = cx0; c <= cx1; c++)
                    if (m[64 + c] & want)
                        return 0;
            }
        }
    return 1;
}

/* A subgoal of the grid the overlay leaves: the layer's (still free), or a
 * cell the rule of formats/subgoal.md makes one there, which needs a cell
 * of its 3 x 3 block in a tile that holds a block. */
static int osub(nbi_sgov *o, int32_t x, int32_t y)
{
    const nbi_sggrid *g = o->g;
    if (!ofree(g, o->ov, o->size, x, y))
        return 0;
    if (nbi_sg_is_subgoal(g, x, y))
        return 1;
    if (cells_clear(o, (int64_t)x - 1, (int64_t)y - 1, (int64_t)x + 1, (int64_t)y + 1))
        return 0;
    for (unsigned d = 4; d < 8; d++) {
        int32_t dx = nbi_move_dx[d], dy = nbi_move_dy[d];
        int t = ofree(g, o->ov, o->size, x + dx, y + dy);
        int h = ofree(g, o->ov, o->size, x + dx, y), v = ofree(g, o->ov, o->size, x, y + dy);
        if (g->strict ? !t && h && v : t && h != v)
            return 1;
    }
    return 0;
}

/* ---- the scan, as nbi_sg_scan's on that grid ---- */

typedef int (*visit_fn)(nbi_sgov *o, int32_t x, int32_t y, uint32_t card, uint32_t diag,
                        void *ctx);

static uint32_t target_on(int32_t x, int32_t y, unsigned c, int32_t tx, int32_t ty)
{
    int32_t dx = nbi_move_dx[c], dy = nbi_move_dy[c];
    int64_t m = dx ? (int64_t)(tx - x) * dx : (int64_t)(ty - y) * dy;
    if (m <= 0 || (dx ? ty != y : tx != x))
        return 0;
    return (uint32_t)m;
}

/* The low-room cells of the 64 cells of a line from cell 64 k: row y (horizontal) or column
 * x (vertical); 0 outside the map or where no block is near. */
static uint64_t low_word(nbi_sgov *o, int vertical, int64_t line, int64_t k)
{
    const nb_overlay *ov = o->ov;
    if (line < 0 || k < 0 || line >= (int64_t)(vertical ? ov->width : ov->height) ||
        k >= (int64_t)(vertical ? ov->th : ov->tw))
        return 0;
    const uint64_t *m = vertical ? tile_masks(o, (uint32_t)(line >> NBI_OV_SHIFT), (uint32_t)k)
                                 : tile_masks(o, (uint32_t)k, (uint32_t)(line >> NBI_OV_SHIFT));
    return m ? m[(vertical ? 64 : 0) + (line & NBI_OV_MASK)] : 0;
}

/* The three lines round line's low cells in word k, spread one cell along: the cells whose 3 x 3
 * block holds a low-room cell, the only ones the overlay can make blocked or a subgoal. */
static uint64_t near_word_of(nbi_sgov *o, int vertical, int64_t line, int64_t k)
{
    uint64_t w = 0, before = 0, after = 0;
    for (int64_t l = line - 1; l <= line + 1; l++) {
        w |= low_word(o, vertical, l, k);
        before |= low_word(o, vertical, l, k - 1) >> 63;
        after |= low_word(o, vertical, l, k + 1) << 63;
    }
    return w | w << 1 | w >> 1 | before | after;
}

/* near_word_of for a cell's line, read from its tile's near masks (64 rows then 64 columns),
 * made once an overlay version when a scan first comes into the tile: a scan asks it for every
 * word of every line it reads, and making it there (nine tiles' masks) was most of a scan's
 * cost on open maps.  NULL-like 0 for a tile with no block in it or round it. */
static uint64_t near_word(nbi_sgov *o, int vertical, int64_t line, int64_t k)
{
    const nb_overlay *ov = o->ov;
    if (line < 0 || k < 0 || line >= (int64_t)(vertical ? ov->width : ov->height) ||
        k >= (int64_t)(vertical ? ov->th : ov->tw))
        return near_word_of(o, vertical, line, k);
    uint32_t tx = (uint32_t)(vertical ? line >> NBI_OV_SHIFT : k);
    uint32_t ty = (uint32_t)(vertical ? k : line >> NBI_OV_SHIFT);
    size_t i = (size_t)ty * ov->tw + tx;
    if (o->tix[i].ngen != o->tgen) {
        uint64_t m[128], any = 0;
        int64_t bx = (int64_t)tx << NBI_OV_SHIFT, by = (int64_t)ty << NBI_OV_SHIFT;
        for (unsigned r = 0; r < NBI_OV_SIDE; r++) {
            m[r] = near_word_of(o, 0, by + r, tx);
            m[NBI_OV_SIDE + r] = near_word_of(o, 1, bx + r, ty);
            any |= m[r] | m[NBI_OV_SIDE + r];
        }
        o->tix[i].ngen = o->tgen;
        o->tix[i].nidx = 0;
        if (any) {
            if (!nbi_grow(o->a, (void **)&o->tmask, &o->tcap, (o->tn + 1) * 128, sizeof *o->tmask)) {
                o->oom = 1;
                o->pver = 0;
                o->tix[i].ngen = o->tgen - 1; /* not made: made again (or the query ends) */
                return near_word_of(o, vertical, line, k);
            }
            memcpy(o->tmask + o->tn * 128, m, sizeof m);
            o->tix[i].nidx = (uint32_t)++o->tn;
        }
    }
    if (!o->tix[i].nidx)
        return 0;
    return o->tmask[(size_t)(o->tix[i].nidx - 1) * 128 + (vertical ? NBI_OV_SIDE : 0) +
                    (size_t)(line & NBI_OV_MASK)];
}

/* Free cells that are not subgoals along c from (x, y), at most limit: the layer's run, then,
 * before where it stops, the first cell near a block (near_word, 64 at a time) that the
 * overlay blocks or makes a subgoal. */
static uint32_t orun(nbi_sgov *o, int32_t x, int32_t y, unsigned c, uint32_t limit)
{
    uint32_t e = nbi_sg_run(o->g, x, y, c, limit);
    if (e == 0)
        return 0;
    int32_t dx = nbi_move_dx[c], dy = nbi_move_dy[c];
    int vertical = dx == 0;
    int64_t line = vertical ? x : y;
    int64_t from = vertical ? y : x; /* the run covers from + step, ..., from + step * e */
    int step = vertical ? dy : dx;
    int64_t lo = step > 0 ? from + 1 : from - e, hi = step > 0 ? from + e : from - 1;
    /* Words in the run's direction, bits in it too. */
    for (int64_t k = step > 0 ? lo >> 6 : hi >> 6; step > 0 ? k <= hi >> 6 : k >= lo >> 6;
         k += step) {
        int64_t b0 = k << 6;
        unsigned a = (unsigned)((lo > b0 ? lo : b0) - b0), z = (unsigned)((hi < b0 + 63 ? hi : b0 + 63) - b0);
        uint64_t m = near_word(o, vertical, line, k) & bits(a, z);
        while (m) {
            unsigned bit = step > 0 ? nbp_ctz64(m) : nbp_msb64(m);
            m &= ~((uint64_t)1 << bit);
            int64_t p = b0 + bit;
            int32_t cx = vertical ? x : (int32_t)p, cy = vertical ? (int32_t)p : y;
            if (!ofree(o->g, o->ov, o->size, cx, cy) || osub(o, cx, cy))
                return (uint32_t)((p - from) * step - 1);
        }
    }
    return e;
}

static int oline(nbi_sgov *o, int32_t x, int32_t y, unsigned c, uint32_t k, uint32_t *limit,
                 int32_t tx, int32_t ty, visit_fn visit, void *ctx)
{
    uint32_t e = orun(o, x, y, c, *limit);
    int32_t dx = nbi_move_dx[c], dy = nbi_move_dy[c];
    uint32_t m = tx >= 0 ? target_on(x, y, c, tx, ty) : 0;
    if (m && m <= e + 1 && m <= *limit) {
        if (!visit(o, tx, ty, m, k, ctx))
            return 0;
        e = m - 1;
    } else if (e < *limit) {
        int32_t zx = x + dx * (int32_t)(e + 1), zy = y + dy * (int32_t)(e + 1);
        if (osub(o, zx, zy) && !visit(o, zx, zy, e + 1, k, ctx))
            return 0;
    }
    if (e < *limit)
        *limit = e;
    return 1;
}

static int oscan(nbi_sgov *o, int32_t x, int32_t y, int32_t tx, int32_t ty, visit_fn visit,
                 void *ctx)
{
    uint32_t ext[4];
    for (unsigned c = 0; c < 4; c++) {
        ext[c] = UINT32_MAX;
        if (!oline(o, x, y, c, 0, &ext[c], tx, ty, visit, ctx))
            return -1;
    }
    for (unsigned d = 4; d < 8; d++) {
        unsigned h = nbi_move_horizontal(d), v = nbi_move_vertical(d);
        uint32_t lim_h = ext[h], lim_v = ext[v];
        int32_t cx = x, cy = y;
        for (uint32_t k = 1; ostep_ok(o->g, o->ov, o->size, cx, cy, d); k++) {
            cx += nbi_move_dx[d];
            cy += nbi_move_dy[d];
            if ((cx == tx && cy == ty) || osub(o, cx, cy)) {
                if (!visit(o, cx, cy, 0, k, ctx))
                    return -1;
                break;
            }
            if (!oline(o, cx, cy, h, k, &lim_h, tx, ty, visit, ctx) ||
                !oline(o, cx, cy, v, k, &lim_v, tx, ty, visit, ctx))
                return -1;
        }
    }
    return 0;
}

static int walk_shape(const nbi_sggrid *g, const nb_overlay *ov, uint32_t size, nb_cell a,
                      unsigned d1, uint32_t n1, unsigned d2, uint32_t n2, nb_cell *out)
{
    int32_t x = a.x, y = a.y;
    for (uint32_t i = 0; i < n1 + n2; i++) {
        unsigned d = i < n1 ? d1 : d2;
        if (!ostep_ok(g, ov, size, x, y, d))
            return 0;
        x += nbi_move_dx[d];
        y += nbi_move_dy[d];
        if (out) {
            out[i].x = x;
            out[i].y = y;
        }
    }
    return 1;
}

/* out may be NULL: only whether a walk exists (join_goal's direct test). */
size_t nbi_sgov_walk(const nbi_sglayer *l, const nb_overlay *ov, nb_cell a, nb_cell b,
                     nb_cell *out)
{
    const nbi_sggrid *g = &l->grid;
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    uint32_t diag = ax < ay ? ax : ay, card = (ax > ay ? ax : ay) - diag;
    unsigned d = dx >= 0 ? (dy >= 0 ? NBI_MOVE_SE : NBI_MOVE_NE)
                         : (dy >= 0 ? NBI_MOVE_SW : NBI_MOVE_NW);
    unsigned c = ax > ay ? (dx > 0 ? NBI_MOVE_E : NBI_MOVE_W) : (dy > 0 ? NBI_MOVE_S : NBI_MOVE_N);
    if (!ofree(g, ov, l->size, a.x, a.y))
        return 0;
    if (walk_shape(g, ov, l->size, a, d, diag, c, card, out) ||
        walk_shape(g, ov, l->size, a, c, card, d, diag, out))
        return diag + card;
    return 0;
}

int nbi_sgov_path_ok(const nbi_sglayer *l, const nb_overlay *ov, const nb_cell *path, size_t n)
{
    if (n && !ofree(&l->grid, ov, l->size, path[0].x, path[0].y))
        return 0;
    for (size_t i = 1; i < n; i++) {
        int d = nbi_move_code(path[i - 1], path[i]);
        if (d < 0 || !ostep_ok(&l->grid, ov, l->size, path[i - 1].x, path[i - 1].y, (unsigned)d))
            return 0;
    }
    return 1;
}

/* ---- the search ---- */

nbi_sgov *nbi_sgov_new(const nb_allocator *a)
{
    nbi_sgov *o = nbi_zalloc_array(a, 1, sizeof *o);
    if (!o)
        return NULL;
    o->a = a;
    nbi_u32map_init(&o->map, a);
    nbi_u32map_init(&o->gmap, a);
    nbi_u32map_init(&o->fmap, a);
    nbi_u32map_init(&o->pmap, a);
    return o;
}

void nbi_sgov_free(nbi_sgov *o)
{
    if (!o)
        return;
    nbi_free(o->a, o->node);
    nbi_free(o->a, o->heap);
    nbi_free(o->a, o->gd);
    nbi_free(o->a, o->way);
    nbi_u32map_free(&o->map);
    nbi_u32map_free(&o->gmap);
    nbi_free(o->a, o->bw);
    nbi_free(o->a, o->bwh);
    nbi_free(o->a, o->ne);
    nbi_free(o->a, o->stack);
    nbi_free(o->a, o->tix);
    nbi_free(o->a, o->tmask);
    nbi_u32map_free(&o->fmap);
    nbi_free(o->a, o->fidx);
    nbi_free(o->a, o->fw);
    nbi_free(o->a, o->fq[0]);
    nbi_free(o->a, o->fq[1]);
    for (size_t i = 0; i < o->ncache; i++) {
        nbi_free(o->a, o->cache[i].node);
        nbi_free(o->a, o->cache[i].hit);
    }
    nbi_free(o->a, o->cache);
    nbi_u32map_free(&o->pmap);
    nbi_free(o->a, o->pent);
    nbi_free(o->a, o->phit);
    nbi_free(o->a, o->seg);
    nbi_free(o->a, o->wfirst);
    nbi_free(o->a, o);
}

static size_t cache_bytes(const nbi_sgov *o)
{
    size_t n = o->cachecap * sizeof *o->cache;
    for (size_t i = 0; i < o->ncache; i++)
        n += o->cache[i].nodes * sizeof *o->cache[i].node +
             o->cache[i].hcap * sizeof *o->cache[i].hit;
    return n;
}

size_t nbi_sgov_bytes(const nbi_sgov *o)
{
    return o ? sizeof *o + o->ncap * sizeof *o->node + o->hcap * sizeof *o->heap +
                   o->gcap * sizeof *o->gd + o->way_cap * sizeof *o->way +
                   nbi_u32map_bytes(&o->map) + nbi_u32map_bytes(&o->gmap) +
                   o->bwcap * sizeof *o->bw + o->bwhcap * sizeof *o->bwh +
                   o->necap * sizeof *o->ne + o->stack_cap * sizeof *o->stack +
                   o->tixcap * sizeof *o->tix + o->tcap * sizeof *o->tmask +
                   nbi_u32map_bytes(&o->fmap) + o->fidxcap * sizeof *o->fidx +
                   o->fwcap * sizeof *o->fw +
                   (o->fcap[0] + o->fcap[1]) * sizeof *o->fq[0] + cache_bytes(o) +
                   nbi_u32map_bytes(&o->pmap) + o->pentcap * sizeof *o->pent +
                   o->phcap * sizeof *o->phit + o->segcap * sizeof *o->seg +
                   o->wfirstcap * sizeof *o->wfirst
             : 0;
}

static inline uint32_t cell_key(const nbi_sgov *o, int32_t x, int32_t y)
{
    return (uint32_t)y * o->g->width + (uint32_t)x;
}

/* The two binary heaps of (key, slot) (the search's and the goal's upward search's), each
 * slot's position kept in its record: the u32 at pos + slot * stride. */
static inline void set_pos(uint8_t *pos, size_t stride, uint32_t slot, size_t i)
{
    *(uint32_t *)(void *)(pos + (size_t)slot * stride) = (uint32_t)i;
}

static void heap_up(struct ovopen *h, uint8_t *pos, size_t stride, size_t i, struct ovopen e)
{
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        if (h[p].key <= e.key)
            break;
        h[i] = h[p];
        set_pos(pos, stride, h[i].slot, i);
        i = p;
    }
    h[i] = e;
    set_pos(pos, stride, e.slot, i);
}

static uint32_t heap_pop(struct ovopen *h, size_t *hn, uint8_t *pos, size_t stride)
{
    uint32_t top = h[0].slot;
    set_pos(pos, stride, top, NONE);
    size_t n = --*hn;
    if (n == 0)
        return top;
    struct ovopen e = h[n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1].key < h[c].key)
            c++;
        if (h[c].key >= e.key)
            break;
        h[i] = h[c];
        set_pos(pos, stride, h[i].slot, i);
        i = c;
    }
    h[i] = e;
    set_pos(pos, stride, e.slot, i);
    return top;
}

#define NODE_POS(o) (uint8_t *)&(o)->node[0].heap, sizeof *(o)->node
#define BW_POS(o) (uint8_t *)&(o)->bw[0].heap, sizeof *(o)->bw

/* ---- the heuristic: the distance to the goal without the overlay ---- */

static inline double edge_len(const uint8_t *r)
{
    return nbi_steps_length(nbi_get32(r + NBI_SG_E_CARDINAL), nbi_get32(r + NBI_SG_E_DIAGONAL));
}

/* Node id's entry for this query, made (nothing known) when first asked for. */
static inline struct nent *nent_of(nbi_sgov *o, uint32_t id)
{
    struct nent *e = &o->ne[id];
    if (e->gen != o->qgen) {
        e->gen = o->qgen;
        e->slot = e->bw = NONE;
        e->dk = 0;
    }
    return e;
}

/* Node id's entry when made this query, else NULL. */
static inline const struct nent *nent_get(const nbi_sgov *o, uint32_t id)
{
    return o->ne[id].gen == o->qgen ? &o->ne[id] : NULL;
}

static void bw_reach(nbi_sgov *o, uint32_t id, double g)
{
    uint32_t *v = &nent_of(o, id)->bw;
    if (*v == NONE) {
        if (o->bwn >= o->bwcap &&
            (!nbi_grow(o->a, (void **)&o->bw, &o->bwcap, o->bwn + 1, sizeof *o->bw) ||
             !nbi_grow(o->a, (void **)&o->bwh, &o->bwhcap, o->bwcap, sizeof *o->bwh))) {
            o->oom = 1;
            return;
        }
        *v = (uint32_t)o->bwn; /* the entry is not moved by bw's growth */
        o->bw[o->bwn++] = (struct bwnode){id, NONE, INFINITY, 0};
    }
    struct bwnode *n = &o->bw[*v];
    if (n->closed || g >= n->g)
        return;
    n->g = g;
    heap_up(o->bwh, BW_POS(o), n->heap == NONE ? o->bwhn++ : n->heap, (struct ovopen){g, *v});
}

static int bw_seed(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    nbi_sgov *o = ctx;
    bw_reach(o, nbi_sg_node_at(o->L, x, y), nbi_steps_length(card, diag));
    return !o->oom;
}

/* The goal's side of the hierarchy's query, in full: every node above the subgoals the goal's
 * scan reaches, labelled with its least upward distance from the goal. */
static void bw_search(nbi_sgov *o)
{
    const nbi_sglayer *L = o->L;
    if (nbi_sg_is_subgoal(&L->grid, o->goal.x, o->goal.y))
        bw_reach(o, nbi_sg_node_at(L, o->goal.x, o->goal.y), 0);
    nbi_sg_scan(&L->grid, o->goal.x, o->goal.y, -1, -1, bw_seed, o);
    while (o->bwhn && !o->oom && o->bwh[0].key <= o->bound) {
        uint32_t s = heap_pop(o->bwh, &o->bwhn, BW_POS(o));
        o->bw[s].closed = 1;
        uint32_t id = o->bw[s].id;
        double g = o->bw[s].g;
        for (uint32_t e = nbi_u32at(L->first, id), e1 = nbi_u32at(L->first, id + 1); e < e1; e++) {
            const uint8_t *r = L->edges + (size_t)e * NBI_SG_EDGE_RECORD;
            bw_reach(o, nbi_get32(r + NBI_SG_E_TARGET), g + edge_len(r));
        }
    }
}

/* bw of node id when the goal's search settled it; else the bound it stopped at, which bw is
 * no less than (every node nearer was settled). */
static double bw_of(const nbi_sgov *o, uint32_t id)
{
    const struct nent *e = nent_get(o, id);
    return e && e->bw != NONE && o->bw[e->bw].closed ? o->bw[e->bw].g : o->bound;
}

static int d_known(const nbi_sgov *o, uint32_t id, double *d)
{
    const struct nent *e = nent_get(o, id);
    if (!e || !e->dk)
        return 0;
    *d = e->d;
    return 1;
}

static void d_keep(nbi_sgov *o, uint32_t id, double d)
{
    struct nent *e = nent_of(o, id);
    e->d = d;
    e->dk = 1;
}

/* The distance from node v to the goal on the layer: the least, over the nodes m above v, of
 * v's upward distance to m and the goal's (bw), as the hierarchy's query meets them; by
 * d(v) = min(bw(v), min over v's upward edges of the edge and d of its target), each node's
 * once.  A node of the core (its edges at its own level, each both ways, which the goal's
 * search has read) has d = bw. */
static double dist_node(nbi_sgov *o, uint32_t v)
{
    const nbi_sglayer *L = o->L;
    double d;
    if (d_known(o, v, &d))
        return d;
    size_t sp = 0;
    if (!nbi_grow(o->a, (void **)&o->stack, &o->stack_cap, 1, sizeof *o->stack)) {
        o->oom = 1;
        return INFINITY;
    }
    o->stack[sp++] = v;
    while (sp && !o->oom) {
        uint32_t t = o->stack[sp - 1];
        if (d_known(o, t, &d)) {
            sp--;
            continue;
        }
        uint32_t e0 = nbi_u32at(L->first, t), e1 = nbi_u32at(L->first, t + 1);
        uint32_t lt = nbi_u32at(L->level, t);
        int pending = 0;
        d = bw_of(o, t);
        if (e0 < e1 && nbi_u32at(L->level, nbi_get32(L->edges + (size_t)e0 * NBI_SG_EDGE_RECORD +
                                                     NBI_SG_E_TARGET)) == lt) {
            sp--; /* the core */
            d_keep(o, t, d);
            continue;
        }
        for (uint32_t e = e0; e < e1; e++) {
            const uint8_t *r = L->edges + (size_t)e * NBI_SG_EDGE_RECORD;
            uint32_t x = nbi_get32(r + NBI_SG_E_TARGET);
            double dx;
            if (d_known(o, x, &dx)) {
                if (edge_len(r) + dx < d)
                    d = edge_len(r) + dx;
                continue;
            }
            if (!nbi_grow(o->a, (void **)&o->stack, &o->stack_cap, sp + 1, sizeof *o->stack)) {
                o->oom = 1;
                return INFINITY;
            }
            o->stack[sp++] = x;
            pending = 1;
        }
        if (!pending) {
            sp--;
            d_keep(o, t, d);
        }
    }
    return d_known(o, v, &d) ? d : INFINITY;
}

/* The slot of cell (x, y), made when new; NONE at the node cap (o->limit)
 * or without memory (o->oom). */
static uint32_t slot_of(nbi_sgov *o, int32_t x, int32_t y)
{
    int sub = nbi_sg_is_subgoal(o->g, x, y), found = 0;
    uint32_t id = sub ? nbi_sg_node_at(o->L, x, y) : NONE;
    uint32_t *v = sub ? &nent_of(o, id)->slot : nbi_u32map_slot(&o->map, cell_key(o, x, y), &found);
    if (!v) {
        o->oom = 1;
        return NONE;
    }
    if (sub ? *v != NONE : found)
        return *v;
    if (o->max_nodes && o->nused >= o->max_nodes) {
        o->limit = 1;
        return NONE;
    }
    if (o->nused >= o->ncap &&
        (!nbi_grow(o->a, (void **)&o->node, &o->ncap, o->nused + 1, sizeof *o->node) ||
         !nbi_grow(o->a, (void **)&o->heap, &o->hcap, o->ncap, sizeof *o->heap))) {
        o->oom = 1;
        return NONE;
    }
    /* The map's entry is kept: a key without its node is never read (the next query clears). */
    *v = (uint32_t)o->nused;
    struct ovnode *n = &o->node[o->nused];
    n->x = x;
    n->y = y;
    n->parent = n->heap = NONE;
    n->g = INFINITY;
    n->closed = 0;
    /* A layer's subgoal: its distance on the layer (exact there); another cell (a corner a
     * block makes, the ends): the octile distance, as a scan for the first costs more than the
     * search saves.  Both never overestimate, so a node reached more briefly after it was
     * expanded is opened again (relax). */
    n->h = x == o->goal.x && y == o->goal.y ? 0
           : sub
               ? fmax(dist_node(o, id),
                      nbi_octile_cells(x, y, o->goal.x, o->goal.y))
               : nbi_octile_cells(x, y, o->goal.x, o->goal.y);
    return (uint32_t)o->nused++;
}

static void relax(nbi_sgov *o, int32_t x, int32_t y, double g, uint32_t parent)
{
    uint32_t s = slot_of(o, x, y);
    if (s == NONE)
        return;
    struct ovnode *n = &o->node[s];
    if (g >= n->g || n->h == INFINITY) /* INFINITY: cut off without the overlay */
        return;
    n->closed = 0;
    n->g = g;
    n->parent = parent;
    struct ovopen e = {g + n->h, s};
    heap_up(o->heap, NODE_POS(o), n->heap == NONE ? o->hn++ : n->heap, e);
}

/* Cell (x, y) joined to the goal by an h-path of length len (kept the least). */
static int goal_keep(nbi_sgov *o, int32_t x, int32_t y, double len)
{
    int found;
    uint32_t *v = nbi_u32map_slot(&o->gmap, cell_key(o, x, y), &found);
    if (!v || !nbi_grow(o->a, (void **)&o->gd, &o->gcap, o->gn + 1, sizeof *o->gd)) {
        o->oom = 1;
        return 0;
    }
    if (found) {
        if (len < o->gd[*v])
            o->gd[*v] = len;
        return 1;
    }
    *v = (uint32_t)o->gn;
    o->gd[o->gn++] = len;
    return 1;
}

static int goal_visit(nbi_sgov *o, int32_t x, int32_t y, uint32_t card, uint32_t diag, void *ctx)
{
    (void)ctx;
    return goal_keep(o, x, y, nbi_steps_length(card, diag));
}

static int fwd_visit(nbi_sgov *o, int32_t x, int32_t y, uint32_t card, uint32_t diag, void *ctx)
{
    uint32_t from = *(const uint32_t *)ctx;
    o->scanned++;
    relax(o, x, y, o->node[from].g + nbi_steps_length(card, diag), from);
    return !o->oom && !o->limit;
}


/* ---- the layers' scans, stored ---- */

/* The cache of layer l, made (every node not scanned) when first asked for; NULL without
 * memory, and the search scans as before. */
static struct sgcache *cache_for(nbi_sgov *o, const nbi_sglayer *l)
{
    for (size_t i = 0; i < o->ncache; i++)
        if (o->cache[i].section == l->section)
            return &o->cache[i];
    if (!nbi_grow(o->a, (void **)&o->cache, &o->cachecap, o->ncache + 1, sizeof *o->cache))
        return NULL;
    struct sgscanned *node = nbi_zalloc_array(o->a, l->nodes ? l->nodes : 1, sizeof *node);
    if (!node)
        return NULL;
    for (uint32_t v = 0; v < l->nodes; v++)
        node[v].first = NONE;
    struct sgcache *c = &o->cache[o->ncache++];
    *c = (struct sgcache){l->section, l->nodes, node, NULL, 0, 0};
    return c;
}

static int keep_hit(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    nbi_sgov *o = ctx;
    struct sgcache *c = o->cur;
    if (!nbi_grow(o->a, (void **)&c->hit, &c->hcap, c->hn + 1, sizeof *c->hit))
        return 0;
    c->hit[c->hn++] = (struct sghit){x, y, nbi_steps_length(card, diag)};
    return 1;
}

/* The stored scan of layer subgoal (x, y), made now when it is not yet; NULL without memory. */
static const struct sgscanned *stored_entry(nbi_sgov *o, int32_t x, int32_t y)
{
    struct sgcache *c = o->cur;
    if (!c)
        return NULL;
    struct sgscanned *e = &c->node[nbi_sg_node_at(o->L, x, y)];
    if (e->first == NONE) {
        size_t at = c->hn;
        if (nbi_sg_scan_box(o->g, x, y, keep_hit, o, e->box) != 0 || at > NONE - 1 ||
            c->hn - at > NONE) {
            c->hn = at;
            return NULL;
        }
        e->first = (uint32_t)at;
        e->n = (uint32_t)(c->hn - at);
    }
    return e;
}

/* 1 when stored scan e stands for a scan under the overlay toward the goal: the overlay takes
 * nothing from the agent in its box or the cells round it (a cell whose 3 x 3 block the
 * overlay touches may be blocked or a subgoal under it), and the goal, which a scan under the
 * overlay treats as a subgoal, lies outside. */
static int stands(nbi_sgov *o, const struct sgscanned *e)
{
    int64_t x0 = (int64_t)e->box[0] - 1, y0 = (int64_t)e->box[1] - 1;
    int64_t x1 = (int64_t)e->box[2] + 1, y1 = (int64_t)e->box[3] + 1;
    return !(o->goal.x >= x0 && o->goal.x <= x1 && o->goal.y >= y0 && o->goal.y <= y1) &&
           cells_clear(o, x0, y0, x1, y1);
}

/* Expands slot s by its subgoal's stored scan when it stands; 0 when s must be scanned under
 * the overlay (oscan): not a layer's subgoal, or the overlay near what its scan read. */
static int stored_scan(nbi_sgov *o, uint32_t s)
{
    int32_t x = o->node[s].x, y = o->node[s].y;
    if (!nbi_sg_is_subgoal(o->g, x, y))
        return 0;
    const struct sgscanned *e = stored_entry(o, x, y);
    if (!e || !stands(o, e))
        return 0;
    o->reused++;
    double g = o->node[s].g;
    const struct sghit *h = o->cur->hit + e->first;
    for (uint32_t i = 0; i < e->n && !o->oom && !o->limit; i++) {
        o->scanned++;
        relax(o, h[i].x, h[i].y, g + h[i].len, s);
    }
    return 1;
}

/* ---- the scans under the overlay, kept while it is unchanged ---- */

static int prep_hit(nbi_sgov *o, int32_t x, int32_t y, uint32_t card, uint32_t diag, void *ctx)
{
    (void)ctx;
    if (!nbi_grow(o->a, (void **)&o->phit, &o->phcap, o->phn + 1, sizeof *o->phit)) {
        o->oom = 1;
        return 0;
    }
    o->phit[o->phn++] = (struct sghit){x, y, nbi_steps_length(card, diag)};
    return 1;
}

/* The scan of cell (x, y) under the overlay, made once for the overlay's version (keep_prep)
 * with no target: a scan that does not stop at the goal reports valid h-paths all the same.
 * NULL when it cannot be kept (o->oom, and the overlay's scans are made again next query). */
static const struct sgscanned *kept_entry(nbi_sgov *o, int32_t x, int32_t y)
{
    int found;
    uint32_t *v = nbi_u32map_slot(&o->pmap, cell_key(o, x, y), &found);
    if (!v) {
        o->oom = 1;
        return NULL;
    }
    if (!found) {
        if (!nbi_grow(o->a, (void **)&o->pent, &o->pentcap, o->pentn + 1, sizeof *o->pent) ||
            o->phn > NONE - 1) {
            *v = NONE;
            o->oom = 1;
            o->pver = 0;
            return NULL;
        }
        size_t at = o->phn;
        if (oscan(o, x, y, -1, -1, prep_hit, NULL) != 0 || o->phn - at > NONE) {
            o->phn = at;
            *v = NONE;
            o->oom = 1;
            o->pver = 0;
            return NULL;
        }
        *v = (uint32_t)o->pentn;
        o->made++;
        o->pent[o->pentn++] = (struct sgscanned){(uint32_t)at, (uint32_t)(o->phn - at), {0}};
    } else if (*v != NONE) {
        o->prepped++;
    }
    return *v == NONE ? NULL : &o->pent[*v];
}

/* Expands slot s by its cell's kept scan; the goal is joined from its own scan (gmap), as the
 * layer's query joins it. */
static void kept_scan(nbi_sgov *o, uint32_t s)
{
    int32_t x = o->node[s].x, y = o->node[s].y;
    const struct sgscanned *e = kept_entry(o, x, y);
    if (!e) {
        oscan(o, x, y, o->goal.x, o->goal.y, fwd_visit, &s);
        return;
    }
    double g = o->node[s].g;
    for (uint32_t i = 0; i < e->n && !o->oom && !o->limit; i++) {
        const struct sghit *h = o->phit + e->first + i;
        o->scanned++;
        relax(o, h->x, h->y, g + h->len, s);
    }
}

/* The goal joined to the graph (gmap): its kept scan, read back by every query to this goal
 * under the overlay's version (a scan a query was most of a prepared query's time on open
 * maps), and the start joined directly when a free octile walk links them (what the goal's
 * scan with the start as target found: its diagonal-then-cardinal h-path to the start is
 * the walk's cardinal-then-diagonal one from the start, which nbi_sgov_walk tries). */
static void join_goal(nbi_sgov *o)
{
    nb_cell start = o->start, goal = o->goal;
    const struct sgscanned *e = kept_entry(o, goal.x, goal.y);
    if (!e) {
        oscan(o, goal.x, goal.y, start.x, start.y, goal_visit, NULL);
        return;
    }
    for (uint32_t i = 0; i < e->n && !o->oom; i++) {
        const struct sghit *h = o->phit + e->first + i;
        goal_keep(o, h->x, h->y, h->len);
    }
    if (!o->oom && nbi_sgov_walk(o->L, o->ov, start, goal, NULL)) {
        uint32_t ax = (uint32_t)abs(goal.x - start.x), ay = (uint32_t)abs(goal.y - start.y);
        uint32_t diag = ax < ay ? ax : ay;
        goal_keep(o, start.x, start.y, nbi_steps_length((ax > ay ? ax : ay) - diag, diag));
    }
}

void nbi_sgov_kept(const nbi_sgov *o, uint64_t *made, uint64_t *kept)
{
    *made = o->made;
    *kept = o->prepped;
}

/* ---- an end the blocks cut off ---- */

/* The words (64 cells of a row) each end's flood may spread from before the search is left to
 * find out. */
/* Maps of at most this many row words (8 MB of index at 8192 x 8192 cells) index the floods' words
 * directly. */
#ifndef SGOV_FLOOD_INDEX
#define SGOV_FLOOD_INDEX ((size_t)1 << 20)
#endif
#ifndef SGOV_CUT_WORDS
#define SGOV_CUT_WORDS 2048
#endif

/* The cells of x's runs of 1s in free that hold a cell of x (x within free): a fill along the
 * word both ways in six doubling steps. */
static inline uint64_t fill_runs(uint64_t x, uint64_t free)
{
    uint64_t up = free, dn = free, xu = x, xd = x;
    for (unsigned sh = 1; sh < 64; sh <<= 1) {
        xu |= up & (xu << sh);
        up &= up << sh;
        xd |= dn & (xd >> sh);
        dn &= dn >> sh;
    }
    return xu | xd;
}

/* Adds seeds (cells of word k of row y) to end s's flood, spreading along the row's free runs
 * within the word; -1 when they meet the other end's flood (the ends are joined), else 0
 * (o->oom without memory). */
static int flood_add(nbi_sgov *o, int s, int64_t y, int64_t k, uint64_t seeds)
{
    const nbi_sggrid *g = o->g;
    if (!seeds || y < 0 || k < 0 || y >= (int64_t)g->height || k >= (int64_t)g->row_words)
        return 0;
    uint32_t key = (uint32_t)y * g->row_words + (uint32_t)k;
    int found;
    uint32_t *v;
    if (o->fidx) {
        found = o->fidx[key].gen == o->fgen;
        if (!found)
            o->fidx[key].gen = o->fgen;
        v = &o->fidx[key].idx;
    } else if (!(v = nbi_u32map_slot(&o->fmap, key, &found))) {
        o->oom = 1;
        return 0;
    }
    if (!found) {
        if (!nbi_grow(o->a, (void **)&o->fw, &o->fwcap, o->fwn + 1, sizeof *o->fw)) {
            o->oom = 1;
            return 0;
        }
        *v = (uint32_t)o->fwn;
        struct fword *w = &o->fw[o->fwn++];
        w->free = nbi_sg_word(g->free_rows, key) & ~low_word(o, 0, y, k);
        w->v[0] = w->v[1] = w->pend[0] = w->pend[1] = 0;
        w->key = key;
    }
    struct fword *w = &o->fw[*v];
    seeds &= w->free & ~w->v[s];
    if (!seeds)
        return 0;
    uint64_t got = fill_runs(seeds, w->free) & ~w->v[s];
    w->v[s] |= got;
    if (got & w->v[!s])
        return -1;
    if (!w->pend[s]) {
        if (!nbi_grow(o->a, (void **)&o->fq[s], &o->fcap[s], o->fn[s] + 1, sizeof *o->fq[s])) {
            o->oom = 1;
            return 0;
        }
        o->fq[s][o->fn[s]++] = *v;
    }
    w->pend[s] |= got;
    return 0;
}

/* 1 when the blocks cut the goal off from the start: one end's region of the grid they leave
 * is closed within SGOV_CUT_WORDS words, which the search would learn only by reading all the
 * other end reaches (Annotated A* as well).  Any corner rule joins the same cells as cardinal
 * steps do (a diagonal step either rule allows has a free cell beside it a cardinal step
 * away), so each end floods by cardinal steps, a word of a row at a time, the two in turns;
 * where the floods meet, or both reach the limit, 0. */
static int cut_off(nbi_sgov *o)
{
    /* Each flood's words found by an index over the map's words, stamped with the query (the
     * floods' look-ups cost more than their work through a hash); on larger maps a hash. */
    size_t words = (size_t)o->g->height * o->g->row_words;
    if (words <= SGOV_FLOOD_INDEX) {
        if (words > o->fidxcap || ++o->fgen == 0) {
            if (!nbi_grow(o->a, (void **)&o->fidx, &o->fidxcap, words, sizeof *o->fidx)) {
                o->oom = 1;
                return 0;
            }
            memset(o->fidx, 0, o->fidxcap * sizeof *o->fidx);
            o->fgen = 1;
        }
    } else {
        nbi_free(o->a, o->fidx);
        o->fidx = NULL;
        o->fidxcap = 0;
        nbi_u32map_clear(&o->fmap);
    }
    o->fwn = o->fn[0] = o->fn[1] = 0;
    size_t head[2] = {0, 0};
    nb_cell end[2] = {o->start, o->goal};
    for (int s = 0; s < 2; s++)
        if (flood_add(o, s, end[s].y, end[s].x >> 6, (uint64_t)1 << (end[s].x & 63)))
            return 0;
    for (;;) {
        int busy = 0;
        for (int s = 0; s < 2 && !o->oom; s++) {
            if (head[s] == o->fn[s])
                return 1;
            if (head[s] >= SGOV_CUT_WORDS)
                continue;
            busy = 1;
            struct fword *w = &o->fw[o->fq[s][head[s]++]];
            uint64_t b = w->pend[s];
            int64_t y = w->key / o->g->row_words, k = w->key % o->g->row_words;
            w->pend[s] = 0; /* w is not read past here: flood_add may move the array */
            if (flood_add(o, s, y - 1, k, b) || flood_add(o, s, y + 1, k, b) ||
                ((b >> 63) && flood_add(o, s, y, k + 1, 1)) ||
                ((b & 1) && flood_add(o, s, y, k - 1, (uint64_t)1 << 63)))
                return 0;
        }
        if (!busy || o->oom)
            return 0;
    }
}

/* ---- the regions the blocks leave, kept while the overlay is unchanged ---- */

/* Maps of at most this many row words (2048 x 2048 cells) have their regions labelled once an
 * overlay version; larger ones keep the floods (cut_off), bounded a query. */
#ifndef SGOV_LABEL_WORDS
#define SGOV_LABEL_WORDS ((size_t)1 << 16)
#endif

static uint32_t seg_root(struct rseg *sg, uint32_t i)
{
    while (sg[i].up != i) {
        sg[i].up = sg[sg[i].up].up;
        i = sg[i].up;
    }
    return i;
}

static void seg_join(struct rseg *sg, uint32_t a, uint32_t b)
{
    a = seg_root(sg, a);
    b = seg_root(sg, b);
    if (a != b)
        sg[a > b ? a : b].up = a < b ? a : b;
}

/* Labels the regions: every row word's runs of free cells under the overlay (the floods'
 * words), each joined to the runs it touches in the word above and to the run it continues
 * in the word before.  Cardinal steps join what either corner rule joins (cut_off says why).
 * 0 without memory. */
static int label_regions(nbi_sgov *o)
{
    const nbi_sggrid *g = o->g;
    size_t W = g->row_words, words = (size_t)g->height * W;
    if (!nbi_grow(o->a, (void **)&o->wfirst, &o->wfirstcap, words + 1, sizeof *o->wfirst))
        return 0;
    o->nseg = 0;
    for (uint32_t y = 0; y < g->height; y++)
        for (uint32_t k = 0; k < W; k++) {
            size_t key = (size_t)y * W + k;
            o->wfirst[key] = (uint32_t)o->nseg;
            uint64_t f = nbi_sg_word(g->free_rows, key) & ~low_word(o, 0, y, k);
            while (f) {
                uint64_t run = f ^ (f & (f + (f & (~f + 1)))); /* the lowest run of ones */
                f &= ~run;
                if (o->nseg >= NONE ||
                    !nbi_grow(o->a, (void **)&o->seg, &o->segcap, o->nseg + 1, sizeof *o->seg))
                    return 0;
                uint32_t i = (uint32_t)o->nseg++;
                o->seg[i] = (struct rseg){run, i};
                if ((run & 1) && k > 0 && o->wfirst[key - 1] < o->wfirst[key] &&
                    (o->seg[o->wfirst[key] - 1].run >> 63)) /* continues the word before's last */
                    seg_join(o->seg, i, o->wfirst[key] - 1);
                if (y > 0)
                    for (uint32_t j = o->wfirst[key - W]; j < o->wfirst[key - W + 1]; j++)
                        if (o->seg[j].run & run)
                            seg_join(o->seg, i, j);
            }
        }
    o->wfirst[words] = (uint32_t)o->nseg;
    return 1;
}

/* The region of free cell (x, y): its run's root; NONE when the cell is not free under the
 * overlay. */
static uint32_t region_of(nbi_sgov *o, nb_cell c)
{
    size_t key = (size_t)c.y * o->g->row_words + ((uint32_t)c.x >> 6);
    uint64_t bit = (uint64_t)1 << (c.x & 63);
    for (uint32_t i = o->wfirst[key]; i < o->wfirst[key + 1]; i++)
        if (o->seg[i].run & bit)
            return seg_root(o->seg, i);
    return NONE;
}

/* 1 when the blocks cut the goal off from the start: by the regions where the map is small
 * enough to label them once an overlay, else by the ends' floods. */
static int cut_apart(nbi_sgov *o)
{
    if ((size_t)o->g->height * o->g->row_words <= SGOV_LABEL_WORDS) {
        if (!o->labeled)
            o->labeled = label_regions(o) ? 1 : -1;
        if (o->labeled == 1) {
            uint32_t a = region_of(o, o->start), b = region_of(o, o->goal);
            if (a != NONE && b != NONE)
                return a != b;
        }
    }
    return cut_off(o);
}

/* The layer nodes' entries (ne) sized for the layer and all made stale for a new query, by a
 * new generation; 0 without memory. */
static int nodes_fresh(nbi_sgov *o)
{
    size_t n = o->L->nodes ? o->L->nodes : 1, had = o->necap;
    if (n > had) {
        if (!nbi_grow(o->a, (void **)&o->ne, &o->necap, n, sizeof *o->ne))
            return 0;
        memset(o->ne + had, 0, (o->necap - had) * sizeof *o->ne); /* gen 0: never qgen */
    }
    if (++o->qgen == 0) {
        memset(o->ne, 0, o->necap * sizeof *o->ne);
        o->qgen = 1;
    }
    return 1;
}

/* A search from start to goal. */
static void reset(nbi_sgov *o, nb_cell start, nb_cell goal, size_t max_nodes, uint64_t max_exp)
{
    o->start = start;
    o->goal = goal;
    o->max_nodes = max_nodes;
    o->max_exp = max_exp;
    o->nused = o->hn = o->gn = o->way_len = 0;
    o->expanded = o->scanned = o->reused = 0;
    o->ended = o->limit = 0;
    o->status = NB_PATH_NONE;
    o->goal_slot = o->best = NONE;
    o->best_h = o->best_g = INFINITY;
    nbi_u32map_clear(&o->map);
    nbi_u32map_clear(&o->gmap);
    o->bwn = o->bwhn = 0;
    if (!o->oom && !nodes_fresh(o))
        o->oom = 1;
    if (o->oom || cut_apart(o)) {
        o->ended = 1;
        return;
    }
    bw_search(o);
    /* The goal joins the graph by its own scan, as the layer's query joins it: a subgoal
     * whose scan does not report the goal may still be one the goal's scan reports. */
    join_goal(o);
    if (!o->oom)
        relax(o, start.x, start.y, 0, NONE);
    if (o->oom || o->limit)
        o->ended = 1;
}

/* What the workspace made for an overlay (the tiles' masks, the scans under it) is kept while
 * the overlay's version and the layer are the ones it was made for, and dropped else: the
 * masks by a new stamp, the scans by emptying their index. */
static void keep_prep(nbi_sgov *o, const nbi_sglayer *l, const nb_overlay *ov)
{
    size_t tiles = (size_t)ov->tw * ov->th;
    if (o->pver == ov->version && o->psection == l->section && o->psize == l->size &&
        tiles <= o->tixcap)
        return;
    o->pver = ov->version;
    o->psection = l->section;
    o->psize = l->size;
    o->tn = 0;
    o->pentn = o->phn = 0;
    o->labeled = 0;
    nbi_u32map_clear(&o->pmap);
    if (tiles > o->tixcap || ++o->tgen == 0) {
        if (nbi_grow(o->a, (void **)&o->tix, &o->tixcap, tiles, sizeof *o->tix)) {
            memset(o->tix, 0, o->tixcap * sizeof *o->tix);
        } else {
            o->oom = 1;
            o->pver = 0;
        }
        o->tgen = 1;
    }
}

/* The layer and overlay of a search (or of nbi_sgov_scan_hits). */
static void prepare(nbi_sgov *o, const nbi_sglayer *l, const nb_overlay *ov)
{
    o->g = &l->grid;
    o->L = l;
    o->ov = ov;
    o->size = l->size;
    o->oom = 0;
    keep_prep(o, l, ov);
    o->cur = cache_for(o, l);
}

int nbi_sgov_joined(nbi_sgov *o, const nbi_sglayer *l, const nb_overlay *ov, nb_cell a,
                    nb_cell b)
{
    prepare(o, l, ov);
    if (o->oom || (size_t)o->g->height * o->g->row_words > SGOV_LABEL_WORDS)
        return -1;
    if (!o->labeled)
        o->labeled = label_regions(o) ? 1 : -1;
    if (o->labeled != 1)
        return -1;
    uint32_t ra = region_of(o, a), rb = region_of(o, b);
    return ra == NONE || rb == NONE ? -1 : ra == rb;
}

void nbi_sgov_begin(nbi_sgov *o, const nbi_sglayer *l, const nb_overlay *ov, nb_cell start,
                    nb_cell goal, double bound, size_t max_nodes, uint64_t max_expansions)
{
    o->bound = bound;
    prepare(o, l, ov);
    reset(o, start, goal, max_nodes, max_expansions);
}

struct hits {
    nb_cell *cells;
    double *len;
    size_t n, cap;
};

static int hit_visit(nbi_sgov *o, int32_t x, int32_t y, uint32_t card, uint32_t diag, void *ctx)
{
    (void)o;
    struct hits *h = ctx;
    if (h->n < h->cap) {
        h->cells[h->n] = (nb_cell){x, y};
        h->len[h->n] = nbi_steps_length(card, diag);
    }
    h->n++;
    return 1;
}

size_t nbi_sgov_scan_hits(nbi_sgov *o, const nbi_sglayer *l, const nb_overlay *ov, nb_cell at,
                          nb_cell goal, int stored, nb_cell *cells, double *len, size_t cap,
                          int32_t box[4])
{
    prepare(o, l, ov);
    o->goal = goal;
    struct hits h = {cells, len, 0, cap};
    if (!stored) {
        oscan(o, at.x, at.y, goal.x, goal.y, hit_visit, &h);
        return o->oom ? SIZE_MAX : h.n;
    }
    const struct sgscanned *e = nbi_sg_is_subgoal(o->g, at.x, at.y) ? stored_entry(o, at.x, at.y)
                                                                   : NULL;
    if (!e)
        return SIZE_MAX;
    memcpy(box, e->box, sizeof e->box);
    if (!stands(o, e))
        return SIZE_MAX;
    for (uint32_t i = 0; i < e->n && i < cap; i++) {
        const struct sghit *p = o->cur->hit + e->first + i;
        cells[i] = (nb_cell){p->x, p->y};
        len[i] = p->len;
    }
    return e->n;
}

int nbi_sgov_step(nbi_sgov *o, uint64_t expansions, nb_status *st)
{
    *st = NB_OK;
    for (uint64_t k = 0; !o->ended && k < expansions; k++) {
        if (o->max_exp && o->expanded >= o->max_exp) {
            o->limit = 1;
            break;
        }
        if (!o->hn) {
            o->status = NB_PATH_NONE;
            o->ended = 1;
            break;
        }
        uint32_t s = heap_pop(o->heap, &o->hn, NODE_POS(o));
        struct ovnode *n = &o->node[s];
        n->closed = 1;
        if (n->x == o->goal.x && n->y == o->goal.y) {
            o->goal_slot = s;
            o->status = NB_PATH_FOUND;
            o->ended = 1;
            break;
        }
        o->expanded++;
        double h = nbi_octile_cells(n->x, n->y, o->goal.x, o->goal.y);
        if (h < o->best_h || (h == o->best_h && n->g < o->best_g)) {
            o->best = s;
            o->best_h = h;
            o->best_g = n->g;
        }
        int found;
        uint32_t gi = nbi_u32map_get(&o->gmap, cell_key(o, n->x, n->y), &found);
        if (found)
            relax(o, o->goal.x, o->goal.y, n->g + o->gd[gi], s);
        if (!o->oom && !o->limit && !stored_scan(o, s))
            kept_scan(o, s);
        if (o->oom || o->limit)
            break;
    }
    if (o->oom) {
        o->ended = 1;
        *st = NB_ERR_NOMEM;
    } else if (o->limit) {
        o->status = NB_PATH_LIMIT;
        o->ended = 1;
    }
    return o->ended;
}

nb_path_status nbi_sgov_status(const nbi_sgov *o)
{
    return o->status;
}

int nbi_sgov_finish(nbi_sgov *o, nbi_sgov_result *r)
{
    if (!o->ended)
        o->status = NB_PATH_LIMIT;
    uint32_t end = o->status == NB_PATH_FOUND ? o->goal_slot
                   : o->status == NB_PATH_LIMIT ? o->best
                                                : NONE;
    size_t n = 0;
    for (uint32_t s = end; s != NONE; s = o->node[s].parent)
        n++;
    if (o->status == NB_PATH_LIMIT && n == 0)
        n = 1; /* nothing expanded: the start alone */
    o->way_len = 0;
    if (n && !nbi_grow(o->a, (void **)&o->way, &o->way_cap, n, sizeof *o->way))
        return 0;
    if (end == NONE && n) {
        o->way[0] = o->start;
    } else {
        size_t k = n;
        for (uint32_t s = end; s != NONE; s = o->node[s].parent)
            o->way[--k] = (nb_cell){o->node[s].x, o->node[s].y};
    }
    o->way_len = n;
    r->status = o->status;
    r->way = o->way;
    r->way_len = n;
    r->expanded = o->expanded;
    r->scanned = o->scanned;
    return 1;
}
