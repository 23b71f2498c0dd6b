/* test_straighten.c: HAA*'s straightening (nbi_straighten, square_smooth.c)
 * against the same search written here from its definition, on random
 * levels of two terrains for agents of sizes 1 to 3, both corner rules,
 * with and without an overlay of blocked rectangles: the cell paths of
 * Annotated A* between random standable cells, straightened both ways,
 * must be the same cells, every step of them one the agent may take
 * (brute_step_ok, on the map with the overlay's cells made walls) and no
 * more of them than the path had.  The definition: from the anchor p[i]
 * (first p[0]), the walks to p[lo + 1], p[lo + 2], p[lo + 4] ... (lo = i + 1
 * at first, each valid probe becoming lo, the last probe p[n - 1]) until
 * one is not a walk the agent may take, then halving between lo and that
 * probe; the walk to p[lo] is written and p[lo] becomes the anchor.  The
 * walk from a to b takes T = max(|dx|, |dy|) steps, of which
 * T - min(|dx|, |dy|) cardinal: step k is cardinal when
 * floor(((k + 1) c + T / 2) / T) differs from floor((k c + T / 2) / T).
 * The library computes that by a running remainder and reads the layer by
 * a moving index; this file divides and asks brute_step_ok.  And from
 * every anchor the definition reaches a cell no earlier on the path than
 * the greedy's (skip while the walk to the next cell is valid). */
#include <stdlib.h>

#include "abstract/abstract.h"
#include "brute.h"
#include "clearance/clearance.h"
#include "testutil.h"

static nbi_legend legend;

/* The walk from a to b into out (its cells after a), each step checked: 1 when every step is
 * allowed.  out NULL: checked only. */
static int ref_walk(const nbb_grid *g, nb_capability cap, unsigned size, enum brute_corner rule,
                    nb_cell a, nb_cell b, nb_cell *out)
{
    long dx = (long)b.x - a.x, dy = (long)b.y - a.y;
    long ax = labs(dx), ay = labs(dy), T = ax > ay ? ax : ay, c = T - (ax < ay ? ax : ay);
    long sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
    nb_cell p = a;
    for (long k = 0; k < T; k++) {
        nb_cell n = p;
        if (((k + 1) * c + T / 2) / T != (k * c + T / 2) / T) {
            if (ax >= ay)
                n.x += (int32_t)sx;
            else
                n.y += (int32_t)sy;
        } else {
            n.x += (int32_t)sx;
            n.y += (int32_t)sy;
        }
        if (!brute_step_ok(&legend, g, cap, size, rule, p.x, p.y, n.x, n.y))
            return 0;
        if (out)
            out[k] = n;
        p = n;
    }
    return 1;
}

/* The definition's straightening of p[0..n) into out; *behind is set when, from some anchor,
 * the cell it reaches is before the greedy's (the last before the first cell the walk to which
 * is not valid), which the galloping's argument says never happens. */
static size_t ref_straighten(const nbb_grid *g, nb_capability cap, unsigned size,
                             enum brute_corner rule, const nb_cell *p, size_t n, nb_cell *out,
                             int *behind)
{
    if (n <= 2) {
        for (size_t i = 0; i < n; i++)
            out[i] = p[i];
        return n;
    }
    size_t m = 1;
    out[0] = p[0];
    for (size_t i = 0; i + 1 < n;) {
        nb_cell anchor = p[i];
        size_t lo = i + 1, hi = 0; /* hi 0: no invalid probe yet */
        for (size_t step = 1; !hi && lo + 1 < n; step *= 2) {
            size_t c = lo + step < n - 1 ? lo + step : n - 1;
            if (ref_walk(g, cap, size, rule, anchor, p[c], NULL))
                lo = c;
            else
                hi = c;
        }
        while (hi && hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (ref_walk(g, cap, size, rule, anchor, p[mid], NULL))
                lo = mid;
            else
                hi = mid;
        }
        size_t greedy = i + 1;
        while (greedy + 1 < n && ref_walk(g, cap, size, rule, anchor, p[greedy + 1], NULL))
            greedy++;
        if (lo < greedy)
            *behind = 1;
        long T = labs((long)p[lo].x - anchor.x) > labs((long)p[lo].y - anchor.y)
                     ? labs((long)p[lo].x - anchor.x)
                     : labs((long)p[lo].y - anchor.y);
        ref_walk(g, cap, size, rule, anchor, p[lo], out + m);
        m += (size_t)T;
        i = lo;
    }
    return m;
}

/* 1 when every step of p[0..n) is one the agent may take. */
static int steps_ok(const nbb_grid *g, nb_capability cap, unsigned size, enum brute_corner rule,
                    const nb_cell *p, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (labs((long)p[i].x - p[i - 1].x) > 1 || labs((long)p[i].y - p[i - 1].y) > 1 ||
            (p[i].x == p[i - 1].x && p[i].y == p[i - 1].y) ||
            !brute_step_ok(&legend, g, cap, size, rule, p[i - 1].x, p[i - 1].y, p[i].x, p[i].y))
            return 0;
    return 1;
}

static void one_level(tu_rng *rng, int k)
{
    static nbi_agentset agents;
    uint32_t w = 60 + 20 * (uint32_t)(k % 3), h = 50 + 10 * (uint32_t)(k % 2);
    nbb_grid g;
    tu_random_grid(rng, w, h, 8 + 6 * (unsigned)(k % 4), 2, &g);
    /* Rooms: walls with doors, so that paths turn and straight lines are cut. */
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            if ((x % 17 == 8 && y % 13 > 2) || (y % 13 == 6 && x % 17 > 3))
                g.cells[(size_t)y * w + x] = '@';
    memset(&agents, 0, sizeof agents);
    nb_capability cap = 3;
    for (unsigned s = 1; s <= 3; s++) {
        nb_agent *a = &agents.agent[agents.count++];
        snprintf(a->name, sizeof a->name, "s%u", s);
        a->capability = cap;
        a->size = s;
        for (unsigned i = 0; i < NB_MAX_TERRAINS; i++)
            a->cost[i] = 1;
    }
    const char *path = tu_path(tu_tmpdir(), "st.nbk");
    nb_err err;
    nb_bundle *b = NULL;
    nb_aa *aa = NULL;
    nbi_layer l;
    if (!ok(tu_write_cleared(path, &legend, &agents, &g, 0, &err) == NB_OK &&
                nb_bundle_open(path, 0, NULL, &b, &err) == NB_OK &&
                nb_aa_open(b, &aa, &err) == NB_OK &&
                nbi_clearance_layer(b, cap, &l, &err) == NB_OK,
            "level %d: %ux%u baked", k, w, h)) {
        diag("%s", err.msg);
        nb_bundle_close(b);
        nbb_grid_free(&g);
        return;
    }
    /* With an overlay on odd levels: a few rectangles blocked, walls on the brute's map. */
    nb_overlay *ov = NULL;
    nbb_grid e = g;
    e.cells = malloc((size_t)w * h);
    memcpy(e.cells, g.cells, (size_t)w * h);
    if (k % 2 && nb_overlay_open(b, &ov, &err) == NB_OK)
        for (int r = 0; r < 4; r++) {
            long x = tu_below(rng, w - 4), y = tu_below(rng, h - 4), rw = 1 + tu_below(rng, 4),
                 rh = 1 + tu_below(rng, 4);
            if (nb_overlay_block(ov, x, y, rw, rh, &err) != NB_OK)
                continue;
            for (long yy = y; yy < y + rh; yy++)
                for (long xx = x; xx < x + rw; xx++)
                    e.cells[(size_t)yy * w + (size_t)xx] = '@';
        }
    int paths = 0, same = 1, far = 1;
    size_t cells = 0;
    for (int q = 0; q < 400 && paths < 24; q++) {
        nb_aa_query aq;
        nb_aa_query_init(&aq);
        aq.capability = cap;
        aq.size = 1 + (uint32_t)(q % 3);
        aq.corner = q % 2 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        aq.overlay = ov;
        aq.start = (nb_cell){(int32_t)tu_below(rng, w), (int32_t)tu_below(rng, h)};
        aq.goal = (nb_cell){(int32_t)tu_below(rng, w), (int32_t)tu_below(rng, h)};
        if (!nb_can_stand(b, cap, aq.size, aq.start.x, aq.start.y) ||
            !nb_can_stand(b, cap, aq.size, aq.goal.x, aq.goal.y))
            continue;
        nb_aa_result r;
        if (nb_aa_find(aa, &aq, &r, &err) != NB_OK || r.status != NB_PATH_FOUND || r.path_len < 3)
            continue;
        size_t n = r.path_len;
        nb_cell *p = malloc(n * sizeof *p), *want = malloc(n * sizeof *want);
        memcpy(p, r.path, n * sizeof *p);
        enum brute_corner rule = q % 2 ? BRUTE_WEAK : BRUTE_STRICT;
        int behind = 0;
        size_t m = ref_straighten(&e, cap, aq.size, rule, p, n, want, &behind);
        far &= !behind;
        size_t got = nbi_straighten(&l, ov, aq.size, q % 2 ? NBI_CORNER_WEAK : NBI_CORNER_STRICT,
                                    p, n);
        int this = got == m && memcmp(p, want, m * sizeof *p) == 0 && got <= n &&
                   steps_ok(&e, cap, aq.size, rule, p, got) && p[0].x == aq.start.x &&
                   p[0].y == aq.start.y && p[got - 1].x == aq.goal.x && p[got - 1].y == aq.goal.y;
        if (!this && same)
            diag("level %d: (%d,%d)->(%d,%d) size %u %s: %zu cells straightened, %zu by the "
                 "definition",
                 k, aq.start.x, aq.start.y, aq.goal.x, aq.goal.y, aq.size,
                 q % 2 ? "weak" : "strict", got, m);
        same &= this;
        paths++;
        cells += n;
        free(p);
        free(want);
    }
    ok(far, "level %d: from every anchor the definition reaches a cell at least as far along "
            "the path as the greedy's",
       k);
    ok(same && paths >= 20,
       "level %d: %ux%u%s: %d Annotated A* paths (%zu cells), sizes 1 to 3, both corner rules, "
       "straightened as the definition says, every step allowed",
       k, w, h, ov ? ", an overlay" : "", paths, cells);
    free(e.cells);
    nb_overlay_close(ov);
    nb_aa_close(aa);
    nb_bundle_close(b);
    nbb_grid_free(&g);
}

int main(void)
{
    tu_rng rng = {0x57a16u};
    nbi_legend_default(&legend);
    for (int k = 0; k < 8; k++)
        one_level(&rng, k);
    return done_testing();
}
