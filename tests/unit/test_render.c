/* test_render.c: 'navbake render' draws what the bundle holds.
 *
 * Each picture is made by the navbake command and read back without the
 * renderer's code (imageread.c: libpng for PNG; an XML checker and shape
 * evaluator for SVG).  At every cell of the window the colour must be the
 * one the map, the paper's square growing (brute_clearance) and a
 * breadth-first search (brute_components) say it is:
 *  - terrain: the terrain of the cell's map character, obstacles dark;
 *  - clearance: the heat colour of the brute clearance, capped;
 *  - components: one colour per brute component, distinct between
 *    components, grey where the agent cannot stand;
 *  - paths: the start and goal marks, the line through every cell's centre.
 * Pictures have the expected size (scale, window, legend), SVG and PNG
 * agree pixel for pixel over the map, and the legend shows every heat
 * colour. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "brute.h"
#include "json.h"
#include "clearance/clearance.h"
#include "imageread.h"
#include "render.h"
#include "testutil.h"

static nbi_legend legend;
static const char *navbake;

static nb_status bake(const char *path, const nbi_agentset *agents, const nbb_grid *grid,
                      nb_err *err)
{
    return tu_write_cleared(path, &legend, agents, grid, 0, err);
}

static const char *fmts[2] = {"svg", "png"};

static ir_image *render(const char *bundle, const char *out, const char *args)
{
    int rc = tu_system("%s render %s -o %s %s", navbake, bundle, out, args);
    if (rc != 0) {
        diag("navbake render %s -o %s %s: exit %d", bundle, out, args, rc);
        return NULL;
    }
    char why[256];
    ir_image *im = ir_read(out, why);
    if (!im)
        diag("%s", why);
    return im;
}

/* A JSON file a command wrote, parsed (NULL when it cannot be). */
static nbj *load_json(const char *path)
{
    char *text = tu_read(path, NULL);
    nbj *root = NULL;
    nb_err err;
    if (text && nbj_parse(text, strlen(text), path, &root, &err) != NB_OK)
        root = NULL;
    free(text);
    return root;
}

static uint32_t terrain_expected(const nbb_grid *g, long x, long y)
{
    int t = legend.code[g->cells[(size_t)y * g->width + (size_t)x]];
    return t == NBI_CELL_OBSTACLE ? NBR_OBSTACLE : nbr_terrain_colour(legend.names[t], (unsigned)t);
}

static uint32_t excluded_expected(const nbb_grid *g, long x, long y)
{
    return legend.code[g->cells[(size_t)y * g->width + (size_t)x]] == NBI_CELL_OBSTACLE
               ? NBR_OBSTACLE
               : NBR_EXCLUDED;
}

/* The colour at the centre of every cell of the window (x0, y0, w, h)
 * drawn at scale s, against expected(); returns the number of cells that
 * differ (and reports the first). */
typedef uint32_t (*expect_fn)(const nbb_grid *g, long x, long y, const void *ctx);

static size_t check_cells(const ir_image *im, const nbb_grid *g, long x0, long y0, long w, long h,
                          unsigned s, expect_fn expected, const void *ctx)
{
    size_t bad = 0;
    for (long y = 0; y < h; y++)
        for (long x = 0; x < w; x++) {
            uint32_t want = expected(g, x0 + x, y0 + y, ctx);
            uint32_t got = ir_pixel(im, (uint32_t)(x * s + s / 2), (uint32_t)(y * s + s / 2));
            if (got != want && bad++ == 0)
                diag("cell (%ld, %ld): #%06x, expected #%06x", x0 + x, y0 + y, got, want);
        }
    return bad;
}

static uint32_t want_terrain(const nbb_grid *g, long x, long y, const void *ctx)
{
    (void)ctx;
    return terrain_expected(g, x, y);
}

struct heat_ctx {
    nb_capability cap;
    unsigned capsize;
};

static uint32_t want_heat(const nbb_grid *g, long x, long y, const void *ctx)
{
    const struct heat_ctx *h = ctx;
    unsigned v = brute_clearance(&legend, g, h->cap, x, y, h->capsize);
    return v ? nbr_heat_colour(v, h->capsize) : excluded_expected(g, x, y);
}

/* Components: the picture's colours partition the standable cells
 * exactly as the brute labels do. */
static void check_components(const ir_image *im, const nbb_grid *g, nb_capability cap,
                             unsigned size, unsigned s, const char *what)
{
    size_t n = (size_t)g->width * g->height, bad = 0;
    uint32_t *label = malloc(n * sizeof *label);
    uint32_t count = brute_components(&legend, g, cap, size, BRUTE_STRICT, label);
    uint32_t *colour_of = calloc((size_t)count + 1, sizeof *colour_of);
    for (size_t i = 0; i < n && bad == 0; i++) {
        long x = (long)(i % g->width), y = (long)(i / g->width);
        uint32_t got = ir_pixel(im, (uint32_t)(x * s + s / 2), (uint32_t)(y * s + s / 2));
        if (!label[i]) {
            if (got != excluded_expected(g, x, y) && bad++ == 0)
                diag("%s: cell (%ld, %ld) cannot be stood on but is #%06x", what, x, y, got);
            continue;
        }
        if (got == NBR_EXCLUDED || got == NBR_OBSTACLE) {
            if (bad++ == 0)
                diag("%s: cell (%ld, %ld) is standable but grey", what, x, y);
            continue;
        }
        if (!colour_of[label[i]]) {
            for (uint32_t k = 1; k <= count; k++)
                if (colour_of[k] == (got | 0x1000000u) && bad++ == 0)
                    diag("%s: two components share colour #%06x", what, got);
            colour_of[label[i]] = got | 0x1000000u;
        } else if (colour_of[label[i]] != (got | 0x1000000u) && bad++ == 0) {
            diag("%s: cell (%ld, %ld) is #%06x, not its component's colour", what, x, y, got);
        }
    }
    is_int(bad, 0, "%s: %u components, each in its own colour", what, count);
    free(label);
    free(colour_of);
}

/* SVG and PNG agree at every pixel of a region. */
static void check_agree(const ir_image *a, const ir_image *b, uint32_t w, uint32_t h,
                        const char *what)
{
    size_t bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            if (ir_pixel(a, x, y) != ir_pixel(b, x, y) && bad++ == 0)
                diag("pixel (%u, %u): svg #%06x, png #%06x", x, y, ir_pixel(a, x, y),
                     ir_pixel(b, x, y));
    is_int(bad, 0, "%s: SVG and PNG agree at every pixel of the map", what);
}

/* An independent SVG renderer, when one is installed (librsvg's
 * rsvg-convert): its picture must have our PNG's colour at every cell
 * centre.  Returns the number of cells that differ, or -1 without it. */
static int have_rsvg = -1;

static long rsvg_agrees(const char *svg, const ir_image *png, uint32_t w, uint32_t h, unsigned s)
{
    if (have_rsvg < 0)
        have_rsvg = tu_system("command -v rsvg-convert >/dev/null 2>&1") == 0;
    if (!have_rsvg || !png)
        return -1;
    char out[4096], why[256];
    snprintf(out, sizeof out, "%s.rsvg.png", svg);
    if (tu_system("rsvg-convert -o %s %s", out, svg) != 0)
        return (long)w * h;
    ir_image *im = ir_read(out, why);
    if (!im)
        return (long)w * h;
    long bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t a = ir_pixel(im, x * s + s / 2, y * s + s / 2),
                     b = ir_pixel(png, x * s + s / 2, y * s + s / 2);
            if (a != b && bad++ == 0)
                diag("cell (%u, %u): rsvg-convert #%06x, ours #%06x", x, y, a, b);
        }
    ir_free(im);
    return bad;
}

static void check_rsvg(const char *svg, const ir_image *png, const nbb_grid *g, unsigned s,
                       const char *what)
{
    long bad = rsvg_agrees(svg, png, g->width, g->height, s);
    if (bad < 0)
        skip(1, "rsvg-convert is not installed: %s not drawn by another renderer", what);
    else
        is_int(bad, 0, "%s: rsvg-convert draws the SVG with the PNG's colour at every cell", what);
}

static void test_level(const char *name, const char *map, const char *agents_yaml, unsigned s)
{
    const char *dir = tu_tmpdir();
    nb_err err;
    nbb_grid g;
    nbi_agentset agents;
    if (nbb_map_read(map, &legend, 1, &g, &err) != NB_OK ||
        nbb_agents_read(agents_yaml, &legend, &agents, &err) != NB_OK) {
        ok(0, "%s: read: %s", name, err.msg);
        return;
    }
    char bundle[4096];
    snprintf(bundle, sizeof bundle, "%s", tu_path(dir, "level.nbk"));
    is_int(bake(bundle, &agents, &g, &err), NB_OK, "%s: baked", name);
    char args[512];
    int formats = nbr_png_supported() ? 2 : 1;
    ir_image *pic[2] = {NULL, NULL};

    /* terrain */
    for (int f = 0; f < formats; f++) {
        char out[64];
        snprintf(out, sizeof out, "terrain.%s", fmts[f]);
        snprintf(args, sizeof args, "--scale %u --no-legend terrain", s);
        ir_image *im = pic[f] = render(bundle, tu_path(dir, out), args);
        if (!ok(im != NULL, "%s: terrain as %s", name, fmts[f]))
            continue;
        is_str(ir_kind(im), fmts[f], "%s: a well-formed %s", name, fmts[f]);
        ok(ir_width(im) == g.width * s && ir_height(im) == g.height * s,
           "%s: %s of %u x %u cells at %u pixels a cell is %u x %u", name, fmts[f], g.width,
           g.height, s, ir_width(im), ir_height(im));
        is_int(check_cells(im, &g, 0, 0, g.width, g.height, s, want_terrain, NULL), 0,
               "%s: every cell in its terrain's colour (%s)", name, fmts[f]);
    }
    if (pic[0] && pic[1])
        check_agree(pic[0], pic[1], g.width * s, g.height * s, name);
    if (pic[1])
        check_rsvg(tu_path(dir, "terrain.svg"), pic[1], &g, s, name);
    ir_free(pic[0]);
    ir_free(pic[1]);

    /* clearance, for every capability of the agent set */
    nb_capability caps[NB_MAX_AGENTS];
    size_t ncaps = nbi_agents_capabilities(&agents, caps);
    unsigned capsize = nbi_agents_max_size(&agents);
    for (size_t c = 0; c < ncaps; c++) {
        char capname[256];
        nbi_capability_format(&legend, caps[c], capname, sizeof capname);
        struct heat_ctx h = {caps[c], capsize};
        pic[0] = pic[1] = NULL;
        for (int f = 0; f < formats; f++) {
            char out[64];
            snprintf(out, sizeof out, "clearance%zu.%s", c, fmts[f]);
            snprintf(args, sizeof args, "--scale %u --no-legend --capability %s clearance", s,
                     capname);
            ir_image *im = pic[f] = render(bundle, tu_path(dir, out), args);
            if (!ok(im != NULL, "%s: clearance {%s} as %s", name, capname, fmts[f]))
                continue;
            is_int(check_cells(im, &g, 0, 0, g.width, g.height, s, want_heat, &h), 0,
                   "%s: clearance {%s} (%s): every cell the heat of its true clearance", name,
                   capname, fmts[f]);
        }
        if (pic[0] && pic[1])
            check_agree(pic[0], pic[1], g.width * s, g.height * s, capname);
        if (pic[1]) {
            char svg[64];
            snprintf(svg, sizeof svg, "clearance%zu.svg", c);
            check_rsvg(tu_path(dir, svg), pic[1], &g, s, capname);
        }
        ir_free(pic[0]);
        ir_free(pic[1]);
    }

    /* components, for every (capability, size) */
    uint32_t sizes[NB_MAX_AGENTS];
    size_t nsizes = nbi_agents_sizes(&agents, sizes);
    for (size_t c = 0; c < ncaps; c++)
        for (size_t k = 0; k < nsizes; k++) {
            char capname[256], what[300];
            nbi_capability_format(&legend, caps[c], capname, sizeof capname);
            snprintf(what, sizeof what, "%s: components {%s} size %u", name, capname, sizes[k]);
            const char *f = fmts[formats - 1];
            char out[64];
            snprintf(out, sizeof out, "components.%s", f);
            snprintf(args, sizeof args, "--scale %u --no-legend -c %s -z %u components", s, capname,
                     sizes[k]);
            ir_image *im = render(bundle, tu_path(dir, out), args);
            if (ok(im != NULL, "%s (%s)", what, f))
                check_components(im, &g, caps[c], sizes[k], s, what);
            ir_free(im);
        }

    /* a window */
    long wx = g.width / 4, wy = g.height / 4, ww = g.width / 2 ? g.width / 2 : 1,
         wh = g.height / 2 ? g.height / 2 : 1;
    for (int f = 0; f < formats; f++) {
        char out[64];
        snprintf(out, sizeof out, "window.%s", fmts[f]);
        snprintf(args, sizeof args, "--scale 3 --no-legend --window %ld,%ld,%ld,%ld", wx, wy, ww,
                 wh);
        ir_image *im = render(bundle, tu_path(dir, out), args);
        if (!ok(im != NULL, "%s: a window as %s", name, fmts[f]))
            continue;
        ok(ir_width(im) == ww * 3 && ir_height(im) == wh * 3, "%s: the window is %ld x %ld cells (%s)",
           name, ww, wh, fmts[f]);
        is_int(check_cells(im, &g, wx, wy, ww, wh, 3, want_terrain, NULL), 0,
               "%s: the window shows its own cells (%s)", name, fmts[f]);
        ir_free(im);
    }

    /* the legend: under the map, every heat colour in it */
    for (int f = 0; f < formats; f++) {
        char out[64], capname[256];
        nbi_capability_format(&legend, caps[0], capname, sizeof capname);
        snprintf(out, sizeof out, "legend.%s", fmts[f]);
        snprintf(args, sizeof args, "--scale %u -c %s clearance", s, capname);
        ir_image *im = render(bundle, tu_path(dir, out), args);
        if (!ok(im != NULL, "%s: with a legend (%s)", name, fmts[f]))
            continue;
        uint32_t mapw = g.width * s, width = mapw < 256 ? 256 : mapw;
        ok(ir_width(im) == width && ir_height(im) > g.height * s,
           "%s: the legend is a strip under the map (%u x %u)", name, ir_width(im),
           ir_height(im));
        unsigned found = 0;
        for (unsigned v = 1; v <= capsize; v++) {
            int seen = 0;
            for (uint32_t y = g.height * s; y < ir_height(im) && !seen; y++)
                for (uint32_t x = 0; x < ir_width(im) && !seen; x++)
                    seen = ir_pixel(im, x, y) == nbr_heat_colour(v, capsize);
            found += (unsigned)seen;
        }
        is_int(found, capsize, "%s: the legend shows all %u heat colours (%s)", name, capsize,
               fmts[f]);
        ir_free(im);
    }
    nbb_grid_free(&g);
}

/* A path of cells, from a text list and from JSON: its marks and line. */
static void test_paths(void)
{
    const char *dir = tu_tmpdir();
    nb_err err;
    nbb_grid g;
    nbi_agentset agents;
    if (nbb_map_read(tu_src("data/sample.map"), &legend, 1, &g, &err) != NB_OK ||
        nbb_agents_read(tu_src("data/sample-agents.yaml"), &legend, &agents, &err) != NB_OK) {
        ok(0, "paths: read: %s", err.msg);
        return;
    }
    char bundle[4096];
    snprintf(bundle, sizeof bundle, "%s", tu_path(dir, "paths.nbk"));
    bake(bundle, &agents, &g, &err);
    /* An L: right along row 20 from x = 2 to 12, then down to row 30. */
    static const char text[] = "# a path\n2 20\n3,20\n4 20\n5 20\n6 20\n7 20\n8 20\n9 20\n10 20\n"
                               "11 20\n12 20\n12 21\n12 22\n12 23\n12 24\n12 25\n12 26\n12 27\n"
                               "12 28\n12 29\n12 30\n";
    tu_write(tu_path(dir, "p.txt"), text, sizeof text - 1);
    static const char json[] = "{\"size\": 1, \"length\": 20,\n \"path\": [[40, 36], [41, 35], "
                               "{\"x\": 42, \"y\": 34}, [43, 33], [44, 32]]}\n";
    tu_write(tu_path(dir, "p.json"), json, sizeof json - 1);
    /* What 'navbake query --json --path' prints, one query a line: one
     * found, one without a path (only its ends are drawn). */
    static const char lines[] =
        "{\"method\": \"aa\", \"size\": 1, \"from\": [20, 5], \"to\": [22, 5], "
        "\"status\": \"found\", \"length\": 2, \"path\": [[20, 5], [21, 5], [22, 5]]}\n"
        "{\"method\": \"aa\", \"size\": 2, \"from\": [50, 20], \"to\": [56, 24], "
        "\"status\": \"no path\", \"length\": null}\n";
    tu_write(tu_path(dir, "q.json"), lines, sizeof lines - 1);
    int formats = nbr_png_supported() ? 2 : 1;
    /* And what navbake query really prints: a wagon (size 2) across the
     * level, drawn through the centre of its 2 x 2 square at every step. */
    char real[4096];
    snprintf(real, sizeof real, "%s", tu_path(dir, "real.json"));
    if (ok(tu_system("%s query %s -a wagon --from 2,20 --to 40,30 --json --path > %s", navbake,
                     bundle, real) == 0,
           "navbake query --json --path")) {
        nbj *root = load_json(real);
        const nbj *cells = nbj_get(root, "path");
        for (int f = 0; f < formats && cells; f++) {
            char out[64], args[512];
            snprintf(out, sizeof out, "real.%s", fmts[f]);
            snprintf(args, sizeof args, "--scale 8 --no-legend --path %s", real);
            ir_image *im = render(bundle, tu_path(dir, out), args);
            if (!ok(im != NULL, "the query's path drawn (%s)", fmts[f]))
                continue;
            size_t on = 0, n = 0;
            for (size_t i = 1; i + 1 < cells->n; i++) {
                double cx = cells->item[i].item[0].number + 1, cy = cells->item[i].item[1].number + 1;
                n++;
                on += ir_pixel(im, (uint32_t)(cx * 8), (uint32_t)(cy * 8)) == nbr_series_colour(0);
            }
            ok(n > 10 && on == n, "its line through the centre of the wagon's square at each of %zu steps (%s)",
               n, fmts[f]);
            is_int(ir_pixel(im, 3 * 8, 21 * 8), NBR_START, "its start (%s)", fmts[f]);
            is_int(ir_pixel(im, 41 * 8, 31 * 8), NBR_GOAL, "its goal (%s)", fmts[f]);
            ir_free(im);
        }
        nbj_free(root);
    }
    for (int f = 0; f < formats; f++) {
        char out[64], args[512];
        snprintf(out, sizeof out, "query.%s", fmts[f]);
        snprintf(args, sizeof args, "--scale 8 --no-legend --path %s", tu_path(dir, "q.json"));
        ir_image *im = render(bundle, tu_path(dir, out), args);
        if (ok(im != NULL, "JSON lines of queries drawn (%s)", fmts[f])) {
            is_int(ir_pixel(im, 20 * 8 + 4, 5 * 8 + 4), NBR_START, "query 1: start (%s)", fmts[f]);
            is_int(ir_pixel(im, 21 * 8 + 4, 5 * 8 + 4), nbr_series_colour(0),
                   "query 1: its line (%s)", fmts[f]);
            is_int(ir_pixel(im, 22 * 8 + 4, 5 * 8 + 4), NBR_GOAL, "query 1: goal (%s)", fmts[f]);
            is_int(ir_pixel(im, 51 * 8, 21 * 8), NBR_START,
                   "query 2 (no path): its start at the size-2 agent's centre (%s)", fmts[f]);
            is_int(ir_pixel(im, 57 * 8, 25 * 8), NBR_GOAL, "query 2: its goal (%s)", fmts[f]);
            is_int(ir_pixel(im, 54 * 8, 23 * 8), terrain_expected(&g, 54, 23),
                   "query 2: no line between them (%s)", fmts[f]);
        }
        ir_free(im);
    }
    for (int f = 0; f < formats; f++) {
        char out[64], args[512];
        snprintf(out, sizeof out, "path.%s", fmts[f]);
        snprintf(args, sizeof args, "--scale 8 --no-legend --path %s --path %s",
                 tu_path(dir, "p.txt"), tu_path(dir, "p.json"));
        ir_image *im = render(bundle, tu_path(dir, out), args);
        if (!ok(im != NULL, "paths drawn (%s)", fmts[f]))
            continue;
        is_int(ir_pixel(im, 2 * 8 + 4, 20 * 8 + 4), NBR_START, "text path: start marked (%s)",
               fmts[f]);
        is_int(ir_pixel(im, 12 * 8 + 4, 30 * 8 + 4), NBR_GOAL, "text path: goal marked (%s)",
               fmts[f]);
        size_t off = 0;
        for (int x = 4; x <= 11; x++)
            off += ir_pixel(im, (uint32_t)(x * 8 + 4), 20 * 8 + 4) != nbr_series_colour(0);
        for (int y = 22; y <= 28; y++)
            off += ir_pixel(im, 12 * 8 + 4, (uint32_t)(y * 8 + 4)) != nbr_series_colour(0);
        is_int(off, 0, "text path: its line through every cell's centre (%s)", fmts[f]);
        is_int(ir_pixel(im, 40 * 8 + 4, 36 * 8 + 4), NBR_START, "JSON path: start (%s)", fmts[f]);
        is_int(ir_pixel(im, 44 * 8 + 4, 32 * 8 + 4), NBR_GOAL, "JSON path: goal (%s)", fmts[f]);
        is_int(ir_pixel(im, 42 * 8 + 4, 34 * 8 + 4), nbr_series_colour(1),
               "JSON path: the second colour through its middle cell (%s)", fmts[f]);
        uint32_t far = terrain_expected(&g, 30, 5);
        is_int(ir_pixel(im, 30 * 8 + 4, 5 * 8 + 4), far, "cells away from paths keep their terrain");
        ir_free(im);
    }
    /* Footprints: a size-3 agent's squares cover cells off its line. */
    {
        const char *f = fmts[formats - 1];
        char out[64], args[512];
        snprintf(out, sizeof out, "foot.%s", f);
        snprintf(args, sizeof args, "--scale 8 --no-legend --size 3 --footprint --path %s",
                 tu_path(dir, "p.txt"));
        ir_image *im = render(bundle, tu_path(dir, out), args);
        if (ok(im != NULL, "footprints drawn")) {
            /* (5, 22): covered by the squares anchored at (3..5, 20) but
             * off the line, which runs through (x + 1.5, 21.5). */
            uint32_t base = terrain_expected(&g, 5, 22), got = ir_pixel(im, 5 * 8 + 1, 22 * 8 + 6);
            ok(got != base, "a footprint tints the cells it covers (#%06x over #%06x)", got, base);
            is_int(ir_pixel(im, 20 * 8 + 4, 20 * 8 + 4), terrain_expected(&g, 20, 20),
                   "and leaves the others alone");
            is_int(ir_pixel(im, (uint32_t)(3.5 * 8), (uint32_t)(21.5 * 8)), NBR_START,
                   "the start mark sits at the footprint's centre");
        }
        ir_free(im);
    }
    nbb_grid_free(&g);
}

/* A real multi-terrain map at one pixel per cell. */
static void test_shared(void)
{
    const char *map = tu_shared("maps/wc3/battleground.map");
    if (!map) {
        skip(3, "../shared/maps/wc3/battleground.map is not here (NB_SHARED)");
        return;
    }
    const char *dir = tu_tmpdir();
    nb_err err;
    nbb_grid g;
    nbi_agentset agents;
    nbb_map_read(map, &legend, 1, &g, &err);
    nbb_agents_read(tu_src("data/sample-agents.yaml"), &legend, &agents, &err);
    char bundle[4096];
    snprintf(bundle, sizeof bundle, "%s", tu_path(dir, "bg.nbk"));
    is_int(bake(bundle, &agents, &g, &err), NB_OK, "battleground baked");
    const char *f = fmts[nbr_png_supported() ? 1 : 0];
    char out[64];
    snprintf(out, sizeof out, "bg.%s", f);
    ir_image *im = render(bundle, tu_path(dir, out), "--scale 1 --no-legend -c ground,swamp,water clearance");
    if (ok(im && ir_width(im) == g.width && ir_height(im) == g.height,
           "battleground: %u x %u cells at one pixel a cell", g.width, g.height)) {
        struct heat_ctx h = {0, nbi_agents_max_size(&agents)};
        nbi_capability_parse(&legend, "ground,swamp,water", &h.cap, &err);
        tu_rng r = {99};
        size_t bad = 0;
        for (int i = 0; i < 2000; i++) {
            long x = tu_below(&r, g.width), y = tu_below(&r, g.height);
            bad += ir_pixel(im, (uint32_t)x, (uint32_t)y) != want_heat(&g, x, y, &h);
        }
        is_int(bad, 0, "battleground: 2000 random cells the heat of their true clearance");
    }
    ir_free(im);
    nbb_grid_free(&g);
}

/* Alpha blending as SVG and PNG define it, for translucent layers. */
static uint32_t blend(uint32_t under, uint32_t over, double a)
{
    uint32_t out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double u = (under >> sh) & 0xff, v = (over >> sh) & 0xff;
        out |= (uint32_t)lround(u * (1 - a) + v * a) << sh;
    }
    return out;
}

/* A forest of two circles whose geometry is known by hand: centres
 * (10, 10.05) and (30, 10.05), radius 2, an agent of radius 1.  The
 * inflated circles (radius 3) have the external bitangents y = 13.05 and
 * y = 7.05 between x = 10 and 30, which at 10 pixels a unit run through
 * the centres of pixel rows 69 and 129 (y up: row = (20 - y) 10). */
static void test_forest(void)
{
    const char *dir = tu_tmpdir();
    static const char yaml[] = "bounds: [0, 0, 40, 20]\ncircles:\n  - [10, 10.05, 2]\n"
                               "  - [30, 10.05, 2]\n";
    char fy[4096], bundle[4096], q[4096];
    snprintf(fy, sizeof fy, "%s", tu_path(dir, "f.yaml"));
    snprintf(bundle, sizeof bundle, "%s", tu_path(dir, "f.nbk"));
    snprintf(q, sizeof q, "%s", tu_path(dir, "fq.json"));
    tu_write(fy, yaml, sizeof yaml - 1);
    const char *top = getenv("top_builddir");
    if (!ok(tu_system("%s/tools/mkabstract --forest %s --agent-radius 1 -o %s", top ? top : ".", fy,
                      bundle) == 0 &&
                tu_system("%s query --forest %s --from 1,10.05 --to 39,10.05 -r 1 --json > %s",
                          navbake, bundle, q) == 0,
            "forest: baked and queried"))
        return;
    int formats = nbr_png_supported() ? 2 : 1;
    uint32_t inflated = blend(NBR_FOREST_GROUND, NBR_FOREST_INFLATED, 0.35);
    for (int f = 0; f < formats; f++) {
        char out[64], args[512];
        snprintf(out, sizeof out, "forest.%s", fmts[f]);
        ir_image *im = render(bundle, tu_path(dir, out), "--scale 10 --no-legend");
        if (!ok(im != NULL, "forest: drawn by default from a bundle without a map (%s)", fmts[f]))
            continue;
        ok(ir_width(im) == 400 && ir_height(im) == 200,
           "forest: its bounds, 40 x 20 units at 10 pixels a unit: %u x %u (%s)", ir_width(im),
           ir_height(im), fmts[f]);
        is_int(ir_pixel(im, 100, 99), NBR_FOREST_CIRCLE, "forest: a circle's centre (%s)", fmts[f]);
        is_int(ir_pixel(im, 300, 80), NBR_FOREST_CIRCLE, "forest: inside the other (%s)", fmts[f]);
        is_int(ir_pixel(im, 100, 74), inflated,
               "forest: 2.5 units above a centre, inside the inflated circle only (%s)", fmts[f]);
        is_int(ir_pixel(im, 200, 170), NBR_FOREST_GROUND, "forest: open ground (%s)", fmts[f]);
        ir_free(im);

        snprintf(out, sizeof out, "graph.%s", fmts[f]);
        im = render(bundle, tu_path(dir, out), "--scale 10 --no-legend -r 1 forest bitangent");
        if (ok(im != NULL, "forest: the bitangent graph (%s)", fmts[f])) {
            uint32_t line = blend(NBR_FOREST_GROUND, NBR_FOREST_BITANGENT, 0.6);
            is_int(ir_pixel(im, 200, 69), line, "forest: the upper external bitangent (%s)", fmts[f]);
            is_int(ir_pixel(im, 200, 129), line, "forest: the lower one (%s)", fmts[f]);
            is_int(ir_pixel(im, 200, 40), NBR_FOREST_GROUND, "forest: nothing above them (%s)",
                   fmts[f]);
            if (f == 1)
                is_int(ir_pixel(im, 70, 99), NBR_FOREST_ARC,
                       "forest: the free arc round the inflated circle (png)");
        }
        ir_free(im);

        /* The path the query found, from its JSON. */
        snprintf(out, sizeof out, "fpath.%s", fmts[f]);
        snprintf(args, sizeof args, "--scale 10 --no-legend forest --path %s", q);
        im = render(bundle, tu_path(dir, out), args);
        nbj *root = load_json(q);
        if (ok(im && root,
               "forest: the query's path drawn (%s)", fmts[f])) {
            is_int(ir_pixel(im, 10, 99), NBR_START, "forest path: start (%s)", fmts[f]);
            is_int(ir_pixel(im, 390, 99), NBR_GOAL, "forest path: goal (%s)", fmts[f]);
            const nbj *pieces = nbj_get(root, "segments");
            size_t on = 0, lines = 0;
            for (size_t i = 0; pieces && i < pieces->n; i++) {
                const nbj *pc = &pieces->item[i], *from = nbj_get(pc, "from"), *to = nbj_get(pc, "to");
                if (strcmp(nbj_get(pc, "kind")->string, "arc") == 0 && f == 1) {
                    /* An arc's middle (the SVG reader skips arcs). */
                    const nbj *cen = nbj_get(pc, "centre");
                    double a = nbj_get(pc, "start_angle")->number + nbj_get(pc, "sweep")->number / 2,
                           r = nbj_get(pc, "radius")->number;
                    double ax = cen->item[0].number + r * cos(a), ay = cen->item[1].number + r * sin(a);
                    lines++;
                    on += ir_pixel(im, (uint32_t)(ax * 10), (uint32_t)((20 - ay) * 10)) ==
                          nbr_series_colour(0);
                }
                if (strcmp(nbj_get(pc, "kind")->string, "line") != 0)
                    continue;
                double mx = (from->item[0].number + to->item[0].number) / 2,
                       my = (from->item[1].number + to->item[1].number) / 2;
                if (mx < 3 || mx > 37)
                    continue; /* under the start or goal mark */
                lines++;
                on += ir_pixel(im, (uint32_t)(mx * 10), (uint32_t)((20 - my) * 10)) ==
                      nbr_series_colour(0);
            }
            ok(lines > 0 && on == lines, "forest path: the middle of each of its %zu pieces (%s)",
               lines, fmts[f]);
        }
        nbj_free(root);
        ir_free(im);
    }
    /* A world window: the left circle only, 20 x 20 units. */
    {
        const char *f = fmts[formats - 1];
        char out[64];
        snprintf(out, sizeof out, "fwin.%s", f);
        ir_image *im = render(bundle, tu_path(dir, out), "--scale 10 --no-legend --window 0,0,20,20");
        if (ok(im && ir_width(im) == 200 && ir_height(im) == 200, "forest: a window of 20 x 20 units"))
            is_int(ir_pixel(im, 100, 199 - 100), NBR_FOREST_CIRCLE,
                   "forest: the window's circle where it should be");
        ir_free(im);
    }
    ok(tu_system("%s render %s -o %s -r 2 bitangent 2>/dev/null", navbake, bundle,
                 tu_path(dir, "x.svg")) == 1,
       "forest: a radius without a baked graph is refused");
    ok(tu_system("%s render %s -o %s forest terrain 2>/dev/null", navbake, bundle,
                 tu_path(dir, "x.svg")) == 2,
       "forest: forest and grid layers do not mix (usage error)");
}

/* A unit's hit-check table, decoded here from formats/hitcheck.md: for
 * start heading h0, how many curves touch each cell of the S x S window
 * (the stored quarter of the start headings turned to h0's).  Returns S
 * (0 on failure); count gets S * S values. */
static unsigned hitcheck_counts(const nb_bundle *b, const char *unit, unsigned h0, uint32_t **count)
{
    long i = nbi_section_index(b, NB_SEC_HITCHECK, unit, NULL, 0);
    const void *data;
    size_t len;
    nb_err err;
    if (i < 0 || nb_bundle_payload(b, (size_t)i, &data, &len, &err) != NB_OK)
        return 0;
    const uint8_t *p = data;
    uint32_t K = nbi_get32(p), N = nbi_get32(p + 4), S = nbi_get32(p + 8), all = nbi_get32(p + 12) & 1;
    uint32_t E = nbi_get32(p + 16), M = nbi_get32(p + 20);
    const uint8_t *off = p + 64, *index = off + (2 * N + 7) / 8 * 8;
    const uint8_t *bits = index + (all ? (4 * (E + 1) + 7) / 8 * 8 : 0) + 8 * (size_t)M + (M + 7) / 8 * 8;
    unsigned q = K / 4, r = h0 / q;
    int half = (int)S / 2;
    *count = calloc((size_t)S * S, sizeof **count);
    for (uint32_t h1 = 0; h1 < K; h1++)
        for (uint32_t o = 0; o < N; o++) {
            /* The stored entry: offset o turned back r quarter turns. */
            int x = (int8_t)off[2 * o], y = (int8_t)off[2 * o + 1];
            for (unsigned k = 0; k < r; k++) {
                int t = x;
                x = y;
                y = -t;
            }
            uint32_t co = 0;
            while ((int8_t)off[2 * co] != x || (int8_t)off[2 * co + 1] != y)
                co++;
            size_t e = ((size_t)(h0 % q) * K + (h1 + K - r * q) % K) * N + co;
            uint32_t first = all ? nbi_get32(index + 4 * e) : (uint32_t)e;
            uint32_t n = all ? nbi_get32(index + 4 * (e + 1)) - first : 1;
            for (uint32_t c = first; c < first + n; c++)
                for (uint32_t bit = 0; bit < S * S; bit++) {
                    size_t at = (size_t)c * S * S + bit;
                    if (!(bits[at / 8] >> (at % 8) & 1))
                        continue;
                    int cx = (int)(bit % S) - half, cy = (int)(bit / S) - half;
                    for (unsigned k = 0; k < r; k++) {
                        int t = cx;
                        cx = -cy;
                        cy = t;
                    }
                    (*count)[(size_t)(cy + half) * S + (size_t)(cx + half)]++;
                }
        }
    return S;
}

/* Units: a planned path (navbake plan --unit --json) over the map, its
 * footprint, and the hit-check table's footprints for a start heading. */
static void test_units(void)
{
    const char *dir = tu_tmpdir(), *top = getenv("top_builddir");
    char bundle[4096], plan[4096], none[4096];
    snprintf(bundle, sizeof bundle, "%s", tu_path(dir, "u.nbk"));
    snprintf(plan, sizeof plan, "%s", tu_path(dir, "plan.json"));
    snprintf(none, sizeof none, "%s", tu_path(dir, "none.json"));
    if (!ok(tu_system("%s/tools/mkclear -q --agents %s %s -o %s && %s/tools/mkhitcheck -q -u %s -o %s",
                      top ? top : ".", tu_src("data/sample-agents.yaml"), tu_src("data/sample.map"),
                      bundle, top ? top : ".", tu_src("data/units/jeep.yaml"), bundle) == 0 &&
                tu_system("%s plan --unit jeep --from 3,3 --to 60,35 --json %s > %s", navbake,
                          bundle, plan) == 0,
            "units: jeep baked and planned"))
        return;
    /* A goal inside the walled yard's hole: a plan that finds nothing. */
    tu_system("%s plan --unit jeep --from 3,3 --to 13,9 --json %s > %s 2>/dev/null", navbake,
              bundle, none);
    nbb_grid g;
    nb_err err;
    nbb_map_read(tu_src("data/sample.map"), &legend, 1, &g, &err);
    int formats = nbr_png_supported() ? 2 : 1;
    nbj *root = load_json(plan);
    ok(root != NULL, "units: the plan's JSON");
    const nbj *segs = nbj_get(root, "segments");
    for (int f = 0; f < formats && segs; f++) {
        char out[64], args[512];
        snprintf(out, sizeof out, "plan.%s", fmts[f]);
        snprintf(args, sizeof args, "--scale 16 --no-legend --footprint --path %s", plan);
        ir_image *im = render(bundle, tu_path(dir, out), args);
        if (!ok(im != NULL, "units: the plan drawn (%s)", fmts[f]))
            continue;
        is_int(ir_pixel(im, (uint32_t)(3.5 * 16), (uint32_t)(3.5 * 16)), NBR_START,
               "units: the plan's start (%s)", fmts[f]);
        is_int(ir_pixel(im, (uint32_t)(60.5 * 16), (uint32_t)(35.5 * 16)), NBR_GOAL,
               "units: its goal, the goal cell's centre (%s)", fmts[f]);
        size_t on = 0, band = 0, lines = 0;
        for (size_t i = 0; i < segs->n; i++) {
            const nbj *q = &segs->item[i];
            if (strcmp(nbj_get(q, "kind")->string, "line") != 0)
                continue;
            double h = nbj_get(q, "heading")->number * M_PI / 180, L = nbj_get(q, "length")->number;
            double mx = nbj_get(q, "x")->number + L / 2 * cos(h), my = nbj_get(q, "y")->number + L / 2 * sin(h);
            if (hypot(mx - 3.5, my - 3.5) < 1 || hypot(mx - 60.5, my - 35.5) < 1)
                continue;
            lines++;
            on += ir_pixel(im, (uint32_t)(mx * 16), (uint32_t)(my * 16)) == nbr_series_colour(0);
            /* 0.35 cells to the side: inside the disc's band (half its
             * width, 0.5), outside the line (2 pixels). */
            double bx = mx - 0.35 * sin(h), by = my + 0.35 * cos(h);
            uint32_t under = terrain_expected(&g, (long)bx, (long)by);
            band += ir_pixel(im, (uint32_t)(bx * 16), (uint32_t)(by * 16)) ==
                    blend(under, nbr_series_colour(0), 0.2);
        }
        ok(lines > 0 && on == lines, "units: the line through the middle of its %zu straight segments (%s)",
           lines, fmts[f]);
        is_int(band, lines, "units: the unit's width swept beside them (%s)", fmts[f]);
        ir_free(im);
    }
    nbj_free(root);
    {
        const char *f = fmts[formats - 1];
        char out[64], args[512];
        snprintf(out, sizeof out, "none.%s", f);
        snprintf(args, sizeof args, "--scale 16 --no-legend --path %s", none);
        ir_image *im = render(bundle, tu_path(dir, out), args);
        if (ok(im != NULL, "units: a plan that found nothing")) {
            is_int(ir_pixel(im, (uint32_t)(3.5 * 16), (uint32_t)(3.5 * 16)), NBR_START, "its start marked");
            is_int(ir_pixel(im, (uint32_t)(13.5 * 16), (uint32_t)(9.5 * 16)), NBR_GOAL, "its goal marked");
        }
        ir_free(im);
    }

    /* The hit-check table, every start heading, against its own decoding. */
    nb_bundle *b;
    if (nb_bundle_open(bundle, 0, NULL, &b, &err) != NB_OK) {
        ok(0, "units: open: %s", err.msg);
        nbb_grid_free(&g);
        return;
    }
    for (unsigned h0 = 0; h0 < 8; h0 += 3) {
        uint32_t *count = NULL, max = 0;
        unsigned S = hitcheck_counts(b, "jeep", h0, &count);
        for (size_t i = 0; i < (size_t)S * S; i++)
            max = count[i] > max ? count[i] : max;
        for (int f = 0; f < formats && S; f++) {
            char out[64], args[512];
            snprintf(out, sizeof out, "hc%u.%s", h0, fmts[f]);
            snprintf(args, sizeof args, "--scale 8 --no-legend --heading %u hitcheck", h0);
            ir_image *im = render(bundle, tu_path(dir, out), args);
            if (!ok(im && ir_width(im) == S * 8 && ir_height(im) == S * 8,
                    "hit-check table, heading %u: its %u x %u window (%s)", h0, S, S, fmts[f]))
                continue;
            size_t bad = 0;
            for (unsigned y = 0; y < S; y++)
                for (unsigned x = 0; x < S; x++) {
                    uint32_t k = count[y * S + x], want = k ? nbr_heat_colour(k, max) : NBR_UNTOUCHED;
                    uint32_t got = ir_pixel(im, x * 8 + 4, y * 8 + 4);
                    if (got != want && bad++ == 0)
                        diag("cell (%d, %d): #%06x, expected #%06x (%u curves)", (int)x - (int)(S - 1) / 2,
                             (int)y - (int)(S - 1) / 2, got, want, k);
                }
            is_int(bad, 0, "hit-check table, heading %u: each cell the heat of the curves touching it (%s)",
                   h0, fmts[f]);
            is_int(count[(S / 2) * S + S / 2], 0, "and the origin is never marked");
            ir_free(im);
        }
        free(count);
    }
    {
        const char *f = fmts[formats - 1];
        char out[64], base[64];
        snprintf(out, sizeof out, "curves.%s", f);
        snprintf(base, sizeof base, "hc0.%s", f);
        ir_image *im = render(bundle, tu_path(dir, out), "--scale 8 --no-legend hitcheck curves");
        char why[256];
        ir_image *plain = ir_read(tu_path(dir, base), why);
        if (ok(im && plain, "hit-check curves drawn")) {
            /* The straight curve east to (2, 0) runs through the centre of
             * cell (1, 0): lines are drawn over its footprint colour. */
            unsigned S = ir_width(im) / 8, c0 = (S - 1) / 2;
            ok(ir_pixel(im, (c0 + 1) * 8 + 4, c0 * 8 + 4) != ir_pixel(plain, (c0 + 1) * 8 + 4, c0 * 8 + 4),
               "a curve passes through cell (1, 0) from heading 0");
        }
        ir_free(im);
        ir_free(plain);
    }
    /* Motion models: a perimeter table slice and a motion plan. */
    if (ok(tu_system("%s/tools/mkperim -q -m %s -o %s", top ? top : ".",
                     tu_src("data/models/humanoid.yaml"), bundle) == 0 &&
               tu_system("%s plan --model humanoid --agent scout --from 5,5 --to 40,20 --json %s > %s",
                         navbake, bundle, plan) == 0,
           "motion: humanoid baked and planned")) {
        nb_bundle_close(b);
        nb_bundle_open(bundle, 0, NULL, &b, &err);
        nb_model *m = NULL;
        nb_perimeter *t = NULL;
        ok(nb_model_open(b, "humanoid", &m, &err) == NB_OK &&
               nb_perimeter_open(b, m, &t, &err) == NB_OK,
           "motion: the model and its table open");
        nb_motion_state goal = {40, 20, NB_HEADING_ANY, (uint16_t)nb_model_stop(m)};
        unsigned walk = (unsigned)tu_speed(m, "walk");
        double cost[64 * 40], max = 0;
        for (int y = 0; y < 40; y++)
            for (int x = 0; x < 64; x++) {
                nb_motion_state st = {x, y, 4, (uint16_t)walk};
                double c = NAN;
                if (nb_perimeter_lookup(t, &st, &goal, &c) == NB_PERIM_OUTSIDE)
                    c = NAN;
                cost[y * 64 + x] = c;
                max = c > max ? c : max;
            }
        for (int f = 0; f < formats; f++) {
            char out[64];
            snprintf(out, sizeof out, "perim.%s", fmts[f]);
            ir_image *im = render(bundle, tu_path(dir, out),
                                  "--scale 8 --no-legend perimeter --goal 40,20 -H 4 --speed walk");
            if (!ok(im != NULL, "motion: a perimeter slice (%s)", fmts[f]))
                continue;
            size_t bad = 0, inside = 0;
            for (int y = 0; y < 40; y++)
                for (int x = 0; x < 64; x++) {
                    if (x == 40 && y == 20)
                        continue; /* under the goal's ring */
                    double c = cost[y * 64 + x];
                    uint32_t want = isnan(c) ? NBR_WHITE : nbr_heat_fraction(1 - c / max);
                    inside += !isnan(c);
                    if (ir_pixel(im, (uint32_t)x * 8 + 4, (uint32_t)y * 8 + 4) != want && bad++ == 0)
                        diag("cell (%d, %d): #%06x, want #%06x (cost %g)", x, y,
                             ir_pixel(im, (uint32_t)x * 8 + 4, (uint32_t)y * 8 + 4), want, c);
                }
            ok(bad == 0 && inside == 31 * 31 - 1,
               "motion: the %zu cells within the table's radius the heat of their cost to the goal, "
               "the rest untouched (%s)", inside, fmts[f]);
            ir_free(im);
        }
        nb_perimeter_close(t);
        nb_model_close(m);
        nbj *mj = load_json(plan);
        if (mj) {
            const nbj *states = nbj_get(mj, "path");
            char args[512], out[64];
            snprintf(out, sizeof out, "mplan.%s", fmts[formats - 1]);
            snprintf(args, sizeof args, "--scale 8 --no-legend --path %s", plan);
            ir_image *im = render(bundle, tu_path(dir, out), args);
            if (ok(im && states && states->n > 2, "motion: the plan drawn")) {
                is_int(ir_pixel(im, 5 * 8 + 4, 5 * 8 + 4), NBR_START, "motion plan: start");
                is_int(ir_pixel(im, 40 * 8 + 4, 20 * 8 + 4), NBR_GOAL, "motion plan: goal");
                size_t on = 0, n = 0;
                for (size_t i = 0; i < states->n; i++) {
                    long x = (long)nbj_get(&states->item[i], "x")->number,
                         y = (long)nbj_get(&states->item[i], "y")->number;
                    if ((x == 5 && y == 5) || (x == 40 && y == 20))
                        continue;
                    n++;
                    on += ir_pixel(im, (uint32_t)x * 8 + 4, (uint32_t)y * 8 + 4) == nbr_series_colour(0);
                }
                ok(n > 0 && on == n, "motion plan: through the centre of each of its %zu states", n);
            }
            ir_free(im);
        }
        nbj_free(mj);
    }
    ok(tu_system("%s render %s -o %s --heading 9 hitcheck 2>/dev/null", navbake, bundle,
                 tu_path(dir, "x.svg")) == 1,
       "a heading the unit does not have is refused");
    ok(tu_system("%s render %s -o %s --unit car hitcheck 2>/dev/null", navbake, bundle,
                 tu_path(dir, "x.svg")) == 1,
       "an unknown unit is refused");
    nb_bundle_close(b);
    nbb_grid_free(&g);
}

/* The HAA* abstract graph, decoded here from formats/abstract.md: nodes,
 * and the node pairs joined by an edge (those that admit (cap, size)
 * when filter is set), inter or intra. */
typedef struct agraph {
    uint32_t cluster, nodes, pairs_intra, pairs_inter;
    uint16_t *xy;
    /* With stored paths: the cells of each drawn intra-edge's path, in
     * turn, and how many of them lie off the straight line between its
     * nodes. */
    uint32_t ncells, bends;
    uint16_t *cells;
} agraph;

/* Appends the stored path (nibble offset off, steps moves) from (x, y)
 * to g->cells; counts the cells off the segment from (x, y) to (ex, ey). */
static void agraph_path(agraph *g, const uint8_t *moves, uint32_t off, uint32_t steps, int x, int y,
                        int ex, int ey)
{
    static const int mdx[8] = {1, -1, 0, 0, 1, 1, -1, -1}, mdy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    int x0 = x, y0 = y;
    for (uint32_t k = 0; k < steps; k++) {
        uint32_t n = off + k;
        unsigned code = (moves[n / 2] >> (4 * (n % 2))) & 15u;
        x += mdx[code & 7];
        y += mdy[code & 7];
        g->cells = realloc(g->cells, 4 * ((size_t)g->ncells + 1));
        g->cells[2 * g->ncells] = (uint16_t)x;
        g->cells[2 * g->ncells + 1] = (uint16_t)y;
        g->ncells++;
        /* (x, y) on the segment: zero cross product, within its box. */
        long cross = (long)(ex - x0) * (y - y0) - (long)(ey - y0) * (x - x0);
        g->bends += cross != 0;
    }
}

static int agraph_read(const nb_bundle *b, int filter, nb_capability cap, unsigned size, agraph *g)
{
    long i = nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0);
    const void *data;
    size_t len;
    nb_err err;
    if (i < 0 || nb_bundle_payload(b, (size_t)i, &data, &len, &err) != NB_OK)
        return 0;
    const uint8_t *p = data;
    uint32_t N = nbi_get32(p + 8), ncaps = nbi_get32(p + 28), nsizes = nbi_get32(p + 32);
    uint32_t K = nbi_get32(p + 36) * nbi_get32(p + 40), V = nbi_get32(p + 44), E = nbi_get32(p + 48);
    uint32_t CX = nbi_get32(p + 36);
    size_t at = 64;
#define NEXT(bytes) (at = (at + (bytes) + 7) / 8 * 8)
    const uint8_t *caps = p + at;
    NEXT(4 * (size_t)ncaps);
    NEXT(4 * (size_t)nsizes); /* sizes */
    NEXT(4 * ((size_t)K + 1)); /* cluster_first */
    const uint8_t *xy = p + at;
    NEXT(4 * (size_t)V);
    const uint8_t *first = p + at;
    NEXT(4 * ((size_t)V + 1));
    const uint8_t *to = p + at;
    NEXT(4 * 2 * (size_t)E);
    const uint8_t *wt = p + at;
    NEXT(4 * 2 * (size_t)E);
    const uint8_t *ann = p + at;
    NEXT(2 * 2 * (size_t)E);
    const uint8_t *arc_path = p + at, *moves = NULL;
    int paths = nbi_get32(p + 56) & 1;
    if (paths) {
        NEXT(4 * 2 * (size_t)E);
        moves = p + at;
    }
#undef NEXT
    g->cluster = N;
    g->nodes = V;
    g->pairs_intra = g->pairs_inter = 0;
    g->xy = malloc(4 * (size_t)V + 4);
    for (uint32_t u = 0; u < V; u++) {
        g->xy[2 * u] = nbi_get16(xy + 4 * u);
        g->xy[2 * u + 1] = nbi_get16(xy + 4 * u + 2);
    }
    for (uint32_t u = 0; u < V; u++) {
        uint32_t last = UINT32_MAX;
        for (uint32_t a = nbi_get32(first + 4 * u); a < nbi_get32(first + 4 * (u + 1)); a++) {
            uint32_t w = nbi_get32(to + 4 * a);
            nb_capability ce = nbi_get32(caps + 4 * ann[2 * a]);
            if (w <= u || w == last || (filter && ((ce & ~cap) || ann[2 * a + 1] < size)))
                continue;
            last = w;
            uint32_t cu = (g->xy[2 * u + 1] / N) * CX + g->xy[2 * u] / N;
            uint32_t cw = (g->xy[2 * w + 1] / N) * CX + g->xy[2 * w] / N;
            if (cu == cw) {
                g->pairs_intra++;
                if (paths)
                    agraph_path(g, moves, nbi_get32(arc_path + 4 * a),
                                nbi_get16(wt + 4 * a) + nbi_get16(wt + 4 * a + 2),
                                g->xy[2 * u], g->xy[2 * u + 1], g->xy[2 * w], g->xy[2 * w + 1]);
            } else
                g->pairs_inter++;
        }
    }
    return 1;
}

/* With stored paths (mkabstract --paths) intra-edges follow them: the
 * centre of every cell on every path (but the nodes' own, under their
 * dots) is drawn in the intra-edge colour, paths that bend included. */
static void test_abstract_paths(const char *dir, const char *bundle)
{
    const char *top = getenv("top_builddir");
    char paths[4096];
    snprintf(paths, sizeof paths, "%s", tu_path(dir, "p.nbk"));
    if (!ok(tu_system("%s/tools/mkabstract -q --paths %s -o %s", top ? top : ".", bundle, paths) == 0,
            "abstract: the graph with stored paths baked"))
        return;
    if (!nbr_png_supported()) {
        skip(3, "no libpng: stored paths not checked in pixels");
        return;
    }
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(paths, 0, NULL, &b, &err) != NB_OK)
        return;
    agraph g = {0};
    int decoded = agraph_read(b, 0, 0, 0, &g);
    ok(decoded && g.ncells > 0, "abstract: %u path cells decoded", g.ncells);
    ok(g.bends > 0, "abstract: %u of them off the straight lines (the check can fail)", g.bends);
    ir_image *im = render(paths, tu_path(dir, "p.png"), "--scale 16 --no-legend abstract");
    size_t bad = 0;
    for (uint32_t i = 0; im && i < g.ncells; i++) {
        uint32_t x = g.cells[2 * i], y = g.cells[2 * i + 1], node = 0;
        for (uint32_t u = 0; u < g.nodes && !node; u++)
            node = g.xy[2 * u] == x && g.xy[2 * u + 1] == y;
        if (!node && ir_pixel(im, x * 16u + 8, y * 16u + 8) != NBR_ABSTRACT_INTRA && bad++ == 0)
            diag("cell (%u, %u) of a stored path: #%06x", x, y, ir_pixel(im, x * 16u + 8, y * 16u + 8));
    }
    ok(im && bad == 0, "abstract: intra-edges drawn along their stored paths (%zu cells off)", bad);
    ir_free(im);
    free(g.xy);
    free(g.cells);
    nb_bundle_close(b);
}

static void test_abstract(void)
{
    const char *dir = tu_tmpdir(), *top = getenv("top_builddir");
    char bundle[4096];
    snprintf(bundle, sizeof bundle, "%s", tu_path(dir, "a.nbk"));
    if (!ok(tu_system("%s/tools/mkclear -q --agents %s %s -o %s && %s/tools/mkabstract -q %s",
                      top ? top : ".", tu_src("data/sample-agents.yaml"), tu_src("data/sample.map"),
                      bundle, top ? top : ".", bundle) == 0,
            "abstract: the sample level's graph baked"))
        return;
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(bundle, 0, NULL, &b, &err) != NB_OK)
        return;
    nb_capability giant;
    nbi_capability_parse(&legend, "ground,swamp,trees", &giant, &err);
    static const struct {
        const char *args, *what;
        int filter;
        unsigned size;
    } runs[] = {{"", "every edge", 0, 0}, {"-a giant", "the edges a giant (size 3) may use", 1, 3}};
    int formats = nbr_png_supported() ? 2 : 1;
    for (size_t r = 0; r < 2; r++) {
        agraph g = {0};
        if (!ok(agraph_read(b, runs[r].filter, giant, runs[r].size, &g), "abstract: decoded"))
            continue;
        char args[512];
        snprintf(args, sizeof args, "--scale 16 --no-legend %s abstract", runs[r].args);
        ir_image *im = render(bundle, tu_path(dir, "a.svg"), args);
        if (ok(im != NULL, "abstract: %s (svg)", runs[r].what)) {
            uint32_t borders = (64 - 1) / g.cluster + (40 - 1) / g.cluster;
            is_int(ir_count(im, "polyline"), borders + g.pairs_intra + g.pairs_inter,
                   "abstract: %u borders, %u intra- and %u inter-edges as lines (%s)", borders,
                   g.pairs_intra, g.pairs_inter, runs[r].what);
            is_int(ir_count(im, "circle"), g.nodes, "abstract: a dot for each of its %u nodes", g.nodes);
        }
        ir_free(im);
        snprintf(args, sizeof args, "--scale 16 --no-legend %s abstract", runs[r].args);
        im = render(bundle, tu_path(dir, formats == 2 ? "a.png" : "a2.svg"), args);
        if (im) {
            size_t bad = 0;
            for (uint32_t u = 0; u < g.nodes; u++)
                bad += ir_pixel(im, g.xy[2 * u] * 16u + 8, g.xy[2 * u + 1] * 16u + 8) != NBR_ABSTRACT_NODE;
            is_int(bad, 0, "abstract: every node's cell centre is its dot (%s)", fmts[formats - 1]);
        }
        ir_free(im);
        free(g.xy);
        free(g.cells);
    }
    nb_bundle_close(b);
    test_abstract_paths(dir, bundle);
}

/* The JSON reader behind --path: values, escapes, located errors, and
 * every truncation and byte flip of a document refused or read, never a
 * crash (the sanitizer run watches). */
static void test_json(void)
{
    nbj *v;
    nb_err err;
    static const char doc[] = "{\"a\": [1, -2.5e1, true, false, null],\n \"s\": \"x\\u00e9\\ud83d\\ude00\\n\\\"\",\n \"o\": {}}";
    if (ok(nbj_parse(doc, sizeof doc - 1, "doc", &v, &err) == NB_OK, "JSON: a document parses")) {
        const nbj *a = nbj_get(v, "a"), *str = nbj_get(v, "s");
        ok(a && a->n == 5 && a->item[1].number == -25 && a->item[2].type == NBJ_TRUE &&
               a->item[4].type == NBJ_NULL,
           "JSON: numbers and literals");
        is_str(str ? str->string : "", "x\xc3\xa9\xf0\x9f\x98\x80\n\"", "JSON: escapes, UTF-8 and surrogate pairs");
        ok(nbj_get(v, "o") && nbj_get(v, "o")->type == NBJ_OBJECT && !nbj_get(v, "z"),
           "JSON: members found by name");
        nbj_free(v);
    }
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"", "doc:1:1: expected a value"},
        {"{\"a\" 1}", "doc:1:6: expected ':'"},
        {"[1,\n 2,,3]", "doc:2:4: expected a value"},
        {"[1 2]", "doc:1:4: expected ',' or ']'"},
        {"\"abc", "a string without its closing quote"},
        {"01", "more text after the JSON value"},
        {"1.", "expected a digit after '.'"},
        {"[1e999]", "a number out of range"},
        {"\"\\q\"", "a bad escape"},
        {"nul", "expected a value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nb_status st = nbj_parse(bad[i].text, strlen(bad[i].text), "doc", &v, &err);
        ok(st == NB_ERR_SYNTAX && strstr(err.msg, bad[i].msg), "JSON: bad document %zu refused: %s",
           i + 1, st == NB_OK ? "(parsed)" : err.msg);
        if (st == NB_OK)
            nbj_free(v);
    }
    char deep[NBJ_MAX_DEPTH + 10];
    memset(deep, '[', sizeof deep);
    ok(nbj_parse(deep, sizeof deep, "doc", &v, &err) == NB_ERR_SYNTAX && strstr(err.msg, "deeply"),
       "JSON: nesting beyond %d refused", NBJ_MAX_DEPTH);
    size_t n = sizeof doc - 1, parsed = 0, refused = 0;
    char buf[sizeof doc];
    tu_rng r = {7};
    for (size_t cut = 0; cut <= n; cut++) {
        nb_status st = nbj_parse(doc, cut, "doc", &v, &err);
        st == NB_OK ? (nbj_free(v), parsed++) : refused++;
    }
    for (int k = 0; k < 3000; k++) {
        memcpy(buf, doc, n);
        buf[tu_below(&r, (uint32_t)n)] = (char)tu_below(&r, 256);
        nb_status st = nbj_parse(buf, n, "doc", &v, &err);
        st == NB_OK ? (nbj_free(v), parsed++) : refused++;
    }
    ok(refused > 0 && parsed + refused == n + 1 + 3000,
       "JSON: %zu truncations and 3000 byte flips: %zu refused with a message, %zu read", n + 1,
       refused, parsed);
}

int main(void)
{
    test_json();
    nbi_legend_default(&legend);
    static char nb[4096];
    const char *top = getenv("top_builddir");
    snprintf(nb, sizeof nb, "%s/tools/navbake", top ? top : ".");
    navbake = nb;
    test_level("tiny", tu_src("tests/data/clearance-tiny.map"),
               tu_src("tests/data/clearance-tiny-agents.yaml"), 4);
    test_level("sample", tu_src("data/sample.map"), tu_src("data/sample-agents.yaml"), 5);
    test_paths();
    test_forest();
    test_units();
    test_abstract();
    test_shared();
    return done_testing();
}
