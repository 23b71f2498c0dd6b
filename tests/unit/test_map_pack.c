/* test_map_pack.c: the map section packed to the bits its characters need
 * (version 2, formats/bundle.md).  Every map reads back its own characters
 * at the width the format says; a bundle with the packed map answers every
 * query as the same bundle with a version 1 map (Annotated A* with terrain
 * costs, which reads the map, and reachability against a brute-force flood
 * of the map); crafted sections are refused naming what is wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clearance/costs.h"
#include "brute.h"
#include "testutil.h"

static const char *dir;

/* A legend of the default one plus 'a'..'z' and 'A'..'F' (each a terrain,
 * so that a map can use up to 40 characters). */
static void wide_legend(nbi_legend *lg)
{
    nbi_legend_default(lg);
    for (int c = 'a'; c <= 'z'; c++)
        lg->code[c] = (uint8_t)(c % 4);
    for (int c = 'A'; c <= 'F'; c++)
        lg->code[c] = (uint8_t)(c % 4);
    nbi_legend_derive_chars(lg);
}

/* The characters the wide legend defines, in increasing order. */
static size_t legend_chars(const nbi_legend *lg, uint8_t *out)
{
    size_t n = 0;
    for (unsigned c = 0; c < 256; c++)
        if (lg->code[c] != NBI_CELL_INVALID)
            out[n++] = (uint8_t)c;
    return n;
}

/* The map section's index, or -1. */
static long map_index(const nb_bundle *b)
{
    for (size_t i = 0; i < nb_bundle_section_count(b); i++)
        if (nb_bundle_section_get(b, i)->type == NB_SEC_MAP)
            return (long)i;
    return -1;
}

/* The multiplier of the size x size square at (x, y), clipped to the grid,
 * from the grid's own characters (costs.h's rule spelled out again). */
static double brute_square(const nbi_legend *lg, const nbb_grid *g, const double *cost,
                           uint32_t size, uint32_t x, uint32_t y)
{
    double m = 1;
    for (uint32_t j = y; j < y + size && j < g->height; j++)
        for (uint32_t i = x; i < x + size && i < g->width; i++) {
            unsigned t = lg->code[g->cells[(size_t)j * g->width + i]];
            if (t < lg->nterrains && cost[t] > m)
                m = cost[t];
        }
    return m;
}

/* Terrain costs read from the packed map (a row of a square a load at a
 * time, through tables of each byte's largest multiplier): every cell's
 * square equal to the brute force from the grid, at agent sizes whose rows
 * take part of a byte, a byte and more, and larger than the map; a kept
 * profile's tables follow the query's multipliers when they change. */
static void check_costs(const nb_bundle *b, const nbi_legend *lg, const nbb_grid *g, unsigned k,
                        tu_rng *r)
{
    static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 17, 64};
    static nbi_costs c; /* kept between the sizes and profiles, as a workspace keeps it */
    memset(&c, 0, sizeof c); /* a workspace's is zeroed when made, for its bundle alone */
    nb_capability cap = (1u << lg->nterrains) - 1;
    double cost[2][NB_MAX_TERRAINS];
    for (int p = 0; p < 2; p++)
        for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
            cost[p][t] = 1 + tu_below(r, 40) / 4.0;
    size_t wrong = 0, cells = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (int p = 0; p < 3; p++) { /* the first profile, the second, the first again */
            const double *cp = cost[p & 1];
            nb_err err;
            if (nbi_costs_keep(&c, b, cap, sizes[si], cp, &err) != NB_OK) {
                ok(0, "%u characters, size %u: costs made (%s)", k, sizes[si], err.msg);
                return;
            }
            for (uint32_t y = 0; y < g->height; y++)
                for (uint32_t x = 0; x < g->width; x++, cells++)
                    wrong += nbi_costs_cell(&c, x, y) != brute_square(lg, g, cp, sizes[si], x, y);
        }
    ok(wrong == 0, "%u characters: %zu squares' multipliers at sizes 1 to 64 as the grid's (%zu wrong)",
       k, cells, wrong);
}

/* Maps of 1 to 40 characters, of sides that leave the last byte part used:
 * each reads back cell for cell, at the fewest bits of 1, 2, 4, 8. */
static void test_widths(void)
{
    nbi_legend lg;
    wide_legend(&lg);
    uint8_t chars[256];
    size_t nchars = legend_chars(&lg, chars);
    static const unsigned ks[] = {1, 2, 3, 4, 5, 9, 16, 17, 40};
    tu_rng r = {7};
    for (size_t t = 0; t < sizeof ks / sizeof *ks; t++) {
        unsigned k = ks[t] <= nchars ? ks[t] : (unsigned)nchars;
        uint32_t w = 37 + (uint32_t)t, h = 23;
        nbb_grid g = {w, h, malloc((size_t)w * h)};
        /* k characters spread over the legend's, every one used. */
        uint8_t pick[256];
        for (unsigned i = 0; i < k; i++)
            pick[i] = chars[(size_t)i * nchars / k];
        for (size_t i = 0; i < (size_t)w * h; i++)
            g.cells[i] = pick[i < k ? i : tu_below(&r, k)];
        const char *path = tu_path(dir, "widths.nbb");
        nb_err err;
        nb_bundle *b = NULL;
        if (!ok(tu_write_level(path, &lg, NULL, &g, t & 1, &err) == NB_OK &&
                    nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK,
                "%u characters: baked and opened (%s)", k, b ? "" : err.msg)) {
            free(g.cells);
            continue;
        }
        unsigned want = k <= 2 ? 1 : k <= 4 ? 2 : k <= 16 ? 4 : 8;
        const nb_section_info *in = nb_bundle_section_get(b, (size_t)map_index(b));
        ok(in->version == 2 && in->param[2] == want &&
               in->usize == 272 + ((uint64_t)w * h * want + 7) / 8,
           "%u characters: version 2 at %u bits a cell, %llu bytes (got version %u, %u bits, %llu)",
           k, want, (unsigned long long)(272 + ((uint64_t)w * h * want + 7) / 8), in->version,
           in->param[2], (unsigned long long)in->usize);
        size_t wrong = 0;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint8_t c = g.cells[(size_t)y * w + x];
                int terr = lg.code[c] < lg.nterrains ? lg.code[c] : NB_OBSTACLE;
                wrong += (uint8_t)nb_map_char(b, x, y) != c || nb_map_terrain(b, x, y) != terr;
            }
        ok(wrong == 0, "%u characters: every cell's character and terrain read back (%zu wrong)", k,
           wrong);
        ok(nb_bundle_verify(b, &err) == NB_OK, "%u characters: verify passes (%s)", k,
           wrong ? "" : err.msg);
        check_costs(b, &lg, &g, k, &r);
        nb_bundle_close(b);
        free(g.cells);
    }
}

/* path with its map section replaced by payload (version, encoding and
 * parameters as given), through the writer (the CRCs right); 1 on success. */
static int put_map(const char *path, const char *out, uint16_t version, uint16_t encoding,
                   const uint32_t *params, const uint8_t *payload, size_t len)
{
    nbb_builder *w;
    nb_err err;
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = NB_SEC_MAP;
    in.version = version;
    in.encoding = encoding;
    memcpy(in.param, params, 3 * sizeof *params);
    remove(out); /* the writer would update a bundle there, and an earlier one is damaged */
    int ok_ = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_load(w, path, 0, &err) == NB_OK;
    if (ok_)
        nbb_builder_remove(w, NB_SEC_MAP);
    ok_ = ok_ && nbb_builder_add(w, &in, payload, len, 0, &err) == NB_OK &&
          nbb_builder_write(w, out, &err) == NB_OK;
    if (!ok_)
        diag("cannot write %s: %s", out, err.msg);
    nbb_builder_free(w);
    return ok_;
}

/* The same bundle with a version 1 map of the grid's characters. */
static int write_v1(const char *path, const char *out, const nbb_grid *g)
{
    size_t len = 8 + (size_t)g->width * g->height;
    uint8_t *p = malloc(len);
    nbi_put32(p, g->width);
    nbi_put32(p + 4, g->height);
    memcpy(p + 8, g->cells, len - 8);
    uint32_t params[3] = {g->width, g->height, 0};
    int r = put_map(path, out, 1, NB_ENC_RAW, params, p, len);
    free(p);
    return r;
}

/* The sample level with terrain-cost agents, baked with the packed map and
 * again with a version 1 map: the same Annotated A* answers (costs read the
 * map), the same reachability as a brute-force flood, for every agent. */
static void test_same_answers(void)
{
    nbi_legend lg;
    static nbi_agentset agents;
    nbb_grid g;
    nb_err err;
    if (nbb_read_level(NULL, tu_src("data/cost-agents.yaml"), tu_src("data/sample.map"), 1, &lg,
                       &agents, &g, &err) != NB_OK) {
        ok(0, "the sample level with costs: %s", err.msg);
        return;
    }
    const char *packed = tu_path(dir, "packed.nbb"), *plain = tu_path(dir, "plain.nbb");
    nb_bundle *bp = NULL, *b1 = NULL;
    if (!ok(tu_write_cleared(packed, &lg, &agents, &g, 0, &err) == NB_OK &&
                write_v1(packed, plain, &g) &&
                nb_bundle_open(packed, NB_OPEN_VERIFY, NULL, &bp, &err) == NB_OK &&
                nb_bundle_open(plain, NB_OPEN_VERIFY, NULL, &b1, &err) == NB_OK,
            "packed and version 1 bundles of the sample level")) {
        nb_bundle_close(bp);
        nbb_grid_free(&g);
        return;
    }
    const nb_section_info *ip = nb_bundle_section_get(bp, (size_t)map_index(bp)),
                          *i1 = nb_bundle_section_get(b1, (size_t)map_index(b1));
    ok(ip->version == 2 && ip->param[2] == 4 && i1->version == 1 && i1->usize == 8 + 64 * 40,
       "the sample's 7 characters at 4 bits a cell (%llu bytes), against version 1's %llu",
       (unsigned long long)ip->usize, (unsigned long long)i1->usize);
    nb_aa *wp = NULL, *w1 = NULL;
    nb_aa_open(bp, &wp, NULL);
    nb_aa_open(b1, &w1, NULL);
    tu_rng r = {11};
    size_t same = 0, n = 0, weighted = 0, found = 0;
    static nb_cell cells[64 * 40];
    for (size_t a = 0; a < agents.count; a++)
        for (int k = 0; k < 150; k++, n++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            nb_aa_query_agent(&q, &agents.agent[a]);
            q.corner = k & 1 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
            q.start.x = (int32_t)tu_below(&r, 64), q.start.y = (int32_t)tu_below(&r, 40);
            q.goal.x = (int32_t)tu_below(&r, 64), q.goal.y = (int32_t)tu_below(&r, 40);
            nb_aa_result x, y;
            if (nb_aa_find(wp, &q, &x, &err) != NB_OK)
                continue;
            size_t len = x.path_len;
            if (len) /* no path: x.path may be NULL */
                memcpy(cells, x.path, len * sizeof *cells);
            if (nb_aa_find(w1, &q, &y, &err) != NB_OK)
                continue;
            weighted += agents.agent[a].weighted && x.status == NB_PATH_FOUND && x.cost != x.length;
            found += x.status == NB_PATH_FOUND;
            same += x.status == y.status && x.length == y.length && x.cost == y.cost &&
                    len == y.path_len && (!len || memcmp(cells, y.path, len * sizeof *cells) == 0);
        }
    ok(same == n && found > n / 4 && weighted > 0,
       "Annotated A*: %zu of %zu queries the same on both maps (%zu found, %zu costing more than "
       "their length)",
       same, n, found, weighted);
    nb_aa_close(wp);
    nb_aa_close(w1);
    /* Reachability for every (capability, size) the agents make, every pair
     * of a sample of cells, against the flood. */
    uint32_t *label = malloc((size_t)64 * 40 * sizeof *label);
    size_t pairs = 0, agree = 0;
    for (size_t a = 0; a < agents.count; a++) {
        const nb_agent *ag = &agents.agent[a];
        brute_components_numbered(&lg, &g, ag->capability, ag->size, label);
        for (int k = 0; k < 400; k++, pairs++) {
            nb_cell f = {(int32_t)tu_below(&r, 64), (int32_t)tu_below(&r, 40)},
                    t = {(int32_t)tu_below(&r, 64), (int32_t)tu_below(&r, 40)};
            uint32_t lf = label[f.y * 64 + f.x], lt = label[t.y * 64 + t.x];
            int want = lf && lf == lt;
            agree += nb_reachable(bp, ag->capability, ag->size, f, t) == want &&
                     nb_reachable(b1, ag->capability, ag->size, f, t) == want;
        }
    }
    ok(agree == pairs, "reachability: %zu of %zu pairs as the flood says, on both maps", agree,
       pairs);
    free(label);
    nb_bundle_close(bp);
    nb_bundle_close(b1);
    nbb_grid_free(&g);
}

/* A crafted map section: open refuses it with a message naming it. */
static void refused(const char *packed, const char *what, uint16_t version, const uint32_t *params,
                    const uint8_t *p, size_t len, const char *want)
{
    const char *out = tu_path(dir, "crafted.nbb");
    nb_bundle *b = NULL;
    nb_err err;
    err.msg[0] = 0;
    nb_status st = put_map(packed, out, version, NB_ENC_PACKED, params, p, len)
                       ? nb_bundle_open(out, NB_OPEN_VERIFY, NULL, &b, &err)
                       : NB_OK;
    ok(st != NB_OK && strstr(err.msg, want) != NULL, "%s: refused at open (%s)", what, err.msg);
    nb_bundle_close(b);
}

static void test_crafted(void)
{
    nbi_legend lg;
    nbi_legend_default(&lg);
    /* 37 x 23 cells of '.', '@', 'S': 2 bits, the last byte part used. */
    uint32_t w = 37, h = 23;
    nbb_grid g = {w, h, malloc((size_t)w * h)};
    tu_rng r = {5};
    for (size_t i = 0; i < (size_t)w * h; i++)
        g.cells[i] = (uint8_t)".@S"[i < 3 ? i : tu_below(&r, 3)];
    char packed[1024]; /* tu_path's buffers are reused: refused() calls it */
    snprintf(packed, sizeof packed, "%s", tu_path(dir, "small.nbb"));
    nb_err err;
    if (!ok(tu_write_level(packed, &lg, NULL, &g, 0, &err) == NB_OK, "a 37 x 23 level")) {
        free(g.cells);
        return;
    }
    nb_section_info info;
    size_t len;
    uint8_t *orig = tu_section_take(packed, NB_SEC_MAP, &len, &info);
    uint8_t *p = malloc(len + 1);
    uint32_t params[3] = {w, h, 2};
    ok(orig && len == 272 + (37 * 23 * 2 + 7) / 8 && orig[8] == 2 && orig[12] == 3 &&
           orig[16] == '.' && orig[17] == '@' &&
           orig[18] == 'S' && orig[19] == 0,
       "the payload: 2 bits, 3 characters in increasing order ('.' '@' 'S')");
#define CRAFT(what, edit, want)                                    \
    do {                                                           \
        memcpy(p, orig, len);                                      \
        size_t n_ = len;                                           \
        edit;                                                      \
        refused(packed, what, 2, params, p, n_, want);             \
    } while (0)
    CRAFT("3 bits a cell", p[8] = 3, "3 bits a cell, expected 1, 2, 4 or 8");
    CRAFT("16 bits a cell", p[8] = 16, "16 bits a cell");
    CRAFT("no character", p[12] = 0, "0 characters in the palette");
    CRAFT("5 characters in 2 bits", (p[12] = 5, p[19] = 'T', p[20] = 'W'),
          "5 characters in the palette, expected 1 to 4");
    CRAFT("a palette out of order", (p[16] = '@', p[17] = '.'), "the characters must increase");
    CRAFT("a palette repeating", p[17] = '.', "palette entry 1");
    CRAFT("a character past the palette", p[100] = 'T', "palette entry 84 is 0x54");
    CRAFT("a byte short", n_ = len - 1, "expected 485");
    CRAFT("a byte over", (n_ = len + 1, p[len] = 0), "expected 485");
    CRAFT("the last byte's unused bits", p[len - 1] |= 0x80, "unused bits are not zero");
    CRAFT("a width beyond the values", nbi_put32(p, 38), "expected 491");
    CRAFT("no width", nbi_put32(p, 0), "0 x 23 cells");
    params[2] = 4;
    CRAFT("bits unlike the parameter", (void)0, "bits");
    params[2] = 2;
    memcpy(p, orig, len);
    {
        const char *out = tu_path(dir, "crafted.nbb");
        nb_bundle *b = NULL;
        int wrote = put_map(packed, out, 3, NB_ENC_PACKED, params, p, len);
        nb_status st = wrote ? nb_bundle_open(out, 0, NULL, &b, &err) : NB_OK;
        ok(st == NB_ERR_VERSION && strstr(err.msg, "map section version 3, this reader knows 1 and 2"),
           "version 3: refused by name (%s)", st == NB_OK ? "" : err.msg);
        nb_bundle_close(b);
        /* A value beyond the palette: opened (not every cell is read at
         * open), read as an obstacle, named by verify. */
        p[272 + 10 * 2 / 8] |= (uint8_t)(3u << (10 * 2 % 8));
        int put = put_map(packed, out, 2, NB_ENC_PACKED, params, p, len);
        st = put ? nb_bundle_open(out, 0, NULL, &b, &err) : NB_ERR_IO;
        ok(st == NB_OK && nb_map_char(b, 10, 0) == 0 && nb_map_terrain(b, 10, 0) == NB_OBSTACLE &&
               nb_map_char(b, 9, 0) == (char)g.cells[9],
           "a value beyond the palette reads as character 0, an obstacle; its neighbour as it was");
        ok(st == NB_OK && nb_bundle_verify(b, &err) != NB_OK &&
               strstr(err.msg, "map cell (10, 0) holds value 3, beyond the palette's 3 characters"),
           "verify names it (%s)", st == NB_OK ? err.msg : "");
        nb_bundle_close(b);
    }
#undef CRAFT
    free(p);
    free(orig);
    free(g.cells);
}

int main(void)
{
    dir = tu_tmpdir();
    test_widths();
    test_same_answers();
    test_crafted();
    return done_testing();
}
