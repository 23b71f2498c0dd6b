/* aastar.c: Annotated A* (Harabor and Botea, CIG 2008, section V).
 *
 * The paper's AA* is A* that asks, before opening a cell, whether the
 * agent may stand there: clearance >= size for its capability.  Here that
 * question is one read of the bit-packed clearance layer in the mapped
 * bundle, made for the neighbours at every expansion (stands(), and with
 * an overlay of cells blocked at run time room(): a copy of the search of
 * its own, so that a query without one pays nothing for it).  Terrain
 * costs (clearance/costs.h) make another copy of the loop, `weighted`: a
 * move costs its length times the multiplier of the cell it enters, and
 * the heuristic is the octile distance times the least multiplier, which
 * keeps it consistent (each move costs at least its length times that).
 * The copy without costs or overlay is the loop as it was, so an agent
 * without them pays nothing for them.
 *
 * What makes it fast (tests/bench/results/clearance-bench.md measures each against a
 * baseline in the same run; profiled with perf and cachegrind):
 *  - node storage follows the search, not the map: a workspace keeps, per
 *    32 x 32 tile of cells that searches touch, a page of per-cell slots
 *    (core/pool.h), made when a search first reaches the tile and reused
 *    by later ones; a search whose cell has all eight neighbours in its
 *    own tile (most do) steps to them by fixed slot offsets, and only the
 *    others look their tile up in the directory;
 *  - nothing is cleared between queries: each slot's stamp carries the id
 *    of the search that last touched it (a generation counter), so a query
 *    costs what it expands, not the map's size;
 *  - per slot, a 4-byte stamp (search id, closed, the direction it was
 *    reached by: the parent is a direction, not a pointer), g, and a heap
 *    position, in three arrays, so the test that skips most neighbours
 *    (seen by this search and closed) reads 4 bytes;
 *  - a layer of at most 3 bits a value (sizes up to 7) is read a row of three
 *    neighbours at a time: one load, and a table per row that the agent's
 *    size and the layer's bits make once, give the moves' bits; the corner
 *    rule is a table on the four cardinal answers (core/grid.h).  A wider
 *    layer is read a neighbour at a time, by fixed index offsets;
 *  - a neighbour whose f equals the open list's minimum is expanded next
 *    anyway, so it goes on a stack (the lane) instead of the heap: this
 *    also breaks ties in f deepest-first, so the heap needs no tie rule;
 *  - the heap is binary, of 16-byte entries (f, slot) with positions for
 *    decrease-key.  It measures faster than lib/runtime/core/heap.h's
 *    general one (nbi_aa_run_generic_heap runs the same search on that,
 *    for the benchmark, as nbi_aa_run_flat runs it on per-cell arrays the
 *    size of the map, as it was before issue 16).  Tried and measured
 *    slower here: a 4-ary heap, lazy deletion instead of decrease-key,
 *    and tie-breaking on g in the heap.  (A row's cells in one load were
 *    slower too when each value was then worked out with shifts, before
 *    the tables; tests/bench/results/search-bench.md, round 10.)
 *
 * The search runs in slices (navbake.h: budgets and slices): begin sets it
 * up in the workspace, step runs the loop for a number of expansions with
 * its state copied into locals, finish writes the result; nb_aa_find is
 * the three in a row.
 *
 * What bounds the work on any bundle that opens (formats/clearance.md): a
 * step of B expansions reads the layer at most 8 B times (the neighbours
 * and their corners), each read one value; with terrain costs a move reads
 * the multipliers under the agent's square (size^2 map cells, 64^2 at
 * most); node storage grows by at most a 32 x 32 tile's page per cell
 * reached (8 B + 1 of them); the path, from the parents, has at most
 * B + 1 cells when the budget stops it (the map's cells when it does not).
 * Nothing stored in the bundle is unpacked or followed. */
#include "clearance/aastar.h"
#include "clearance/costs.h"
#include "core/grid.h"
#include "blocked/blocked.h"
#include "core/heap.h"
#include "core/pool.h"

#define CLOSED 8u
#define DIR_MASK 7u
#define SID_SHIFT 4
#define SID_MAX ((1u << (32 - SID_SHIFT)) - 1)
#define NOT_SLOT UINT32_MAX
#define IN_LANE UINT32_MAX

/* Tiles of 32 x 32 cells: a page of the pool. */
#ifndef TSHIFT
#define TSHIFT 5
#endif
#define TSIDE (1u << TSHIFT)
#define TMASK (TSIDE - 1)
#define PSHIFT (2 * TSHIFT)

/* Pages made when a workspace is opened (16 KB each): what a short first
 * query needs, touched at open so that it does not pay the page faults. */
#define FIRST_PAGES 16
#define FIRST_OPEN 1024

/* Directions are core/grid.h's move codes; a direction's bit in a mask
 * below is its code. */
enum {
    DE = NBI_MOVE_E, DW = NBI_MOVE_W, DS = NBI_MOVE_S, DN = NBI_MOVE_N,
    DSE = NBI_MOVE_SE, DNE = NBI_MOVE_NE, DSW = NBI_MOVE_SW, DNW = NBI_MOVE_NW
};

/* The moves that leave a tile by its west, east, north or south side, as direction bits. */
#define OUT_W (1u << DW | 1u << DNW | 1u << DSW)
#define OUT_E (1u << DE | 1u << DNE | 1u << DSE)
#define OUT_N (1u << DN | 1u << DNE | 1u << DNW)
#define OUT_S (1u << DS | 1u << DSE | 1u << DSW)

/* Row tables (moves()): a layer of at most ROW_BITS bits a value reads a row's three cells in
 * one load, and a table of 2^(3 ROW_BITS) entries per row (north, middle, south) turns them into
 * the moves' bits. */
#define ROW_BITS 3
#define ROW_ENTRIES (1u << (3 * ROW_BITS))

/* Why a search ended. */
enum { RUNNING = 0, END_FOUND, END_EXHAUSTED, END_LIMIT, END_NOMEM };

struct open {
    double f;
    uint32_t slot;
};

/* One search's state, gathered so that each phase below takes it as one argument: what the
 * search reads (the layer's bits, the agent, the window, the goal) and what it moves on (the
 * lane, the f the lane ties with).  The workspace keeps it between slices; a slice copies it
 * into a local that never leaves its frame, so the compiler keeps its fields in registers as
 * it would plain locals. */
struct search {
    nb_aa *ws;
    uint32_t *stamp, *hpos, *lane;
    double *gv;
    const nb_cell *porg;   /* per page: its tile's first cell, to place a slot on the map */
    const uint32_t *dir, *pgen; /* the pool's directory and its pages' searches */
    uint32_t cur;               /* the pool's current search */
    unsigned tbits;
    const uint8_t *cv;
    uint8_t *const *otile; /* the overlay's tiles (overlay.h), or NULL */
    const uint8_t *ofull;  /* its tile of no blocks */
    uint32_t otw;          /* its tiles per row */
    uint64_t bits, mask;
    int64_t nbit[8]; /* per move: its cell's first bit in the layer less the first bit of the
                        cell it leaves (moves()) */
    const uint8_t *rowt; /* the workspace's row tables when the layer's values are narrow enough
                            (ROW_BITS), else NULL (moves()) */
    const uint8_t *diag; /* the diagonals the corner rule allows (nbi_move_corners) */
    uint64_t rowb;       /* a row's bits in the layer: W times the bits of a value */
    uint32_t size, W, sid, open_stamp, goal_slot, start_slot;
    int32_t x0, y0, x1, y1; /* the window */
    int32_t gx, gy;
    int strict, has_goal;
    size_t ln, lcap; /* cells in the lane; its room */
    double fmin;     /* the f of the last cell taken from the heap */
    double eps;
    double hscale;   /* the heuristic's factor: the least terrain multiplier */
    const nbi_costs *costs; /* the workspace's, read by the weighted copy only */
    int weighted;
    uint64_t expanded, max_expansions, nodes, max_nodes;
    int end;
};

struct nb_aa {
    const nb_bundle *bundle;
    const nb_allocator *a;
    uint32_t width, height;
    /* Node storage: slots in pages of the pool, one page per tile. */
    nbi_pool pool;
    uint32_t *stamp; /* per slot: search id << 4 | CLOSED | direction it was reached by */
    double *g;       /* per slot: cost from the start, valid when stamped by this search */
    uint32_t *hpos;  /* per slot: index in the heap while open, or IN_LANE */
    nb_cell *porg;   /* per page: its tile's first cell (set when a search claims the page) */
    size_t porg_cap;
    unsigned tbits;  /* tiles per row: 1 << tbits (a power of two, for shifts) */
    uint64_t max_nodes;
    uint32_t *lane;  /* open slots whose f is the open list's minimum */
    size_t lcap;
    struct open *heap;
    size_t hn, hcap;
    nb_cell *path;
    size_t pcap;
    uint32_t sid;
    int32_t moff[8]; /* neighbour offsets on the map (layer reads; flat slots) */
    int32_t soff[8]; /* neighbour offsets inside a page */
    /* The running query (begin, step, finish). */
    int state;       /* IDLE, RUNNING or DONE */
    int partial;     /* the query asked for a partial path */
    nb_path_status answer; /* when answered without a search */
    struct search s;
    int flat, generic; /* which storage and heap the search runs on */
    /* Per-cell arrays the size of the map, for the benchmark's comparison
     * (nbi_aa_run_flat, nbi_aa_run_generic_heap); made on their first call. */
    size_t cells;
    uint32_t *fstamp, *fhpos;
    double *fg;
    uint32_t *flane;
    struct open *fheap;
    nbi_heap gheap;
    uint32_t *gpos;
    /* Layers of the last query's capability and size (the bundle is
     * read-only, so they stay valid). */
    int have_clear;
    nb_capability clear_cap;
    nbi_layer clear;
    int comp_state; /* 0 unknown, 1 present, -1 absent */
    nb_capability comp_cap;
    uint32_t comp_size;
    nbi_layer comp;
    nbi_costs costs; /* the running query's terrain costs */
    /* Row tables for the last layer's bits and the agent's size (0 when none are built):
     * per row (north, middle, south) and three values of `rbits` bits read as one, the
     * direction bits of the cells the agent stands on. */
    uint32_t rbits, rsize;
    uint8_t rowt[3][ROW_ENTRIES];
};

enum { IDLE = 0, BUSY, DONE };

nb_status nb_aa_query_init_abi(nb_aa_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_aa_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q); /* the strict corner rule, no costs, overlay or limit */
    q->size = 1;
    return NB_OK;
}

void nb_aa_query_agent(nb_aa_query *q, const nb_agent *agent)
{
    q->size = agent->size;
    q->capability = agent->capability;
    q->costs = agent->weighted ? agent->cost : NULL;
}

nb_status nb_aa_open(const nb_bundle *b, nb_aa **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_aa_open: no place for the workspace");
    *out = NULL;
    if (!b)
        return nbi_fail(err, NB_ERR_ARG, "nb_aa_open: bundle is NULL");
    if (!nb_has_map(b))
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle holds no map to search", b->path);
    nb_aa *ws = nbi_zalloc_array(b->a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a search workspace");
    ws->a = b->a;
    ws->bundle = b;
    ws->width = b->width;
    ws->height = b->height;
    ws->cells = (size_t)b->width * b->height;
    uint32_t tx = (b->width + TMASK) >> TSHIFT, ty = (b->height + TMASK) >> TSHIFT;
    while ((1u << ws->tbits) < tx)
        ws->tbits++;
    int ok = nbi_pool_init(&ws->pool, ws->a, (size_t)ty << ws->tbits, PSHIFT);
    nbi_pool_array(&ws->pool, (void **)&ws->stamp, sizeof *ws->stamp, 1);
    nbi_pool_array(&ws->pool, (void **)&ws->g, sizeof *ws->g, 0);
    nbi_pool_array(&ws->pool, (void **)&ws->hpos, sizeof *ws->hpos, 0);
    ok = ok && nbi_pool_reserve(&ws->pool, FIRST_PAGES) &&
         nbi_grow(ws->a, (void **)&ws->porg, &ws->porg_cap, FIRST_PAGES, sizeof *ws->porg) &&
         nbi_grow(ws->a, (void **)&ws->heap, &ws->hcap, FIRST_OPEN, sizeof *ws->heap) &&
         nbi_grow(ws->a, (void **)&ws->lane, &ws->lcap, FIRST_OPEN, sizeof *ws->lane) &&
         nbi_grow(ws->a, (void **)&ws->path, &ws->pcap, FIRST_OPEN, sizeof *ws->path);
    if (!ok) {
        nb_aa_close(ws);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a search workspace on a %u x %u map",
                        b->width, b->height);
    }
    for (int d = 0; d < 8; d++) {
        ws->moff[d] = nbi_move_dy[d] * (int32_t)b->width + nbi_move_dx[d];
        ws->soff[d] = nbi_move_dy[d] * (int32_t)TSIDE + nbi_move_dx[d];
    }
    *out = ws;
    nbi_ok(err);
    return NB_OK;
}

void nb_aa_close(nb_aa *ws)
{
    if (!ws)
        return;
    nbi_pool_free(&ws->pool);
    nbi_free(ws->a, ws->porg);
    nbi_free(ws->a, ws->lane);
    nbi_free(ws->a, ws->heap);
    nbi_free(ws->a, ws->path);
    nbi_free(ws->a, ws->fstamp);
    nbi_free(ws->a, ws->fg);
    nbi_free(ws->a, ws->fhpos);
    nbi_free(ws->a, ws->flane);
    nbi_free(ws->a, ws->fheap);
    if (ws->gpos)
        nbi_heap_free(&ws->gheap);
    nbi_free(ws->a, ws->gpos);
    nbi_free(ws->a, ws);
}

void nb_aa_set_max_nodes(nb_aa *ws, uint64_t max_nodes) { ws->max_nodes = max_nodes; }

size_t nb_aa_bytes(const nb_aa *ws)
{
    size_t n = sizeof *ws + nbi_pool_bytes(&ws->pool) + ws->porg_cap * sizeof *ws->porg +
               ws->lcap * sizeof *ws->lane +
               ws->hcap * sizeof *ws->heap + ws->pcap * sizeof *ws->path;
    if (ws->fstamp)
        n += ws->cells * (sizeof *ws->fstamp + sizeof *ws->fg + sizeof *ws->fhpos +
                          sizeof *ws->flane + sizeof *ws->fheap);
    if (ws->gpos)
        n += ws->cells * (sizeof *ws->gpos + sizeof(nbi_heap_item));
    return n;
}

/* ---- where a slot is ---- */

/* The slot of cell (x, y) when the search holds its tile's page, else NOT_SLOT. */
static uint32_t slot_find(const nb_aa *ws, int32_t x, int32_t y)
{
    if (ws->flat)
        return (uint32_t)y * ws->width + (uint32_t)x;
    /* A slot is its page's number, then the cell's row and column in its tile (TSHIFT bits
     * each); a page's key is the tile's row, then its column (tbits bits). */
    uint32_t pg = nbi_pool_find(&ws->pool, ((uint32_t)y >> TSHIFT) << ws->tbits | (uint32_t)x >> TSHIFT);
    return pg == NBI_POOL_NONE ? NOT_SLOT
                               : pg << PSHIFT | ((uint32_t)y & TMASK) << TSHIFT | ((uint32_t)x & TMASK);
}

/* The cell of a slot. */
static inline NBP_ALWAYS_INLINE void slot_cell(const struct search *s, uint32_t slot, const int flat,
                                               int32_t *x, int32_t *y)
{
    if (flat) {
        *y = (int32_t)(slot / s->W);
        *x = (int32_t)(slot - (uint32_t)*y * s->W);
        return;
    }
    /* The page's origin, read where working it out from the page's key took twice the
     * instructions (shifts by the workspace's tbits), once an expansion. */
    const nb_cell o = s->porg[slot >> PSHIFT];
    *x = o.x | (int32_t)(slot & TMASK);
    *y = o.y | (int32_t)((slot >> TSHIFT) & TMASK);
}

/* The arrays a search reads, again after the pool has grown.  Inlined, as everything the
 * slice's copy of the state is handed to: its address never leaves slice()'s frame, or the
 * compiler would have to keep every field in memory and read it again after each store to a
 * stamp, a cost or a heap position (which might alias it), in the inner loop. */
static inline NBP_ALWAYS_INLINE void load_arrays(struct search *s, const nb_aa *ws)
{
    if (ws->flat) {
        s->stamp = ws->fstamp;
        s->gv = ws->fg;
        s->hpos = ws->fhpos;
        s->lane = ws->flane;
        s->lcap = ws->cells;
        return;
    }
    s->stamp = ws->stamp;
    s->gv = ws->g;
    s->hpos = ws->hpos;
    s->porg = ws->porg;
    s->dir = ws->pool.dir;
    s->pgen = ws->pool.gen;
    s->cur = ws->pool.cur;
    s->tbits = ws->tbits;
    s->lane = ws->lane;
    s->lcap = ws->lcap;
}

/* The slot of cell (x, y), its tile's page claimed for this search when it has none;
 * NOT_SLOT when none can be had. */
static NBP_NOINLINE uint32_t page_claim(nb_aa *ws, int32_t x, int32_t y)
{
    int fresh;
    uint32_t pg = nbi_pool_page(&ws->pool, ((uint32_t)y >> TSHIFT) << ws->tbits | (uint32_t)x >> TSHIFT,
                                &fresh);
    if (pg == NBI_POOL_NONE)
        return NOT_SLOT;
    if (!nbi_grow(ws->a, (void **)&ws->porg, &ws->porg_cap, ws->pool.cap, sizeof *ws->porg)) {
        ws->pool.failed = 1; /* no memory, as the pool's own growth would say */
        return NOT_SLOT;
    }
    ws->porg[pg].x = (int32_t)((uint32_t)x & ~TMASK);
    ws->porg[pg].y = (int32_t)((uint32_t)y & ~TMASK);
    return pg << PSHIFT | ((uint32_t)y & TMASK) << TSHIFT | ((uint32_t)x & TMASK);
}

/* page_claim for the search s: NOT_SLOT, and the search ended, when no page can be had; else
 * s reads the pool's arrays again (they may have moved). */
static inline NBP_ALWAYS_INLINE uint32_t slot_claim(struct search *s, int32_t x, int32_t y)
{
    /* s->dir etc. are the pool's, so this is nbi_pool_page's slow way. */
    nb_aa *ws = s->ws;
    uint32_t j = page_claim(ws, x, y);
    if (j == NOT_SLOT)
        s->end = ws->pool.failed ? END_NOMEM : END_LIMIT;
    else
        load_arrays(s, ws);
    return j;
}

/* ---- the open list ---- */

/* Ties in f need no rule here: the cells that tie with the best are
 * expanded through the lane, deepest first. */
static inline int before(const struct open *a, const struct open *b) { return a->f < b->f; }

static inline void sift_up(struct open *h, uint32_t *hpos, size_t i, struct open e)
{
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        if (!before(&e, &h[p]))
            break;
        h[i] = h[p];
        hpos[h[i].slot] = (uint32_t)i;
        i = p;
    }
    h[i] = e;
    hpos[e.slot] = (uint32_t)i;
}

static inline uint32_t pop(struct open *h, size_t *hn, uint32_t *hpos)
{
    uint32_t top = h[0].slot;
    size_t n = --*hn;
    if (n == 0)
        return top;
    struct open e = h[n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&h[c + 1], &h[c]))
            c++;
        if (!before(&h[c], &e))
            break;
        h[i] = h[c];
        hpos[h[i].slot] = (uint32_t)i;
        i = c;
    }
    h[i] = e;
    hpos[e.slot] = (uint32_t)i;
    return top;
}

/* Room for one more entry in the heap, or in the lane; 0 without memory.  They take the
 * workspace, not the search: see load_arrays. */
static NBP_NOINLINE int grow_heap(nb_aa *ws)
{
    return nbi_grow(ws->a, (void **)&ws->heap, &ws->hcap, ws->hcap + 1, sizeof *ws->heap);
}

static NBP_NOINLINE int grow_lane(nb_aa *ws)
{
    return nbi_grow(ws->a, (void **)&ws->lane, &ws->lcap, ws->lcap + 1, sizeof *ws->lane);
}

/* ---- the search ---- */

static uint32_t next_sid(nb_aa *ws)
{
    if (ws->sid == SID_MAX) {
        /* Once in 2^28 searches: forget every stamp. */
        size_t n = nbi_pool_slots(&ws->pool);
        for (size_t i = 0; i < n; i++)
            ws->stamp[i] = 0;
        for (size_t i = 0; ws->fstamp && i < ws->cells; i++)
            ws->fstamp[i] = 0;
        ws->sid = 0;
    }
    return ++ws->sid;
}

void nbi_aa_force_sid(nb_aa *ws, uint32_t sid) { ws->sid = sid > SID_MAX ? SID_MAX : sid; }

#define octile nbi_octile_cells

/* Whether the agent may stand on map cell j: one read of the packed layer. */
static inline NBP_ALWAYS_INLINE int stands(const struct search *s, uint64_t at)
{
    /* at is the cell's first bit in the layer (its index times the bits of a value).  The value starts at bit at & 7 of byte at >> 3, so one 8-byte load holds it whole (at
     * most 32 bits after a shift of at most 7); the layer's 8 zero bytes past its last value
     * (NBI_LAYER_TAIL) keep the load inside the section. */
    return ((nbi_load64le(s->cv + (at >> 3)) >> (at & 7)) & s->mask) >= s->size;
}

/* Whether the overlay leaves the agent room at (x, y): its min(cap, D) (overlay.h). */
static inline NBP_ALWAYS_INLINE int room(const struct search *s, int32_t x, int32_t y)
{
    const uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    return s->otile[(uy >> NBI_OV_SHIFT) * s->otw + (ux >> NBI_OV_SHIFT)]
                   [(uy & NBI_OV_MASK) << NBI_OV_SHIFT | (ux & NBI_OV_MASK)] >= s->size;
}

/* stands() with the overlay's room when over (a constant in each copy of the search). */
#define STANDS(at, x_, y_) (stands(s, (at)) && (!over || room(s, (x_), (y_))))

/* The row tables for values of `bits` bits and an agent of `size` (see struct nb_aa), built
 * when the last query's differ. */
static void row_tables(nb_aa *ws, uint32_t bits, uint32_t size)
{
    if (ws->rbits == bits && ws->rsize == size)
        return;
    static const uint8_t dirs[3][3] = {{DNW, DN, DNE}, {DW, 8, DE}, {DSW, DS, DSE}};
    const uint32_t mask = (1u << bits) - 1;
    for (int r = 0; r < 3; r++)
        for (uint32_t v = 0; v < ROW_ENTRIES; v++) {
            unsigned m = 0;
            for (int c = 0; c < 3; c++)
                if (dirs[r][c] < 8 && (v >> (c * bits) & mask) >= size)
                    m |= 1u << dirs[r][c];
            ws->rowt[r][v] = (uint8_t)m;
        }
    ws->rbits = bits;
    ws->rsize = size;
}

/* The three values from the layer's bit `at` on, as a row table's index (the bits above them
 * are left in: the tables are the same for each of their values). */
static inline NBP_ALWAYS_INLINE unsigned row3(const struct search *s, uint64_t at)
{
    return (unsigned)(nbi_load64le(s->cv + (at >> 3)) >> (at & 7)) & (ROW_ENTRIES - 1);
}

/* The moves the agent may make from map cell mi at (x, y), as a mask of direction bits. */
static inline NBP_ALWAYS_INLINE unsigned moves(const struct search *s, uint32_t mi, int32_t x,
                                               int32_t y, const int over)
{
    /* The neighbours' first bits from the cell's by one addition each, of the search's
     * constant for the move: where each read multiplied its index, and then where each added
     * or took the row's and the value's bits, which the loop could not keep in registers and
     * read from the stack (two or three more instructions a read, eight reads an
     * expansion). */
    const uint64_t at = (uint64_t)mi * s->bits;
    const int hn_ = y > s->y0, hs = y + 1 < s->y1, hw = x > s->x0, he = x + 1 < s->x1;
    if (!over && s->rowt && hw && he) {
        /* A cell with both its west and east neighbours in the window (most): each row of its
         * neighbours read in one load from the west one's first bit (x > x0 >= 0, so it is in
         * the layer, and the load in its tail), its bits from the row's table, where eight
         * reads took about a hundred instructions (callgrind, AR0042SR).  A row outside the
         * window leaves its bits out, which also leaves out its diagonals. */
        const uint8_t *t = s->rowt;
        const uint64_t a = at - s->bits;
        unsigned raw = t[ROW_ENTRIES + row3(s, a)];
        if (hn_)
            raw |= t[row3(s, a - s->rowb)];
        if (hs)
            raw |= t[2 * ROW_ENTRIES + row3(s, a + s->rowb)];
        return (raw & 15u) | (raw & s->diag[raw & 15u]);
    }
    unsigned m = 0;
#define NEAR(d) (at + (uint64_t)s->nbit[d])
    if (hn_ && STANDS(NEAR(DN), x, y - 1))
        m |= 1u << DN;
    if (he && STANDS(NEAR(DE), x + 1, y))
        m |= 1u << DE;
    if (hs && STANDS(NEAR(DS), x, y + 1))
        m |= 1u << DS;
    if (hw && STANDS(NEAR(DW), x - 1, y))
        m |= 1u << DW;
    /* A diagonal needs its cell, and both (strict) or either (weak)
     * of the cardinal cells beside it. */
    unsigned ne, se, sw, nw;
    if (s->strict) {
        ne = (m >> DN) & (m >> DE) & 1u;
        se = (m >> DS) & (m >> DE) & 1u;
        sw = (m >> DS) & (m >> DW) & 1u;
        nw = (m >> DN) & (m >> DW) & 1u;
    } else {
        ne = hn_ && he && (m & ((1u << DN) | (1u << DE)));
        se = hs && he && (m & ((1u << DS) | (1u << DE)));
        sw = hs && hw && (m & ((1u << DS) | (1u << DW)));
        nw = hn_ && hw && (m & ((1u << DN) | (1u << DW)));
    }
    if (ne && STANDS(NEAR(DNE), x + 1, y - 1))
        m |= 1u << DNE;
    if (se && STANDS(NEAR(DSE), x + 1, y + 1))
        m |= 1u << DSE;
    if (sw && STANDS(NEAR(DSW), x - 1, y + 1))
        m |= 1u << DSW;
    if (nw && STANDS(NEAR(DNW), x - 1, y - 1))
        m |= 1u << DNW;
#undef NEAR
    return m;
}

/* The next slot to expand, into *slot: the lane's first, for they tie with the best; else the
 * heap's best, whose f the lane then ties with.  0 when the open list is empty. */
static inline NBP_ALWAYS_INLINE int take_next(struct search *s, uint32_t *slot, const int generic,
                                              const int flat)
{
    nb_aa *ws = s->ws;
    if (s->ln) {
        *slot = s->lane[--s->ln];
        return 1;
    }
    if (generic ? nbi_heap_empty(&ws->gheap) : ws->hn == 0)
        return 0;
    if (generic) {
        nbi_heap_item it = nbi_heap_pop(&ws->gheap);
        s->fmin = it.key;
        *slot = it.id;
    } else {
        struct open *h = flat ? ws->fheap : ws->heap;
        s->fmin = h[0].f;
        *slot = pop(h, &ws->hn, s->hpos);
    }
    /* True f values differ by far more than this; rounding by less. */
    s->eps = 1e-12 * (1 + s->fmin);
    return 1;
}

/* Slot j, the cell (x + dx, y + dy) reached by direction d from (x, y) at cost ng: opened, or
 * its cost lowered, and put in the lane or the heap; left alone when closed or no better.
 * Weighted, ng is the cost of (x, y) and the move's is added here: the cell's multiplier is
 * read only when the move may lower the cell's cost, for no move costs less than its length
 * times the least multiplier (the heuristic's factor). */
static inline NBP_ALWAYS_INLINE void reach(struct search *s, uint32_t j, unsigned d, double ng,
                                           int32_t x, int32_t y, const int generic, const int flat,
                                           const int weighted, const int whole)
{
    nb_aa *ws = s->ws;
    uint32_t sj = s->stamp[j];
    size_t pos;
    if (weighted) {
        if ((sj >> SID_SHIFT) == s->sid &&
            ((sj & CLOSED) || ng + nbi_move_cost(d) * s->hscale >= s->gv[j]))
            return;
        ng += nbi_move_cost(d) * nbi_costs_cell(s->costs, (uint32_t)(x + nbi_move_dx[d]),
                                                (uint32_t)(y + nbi_move_dy[d]));
    }
    if ((sj >> SID_SHIFT) == s->sid) {
        if ((sj & CLOSED) || ng >= s->gv[j])
            return;
        s->gv[j] = ng;
        s->stamp[j] = s->open_stamp | d;
        if (s->hpos[j] == IN_LANE)
            return;                     /* its f was the minimum already */
        pos = generic ? 0 : s->hpos[j]; /* in the heap: a better way in */
    } else {
        if (!whole && s->nodes == s->max_nodes) { /* the cap: no room for another node */
            s->end = END_LIMIT;
            return;
        }
        if (!whole)
            s->nodes++; /* the whole copy counts them only when asked (reached_count) */
        s->gv[j] = ng;
        s->stamp[j] = s->open_stamp | d;
        pos = NOT_SLOT;
    }
    double h = s->has_goal ? octile(x + nbi_move_dx[d], y + nbi_move_dy[d], s->gx, s->gy) : 0;
    double f = ng + (weighted ? s->hscale * h : h);
    if (f <= s->fmin + s->eps && pos == NOT_SLOT) {
        /* As good as the best open cell: it is expanded next, so it
         * skips the heap (on open ground most cells do). */
        if (s->ln == s->lcap) {
            if (!grow_lane(ws)) {
                s->end = END_NOMEM;
                return;
            }
            s->lane = ws->lane;
            s->lcap = ws->lcap;
        }
        s->hpos[j] = IN_LANE;
        s->lane[s->ln++] = j;
        return;
    }
    if (generic) {
        s->hpos[j] = 0;
        nbi_heap_push(&ws->gheap, f, 0, j); /* or lowers its key (room for every cell) */
        return;
    }
    if (pos == NOT_SLOT) {
        if (!flat && ws->hn == ws->hcap && !grow_heap(ws)) {
            s->end = END_NOMEM;
            return;
        }
        pos = ws->hn++;
    }
    struct open e = {f, j};
    sift_up(flat ? ws->fheap : ws->heap, s->hpos, pos, e);
}

/* Slot id's neighbours, each the agent may step to reached from it. */
static inline NBP_ALWAYS_INLINE void expand(struct search *s, uint32_t id, const int generic,
                                            const int flat, const int weighted,
                                            const int over, const int whole)
{
    const double g = s->gv[id];
    int32_t x, y;
    slot_cell(s, id, flat, &x, &y);
    const uint32_t mi = flat ? id : (uint32_t)y * s->W + (uint32_t)x;
    /* Under an overlay, a cell whose eight neighbours lie in a tile of no blocks (most cells,
     * away from the blocks) needs no look at it.  (v & MASK) - 1u >= SIDE - 2 is v on its
     * tile's first or last row or column: the unsigned wrap of 0 - 1 folds both into one
     * compare, here and for `inside` below. */
    const uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    unsigned m = over && ((ux & NBI_OV_MASK) - 1u >= NBI_OV_SIDE - 2 ||
                          (uy & NBI_OV_MASK) - 1u >= NBI_OV_SIDE - 2 ||
                          s->otile[(uy >> NBI_OV_SHIFT) * s->otw + (ux >> NBI_OV_SHIFT)] != s->ofull)
                     ? moves(s, mi, x, y, 1)
                     : moves(s, mi, x, y, 0);
    const int32_t *off = flat ? s->ws->moff : s->ws->soff;
    /* The moves that leave the tile of id (none for most cells): a cell on the tile's first or
     * last column or row has three each way. */
    const uint32_t sx = id & TMASK, sy = (id >> TSHIFT) & TMASK;
    const unsigned out =
        flat ? 0
             : (sx - 1u >= TSIDE - 2 ? (sx ? OUT_E : OUT_W) : 0) |
                   (sy - 1u >= TSIDE - 2 ? (sy ? OUT_S : OUT_N) : 0);
    /* All the agent's neighbours in the tile of id (most cells): slots at fixed offsets, in a
     * loop of its own that tests nothing more for each. */
    if (!(m & out)) {
        while (m) {
            unsigned d = nbp_ctz32(m);
            m &= m - 1;
            /* The neighbour's coordinates are not written here: reach() works them out
             * for the heuristic only when the cell is opened (and for its multiplier),
             * where the compiler otherwise read them for every neighbour (and kept the
             * move tables in registers the loop needs). */
            const double ng = weighted ? g : g + nbi_move_cost(d);
            reach(s, (uint32_t)((int32_t)id + off[d]), d, ng, x, y, generic, flat, weighted, whole);
            if (s->end)
                return;
        }
        return;
    }
    /* In the same order of moves: those inside the tile by their offsets, the others through
     * the directory. */
    while (m) {
        unsigned d = nbp_ctz32(m);
        m &= m - 1;
        const uint32_t nx = (uint32_t)(x + nbi_move_dx[d]), ny = (uint32_t)(y + nbi_move_dy[d]);
        uint32_t j;
        if (!((out >> d) & 1u)) {
            j = (uint32_t)((int32_t)id + off[d]);
        } else {
            /* Across the tile's edge: the neighbour tile's page, claimed when this search
             * holds none there. */
            const uint32_t pg = s->dir[(ny >> TSHIFT) << s->tbits | nx >> TSHIFT];
            if (pg != NBI_POOL_NONE && s->pgen[pg] == s->cur)
                j = pg << PSHIFT | (ny & TMASK) << TSHIFT | (nx & TMASK);
            else if ((j = slot_claim(s, (int32_t)nx, (int32_t)ny)) == NOT_SLOT)
                return;
        }
        reach(s, j, d, weighted ? g : g + nbi_move_cost(d), x, y, generic, flat, weighted, whole);
        if (s->end)
            return;
    }
}

/* Runs the search for at most budget expansions.  generic, flat and weighted are constants in
 * each caller, so the compiler makes a copy for each: the library's (its own heap, paged
 * slots), the same with terrain costs, and two that only the benchmark calls, to measure the
 * difference (lib/runtime/core/heap.h's heap; per-cell arrays the size of the map).  whole
 * (another constant): nothing but the goal or the open list's end stops this slice (no budget,
 * no expansion limit, no node cap), so neither the slice's stop nor the cap is tested, and the
 * nodes are not counted (the loop's registers are fewer than what it keeps: callgrind, -1.1%
 * to -1.5% on AR0042SR, where leaving out the tests alone moved the spills and saved nothing). */
static inline NBP_ALWAYS_INLINE void slice(nb_aa *ws, uint64_t budget, const int generic,
                                           const int flat, const int weighted, const int over,
                                           const int whole)
{
    struct search s = ws->s;
    load_arrays(&s, ws);
    uint64_t stop = s.expanded + budget < s.expanded ? UINT64_MAX : s.expanded + budget;
    if (s.max_expansions && stop > s.max_expansions)
        stop = s.max_expansions;
    uint32_t id = 0;
    while (!s.end) {
        if (s.ln == 0 && (generic ? nbi_heap_empty(&ws->gheap) : ws->hn == 0)) {
            s.end = END_EXHAUSTED;
            break;
        }
        if (!whole && s.expanded == stop) {
            if (s.max_expansions && s.expanded == s.max_expansions)
                s.end = END_LIMIT;
            break;
        }
        take_next(&s, &id, generic, flat);
        s.stamp[id] |= CLOSED;
        s.expanded++;
        if (id == s.goal_slot) {
            s.end = END_FOUND;
            break;
        }
        expand(&s, id, generic, flat, weighted, over, whole);
    }
    ws->s = s;
}

/* Sets the search up in the workspace: a new search id, the start alone on the open list
 * (its page claimed, and the goal's). */
static void begin_search(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner,
                         nb_cell start, const nb_cell *goal, const nbi_window *win,
                         const nb_overlay *ov, uint64_t max_expansions, int weighted)
{
    struct search *s = &ws->s;
    memset(s, 0, sizeof *s);
    ws->partial = 0;
    s->weighted = weighted;
    s->costs = &ws->costs;
    s->hscale = weighted ? ws->costs.least : 1;
    const uint32_t W = ws->width;
    s->ws = ws;
    s->W = W;
    s->x0 = win ? win->x0 : 0;
    s->y0 = win ? win->y0 : 0;
    s->x1 = win ? win->x1 : (int32_t)W;
    s->y1 = win ? win->y1 : (int32_t)ws->height;
    s->cv = clear->bits_at;
    s->bits = clear->bits;
    for (int d = 0; d < 8; d++)
        s->nbit[d] = ((int64_t)nbi_move_dy[d] * (int64_t)W + nbi_move_dx[d]) * (int64_t)clear->bits;
    s->mask = clear->mask;
    if (clear->bits <= ROW_BITS) {
        row_tables(ws, clear->bits, size);
        s->rowt = &ws->rowt[0][0];
        s->rowb = (uint64_t)W * clear->bits;
        s->diag = nbi_move_corners[corner == NB_CORNER_STRICT];
    }
    s->otile = ov && ov->blocked ? ov->tile : NULL;
    s->ofull = ov ? ov->full : NULL;
    s->otw = ov ? ov->tw : 0;
    s->size = size;
    s->strict = corner == NB_CORNER_STRICT;
    s->has_goal = goal != NULL;
    s->gx = s->has_goal ? goal->x : 0;
    s->gy = s->has_goal ? goal->y : 0;
    s->max_expansions = max_expansions;
    s->max_nodes = ws->max_nodes ? ws->max_nodes : UINT64_MAX;
    s->sid = next_sid(ws);
    s->open_stamp = s->sid << SID_SHIFT;
    s->goal_slot = NOT_SLOT;
    ws->state = BUSY;
    ws->hn = 0;
    if (!ws->flat)
        nbi_pool_begin(&ws->pool);
    if (ws->generic)
        nbi_heap_clear(&ws->gheap);
    load_arrays(s, ws);
    uint32_t s0 = ws->flat ? (uint32_t)start.y * W + (uint32_t)start.x
                           : slot_claim(s, start.x, start.y);
    if (s->has_goal && s0 != NOT_SLOT)
        s->goal_slot = ws->flat ? (uint32_t)s->gy * W + (uint32_t)s->gx
                                : slot_claim(s, s->gx, s->gy);
    if (s0 == NOT_SLOT || (s->has_goal && s->goal_slot == NOT_SLOT))
        return; /* s->end says why */
    s->start_slot = s0;
    s->nodes = 1;
    s->gv[s0] = 0;
    s->stamp[s0] = s->open_stamp;
    s->hpos[s0] = 0;
    const double f0 = s->has_goal ? s->hscale * octile(start.x, start.y, s->gx, s->gy) : 0;
    if (ws->generic) {
        nbi_heap_push(&ws->gheap, f0, 0, s0);
    } else {
        struct open *h = ws->flat ? ws->fheap : ws->heap;
        ws->hn = 1;
        h[0].f = f0;
        h[0].slot = s0;
    }
}

/* Each copy a function of its own, so that the compiler gives each loop the registers alone. */
static NBP_NOINLINE void slice_plain(nb_aa *ws, uint64_t budget)
{
    slice(ws, budget, 0, 0, 0, 0, 0);
}
static NBP_NOINLINE void slice_whole(nb_aa *ws, uint64_t budget)
{
    slice(ws, budget, 0, 0, 0, 0, 1);
}
static NBP_NOINLINE void slice_over(nb_aa *ws, uint64_t budget) { slice(ws, budget, 0, 0, 0, 1, 0); }
static NBP_NOINLINE void slice_costs(nb_aa *ws, uint64_t budget) { slice(ws, budget, 0, 0, 1, 0, 0); }
static NBP_NOINLINE void slice_costs_over(nb_aa *ws, uint64_t budget)
{
    slice(ws, budget, 0, 0, 1, 1, 0);
}
static NBP_NOINLINE void slice_flat(nb_aa *ws, uint64_t budget) { slice(ws, budget, 0, 1, 0, 0, 0); }
static NBP_NOINLINE void slice_generic(nb_aa *ws, uint64_t budget) { slice(ws, budget, 1, 1, 0, 0, 0); }

/* The nodes this search has reached: the slots of its pages stamped with its id.  For the
 * messages of a search the whole copy ran, which does not count them; a walk of the pages, out
 * of the loop. */
static uint64_t reached_count(const nb_aa *ws)
{
    const uint32_t sid = ws->s.sid;
    const size_t n = nbi_pool_slots(&ws->pool);
    uint64_t c = 0;
    for (size_t j = 0; j < n; j++)
        c += ws->pool.gen[j >> PSHIFT] == ws->pool.cur && ws->stamp[j] >> SID_SHIFT == sid;
    return c;
}

static void run_slice(nb_aa *ws, uint64_t budget)
{
    if (ws->generic)
        slice_generic(ws, budget);
    else if (ws->flat)
        slice_flat(ws, budget);
    else if (ws->s.weighted && ws->s.otile)
        slice_costs_over(ws, budget);
    else if (ws->s.weighted)
        slice_costs(ws, budget);
    else if (ws->s.otile)
        slice_over(ws, budget);
    else if (budget == UINT64_MAX && !ws->s.max_expansions && ws->s.max_nodes == UINT64_MAX) {
        slice_whole(ws, budget); /* a find, or a step, that nothing stops short */
        if (ws->s.end == END_NOMEM || ws->s.end == END_LIMIT)
            ws->s.nodes = reached_count(ws); /* for the message */
    } else
        slice_plain(ws, budget);
}

/* The path from the start to the slot `to`, walked back by the directions cells were reached
 * by, into ws->path and res; 0 without memory for it. */
static int walk_back(nb_aa *ws, uint32_t to, nb_aa_result *res)
{
    const struct search *s = &ws->s;
    const int flat = ws->flat;
    const uint32_t *stamp = flat ? ws->fstamp : ws->stamp;
    const int32_t *off = flat ? ws->moff : ws->soff;
    const uint32_t start = s->start_slot;
    /* Room for the path before the walk: every move costs at least the heuristic's factor
     * (1 without terrain costs), so it has at most g / factor moves, and no more cells than
     * the search expanded (each but the last, and that one too, was).  The walk writes it
     * goal last from the end of the array, with no test of room for each cell nor a second
     * pass to turn it round, and the answer starts where the walk stopped. */
    double moves = (s->weighted ? (flat ? ws->fg : ws->g)[to] / s->hscale : (flat ? ws->fg : ws->g)[to]);
    size_t room = s->expanded + 1;
    if (moves == moves && moves + 2 < (double)room)
        room = (size_t)moves + 2;
    if (room > ws->pcap && !nbi_grow(ws->a, (void **)&ws->path, &ws->pcap, room, sizeof *ws->path))
        return 0;
    nb_cell *const end = ws->path + room, *p = end;
    size_t diagonals = 0;
    int32_t x, y;
    slot_cell(s, to, flat, &x, &y);
    for (uint32_t j = to;;) {
        if (p == ws->path)
            return 0; /* more cells than the bound: a defect; say no memory rather than write past */
        --p;
        p->x = x;
        p->y = y;
        if (j == start)
            break;
        unsigned d = stamp[j] & DIR_MASK;
        diagonals += NBI_MOVE_IS_DIAGONAL(d);
        const int32_t px = x - nbi_move_dx[d], py = y - nbi_move_dy[d];
        /* The same tile when the coordinates agree above their low TSHIFT bits. */
        j = flat || ((px ^ x) | (py ^ y)) >> TSHIFT == 0 ? (uint32_t)((int32_t)j - off[d])
                                                        : slot_find(ws, px, py);
        x = px;
        y = py;
    }
    const size_t len = (size_t)(end - p);
    res->path = p;
    res->path_len = len;
    /* Exact from the step counts rather than summed along the way. */
    res->length = nbi_steps_length(len - 1 - diagonals, diagonals);
    res->cost = s->weighted ? (flat ? ws->fg : ws->g)[to] : res->length;
    return 1;
}

/* The expanded cell with the least heuristic to the goal (ties: the least g, then the first in
 * row-major order): where the best partial path leads.  Looked for among the slots of the
 * pages this search claimed when it is needed, so that the search itself pays nothing.  With
 * by_g 0 the ties skip g: after a search that ran out of cells, every cell the start reaches is
 * expanded, and this is the reachable cell nearest the goal of a partial path
 * (NB_PATH_PARTIAL: ties the least y, then the least x). */
static uint32_t best_expanded(const nb_aa *ws, int by_g)
{
    const struct search *s = &ws->s;
    const uint32_t *stamp = ws->flat ? ws->fstamp : ws->stamp;
    const double *gv = ws->flat ? ws->fg : ws->g;
    const uint32_t closed = s->open_stamp | CLOSED;
    uint32_t best = s->start_slot;
    int32_t bx, by;
    slot_cell(s, best, ws->flat, &bx, &by);
    double bh = octile(bx, by, s->gx, s->gy), bg = 0;
    size_t n = ws->flat ? ws->cells : nbi_pool_slots(&ws->pool);
    for (size_t j = 0; j < n; j++) {
        if ((stamp[j] & ~DIR_MASK) != closed)
            continue;
        if (!ws->flat && ws->pool.gen[j >> PSHIFT] != ws->pool.cur)
            continue;
        int32_t x, y;
        slot_cell(s, (uint32_t)j, ws->flat, &x, &y);
        double h = octile(x, y, s->gx, s->gy);
        double jg = by_g ? gv[j] : 0;
        if (h < bh || (h == bh && (jg < bg || (jg == bg && (y < by || (y == by && x < bx)))))) {
            best = (uint32_t)j;
            bh = h;
            bg = jg;
            bx = x;
            by = y;
        }
    }
    return best;
}

/* The result of the search begun, ended or not (then NB_PATH_LIMIT). */
static nb_status finish_search(nb_aa *ws, nb_aa_result *res, nb_err *err)
{
    struct search *s = &ws->s;
    res->status = NB_PATH_NONE;
    res->length = 0;
    res->cost = 0;
    res->path_len = 0;
    res->path = NULL;
    res->searched = 1;
    res->expanded = s->expanded;
    ws->state = IDLE;
    if (ws->generic)
        nbi_heap_clear(&ws->gheap);
    if (s->end == END_NOMEM)
        return nbi_fail(err, NB_ERR_NOMEM, "Annotated A*: no memory for the search's nodes "
                        "(%llu reached)", (unsigned long long)s->nodes);
    if (!s->has_goal || (s->end == END_EXHAUSTED && !ws->partial))
        return NB_OK;
    uint32_t to = s->goal_slot;
    if (s->end == END_EXHAUSTED) { /* every cell the start reaches was expanded */
        res->status = NB_PATH_PARTIAL;
        to = best_expanded(ws, 0);
    } else if (s->end != END_FOUND) {
        res->status = NB_PATH_LIMIT;
        if (s->start_slot == NOT_SLOT || s->nodes == 0)
            return NB_OK; /* the cap left no room for the start */
        to = best_expanded(ws, 1);
    } else {
        res->status = NB_PATH_FOUND;
    }
    if (!walk_back(ws, to, res)) {
        res->status = NB_PATH_NONE;
        return nbi_fail(err, NB_ERR_NOMEM, "Annotated A*: no memory for a path");
    }
    return NB_OK;
}

void nbi_aa_run(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner, nb_cell start,
                const nb_cell *goal, const nbi_window *win, const nb_overlay *ov, nb_aa_result *res)
{
    ws->flat = ws->generic = 0;
    begin_search(ws, clear, size, corner, start, goal, win, ov, 0, 0);
    run_slice(ws, UINT64_MAX);
    finish_search(ws, res, NULL);
}

void nbi_aa_start(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner,
                  nb_cell start, const nb_cell *goal, const nb_overlay *ov)
{
    ws->flat = ws->generic = 0;
    begin_search(ws, clear, size, corner, start, goal, NULL, ov, 0, 0);
}

int nbi_aa_advance(nb_aa *ws, uint64_t budget)
{
    if (ws->s.end == RUNNING)
        run_slice(ws, budget);
    switch (ws->s.end) {
    case RUNNING: return NBI_AA_RUNNING;
    case END_FOUND: return NBI_AA_FOUND;
    case END_EXHAUSTED: return NBI_AA_EXHAUSTED;
    default: return NBI_AA_NOMEM; /* no node cap is set: only memory stops it short */
    }
}

uint64_t nbi_aa_expanded(const nb_aa *ws) { return ws->s.expanded; }

/* The per-cell arrays of the benchmark's comparisons, made on the first call. */
static int flat_arrays(nb_aa *ws)
{
    if (ws->fstamp)
        return 1;
    ws->fstamp = nbi_zalloc_array(ws->a, ws->cells, sizeof *ws->fstamp);
    ws->fg = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->fg);
    ws->fhpos = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->fhpos);
    ws->flane = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->flane);
    ws->fheap = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->fheap);
    if (ws->fstamp && ws->fg && ws->fhpos && ws->flane && ws->fheap)
        return 1;
    nbi_free(ws->a, ws->fstamp);
    nbi_free(ws->a, ws->fg);
    nbi_free(ws->a, ws->fhpos);
    nbi_free(ws->a, ws->flane);
    nbi_free(ws->a, ws->fheap);
    ws->fstamp = NULL;
    return 0;
}

int nbi_aa_run_flat(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner,
                    nb_cell start, const nb_cell *goal, nb_aa_result *res)
{
    if (!flat_arrays(ws))
        return 0;
    ws->flat = 1;
    ws->generic = 0;
    begin_search(ws, clear, size, corner, start, goal, NULL, NULL, 0, 0);
    run_slice(ws, UINT64_MAX);
    finish_search(ws, res, NULL);
    ws->flat = 0;
    return 1;
}

int nbi_aa_run_generic_heap(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner,
                            nb_cell start, const nb_cell *goal, nb_aa_result *res)
{
    if (!flat_arrays(ws))
        return 0;
    if (!ws->gpos) {
        ws->gpos = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->gpos);
        if (!ws->gpos || !nbi_heap_init(&ws->gheap, ws->a, ws->cells, ws->gpos)) {
            nbi_free(ws->a, ws->gpos);
            ws->gpos = NULL;
            return 0;
        }
        for (size_t i = 0; i < ws->cells; i++)
            ws->gpos[i] = NBI_HEAP_NONE;
    }
    ws->flat = ws->generic = 1;
    begin_search(ws, clear, size, corner, start, goal, NULL, NULL, 0, 0);
    run_slice(ws, UINT64_MAX);
    finish_search(ws, res, NULL);
    ws->flat = ws->generic = 0;
    return 1;
}

double nbi_aa_cost(const nb_aa *ws, nb_cell c)
{
    if (c.x < 0 || c.y < 0 || (uint32_t)c.x >= ws->width || (uint32_t)c.y >= ws->height)
        return -1;
    uint32_t j = slot_find(ws, c.x, c.y);
    if (j == NOT_SLOT || (ws->stamp[j] >> SID_SHIFT) != ws->sid || !(ws->stamp[j] & CLOSED))
        return -1;
    return ws->g[j];
}

/* ---- the public query ---- */

/* Checks the query, and answers it when no search is needed (ws->state DONE, ws->answer); else
 * starts the search. */
static nb_status begin(nb_aa *ws, const nb_aa_query *q, nb_err *err)
{
    const nb_bundle *b = ws->bundle;
    static const char family[] = "Annotated A*";
    ws->state = IDLE;
    nb_status st;
    /* The order every family keeps (core/query.c): malformed, off the
     * map, not baked. */
    if ((st = nbi_query_size(err, family, q->size)) != NB_OK)
        return st;
    if (q->corner != NB_CORNER_STRICT && q->corner != NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown corner rule %d", family, (int)q->corner);
    if ((st = nbi_costs_keep(&ws->costs, b, q->capability, q->size, q->costs, err)) != NB_OK) {
        nbi_err_prefix(err, "%s", family);
        return st;
    }
    if ((st = nbi_overlay_check(q->overlay, b, family, err)) != NB_OK ||
        (st = nbi_query_cell(err, family, "start", q->start, ws->width, ws->height)) != NB_OK ||
        (st = nbi_query_cell(err, family, "goal", q->goal, ws->width, ws->height)) != NB_OK)
        return st;
    if (!ws->have_clear || ws->clear_cap != q->capability || q->size > ws->clear.maxval) {
        ws->have_clear = 0;
        ws->comp_state = 0;
        if ((st = nbi_agent_layer(b, family, q->capability, q->size, &ws->clear, err)) != NB_OK)
            return st;
        ws->have_clear = 1;
        ws->clear_cap = q->capability;
    }
    const nbi_layer *cl = &ws->clear;
    uint64_t si = (uint64_t)q->start.y * ws->width + (uint64_t)q->start.x;
    uint64_t gi = (uint64_t)q->goal.y * ws->width + (uint64_t)q->goal.x;
    ws->state = DONE;
    ws->answer = NB_PATH_NONE;
    if (nbi_layer_get(cl, si) < q->size ||
        !nbi_overlay_room(q->overlay, q->size, (uint32_t)q->start.x, (uint32_t)q->start.y)) {
        ws->answer = NB_PATH_START_BLOCKED;
        return NB_OK;
    }
    /* A partial path searches on where there is no path: the search runs out of cells, having
     * expanded every one the start reaches, and the nearest the goal ends the path. */
    const int partial = q->partial != 0;
    if (!partial && (nbi_layer_get(cl, gi) < q->size ||
                     !nbi_overlay_room(q->overlay, q->size, (uint32_t)q->goal.x,
                                       (uint32_t)q->goal.y))) {
        ws->answer = NB_PATH_GOAL_BLOCKED;
        return NB_OK;
    }
    if (ws->comp_state == 0 || ws->comp_cap != q->capability || ws->comp_size != q->size) {
        ws->comp_cap = q->capability;
        ws->comp_size = q->size;
        /* Without the layer (a size or capability not served) the search
         * alone answers; a damaged one is an error. */
        st = nbi_components_layer(b, q->capability, q->size, &ws->comp, err);
        if (st != NB_OK && st != NB_ERR_NOTFOUND) {
            ws->comp_state = 0;
            ws->state = IDLE;
            return st;
        }
        nbi_ok(err);
        ws->comp_state = st == NB_OK ? 1 : -1;
    }
    /* Blocks only take cells away: the bundle's components still prove "no path". */
    if (!partial && ws->comp_state == 1 &&
        nbi_comp_get(&ws->comp, si) != nbi_comp_get(&ws->comp, gi))
        return NB_OK; /* no path, and no search */
    ws->flat = ws->generic = 0;
    begin_search(ws, cl, q->size, q->corner, q->start, &q->goal, NULL, q->overlay,
                 q->max_expansions, ws->costs.weighted);
    ws->partial = partial;
    return NB_OK;
}

nb_status nb_aa_begin(nb_aa *ws, const nb_aa_query *q, nb_err *err)
{
    return nbi_done(err, begin(ws, q, err));
}

nb_status nb_aa_step(nb_aa *ws, uint64_t expansions, int *done, nb_err *err)
{
    if (ws->state == IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_aa_step: no query begun (nb_aa_begin)");
    if (ws->state == BUSY && !ws->s.end)
        run_slice(ws, expansions);
    if (ws->state == BUSY && ws->s.end == END_NOMEM) {
        ws->state = IDLE;
        *done = 1;
        return nbi_fail(err, NB_ERR_NOMEM, "Annotated A*: no memory for the search's nodes "
                        "(%llu reached)", (unsigned long long)ws->s.nodes);
    }
    *done = ws->state == DONE || ws->s.end != RUNNING;
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_aa_finish(nb_aa *ws, nb_aa_result *res, nb_err *err)
{
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    if (ws->state == IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_aa_finish: no query begun (nb_aa_begin)");
    if (ws->state == DONE) {
        ws->state = IDLE;
        res->status = ws->answer;
        return nbi_done(err, NB_OK);
    }
    return nbi_done(err, finish_search(ws, res, err));
}

nb_status nb_aa_find(nb_aa *ws, const nb_aa_query *q, nb_aa_result *res, nb_err *err)
{
    int done;
    nb_status st = nb_aa_begin(ws, q, err);
    if (st == NB_OK)
        st = nb_aa_step(ws, UINT64_MAX, &done, err);
    if (st == NB_OK)
        return nb_aa_finish(ws, res, err);
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    return st;
}
