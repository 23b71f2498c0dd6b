/* bench_haa: the HAA* paper's experiments (Harabor and Botea, CIG 2008,
 * section X) on the paper's own data, ../shared/haa-bg: 120 Baldur's
 * Gate maps, their soft-obstacle versions and the authors' query files,
 * every query run with agent sizes 1 and 2.
 *
 * For each soft-obstacle set, cluster size (10, 15, 20) and quality (HQ,
 * LQ) it prints the graph's size against the original grid graph (Table
 * I), HAA*'s path error against Annotated A*'s optimal length (Figure 5),
 * nodes expanded and microseconds per query by path length for HAA* and
 * for AA* in the same run (Figure 6), and build times.  With --placement
 * it also compares transition placements (the paper's first-pair rule
 * against ours).  Not part of make check: 'make bench-haa'. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "abstract/abstract.h"
#include "bake_int.h"
#include "clearance/clearance_build.h"
#include "shapes.h"

#define NBUCKETS 10 /* path lengths (the authors' step counts) in buckets of 50 */
#define MAXCONF 64

typedef struct acc {
    double n, sum;
} acc;
static void add(acc *a, double v)
{
    a->n++;
    a->sum += v;
}
static double mean(const acc *a) { return a->n ? a->sum / a->n : 0; }

typedef struct conf {
    uint32_t cluster, quality, placement;
    int paths;
    /* over the maps */
    acc nodes_pct, nodes_all_pct, edges_pct, bytes, build_ms;
    double nodes_total, edges_total;
    double through_total; /* intra-edges the through-node rule replaced (not the paper's) */
    acc err_b[NBUCKETS];
    double build_total_ms, query_total_ms, query_str_ms, serr_max;
    acc err, err1, err2, aerr, serr, serr1, serr2, us_str;
    acc serr_b[NBUCKETS];
    double err_max;
    acc exp_b[NBUCKETS], ins_b[NBUCKETS], srch_b[NBUCKETS], ref_b[NBUCKETS], us_b[NBUCKETS];
    acc exp_all, us_all;
    long failures;
} conf;

typedef struct query {
    nb_cell s, t;
    nb_capability cap;
    uint32_t size;
    int bucket;
    double opt;
} query;

static const char *label(const conf *cf)
{
    static char buf[4][32];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, sizeof buf[0], "CS%u %s%s", cf->cluster,
             cf->quality == NBI_QUALITY_HIGH ? "HQ" : "LQ", cf->paths ? " +paths" : "");
    return b;
}

/* "0-49", ..., "450+". */
static const char *bucket_name(int bk)
{
    static char buf[16];
    if (bk == NBUCKETS - 1)
        snprintf(buf, sizeof buf, "%d+", bk * 50);
    else
        snprintf(buf, sizeof buf, "%d-%d", bk * 50, bk * 50 + 49);
    return buf;
}

/* A table's title and header: the fixed columns, then one per graph. */
static void bucket_header(const char *title, const char *rule, const conf *confs, size_t nconf)
{
    fputs(title, stdout);
    for (size_t k = 0; k < nconf; k++)
        printf(" %s %s |", label(&confs[k]), nbi_placement_name(confs[k].placement));
    printf("\n%s", rule);
    for (size_t k = 0; k < nconf; k++)
        printf("---:|");
    printf("\n");
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_haa: %s: %s\n", what, err ? err->msg : "");
    exit(1);
}

/* Undirected edges of the grid graph the paper compares against: every
 * pair of neighbouring traversable cells, a diagonal pair only when both
 * cells beside it are traversable (strict) or at least one is (weak, the
 * paper's rule). */
static uint64_t grid_edges(const nbb_grid *g, const nbi_legend *l, nb_corner corner,
                           uint64_t *nodes)
{
    uint64_t e = 0, n = 0;
    uint32_t w = g->width, h = g->height;
#define FREE(x, y) ((x) < w && (y) < h && l->code[g->cells[(size_t)(y) * w + (x)]] < l->nterrains)
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            if (!FREE(x, y))
                continue;
            n++;
            e += FREE(x + 1, y);
            e += FREE(x, y + 1);
            if (corner == NB_CORNER_WEAK) {
                e += FREE(x + 1, y + 1) && (FREE(x + 1, y) || FREE(x, y + 1));
                e += x > 0 && FREE(x - 1, y + 1) && (FREE(x - 1, y) || FREE(x, y + 1));
            } else {
                e += FREE(x + 1, y + 1) && FREE(x + 1, y) && FREE(x, y + 1);
                e += x > 0 && FREE(x - 1, y + 1) && FREE(x - 1, y) && FREE(x, y + 1);
            }
        }
#undef FREE
    *nodes = n;
    return e;
}

static int bucket_of(int steps)
{
    int b = steps / 50;
    return b < NBUCKETS ? b : NBUCKETS - 1;
}

/* The query of q for Annotated A* and HAA*: no costs, no overlay, no budget. */
static nb_aa_query aa_query(const query *q, nb_corner corner)
{
    nb_aa_query aq;
    nb_aa_query_init(&aq);
    aq.start = q->s;
    aq.goal = q->t;
    aq.size = q->size;
    aq.capability = q->cap;
    aq.corner = corner;
    return aq;
}

/* The baseline: the runtime's Annotated A* (nb_aa_find), optimal, on the
 * same clearance layers with the same moves. */
static double aa_find(nb_aa *ws, const query *q, nb_corner corner, uint64_t *expanded)
{
    nb_aa_query aq = aa_query(q, corner);
    nb_aa_result r;
    nb_err err;
    if (nb_aa_find(ws, &aq, &r, &err) != NB_OK)
        die("nb_aa_find", &err);
    *expanded = r.expanded;
    return r.status == NB_PATH_FOUND ? r.length : -1;
}

static const char *set_dir[] = {"originalmaps", "softobs_10pct", "softobs_20pct", "softobs_40pct",
                                "softobs_50pct"};
static const char *set_scen[] = {"softobs_0pct", "softobs_10pct", "softobs_20pct",
                                 "softobs_40pct", "softobs_50pct"};
static const int set_pct[] = {0, 10, 20, 40, 50};

static size_t read_queries(const char *path, query *out, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512];
    size_t n = 0;
    while (fgets(line, sizeof line, f) && n + 2 <= max) {
        char mp[256];
        int sx, sy, gx, gy, cap, size, steps;
        if (sscanf(line, "%255s %d %d %d %d %d %d %d", mp, &sx, &sy, &gx, &gy, &cap, &size,
                   &steps) != 8)
            continue;
        nb_capability c = (cap & 4 ? 1u << 0 : 0) | (cap & 64 ? 1u << 3 : 0);
        for (uint32_t s = 1; s <= 2; s++) {
            query *q = &out[n++];
            q->s = (nb_cell){sx, sy};
            q->t = (nb_cell){gx, gy};
            q->cap = c;
            q->size = s;
            q->bucket = bucket_of(steps);
        }
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    const char *shared = getenv("NB_SHARED");
    int sets[5] = {1, 1, 1, 1, 1}, compare_placement = 0, maxmaps = 1000, paths = 0;
    /* For profiling HAA* alone: no AA* (every query then counts as solvable, error meaningless). */
    int profile_haa = getenv("NB_BENCH_NO_AA") != NULL;
    /* Every query is timed this many times and its fastest run kept: on a
     * machine shared with other jobs that is the closest to its own cost. */
    int repeat = 3;
    uint32_t placement = NBB_PLACE_AUTO;
    nb_corner corner = NB_CORNER_STRICT;
    /* --cap N: entrances and inter-edges see clearances up to N, not the
     * largest agent size (the clearance layers are baked to hold N): what
     * the cap takes from the high-quality graphs (the paper's have none). */
    uint32_t cap = 0;
    static const struct option opts[] = {{"set", required_argument, NULL, 's'},
                                         {"cap", required_argument, NULL, 'X'},
                                         {"maps", required_argument, NULL, 'm'},
                                         {"placement", required_argument, NULL, 'p'},
                                         {"compare-placement", no_argument, NULL, 'c'},
                                         {"paths", no_argument, NULL, 'P'},
                                         {"repeat", required_argument, NULL, 'r'},
                                         {"corner", required_argument, NULL, 'C'},
                                         {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "s:m:p:cPr:C:X:", opts, NULL)) != -1) {
        switch (c) {
        case 'X':
            cap = (uint32_t)atoi(optarg);
            if (cap < 2 || cap > 64) {
                fprintf(stderr, "bench_haa: --cap: expected 2 to 64, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 's':
            memset(sets, 0, sizeof sets);
            for (char *tok = strtok(optarg, ","); tok; tok = strtok(NULL, ","))
                for (int i = 0; i < 5; i++)
                    sets[i] |= atoi(tok) == set_pct[i];
            break;
        case 'm': maxmaps = atoi(optarg); break;
        case 'p':
            placement = strcmp(optarg, "first") == 0    ? NBI_PLACE_FIRST
                        : strcmp(optarg, "spread") == 0 ? NBI_PLACE_SPREAD
                        : strcmp(optarg, "middle") == 0 ? NBI_PLACE_MIDDLE
                        : strcmp(optarg, "ends") == 0   ? NBI_PLACE_ENDS
                                                        : NBB_PLACE_AUTO;
            break;
        case 'c': compare_placement = 1; break;
        case 'P': paths = 1; break;
        case 'r': repeat = atoi(optarg) > 0 ? atoi(optarg) : 1; break;
        case 'C':
            if (strcmp(optarg, "strict") != 0 && strcmp(optarg, "weak") != 0) {
                fprintf(stderr, "bench_haa: --corner: expected strict or weak, not '%s'\n", optarg);
                return 2;
            }
            corner = strcmp(optarg, "weak") == 0 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
            break;
        default:
            fprintf(stderr, "usage: bench_haa [--set 0,10,20,40,50] [--maps N] [--placement "
                            "first|middle|spread|ends] [--compare-placement] [--paths] [--repeat N] [--cap N] "
                            "[--corner strict|weak]\n");
            return 2;
        }
    }
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/haa-bg/SOURCES.md", shared ? shared : "../shared");
    FILE *pf = fopen(probe, "r");
    if (!pf) {
        printf("bench_haa: SKIP: %s is absent (set NB_SHARED)\n", probe);
        return 0;
    }
    fclose(pf);
    if (!shared)
        shared = "../shared";

    nbi_legend legend;
    nbi_legend_default(&legend);
    static nbi_agentset agents;
    static const nb_capability caps[3] = {1u << 0, 1u << 3, (1u << 0) | (1u << 3)};
    for (int ci = 0; ci < 3; ci++)
        for (uint32_t s = 1; s <= 2; s++) {
            nb_agent *a = &agents.agent[agents.count++];
            snprintf(a->name, sizeof a->name, "c%d-s%u", ci, s);
            a->size = s;
            a->capability = caps[ci];
        }
    /* The clearance layers' agent set: the same, and with --cap an agent of
     * that size, so that the layers hold clearances up to it. */
    static nbi_agentset clear_agents;
    clear_agents = agents;
    if (cap) {
        nb_agent *a = &clear_agents.agent[clear_agents.count++];
        snprintf(a->name, sizeof a->name, "cap");
        a->size = cap;
        a->capability = caps[0];
    }

    static conf confs[MAXCONF];
    size_t nconf = 0;
    static const uint32_t clusters[3] = {10, 15, 20};
    for (int k = 0; k < 3; k++)
        for (uint32_t q = NBI_QUALITY_HIGH; q <= NBI_QUALITY_LOW; q++) {
            uint32_t def = placement;
            if (def == NBB_PLACE_AUTO)
                def = q == NBI_QUALITY_LOW ? NBI_PLACE_FIRST : NBI_PLACE_ENDS;
            uint32_t pl[5] = {def, NBI_PLACE_FIRST, NBI_PLACE_MIDDLE, NBI_PLACE_SPREAD,
                              NBI_PLACE_ENDS};
            for (int p = 0; p < (compare_placement ? 5 : 1); p++) {
                if (p && pl[p] == def)
                    continue;
                conf *cf = &confs[nconf++];
                cf->cluster = clusters[k];
                cf->quality = q;
                cf->placement = pl[p];
                cf->paths = paths;
            }
        }

    char tmpl[] = "/tmp/bench_haa-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    close(fd);
    printf("# bench_haa: HAA* on the paper's maps (%s/haa-bg), sizes 1 and 2 per query, %s "
           "corner rule; each query timed %d times, the fastest kept\n",
           shared, corner == NB_CORNER_WEAK ? "weak" : "strict", repeat);
    if (cap)
        printf("# entrances and inter-edges see clearances capped at %u, not at the largest size\n", cap);

    for (int si = 0; si < 5; si++) {
        if (!sets[si])
            continue;
        for (size_t k = 0; k < nconf; k++) {
            conf keep = confs[k];
            memset(&confs[k], 0, sizeof confs[k]);
            confs[k].cluster = keep.cluster;
            confs[k].quality = keep.quality;
            confs[k].placement = keep.placement;
            confs[k].paths = keep.paths;
        }
        acc aa_exp_b[NBUCKETS], aa_us_b[NBUCKETS], aa_exp, aa_us, clear_ms, cells_acc;
        memset(aa_exp_b, 0, sizeof aa_exp_b);
        memset(aa_us_b, 0, sizeof aa_us_b);
        memset(&aa_exp, 0, sizeof aa_exp);
        memset(&aa_us, 0, sizeof aa_us);
        memset(&clear_ms, 0, sizeof clear_ms);
        memset(&cells_acc, 0, sizeof cells_acc);
        acc gnodes = {0, 0}, gedges = {0, 0};
        double cells_total = 0, all_edges = 0; /* edges of the grid graph of every cell */
        double aa_total_ms = 0;
        long nmaps = 0, nqueries = 0, unsolvable = 0;
        char listing[1024];
        snprintf(listing, sizeof listing, "ls %s/haa-bg/experiments/scenarios/%s", shared,
                 set_scen[si]);
        FILE *ls = popen(listing, "r");
        char name[256];
        while (ls && fgets(name, sizeof name, ls) && nmaps < maxmaps) {
            name[strcspn(name, "\n")] = 0;
            size_t nl = strlen(name);
            if (nl < 13 || strcmp(name + nl - 13, ".map.scenario") != 0)
                continue;
            char mapname[256];
            snprintf(mapname, sizeof mapname, "%.*s", (int)(nl - 9), name);
            char mp[1024], sp[1024];
            snprintf(mp, sizeof mp, "%s/haa-bg/maps/bgmaps/%s/%s", shared, set_dir[si], mapname);
            snprintf(sp, sizeof sp, "%s/haa-bg/experiments/scenarios/%s/%s", shared, set_scen[si],
                     name);
            nbb_grid grid;
            nb_err err;
            if (nbb_map_read(mp, &legend, 1, &grid, &err) != NB_OK)
                die(mp, &err);
            static query qs[1024];
            size_t nq = read_queries(sp, qs, 1024);
            nmaps++;
            uint64_t gn, ge = grid_edges(&grid, &legend, corner, &gn);
            add(&gnodes, (double)gn);
            add(&gedges, (double)ge);
            add(&cells_acc, (double)grid.width * grid.height);
            cells_total += (double)grid.width * grid.height;
            {
                double w = grid.width, h = grid.height;
                all_edges += (w - 1) * h + w * (h - 1) + 2 * (w - 1) * (h - 1);
            }
            /* mkclear's part, timed apart */
            nbb_builder *bw;
            if (nbb_builder_new(&bw, &err) != NB_OK)
                die("builder", &err);
            double t0 = now_ms();
            if (nbb_put_level(bw, &legend, &agents, &grid, 0, &err) != NB_OK ||
                nbb_bake_clearance(bw, &legend, &clear_agents, &grid, 0, NULL, &err) != NB_OK)
                die(mp, &err);
            add(&clear_ms, now_ms() - t0);
            if (nbb_builder_write(bw, tmpl, &err) != NB_OK)
                die(tmpl, &err);
            nbb_builder_free(bw);
            nb_bundle *b;
            if (nb_bundle_open(tmpl, 0, NULL, &b, &err) != NB_OK)
                die(tmpl, &err);
            /* the baseline, once per query */
            nb_aa *aa;
            if (nb_aa_open(b, &aa, &err) != NB_OK)
                die("nb_aa_open", &err);
            for (size_t i = 0; i < nq; i++) {
                query *q = &qs[i];
                uint64_t aexp = 0;
                double dt = 1e300;
                for (int rep = 0; rep < repeat; rep++) { /* the fastest of the runs */
                    double t = now_ms();
                    q->opt = profile_haa ? 1 : aa_find(aa, q, corner, &aexp);
                    double d = now_ms() - t;
                    dt = d < dt ? d : dt;
                }
                aa_total_ms += dt;
                if (q->opt < 0) {
                    unsolvable++;
                    continue;
                }
                add(&aa_exp_b[q->bucket], (double)aexp);
                add(&aa_us_b[q->bucket], dt * 1e3);
                add(&aa_exp, (double)aexp);
                add(&aa_us, dt * 1e3);
            }
            nb_aa_close(aa);
            nqueries += (long)nq;

            for (size_t k = 0; k < nconf; k++) {
                conf *cf = &confs[k];
                nbb_abstract_opts o;
                nbb_abstract_defaults(&o);
                o.cluster = cf->cluster;
                o.quality = cf->quality;
                o.placement = cf->placement;
                o.paths = cf->paths;
                o.corner = corner;
                o.clearance_cap = cf->quality == NBI_QUALITY_HIGH ? cap : 0; /* LQ truncates (the paper) */
                uint8_t *payload;
                size_t len;
                nbb_abstract_stats st;
                double tb = now_ms();
                if (nbb_abstract_build(b, &o, &payload, &len, &st, &err) != NB_OK)
                    die(mp, &err);
                double bms = now_ms() - tb;
                add(&cf->build_ms, bms);
                cf->build_total_ms += bms;
                add(&cf->nodes_pct, 100.0 * (double)st.nodes / (double)gn);
                add(&cf->nodes_all_pct, 100.0 * (double)st.nodes / ((double)grid.width * grid.height));
                add(&cf->edges_pct, 100.0 * (double)st.edges / (double)ge);
                add(&cf->bytes, (double)len);
                cf->nodes_total += (double)st.nodes;
                cf->edges_total += (double)st.edges;
                cf->through_total += (double)st.through;
                nbi_agraph g;
                nb_haa *ws;
                if (nbi_agraph_view(payload, len, grid.width, grid.height, &g, &err) != NB_OK ||
                    nbi_haa_new_graph(b, &g, len, &ws, &err) != NB_OK)
                    die(mp, &err);
                for (size_t i = 0; i < nq; i++) {
                    const query *q = &qs[i];
                    if (q->opt < 0)
                        continue;
                    nb_aa_query aq = aa_query(q, corner);
                    nb_haa_result r;
                    double dt = 1e300;
                    nb_status qs_ = NB_OK;
                    for (int rep = 0; rep < repeat; rep++) {
                        double t = now_ms();
                        qs_ = tu_haa_find(ws, &aq, 0, &r, &err);
                        double d = now_ms() - t;
                        dt = d < dt ? d : dt;
                        if (rep == 0) /* the whole run counts each query once, as it came */
                            cf->query_total_ms += d;
                    }
                    if (qs_ != NB_OK || r.status != NB_PATH_FOUND) {
                        cf->failures++;
                        continue;
                    }
                    double e = q->opt > 0 ? 100.0 * (r.length - q->opt) / q->opt : 0;
                    add(&cf->err, e);
                    add(&cf->err_b[q->bucket], e);
                    add(q->size == 1 ? &cf->err1 : &cf->err2, e);
                    if (e > cf->err_max)
                        cf->err_max = e;
                    add(&cf->aerr, q->opt > 0 ? 100.0 * (r.abstract_length - q->opt) / q->opt : 0);
                    add(&cf->exp_b[q->bucket], (double)r.expanded);
                    add(&cf->ins_b[q->bucket], (double)r.expanded_insert);
                    add(&cf->srch_b[q->bucket], (double)r.expanded_search);
                    add(&cf->ref_b[q->bucket], (double)r.expanded_refine);
                    add(&cf->us_b[q->bucket], dt * 1e3);
                    add(&cf->exp_all, (double)r.expanded);
                    add(&cf->us_all, dt * 1e3);
                }
                /* Straightened, in a pass of its own (the same order, so
                 * that neither pass warms the caches for the other). */
                for (size_t i = 0; i < nq; i++) {
                    const query *q = &qs[i];
                    if (q->opt < 0)
                        continue;
                    nb_aa_query aq = aa_query(q, corner);
                    nb_haa_result rs;
                    double dt = 1e300;
                    nb_status ss = NB_OK;
                    for (int rep = 0; rep < repeat; rep++) {
                        double t = now_ms();
                        ss = tu_haa_find(ws, &aq, NB_HAA_STRAIGHTEN, &rs, NULL);
                        double d = now_ms() - t;
                        dt = d < dt ? d : dt;
                    }
                    add(&cf->us_str, dt * 1e3);
                    cf->query_str_ms += dt;
                    if (ss == NB_OK && rs.status == NB_PATH_FOUND && q->opt > 0) {
                        double es = 100.0 * (rs.length - q->opt) / q->opt;
                        add(&cf->serr, es);
                        add(q->size == 1 ? &cf->serr1 : &cf->serr2, es);
                        add(&cf->serr_b[q->bucket], es);
                        if (es > cf->serr_max)
                            cf->serr_max = es;
                    }
                }
                nb_haa_close(ws);
                free(payload);
            }
            nb_bundle_close(b);
            nbb_grid_free(&grid);
        }
        if (ls)
            pclose(ls);
        if (nmaps == 0)
            continue;

        printf("\n## %d%% soft obstacles (%s): %ld maps, %ld queries (%ld without a path)\n\n",
               set_pct[si], set_dir[si], nmaps, nqueries, unsolvable);
        printf("Original graph: %.0f nodes (traversable cells) and %.0f edges a map on average "
               "(%.0f cells); mkclear %.2f ms a map.\n\n",
               mean(&gnodes), mean(&gedges), mean(&cells_acc), mean(&clear_ms));
        printf("Graph size (Table I: nodes and edges against the original graph's, totals over "
               "the maps) and build time:\n\n");
        printf("| graph | placement | nodes %% | edges %% | edges %% with the through-replaced | "
               "nodes %% of all cells | edges %% of all cells' | KB a map | build ms a map |\n"
               "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (size_t k = 0; k < nconf; k++) {
            const conf *cf = &confs[k];
            printf("| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.2f |\n", label(cf),
                   nbi_placement_name(cf->placement), 100 * cf->nodes_total / gnodes.sum,
                   100 * cf->edges_total / gedges.sum,
                   100 * (cf->edges_total + cf->through_total) / gedges.sum,
                   100 * cf->nodes_total / cells_total,
                   100 * cf->edges_total / all_edges, mean(&cf->bytes) / 1024, mean(&cf->build_ms));
        }
        printf("\nPath error against AA*'s optimal length, %% (Figure 5): the refined path, the "
               "abstract path's weight, and the refined path straightened (NB_HAA_STRAIGHTEN):"
               "\n\n| graph | placement | error | size 1 | size 2 | max | abstract path | "
               "straightened | size 1 | size 2 | max |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (size_t k = 0; k < nconf; k++) {
            const conf *cf = &confs[k];
            printf("| %s | %s | %.2f | %.2f | %.2f | %.1f | %.2f | %.2f | %.2f | %.2f | %.1f |\n",
                   label(cf), nbi_placement_name(cf->placement), mean(&cf->err), mean(&cf->err1),
                   mean(&cf->err2), cf->err_max, mean(&cf->aerr), mean(&cf->serr), mean(&cf->serr1),
                   mean(&cf->serr2), cf->serr_max);
        }
        printf("\nSpeed, mean over every query (Figure 6 by length below): microseconds and nodes "
               "expanded, HAA* and AA* in the same run:\n\n| graph | placement | HAA* µs | "
               "straightened µs | AA* µs | AA* / HAA* | HAA* expanded | AA* expanded |\n"
               "|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (size_t k = 0; k < nconf; k++) {
            const conf *cf = &confs[k];
            printf("| %s | %s | %.1f | %.1f | %.1f | %.2f | %.0f | %.0f |\n", label(cf),
                   nbi_placement_name(cf->placement), mean(&cf->us_all), mean(&cf->us_str),
                   mean(&aa_us), mean(&aa_us) / mean(&cf->us_all), mean(&cf->exp_all),
                   mean(&aa_exp));
        }
        long fails = 0;
        for (size_t k = 0; k < nconf; k++)
            fails += confs[k].failures;
        printf("\nPer map, mean of the percentages: ");
        for (size_t k = 0; k < nconf; k++)
            printf("%sCS%u %s %s nodes %.1f%% edges %.1f%%", k ? "; " : "", confs[k].cluster,
                   confs[k].quality == NBI_QUALITY_HIGH ? "HQ" : "LQ",
                   nbi_placement_name(confs[k].placement), mean(&confs[k].nodes_pct),
                   mean(&confs[k].edges_pct));
        printf(".\n");
        printf("\nHAA* failures (no path where AA* found one, or an error): %ld.\n", fails);
        printf("\nWhole run (graph builds + every query) over the %ld maps, seconds: ", nmaps);
        for (size_t k = 0; k < nconf; k++)
            printf("%sCS%u %s %s %.2f", k ? "; " : "", confs[k].cluster,
                   confs[k].quality == NBI_QUALITY_HIGH ? "HQ" : "LQ",
                   nbi_placement_name(confs[k].placement),
                   (confs[k].build_total_ms + confs[k].query_total_ms) / 1e3);
        printf("; AA* queries alone %.2f; mkclear's clearance and components for all the maps "
               "%.2f.\n",
               aa_total_ms / 1e3, clear_ms.sum / 1e3);

        bucket_header("\nBy path length (the query file's AA* step count), mean µs a query [nodes "
                      "expanded: insertion + search + refinement]:\n\n| steps | queries | AA* µs "
                      "[expanded] |",
                      "|---|---:|---:|", confs, nconf);
        for (int bk = 0; bk < NBUCKETS; bk++) {
            if (aa_us_b[bk].n == 0)
                continue;
            printf("| %s | %.0f | %.1f [%.0f] |", bucket_name(bk), aa_us_b[bk].n,
                   mean(&aa_us_b[bk]), mean(&aa_exp_b[bk]));
            for (size_t k = 0; k < nconf; k++) {
                const conf *cf = &confs[k];
                printf(" %.1f [%.0f+%.0f+%.0f] |", mean(&cf->us_b[bk]), mean(&cf->ins_b[bk]),
                       mean(&cf->srch_b[bk]), mean(&cf->ref_b[bk]));
            }
            printf("\n");
        }
        bucket_header("\nMean error % by path length, refined / straightened:\n\n| steps |", "|---|",
                      confs, nconf);
        for (int bk = 0; bk < NBUCKETS; bk++) {
            if (aa_us_b[bk].n == 0)
                continue;
            printf("| %s |", bucket_name(bk));
            for (size_t k = 0; k < nconf; k++)
                printf(" %.2f / %.2f |", mean(&confs[k].err_b[bk]), mean(&confs[k].serr_b[bk]));
            printf("\n");
        }
        fflush(stdout);
    }
    remove(tmpl);
    return 0;
}
