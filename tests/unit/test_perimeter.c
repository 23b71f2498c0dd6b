/* test_perimeter.c: perimeter heuristic tables.
 *  - an entry equals the cost a plain forward Dijkstra search (written
 *    here from formats/motion.md, not from the builder) finds from that
 *    state to the goal on an empty map, for a sample of states of each
 *    model, at a small radius and at the paper's radius 15;
 *  - every layout answers what the full table answers for every goal it
 *    covers and every state of the window: goals at other headings are
 *    reached through rotations and reflections, so this checks those
 *    look-ups against tables built directly for each goal;
 *  - the sizes of the paper's Table 1 (radius 15, 4-byte entries), and
 *    that the reduced layouts are smaller still;
 *  - the extended heuristic is w_m times the table at half the offset. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/heap.h"
#include "motion/perimeter.h"
#include "testutil.h"

static const char *const models[] = {"humanoid", "tank", "vehicle"};

/* ---- an independent forward search on an empty map ---- */

typedef struct fwd {
    const nb_model *m;
    long area;
    unsigned w, sh;
    double *dist;
    uint32_t *pos;
    nbi_heap heap;
} fwd;

static void fwd_init(fwd *f, const nb_model *m, long area)
{
    f->m = m;
    f->area = area;
    f->w = (unsigned)(2 * area + 1);
    f->sh = nb_model_headings(m) * nb_model_speeds(m);
    size_t n = (size_t)f->w * f->w * f->sh;
    f->dist = malloc(n * sizeof *f->dist);
    f->pos = malloc(n * sizeof *f->pos);
    nbi_heap_init(&f->heap, NULL, 4096, f->pos);
}

static void fwd_free(fwd *f)
{
    free(f->dist);
    free(f->pos);
    nbi_heap_free(&f->heap);
}

static size_t fwd_id(const fwd *f, long x, long y, unsigned h, unsigned l)
{
    return ((size_t)(y + f->area) * f->w + (size_t)(x + f->area)) * f->sh + l * nb_model_headings(f->m) + h;
}

/* Cost from (x, y, h, l) to (0, 0, gh, gl); INFINITY when not reached. */
static double fwd_cost(fwd *f, long x, long y, unsigned h, unsigned l, unsigned gh, unsigned gl)
{
    const nb_model *m = f->m;
    unsigned H = nb_model_headings(m), S = nb_model_speeds(m), ch = nb_model_speed_change(m);
    size_t n = (size_t)f->w * f->w * f->sh;
    for (size_t i = 0; i < n; i++) {
        f->dist[i] = INFINITY;
        f->pos[i] = NBI_HEAP_NONE;
    }
    nbi_heap_clear(&f->heap);
    size_t goal = fwd_id(f, 0, 0, gh, gl), s = fwd_id(f, x, y, h, l);
    f->dist[s] = 0;
    nbi_heap_push(&f->heap, 0, 0, (uint32_t)s);
    while (!nbi_heap_empty(&f->heap)) {
        nbi_heap_item it = nbi_heap_pop(&f->heap);
        if (it.id == goal)
            return f->dist[goal];
        size_t id = it.id, cell = id / f->sh;
        unsigned st = (unsigned)(id % f->sh), cl = st / H, chh = st % H;
        long cx = (long)(cell % f->w) - f->area, cy = (long)(cell / f->w) - f->area;
        for (unsigned l2 = 0; l2 < S; l2++) {
            if ((l2 > cl ? l2 - cl : cl - l2) > ch)
                continue;
            double v = nb_model_speed(m, l2);
            int tl = (int)nb_model_turn(m, l2);
            for (int t = -tl; t <= tl; t++) {
                unsigned h2 = (unsigned)(((int)chh + t) % (int)H + (int)H) % H;
                int dx, dy;
                nb_model_offset(m, h2, &dx, &dy);
                long x2 = cx, y2 = cy;
                double c = nb_model_turn_cost(m) * abs(t);
                if (v == 0) {
                    c += nb_model_still_cost(m);
                } else {
                    x2 += v > 0 ? dx : -dx;
                    y2 += v > 0 ? dy : -dy;
                    c += sqrt((double)(dx * dx + dy * dy)) / fabs(v);
                }
                if (labs(x2) > f->area || labs(y2) > f->area)
                    continue;
                size_t id2 = fwd_id(f, x2, y2, h2, l2);
                if (id2 != id && f->dist[id] + c < f->dist[id2]) {
                    f->dist[id2] = f->dist[id] + c;
                    nbi_heap_push(&f->heap, f->dist[id2], 0, (uint32_t)id2);
                }
            }
        }
    }
    return INFINITY;
}

/* ---- tables in a bundle ---- */

typedef struct baked {
    nb_bundle *b;
    nb_model *m;
    nb_perimeter *p;
} baked;

static int bake(const char *model, unsigned radius, int layout, unsigned bits, int paper, int zlib,
                baked *out, nbb_perimeter_info *info)
{
    static nb_model src;
    nb_err err;
    nbb_builder *bl;
    nbb_perimeter_opts o = {.radius = radius, .layout = layout, .entry_bits = bits, .paper = paper,
                            .compress = zlib};
    char file[64];
    snprintf(file, sizeof file, "data/models/%s.yaml", model);
    const char *path = tu_path(tu_tmpdir(), "p.nbk");
    memset(out, 0, sizeof *out);
    if (nbb_model_read(tu_src(file), &src, &err) || nbb_builder_new(&bl, &err)) {
        diag("%s", err.msg);
        return 0;
    }
    nb_status st = nbb_put_model(bl, &src, &err);
    if (st == NB_OK)
        st = nbb_put_perimeter(bl, &src, &o, info, &err);
    if (st == NB_OK)
        st = nbb_builder_write(bl, path, &err);
    nbb_builder_free(bl);
    if (st == NB_OK)
        st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &out->b, &err);
    if (st == NB_OK)
        st = nb_model_open(out->b, model, &out->m, &err);
    if (st == NB_OK)
        st = nb_perimeter_open(out->b, out->m, &out->p, &err);
    if (st != NB_OK) {
        diag("%s %s: %s", model, nb_perimeter_layout_name(layout), err.msg);
        return 0;
    }
    return 1;
}

static void unbake(baked *k)
{
    nb_perimeter_close(k->p);
    nb_model_close(k->m);
    nb_bundle_close(k->b);
}

/* Entries against forward searches, for n random states around random goals. */
static void against_forward(const char *name, unsigned radius, int layout, unsigned bits, int n,
                            uint64_t seed, baked *have)
{
    baked k;
    if (have)
        k = *have;
    else if (!bake(name, radius, layout, bits, 0, 0, &k, NULL)) {
        ok(0, "%s: a radius %u %s table", name, radius, nb_perimeter_layout_name(layout));
        return;
    }
    unsigned H = nb_model_headings(k.m), S = nb_model_speeds(k.m), stop = nb_model_stop(k.m);
    fwd f;
    fwd_init(&f, k.m, 3 * (long)radius + 8);
    tu_rng r = {seed};
    int good = 0, exact = 0;
    double tol = bits == 16 ? 1.0 / 256 : 1e-5;
    for (int i = 0; i < n; i++) {
        nb_motion_state g = {0, 0, (uint16_t)tu_below(&r, H), (uint16_t)stop};
        nb_motion_state s = {(int32_t)tu_below(&r, 2 * radius + 1) - (int32_t)radius,
                             (int32_t)tu_below(&r, 2 * radius + 1) - (int32_t)radius,
                             (uint16_t)tu_below(&r, H), (uint16_t)tu_below(&r, S)};
        if (layout == NB_PERIM_FULL)
            g.speed = (uint16_t)tu_below(&r, S);
        if (layout == NB_PERIM_ROTATED)
            g.heading = (uint16_t)(tu_below(&r, 4) * (H / 4));
        double v, want = fwd_cost(&f, s.x, s.y, s.heading, s.speed, g.heading, g.speed);
        int res = nb_perimeter_lookup(k.p, &s, &g, &v);
        /* 16-bit entries are rounded down: never above, at most one unit below. */
        int agree = res == NB_PERIM_EXACT && v <= want + 1e-5 && v >= want - tol;
        good += agree;
        exact += res == NB_PERIM_EXACT;
        if (!agree)
            diag("%s: state (%d,%d,h%u,%s) goal h%u %s: table %g (%d), forward search %g", name, s.x,
                 s.y, s.heading, nb_model_speed_name(k.m, s.speed), g.heading,
                 nb_model_speed_name(k.m, g.speed), v, res, want);
    }
    is_int(good, n, "%s: radius %u %s table, %u-bit entries: %d sampled entries equal a forward "
           "search to the goal", name, radius, nb_perimeter_layout_name(layout), bits, n);
    fwd_free(&f);
    if (!have)
        unbake(&k);
}

/* Every state of the window, every goal a layout covers, against the
 * full table (built goal by goal, no symmetry used). */
static void layouts_agree(const char *name, unsigned radius, uint64_t seed)
{
    baked full;
    if (!bake(name, radius, NB_PERIM_FULL, 32, 1, 0, &full, NULL)) {
        ok(0, "%s: full table", name);
        return;
    }
    /* The reference itself, moving goals included. */
    against_forward(name, radius, NB_PERIM_FULL, 32, 12, seed, &full);
    unsigned H = nb_model_headings(full.m), S = nb_model_speeds(full.m);
    unsigned stop = nb_model_stop(full.m);
    long R = (long)radius;
    for (int layout = NB_PERIM_SPEED_LIMITED; layout <= NB_PERIM_ROTATED; layout++)
        for (int paper = 1; paper >= 0; paper--)
            for (unsigned bits = 32; bits >= 16; bits -= 16) {
                baked k;
                /* A table per goal heading takes a while: two variants do. */
                if (layout == NB_PERIM_SPEED_LIMITED && (bits == 32) != paper)
                    continue;
                if (!bake(name, radius, layout, bits, paper, bits == 16, &k, NULL)) {
                    ok(0, "%s %s", name, nb_perimeter_layout_name(layout));
                    continue;
                }
                long checked = 0, bad = 0, approx = 0, covered = 0, napprox = 0, wrong = 0;
                double tol = bits == 16 ? 1.0 / 256 : 1e-5;
                for (unsigned gh = 0; gh < H; gh++) {
                    nb_motion_state g = {0, 0, (uint16_t)gh, (uint16_t)stop};
                    int exact_goal = layout != NB_PERIM_ROTATED || gh % (H / 4) == 0;
                    covered += exact_goal;
                    for (long y = -R; y <= R; y++)
                        for (long x = -R; x <= R; x++)
                            for (unsigned l = 0; l < S; l++)
                                for (unsigned h = 0; h < H; h++) {
                                    nb_motion_state s = {(int32_t)x, (int32_t)y, (uint16_t)h,
                                                         (uint16_t)l};
                                    double want, v;
                                    nb_perimeter_lookup(full.p, &s, &g, &want);
                                    int res = nb_perimeter_lookup(k.p, &s, &g, &v);
                                    if (!exact_goal) {
                                        int at_goal = x == 0 && y == 0 && h == gh && l == stop;
                                        approx += res == NB_PERIM_APPROX || at_goal;
                                        wrong += res == NB_PERIM_EXACT && !at_goal;
                                        napprox++;
                                        continue;
                                    }
                                    checked++;
                                    if (res != NB_PERIM_EXACT || v > want + 1e-5 * (1 + want) ||
                                        v < want - tol - 1e-5 * want) {
                                        if (bad++ < 3)
                                            diag("%s %s: (%ld,%ld,h%u,l%u) goal h%u: %g (%d), full %g",
                                                 name, nb_perimeter_layout_name(layout), x, y, h, l,
                                                 gh, v, res, want);
                                    }
                                }
                }
                /* Goals at any heading (stopped, or at any speed: passing
                 * through): the least over the full table's goals. */
                for (int pass = 0; pass < 2; pass++) {
                    long anybad = 0;
                    for (long y = -R; y <= R; y++)
                        for (long x = -R; x <= R; x++)
                            for (unsigned l = 0; l < S; l++)
                                for (unsigned h = 0; h < H; h++) {
                                    nb_motion_state s = {(int32_t)x, (int32_t)y, (uint16_t)h, (uint16_t)l};
                                    nb_motion_state g = {0, 0, 0, 0};
                                    double want = INFINITY, v, u;
                                    for (unsigned gl = pass ? 0 : stop; gl <= (pass ? S - 1 : stop); gl++)
                                        for (unsigned gh = 0; gh < H; gh++) {
                                            g.heading = (uint16_t)gh;
                                            g.speed = (uint16_t)gl;
                                            nb_perimeter_lookup(full.p, &s, &g, &u);
                                            if (u < want)
                                                want = u;
                                        }
                                    g.heading = NB_HEADING_ANY;
                                    g.speed = pass ? NB_SPEED_ANY : (uint16_t)stop;
                                    int res = nb_perimeter_lookup(k.p, &s, &g, &v);
                                    if (x == 0 && y == 0 && (pass || l == stop))
                                        want = 0;
                                    /* Without its tables only the full layout answers moving goals. */
                                    if (paper && pass) {
                                        anybad += res != NB_PERIM_OUTSIDE && !(x == 0 && y == 0);
                                        continue;
                                    }
                                    int exact_any = !paper || layout != NB_PERIM_ROTATED;
                                    if (exact_any && (res != NB_PERIM_EXACT || v > want + 1e-5 * (1 + want) ||
                                                      v < want - tol - 1e-5 * want)) {
                                        if (anybad++ < 3)
                                            diag("%s %s any%s: (%ld,%ld,h%u,l%u): %g (%d), least of full %g",
                                                 name, nb_perimeter_layout_name(layout), pass ? "/pass" : "",
                                                 x, y, h, l, v, res, want);
                                    }
                                }
                    ok(anybad == 0, "%s: %s layout (%s symmetries, %u-bit): goals at any heading, %s, "
                       "get the least of the full table's values%s", name, nb_perimeter_layout_name(layout),
                       paper ? "paper's" : "all", bits, pass ? "any speed" : "stopped",
                       paper ? (pass ? " (none without the tables)" : " (by one look-up per heading)")
                             : " (one look-up)");
                }
                ok(bad == 0 && checked > 0,
                   "%s: %s layout (%s symmetries, %u-bit%s): the full table's value for all %ld "
                   "states around each of the %ld goal headings it covers",
                   name, nb_perimeter_layout_name(layout), paper ? "paper's" : "all", bits,
                   bits == 16 ? ", zlib" : "", checked, covered);
                if (layout == NB_PERIM_ROTATED)
                    ok(wrong == 0 && approx > napprox * 3 / 4,
                       "%s: rotated layout: goals between quarter turns: %ld of %ld states answered "
                       "(the rest rotate out of the window), all marked approximate", name, approx,
                       napprox);
                /* Goals that are not stopped: only the full layout has them. */
                nb_motion_state g = {0, 0, 0, (uint16_t)(stop + 1)}, s = {1, 1, 0, (uint16_t)stop};
                double v;
                is_int(nb_perimeter_lookup(k.p, &s, &g, &v), NB_PERIM_OUTSIDE,
                       "%s: %s layout: no answer for a moving goal", name,
                       nb_perimeter_layout_name(layout));
                unbake(&k);
            }
    /* Outside the window: no answer. */
    nb_motion_state g = {0, 0, 0, (uint16_t)stop}, s = {(int32_t)R + 1, 0, 0, (uint16_t)stop};
    double v;
    is_int(nb_perimeter_lookup(full.p, &s, &g, &v), NB_PERIM_OUTSIDE, "%s: beyond the radius: outside",
           name);
    unbake(&full);
}

/* The extended heuristic and the lower bound property. */
static void extended(const char *name)
{
    baked k;
    unsigned R = 6;
    if (!bake(name, R, NB_PERIM_SYMMETRIC, 32, 0, 0, &k, NULL)) {
        ok(0, "%s: table", name);
        return;
    }
    unsigned H = nb_model_headings(k.m), S = nb_model_speeds(k.m), stop = nb_model_stop(k.m);
    double w = nb_model_extended_weight(k.m), vmax = nb_model_top_speed(k.m);
    tu_rng r = {77};
    int good = 0, lower = 0, n = 200;
    nb_motion_state g = {100, 100, (uint16_t)tu_below(&r, H), (uint16_t)stop};
    for (int i = 0; i < n; i++) {
        long x = (long)tu_below(&r, 4 * R + 1) - 2 * (long)R, y = (long)tu_below(&r, 4 * R + 1) - 2 * (long)R;
        if (labs(x) <= (long)R && labs(y) <= (long)R)
            x = x < 0 ? x - (long)R : x + (long)R + 1;
        if (labs(x) > 2 * (long)R)
            x = x < 0 ? -2 * (long)R : 2 * (long)R;
        nb_motion_state s = {g.x + (int32_t)x, g.y + (int32_t)y, (uint16_t)tu_below(&r, H),
                             (uint16_t)tu_below(&r, S)};
        nb_motion_state half = s;
        half.x = g.x + (int32_t)(x >= 0 ? (x + 1) / 2 : -((-x + 1) / 2));
        half.y = g.y + (int32_t)(y >= 0 ? (y + 1) / 2 : -((-y + 1) / 2));
        double v, hv;
        int res = nb_perimeter_extended(k.p, &s, &g, &v);
        nb_perimeter_lookup(k.p, &half, &g, &hv);
        good += res == NB_PERIM_APPROX && fabs(v - w * hv) < 1e-9;
        double hs;
        nb_perimeter_lookup(k.p, &half, &g, &hs);
        lower += hs + 1e-6 >= hypot(half.x - g.x, half.y - g.y) / vmax;
    }
    is_int(good, n, "%s: beyond R, the extended heuristic is w_m = %g times the table at half the offset",
           name, w);
    is_int(lower, n, "%s: table values are at least the straight-line time", name);
    nb_motion_state far = {g.x + 2 * (int32_t)R + 1, g.y, 0, (uint16_t)stop};
    double v;
    is_int(nb_perimeter_extended(k.p, &far, &g, &v), NB_PERIM_OUTSIDE, "%s: beyond 2R: outside", name);
    unbake(&k);
}

/* Sizes at radius 15 computed from the layouts' geometry (as mkperim
 * stores them), against the paper's Table 1. */
static uint64_t layout_bytes(const nb_model *m, int layout, int paper, unsigned bits, unsigned radius)
{
    /* The any-heading table is an addition, left out of the comparison. */
    unsigned sym = nbi_perimeter_symmetries(m, layout, paper) & ~NBI_SYM_ANY, n;
    nbi_ptable tabs[NB_MODEL_MAX_HEADINGS * NB_MODEL_MAX_SPEEDS + 2];
    uint8_t cls[NB_MODEL_MAX_SPEEDS], krev[NB_MODEL_MAX_SPEEDS];
    unsigned K = nbi_perimeter_classes(m, sym, cls, krev);
    if (nbi_perimeter_goals(m, layout, sym, tabs, &n, NULL) != NB_OK)
        return 0;
    uint64_t total = 0;
    for (unsigned t = 0; t < n; t++) {
        nbi_pgeom g;
        if (nbi_pgeom_init(&g, NULL, radius, m->nheadings, K, krev, tabs[t].group, NULL) != NB_OK)
            return 0;
        total += nbi_pgeom_size(&g);
        nbi_pgeom_free(&g);
    }
    return total * bits / 8;
}

static void table1(void)
{
    /* The paper's figures, in its units: MB of 1,024,000 bytes (the
     * floppy-disk megabyte, 1000 KB) and k of 1024 bytes. */
    static const double paper[3][4] = {{8.6e3, 2.9e3, 360, 90},
                                       {19.6e3, 6.5e3, 810, 135},
                                       {24e3, 4.8e3, 600, 140}};
    /* Its formula: 961 cells x states x goal-tables x 4 bytes, a half
     * table counting 961 / 2 cells (goal-tables: H x S, H, 2 or 3, 0.5). */
    static const double states[3] = {48, 72, 80}, headings[3] = {16, 24, 16}, goals_sym[3] = {2, 3, 2};
    for (int i = 0; i < 3; i++) {
        nb_model m;
        nb_err err;
        char file[64];
        snprintf(file, sizeof file, "data/models/%s.yaml", models[i]);
        if (!ok(nbb_model_read(tu_src(file), &m, &err) == NB_OK, "%s reads", file)) {
            diag("%s", err.msg);
            continue;
        }
        double formula[4] = {961 * states[i] * states[i] * 4, 961 * states[i] * headings[i] * 4,
                             961 * states[i] * goals_sym[i] * 4, 961 * states[i] * 0.5 * 4};
        /* The mirror line's states that are their own mirror image (31
         * cells x 2 headings x speeds) are stored once, not halved. */
        double fixed = 31.0 * 2 * m.nspeeds / 2 * 4;
        double extra[4] = {0, 0, 2 * fixed, fixed};
        for (int layout = 0; layout < 4; layout++) {
            uint64_t ours = layout_bytes(&m, layout, 1, 32, 15);
            double unit = 1024.0, shown = ours / unit;
            is_int(ours, (uint64_t)(formula[layout] + extra[layout]),
                   "%s %s: %llu bytes with 4-byte entries: the paper's formula%s", models[i],
                   nb_perimeter_layout_name(layout), (unsigned long long)ours,
                   extra[layout] ? " plus the self-mirrored states of each half table" : "");
            int misprint = i == 2 && layout == 3;
            double rel = shown / paper[i][layout] - 1;
            if (misprint)
                ok(fabs(formula[layout] / unit / paper[i][layout] - 1) > 0.03,
                   "%s %s: the paper prints %g%s, which its own formula does not give (%.1f%s): a "
                   "misprint (formats/motion.md)", models[i], nb_perimeter_layout_name(layout),
                   layout < 2 ? paper[i][layout] / 1e3 : paper[i][layout], layout < 2 ? "MB" : "k",
                   layout < 2 ? formula[layout] / 1024e3 : formula[layout] / 1024,
                   layout < 2 ? "MB" : "k");
            else
                ok(fabs(rel) < 0.01, "%s %s: %.2f%s, the paper's %g%s to its rounding (within 1%%)",
                   models[i], nb_perimeter_layout_name(layout), layout < 2 ? shown / 1e3 : shown,
                   layout < 2 ? "MB" : "k",
                   layout < 2 ? paper[i][layout] / 1e3 : paper[i][layout], layout < 2 ? "MB" : "k");
            uint64_t beat = layout_bytes(&m, layout, 0, 16, 15);
            if (layout >= 2)
                ok(beat * 2 <= ours, "%s %s: %llu bytes with 16-bit entries and all symmetries, "
                   "half of the paper's or less", models[i], nb_perimeter_layout_name(layout),
                   (unsigned long long)beat);
        }
    }
}

int main(void)
{
    for (int i = 0; i < 3; i++) {
        layouts_agree(models[i], 3, 1 + i);
        against_forward(models[i], 8, NB_PERIM_SYMMETRIC, 16, 12, 11 + i, NULL);
        against_forward(models[i], 15, NB_PERIM_ROTATED, 16, 3, 21 + i, NULL);
        extended(models[i]);
    }
    table1();
    return done_testing();
}
