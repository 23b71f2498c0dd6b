/* nbport: the runtime's answers, as text, for comparing one platform's
 * build with another's (tests/port/windows.sh runs it natively and, cross
 * built for Windows, under Wine, and compares line by line).  It uses
 * navbake.h only, so it builds wherever libnavbake does.
 *
 *   nbport answers BUNDLE FOREST   every query family on a bundle baked
 *                                  from data/sample.map with every tool, and
 *                                  on data/forest.yaml's bitangent graphs
 *   nbport open HOW FILE           the bundle opened by path (mapped), with
 *                                  NB_OPEN_PRIVATE, from memory, or "-"
 *   nbport errors                  the error paths, on the damaged files
 *                                  tests/port/windows.sh makes in the
 *                                  working directory
 *
 * Every line is "what: answer"; a real is printed to 17 digits, so a
 * different rounding anywhere shows.  Besides the comparison, each path
 * is checked here against the rules it must keep (a step is one move
 * between standable cells, its length is the sum of its moves), so a run
 * on its own also says "bad" when an answer breaks them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haa_of.h" /* navbake.h alone, as a game on another platform would see it */
#include "navbake.h"
#include "port.h"

static int failures;

static void line(const char *what, const char *fmt, ...) NBP_PRINTF(2, 3);
static void line(const char *what, const char *fmt, ...)
{
    va_list ap;
    printf("%s: ", what);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

/* A check that does not depend on the other platform. */
static void check(int cond, const char *what)
{
    if (!cond) {
        failures++;
        line(what, "bad");
    }
}

static void show_err(const char *what, nb_status st, const nb_err *err)
{
    line(what, "%s (%d) %s", nb_status_str(st), (int)st, st == NB_OK ? "" : err->msg);
}

/* A repeatable sequence, the same on every platform (no rand()). */
static uint32_t lcg = 12345;
static uint32_t next(uint32_t n)
{
    lcg = lcg * 1103515245u + 12345u;
    return (lcg >> 8) % n;
}

static uint32_t hash_cells(const nb_cell *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (uint32_t)p[i].x) * 16777619u;
        h = (h ^ (uint32_t)p[i].y) * 16777619u;
    }
    return h;
}

/* An octile path of cells: each step one of the eight moves, each cell
 * standable, the length the sum of the moves. */
static int cells_ok(const nb_bundle *b, const nb_aa_query *q, const nb_cell *p, size_t n,
                    double length)
{
    double sum = 0;
    if (n == 0 || p[0].x != q->start.x || p[0].y != q->start.y || p[n - 1].x != q->goal.x ||
        p[n - 1].y != q->goal.y)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (!nb_can_stand(b, q->capability, q->size, p[i].x, p[i].y))
            return 0;
        if (i) {
            long dx = labs((long)p[i].x - p[i - 1].x), dy = labs((long)p[i].y - p[i - 1].y);
            if (dx > 1 || dy > 1 || dx + dy == 0)
                return 0;
            sum += dx + dy == 2 ? sqrt(2.0) : 1.0;
        }
    }
    return fabs(sum - length) < 1e-9 * (1 + length);
}

static void level(const nb_bundle *b)
{
    unsigned major, minor;
    nb_bundle_format_version(b, &major, &minor);
    line("format", "%u.%u, %llu bytes, %lu sections", major, minor,
         (unsigned long long)nb_bundle_file_size(b), (unsigned long)nb_bundle_section_count(b));
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const nb_section_info *s = nb_bundle_section_get(b, i);
        char what[64];
        snprintf(what, sizeof what, "section %lu", (unsigned long)i);
        line(what, "%s '%s' %s %llu/%llu crc %08lx", nb_section_type_name(s->type), s->name,
             nb_encoding_name(s->encoding), (unsigned long long)s->size,
             (unsigned long long)s->usize, (unsigned long)s->crc);
    }
    for (unsigned t = 0; t < nb_terrain_count(b); t++)
        line("terrain", "%s '%s'", nb_terrain_name(b, t), nb_terrain_chars(b, t));
    uint32_t w = nb_map_width(b), h = nb_map_height(b), sum = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            sum = sum * 31u + (uint8_t)nb_map_char(b, x, y);
    line("map", "%lux%lu, characters hash %08lx", (unsigned long)w, (unsigned long)h,
         (unsigned long)sum);
    for (size_t i = 0; i < nb_agent_count(b); i++) {
        const nb_agent *a = nb_agent_get(b, i);
        char caps[128];
        nb_capability_format(b, a->capability, caps, sizeof caps);
        long csum = 0, components = 0, stand = 0;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                csum += nb_clearance(b, a->capability, x, y);
                stand += nb_can_stand(b, a->capability, a->size, x, y);
                long c = nb_component(b, a->capability, a->size, x, y);
                if (c + 1 > components)
                    components = c + 1;
            }
        line("agent", "%s size %lu [%s]: clearance sum %ld, cap %d, standable %ld, components %ld",
             a->name, (unsigned long)a->size, caps, csum, nb_clearance_cap(b, a->capability), stand,
             components);
    }
}

static void searches(const nb_bundle *b)
{
    nb_err err;
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    nb_status st = nb_aa_open(b, &aa, &err);
    show_err("nb_aa_open", st, &err);
    st = nb_haa_open(b, &haa, &err);
    show_err("nb_haa_open", st, &err);
    if (!aa || !haa) {
        failures++;
        return;
    }
    nb_haa_graph g;
    nb_haa_describe(haa, &g);
    line("haa graph", "cluster %lu %s %s, %lu nodes %lu edges %lu inter, paths %d",
         (unsigned long)g.cluster, g.quality, g.placement, (unsigned long)g.nodes,
         (unsigned long)g.edges, (unsigned long)g.inter_edges, g.paths);
    uint32_t w = nb_map_width(b), h = nb_map_height(b);
    for (size_t i = 0; i < nb_agent_count(b); i++) {
        const nb_agent *a = nb_agent_get(b, i);
        for (int k = 0; k < 12; k++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            q.size = a->size;
            q.capability = a->capability;
            q.corner = k % 3 == 2 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
            q.start.x = (int32_t)next(w);
            q.start.y = (int32_t)next(h);
            q.goal.x = (int32_t)next(w);
            q.goal.y = (int32_t)next(h);
            char what[96];
            snprintf(what, sizeof what, "aa %s (%d,%d)-(%d,%d)%s", a->name, (int)q.start.x,
                     (int)q.start.y, (int)q.goal.x, (int)q.goal.y, q.corner ? " weak" : "");
            nb_aa_result r;
            st = nb_aa_find(aa, &q, &r, &err);
            if (st != NB_OK) {
                show_err(what, st, &err);
                continue;
            }
            line(what, "%s %.17g expanded %llu cells %lu hash %08lx",
                 nb_path_status_str(r.status), r.length, (unsigned long long)r.expanded,
                 (unsigned long)r.path_len, (unsigned long)hash_cells(r.path, r.path_len));
            if (r.status == NB_PATH_FOUND)
                check(cells_ok(b, &q, r.path, r.path_len, r.length), what);
            double aa_len = r.status == NB_PATH_FOUND ? r.length : -1;
            if (q.corner != NB_CORNER_STRICT)
                continue;
            for (unsigned flags = 0; flags < 3; flags++) {
                nb_haa_result hr;
                snprintf(what, sizeof what, "haa/%u %s (%d,%d)-(%d,%d)", flags, a->name,
                         (int)q.start.x, (int)q.start.y, (int)q.goal.x, (int)q.goal.y);
                st = nb_haa_find(haa, (nb_haa_query[]){haa_of(&q, flags)}, &hr, &err);
                if (st != NB_OK) {
                    show_err(what, st, &err);
                    continue;
                }
                line(what, "%s %.17g cell %.17g abstract %.17g expanded %llu points %lu hash %08lx",
                     nb_path_status_str(hr.status), hr.length, hr.cell_length, hr.abstract_length,
                     (unsigned long long)hr.expanded, (unsigned long)hr.path_len,
                     (unsigned long)hash_cells(hr.path, hr.path_len));
                /* HAA* finds a path exactly when one exists (for the
                 * agents it was built for), never shorter than optimal. */
                check((hr.status == NB_PATH_FOUND) == (aa_len >= 0), what);
                if (hr.status == NB_PATH_FOUND)
                    check(hr.cell_length >= aa_len - 1e-9, what);
                if (hr.status == NB_PATH_FOUND && !(flags & NB_HAA_SMOOTH))
                    check(cells_ok(b, &q, hr.path, hr.path_len, hr.cell_length), what);
            }
        }
    }
    nb_haa_close(haa);
    nb_aa_close(aa);
}

/* Runtime obstacles: rectangles blocked in an overlay, the answers of AA* and HAA* under it. */
static void overlay_searches(const nb_bundle *b)
{
    nb_err err;
    nb_overlay *ov = NULL;
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    nb_status st = nb_overlay_open(b, &ov, &err);
    show_err("nb_overlay_open", st, &err);
    if (st != NB_OK || nb_aa_open(b, &aa, &err) != NB_OK || nb_haa_open(b, &haa, &err) != NB_OK) {
        failures++;
        nb_overlay_close(ov);
        nb_aa_close(aa);
        return;
    }
    uint32_t w = nb_map_width(b), h = nb_map_height(b);
    for (int k = 0; k < 6; k++) {
        long x = (long)next(w - 4), y = (long)next(h - 4);
        st = k == 5 ? nb_overlay_unblock(ov, x, y, 4, 4, &err)
                    : nb_overlay_block(ov, x, y, 1 + k % 4, 1 + (k + 1) % 4, &err);
        show_err("nb_overlay_block", st, &err);
    }
    line("overlay", "%llu cells blocked", (unsigned long long)nb_overlay_blocked_count(ov));
    for (size_t i = 0; i < nb_agent_count(b); i++) {
        const nb_agent *a = nb_agent_get(b, i);
        for (int k = 0; k < 6; k++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            q.size = a->size;
            q.capability = a->capability;
            q.start.x = (int32_t)next(w);
            q.start.y = (int32_t)next(h);
            q.goal.x = (int32_t)next(w);
            q.goal.y = (int32_t)next(h);
            q.overlay = ov;
            char what[96];
            snprintf(what, sizeof what, "aa+overlay %s (%d,%d)-(%d,%d)", a->name, (int)q.start.x,
                     (int)q.start.y, (int)q.goal.x, (int)q.goal.y);
            nb_aa_result r;
            nb_haa_result hr;
            st = nb_aa_find(aa, &q, &r, &err);
            if (st != NB_OK) {
                show_err(what, st, &err);
                continue;
            }
            line(what, "%s %.17g cells %lu hash %08lx", nb_path_status_str(r.status), r.length,
                 (unsigned long)r.path_len, (unsigned long)hash_cells(r.path, r.path_len));
            snprintf(what, sizeof what, "haa+overlay %s (%d,%d)-(%d,%d)", a->name, (int)q.start.x,
                     (int)q.start.y, (int)q.goal.x, (int)q.goal.y);
            st = nb_haa_find(haa, (nb_haa_query[]){haa_of(&q, 0)}, &hr, &err);
            if (st != NB_OK) {
                show_err(what, st, &err);
                continue;
            }
            line(what, "%s %.17g cells %lu hash %08lx", nb_path_status_str(hr.status), hr.length,
                 (unsigned long)hr.path_len, (unsigned long)hash_cells(hr.path, hr.path_len));
            check((hr.status == NB_PATH_FOUND) == (r.status == NB_PATH_FOUND), what);
        }
    }
    nb_haa_close(haa);
    nb_aa_close(aa);
    nb_overlay_close(ov);
}

static void motion(const nb_bundle *b)
{
    nb_err err;
    nb_model *m = NULL;
    nb_perimeter *p = NULL;
    nb_motion *ws = NULL;
    nb_status st = nb_model_open(b, "humanoid", &m, &err);
    show_err("nb_model_open humanoid", st, &err);
    if (st != NB_OK) {
        failures++;
        return;
    }
    line("model", "%s: %u headings, %u speeds, top %.17g, still %.17g turn %.17g",
         nb_model_name(m), nb_model_headings(m), nb_model_speeds(m), nb_model_top_speed(m),
         nb_model_still_cost(m), nb_model_turn_cost(m));
    st = nb_perimeter_open(b, m, &p, &err);
    show_err("nb_perimeter_open", st, &err);
    if (p) {
        line("perimeter", "radius %u layout %s", nb_perimeter_radius(p),
             nb_perimeter_layout_name(nb_perimeter_layout_of(p)));
        double sum = 0;
        long exact = 0;
        nb_motion_state g = {30, 20, 0, (uint16_t)nb_model_stop(m)};
        for (int dy = -8; dy <= 8; dy += 2)
            for (int dx = -8; dx <= 8; dx += 2)
                for (unsigned hd = 0; hd < nb_model_headings(m); hd += 3) {
                    nb_motion_state s = {30 + dx, 20 + dy, (uint16_t)hd, 0};
                    double v = 0;
                    int kind = nb_perimeter_lookup(p, &s, &g, &v);
                    if (kind != NB_PERIM_OUTSIDE) {
                        sum += v;
                        exact += kind == NB_PERIM_EXACT;
                    }
                }
        line("perimeter lookups", "sum %.17g, %ld exact", sum, exact);
    }
    size_t si;
    st = nb_agent_lookup(b, "scout", &si, &err);
    const nb_agent *scout = st == NB_OK ? nb_agent_get(b, si) : NULL;
    if (scout && (st = nb_motion_open(b, m, p, scout->capability, scout->size, &ws, &err)) == NB_OK &&
        (st = nb_motion_use_sectors(ws, 8, &err)) != NB_OK) {
        nb_motion_close(ws);
        ws = NULL;
    }
    show_err("nb_motion_open", st, &err);
    if (st == NB_OK) {
        static const int ends[][4] = {{5, 5, 40, 20}, {2, 30, 60, 4}, {10, 10, 12, 35}};
        for (int k = 0; k < 3; k++)
            for (int hk = 0; hk < NB_MH_COUNT; hk += 4) {
                nb_motion_query q;
                nb_motion_query_init(&q);
                q.start = (nb_motion_state){ends[k][0], ends[k][1], 0, (uint16_t)nb_model_stop(m)};
                q.goal = (nb_motion_state){ends[k][2], ends[k][3], NB_HEADING_ANY,
                                           (uint16_t)nb_model_stop(m)};
                q.heuristic = (nb_motion_heuristic)hk;
                nb_motion_result r;
                char what[96];
                snprintf(what, sizeof what, "motion %s (%d,%d)-(%d,%d)",
                         nb_motion_heuristic_name(q.heuristic), ends[k][0], ends[k][1],
                         ends[k][2], ends[k][3]);
                st = nb_motion_find(ws, &q, &r, &err);
                if (st != NB_OK) {
                    show_err(what, st, &err);
                    continue;
                }
                size_t n = 0;
                const nb_motion_state *path = (n = r.path_len, r.path);
                uint32_t hsh = 2166136261u;
                for (size_t i = 0; i < n; i++)
                    hsh = (hsh ^ (uint32_t)(path[i].x * 7919 + path[i].y * 31 + path[i].heading * 3 +
                                            path[i].speed)) * 16777619u;
                line(what, "%s cost %.17g h %.17g expanded %llu states %lu hash %08lx",
                     nb_path_status_str(r.status), r.cost, r.h_start,
                     (unsigned long long)r.expanded, (unsigned long)r.path_len, (unsigned long)hsh);
                check(r.status != NB_PATH_FOUND || r.h_start <= r.cost + 1e-9 ||
                          q.heuristic == NB_MH_EXTENDED || q.heuristic == NB_MH_EXTENDED_GRID ||
                          q.heuristic == NB_MH_EXTENDED_HEADING,
                      what);
            }
        nb_motion_close(ws);
    }
    nb_perimeter_close(p);
    nb_model_close(m);
}

static void turning(const nb_bundle *b)
{
    nb_err err;
    nb_pose from = {2.5, 3.5, 0.3};
    nb_pose to = {10.25, 7.75, 2.0};
    nb_curve c[NB_CURVE_MAX_CANDIDATES];
    size_t n = nb_curve_to_pose(&from, &to, 2.0, c);
    for (size_t i = 0; i < n; i++) {
        nb_pose end;
        nb_curve_sample(&c[i], c[i].length, &end);
        line("curve", "%s/%u %.17g ends %.17g %.17g", c[i].word, c[i].variant, c[i].length,
             end.x, end.y);
        check(fabs(end.x - to.x) < 1e-6 && fabs(end.y - to.y) < 1e-6, "curve end");
    }
    nb_planner *pl = NULL;
    nb_status st = nb_planner_open(b, "jeep", &pl, &err);
    show_err("nb_planner_open jeep", st, &err);
    if (st != NB_OK) {
        failures++;
        return;
    }
    const nb_unit *u = nb_planner_unit(pl);
    line("unit", "%s radius %.17g width %.17g headings %u", u->name, u->radius, u->width,
         u->headings);
    static const double ends[][4] = {{3.5, 3.5, 60, 35}, {5.5, 30.5, 50, 5}, {20.5, 20.5, 22, 24}};
    for (int k = 0; k < 3; k++)
        for (int method = 0; method <= NB_PLAN_LINES; method++) {
            nb_planner_query q;
            nb_planner_query_init(&q);
            q.start = (nb_pose){ends[k][0], ends[k][1], 0};
            q.goal.x = (int32_t)ends[k][2];
            q.goal.y = (int32_t)ends[k][3];
            q.method = (nb_plan_method)method;
            nb_planner_result r;
            char what[96];
            snprintf(what, sizeof what, "plan %d (%g,%g)-(%ld,%ld)", method, ends[k][0],
                     ends[k][1], (long)q.goal.x, (long)q.goal.y);
            st = nb_planner_find(pl, &q, &r, &err);
            if (st != NB_OK) {
                show_err(what, st, &err);
                continue;
            }
            line(what, "%s%s%s length %.17g cost %.17g segments %lu expanded %llu",
                 nb_path_status_str(r.status), r.reason ? " " : "", r.reason ? r.reason : "",
                 r.length, r.cost, (unsigned long)r.segment_len, (unsigned long long)r.expanded);
            if (r.status == NB_PATH_FOUND)
                check(nb_planner_walkable(pl, r.segments, r.segment_len) &&
                          fabs(nb_segments_length(r.segments, r.segment_len) - r.length) < 1e-6,
                      what);
        }
    nb_planner_close(pl);
}

static void forest_query(nb_forest_ws *ws, const char *which, double radius,
                         unsigned flags)
{
    nb_err err;
    nb_vec2 s = {next(100) + 0.5, next(60) + 0.25}, g = {next(100) + 0.75, next(60) + 0.5};
    nb_forest_result res;
    char what[96];
    snprintf(what, sizeof what, "forest %s r=%g (%g,%g)-(%g,%g)", which, radius, s.x, s.y, g.x, g.y);
    nb_forest_query q;
    nb_forest_query_init(&q);
    q.start = s;
    q.goal = g;
    q.agent_radius = radius;
    q.flags = flags;
    nb_status st = nb_forest_find(ws, &q, &res, &err);
    if (st != NB_OK) {
        show_err(what, st, &err);
        return;
    }
    line(what, "%s %.17g segments %lu blocked by %ld expanded %lu", nb_path_status_str(res.status),
         res.status == NB_PATH_FOUND ? res.length : -1.0, (unsigned long)res.segment_len,
         res.blocked_by, (unsigned long)res.expanded);
    if (res.status == NB_PATH_FOUND)
        check(fabs(nb_segments_length(res.segments, res.segment_len) - res.length) < 1e-6 &&
                  res.length >= hypot(g.x - s.x, g.y - s.y) - 1e-9,
              what);
}

static void forest(const nb_bundle *b)
{
    nb_err err;
    nb_forest *f = NULL;
    nb_forest_ws *ws = NULL;
    nb_status st = nb_forest_open(b, &f, &err);
    show_err("nb_forest_open", st, &err);
    if (st != NB_OK || (st = nb_forest_ws_open(f, &ws, &err)) != NB_OK) {
        failures++;
        nb_forest_close(f);
        return;
    }
    for (unsigned r = 0; r < nb_forest_radius_count(f); r++) {
        nb_forest_graph_info gi;
        st = nb_forest_graph(f, r, &gi, &err);
        if (st == NB_OK)
            line("forest graph", "radius %.17g: %lu nodes %lu transitions %llu arcs",
                 gi.agent_radius, (unsigned long)gi.nodes, (unsigned long)gi.transitions,
                 (unsigned long long)gi.arcs);
    }
    for (unsigned r = 0; r < nb_forest_radius_count(f); r++)
        for (int k = 0; k < 6; k++)
            forest_query(ws, "baked", nb_forest_radius_get(f, r), k % 2 ? NB_FOREST_DEFERRED : 0);
    /* A copy of its circles, changed, searched without a baked graph. */
    size_t n = nb_forest_circle_count(f);
    nb_circle *c = calloc(n + 1, sizeof *c);
    double bounds[4];
    for (size_t i = 0; c && i < n; i++)
        c[i] = *nb_forest_circle_get(f, i);
    nb_forest *copy = NULL;
    nb_forest_ws *cws = NULL;
    st = c ? nb_forest_open_circles(c, n, nb_forest_bounds(f, bounds) ? bounds : NULL, NULL, &copy,
                                    &err)
           : NB_ERR_NOMEM;
    show_err("nb_forest_open_circles", st, &err);
    if (st == NB_OK) {
        show_err("nb_forest_add_circle", nb_forest_add_circle(copy, (nb_circle){50, 30, 6}, &err),
                 &err);
        show_err("nb_forest_remove_circle", nb_forest_remove_circle(copy, 2, &err), &err);
        if (nb_forest_ws_open(copy, &cws, &err) == NB_OK)
            for (int k = 0; k < 8; k++)
                forest_query(cws, "changed", k % 3 * 0.5, NB_FOREST_DEFERRED);
    }
    free(c);
    nb_forest_ws_close(cws);
    nb_forest_close(copy);
    nb_forest_ws_close(ws);
    nb_forest_close(f);
}

static int answers(const char *bundle, const char *forest_bundle)
{
    nb_bundle *b = NULL;
    nb_err err;
    nb_status st = nb_bundle_open(bundle, NB_OPEN_VERIFY, NULL, &b, &err);
    show_err("open", st, &err);
    if (st != NB_OK)
        return 1;
    level(b);
    searches(b);
    overlay_searches(b);
    motion(b);
    turning(b);
    nb_bundle_close(b);
    st = nb_bundle_open(forest_bundle, 0, NULL, &b, &err);
    show_err("open forest", st, &err);
    if (st != NB_OK)
        return 1;
    forest(b);
    nb_bundle_close(b);
    line("checks", "%d failed", failures);
    return failures != 0;
}

/* Opens FILE as asked and says what was read: the same bundle whichever
 * way. */
static int open_as(const char *how, const char *path)
{
    nb_bundle *b = NULL;
    nb_err err;
    nb_status st;
    if (strcmp(how, "memory") == 0) {
        FILE *f = fopen(path, "rb");
        static char buf[1 << 22];
        size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
        st = nb_bundle_open_memory(buf, n, NB_OPEN_VERIFY, NULL, &b, &err);
    } else {
        st = nb_bundle_open(path, NB_OPEN_VERIFY | (strcmp(how, "private") == 0 ? NB_OPEN_PRIVATE : 0),
                            NULL, &b, &err);
    }
    show_err("open", st, &err);
    if (st != NB_OK)
        return 1;
    line("form", "%s", nb_bundle_form_of(b) == NB_FORM_BINARY ? "binary" : "sqlite");
    level(b);
    nb_bundle_close(b);
    return 0;
}

/* Each way of failing, with its status and message. */
static int errors(void)
{
    static const char *const files[] = {"missing.nbk", ".",         "empty.nbk",  "truncated.nbk",
                                        "garbage.nbk", "damaged.nbk", "sample.sqlite"};
    nb_bundle *b = NULL;
    nb_err err;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char what[64];
        snprintf(what, sizeof what, "open %s", files[i]);
        nb_status st = nb_bundle_open(files[i], NB_OPEN_VERIFY, NULL, &b, &err);
        show_err(what, st, &err);
        check(st != NB_OK && b == NULL, what);
        nb_bundle_close(b);
        snprintf(what, sizeof what, "open private %s", files[i]);
        st = nb_bundle_open(files[i], NB_OPEN_VERIFY | NB_OPEN_PRIVATE, NULL, &b, &err);
        show_err(what, st, &err);
        nb_bundle_close(b);
    }
    /* Damaged past the header: opens, and verify names the section. */
    nb_status st = nb_bundle_open("damaged.nbk", 0, NULL, &b, &err);
    show_err("open damaged.nbk unverified", st, &err);
    if (st == NB_OK) {
        show_err("verify damaged.nbk", nb_bundle_verify(b, &err), &err);
        nb_bundle_close(b);
    }
    show_err("bad flags", nb_bundle_open("sample.nbk", 0x80, NULL, &b, &err), &err);
    show_err("no path", nb_bundle_open(NULL, 0, NULL, &b, &err), &err);
    show_err("no out", nb_bundle_open("sample.nbk", 0, NULL, NULL, &err), &err);
    nb_allocator half = {NULL, NULL, NULL, NULL};
    show_err("bad allocator", nb_bundle_open("sample.nbk", 0, &half, &b, &err), &err);
    line("sqlite supported", "%d", nb_sqlite_supported());

    /* Queries that cannot be asked of this bundle. */
    st = nb_bundle_open("sample.nbk", 0, NULL, &b, &err);
    show_err("open sample.nbk", st, &err);
    if (st != NB_OK)
        return 1;
    nb_aa *aa = NULL;
    nb_aa_open(b, &aa, &err);
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = 1u << 3; /* trees alone: no layer */
    nb_aa_result r;
    show_err("aa without its layer", nb_aa_find(aa, &q, &r, &err), &err);
    q.capability = nb_agent_get(b, 0)->capability;
    q.goal.x = 64;
    show_err("aa off the map", nb_aa_find(aa, &q, &r, &err), &err);
    q.goal.x = 0;
    q.size = 0;
    show_err("aa size 0", nb_aa_find(aa, &q, &r, &err), &err);
    nb_aa_close(aa);
    nb_model *m = NULL;
    show_err("no such model", nb_model_open(b, "hovercraft", &m, &err), &err);
    check(m == NULL, "no model made");
    nb_planner *pl = NULL;
    show_err("no such unit", nb_planner_open(b, "bicycle", &pl, &err), &err);
    nb_capability cap;
    show_err("bad capability", nb_capability_parse(b, "ground,lava", &cap, &err), &err);
    line("terrain off the map", "%d", nb_map_terrain(b, -1, 5));
    line("clearance off the map", "%d", nb_clearance(b, q.capability, 70, 5));
    nb_bundle_close(b);
    nb_forest *f = NULL;
    nb_circle bad = {1, 2, -3};
    show_err("circle of negative radius", nb_forest_open_circles(&bad, 1, NULL, NULL, &f, &err), &err);
    line("checks", "%d failed", failures);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "answers") == 0)
        return answers(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "open") == 0)
        return open_as(argv[2], argv[3]);
    if (argc == 2 && strcmp(argv[1], "errors") == 0)
        return errors();
    fprintf(stderr, "usage: nbport answers BUNDLE FOREST | open map|private|memory FILE | errors\n");
    return 2;
}
