/* test_bounded.c: stored paths that bounce (issue 29) are refused by the
 * first handle, naming the level and the edge, and what the checks behind
 * that refuse keeps every bundle the bake makes.
 *
 * Each lying bundle is crafted here as an attacker would (bounce.c, every
 * CRC right): the paths of a level above the graph going back and forth
 * between two nodes, a level's arc that weighs other than its path or more
 * steps than its cluster has cells, the graph's own cell paths going back
 * and forth.  A check that ran out of memory is made again by the next
 * handle, not kept as the bundle's answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstract/abstract.h"
#include "abstract/alevels.h"
#include "bounce.h"
#include "countalloc.h"
#include "testutil.h"

static nbi_legend legend;
static nbi_agentset agents;
static nbb_grid grid;

/* The sample level, with an abstract graph (cluster 5, stored paths as asked) and, with levels,
 * 3 levels of factor 2 above it (stored paths as asked), written to name; its path (kept: tu_path's
 * buffers are reused). */
static const char *bake(const char *name, int paths, int levels)
{
    const char *path = tu_path(tu_tmpdir(), name);
    nb_bundle *b = NULL;
    nb_err err;
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = 5;
    o.paths = paths;
    nbb_levels_opts lo = {3, 2, NBB_LEVEL_SPACING, 1, NBB_LEVEL_SHARE, 4};
    nb_status st = tu_write_cleared(path, &legend, &agents, &grid, 0, &err);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &b, &err);
    if (st == NB_OK)
        st = tu_add_abstract_opts(&b, path, &o, &err);
    if (st == NB_OK && levels)
        st = tu_add_levels(&b, path, &lo, &err);
    nb_bundle_close(b);
    if (st != NB_OK) {
        printf("Bail out! %s: %s\n", name, err.msg);
        exit(1);
    }
    static char kept[3][1024];
    static int n;
    return strcpy(kept[n++ % 3], path);
}

/* nb_haa_open on the bundle at path (opened with allocator a, or the C library's): its status,
 * the message in err. */
static nb_status haa_open(const char *path, const nb_allocator *a, nb_err *err)
{
    nb_bundle *b = NULL;
    nb_haa *ws = NULL;
    nb_status st = nb_bundle_open(path, 0, a, &b, err);
    if (st == NB_OK)
        st = nb_haa_open(b, &ws, err);
    nb_haa_close(ws);
    nb_bundle_close(b);
    return st;
}

/* The bundle at path with payload in place of its section of info's type (whose parameters may
 * change with it), written to name. */
static const char *put(const char *path, const char *name, const nb_section_info *info,
                       const uint8_t *payload, size_t len)
{
    const char *out = tu_path(tu_tmpdir(), name);
    nbb_builder *w = NULL;
    nb_err err;
    int ok = payload && nbb_builder_new(&w, &err) == NB_OK &&
             nbb_builder_load(w, path, 0, &err) == NB_OK;
    if (ok)
        nbb_builder_remove(w, info->type);
    ok = ok && nbb_builder_add(w, info, payload, len, 0, &err) == NB_OK &&
         nbb_builder_write(w, out, &err) == NB_OK;
    nbb_builder_free(w);
    if (!ok) {
        printf("Bail out! cannot write %s\n", name);
        exit(1);
    }
    return out;
}

/* Refused by nb_haa_open with NB_ERR_FORMAT, the message holding every one of words (up to
 * three; NULL ends them). */
static void refused(const char *path, const char *what, const char *w1, const char *w2,
                    const char *w3)
{
    nb_err err;
    nb_status st = haa_open(path, NULL, &err);
    int said = st == NB_ERR_FORMAT && strstr(err.msg, w1) && (!w2 || strstr(err.msg, w2)) &&
               (!w3 || strstr(err.msg, w3));
    ok(said, "%s is refused by nb_haa_open: %s", what, st == NB_OK ? "(opened)" : err.msg);
}

/* Levels whose paths bounce, level by level and all at once. */
static void test_levels_bounce(const char *lv)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(lv, 0, NULL, &b, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        exit(1);
    }
    for (uint32_t level = 0; level <= 3; level++) {
        if (level == 1)
            continue;
        size_t len;
        nb_section_info info;
        uint8_t *p = tb_bounce_levels(b, level, 40, &len, &info);
        const char *out = put(lv, "bounce.nbk", &info, p, len);
        char what[80], at[16];
        snprintf(what, sizeof what, "levels whose paths bounce (%s%u)", level ? "level " : "",
                 level ? level : 2);
        snprintf(at, sizeof at, "level %u:", level ? level : 2);
        refused(out, what, at, "the edge of arc", "comes back");
        free(p);
    }
    nb_bundle_close(b);
}

/* Level 2's first intra-arc with its weight changed to card + dc, diag + dd (on a copy of the
 * section of lv), written to name. */
static const char *reweigh(const char *lv, const char *name, uint32_t dc, int to_cells)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(lv, NB_SEC_ABSTRACT_LEVELS, &len, &info);
    nb_bundle *b;
    nb_err err;
    nbi_agraph g;
    nbi_alevels L;
    if (!p || nb_bundle_open(lv, 0, NULL, &b, &err) != NB_OK || nbi_agraph_find(b, &g, &err) ||
        nbi_alevels_view(p, len, &g, nbi_agraph_crc(b, &g), &L, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        exit(1);
    }
    const nbi_alevel *v = &L.lv[2];
    for (uint32_t a = 0; a < v->narcs; a++) {
        uint32_t card, diag;
        nbi_lv_w(&L, 2, a, &card, &diag);
        if (card + diag <= 1)
            continue; /* an arc between clusters */
        size_t at = (size_t)(v->arc_card - p) + 4 * (size_t)a;
        /* To the cells of its cluster: level 2's clusters are 10 x 10 (5 x 2). */
        nbi_put32(p + at, to_cells ? 100 - diag : card + dc);
        break;
    }
    nb_bundle_close(b);
    const char *out = put(lv, name, &info, p, len);
    free(p);
    return out;
}

/* A check that ran out of memory is not the bundle's answer: the next handle checks again. */
static void test_nomem_again(const char *lv)
{
    nb_bundle *b;
    nb_err err;
    nbi_agraph g;
    if (nb_bundle_open(lv, 0, NULL, &b, &err) != NB_OK || nbi_agraph_find(b, &g, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        exit(1);
    }
    /* The stamps of the checks of level 2's paths: one per node of the graph. */
    size_t stamps = (size_t)g.nnodes * sizeof(uint32_t);
    nb_bundle_close(b);
    tc_count c;
    nb_allocator a;
    tc_init(&c, &a);
    nb_haa *ws = NULL;
    nb_status st = nb_bundle_open(lv, 0, &a, &b, &err);
    if (st == NB_OK) {
        c.fail_size = stamps;
        st = nb_haa_open(b, &ws, &err);
        ok(st == NB_ERR_NOMEM && strstr(err.msg, "stored paths"),
           "a levels check without memory for its %zu bytes of stamps: NB_ERR_NOMEM (%s)", stamps,
           st == NB_OK ? "opened" : err.msg);
        nb_haa_close(ws);
        ws = NULL;
        c.fail_size = 0;
        st = nb_haa_open(b, &ws, &err);
        ok(st == NB_OK, "... and the next nb_haa_open checks again and opens (%s)",
           st == NB_OK ? "ok" : err.msg);
        nb_haa_close(ws);
        nb_bundle_close(b);
    }
    ok(c.live == 0, "... every byte given back (%zu live)", c.live);
}

int main(void)
{
    tu_read_sample(&legend, &agents, &grid);
    const char *lv = bake("lv.nbk", 1, 1), *lv0 = bake("lv0.nbk", 0, 1);
    const char *gp = bake("gp.nbk", 1, 0);
    nb_err err;
    nb_status st = haa_open(lv, NULL, &err);
    ok(st == NB_OK, "the bake's levels with stored paths open (%s)", st ? err.msg : "ok");
    st = haa_open(lv0, NULL, &err);
    ok(st == NB_OK, "... and without (%s)", st ? err.msg : "ok");
    st = haa_open(gp, NULL, &err);
    ok(st == NB_OK, "... and a graph with stored paths alone (%s)", st ? err.msg : "ok");

    test_levels_bounce(lv);
    refused(reweigh(lv, "heavier.nbk", 1, 0), "a level's arc one step heavier than its path",
            "level 2:", "the edge of arc", "but its stored path");
    refused(reweigh(lv0, "long.nbk", 0, 1), "a level's arc as long as its cluster has cells",
            "level 2:", "the edge of arc", "shorter");

    nb_bundle *b;
    if (nb_bundle_open(gp, 0, NULL, &b, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        return 1;
    }
    size_t len;
    nb_section_info info;
    uint8_t *p = tb_bounce_graph(b, 3, &len, &info);
    nb_bundle_close(b);
    refused(put(gp, "gbounce.nbk", &info, p, len), "a graph whose cell paths bounce",
            "the edge of arc", "comes back to cell", NULL);
    free(p);

    test_nomem_again(lv);
    nbb_grid_free(&grid);
    return done_testing();
}
