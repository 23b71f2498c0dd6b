/* test_world_opt.c: exact shortest paths across a world's tiles through the
 * overlay of the tiles' border cells (lib/runtime/stream/opt_world.c),
 * against Annotated A* on the same map baked whole, on three shared maps
 * cut into 4 x 4 tiles or more (data/sample.map in 4 x 3 tiles of 16 when
 * ../shared is not there: the same checks).
 *
 * - Every scenario line gets the whole bake's length and the file's (the
 *   lines whose ends are in different tiles, and those in one tile, where
 *   the path may leave it); every line with NB_WORLD_EVERY=1, else an even
 *   choice of at most 600 a map (the CI's time).
 * - Random pairs, sizes 1 and 2, both corner rules: the whole bake's
 *   length, or no path exactly when it finds none.
 * - Each tile's border data built from the tile bundle alone (its layer
 *   with the halo); the link refuses a move to a cell that is no border
 *   cell of the tile there.
 * - The packed rows (opt_pack.c) give back every distance the tile's
 *   search found; a row a byte short or long is refused by the link.
 * The sizes of the border data (packed, and as a u32 a pair) and the query
 * times are printed (diag); NB_WORLD_OPT_MAP=REL:TILE runs one other map. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream/opt_world.h"
#include "worldbake.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct opt_level {
    tw_level l;
    size_t nt;
    nbi_layer *lay;
    nbi_optb *b;
    nbi_optw w;
    nbi_csearch cs;
} opt_level;

/* The pairs of b whose packed row does not give back the distance the
 * tile's search found (a row refused counts its every pair). */
/* The pairs of b whose cardinal and diagonal steps (or whether they are
 * joined at all) differ from the cluster search's Dijkstra, the one the
 * clique was built with before opt_clique.c: the bytes border_opt packs
 * come from these and nothing else. */
static size_t clique_wrong(const nbi_optb *b, const nbi_layer *l, const nbi_wtile *t,
                           uint32_t size, int corner, nbi_csearch *cs)
{
    nbi_box box = {(int32_t)t->core_x, (int32_t)t->core_y, (int32_t)(t->core_x + t->core_w),
                   (int32_t)(t->core_y + t->core_h)};
    nb_cell *local = malloc((b->n + 1) * sizeof *local);
    size_t wrong = 0, n = b->n;
    for (size_t i = 0; i < n; i++)
        local[i] = (nb_cell){b->cell[i].x - (int32_t)t->origin_x, b->cell[i].y - (int32_t)t->origin_y};
    for (size_t i = 0; i < n; i++) {
        wrong += b->dist[i * n + i] != 0;
        nbi_csearch_run(cs, l, size, corner, &box, local[i], NULL, local, n);
        for (size_t j = 0; j < n; j++) {
            if (j == i)
                continue;
            uint32_t dg = 0;
            double d = nbi_csearch_cost(cs, local[j], &dg);
            size_t k = i * n + j;
            if (d < 0)
                wrong += b->dist[k] >= 0;
            else
                wrong += fabs(b->dist[k] - d) > 1e-9 || b->diag[k] != dg ||
                         b->card[k] != (uint32_t)lround(d - NBI_SQRT2 * dg);
        }
    }
    free(local);
    return wrong;
}

static size_t unpack_wrong(const nbi_optb *b)
{
    double *row = malloc(((size_t)b->n + 1) * sizeof *row);
    size_t wrong = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        if (!nbi_optb_unpack_row(b->packed + b->row[i], b->row[i + 1] - b->row[i], b->cell, b->n,
                                 i, row)) {
            wrong += b->n;
            continue;
        }
        for (uint32_t j = 0; j < b->n; j++) {
            double want = b->dist[(size_t)i * b->n + j];
            wrong += want < 0 ? row[j] != -1 : fabs(row[j] - want) > 1e-9;
        }
    }
    free(row);
    return wrong;
}

/* b written as its section and read back (the same portals, links and
 * rows, else 0), b then being the one read. */
static int through_section(nbi_optb *b, const nbi_wtile *t, nb_capability cap, uint32_t size,
                           int corner)
{
    uint8_t *p = NULL;
    size_t len = 0;
    nb_err err;
    nbi_optb r;
    uint32_t param[4] = {cap, size, (uint32_t)corner, b->n};
    if (nbi_oborder_put(b, t, cap, size, corner, NULL, &p, &len, &err) != NB_OK ||
        nbi_oborder_read(p, len, param, t, "tile", NULL, &r, &err) != NB_OK) {
        diag("%s", err.msg);
        free(p);
        return 0;
    }
    free(p);
    int same = len == nbi_optb_stored_bytes(b) && r.n == b->n && r.nlinks == b->nlinks && r.packed_len == b->packed_len &&
               !memcmp(r.cell, b->cell, b->n * sizeof *r.cell) &&
               !memcmp(r.row, b->row, (b->n + 1) * sizeof *r.row) &&
               !memcmp(r.packed, b->packed, b->packed_len) &&
               (!b->nlinks || (!memcmp(r.link_from, b->link_from, b->nlinks * sizeof *r.link_from) &&
                               !memcmp(r.link_to, b->link_to, b->nlinks * sizeof *r.link_to) &&
                               !memcmp(r.link_move, b->link_move, b->nlinks)));
    nbi_optb_free(b);
    *b = r;
    return same;
}

/* Every tile's border data and the overlay for (capability of agent, size,
 * corner); 0 after a failed test line. */
static int build(opt_level *o, nb_capability cap, uint32_t size, int corner)
{
    nb_err err;
    tw_world *wd = &o->l.wd;
    o->nt = (size_t)wd->w.columns * wd->w.rows;
    o->lay = calloc(o->nt, sizeof *o->lay);
    o->b = calloc(o->nt, sizeof *o->b);
    uint32_t side = wd->w.tile;
    if (!nbi_csearch_init(&o->cs, NULL, side, side))
        return ok(0, "%s: a search for a tile", o->l.what);
    double t_build = 0;
    uint64_t bytes = 0, plain = 0, portals = 0, most = 0;
    size_t unpacked_wrong = 0, clique_bad = 0;
    for (size_t k = 0; k < o->nt; k++) {
        double t0 = now();
        if (nbi_clearance_layer(wd->tiles[k], cap, &o->lay[k], &err) != NB_OK ||
            nbi_optb_build(&o->lay[k], &wd->tag[k], size, corner, NULL, &o->b[k], &err) != NB_OK)
            return ok(0, "%s: tile %zu's border data: %s", o->l.what, k, err.msg);
        t_build += now() - t0;
        unpacked_wrong += unpack_wrong(&o->b[k]);
        clique_bad += clique_wrong(&o->b[k], &o->lay[k], &wd->tag[k], size, corner, &o->cs);
        plain += nbi_optb_plain_bytes(&o->b[k]);
        /* What the overlay reads is the section the tile action writes, read back. */
        if (!through_section(&o->b[k], &wd->tag[k], cap, size, corner))
            return ok(0, "%s: tile %zu's border data through its section", o->l.what, k);
        bytes += nbi_optb_stored_bytes(&o->b[k]);
        portals += o->b[k].n;
        most = o->b[k].n > most ? o->b[k].n : most;
    }
    double t1 = now();
    is_int(clique_bad, 0, "%s: size %u, corner %d: every tile's clique is the cluster search's "
                          "(steps a pair, both ways)", o->l.what, size, corner);
    is_int(unpacked_wrong, 0, "%s: size %u, corner %d: every tile's packed rows give back its "
                              "distances", o->l.what, size, corner);
    if (!ok(nbi_optw_link(&o->w, o->b, wd->w.columns, wd->w.rows, side, wd->w.width,
                          wd->w.height, &err) == NB_OK,
            "%s: size %u, corner %d: the overlay links: %s", o->l.what, size, corner, err.msg))
        return 0;
    double cells = (double)wd->w.width * wd->w.height;
    diag("%s (tiles of %u, size %u, corner %d): %.1f portals a tile (most %llu), %.0f bytes a "
         "tile stored (%.3f a cell; a u32 a pair: %.3f), tiles' data %.1f ms each, link %.1f ms",
         o->l.what, side, size, corner, (double)portals / (double)o->nt,
         (unsigned long long)most, (double)bytes / (double)o->nt, (double)bytes / cells,
         (double)plain / cells, 1e3 * t_build / (double)o->nt, 1e3 * (now() - t1));
    return 1;
}

static void unbuild(opt_level *o)
{
    nbi_optw_free(&o->w);
    for (size_t k = 0; o->b && k < o->nt; k++)
        nbi_optb_free(&o->b[k]);
    free(o->b);
    free(o->lay);
    nbi_csearch_free(&o->cs);
    o->b = NULL, o->lay = NULL;
}

static size_t tile_no(const opt_level *o, nb_cell c)
{
    uint32_t side = o->l.wd.w.tile;
    return (size_t)((uint32_t)c.y / side) * o->l.wd.w.columns + (uint32_t)c.x / side;
}

/* The overlay's length from s to g (-1: none). */
static double opt_length(opt_level *o, uint32_t size, int corner, nb_cell s, nb_cell g,
                         uint64_t *expanded)
{
    size_t ks = tile_no(o, s), kg = tile_no(o, g);
    return nbi_optw_length(&o->w, o->b, &o->lay[ks], &o->l.wd.tag[ks], &o->lay[kg],
                           &o->l.wd.tag[kg], size, corner, &o->cs, s, g, expanded);
}

static double aa_length(nb_aa *aa, nb_capability cap, uint32_t size, int corner, nb_cell s,
                        nb_cell g)
{
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.start = s, q.goal = g, q.size = size, q.capability = cap;
    q.corner = corner == NBI_CORNER_STRICT ? NB_CORNER_STRICT : NB_CORNER_WEAK;
    nb_aa_result r;
    nb_err err;
    if (nb_aa_find(aa, &q, &r, &err) != NB_OK)
        return -3;
    return r.status == NB_PATH_FOUND ? r.length : -1;
}

/* Every scenario line (strict corners, size 1, as the files are made). */
static void check_scen(opt_level *o, nb_aa *aa, nb_capability cap, const char *scen_path)
{
    nbb_scen scen;
    nb_err err;
    if (!ok(nbb_scen_read(scen_path, &scen, &err) == NB_OK, "%s: scenarios read: %s", o->l.what,
            err.msg))
        return;
    const char *e = getenv("NB_WORLD_EVERY");
    size_t step = e && *e && strcmp(e, "0") != 0 ? 1 : scen.count / 600 + 1, checked = 0;
    size_t crossing = 0, wrong = 0, wrong_file = 0;
    double t_opt = 0, t_aa = 0;
    uint64_t settled = 0;
    for (size_t i = 0; i < scen.count; i++) {
        const nbb_scen_line *sl = &scen.lines[i];
        if (i % step)
            continue;
        checked++;
        crossing += tile_no(o, sl->start) != tile_no(o, sl->goal);
        uint64_t ex;
        double t0 = now();
        double got = opt_length(o, 1, NBI_CORNER_STRICT, sl->start, sl->goal, &ex);
        double t1 = now();
        double want = aa_length(aa, cap, 1, NBI_CORNER_STRICT, sl->start, sl->goal);
        t_aa += now() - t1;
        t_opt += t1 - t0;
        settled += ex;
        double tol = sl->decimals < 4 ? pow(10, -(double)sl->decimals) : 1e-4;
        if (fabs(got - want) > 1e-6 && !wrong++)
            diag("%s: scenario line %u, (%d, %d) to (%d, %d): %.6f, the whole bake's AA* %.6f",
                 o->l.what, sl->line, sl->start.x, sl->start.y, sl->goal.x, sl->goal.y, got, want);
        if (fabs(got - sl->optimal) > tol && !wrong_file++)
            diag("%s: scenario line %u: %.6f, the file says %.6f", o->l.what, sl->line, got,
                 sl->optimal);
    }
    ok(crossing >= checked / 2, "%s: %zu of %zu scenario lines checked (of %zu) cross tile borders",
       o->l.what, crossing, checked, scen.count);
    is_int(wrong, 0, "%s: every scenario line gets the whole bake's AA* length", o->l.what);
    is_int(wrong_file, 0, "%s: ... and the file's", o->l.what);
    diag("%s: %zu lines: overlay %.1f us a query (%.0f nodes settled), whole AA* %.1f us", o->l.what,
         checked, 1e6 * t_opt / (double)checked, (double)settled / (double)checked,
         1e6 * t_aa / (double)checked);
    nbb_scen_free(&scen);
}

static nb_cell any_cell(tu_rng *r, const nb_bundle *whole)
{
    return (nb_cell){(int32_t)tu_below(r, nb_map_width(whole)),
                     (int32_t)tu_below(r, nb_map_height(whole))};
}

/* Random pairs for (cap, size, corner): the whole bake's answer. */
static void check_pairs(opt_level *o, nb_aa *aa, nb_capability cap, uint32_t size, int corner,
                        int pairs, uint64_t seed)
{
    tu_rng r = {seed};
    const nb_bundle *whole = o->l.whole;
    int wrong = 0, found = 0, none = 0, same = 0;
    for (int i = 0; i < pairs; i++) {
        nb_cell s = any_cell(&r, whole), g = any_cell(&r, whole);
        for (int t = 0; t < 200 && nb_can_stand(whole, cap, size, s.x, s.y) != 1; t++)
            s = any_cell(&r, whole);
        /* One pair in four in one tile, where the path may still leave it. */
        uint32_t side = o->l.wd.w.tile;
        for (int t = 0; t < 200; t++) {
            if (i % 4 == 0)
                g = (nb_cell){(int32_t)(s.x / side * side + tu_below(&r, side)),
                              (int32_t)(s.y / side * side + tu_below(&r, side))};
            else
                g = any_cell(&r, whole);
            if ((uint32_t)g.x < nb_map_width(whole) && (uint32_t)g.y < nb_map_height(whole) &&
                nb_can_stand(whole, cap, size, g.x, g.y) == 1)
                break;
        }
        if (nb_can_stand(whole, cap, size, s.x, s.y) != 1 ||
            nb_can_stand(whole, cap, size, g.x, g.y) != 1)
            continue;
        uint64_t ex;
        double got = opt_length(o, size, corner, s, g, &ex);
        double want = aa_length(aa, cap, size, corner, s, g);
        found += want >= 0, none += want == -1;
        same += tile_no(o, s) == tile_no(o, g);
        if (fabs(got - want) > 1e-6 && !wrong++)
            diag("%s: size %u, corner %d: (%d, %d) to (%d, %d): %.6f, the whole bake's AA* %.6f",
                 o->l.what, size, corner, s.x, s.y, g.x, g.y, got, want);
    }
    is_int(wrong, 0, "%s: size %u, corner %d: %d pairs (%d found, %d none, %d in one tile), each "
                     "the whole bake's length",
           o->l.what, size, corner, pairs, found, none, same);
}

/* A move out of a tile that reaches no border cell there: the link refuses it. */
static void check_link_refuses(opt_level *o)
{
    nbi_optb *b = NULL;
    for (size_t k = 0; k < o->nt && !b; k++)
        if (o->b[k].nlinks)
            b = &o->b[k];
    if (!ok(b != NULL, "%s: a tile with a move out", o->l.what))
        return;
    nb_cell keep = b->link_to[0];
    /* The middle of the neighbour tile the move reached: none of its border cells. */
    uint32_t side = o->l.wd.w.tile;
    b->link_to[0] = (nb_cell){(int32_t)((uint32_t)keep.x / side * side + side / 2),
                              (int32_t)((uint32_t)keep.y / side * side + side / 2)};
    nbi_optw w;
    nb_err err;
    is_int(nbi_optw_link(&w, o->b, o->l.wd.w.columns, o->l.wd.w.rows, o->l.wd.w.tile,
                         o->l.wd.w.width, o->l.wd.w.height, &err),
           NB_ERR_FORMAT, "%s: a move that stays in its tile: refused", o->l.what);
    ok(strstr(err.msg, "reaches no border cell") != NULL, "%s: ... saying so (%s)", o->l.what,
       err.msg);
    b->link_to[0] = keep;
    /* A packed row one byte short, and one a byte long: refused, naming the portal. */
    for (int grow = -1; grow <= 1; grow += 2) {
        uint32_t i = 0;
        while (i < b->n && b->row[i + 1] == b->row[i])
            i++;
        if (i == b->n)
            break;
        b->row[i + 1] = (uint32_t)((int64_t)b->row[i + 1] + grow);
        is_int(nbi_optw_link(&w, o->b, o->l.wd.w.columns, o->l.wd.w.rows, o->l.wd.w.tile,
                             o->l.wd.w.width, o->l.wd.w.height, &err),
               NB_ERR_FORMAT, "%s: a packed row %s: refused", o->l.what,
               grow < 0 ? "a byte short" : "a byte long");
        char want[64];
        snprintf(want, sizeof want, "packed distances of its portal %u ", i);
        ok(strstr(err.msg, want) != NULL, "%s: ... naming that portal (%s)", o->l.what, err.msg);
        b->row[i + 1] = (uint32_t)((int64_t)b->row[i + 1] - grow);
    }
}

/* Damaged copies of one tile's section: each refused, naming what. */
static void check_section_damage(opt_level *o, nb_capability cap)
{
    size_t k = 0;
    while (k < o->nt && (o->b[k].n < 2 || o->b[k].nlinks < 2 || o->b[k].row[1] == 0))
        k++;
    if (!ok(k < o->nt, "%s: a tile with two portals, two links and a packed row", o->l.what))
        return;
    const nbi_optb *b = &o->b[k];
    const nbi_wtile *t = &o->l.wd.tag[k];
    uint8_t *p = NULL, *q;
    size_t len = 0;
    nb_err err;
    if (!ok(nbi_oborder_put(b, t, cap, 1, NBI_CORNER_STRICT, NULL, &p, &len, &err) == NB_OK,
            "%s: tile %zu's section", o->l.what, k))
        return;
    q = malloc(len);
    size_t cells = NBI_OBORDER_HEADER, rows = cells + (size_t)b->n * NBI_OBORDER_PORTAL,
           links = rows + 4 * ((size_t)b->n + 1);
    static const struct { const char *what, *says; } dmg[] = {
        {"a byte short", "bytes for"},
        {"the section table's portals one more", "disagree on"},
        {"another tile width", "its tile section says"},
        {"portal 0 in the middle of the tile", "is not on the edge"},
        {"portal 1 on portal 0", "does not follow portal 0"},
        {"a link's zero byte set", "is not a move of a portal"},
        {"portal 0's row a byte longer", "packed distances of its portal 0 "},
        {"the rows' last offset past the bytes", "its rows span"},
        {"link 0's move one that stays in the tile", "stays in the tile"},
        {"link 1 on link 0", "does not follow the one before"},
    };
    for (size_t d = 0; d < sizeof dmg / sizeof dmg[0]; d++) {
        memcpy(q, p, len);
        size_t l = len;
        uint32_t param[4] = {cap, 1, NBI_CORNER_STRICT, b->n};
        switch (d) {
        case 0: l--; break;
        case 1: param[3]++; break;
        case 2: nbi_put32(q + NBI_OBORDER_WIDTH, t->core_w + 1); break;
        case 3:
            nbi_put16(q + cells + NBI_OBORDER_P_X, (uint16_t)(t->core_w / 2));
            nbi_put16(q + cells + NBI_OBORDER_P_Y, (uint16_t)(t->core_h / 2));
            break;
        case 4: memcpy(q + cells + NBI_OBORDER_PORTAL, q + cells, NBI_OBORDER_PORTAL); break;
        case 5: q[links + NBI_OBORDER_L_ZERO] = 1; break;
        case 6: nbi_put32(q + rows + 4, nbi_get32(q + rows + 4) + 1); break;
        case 7: nbi_put32(q + rows + 4 * (size_t)b->n, nbi_get32(q + rows + 4 * (size_t)b->n) + 1); break;
        case 8: {
            nb_cell c = b->cell[b->link_from[0]];
            int32_t x0 = (int32_t)(t->origin_x + t->core_x), y0 = (int32_t)(t->origin_y + t->core_y);
            for (unsigned m = 0; m < NBI_MOVES; m++) {
                int32_t x = c.x - x0 + nbi_move_dx[m], y = c.y - y0 + nbi_move_dy[m];
                if (x >= 0 && y >= 0 && (uint32_t)x < t->core_w && (uint32_t)y < t->core_h)
                    q[links + NBI_OBORDER_L_MOVE] = (uint8_t)m;
            }
            break;
        }
        case 9:
            if (b->nlinks > 1)
                memcpy(q + links + NBI_OBORDER_LINK, q + links, NBI_OBORDER_LINK);
            break;
        }
        nbi_optb r;
        nb_status st = nbi_oborder_read(q, l, param, t, "the section", NULL, &r, &err);
        if (st == NB_OK)
            nbi_optb_free(&r);
        is_int(st, NB_ERR_FORMAT, "%s: %s: refused", o->l.what, dmg[d].what);
        ok(st != NB_OK && strstr(err.msg, dmg[d].says) != NULL, "%s: ... saying \"%s\" (%s)",
           o->l.what, dmg[d].says, st != NB_OK ? err.msg : "");
    }
    free(q);
    free(p);
}

static void check(const char *what, const char *map, uint32_t tile, const char *agents,
                  const char *dir, const char *scen, int pairs)
{
    opt_level o;
    memset(&o, 0, sizeof o);
    if (!tw_level_open(&o.l, what, map, agents, tile, tile >= 64 ? 16 : 8, dir))
        return;
    ok(o.l.wd.w.columns * o.l.wd.w.rows >= 12, "%s: %u x %u tiles", what, o.l.wd.w.columns,
       o.l.wd.w.rows);
    nb_aa *aa = NULL;
    nb_err err;
    if (!ok(nb_aa_open(o.l.whole, &aa, &err) == NB_OK, "%s: AA* on the whole bake", what))
        goto out;
    nb_capability cap = nb_agent_get(o.l.whole, 0)->capability;
    /* Every (size, corner rule) on the small level; on the shared maps the scenarios' and one
     * other (each is a build of every tile's clique). */
    for (uint32_t size = 1; size <= 2; size++)
        for (int corner = NBI_CORNER_STRICT; corner <= NBI_CORNER_WEAK; corner++) {
            if (scen && (size == 1) != (corner == NBI_CORNER_STRICT))
                continue;
            if (!build(&o, cap, size, corner)) {
                unbuild(&o);
                goto out;
            }
            if (size == 1 && corner == NBI_CORNER_STRICT) {
                if (scen)
                    check_scen(&o, aa, cap, scen);
                check_link_refuses(&o);
                check_section_damage(&o, cap);
            }
            check_pairs(&o, aa, cap, size, corner, pairs, 0x0b7 + tile + size * 7 + (unsigned)corner);
            unbuild(&o);
        }
out:
    nb_aa_close(aa);
    tw_level_close(&o.l);
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    static const struct { const char *map; uint32_t tile; } maps[] = {
        {"maps/dao/brc202d.map", 128}, {"maps/mazes/maze512-4-0.map", 128},
        {"maps/bg/AR0042SR.map", 64}};
    int any = 0, k = 0;
    /* NB_WORLD_OPT_MAP=REL:TILE measures one more map of ../shared (the
     * bench page's street map), its scenario file too. */
    const char *extra = getenv("NB_WORLD_OPT_MAP");
    if (extra && *extra) {
        char rel[1024], scen[4096];
        unsigned tile = 0;
        if (sscanf(extra, "%1023[^:]:%u", rel, &tile) == 2 && tu_shared(rel)) {
            char *m = strdup(tu_shared(rel));
            snprintf(scen, sizeof scen, "%s.scen", m);
            check(rel, m, tile, tu_src("data/haa-agents.yaml"), tw_fresh_dir(tmp, "o", &k), scen,
                  200);
            free(m);
            return done_testing();
        }
        return ok(0, "NB_WORLD_OPT_MAP=%s: REL:TILE of a map in ../shared", extra), done_testing();
    }
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *map = tu_shared(maps[i].map);
        if (!map)
            continue;
        any = 1;
        char *m = strdup(map), scen[4096];
        snprintf(scen, sizeof scen, "%s.scen", m);
        check(maps[i].map, m, maps[i].tile, tu_src("data/haa-agents.yaml"),
              tw_fresh_dir(tmp, "o", &k), scen, 200);
        free(m);
    }
    if (!any)
        check("data/sample.map", tu_src("data/sample.map"), 16, tu_src("data/sample-agents.yaml"),
              tw_fresh_dir(tmp, "o", &k), NULL, 300);
    return done_testing();
}
