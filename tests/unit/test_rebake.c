/* test_rebake.c: bakes on threads and bakes kept up to date, each against
 * a whole bake on one thread, byte for byte.
 *
 * - The band-by-band pieces against the whole-map ones they replace: a
 *   band of clearance rows against the one sweep, the banded components
 *   against the flood fill (nbb_components_compute).
 * - Thread counts 1, 2, 3 and 8: the same layers and abstract graphs.
 * - Random edits of real maps (../shared/maps): mkclear's update of the
 *   old bundle (nbb_level_rebake: clearance, components and the abstract
 *   graph with the options it was built with) gives the bundle a whole
 *   bake of the edited level gives, every byte; so does mkabstract's
 *   update of the old graph (nbb_abstract_update).  Agent sets with one
 *   and several sizes and capabilities, and abstract-graph options of
 *   every kind (qualities, placements, --paths, cluster sizes, the weak
 *   corner rule, zlib).
 * - The same on random levels (rooms, lakes and woods of four terrains,
 *   or cells drawn one by one) with each agent set.
 * - Component layers repaired after random edits of random grids, against
 *   a whole bake.
 * make check runs a few maps; NB_REBAKE_EVERY=1 (make check-rebake) runs
 * every map of ../shared/maps with every agent set and option set. */
#include <stdlib.h>

#include "abstract/abstract_build.h"
#include "testutil.h"

static nbi_legend legend;
static int every;

/* ---- bundles in memory ---- */

static nb_bundle *open_image(nbb_builder *b, uint8_t **copy, size_t *len)
{
    uint8_t *img;
    size_t n;
    nb_err err;
    nb_bundle *out = NULL;
    if (nbb_builder_image(b, &img, &n, &err) != NB_OK) {
        diag("image: %s", err.msg);
        return NULL;
    }
    if (copy) {
        *copy = malloc(n);
        memcpy(*copy, img, n);
        *len = n;
    }
    if (nbi_bundle_open_image(img, n, "(test)", NB_OPEN_VERIFY, &out, &err) != NB_OK)
        diag("open: %s", err.msg);
    return out;
}

/* The whole bake of a level (and of its abstract graph with ao, stored
 * compressed when zab), on threads: an open bundle, and its bytes. */
static nb_bundle *bake_whole(const nbb_level *lv, const nbb_abstract_opts *ao, int zlayers,
                             int zab, unsigned threads, uint8_t **bytes, size_t *len)
{
    nbb_builder *b;
    nb_err err;
    nbb_rebake_opts ro = {zlayers, threads, 0, NULL, NULL};
    nbb_rebake_stats st;
    nbb_builder_new(&b, &err);
    if (nbb_level_rebake(b, lv, NULL, &ro, &st, &err) != NB_OK) {
        diag("whole bake: %s", err.msg);
        nbb_builder_free(b);
        return NULL;
    }
    nb_bundle *out = open_image(b, ao ? NULL : bytes, len);
    if (out && ao) {
        uint8_t *p;
        size_t n;
        nb_section_info in;
        nbb_abstract_opts o = *ao;
        o.threads = threads;
        if (nbb_abstract_build(out, &o, &p, &n, NULL, &err) != NB_OK) {
            diag("abstract: %s", err.msg);
            nb_bundle_close(out);
            nbb_builder_free(b);
            return NULL;
        }
        nbb_abstract_info(p, &in);
        /* mkabstract's costs for the agents with terrain costs (before the graph is handed
         * over: compressing it frees it). */
        if (nbb_put_abstract_costs(b, out, p, n, zab, NULL, &err) != NB_OK)
            diag("abstract costs: %s", err.msg);
        nbb_builder_add_owned(b, &in, p, n, zab, &err);
        nb_bundle_close(out);
        out = open_image(b, bytes, len);
    }
    nbb_builder_free(b);
    return out;
}

static int same_bytes(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, const char *what)
{
    if (na == nb && memcmp(a, b, na) == 0)
        return 1;
    size_t i = 0;
    while (i < na && i < nb && a[i] == b[i])
        i++;
    diag("%s: %zu and %zu bytes, first difference at byte %zu", what, na, nb, i);
    return 0;
}

/* ---- the band-by-band pieces ---- */

static void test_bands(tu_rng *r)
{
    int rows_bad = 0, comps_bad = 0, n = 0;
    for (int t = 0; t < 40; t++) {
        nbb_grid g;
        uint32_t w = 1 + tu_below(r, 90), h = 1 + tu_below(r, 200);
        tu_random_grid(r, w, h, tu_below(r, 60), 1 + tu_below(r, 4), &g);
        unsigned cap = 1 + tu_below(r, 9);
        uint8_t in_cap[256];
        nbb_terrain_mask(&legend, 0x3, in_cap);
        uint8_t *whole = malloc((size_t)w * h), *band = malloc((size_t)w * h), *halo = malloc(2 * w);
        nbb_clearance_compute(g.cells, w, h, in_cap, cap, whole);
        for (uint32_t b = 0; b < nbb_band_count(h); b++) {
            uint32_t y0, y1;
            nbb_band_rows(b, h, &y0, &y1);
            nbb_clearance_rows(g.cells, w, h, in_cap, cap, y0, y1, band + (size_t)y0 * w, halo);
        }
        rows_bad += memcmp(whole, band, (size_t)w * h) != 0;
        /* Components band by band, on 1 to 3 threads, against the flood. */
        uint32_t *label = malloc((size_t)w * h * 4), *queue = malloc((size_t)w * h * 4);
        unsigned size = 1 + tu_below(r, cap);
        uint32_t count = nbb_components_compute(whole, w, h, size, label, queue, NULL);
        uint8_t *ref = malloc((size_t)nbi_layer_bytes((uint64_t)w * h, 32));
        nbb_layer_pack(w, h, count, NULL, label, ref);
        for (unsigned th = 1; th <= 3; th++) {
            uint8_t *p;
            size_t len;
            nb_err err;
            if (nbb_bake_components_layer(whole, w, h, size, th, label, &p, &len, NULL, &err) != NB_OK ||
                len != nbi_layer_bytes((uint64_t)w * h, nbi_bits_for(count)) ||
                memcmp(p, ref, len) != 0)
                comps_bad++;
            free(p);
            n++;
        }
        free(ref);
        free(label);
        free(queue);
        free(whole);
        free(band);
        free(halo);
        nbb_grid_free(&g);
    }
    ok(rows_bad == 0, "clearance band by band (the rows below each band swept again): the one "
                      "sweep's values, 40 random maps");
    ok(comps_bad == 0, "components band by band on 1, 2 and 3 threads: the flood fill's numbers "
                       "(%d layers)", n);
}

/* ---- levels and edits ---- */

static const char *const agent_sets[] = {NULL, "data/sample-agents.yaml", "data/haa-agents.yaml"};

typedef struct optset {
    const char *name;
    unsigned quality, placement, cluster, spread, paths, corner;
    int zlib;
} optset;

static const optset optsets[] = {
    {"high", NBI_QUALITY_HIGH, NBB_PLACE_AUTO, 10, 8, 0, 0, 0},
    {"low", NBI_QUALITY_LOW, NBB_PLACE_AUTO, 10, 8, 0, 0, 0},
    {"high --paths", NBI_QUALITY_HIGH, NBB_PLACE_AUTO, 10, 8, 1, 0, 0},
    {"low --paths -c 7", NBI_QUALITY_LOW, NBB_PLACE_AUTO, 7, 8, 1, 0, 0},
    {"initial -c 4 --zlib", NBI_QUALITY_INITIAL, NBB_PLACE_AUTO, 4, 8, 0, 0, 1},
    {"spread 3 -c 12 --corner weak --paths", NBI_QUALITY_HIGH, NBI_PLACE_SPREAD, 12, 3, 1, 1, 0},
    {"middle -c 16", NBI_QUALITY_HIGH, NBI_PLACE_MIDDLE, 16, 8, 0, 0, 0},
};
#define NOPTS (sizeof optsets / sizeof optsets[0])

static void opts_of(const optset *s, nbb_abstract_opts *o)
{
    nbb_abstract_defaults(o);
    o->quality = s->quality;
    o->placement = s->placement;
    o->cluster = s->cluster;
    o->spread = s->spread;
    o->paths = (int)s->paths;
    o->corner = (nb_corner)s->corner;
}

/* A coordinate below n near a multiple of step (where units meet) half
 * the time, else anywhere. */
static uint32_t near_line(tu_rng *r, uint32_t n, uint32_t step, uint32_t extent)
{
    if (tu_below(r, 2) || n <= step)
        return tu_below(r, n);
    uint32_t line = step * (1 + tu_below(r, (n - 1) / step));
    int64_t at = (int64_t)line - (int64_t)extent + (int64_t)tu_below(r, 4);
    return at < 0 ? 0 : at >= n ? n - 1 : (uint32_t)at;
}

/* Rectangles of random sizes (mostly small, now and then large, a few
 * that change nothing) set to random characters the map uses, many of
 * them across the lines between bands of rows and between clusters of
 * side cluster (where an update must reach across). */
static void edit(tu_rng *r, const nbb_grid *from, nbb_grid *to, unsigned nrect, uint32_t cluster)
{
    static const char chars[] = ".@T.@SW";
    size_t n = (size_t)from->width * from->height;
    to->width = from->width;
    to->height = from->height;
    to->cells = malloc(n);
    memcpy(to->cells, from->cells, n);
    for (unsigned k = 0; k < nrect; k++) {
        uint32_t big = tu_below(r, 8) == 0 ? 40 : 12;
        uint32_t w = 1 + tu_below(r, big), h = 1 + tu_below(r, big);
        uint32_t x0 = near_line(r, to->width, cluster, w);
        uint32_t y0 = tu_below(r, 2) ? near_line(r, to->height, NBB_BAND_ROWS, h)
                                     : near_line(r, to->height, cluster, h);
        int copy = tu_below(r, 10) == 0; /* a rectangle of what is there already */
        uint8_t c = (uint8_t)chars[tu_below(r, sizeof chars - 1)];
        for (uint32_t y = y0; y < y0 + h && y < to->height; y++)
            for (uint32_t x = x0; x < x0 + w && x < to->width; x++)
                if (!copy)
                    to->cells[(size_t)y * to->width + x] = c;
    }
}

typedef struct tally {
    int cases, bad, updated, kept, rebuilt_sum, clusters_sum;
} tally;

/* One edit of a level: both tools' updates against whole bakes. */
static void one_edit(tu_rng *r, nbb_level *old_lv, const nbb_abstract_opts *ao, int zlib,
                     const char *what, tally *t)
{
    nbb_level lv = *old_lv;
    edit(r, &old_lv->grid, &lv.grid, 1 + tu_below(r, 4), ao ? ao->cluster : 10);
    unsigned threads = 1 + tu_below(r, 3);
    uint8_t *old_bytes, *want, *got;
    size_t old_len, want_len, got_len;
    nb_bundle *old = bake_whole(old_lv, ao, zlib, zlib, 1, &old_bytes, &old_len);
    nb_bundle *whole = bake_whole(&lv, ao, zlib, zlib, 1, &want, &want_len);
    nb_err err;
    int good = old && whole;
    /* mkclear NEW.map -o OLD */
    nbb_builder *b;
    nbb_rebake_opts ro = {zlib, threads, 0, NULL, NULL};
    nbb_rebake_stats st;
    nbb_builder_new(&b, &err);
    for (size_t i = 0; good && i < nb_bundle_section_count(old); i++)
        nbb_builder_borrow(b, old, i, &err);
    if (good && nbb_level_rebake(b, &lv, old, &ro, &st, &err) != NB_OK) {
        diag("%s: %s", what, err.msg);
        good = 0;
    }
    nb_bundle *inc = good ? open_image(b, &got, &got_len) : NULL;
    if (inc) {
        char name[300];
        snprintf(name, sizeof name, "%s, mkclear's update on %u threads", what, threads);
        good = same_bytes(got, got_len, want, want_len, name);
        t->updated += st.abstract == NBB_REBAKE_UPDATED;
        t->kept += st.abstract == NBB_REBAKE_KEPT;
        t->rebuilt_sum += (int)st.abstract_stats.rebuilt_clusters;
        t->clusters_sum += (int)st.abstract_stats.clusters;
        free(got);
        nb_bundle_close(inc);
    } else
        good = 0;
    nbb_builder_free(b);
    /* mkabstract NEW -o OLD: the new level's layers, the old graph. */
    if (good && ao) {
        nbb_abstract_opts o = *ao;
        o.threads = threads;
        nbb_abstract_stats as;
        uint8_t *p = NULL;
        const void *wp = NULL, *op = NULL;
        size_t n = 0, wn = 0, on = 0;
        nbi_agraph wg, og;
        nb_bundle *cleared = bake_whole(&lv, NULL, zlib, 0, threads, NULL, NULL);
        if (nbi_agraph_find(whole, &wg, NULL) != NB_OK ||
            nb_bundle_payload(whole, (size_t)wg.section, &wp, &wn, NULL) != NB_OK ||
            nbi_agraph_find(old, &og, NULL) != NB_OK ||
            nb_bundle_payload(old, (size_t)og.section, &op, &on, NULL) != NB_OK) {
            diag("%s: no graph", what);
            good = 0;
        } else if (!cleared || nbb_abstract_update(cleared, old, &o, 0, &p, &n, &as, &err) != NB_OK) {
            diag("%s: mkabstract's update: %s", what, err.msg);
            good = 0;
        } else if (as.kept) {
            good = same_bytes(op, on, wp, wn, "mkabstract kept the old graph");
        } else {
            char name[300];
            snprintf(name, sizeof name, "%s, mkabstract's update", what);
            good = as.incremental && same_bytes(p, n, wp, wn, name);
        }
        free(p);
        nb_bundle_close(cleared);
    }
    t->cases++;
    t->bad += !good;
    free(old_bytes);
    free(want);
    nb_bundle_close(old);
    nb_bundle_close(whole);
    nbb_grid_free(&lv.grid);
}

static int read_level(const char *map, const char *agents, nbb_level *lv)
{
    nb_err err;
    lv->legend = legend;
    if (nbb_map_read(map, &legend, 1, &lv->grid, &err) != NB_OK ||
        (agents ? nbb_agents_read(tu_src(agents), &legend, &lv->agents, &err)
                : nbb_agents_default(&legend, &lv->agents, &err)) != NB_OK) {
        diag("%s: %s", map, err.msg);
        return 0;
    }
    return 1;
}

/* Edits of one map with one agent set, for each option set in opts. */
static void edits_of(tu_rng *r, const char *map, const char *label, const char *agents,
                     const unsigned *opts, size_t nopts, unsigned nedits)
{
    nbb_level lv;
    if (!map) {
        skip(1, "%s is not in ../shared (NB_SHARED)", label);
        return;
    }
    if (!read_level(map, agents, &lv)) {
        ok(0, "%s read", label);
        return;
    }
    tally t = {0};
    for (size_t k = 0; k < nopts; k++) {
        const optset *s = &optsets[opts[k]];
        nbb_abstract_opts ao;
        opts_of(s, &ao);
        for (unsigned e = 0; e < nedits; e++) {
            char what[256];
            snprintf(what, sizeof what, "%s (%s), %s, edit %u", label,
                     agents ? agents : "default agents", s->name, e);
            one_edit(r, &lv, &ao, s->zlib, what, &t);
        }
    }
    ok(t.bad == 0 && t.cases > 0,
       "%s, %s: %d random edits: mkclear's and mkabstract's updates are the whole bakes' bytes "
       "(the graph updated %d times, kept %d; %d of %d clusters built again)",
       label, agents ? agents : "default agents", t.cases, t.updated, t.kept, t.rebuilt_sum,
       t.clusters_sum);
    nbb_grid_free(&lv.grid);
}

/* A random level of w x h cells in a map file in the temporary directory:
 * ground with rectangles of swamp, water, trees and walls laid over it
 * (rooms, lakes and woods, as a designer's level has), or, when noisy,
 * every cell drawn on its own (tu_random_grid: many small components). */
static const char *random_level(tu_rng *r, unsigned k, int noisy)
{
    nbb_grid g;
    uint32_t w = 60 + tu_below(r, 200), h = 60 + tu_below(r, 220);
    if (noisy)
        tu_random_grid(r, w, h, 5 + tu_below(r, 30), 4, &g);
    else {
        static const char fill[] = "SWT@@@";
        g.width = w;
        g.height = h;
        g.cells = malloc((size_t)w * h);
        memset(g.cells, '.', (size_t)w * h);
        for (unsigned n = 20 + tu_below(r, 60); n > 0; n--) {
            uint32_t rw = 1 + tu_below(r, 40), rh = 1 + tu_below(r, 40);
            uint32_t x0 = tu_below(r, w), y0 = tu_below(r, h);
            uint8_t c = (uint8_t)fill[tu_below(r, sizeof fill - 1)];
            /* Walls are thin (a room's sides), the rest fills. */
            int wall = c == '@';
            for (uint32_t y = y0; y < y0 + rh && y < h; y++)
                for (uint32_t x = x0; x < x0 + rw && x < w; x++)
                    if (!wall || y == y0 || x == x0 || y + 1 == y0 + rh || x + 1 == x0 + rw)
                        g.cells[(size_t)y * w + x] = c;
            if (wall && x0 + rw / 2 < w) /* a door */
                g.cells[(size_t)y0 * w + x0 + rw / 2] = '.';
        }
    }
    char name[64];
    snprintf(name, sizeof name, "random%u.map", k);
    const char *path = tu_path(tu_tmpdir(), name);
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("Bail out! cannot write %s\n", path);
        exit(1);
    }
    fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", h, w);
    for (uint32_t y = 0; y < h; y++)
        fprintf(f, "%.*s\n", (int)w, (const char *)g.cells + (size_t)y * w);
    fclose(f);
    nbb_grid_free(&g);
    return path;
}

/* Edits of random levels, each with an agent set and an option set of its
 * own, so that every agent set meets every kind of level. */
static void random_levels(tu_rng *r, unsigned nlevels, unsigned nedits)
{
    for (unsigned k = 0; k < nlevels; k++) {
        int noisy = k % 3 == 2;
        const char *path = random_level(r, k, noisy);
        const char *agents = agent_sets[k % (sizeof agent_sets / sizeof agent_sets[0])];
        unsigned opt = tu_below(r, NOPTS);
        char label[80];
        snprintf(label, sizeof label, "random level %u (%s)", k, noisy ? "cell by cell" : "rooms");
        edits_of(r, path, label, agents, &opt, 1, nedits);
    }
}

/* ---- thread counts ---- */

static void test_threads(const char *map, const char *label, const char *agents)
{
    nbb_level lv;
    if (!map) {
        skip(1, "%s is not in ../shared (NB_SHARED)", label);
        return;
    }
    if (!read_level(map, agents, &lv))
        return;
    int bad = 0, n = 0;
    for (size_t k = 0; k < NOPTS; k++) {
        nbb_abstract_opts ao;
        opts_of(&optsets[k], &ao);
        /* More threads than cores and than some phases have units. */
        static const unsigned counts[] = {1, 2, 3, 8};
        enum { NCOUNTS = sizeof counts / sizeof counts[0] };
        uint8_t *bytes[NCOUNTS];
        size_t len[NCOUNTS];
        for (unsigned i = 0; i < NCOUNTS; i++) {
            nb_bundle *b = bake_whole(&lv, &ao, 0, 0, counts[i], &bytes[i], &len[i]);
            nb_bundle_close(b);
            if (!b) {
                bytes[i] = NULL;
                len[i] = 0;
            }
        }
        for (unsigned i = 1; i < NCOUNTS; i++) {
            char what[200];
            snprintf(what, sizeof what, "%s, %s, %u threads", label, optsets[k].name, counts[i]);
            bad += !bytes[0] || !bytes[i] || !same_bytes(bytes[i], len[i], bytes[0], len[0], what);
            n++;
        }
        for (unsigned i = 0; i < NCOUNTS; i++)
            free(bytes[i]);
    }
    ok(bad == 0 && n > 0,
       "%s (%s): 2, 3 and 8 threads bake the bytes 1 thread bakes (layers and graphs of %zu "
       "option sets)",
       label, agents ? agents : "default agents", NOPTS);
    nbb_grid_free(&lv.grid);
}

/* ---- components repaired ---- */

static void test_repair(tu_rng *r)
{
    int bad = 0, renumbered = 0, patched = 0, n = 0;
    for (int t = 0; t < 300; t++) {
        nbb_grid g, e;
        uint32_t w = 2 + tu_below(r, 70), h = 2 + tu_below(r, 150);
        tu_random_grid(r, w, h, tu_below(r, 70), 1, &g);
        edit(r, &g, &e, 1 + tu_below(r, 3), 10);
        uint8_t in_cap[256];
        nbb_terrain_mask(&legend, 0x1, in_cap);
        unsigned cap = 1 + tu_below(r, 3), size = 1 + tu_below(r, cap);
        uint8_t *cv0 = malloc((size_t)w * h), *cv1 = malloc((size_t)w * h);
        uint32_t *label = malloc((size_t)w * h * 4);
        nbb_clearance_compute(g.cells, w, h, in_cap, cap, cv0);
        nbb_clearance_compute(e.cells, w, h, in_cap, cap, cv1);
        uint8_t *old, *want, *cpay, *got;
        size_t old_len, want_len, clen, got_len;
        nb_err err;
        nbb_bake_components_layer(cv0, w, h, size, 1, label, &old, &old_len, NULL, &err);
        nbb_bake_components_layer(cv1, w, h, size, 1, label, &want, &want_len, NULL, &err);
        nbb_bake_clearance_layer(&e, in_cap, cap, 1, cv1, &cpay, &clen, NULL, &err);
        nbb_cv_change *ch = malloc((size_t)w * h * sizeof *ch);
        size_t nch = 0;
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (cv0[i] != cv1[i])
                ch[nch++] = (nbb_cv_change){(uint32_t)i, cv0[i], cv1[i]};
        nbi_layer cl;
        nbb_layer_of_payload(cpay, &cl);
        nbb_repair_stats rs;
        if (nbb_components_repair(&cl, old, old_len, size, ch, nch, 1 + tu_below(r, 3), &got,
                                  &got_len, &rs, &err) != NB_OK)
            bad++;
        else if (!got)
            bad += !same_bytes(old, old_len, want, want_len, "components kept");
        else
            bad += !same_bytes(got, got_len, want, want_len, "components repaired");
        renumbered += rs.renumbered;
        patched += rs.patched > 0;
        n++;
        free(got);
        free(old);
        free(want);
        free(cpay);
        free(ch);
        free(cv0);
        free(cv1);
        free(label);
        nbb_grid_free(&g);
        nbb_grid_free(&e);
    }
    ok(bad == 0 && renumbered > 0 && patched > 0,
       "component layers repaired after random edits: the whole bake's bytes (%d layers: %d "
       "numbered again, %d written in place)", n, renumbered, patched);
}

int main(void)
{
    tu_rng r = {0x7eba4eULL};
    nbi_legend_default(&legend);
    const char *e = getenv("NB_REBAKE_EVERY");
    every = e && *e && strcmp(e, "0") != 0;
    test_bands(&r);
    test_repair(&r);
    test_threads(tu_src("data/sample.map"), "sample.map", "data/sample-agents.yaml");
    test_threads(tu_shared("maps/wc3/battleground.map"), "battleground", "data/haa-agents.yaml");
    /* Several bands of rows, four terrains and three sizes: the sample
     * level tiled, mirrored, into a map file. */
    const char *tall = tu_path(tu_tmpdir(), "tall.map");
    {
        nbb_grid tile, big;
        nb_err err;
        if (nbb_map_read(tu_src("data/sample.map"), &legend, 1, &tile, &err) != NB_OK) {
            printf("Bail out! %s\n", err.msg);
            return 1;
        }
        tu_tile_grid(&tile, 200, 1, &big);
        FILE *f = fopen(tall, "w");
        fprintf(f, "type octile\nheight 200\nwidth 200\nmap\n");
        for (uint32_t y = 0; y < 200; y++)
            fprintf(f, "%.200s\n", (const char *)big.cells + (size_t)y * 200);
        fclose(f);
        nbb_grid_free(&tile);
        nbb_grid_free(&big);
    }
    unsigned all[NOPTS];
    for (unsigned k = 0; k < NOPTS; k++)
        all[k] = k;
    if (!every) {
        static const unsigned some[] = {0, 3, 4, 5};
        edits_of(&r, tu_src("data/sample.map"), "sample.map", "data/sample-agents.yaml", all,
                 NOPTS, 2);
        edits_of(&r, tall, "sample.map tiled to 200 x 200", "data/sample-agents.yaml", all, NOPTS,
                 2);
        edits_of(&r, tu_shared("maps/dao/den312d.map"), "den312d", NULL, some, 4, 2);
        /* Agents with terrain costs: the graph's costs per profile follow the cells. */
        edits_of(&r, tu_src("data/sample.map"), "sample.map, agents with costs",
                 "data/cost-agents.yaml", some, 4, 2);
        random_levels(&r, 6, 3);
        edits_of(&r, tu_shared("maps/wc3/battleground.map"), "battleground",
                 "data/haa-agents.yaml", some + 1, 2, 1);
        return done_testing();
    }
    static const char *const maps[] = {
        "maps/dao/arena.map",        "maps/dao/den312d.map",      "maps/dao/lak303d.map",
        "maps/dao/ost003d.map",      "maps/dao/brc202d.map",      "maps/dao/orz900d.map",
        "maps/bg/AR0011SR.map",      "maps/bg/AR0042SR.map",      "maps/wc3/battleground.map",
        "maps/wc3/blastedlands.map", "maps/wc3/bloodvenomfalls.map", "maps/wc3/darkforest.map",
        "maps/sc1/AcrosstheCape.map", "maps/sc1/Aftershock.map",  "maps/sc1/CatwalkAlley.map",
        "maps/rooms/64room_005.map", "maps/rooms/8room_000.map",  "maps/mazes/maze512-32-9.map",
        "maps/mazes/maze512-4-0.map", "maps/random/random512-10-0.map",
        "maps/random/random512-40-5.map"};
    edits_of(&r, tu_src("data/sample.map"), "sample.map", "data/sample-agents.yaml", all, NOPTS, 6);
    edits_of(&r, tall, "sample.map tiled to 200 x 200", "data/sample-agents.yaml", all, NOPTS, 6);
    random_levels(&r, 30, 6);
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++)
        for (size_t a = 0; a < sizeof agent_sets / sizeof agent_sets[0]; a++)
            edits_of(&r, tu_shared(maps[m]), maps[m], agent_sets[a], all, NOPTS, 2);
    return done_testing();
}
