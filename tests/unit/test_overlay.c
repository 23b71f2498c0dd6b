/* test_overlay.c: runtime obstacles (nb_overlay_*), against a fresh bake
 * of the edited map.
 *
 * Random overlays (rectangles, cell lists, agent footprints, blocked and
 * unblocked again) on random levels and on small maps of ../shared/maps:
 * the map with the overlay's cells made walls is baked again through the
 * bake API, and on it
 *  - the overlay's room, min(cap, D), equals a brute-force scan of the
 *    blocked cells, and nb_overlay_can_stand equals nb_can_stand;
 *  - Annotated A* with the overlay gives the fresh bake's answers (status,
 *    length), both corner rules;
 *  - HAA* with the overlay finds a path exactly when Annotated A* does,
 *    from the graph the overlay repaired (never by Annotated A* after a
 *    block), and its path is valid cell by cell on the edited map;
 *  - the optimal-search layer with the overlay gives AA*'s lengths;
 *  - nb_overlay_reachable's 0 and 1 are the edited bake's;
 *  - unblocking what was blocked gives back the overlay's bytes and the
 *    answers, path for path.
 * Then readers of one overlay version on threads while a writer prepares
 * the next (make check-tsan runs it under ThreadSanitizer), and the
 * errors. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haa_util.h"
#include "blocked/blocked.h"
#include "subgoal/subgoal_build.h"

static nbi_legend legend;

/* The test's own record of what is blocked, and the same changes made to the overlay. */
typedef struct model {
    uint32_t w, h;
    uint8_t *blk;
    nb_overlay *ov;
    int bad; /* a call failed */
} model;

static void mark(model *m, long x, long y, long w, long h, int block)
{
    for (long j = y; j < y + h; j++)
        for (long i = x; i < x + w; i++)
            m->blk[(size_t)j * m->w + (size_t)i] = (uint8_t)block;
}

static void random_change(model *m, tu_rng *r, unsigned max_size)
{
    nb_err err;
    unsigned kind = tu_below(r, 4);
    int block = tu_below(r, 3) != 0;
    if (kind == 3) { /* a list of cells */
        nb_cell c[8];
        size_t n = 1 + tu_below(r, 8);
        for (size_t i = 0; i < n; i++) {
            c[i].x = (int32_t)tu_below(r, m->w);
            c[i].y = (int32_t)tu_below(r, m->h);
            mark(m, c[i].x, c[i].y, 1, 1, block);
        }
        nb_status st = block ? nb_overlay_block_cells(m->ov, c, n, &err)
                             : nb_overlay_unblock_cells(m->ov, c, n, &err);
        m->bad += st != NB_OK;
        return;
    }
    /* A rectangle, or an agent's footprint (size x size). */
    long w = kind == 2 ? 1 + (long)tu_below(r, max_size) : 1 + (long)tu_below(r, 7);
    long h = kind == 2 ? w : 1 + (long)tu_below(r, 7);
    if (w > (long)m->w)
        w = (long)m->w;
    if (h > (long)m->h)
        h = (long)m->h;
    long x = (long)tu_below(r, m->w - (uint32_t)w + 1), y = (long)tu_below(r, m->h - (uint32_t)h + 1);
    mark(m, x, y, w, h, block);
    nb_status st = block ? nb_overlay_block(m->ov, x, y, w, h, &err)
                         : nb_overlay_unblock(m->ov, x, y, w, h, &err);
    m->bad += st != NB_OK;
}

/* D(t) by brute force: the side of the largest square at t (up to cap) with no blocked cell,
 * cells beyond the map not blocked. */
static uint32_t brute_room(const model *m, uint32_t cap, uint32_t x, uint32_t y)
{
    uint32_t k = 0;
    while (k < cap) {
        /* Square k + 1: its new row and column. */
        for (uint32_t i = 0; i <= k; i++) {
            uint32_t ax = x + i, ay = y + k, bx = x + k, by = y + i;
            if ((ax < m->w && ay < m->h && m->blk[(size_t)ay * m->w + ax]) ||
                (bx < m->w && by < m->h && m->blk[(size_t)by * m->w + bx]))
                return k;
        }
        k++;
    }
    return k;
}

static nbb_grid edited(const nbb_grid *g, const model *m)
{
    nbb_grid e = {g->width, g->height, malloc((size_t)g->width * g->height)};
    for (size_t i = 0; i < (size_t)g->width * g->height; i++)
        e.cells[i] = m->blk[i] ? '@' : g->cells[i];
    return e;
}

typedef struct tally {
    long queries, aa_bad, haa_bad, haa_invalid, sg_bad, stand_bad, room_bad, reach_bad, reach_yes,
        reach_no, reach_unknown, blocked_found, haa_graph, haa_aa, haa_slices_bad, partial_bad,
        partials;
} tally;

static nb_cell random_cell(tu_rng *r, uint32_t w, uint32_t h)
{
    nb_cell c = {(int32_t)tu_below(r, w), (int32_t)tu_below(r, h)};
    return c;
}

/* A cell where the agent may stand on the bundle (several tries), else any. */
static nb_cell standable_cell(tu_rng *r, const nb_bundle *b, const nb_agent *a)
{
    nb_cell c = random_cell(r, nb_map_width(b), nb_map_height(b));
    for (int t = 0; t < 20 && nb_can_stand(b, a->capability, a->size, c.x, c.y) != 1; t++)
        c = random_cell(r, nb_map_width(b), nb_map_height(b));
    return c;
}

/* Everything the overlay answers, against the edited map's fresh bake e. */
static void compare(const nb_bundle *b, nb_aa *aa, nb_haa *haa, nb_sg *sg, const model *m,
                    const nbb_grid *eg, const nb_bundle *e, nb_aa *eaa, const nbi_agentset *agents,
                    tu_rng *r, int nq, tally *t)
{
    const nb_overlay *ov = m->ov;
    for (uint32_t y = 0; y < m->h; y++)
        for (uint32_t x = 0; x < m->w; x++) {
            uint32_t want = brute_room(m, ov->cap, x, y);
            if (nbi_overlay_lim(ov, x, y) != want && t->room_bad++ < 3)
                diag("room at (%u, %u): %u, brute force %u", x, y, nbi_overlay_lim(ov, x, y), want);
        }
    for (size_t ai = 0; ai < agents->count; ai++) {
        const nb_agent *a = &agents->agent[ai];
        for (uint32_t y = 0; y < m->h; y++)
            for (uint32_t x = 0; x < m->w; x++)
                if (nb_overlay_can_stand(ov, a->capability, a->size, x, y) !=
                        nb_can_stand(e, a->capability, a->size, x, y) &&
                    t->stand_bad++ < 3)
                    diag("%s at (%u, %u): can_stand differs", a->name, x, y);
        for (int k = 0; k < nq; k++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            q.start = standable_cell(r, b, a);
            q.goal = k % 5 == 4 ? random_cell(r, m->w, m->h) : standable_cell(r, b, a);
            q.size = a->size;
            q.capability = a->capability;
            q.corner = k & 1 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
            nb_aa_result want, got;
            nb_err err;
            t->queries++;
            if (nb_aa_find(eaa, &q, &want, &err) != NB_OK) {
                diag("edited bake: %s", err.msg);
                t->aa_bad++;
                continue;
            }
            q.overlay = ov;
            if (nb_aa_find(aa, &q, &got, &err) != NB_OK || got.status != want.status ||
                fabs(got.length - want.length) > 1e-9) {
                if (t->aa_bad++ < 3)
                    diag("%s (%d,%d)->(%d,%d) %s: AA* with the overlay %s %.6f, fresh bake %s %.6f",
                         a->name, q.start.x, q.start.y, q.goal.x, q.goal.y,
                         q.corner ? "weak" : "strict", nb_path_status_str(got.status), got.length,
                         nb_path_status_str(want.status), want.length);
                continue;
            }
            t->blocked_found += want.status == NB_PATH_FOUND && m->ov->blocked;
            char why[160];
            enum brute_corner rule = q.corner ? BRUTE_WEAK : BRUTE_STRICT;
            if (got.status == NB_PATH_FOUND &&
                !hu_path_ok(&legend, eg, a->capability, a->size, rule, got.path, got.path_len,
                            q.start, q.goal, got.length, why, sizeof why) &&
                t->aa_bad++ < 3)
                diag("AA*'s path with the overlay: %s", why);
            /* Straightened, smoothed or as refined, in turn. */
            unsigned flags = k % 3 == 0 ? NB_HAA_STRAIGHTEN | NB_HAA_SMOOTH
                                        : k % 3 == 1 ? NB_HAA_STRAIGHTEN : 0;
            nb_haa_result h;
            if (tu_haa_find(haa, &q, flags, &h, &err) != NB_OK ||
                (h.status == NB_PATH_FOUND) != (want.status == NB_PATH_FOUND) ||
                (want.status != NB_PATH_FOUND && want.status != NB_PATH_NONE &&
                 h.status != want.status)) {
                if (t->haa_bad++ < 3)
                    diag("%s (%d,%d)->(%d,%d): HAA* with the overlay %s, AA* %s", a->name,
                         q.start.x, q.start.y, q.goal.x, q.goal.y, nb_path_status_str(h.status),
                         nb_path_status_str(want.status));
            } else if (h.status == NB_PATH_FOUND &&
                       !(flags & NB_HAA_SMOOTH
                             ? hu_polyline_ok(&legend, eg, a->capability, a->size, rule, h.path,
                                              h.path_len, q.start, q.goal, h.length, why,
                                              sizeof why)
                             : hu_path_ok(&legend, eg, a->capability, a->size, rule, h.path,
                                          h.path_len, q.start, q.goal, h.length, why,
                                          sizeof why)) &&
                       t->haa_invalid++ < 3) {
                diag("HAA*'s path with the overlay (flags %u): %s", flags, why);
            }
            if (h.status == NB_PATH_FOUND && h.searched) {
                /* From the graph as the overlay repaired it; Annotated A* over the overlay
                 * (abstract_len 0) answers only where no repair stands. */
                t->haa_graph += h.abstract_len > 0;
                t->haa_aa += h.abstract_len == 0;
            }
            if (h.status == NB_PATH_FOUND) {
                /* Sliced: the same path. */
                size_t n = h.path_len;
                nb_cell *keep = malloc(n * sizeof *keep);
                memcpy(keep, h.path, n * sizeof *keep);
                int done = 0;
                nb_status st = tu_haa_begin(haa, &q, flags, &err);
                while (st == NB_OK && !done)
                    st = nb_haa_step(haa, 1 + (uint64_t)(k % 7), &done, &err);
                if (st == NB_OK)
                    st = nb_haa_finish(haa, &h, &err);
                if ((st != NB_OK || h.status != NB_PATH_FOUND || h.path_len != n ||
                     memcmp(h.path, keep, n * sizeof *keep) != 0) &&
                    t->haa_slices_bad++ < 3)
                    diag("%s: HAA* sliced with the overlay: %s, %zu cells (find: %zu)", a->name,
                         nb_path_status_str(h.status), h.path_len, n);
                free(keep);
            }
            /* On a small budget: a partial path that no block cuts, for both searches. */
            nb_aa_query lq = q;
            lq.max_expansions = 1 + (uint64_t)(k * 37 % 400);
            nb_aa_result la;
            nb_haa_result lh;
            if (nb_aa_find(aa, &lq, &la, &err) == NB_OK && tu_haa_find(haa, &lq, 0, &lh, &err) == NB_OK) {
                const nb_cell *pp[2] = {la.path, lh.path};
                size_t pn[2] = {la.status == NB_PATH_LIMIT ? la.path_len : 0,
                                lh.status == NB_PATH_LIMIT ? lh.path_len : 0};
                for (int w = 0; w < 2; w++) {
                    int good = 1;
                    t->partials += pn[w] > 0;
                    for (size_t i = 0; i < pn[w] && good; i++)
                        good = brute_can_stand(&legend, eg, a->capability, a->size, pp[w][i].x,
                                               pp[w][i].y) &&
                               (i == 0 || brute_step_ok(&legend, eg, a->capability, a->size, rule,
                                                        pp[w][i - 1].x, pp[w][i - 1].y, pp[w][i].x,
                                                        pp[w][i].y));
                    if (!good && t->partial_bad++ < 3)
                        diag("%s: a partial path of %s with the overlay crosses a block", a->name,
                             w ? "HAA*" : "AA*");
                }
            }
            if (q.corner == NB_CORNER_STRICT) {
                nb_sg_query sq;
                nb_sg_query_init(&sq);
                sq.start = q.start;
                sq.goal = q.goal;
                sq.size = q.size;
                sq.capability = q.capability;
                sq.overlay = ov;
                nb_sg_result s;
                if ((nb_sg_find(sg, &sq, &s, &err) != NB_OK || s.status != want.status ||
                     fabs(s.length - want.length) > 1e-9) &&
                    t->sg_bad++ < 3)
                    diag("%s: the optimal layer with the overlay %s %.6f, AA* %s %.6f", a->name,
                         nb_path_status_str(s.status), s.length, nb_path_status_str(want.status),
                         want.length);
            }
            int reach = nb_overlay_reachable(ov, a->capability, a->size, q.start, q.goal);
            int truth = nb_reachable(e, a->capability, a->size, q.start, q.goal);
            if (reach == NB_REACH_UNKNOWN)
                t->reach_unknown++;
            else if (reach != truth && t->reach_bad++ < 3)
                diag("%s: reachable %d under the overlay, %d on the fresh bake", a->name, reach,
                     truth);
            t->reach_yes += reach == 1;
            t->reach_no += reach == 0;
        }
    }
}

/* The bytes of every cell's room. */
static int same_rooms(const nb_overlay *a, const nb_overlay *b)
{
    for (uint32_t y = 0; y < a->height; y++)
        for (uint32_t x = 0; x < a->width; x++)
            if (nbi_overlay_lim(a, x, y) != nbi_overlay_lim(b, x, y))
                return 0;
    return a->blocked == b->blocked && a->held == b->held;
}

/* Query answers with one overlay and another (or none) the same path for path. */
static long differing_answers(nb_aa *aa, const nb_bundle *b, const nbi_agentset *agents,
                              const nb_overlay *x, const nb_overlay *y, uint64_t seed)
{
    tu_rng r = {seed};
    long bad = 0;
    for (size_t ai = 0; ai < agents->count; ai++)
        for (int k = 0; k < 20; k++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            q.start = standable_cell(&r, b, &agents->agent[ai]);
            q.goal = standable_cell(&r, b, &agents->agent[ai]);
            q.size = agents->agent[ai].size;
            q.capability = agents->agent[ai].capability;
            nb_aa_result p1, p2;
            q.overlay = x;
            nb_aa_find(aa, &q, &p1, NULL);
            size_t n = p1.path_len;
            nb_cell *c = malloc((n + 1) * sizeof *c);
            if (n)
                memcpy(c, p1.path, n * sizeof *c);
            q.overlay = y;
            nb_aa_find(aa, &q, &p2, NULL);
            bad += p1.status != p2.status || p1.length != p2.length || p2.path_len != n ||
                   (n && memcmp(c, p2.path, n * sizeof *c) != 0);
            free(c);
        }
    return bad;
}

/* Random overlays on one level: changes, a fresh bake of the edited map, the comparison. */
static void check_level(const char *name, const nbb_grid *grid, const nbi_agentset *agents,
                        unsigned cluster, int rounds, int nq, uint64_t seed)
{
    const char *dir = tu_tmpdir();
    nb_bundle *b = hu_bake_all(tu_path(dir, "base.nbk"), &legend, agents, grid, cluster);
    if (!ok(b != NULL, "%s: the base bundle bakes", name))
        return;
    nb_aa *aa = NULL, *eaa = NULL;
    nb_haa *haa = NULL;
    nb_sg *sg = NULL;
    nb_err err;
    model m = {grid->width, grid->height, calloc((size_t)grid->width * grid->height, 1), NULL, 0};
    if (!ok(nb_overlay_open(b, &m.ov, &err) == NB_OK && nb_aa_open(b, &aa, &err) == NB_OK &&
                nb_haa_open(b, &haa, &err) == NB_OK && tu_sg_open(b, 0, &sg, &err) == NB_OK,
            "%s: an overlay and workspaces", name)) {
        diag("%s", err.msg);
        goto out;
    }
    tu_rng r = {seed};
    tally t;
    memset(&t, 0, sizeof t);
    long unblock_bad = 0, restore_bad = 0;
    int built = 0;
    unsigned max_size = 1;
    for (size_t i = 0; i < agents->count; i++)
        max_size = agents->agent[i].size > max_size ? agents->agent[i].size : max_size;
    for (int round = 0; round < rounds; round++) {
        int changes = 1 + (int)tu_below(&r, 6);
        for (int c = 0; c < changes; c++)
            random_change(&m, &r, max_size);
        nbb_grid eg = edited(grid, &m);
        nb_bundle *e = hu_bake(tu_path(dir, "edited.nbk"), &legend, agents, &eg);
        if (e && nb_aa_open(e, &eaa, &err) == NB_OK) {
            built++;
            compare(b, aa, haa, sg, &m, &eg, e, eaa, agents, &r, nq, &t);
        }
        nb_aa_close(eaa);
        eaa = NULL;
        nb_bundle_close(e);
        free(eg.cells);
        /* A block of fresh cells, taken back: the overlay's bytes and answers as they were. */
        nb_overlay *before = NULL;
        if (nb_overlay_clone(m.ov, &before, &err) == NB_OK) {
            long x = (long)tu_below(&r, m.w), y = (long)tu_below(&r, m.h);
            long w = 1 + (long)tu_below(&r, 10), h = 1 + (long)tu_below(&r, 10);
            w = x + w > (long)m.w ? (long)m.w - x : w;
            h = y + h > (long)m.h ? (long)m.h - y : h;
            nb_cell *fresh = malloc((size_t)(w * h) * sizeof *fresh);
            size_t nf = 0;
            for (long j = y; j < y + h; j++)
                for (long i = x; i < x + w; i++)
                    if (!m.blk[(size_t)j * m.w + (size_t)i])
                        fresh[nf++] = (nb_cell){(int32_t)i, (int32_t)j};
            m.bad += nb_overlay_block_cells(m.ov, fresh, nf, NULL) != NB_OK;
            m.bad += nb_overlay_unblock_cells(m.ov, fresh, nf, NULL) != NB_OK;
            unblock_bad += !same_rooms(m.ov, before);
            restore_bad += differing_answers(aa, b, agents, m.ov, before, seed + (uint64_t)round);
            free(fresh);
            nb_overlay_close(before);
        }
    }
    ok(m.bad == 0, "%s: every change is accepted", name);
    ok(built == rounds, "%s: %d edited maps baked afresh", name, built);
    ok(t.room_bad == 0, "%s: the overlay's room is the brute-force scan's at every cell", name);
    ok(t.stand_bad == 0, "%s: nb_overlay_can_stand is the fresh bake's nb_can_stand", name);
    ok(t.aa_bad == 0,
       "%s: AA* with the overlay answers as AA* on the fresh bake (%ld queries, %ld found past "
       "blocks), with valid paths",
       name, t.queries, t.blocked_found);
    ok(t.haa_bad == 0 && t.haa_invalid == 0 && t.haa_aa == 0,
       "%s: HAA* with the overlay finds a path exactly when AA* does, valid on the edited map, "
       "from the graph the overlay repaired (%ld paths; %ld by Annotated A* after a block)",
       name, t.haa_graph, t.haa_aa);
    ok(t.haa_slices_bad == 0, "%s: HAA* with the overlay in slices gives find's paths", name);
    ok(t.sg_bad == 0, "%s: the optimal layer with the overlay gives AA*'s answers", name);
    ok(t.partial_bad == 0,
       "%s: AA*'s and HAA*'s partial paths on a budget never cross a block (%ld partial paths)",
       name, t.partials);
    ok(t.reach_bad == 0,
       "%s: nb_overlay_reachable's answers hold on the fresh bake (%ld joined, %ld apart, %ld "
       "left to a search)",
       name, t.reach_yes, t.reach_no, t.reach_unknown);
    ok(unblock_bad == 0 && restore_bad == 0,
       "%s: unblocking fresh blocks gives back the overlay's bytes and its answers path for path",
       name);
    /* Everything unblocked: no tile held, and the answers of no overlay at all. */
    nb_overlay_unblock(m.ov, 0, 0, m.w, m.h, NULL);
    ok(m.ov->blocked == 0 && m.ov->held == 0 &&
           differing_answers(aa, b, agents, m.ov, NULL, seed) == 0,
       "%s: unblocking the whole map leaves no tile and the bundle's own answers", name);
out:
    free(m.blk);
    nb_overlay_close(m.ov);
    nb_aa_close(aa);
    nb_haa_close(haa);
    nb_sg_close(sg);
    nb_bundle_close(b);
}

static void random_levels(void)
{
    tu_rng r = {20261125};
    for (int lv = 0; lv < 6; lv++) {
        nbb_grid grid;
        nbi_agentset agents;
        uint32_t w = 24 + tu_below(&r, 30), h = 20 + tu_below(&r, 30);
        if (lv % 2)
            tu_random_grid(&r, w, h, 5 + tu_below(&r, 15), 2, &grid);
        else
            hu_rooms_grid(&r, w, h, 2, &grid);
        /* Agents of sizes 1 to 3; most may enter both terrains, so that paths are long. */
        hu_random_agents(&r, 1 + tu_below(&r, 3), 2, 3, &agents);
        for (size_t i = 0; i < agents.count; i++)
            if (i + 1 < agents.count || lv % 3)
                agents.agent[i].capability = 3u;
        char name[64];
        snprintf(name, sizeof name, "random level %d (%u x %u)", lv, w, h);
        check_level(name, &grid, &agents, 8, 6, 12, tu_rand(&r));
        nbb_grid_free(&grid);
    }
}

/* Three small maps in make check; every map of ../shared/maps with NB_OVERLAY_ALL=1 (make
 * check-overlay: minutes). */
static void shared_maps(void)
{
    static const char *const small[] = {"dao/arena.map", "dao/den312d.map", "dao/lak303d.map"};
    static const char *const all[] = {
        "bg/AR0011SR.map",          "bg/AR0042SR.map",          "dao/arena.map",
        "dao/brc202d.map",          "dao/den312d.map",          "dao/lak303d.map",
        "dao/orz900d.map",          "dao/ost003d.map",          "mazes/maze512-32-9.map",
        "mazes/maze512-4-0.map",    "random/random512-10-0.map", "random/random512-40-5.map",
        "rooms/64room_005.map",     "rooms/8room_000.map",      "sc1/AcrosstheCape.map",
        "sc1/Aftershock.map",       "sc1/CatwalkAlley.map",     "wc3/battleground.map",
        "wc3/blastedlands.map",     "wc3/bloodvenomfalls.map",  "wc3/darkforest.map"};
    const char *every = getenv("NB_OVERLAY_ALL");
    int whole = every && strcmp(every, "1") == 0;
    const char *const *maps = whole ? all : small;
    size_t nmaps = whole ? sizeof all / sizeof all[0] : sizeof small / sizeof small[0];
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    nb_capability gs;
    nbi_capability_parse(&legend, "ground,swamp", &gs, NULL);
    for (unsigned s = 1; s <= 2; s++) {
        nb_agent *a = &agents.agent[agents.count++];
        snprintf(a->name, sizeof a->name, "size%u", s);
        a->size = s;
        a->capability = gs;
    }
    for (size_t i = 0; i < nmaps; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "maps/%s", maps[i]);
        const char *p = tu_shared(rel);
        nbb_grid grid;
        nb_err err;
        if (!p || nbb_map_read(p, &legend, 1, &grid, &err) != NB_OK) {
            skip(1, "../shared/%s is not there", rel);
            continue;
        }
        check_level(maps[i], &grid, &agents, 16, 4, 10, 77 + i);
        nbb_grid_free(&grid);
    }
}

/* ---- one writer, many readers ---- */

#define READERS 3
#define RQUERIES 40

struct reader {
    const nb_bundle *b;
    const nb_overlay *ov; /* the version it reads */
    const nb_agent *agent;
    nb_aa_query q[RQUERIES];
    double len[RQUERIES];
    int status[RQUERIES];
    int failed;
};

static void *read_version(void *arg)
{
    struct reader *rd = arg;
    nb_aa *aa = NULL;
    if (nb_aa_open(rd->b, &aa, NULL) != NB_OK) {
        rd->failed = 1;
        return NULL;
    }
    for (int k = 0; k < RQUERIES; k++) {
        nb_aa_result res;
        nb_aa_query q = rd->q[k];
        q.overlay = rd->ov;
        if (nb_aa_find(aa, &q, &res, NULL) != NB_OK)
            rd->failed = 1;
        rd->status[k] = (int)res.status;
        rd->len[k] = res.length;
    }
    nb_aa_close(aa);
    return NULL;
}

struct writer {
    const nb_overlay *cur;
    nb_overlay *next;
    uint64_t seed;
    int failed;
};

static void *write_version(void *arg)
{
    struct writer *wr = arg;
    if (nb_overlay_clone(wr->cur, &wr->next, NULL) != NB_OK) {
        wr->failed = 1;
        return NULL;
    }
    tu_rng r = {wr->seed};
    for (int c = 0; c < 20; c++) {
        long x = (long)tu_below(&r, wr->next->width - 4), y = (long)tu_below(&r, wr->next->height - 4);
        nb_status st = c % 3 == 2 ? nb_overlay_unblock(wr->next, x, y, 4, 4, NULL)
                                  : nb_overlay_block(wr->next, x, y, 1 + c % 4, 1 + c % 3, NULL);
        wr->failed |= st != NB_OK;
    }
    return NULL;
}

static void threads(void)
{
    nbb_grid grid;
    tu_rng r = {99};
    hu_rooms_grid(&r, 64, 48, 1, &grid);
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    agents.count = 1;
    agents.agent[0] = (nb_agent){.name = "one", .size = 1, .capability = 1u};
    nb_bundle *b = hu_bake(tu_path(tu_tmpdir(), "threads.nbk"), &legend, &agents, &grid);
    nb_overlay *cur = NULL;
    if (!ok(b && nb_overlay_open(b, &cur, NULL) == NB_OK, "threads: a level and an overlay")) {
        nb_bundle_close(b);
        nbb_grid_free(&grid);
        return;
    }
    nb_overlay_block(cur, 10, 10, 5, 5, NULL);
    nb_aa *aa = NULL;
    nb_aa_open(b, &aa, NULL);
    long wrong = 0, failed = 0, changed = 0;
    for (int version = 0; version < 6; version++) {
        struct reader rd[READERS];
        nb_overlay *snapshot = NULL;
        nb_overlay_clone(cur, &snapshot, NULL);
        for (int i = 0; i < READERS; i++) {
            rd[i].b = b;
            rd[i].ov = cur;
            rd[i].agent = &agents.agent[0];
            rd[i].failed = 0;
            for (int k = 0; k < RQUERIES; k++) {
                nb_aa_query_init(&rd[i].q[k]);
                rd[i].q[k].start = standable_cell(&r, b, &agents.agent[0]);
                rd[i].q[k].goal = standable_cell(&r, b, &agents.agent[0]);
                rd[i].q[k].capability = 1u;
            }
        }
        struct writer wr = {cur, NULL, 1000 + (uint64_t)version, 0};
        pthread_t tr[READERS], tw;
        for (int i = 0; i < READERS; i++)
            pthread_create(&tr[i], NULL, read_version, &rd[i]);
        pthread_create(&tw, NULL, write_version, &wr);
        for (int i = 0; i < READERS; i++)
            pthread_join(tr[i], NULL);
        pthread_join(tw, NULL);
        /* Each reader's answers are the version's own, asked again here alone. */
        for (int i = 0; i < READERS; i++) {
            failed += rd[i].failed;
            for (int k = 0; k < RQUERIES; k++) {
                nb_aa_query q = rd[i].q[k];
                q.overlay = snapshot;
                nb_aa_result res;
                nb_aa_find(aa, &q, &res, NULL);
                wrong += (int)res.status != rd[i].status[k] || res.length != rd[i].len[k];
            }
        }
        changed += !same_rooms(cur, snapshot);
        failed += wr.failed;
        nb_overlay_close(snapshot);
        /* Publish: the readers of the next round read the writer's version. */
        nb_overlay_close(cur);
        cur = wr.next;
    }
    ok(failed == 0 && wrong == 0 && changed == 0,
       "threads: %d readers of each version answer as that version does alone while a writer "
       "prepares the next, which leaves it unchanged (6 versions)",
       READERS);
    nb_aa_close(aa);
    nb_overlay_close(cur);
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

/* ---- running out of memory ---- */

/* An allocator that fails once its budget of allocations is spent. */
static long alloc_left = -1; /* -1: no limit */
static void *lim_alloc(void *o, size_t n)
{
    (void)o;
    if (alloc_left == 0)
        return NULL;
    if (alloc_left > 0)
        alloc_left--;
    return malloc(n);
}
static void *lim_realloc(void *o, void *p, size_t n)
{
    (void)o;
    if (alloc_left == 0)
        return NULL;
    if (alloc_left > 0)
        alloc_left--;
    return realloc(p, n);
}
static void lim_free(void *o, void *p)
{
    (void)o;
    free(p);
}

static void out_of_memory(void)
{
    nbb_grid grid;
    tu_rng r = {17};
    tu_random_grid(&r, 300, 200, 5, 1, &grid);
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    agents.count = 2;
    agents.agent[0] = (nb_agent){.name = "one", .size = 1, .capability = 1u};
    agents.agent[1] = (nb_agent){.name = "three", .size = 3, .capability = 1u};
    const char *path = tu_path(tu_tmpdir(), "oom.nbk");
    nb_bundle *b0 = hu_bake(path, &legend, &agents, &grid);
    nb_allocator al = {lim_alloc, lim_realloc, lim_free, NULL};
    nb_bundle *b = NULL;
    nb_overlay *ov = NULL, *copy = NULL;
    nb_err err;
    if (!ok(b0 && nb_bundle_open(path, 0, &al, &b, &err) == NB_OK &&
                nb_overlay_open(b, &ov, &err) == NB_OK,
            "out of memory: a bundle with a caller's allocator and an overlay")) {
        nb_bundle_close(b0);
        nb_bundle_close(b);
        nbb_grid_free(&grid);
        return;
    }
    nb_overlay_block(ov, 10, 10, 5, 5, NULL);
    nb_overlay_clone(ov, &copy, NULL);
    /* A change that needs new tiles, with no memory for them or for some of them. */
    long fails = 0, changed = 0;
    for (long left = 0; left < 4; left++) {
        alloc_left = left;
        nb_status st = nb_overlay_block(ov, 120, 60, 70, 70, &err);
        nb_cell cells[3] = {{200, 150}, {20, 180}, {290, 5}};
        nb_status st2 = nb_overlay_block_cells(ov, cells, 3, &err);
        alloc_left = -1;
        fails += st == NB_ERR_NOMEM && st2 == NB_ERR_NOMEM;
        changed += !same_rooms(ov, copy);
    }
    ok(fails == 4 && changed == 0,
       "out of memory: a block that cannot make its tiles fails with NB_ERR_NOMEM and changes "
       "nothing (0 to 3 allocations allowed)");
    alloc_left = 0;
    nb_overlay *none = NULL;
    nb_status st = nb_overlay_clone(ov, &none, &err);
    alloc_left = -1;
    ok(st == NB_ERR_NOMEM && none == NULL, "out of memory: nb_overlay_clone fails cleanly");
    ok(nb_overlay_block(ov, 120, 60, 70, 70, &err) == NB_OK &&
           nb_overlay_blocked_count(ov) == 25 + 70 * 70,
       "with memory again, the same block succeeds");
    nb_overlay_close(ov);
    nb_overlay_close(copy);
    nb_bundle_close(b);
    nb_bundle_close(b0);
    nbb_grid_free(&grid);
}

/* ---- errors ---- */

static void errors(void)
{
    nbb_grid grid;
    tu_rng r = {5};
    tu_random_grid(&r, 20, 10, 10, 1, &grid);
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    agents.count = 1;
    agents.agent[0] = (nb_agent){.name = "one", .size = 1, .capability = 1u};
    nb_bundle *b = hu_bake_all(tu_path(tu_tmpdir(), "err1.nbk"), &legend, &agents, &grid, 8);
    nb_bundle *b2 = hu_bake(tu_path(tu_tmpdir(), "err2.nbk"), &legend, &agents, &grid);
    nb_overlay *ov = NULL, *other = NULL;
    nb_err err;
    if (!ok(b && b2 && nb_overlay_open(b, &ov, &err) == NB_OK &&
                nb_overlay_open(b2, &other, &err) == NB_OK,
            "errors: two bundles, an overlay on each")) {
        nb_bundle_close(b);
        nb_bundle_close(b2);
        nbb_grid_free(&grid);
        return;
    }
    ok(nb_overlay_block(ov, 18, 5, 3, 1, &err) == NB_ERR_OUTSIDE && strstr(err.msg, "18,5,3,1") &&
           strstr(err.msg, "20 x 10"),
       "a rectangle past the map's edge: NB_ERR_OUTSIDE naming it and the map (%s)", err.msg);
    ok(nb_overlay_unblock(ov, 2, 2, 0, 4, &err) == NB_ERR_ARG && strstr(err.msg, "0 x 4"),
       "a rectangle of no width: NB_ERR_ARG (%s)", err.msg);
    nb_cell cells[2] = {{1, 1}, {20, 3}};
    ok(nb_overlay_block_cells(ov, cells, 2, &err) == NB_ERR_OUTSIDE &&
           strstr(err.msg, "cell 1 of 2") && nb_overlay_blocked_count(ov) == 0,
       "a cell list with a cell off the map: NB_ERR_OUTSIDE naming it, nothing blocked (%s)",
       err.msg);
    nb_overlay_block(other, 1, 1, 1, 1, NULL);
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    nb_sg *sg = NULL;
    nb_aa_open(b, &aa, NULL);
    nb_haa_open(b, &haa, NULL);
    tu_sg_open(b, 0, &sg, NULL);
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = 1u;
    q.overlay = other;
    nb_aa_result ar;
    nb_haa_result hr;
    nb_sg_result sr;
    ok(nb_aa_find(aa, &q, &ar, &err) == NB_ERR_ARG && strstr(err.msg, "another bundle"),
       "AA* with another bundle's overlay: NB_ERR_ARG (%s)", err.msg);
    ok(tu_haa_find(haa, &q, 0, &hr, &err) == NB_ERR_ARG && strstr(err.msg, "another bundle"),
       "HAA* with another bundle's overlay: NB_ERR_ARG (%s)", err.msg);
    nb_haa_query rq;
    nb_haa_query_init(&rq);
    rq.capability = 1u;
    rq.overlay = other;
    rq.goal = (nb_cell){1, 0};
    int joined = -1;
    ok(nb_haa_reachable(haa, &rq, &joined, &err) == NB_ERR_ARG && strstr(err.msg, "another bundle") &&
           joined == 0,
       "nb_haa_reachable with another bundle's overlay: NB_ERR_ARG, not an answer (%s)", err.msg);
    nb_sg_query sq;
    nb_sg_query_init(&sq);
    sq.capability = 1u;
    sq.overlay = other;
    ok(nb_sg_find(sg, &sq, &sr, &err) == NB_ERR_ARG && strstr(err.msg, "another bundle"),
       "the optimal layer with another bundle's overlay: NB_ERR_ARG (%s)", err.msg);
    nb_overlay *none = ov;
    ok(nb_overlay_open(NULL, &none, &err) == NB_ERR_NOTFOUND && none == NULL,
       "nb_overlay_open without a bundle: NB_ERR_NOTFOUND (%s)", err.msg);
    ok(nb_overlay_blocked(ov, -1, 0) == 0 && nb_overlay_blocked(ov, 0, 99) == 0,
       "nb_overlay_blocked outside the map: 0");
    nb_overlay_block(ov, 0, 0, 20, 10, NULL);
    ok(nb_overlay_blocked_count(ov) == 200 && nb_overlay_bytes(ov) > 0,
       "the whole map blocked: 200 cells");
    nb_overlay_clear(ov);
    ok(nb_overlay_blocked_count(ov) == 0 && ov->held == 0, "nb_overlay_clear unblocks all");
    nb_aa_close(aa);
    nb_haa_close(haa);
    nb_sg_close(sg);
    nb_overlay_close(ov);
    nb_overlay_close(other);
    nb_bundle_close(b);
    nb_bundle_close(b2);
    nbb_grid_free(&grid);
}

int main(void)
{
    nbi_legend_default(&legend);
    errors();
    out_of_memory();
    random_levels();
    shared_maps();
    threads();
    return done_testing();
}
