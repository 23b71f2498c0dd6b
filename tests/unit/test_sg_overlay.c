/* test_sg_overlay.c: the optimal layer under overlays (nb_sg_find with an
 * overlay that blocks cells) against Annotated A* with the same overlay.
 *
 * On scenario lines of three maps of ../shared/maps (every line of every
 * map there with NB_SGOV_EVERY=1, which make check-scen sets), each query
 * gets an overlay of its own: 1 to 100 rectangles of 1 x 1 to 20 x 20
 * cells, none to three of them over cells of the unblocked optimal path,
 * the rest anywhere.  For both corner rules and sizes 1 and 2: the
 * layer's status and length are Annotated A*'s under the overlay (queries
 * with both ends free cut off among them, on some map), its
 * path is legal on the edited map step by step and as long as it says,
 * and no query is answered by Annotated A* (fallback 0: the hierarchy's
 * path where no block cuts it, else the search round the blocks).  A
 * sample is also run sliced, in steps of a few nodes: the same path.  A
 * workspace whose search round the blocks may expand no node hands a
 * query to Annotated A* only where a block touches the unblocked path,
 * with the same answers.  The search's stored scans (sgoverlay.c) are
 * checked on their own too: where one is used under an overlay it finds
 * what a scan under that overlay finds (scans_stored), and the scans it
 * keeps while an overlay is unchanged are dropped when it changes: one
 * overlay edited between rounds of the same queries, each answer against
 * Annotated A*'s (edits).  Partial paths without costs (walled): the goal
 * of a sample of scenario lines walled in by a square ring of blocks and 0
 * to 99 more rectangles anywhere, asked for a partial path: the layer
 * answers (fallback 0), ending at the cell a breadth-first search over the
 * map with the blocks as walls finds reachable nearest the goal (octile;
 * ties: the least y, then the least x), NB_PATH_PARTIAL unless that is the
 * goal, by a path legal under the overlay as long as Annotated A*'s to that
 * cell under it; some sliced.  Without ../shared the sample level of data/
 * is used the same way, with random pairs of cells. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal_build.h"
#include "brute.h"
#include "testutil.h"
#include "shapes.h"
#include "subgoal/subgoal.h"

static nbi_legend legend;
static unsigned max_rects = 100; /* the sample level of 64 x 40 cells takes a few */
static long cut_total; /* queries cut off with both ends free, over the maps */

/* The case the ends' floods answer was met (not on every map: open ones have few). */
static int cut_met(void)
{
    ok(cut_total > 0, "%ld queries with both ends free cut off, among them", cut_total);
    return done_testing();
}

struct tally {
    long runs, found, onpath, cut, bad, bad_path, fallback, sliced_bad, off, off_fallback, x_bad,
        x_fallback;
};

/* The length of p when every cell and step of it is legal under the overlay; -1 otherwise. */
static double steps_ok(const nbb_grid *g, const nb_overlay *ov, const nb_sg_query *q,
                       const nb_cell *p, size_t n)
{
    enum brute_corner rule = q->corner == NB_CORNER_WEAK ? BRUTE_WEAK : BRUTE_STRICT;
    double len = 0;
    for (size_t i = 0; i < n; i++) {
        if (nb_overlay_can_stand(ov, q->capability, q->size, p[i].x, p[i].y) != 1)
            return -1;
        if (i == 0)
            continue;
        if (!brute_step_ok(&legend, g, q->capability, q->size, rule, p[i - 1].x, p[i - 1].y,
                           p[i].x, p[i].y))
            return -1;
        int diag = p[i - 1].x != p[i].x && p[i - 1].y != p[i].y;
        if (diag) {
            int h = nb_overlay_can_stand(ov, q->capability, q->size, p[i].x, p[i - 1].y) == 1;
            int v = nb_overlay_can_stand(ov, q->capability, q->size, p[i - 1].x, p[i].y) == 1;
            if (rule == BRUTE_STRICT ? !(h && v) : !(h || v))
                return -1;
        }
        len += diag ? sqrt(2.0) : 1.0;
    }
    return len;
}

/* 1 when p goes from the query's start to its goal by steps legal under the overlay and is as
 * long as it says. */
static int path_ok(const nbb_grid *g, const nb_overlay *ov, const nb_sg_query *q,
                   const nb_cell *p, size_t n, double length)
{
    if (n < 1 || p[0].x != q->start.x || p[0].y != q->start.y || p[n - 1].x != q->goal.x ||
        p[n - 1].y != q->goal.y)
        return 0;
    double len = steps_ok(g, ov, q, p, n);
    return len >= 0 && fabs(len - length) < 1e-9;
}

/* A rectangle of 1 x 1 to 20 x 20 cells round (cx, cy), clipped to the map. */
static void block_near(nb_overlay *ov, tu_rng *r, uint32_t w, uint32_t h, long cx, long cy)
{
    long bw = 1 + (long)tu_below(r, 20), bh = 1 + (long)tu_below(r, 20);
    long x = cx - (long)tu_below(r, (uint32_t)bw), y = cy - (long)tu_below(r, (uint32_t)bh);
    /* A centre past the map's edge (scans_stored's, round a scan's box) keeps its rectangle's
     * cells on the map: before, its sides went negative and it blocked nothing. */
    x = x < 0 ? 0 : x >= (long)w ? (long)w - 1 : x;
    y = y < 0 ? 0 : y >= (long)h ? (long)h - 1 : y;
    if (x + bw > (long)w)
        bw = (long)w - x;
    if (y + bh > (long)h)
        bh = (long)h - y;
    nb_err err;
    if (nb_overlay_block(ov, x, y, bw, bh, &err) != NB_OK)
        diag("block %ld,%ld,%ld,%ld: %s", x, y, bw, bh, err.msg);
}

/* 1 when q asked again in slices of a few nodes answers with status want and find's path,
 * the one in *sr (which the workspace's next query overwrites: kept here first). */
static int sliced_same(nb_sg *sg, const nb_sg_query *q, nb_sg_result *sr, nb_path_status want)
{
    nb_err err;
    size_t len = sr->path_len;
    nb_cell *keep = malloc(len * sizeof *keep);
    memcpy(keep, sr->path, len * sizeof *keep);
    int done = 0;
    nb_status st = nb_sg_begin(sg, q, &err);
    for (uint64_t k = 1; st == NB_OK && !done; k++)
        st = nb_sg_step(sg, 1 + k % 5, &done, &err);
    if (st == NB_OK)
        st = nb_sg_finish(sg, sr, &err);
    int same = st == NB_OK && sr->status == want && sr->path_len == len &&
               memcmp(sr->path, keep, len * sizeof *keep) == 0;
    free(keep);
    return same;
}

/* One query under a random overlay made for it. */
static void one(nb_sg *sg, nb_sg *sgx, nb_aa *aa, nb_overlay *ov, const nbb_grid *g, tu_rng *r,
                nb_sg_query *sq, struct tally *t, const char *name, int slice)
{
    nb_err err;
    nb_sg_result sr;
    nb_aa_result ar;
    nb_overlay_clear(ov);
    /* The unblocked path, to put blocks on. */
    sq->overlay = NULL;
    size_t n = 0;
    nb_cell *base = NULL;
    double base_len = 0;
    if (nb_sg_find(sg, sq, &sr, &err) == NB_OK && sr.status == NB_PATH_FOUND) {
        n = sr.path_len;
        base_len = sr.length;
        base = malloc(n * sizeof *base);
        memcpy(base, sr.path, n * sizeof *base);
    }
    unsigned rects = 1 + tu_below(r, max_rects), on = tu_below(r, 4);
    for (unsigned i = 0; i < rects; i++) {
        if (n && i < on) {
            /* On the path, away from its ends most of the time (an end blocked is a quick
             * answer; a few are kept to see it). */
            size_t k = n > 2 && tu_below(r, 10) ? 1 + tu_below(r, (uint32_t)(n - 2)) : tu_below(r, (uint32_t)n);
            block_near(ov, r, g->width, g->height, base[k].x, base[k].y);
        } else {
            block_near(ov, r, g->width, g->height, (long)tu_below(r, g->width),
                       (long)tu_below(r, g->height));
        }
    }
    /* Blocks off the unblocked path leave it shortest: the layer answers with it itself. */
    int off = n > 0 && steps_ok(g, ov, sq, base, n) >= 0;
    free(base);
    sq->overlay = ov;
    nb_aa_query aq = tu_aa_of_sg(sq);
    t->runs++;
    if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK || nb_sg_find(sg, sq, &sr, &err) != NB_OK ||
        ar.status != sr.status || (ar.status == NB_PATH_FOUND && fabs(ar.length - sr.length) > 1e-9)) {
        if (t->bad++ < 4)
            diag("%s (%d,%d)->(%d,%d) size %u %s, %u rectangles: AA* %s %.6f, layer %s %.6f",
                 name, sq->start.x, sq->start.y, sq->goal.x, sq->goal.y, sq->size,
                 sq->corner == NB_CORNER_WEAK ? "weak" : "strict", rects,
                 nb_path_status_str(ar.status), ar.length, nb_path_status_str(sr.status),
                 sr.length);
        return;
    }
    /* The layer whose search round the blocks has no node to spend: Annotated A* answers
     * where a block cuts the layer's path, and only there. */
    nb_sg_result xr;
    if ((nb_sg_find(sgx, sq, &xr, &err) != NB_OK || xr.status != ar.status ||
         (ar.status == NB_PATH_FOUND &&
          (fabs(ar.length - xr.length) > 1e-9 || !path_ok(g, ov, sq, xr.path, xr.path_len, xr.length)))) &&
        t->x_bad++ < 4)
        diag("%s (%d,%d)->(%d,%d) size %u %s: handed to Annotated A*: %s %.6f "
             "(fallback %d), AA* %s %.6f", name, sq->start.x, sq->start.y, sq->goal.x,
             sq->goal.y, sq->size, sq->corner == NB_CORNER_WEAK ? "weak" : "strict",
             nb_path_status_str(xr.status), xr.length, xr.fallback,
             nb_path_status_str(ar.status), ar.length);
    t->x_fallback += xr.fallback != 0;
    t->off += off;
    t->off_fallback += off && xr.fallback;
    if (nb_sg_find(sg, sq, &sr, &err) != NB_OK) /* again: the path checked below is sg's */
        return;
    t->fallback += sr.fallback != 0;
    /* The blocks cut the goal off where a path was (the ends' floods' answer, or the search's
     * when they reach their limit). */
    t->cut += n > 0 && sr.status == NB_PATH_NONE &&
              nb_overlay_can_stand(ov, sq->capability, sq->size, sq->start.x, sq->start.y) == 1 &&
              nb_overlay_can_stand(ov, sq->capability, sq->size, sq->goal.x, sq->goal.y) == 1;
    if (sr.status != NB_PATH_FOUND)
        return;
    t->found++;
    t->onpath += sr.length > base_len + 1e-9;
    if (!path_ok(g, ov, sq, sr.path, sr.path_len, sr.length)) {
        if (t->bad_path++ < 4)
            diag("%s (%d,%d)->(%d,%d): the path under the overlay is not legal", name,
                 sq->start.x, sq->start.y, sq->goal.x, sq->goal.y);
        return;
    }
    if (slice && !sliced_same(sg, sq, &sr, NB_PATH_FOUND) && t->sliced_bad++ < 3)
        diag("%s: sliced under the overlay: not find's path", name);
}

static const struct {
    nb_capability cap;
    unsigned size;
} agent[] = {{3, 1}, {3, 2}};

/* Opens the bake of g; 0 (and a failed test) when it does not. */
static int open_level(const nbb_grid *g, const char *name, nb_bundle **nb, nb_aa **aa, nb_sg **sg,
                      nb_sg **sgx, nb_overlay **ov)
{
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    for (size_t a = 0; a < sizeof agent / sizeof *agent; a++) {
        nb_agent *ag = &agents.agent[agents.count++];
        snprintf(ag->name, sizeof ag->name, "a%zu", a);
        ag->capability = agent[a].cap;
        ag->size = agent[a].size;
    }
    nb_err err;
    const char *path = tu_path(tu_tmpdir(), "sgov.nbk");
    const unsigned both = NBB_CORNERS_STRICT | NBB_CORNERS_WEAK;
    if (ok(tu_bake_optimal(path, &legend, &agents, g, both, &err) == NB_OK &&
               nb_bundle_open(path, 0, NULL, nb, &err) == NB_OK &&
               nb_aa_open(*nb, aa, &err) == NB_OK && tu_sg_open(*nb, 0, sg, &err) == NB_OK &&
               tu_sg_open(*nb, 0, sgx, &err) == NB_OK &&
               nb_overlay_open(*nb, ov, &err) == NB_OK,
           "%s: both corner rules' layers baked and opened", name)) {
        nbi_sg_set_overlay_budget(*sgx, 0);
        return 1;
    }
    diag("%s", err.msg);
    return 0;
}

static void report(const struct tally *t, const char *name)
{
    cut_total += t->cut;
    ok(t->bad == 0 && t->bad_path == 0 && t->found > 0 && t->onpath > 0,
       "%s: %ld queries under random overlays (%ld found, %ld longer than without the "
       "overlay, %ld with both ends free cut off): Annotated A*'s statuses and lengths, legal "
       "paths", name, t->runs, t->found, t->onpath, t->cut);
    ok(t->fallback == 0, "%s: no query answered by Annotated A* over the map (%ld)", name,
       t->fallback);
    ok(t->sliced_bad == 0, "%s: sliced, the same paths", name);
    ok(t->x_bad == 0 && t->off_fallback == 0 && t->off > 0 && t->x_fallback > 0,
       "%s: with no node for the search round the blocks, Annotated A*'s answers, handed to it "
       "for %ld queries, none of the %ld whose unblocked path no block touches", name,
       t->x_fallback, t->off);
}

/* Sorts n hits by cell, then length. */
static void sort_hits(nb_cell *c, double *len, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0; j--) {
            nb_cell a = c[j - 1], b = c[j];
            if (a.y < b.y || (a.y == b.y && (a.x < b.x || (a.x == b.x && len[j - 1] <= len[j]))))
                break;
            c[j - 1] = b;
            c[j] = a;
            double t = len[j - 1];
            len[j - 1] = len[j];
            len[j] = t;
        }
}

/* A 1 x 1 block at a cell of the ring d cells outside box (x0, y0, x1, y1); 0 off the map. */
static int block_ring(nb_overlay *ov, tu_rng *r, const nbb_grid *g, const int32_t *box, int32_t d)
{
    int64_t x0 = box[0] - d, y0 = box[1] - d, x1 = box[2] + d, y1 = box[3] + d;
    int64_t w = x1 - x0 + 1, h = y1 - y0 + 1, k = (int64_t)tu_below(r, (uint32_t)(2 * (w + h)));
    int64_t x, y;
    if (k < w)
        x = x0 + k, y = y0;
    else if ((k -= w) < w)
        x = x0 + k, y = y1;
    else if ((k -= w) < h)
        x = x0, y = y0 + k;
    else
        x = x1, y = y0 + (k - h);
    nb_err err;
    return x >= 0 && y >= 0 && x < (int64_t)g->width && y < (int64_t)g->height &&
           nb_overlay_block(ov, (long)x, (long)y, 1, 1, &err) == NB_OK;
}

/* The stored scans of the search round the blocks (sgoverlay.c) against scans under the
 * overlay: random subgoals of each layer, each with blocks one cell outside the box of what its
 * scan read (which must make the stored scan not stand: such a block can make a cell inside a
 * subgoal), two cells outside, or rectangles near it; wherever the stored scan stands it finds
 * the subgoals a scan under the overlay finds, at the same lengths. */
static void scans_stored(nb_bundle *nb, nb_overlay *ov, const nbb_grid *g, tu_rng *r,
                         const char *name)
{
    enum { CAP = 1024 };
    static nb_cell sc[CAP], oc[CAP];
    static double sl[CAP], ol[CAP];
    long compared = 0, refused = 0, bad = 0, ring1 = 0, ring1_stood = 0;
    nbi_sgov *o = nbi_sgov_new(nb->a);
    const nb_cell none = {-1000, -1000}; /* no goal: far off the map */
    for (size_t i = 0; o && i < nb->nsections; i++) {
        nbi_sglayer l;
        if (nb->sections[i].info.type != NB_SEC_SUBGOAL ||
            nbi_sglayer_at(nb, i, &l, NULL) != NB_OK || !l.nodes)
            continue;
        for (int k = 0; k < 150; k++) {
            nb_cell at = nbi_sg_node_cell(&l, tu_below(r, l.nodes));
            int32_t box[4];
            nb_overlay_clear(ov);
            if (nbi_sgov_scan_hits(o, &l, ov, at, none, 1, sc, sl, CAP, box) == SIZE_MAX) {
                bad++;
                continue;
            }
            unsigned mode = tu_below(r, 3);
            if (mode == 0) {
                if (!block_ring(ov, r, g, box, 1))
                    continue;
                ring1++;
            } else if (mode == 1) {
                block_ring(ov, r, g, box, 2);
            } else {
                for (unsigned b = 1 + tu_below(r, 4); b; b--)
                    block_near(ov, r, g->width, g->height,
                               box[0] - 10 + (long)tu_below(r, (uint32_t)(box[2] - box[0] + 21)),
                               box[1] - 10 + (long)tu_below(r, (uint32_t)(box[3] - box[1] + 21)));
            }
            size_t ns = nbi_sgov_scan_hits(o, &l, ov, at, none, 1, sc, sl, CAP, box);
            if (ns == SIZE_MAX) {
                refused++;
                continue;
            }
            ring1_stood += mode == 0;
            size_t no = nbi_sgov_scan_hits(o, &l, ov, at, none, 0, oc, ol, CAP, box);
            compared++;
            if (ns > CAP || no != ns) {
                bad++;
                continue;
            }
            sort_hits(sc, sl, ns);
            sort_hits(oc, ol, no);
            for (size_t j = 0; j < ns; j++)
                if (sc[j].x != oc[j].x || sc[j].y != oc[j].y || sl[j] != ol[j]) {
                    bad++;
                    break;
                }
        }
    }
    nbi_sgov_free(o);
    nb_overlay_clear(ov);
    ok(o && bad == 0 && compared > 0 && refused > 0 && ring1 > 0,
       "%s: stored scans stand for scans under the overlay where they are used (%ld compared, "
       "%ld not used, %ld differ; a block next to the box: %ld, used anyway %ld)",
       name, compared, refused, bad, ring1, ring1_stood);
}

/* One workspace, one overlay edited between rounds of the same queries: the search round the
 * blocks keeps the scans it made under the overlay while the overlay's version stays
 * (sgoverlay.c, keep_prep), so each answer is checked against Annotated A* under the overlay
 * as it stands after the edit.  Each edit either blocks a rectangle of 2 x 2 to 8 x 8 cells on
 * a cell of a path the last round found (away from its ends), or unblocks the last rectangle
 * blocked (the answers go back), or adds a few anywhere. */
#define EDIT_PAIRS 8
#define EDIT_ROUNDS 16
static void edits(nb_sg *sg, nb_aa *aa, nb_overlay *ov, const nbb_grid *g, const nbb_scen *scen,
                  tu_rng *r, const char *name)
{
    nb_sg_query q[EDIT_PAIRS];
    double last[EDIT_PAIRS];
    for (int i = 0; i < EDIT_PAIRS; i++) {
        nb_sg_query_init(&q[i]);
        q[i].capability = 3;
        q[i].size = 1 + tu_below(r, 2);
        q[i].corner = tu_below(r, 2) ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        if (scen) {
            size_t k = tu_below(r, (uint32_t)scen->count);
            q[i].start = scen->lines[k].start;
            q[i].goal = scen->lines[k].goal;
        } else {
            q[i].start = (nb_cell){(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
            q[i].goal = (nb_cell){(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
        }
        q[i].overlay = ov;
        last[i] = -1;
    }
    nb_overlay_clear(ov);
    for (int k = 0; k < (scen ? 10 : 1); k++) /* the sample level is 64 x 40 cells */
        block_near(ov, r, g->width, g->height, (long)tu_below(r, g->width),
                   (long)tu_below(r, g->height));
    uint64_t made0, kept0, made1, kept1;
    nbi_sg_overlay_kept(sg, &made0, &kept0);
    long runs = 0, bad = 0, fallback = 0, found = 0, changed = 0;
    long lx = -1, ly = -1, lw = 0, lh = 0; /* the last rectangle blocked on a path */
    nb_cell pick = {-1, -1};
    for (int round = 0; round < EDIT_ROUNDS; round++) {
        if (round > 0) {
            unsigned what = tu_below(r, 5);
            if (what == 0 && lx >= 0) {
                nb_overlay_unblock(ov, lx, ly, lw, lh, NULL);
                lx = -1;
            } else if (what == 1 || pick.x < 0) {
                for (int k = 0; k < (scen ? 3 : 1); k++)
                    block_near(ov, r, g->width, g->height, (long)tu_below(r, g->width),
                               (long)tu_below(r, g->height));
            } else {
                lw = 2 + (long)tu_below(r, 7);
                lh = 2 + (long)tu_below(r, 7);
                lx = pick.x - (long)tu_below(r, (uint32_t)lw);
                ly = pick.y - (long)tu_below(r, (uint32_t)lh);
                lx = lx < 0 ? 0 : lx;
                ly = ly < 0 ? 0 : ly;
                lw = lx + lw > (long)g->width ? (long)g->width - lx : lw;
                lh = ly + lh > (long)g->height ? (long)g->height - ly : lh;
                nb_overlay_block(ov, lx, ly, lw, lh, NULL);
            }
        }
        pick = (nb_cell){-1, -1};
        /* Each pair twice a round: the second reads what the first kept. */
        for (int j = 0; j < 2 * EDIT_PAIRS; j++) {
            int i = j % EDIT_PAIRS;
            nb_aa_query aq = tu_aa_of_sg(&q[i]);
            nb_aa_result ar;
            nb_sg_result sr;
            nb_err err;
            runs++;
            if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK || nb_sg_find(sg, &q[i], &sr, &err) != NB_OK ||
                ar.status != sr.status ||
                (ar.status == NB_PATH_FOUND &&
                 (fabs(ar.length - sr.length) > 1e-9 ||
                  !path_ok(g, ov, &q[i], sr.path, sr.path_len, sr.length)))) {
                if (bad++ < 4)
                    diag("%s round %d (%d,%d)->(%d,%d) size %u: AA* %s %.6f, layer %s %.6f", name,
                         round, q[i].start.x, q[i].start.y, q[i].goal.x, q[i].goal.y, q[i].size,
                         nb_path_status_str(ar.status), ar.length,
                         nb_path_status_str(sr.status), sr.length);
                continue;
            }
            fallback += sr.fallback != 0;
            if (j >= EDIT_PAIRS)
                continue;
            double len = sr.status == NB_PATH_FOUND ? sr.length : -2;
            changed += round > 0 && fabs(len - last[i]) > 1e-9;
            last[i] = len;
            if (sr.status != NB_PATH_FOUND)
                continue;
            found++;
            if (sr.path_len > 2 && (pick.x < 0 || tu_below(r, 2)))
                pick = sr.path[1 + tu_below(r, (uint32_t)(sr.path_len - 2))];
        }
    }
    nbi_sg_overlay_kept(sg, &made1, &kept1);
    ok(bad == 0 && found > 0 && changed > 0,
       "%s: %ld queries under an overlay edited %d times between rounds of the same %d "
       "pairs, each twice (%ld found, %ld answers changed by an edit): Annotated A*'s statuses and "
       "lengths, legal paths", name, runs, EDIT_ROUNDS - 1, EDIT_PAIRS, found, changed);
    ok(fallback == 0 && kept1 > kept0,
       "%s: no fallback (%ld); scans kept under the overlay read back %llu times (%llu made)",
       name, fallback, (unsigned long long)(kept1 - kept0),
       (unsigned long long)(made1 - made0));
}

struct ptally {
    long runs, partial, found, bad, fell, sliced_bad;
};

/* One partial query whose goal a ring of blocks walls in (the file's comment, walled); e is
 * the bundle's map g, edited here as ov is. */
static void one_walled(nb_sg *sg, nb_aa *aa, nb_overlay *ov, const nbb_grid *g, nbb_grid *e,
                       tu_rng *r, nb_sg_query *sq, struct ptally *t, const char *name, int slice)
{
    nb_err err;
    nb_cell want;
    if (!tu_walled_goal(ov, e, g, &legend, r, sq, max_rects, &want))
        return;
    sq->overlay = ov;
    sq->partial = 1;
    nb_aa_query aq = tu_aa_of_sg(sq);
    aq.goal = want;
    nb_sg_result sr;
    nb_aa_result ar;
    t->runs++;
    nb_status st = nb_sg_find(sg, sq, &sr, &err);
    if (st != NB_OK || sr.fallback) {
        if (t->fell++ < 3)
            diag("%s: partial (%d, %d) -> (%d, %d): %s", name, sq->start.x, sq->start.y,
                 sq->goal.x, sq->goal.y, st == NB_OK ? "Annotated A* answered" : err.msg);
        return;
    }
    int at_goal = want.x == sq->goal.x && want.y == sq->goal.y;
    nb_path_status ws = at_goal ? NB_PATH_FOUND : NB_PATH_PARTIAL;
    nb_sg_query to = *sq;
    to.goal = want;
    int legal = path_ok(e, ov, &to, sr.path, sr.path_len, sr.length);
    int aok = nb_aa_find(aa, &aq, &ar, &err) == NB_OK && ar.status == NB_PATH_FOUND;
    if (sr.status != ws || !legal || !aok || fabs(sr.length - ar.length) > 1e-9) {
        if (t->bad++ < 3)
            diag("%s: partial (%d, %d) -> (%d, %d) size %u corner %d: %s ending at (%d, %d), "
                 "length %.9g%s; want %s ending at (%d, %d), Annotated A*'s length there %.9g",
                 name, sq->start.x, sq->start.y, sq->goal.x, sq->goal.y, sq->size,
                 (int)sq->corner, nb_path_status_str(sr.status),
                 sr.path_len ? sr.path[sr.path_len - 1].x : -1,
                 sr.path_len ? sr.path[sr.path_len - 1].y : -1, sr.length,
                 legal ? "" : " (not a legal path there)", nb_path_status_str(ws), want.x,
                 want.y, aok ? ar.length : -1.0);
        return;
    }
    t->partial += !at_goal;
    t->found += at_goal;
    if (slice && !sliced_same(sg, sq, &sr, ws) && t->sliced_bad++ < 3)
        diag("%s: partial, sliced under the overlay: not find's path", name);
}

/* Partial paths without costs under blocks that wall the goal in (the file's comment): about
 * 100 queries, sizes 1 and 2, both corner rules, on scen's lines (random pairs without one). */
static void walled(nb_sg *sg, nb_aa *aa, nb_overlay *ov, const nbb_grid *g, const nbb_scen *scen,
                   tu_rng *r, const char *name)
{
    nbb_grid e = *g;
    e.cells = malloc((size_t)g->width * g->height);
    struct ptally t = {0};
    size_t n = scen ? scen->count : 200, every = (n + 99) / 100;
    for (size_t i = 0, k = 0; i < n; i += every, k++) {
        nb_sg_query sq;
        nb_sg_query_init(&sq);
        size_t a = k % 4 == 3; /* size 2 a quarter of the time */
        sq.capability = agent[a].cap;
        sq.size = agent[a].size;
        sq.corner = k % 3 == 1 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        if (scen) {
            sq.start = scen->lines[i].start;
            sq.goal = scen->lines[i].goal;
        } else {
            sq.start = (nb_cell){(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
            sq.goal = (nb_cell){(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
        }
        one_walled(sg, aa, ov, g, &e, r, &sq, &t, name, k % 5 == 0);
    }
    free(e.cells);
    nb_overlay_clear(ov);
    ok(t.bad == 0 && t.partial > 0,
       "%s, partial paths without costs under a ring of blocks round the goal: %ld queries (%ld "
       "partial, %ld reached the goal): the breadth-first search's nearest cell, the status, "
       "legal paths as long as Annotated A*'s to that cell", name, t.runs, t.partial, t.found);
    ok(t.fell == 0, "%s, partial paths without costs under blocks: answered by the layer, "
       "fallback 0 (%ld handed on)", name, t.fell);
    ok(t.sliced_bad == 0, "%s, partial paths under blocks: sliced, the same paths", name);
}

static void close_all(nb_bundle *nb, nb_aa *aa, nb_sg *sg, nb_sg *sgx, nb_overlay *ov)
{
    nb_overlay_close(ov);
    nb_sg_close(sgx);
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
}

static void run_map(const char *rel, int all, tu_rng *r)
{
    nbb_grid g;
    nbb_scen scen;
    nb_err err;
    if (tu_scen_level(rel, &legend, &g, &scen, &err) != NB_OK) {
        ok(0, "%s: read (%s)", rel, err.msg);
        return;
    }
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL, *sgx = NULL;
    nb_overlay *ov = NULL;
    if (open_level(&g, rel, &nb, &aa, &sg, &sgx, &ov)) {
        size_t every = all ? 1 : (scen.count + 23) / 24;
        struct tally t = {0};
        for (size_t a = 0; a < sizeof agent / sizeof *agent; a++)
            for (int corner = 0; corner < 2; corner++)
                for (size_t i = 0; i < scen.count; i += every) {
                    nb_sg_query sq;
                    nb_sg_query_init(&sq);
                    sq.capability = agent[a].cap;
                    sq.size = agent[a].size;
                    sq.corner = corner ? NB_CORNER_WEAK : NB_CORNER_STRICT;
                    sq.start = scen.lines[i].start;
                    sq.goal = scen.lines[i].goal;
                    one(sg, sgx, aa, ov, &g, r, &sq, &t, rel, i % (7 * every) == 0);
                }
        report(&t, rel);
        scans_stored(nb, ov, &g, r, rel);
        edits(sg, aa, ov, &g, &scen, r, rel);
        tu_rng pr = {0x9a27141};
        walled(sg, aa, ov, &g, &scen, &pr, rel);
    }
    close_all(nb, aa, sg, sgx, ov);
    nbb_scen_free(&scen);
    nbb_grid_free(&g);
}

/* Without ../shared: the sample level, random pairs. */
static void run_sample(tu_rng *r)
{
    nbi_agentset agents;
    nbb_grid g;
    tu_read_sample(&legend, &agents, &g);
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL, *sgx = NULL;
    nb_overlay *ov = NULL;
    if (open_level(&g, "data/sample.map", &nb, &aa, &sg, &sgx, &ov)) {
        struct tally t = {0};
        for (size_t a = 0; a < sizeof agent / sizeof *agent; a++)
            for (int corner = 0; corner < 2; corner++)
                for (int i = 0; i < 300; i++) {
                    nb_sg_query sq;
                    nb_sg_query_init(&sq);
                    sq.capability = agent[a].cap;
                    sq.size = agent[a].size;
                    sq.corner = corner ? NB_CORNER_WEAK : NB_CORNER_STRICT;
                    sq.start = (nb_cell){(int32_t)tu_below(r, g.width), (int32_t)tu_below(r, g.height)};
                    sq.goal = (nb_cell){(int32_t)tu_below(r, g.width), (int32_t)tu_below(r, g.height)};
                    one(sg, sgx, aa, ov, &g, r, &sq, &t, "data/sample.map", i % 10 == 0);
                }
        report(&t, "data/sample.map");
        scans_stored(nb, ov, &g, r, "data/sample.map");
        edits(sg, aa, ov, &g, NULL, r, "data/sample.map");
        tu_rng pr = {0x9a27141};
        walled(sg, aa, ov, &g, NULL, &pr, "data/sample.map");
    }
    close_all(nb, aa, sg, sgx, ov);
    nbb_grid_free(&g);
}

int main(void)
{
    static const char *const three[] = {"maps/dao/brc202d.map", "maps/bg/AR0042SR.map",
                                        "maps/mazes/maze512-32-9.map"};
    static const char *const every[] = {
        "maps/bg/AR0011SR.map", "maps/bg/AR0042SR.map", "maps/dao/arena.map",
        "maps/dao/brc202d.map", "maps/dao/den312d.map", "maps/dao/lak303d.map",
        "maps/dao/orz900d.map", "maps/dao/ost003d.map", "maps/mazes/maze512-32-9.map",
        "maps/mazes/maze512-4-0.map", "maps/random/random512-10-0.map",
        "maps/random/random512-40-5.map", "maps/rooms/64room_005.map", "maps/rooms/8room_000.map",
        "maps/sc1/AcrosstheCape.map", "maps/sc1/Aftershock.map", "maps/sc1/CatwalkAlley.map",
        "maps/street/Paris_0_512.map", "maps/wc3/battleground.map", "maps/wc3/blastedlands.map",
        "maps/wc3/bloodvenomfalls.map", "maps/wc3/darkforest.map",
    };
    tu_rng r = {0x0b5ac1e5};
    nbi_legend_default(&legend);
    const char *all_s = getenv("NB_SGOV_EVERY");
    int all = all_s && atoi(all_s) == 1;
    if (!tu_shared("maps")) {
        max_rects = 6;
        run_sample(&r);
        return cut_met();
    }
    if (!all) {
        for (size_t m = 0; m < sizeof three / sizeof *three; m++)
            run_map(three[m], 0, &r);
        return cut_met();
    }
    for (size_t m = 0; m < sizeof every / sizeof *every; m++) {
        char scen[256];
        snprintf(scen, sizeof scen, "%s.scen", every[m]);
        if (tu_shared(scen))
            run_map(every[m], 1, &r);
        else
            skip(1, "../shared/%s is absent", scen);
    }
    return cut_met();
}
