/* test_sg_nodes.c: the optimal layer's node records found by pages of node
 * ids (sgsearch.c, slot_of and node_slot), which keep the slots of earlier
 * queries and of other layers and trust a slot only when this query's
 * record there holds the id:
 *  - one workspace over two layers of a street map (sizes 1 and 2, each of
 *    more than a page of subgoals), its queries alternating between them in a random order, so that each
 *    finds the pages full of the other layer's and the last query's slots:
 *    Annotated A*'s status and length for the same agent each time;
 *  - the same queries again: the same lengths, and the workspace holds no
 *    more bytes than after the first pass (its pages grow and are kept).
 * (Every line of six maps' scenario files at the file's length: test_sg_bound.)
 * Real maps are skipped without ../shared (NB_SHARED). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal.h"
#include "subgoal/subgoal_build.h"
#include "testutil.h"

static nbi_legend legend;

static void add_agent(nbi_agentset *agents, uint32_t size)
{
    nb_agent *a = &agents->agent[agents->count];
    snprintf(a->name, sizeof a->name, "a%zu", agents->count);
    a->capability = 3; /* ground and swamp: the scenario files' agent */
    a->size = size;
    agents->count++;
}

static int bake_open(const nbb_grid *g, const char *name, uint32_t sizes, nb_bundle **nb,
                     nb_aa **aa, nb_sg **sg)
{
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    for (uint32_t s = 1; s <= sizes; s++)
        add_agent(&agents, s);
    nb_err err;
    const char *path = tu_path(tu_tmpdir(), "sgn-real.nbk");
    if (ok(tu_bake_optimal(path, &legend, &agents, g, NBB_CORNERS_STRICT, &err) == NB_OK &&
               nb_bundle_open(path, 0, NULL, nb, &err) == NB_OK &&
               nb_aa_open(*nb, aa, &err) == NB_OK && tu_sg_open(*nb, 0, sg, &err) == NB_OK,
           "%s: %u layers baked and opened", name, sizes))
        return 1;
    diag("%s", err.msg);
    return 0;
}

/* The largest node count of the bundle's subgoal layers. */
static uint32_t most_nodes(const nb_bundle *nb)
{
    uint32_t most = 0;
    for (size_t i = 0; i < nb->nsections; i++) {
        nbi_sglayer l;
        nb_err err;
        if (nb->sections[i].info.type == NB_SEC_SUBGOAL && nbi_sglayer_at(nb, i, &l, &err) == NB_OK &&
            l.nodes > most)
            most = l.nodes;
    }
    return most;
}

#define PAIRS 600

static void two_layers(tu_rng *rng)
{
    static const char rel[] = "maps/street/Paris_0_512.map";
    nbb_grid g;
    nbb_scen scen;
    nb_err err;
    nb_status st = tu_scen_level(rel, &legend, &g, &scen, &err);
    if (st == NB_ERR_NOTFOUND) {
        skip(3, "../shared/%s is absent (set NB_SHARED)", rel);
        return;
    }
    if (!ok(st == NB_OK, "%s: read", rel)) {
        diag("%s", err.msg);
        return;
    }
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    static nb_cell from[PAIRS], to[PAIRS];
    static uint32_t size[PAIRS];
    static double first[PAIRS];
    if (!bake_open(&g, rel, 2, &nb, &aa, &sg))
        goto out;
    /* Pairs from the scenario file's cells (free for size 1; the larger agent may be blocked
     * at either end, which both searches must say alike). */
    for (size_t k = 0; k < PAIRS; k++) {
        const nbb_scen_line *a = &scen.lines[tu_below(rng, (uint32_t)scen.count)];
        const nbb_scen_line *b = &scen.lines[tu_below(rng, (uint32_t)scen.count)];
        from[k] = tu_below(rng, 2) ? a->start : a->goal;
        to[k] = tu_below(rng, 2) ? b->start : b->goal;
        size[k] = 1 + tu_below(rng, 2);
    }
    long wrong = 0, found = 0, sizes[3] = {0, 0, 0};
    for (size_t k = 0; k < PAIRS; k++) {
        nb_sg_query q;
        nb_sg_query_init(&q);
        q.capability = 3;
        q.size = size[k];
        q.start = from[k];
        q.goal = to[k];
        nb_aa_query aq;
        nb_aa_query_init(&aq);
        aq.capability = 3;
        aq.size = size[k];
        aq.start = from[k];
        aq.goal = to[k];
        nb_aa_result ar;
        nb_sg_result r;
        first[k] = -1;
        if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK || nb_sg_find(sg, &q, &r, &err) != NB_OK ||
            ar.status != r.status ||
            (r.status == NB_PATH_FOUND && fabs(ar.length - r.length) > 1e-9)) {
            if (wrong++ < 4)
                diag("size %u: %d,%d -> %d,%d: AA* %s %.6f, layer %s %.6f", size[k], from[k].x,
                     from[k].y, to[k].x, to[k].y, nb_path_status_str(ar.status), ar.length,
                     nb_path_status_str(r.status), r.length);
            continue;
        }
        if (r.status == NB_PATH_FOUND) {
            first[k] = r.length;
            found++;
            sizes[size[k]]++;
        }
    }
    uint32_t nodes = most_nodes(nb);
    ok(wrong == 0 && found > PAIRS / 2 && sizes[1] > 0 && sizes[2] > 0 && nodes > 2048,
       "%s: %d queries alternating between the layers of sizes 1 and 2 (%ld and %ld found; "
       "%u subgoals at most): Annotated A*'s status and length (%ld wrong)", rel, PAIRS,
       sizes[1], sizes[2], nodes, wrong);
    size_t bytes = nb_sg_bytes(sg);
    long again = 0;
    for (size_t k = 0; k < PAIRS; k++) {
        nb_sg_query q;
        nb_sg_query_init(&q);
        q.capability = 3;
        q.size = size[k];
        q.start = from[k];
        q.goal = to[k];
        nb_sg_result r;
        if (nb_sg_find(sg, &q, &r, &err) != NB_OK ||
            (r.status == NB_PATH_FOUND ? r.length != first[k] : first[k] >= 0))
            again++;
    }
    ok(again == 0, "... the same queries again: the same answers (%ld differ)", again);
    ok(nb_sg_bytes(sg) == bytes, "... and no more bytes held (%zu, then %zu)", bytes,
       nb_sg_bytes(sg));
out:
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    nbb_scen_free(&scen);
    nbb_grid_free(&g);
}

int main(void)
{
    tu_rng rng = {0x5e9d0c};
    nbi_legend_default(&legend);
    two_layers(&rng);
    return done_testing();
}
