/* test_world_trim.c: nb_world_trim, the world bundle's pages of the tiles
 * not loaded given back (lib/runtime/stream/world_trim.c, bundle/osfile.c),
 * and nb_world_resident counting the process's own pages.
 *
 * A random level of 512 x 512 cells in tiles of 32 (16 x 16 tiles) is
 * baked and linked; one handle (W) walks a 3 x 3 window across it while
 * world HAA* asks long queries (which read the graph above the tiles of
 * tiles far from the window), another (R) has every tile loaded and is
 * never trimmed.
 * - Residency against an independent answer: the Rss of the world
 *   bundle's mapping in /proc/self/smaps (the kernel's count of the
 *   process's pages there).  Trims after long queries with a window held
 *   lower it (all but what their own reads map), and nb_world_resident
 *   falls by exactly as much; a trim
 *   with every tile loaded gives back nothing and does not lower it.
 * - Queries after trims give R's answers, cell for cell (HAA* and world
 *   Annotated A*): W's tiles all unloaded, trimmed (every tile's graph
 *   pages given back), loaded again, then asked; and on the walk, where
 *   W answers within its window.
 * - Four threads ask HAA* queries of W while the main thread loads,
 *   unloads and trims (make check-tsan runs this under ThreadSanitizer):
 *   every answer is R's.  Again under blocks across tile borders and inside
 *   tiles (each thread's workspace keeps its repaired tiles between queries
 *   while their loads come and go): R's status, and walks clear of the
 *   blocks never shorter than world Annotated A* on R under the same blocks.
 * - The optimal layer's borders (world_opt, read in place): a level of
 *   256 x 256 in tiles of 32 linked with `optimal: 1`; after world
 *   optimal queries, a trim with a 3 x 3 window held leaves no page of a
 *   tile outside the window resident in world_opt's tile bytes, and keeps
 *   the window's (/proc/self/pagemap, the kernel's own count of the
 *   mapping's pages); then every tile loaded again, the queries give R's answers. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stream/stream.h"
#include "worldbake.h"

/* The Rss of the mapping that holds p, in bytes, from /proc/self/smaps;
 * -1 when it cannot be read (no /proc: the residency checks are skipped). */
static long vma_rss(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    int in = 0;
    long rss = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long a, e;
        if (sscanf(line, "%lx-%lx ", &a, &e) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = (uintptr_t)p >= a && (uintptr_t)p < e;
            continue;
        }
        long kb;
        if (in && sscanf(line, "Rss: %ld kB", &kb) == 1) {
            rss = kb * 1024;
            break;
        }
    }
    fclose(f);
    return rss;
}

typedef struct world2 {
    nb_world *w, *ref;
    nb_world_info in;
    const nb_agent *agent;
} world2;

static nb_cell random_cell(tu_rng *r, const world2 *k)
{
    return (nb_cell){(int32_t)tu_below(r, k->in.width), (int32_t)tu_below(r, k->in.height)};
}

static nb_haa_query haa_query(const world2 *k, nb_cell s, nb_cell g)
{
    nb_haa_query q;
    nb_haa_query_init(&q);
    q.start = s, q.goal = g;
    q.capability = k->agent->capability, q.size = k->agent->size;
    q.flags = NB_HAA_STRAIGHTEN;
    return q;
}

/* The same answer from a and b, cell for cell, and as many nodes
 * expanded; with unloaded_ok, a's NB_ERR_UNLOADED (a tile its window does
 * not hold) passes too.  *answered: a answered. */
static int same_haa(nb_world_haa *a, nb_world_haa *b, const nb_haa_query *q, int unloaded_ok,
                    int *answered)
{
    nb_haa_result x, y;
    nb_err e1, e2;
    nb_status s1 = nb_world_haa_find(a, q, NULL, &x, &e1);
    *answered = s1 == NB_OK;
    if (s1 == NB_ERR_UNLOADED && unloaded_ok)
        return 1;
    nb_status s2 = nb_world_haa_find(b, q, NULL, &y, &e2);
    int good = s1 == s2 && (s1 != NB_OK || (x.status == y.status && x.path_len == y.path_len &&
                                            x.length == y.length && x.expanded == y.expanded));
    for (size_t i = 0; good && s1 == NB_OK && i < x.path_len; i++)
        good = x.path[i].x == y.path[i].x && x.path[i].y == y.path[i].y;
    if (!good)
        diag("HAA* (%d, %d) to (%d, %d): trimmed %d/%d len %zu %.9f; by hand %d/%d len %zu %.9f",
             q->start.x, q->start.y, q->goal.x, q->goal.y, s1, x.status, x.path_len, x.length, s2,
             y.status, y.path_len, y.length);
    return good;
}

static int same_aa(nb_world_aa *a, nb_world_aa *b, const world2 *k, nb_cell s, nb_cell g)
{
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, k->agent);
    q.start = s, q.goal = g;
    nb_aa_result x, y;
    nb_err e1, e2;
    nb_status s1 = nb_world_aa_find(a, &q, NULL, &x, &e1);
    nb_status s2 = nb_world_aa_find(b, &q, NULL, &y, &e2);
    int good = s1 == s2 && (s1 != NB_OK || (x.status == y.status && x.path_len == y.path_len &&
                                            x.cost == y.cost));
    for (size_t i = 0; good && s1 == NB_OK && i < x.path_len; i++)
        good = x.path[i].x == y.path[i].x && x.path[i].y == y.path[i].y;
    if (!good)
        diag("AA* (%d, %d) to (%d, %d): trimmed %d, by hand %d", s.x, s.y, g.x, g.y, s1, s2);
    return good;
}

/* Holds the 3 x 3 tiles around (cx, cy) and no other. */
static void window(nb_world *w, const nb_world_info *in, long cx, long cy)
{
    for (uint32_t ty = 0; ty < in->rows; ty++)
        for (uint32_t tx = 0; tx < in->columns; tx++) {
            nb_world_tile t = {tx, ty};
            if (labs((long)tx - cx) <= 1 && labs((long)ty - cy) <= 1)
                nb_world_load(w, t, NULL);
            else if (nb_world_loaded(w, t))
                nb_world_unload(w, t, NULL);
        }
}

static nb_cell in_tile(tu_rng *r, const world2 *k, long tx, long ty)
{
    uint32_t side = k->in.tile;
    return (nb_cell){(int32_t)(tx * side + tu_below(r, side)), (int32_t)(ty * side + tu_below(r, side))};
}

/* A 3 x 3 window walked along the diagonal; at each step long HAA* queries
 * from the window to far cells (the search above the tiles needs no tile
 * mapped and reads the graph of the tiles it crosses; its refinement
 * outside the window is NB_ERR_UNLOADED), short Annotated A* inside the
 * window, then a trim, the residency compared with smaps'. */
static void check_walk(world2 *k)
{
    nb_err err;
    nb_world_haa *hw, *hr;
    nb_world_aa *aw, *ar;
    if (!ok(nb_world_haa_open(k->w, &hw, &err) == NB_OK &&
                nb_world_haa_open(k->ref, &hr, &err) == NB_OK &&
                nb_world_aa_open(k->w, &aw, &err) == NB_OK &&
                nb_world_aa_open(k->ref, &ar, &err) == NB_OK,
            "workspaces open: %s", err.msg))
        return;
    const void *map = k->w->index->mapping;
    /* The first trim turns the mapping to small pages; the huge pages it
     * splits may leave more mapped than it gives (measured here: +1.9 MB
     * at the first window), so the walk starts after one. */
    nb_world_trim(k->w);
    tu_rng r = {0x7a11ULL};
    unsigned wrong = 0, answered = 0, trims = 0, dropped = 0, mismatch = 0, aawrong = 0, over = 0;
    size_t given = 0;
    long worst = 0, fell = 0;
    for (long c = 0; c < (long)k->in.columns; c += 2) {
        window(k->w, &k->in, c, c);
        for (int i = 0; i < 12; i++) {
            nb_cell s = in_tile(&r, k, c, c);
            nb_haa_query q = haa_query(k, s, random_cell(&r, k));
            int a;
            wrong += !same_haa(hw, hr, &q, 1, &a);
            answered += a;
            q = haa_query(k, s, in_tile(&r, k, c + 1 < (long)k->in.columns ? c + 1 : c, c));
            wrong += !same_haa(hw, hr, &q, 0, &a);
            answered += a;
            aawrong += !same_aa(aw, ar, k, s, in_tile(&r, k, c, c > 0 ? c - 1 : c));
        }
        long before = vma_rss(map);
        size_t res_before = nb_world_resident(k->w);
        given += nb_world_trim(k->w);
        long after = vma_rss(map);
        size_t res_after = nb_world_resident(k->w);
        trims++;
        if (before >= 0) {
            if (getenv("NB_TRIM_DIAG"))
                diag("window (%ld, %ld): Rss %ld -> %ld, resident %zu -> %zu", c, c, before, after,
                     res_before, res_after);
            dropped += after < before;
            /* A trim reads the arc index at its runs' ends, and a read maps
             * up to 16 pages around it (the kernel's fault-around) in the
             * loaded tiles' part it keeps: at most 4 runs of 3 graphs of
             * 4 agents here, 2 reads each. */
            over += after > before + 96 * 65536;
            fell += before - after;
            long d = (before - after) - ((long)res_before - (long)res_after);
            mismatch += d != 0;
            worst = labs(d) > worst ? labs(d) : worst;
        }
    }
    ok(answered > 20, "the walk: %u HAA* queries answered within the window", answered);
    is_int(wrong, 0, "HAA* after trims: R's answers cell for cell (unloaded outside the window)");
    is_int(aawrong, 0, "world AA* inside the window after trims: R's answers cell for cell");
    ok(given > 0, "the trims gave back %zu bytes of whole pages", given);
    if (vma_rss(map) >= 0) {
        ok(dropped * 4 >= trims * 3 && fell > 0,
           "most trims lowered the world bundle's Rss in /proc/self/smaps (%u of %u, %ld bytes in "
           "all)",
           dropped, trims, fell);
        is_int(over, 0, "no trim raised it by more than its reads map");
        is_int(mismatch, 0, "nb_world_resident fell by what smaps' Rss fell at each trim (worst "
                            "difference %ld bytes)",
               worst);
        /* Every tile loaded: nothing of theirs is given back. */
        for (uint32_t t = 0; t < k->in.columns * k->in.rows; t++)
            nb_world_load(k->w, (nb_world_tile){t % k->in.columns, t / k->in.columns}, NULL);
        nb_haa_query q = haa_query(k, random_cell(&r, k), random_cell(&r, k));
        int a;
        wrong = !same_haa(hw, hr, &q, 0, &a);
        long before = vma_rss(map);
        size_t g = nb_world_trim(k->w);
        long after = vma_rss(map);
        ok(g == 0 && after >= before && !wrong,
           "every tile loaded: the trim gives back nothing (%zu bytes; Rss %ld -> %ld)", g,
           before, after);
    } else
        diag("no /proc/self/smaps: residency not compared");
    nb_world_aa_close(ar);
    nb_world_aa_close(aw);
    nb_world_haa_close(hr);
    nb_world_haa_close(hw);
}

/* Rounds of: W's tiles all unloaded and trimmed (every tile's graph and
 * landmark pages given back), loaded again, then far queries: R's answers. */
static void check_reread(world2 *k)
{
    nb_err err;
    nb_world_haa *hw, *hr;
    if (!ok(nb_world_haa_open(k->w, &hw, &err) == NB_OK &&
                nb_world_haa_open(k->ref, &hr, &err) == NB_OK,
            "workspaces open: %s", err.msg))
        return;
    tu_rng r = {0x5eedULL};
    unsigned wrong = 0, found = 0;
    size_t given = 0;
    uint32_t n = k->in.columns * k->in.rows;
    for (int round = 0; round < 4; round++) {
        nb_world_unload_cells(k->w, 0, 0, k->in.width, k->in.height, NULL);
        given += nb_world_trim(k->w);
        nb_world_load_cells(k->w, 0, 0, k->in.width, k->in.height, NULL);
        for (int i = 0; i < 25; i++) {
            nb_haa_query q = haa_query(k, random_cell(&r, k), random_cell(&r, k));
            int a;
            wrong += !same_haa(hw, hr, &q, 0, &a);
            nb_haa_result x;
            found += nb_world_haa_find(hw, &q, NULL, &x, NULL) == NB_OK &&
                     x.status == NB_PATH_FOUND;
        }
    }
    (void)n;
    ok(given > 0, "4 rounds of every tile unloaded and trimmed: %zu bytes given back", given);
    is_int(wrong, 0, "100 far HAA* queries after them: R's answers cell for cell");
    ok(found > 40, "... %u of them paths", found);
    nb_world_haa_close(hr);
    nb_world_haa_close(hw);
}

typedef struct loader_ctx {
    const char *tiles;
    char path[4096]; /* the loader is called under the world's lock: one at a time */
} loader_ctx;

static nb_status loader(void *opaque, nb_world_tile t, const char **path, const void **data,
                        size_t *len, nb_err *err)
{
    (void)data, (void)len, (void)err;
    loader_ctx *c = opaque;
    snprintf(c->path, sizeof c->path, "%s/%u_%u.nbb", c->tiles, t.column, t.row);
    *path = c->path;
    return NB_OK;
}

typedef struct job {
    world2 *k;
    uint64_t seed;
    unsigned wrong, found;
    atomic_int *stop;
} job;

static void *querier(void *arg)
{
    job *j = arg;
    nb_world_haa *hw, *hr;
    nb_err err;
    if (nb_world_haa_open(j->k->w, &hw, &err) != NB_OK ||
        nb_world_haa_open(j->k->ref, &hr, &err) != NB_OK) {
        j->wrong = 1000;
        return NULL;
    }
    tu_rng r = {j->seed};
    for (int i = 0; i < 30; i++) {
        nb_haa_query q = haa_query(j->k, random_cell(&r, j->k), random_cell(&r, j->k));
        int a;
        j->wrong += !same_haa(hw, hr, &q, 0, &a);
        j->found += a;
    }
    nb_world_haa_close(hr);
    nb_world_haa_close(hw);
    return NULL;
}

/* Blocks of 6 x 6 cells in every third tile: one across its right edge, one across its
 * lower right corner, one inside (so the tiles around them are repaired, kept between
 * queries under the overlay's version, or walked cell by cell). */
static int overlay_blocks(const world2 *k, nb_world_overlay *ov)
{
    uint32_t side = k->in.tile;
    for (uint32_t ty = 0; ty + 1 < k->in.rows; ty += 3)
        for (uint32_t tx = 0; tx + 1 < k->in.columns; tx += 3) {
            long x = (long)(tx * side), y = (long)(ty * side);
            if (nb_world_overlay_block(ov, x + side - 3, y + side / 2 - 3, 6, 6, NULL) != NB_OK ||
                nb_world_overlay_block(ov, x + side - 3, y + side - 3, 6, 6, NULL) != NB_OK ||
                nb_world_overlay_block(ov, x + 9, y + 9, 6, 6, NULL) != NB_OK)
                return 0;
        }
    return 1;
}

/* A query of W under ovw against R under ovr: the same status, and when found a walk of
 * adjacent cells from start to goal on no blocked cell, never shorter than world Annotated
 * A*'s optimum on R (W's tiles come and go, so whether a tile is repaired or walked cell by
 * cell, and with it the path, may differ from R's). */
static int overlay_answer(nb_world_haa *hw, nb_world_aa *ar, nb_world_overlay *ovw,
                          nb_world_overlay *ovr, const world2 *k, const nb_haa_query *q)
{
    nb_haa_result x;
    nb_aa_result y;
    nb_aa_query aq;
    nb_aa_query_init(&aq);
    nb_aa_query_agent(&aq, k->agent);
    aq.start = q->start, aq.goal = q->goal;
    nb_status s1 = nb_world_haa_find(hw, q, ovw, &x, NULL);
    nb_status s2 = nb_world_aa_find(ar, &aq, ovr, &y, NULL);
    int good = s1 == s2 && (s1 != NB_OK || x.status == y.status);
    if (good && s1 == NB_OK && x.status == NB_PATH_FOUND) {
        good = x.path_len > 0 && x.path[0].x == q->start.x && x.path[0].y == q->start.y &&
               x.path[x.path_len - 1].x == q->goal.x && x.path[x.path_len - 1].y == q->goal.y &&
               x.length >= y.cost - 1e-9 * (1 + y.cost);
        for (size_t i = 0; good && i < x.path_len; i++)
            good = !nb_world_overlay_blocked(ovw, x.path[i].x, x.path[i].y) &&
                   (i == 0 || (labs((long)x.path[i].x - x.path[i - 1].x) <= 1 &&
                               labs((long)x.path[i].y - x.path[i - 1].y) <= 1));
    }
    if (!good)
        diag("HAA* under blocks (%d, %d) to (%d, %d): W %d/%d length %.6f; R's AA* %d/%d %.6f",
             q->start.x, q->start.y, q->goal.x, q->goal.y, s1, x.status, x.length, s2, y.status,
             y.cost);
    return good;
}

static void *overlay_querier(void *arg)
{
    job *j = arg;
    nb_world_haa *hw;
    nb_world_aa *ar;
    nb_world_overlay *ovw, *ovr;
    if (nb_world_haa_open(j->k->w, &hw, NULL) != NB_OK) {
        j->wrong = 1000;
        return NULL;
    }
    if (nb_world_aa_open(j->k->ref, &ar, NULL) != NB_OK) {
        nb_world_haa_close(hw);
        j->wrong = 1000;
        return NULL;
    }
    if (nb_world_overlay_open(j->k->w, &ovw, NULL) == NB_OK) {
        if (nb_world_overlay_open(j->k->ref, &ovr, NULL) == NB_OK) {
            if (overlay_blocks(j->k, ovw) && overlay_blocks(j->k, ovr)) {
                tu_rng r = {j->seed};
                for (int i = 0; i < 30; i++) {
                    nb_haa_query q = haa_query(j->k, random_cell(&r, j->k), random_cell(&r, j->k));
                    j->wrong += !overlay_answer(hw, ar, ovw, ovr, j->k, &q);
                    j->found++;
                }
            } else
                j->wrong = 1000;
            nb_world_overlay_close(ovr);
        } else
            j->wrong = 1000;
        nb_world_overlay_close(ovw);
    } else
        j->wrong = 1000;
    nb_world_aa_close(ar);
    nb_world_haa_close(hw);
    return NULL;
}

/* Four threads query W (loading what they need through the loader, no
 * limit) while this one unloads tiles and trims; with blocks, the four
 * threads' world HAA* workspaces keep their repaired tiles across queries
 * while the tiles are unloaded and loaded again under them. */
static void check_threads(world2 *k, const char *tiles, int blocks)
{
    loader_ctx lc = {.tiles = tiles};
    nb_world_set_loader(k->w, loader, NULL, &lc);
    nb_world_set_budget(k->w, SIZE_MAX);
    atomic_int stop;
    atomic_init(&stop, 0);
    job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (job){k, 900 + (uint64_t)i, 0, 0, &stop};
        pthread_create(&th[i], NULL, blocks ? overlay_querier : querier, &jobs[i]);
    }
    tu_rng r = {0x7417ULL};
    unsigned trims = 0;
    uint32_t n = k->in.columns * k->in.rows;
    /* Until the queriers end: unload a few tiles, trim, again. */
    for (int i = 0; i < 400; i++) {
        for (int u = 0; u < 8; u++) {
            uint32_t t = tu_below(&r, n);
            nb_world_unload(k->w, (nb_world_tile){t % k->in.columns, t / k->in.columns}, NULL);
        }
        nb_world_trim(k->w);
        trims++;
    }
    unsigned wrong = 0, answered = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        wrong += jobs[i].wrong;
        answered += jobs[i].found;
    }
    if (blocks)
        is_int(wrong, 0, "four threads' 120 HAA* queries under blocks across tile borders, "
                         "loading what they need while another unloads and trims (%u trims): "
                         "R's status, walks clear of the blocks no shorter than R's world "
                         "Annotated A* (%u asked)",
               trims, answered);
    else
        is_int(wrong, 0, "four threads' 120 HAA* queries, loading what they need while another "
                         "unloads and trims (%u trims): R's answers (%u answered)",
               trims, answered);
    nb_world_set_budget(k->w, 0);
    nb_world_set_loader(k->w, NULL, NULL, NULL);
}

/* Pages of [p, e) wholly inside it that this process's page table maps:
 * bit 63 of each page's entry in /proc/self/pagemap (the kernel's answer;
 * mincore(2) would count the page cache, which keeps a page given back);
 * -1 when it cannot be read. */
static long resident_inside(const uint8_t *p, const uint8_t *e)
{
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)p + pg - 1) / pg, b = (uintptr_t)e / pg;
    if (b <= a)
        return 0;
    FILE *f = fopen("/proc/self/pagemap", "rb");
    long count = 0;
    if (!f || fseek(f, (long)(a * 8), SEEK_SET) != 0)
        count = -1;
    for (uintptr_t i = a; count >= 0 && i < b; i++) {
        uint64_t v;
        if (fread(&v, 8, 1, f) != 1)
            count = -1;
        else
            count += (long)(v >> 63);
    }
    if (f)
        fclose(f);
    return count;
}

/* One world_opt section's tile bytes: tile t's are at + off[t] to at + off[t + 1]. */
typedef struct optsec {
    const uint8_t *off, *at;
    uint32_t tiles;
} optsec;

static size_t opt_sections(const nb_world *w, optsec *o, size_t max)
{
    const nb_bundle *b = w->index;
    size_t n = 0;
    for (size_t i = 0; i < b->nsections && n < max; i++) {
        if (b->sections[i].info.type != NB_SEC_WORLD_OPT)
            continue;
        const uint8_t *p = b->sections[i].payload;
        uint32_t tiles = nbi_get32(p + NBI_WOPT_TILES), links = nbi_get32(p + NBI_WOPT_LINKS);
        o[n].off = p + NBI_WOPT_HEADER;
        o[n].at = o[n].off + 4 * ((size_t)tiles + 1) + 4 * (size_t)links;
        o[n].tiles = tiles;
        n++;
    }
    return n;
}

/* The resident whole pages of world_opt's tile bytes: n[0] of the 3 x 3
 * tiles round (cx, cy), n[1] of the others. */
static void opt_resident(const optsec *o, size_t ns, const nb_world_info *in, long cx, long cy,
                         long n[2])
{
    n[0] = n[1] = 0;
    for (size_t k = 0; k < ns; k++)
        for (uint32_t t = 0; t < o[k].tiles && t < in->columns * in->rows; t++) {
            long tx = t % in->columns, ty = t / in->columns;
            long c = resident_inside(o[k].at + nbi_u32at(o[k].off, t),
                                     o[k].at + nbi_u32at(o[k].off, t + 1));
            if (c < 0) {
                n[0] = n[1] = -1;
                return;
            }
            n[!(labs(tx - cx) <= 1 && labs(ty - cy) <= 1)] += c;
        }
}

/* World optimal queries of ws (W) and wr (R) between random cells: the
 * same status, length and cells.  *found: paths. */
static unsigned opt_wrong(nb_world_sg *ws, nb_world_sg *wr, const nb_world_info *in,
                          const nb_agent *agent, tu_rng *r, int n, unsigned *found)
{
    unsigned wrong = 0;
    for (int i = 0; i < n; i++) {
        nb_sg_query q;
        nb_sg_query_init(&q);
        q.start = (nb_cell){(int32_t)tu_below(r, in->width), (int32_t)tu_below(r, in->height)};
        q.goal = (nb_cell){(int32_t)tu_below(r, in->width), (int32_t)tu_below(r, in->height)};
        q.size = agent->size, q.capability = agent->capability;
        nb_sg_result x, y;
        nb_err e1, e2;
        nb_status s1 = nb_world_sg_find(ws, &q, NULL, &x, &e1);
        nb_status s2 = nb_world_sg_find(wr, &q, NULL, &y, &e2);
        int good = s1 == s2 && (s1 != NB_OK || (x.status == y.status && x.path_len == y.path_len &&
                                                x.length == y.length));
        for (size_t j = 0; good && s1 == NB_OK && j < x.path_len; j++)
            good = x.path[j].x == y.path[j].x && x.path[j].y == y.path[j].y;
        if (!good)
            diag("optimal (%d, %d) to (%d, %d): trimmed %d, by hand %d", q.start.x, q.start.y,
                 q.goal.x, q.goal.y, s1, s2);
        wrong += !good;
        *found += s1 == NB_OK && x.status == NB_PATH_FOUND;
    }
    return wrong;
}

/* nb_world_trim and world_opt (opt_wview.c reads it in place). */
static void check_opt(const char *tmp)
{
    tu_rng r = {0x0b7ULL};
    nbb_grid g;
    tu_random_grid(&r, 256, 256, 20, 1, &g);
    const char *map = tu_path(tmp, "trim-opt.map");
    tw_write_map(map, &g);
    nbb_grid_free(&g);
    int n = 0;
    const char *dir = tw_fresh_dir(tmp, "o", &n);
    nb_err err;
    char *agents = strdup(tu_src("data/sample-agents.yaml")), *m = strdup(map);
    int cut = nbb_world_cut(m, NULL, agents, 32, 8, dir, 2, NULL, NULL, NULL, &err) == NB_OK;
    free(m), free(agents);
    if (cut) {
        FILE *f = fopen(tu_path(dir, "world.yaml"), "a");
        fputs("optimal: 1\n", f);
        fclose(f);
    }
    tw_world wd;
    memset(&wd, 0, sizeof wd);
    if (!ok(cut && tw_bake_world(dir, 0, &wd, &err),
            "a random level of 256 x 256 in tiles of 32 linked with optimal: 1: %s", err.msg))
        return;
    nb_world *w = NULL, *ref = NULL;
    nb_world_sg *ws = NULL, *wr = NULL;
    const char *path = tu_path(dir, "world.nbw");
    nb_world_info in;
    if (!ok(nb_world_open(path, NULL, 0, NULL, &w, &err) == NB_OK &&
                nb_world_open(path, NULL, 0, NULL, &ref, &err) == NB_OK &&
                nb_world_load_cells(ref, 0, 0, 256, 256, &err) == NB_OK &&
                nb_world_load_cells(w, 0, 0, 256, 256, &err) == NB_OK &&
                nb_world_sg_open(w, &ws, &err) == NB_OK && nb_world_sg_open(ref, &wr, &err) == NB_OK,
            "it opens twice, every tile loaded, world optimal workspaces: %s", err.msg))
        goto out;
    nb_world_describe(w, &in);
    const nb_agent *agent = nb_agent_get(nb_world_bundle(w), 0);
    optsec o[8];
    size_t ns = opt_sections(w, o, 8);
    ok(ns > 0, "the world bundle has %zu world_opt sections", ns);
    unsigned found = 0, wrong = opt_wrong(ws, wr, &in, agent, &r, 40, &found);
    is_int(wrong, 0, "40 world optimal queries before any trim: R's answers (%u paths)", found);
    nb_world_trim(w); /* small pages from here on */
    /* Every tile's bytes read once more (the first trim split huge pages). */
    found = 0;
    wrong += opt_wrong(ws, wr, &in, agent, &r, 40, &found);
    long cx = in.columns / 2, cy = in.rows / 2;
    window(w, &in, cx, cy);
    long before[2], after[2];
    opt_resident(o, ns, &in, cx, cy, before);
    size_t given = nb_world_trim(w);
    opt_resident(o, ns, &in, cx, cy, after);
    if (before[0] < 0 || after[0] < 0)
        diag("no /proc/self/pagemap: world_opt's residency not compared");
    else {
        ok(given > 0 && before[1] > 0,
           "a trim with a 3 x 3 window held gives back %zu bytes (%ld pages of world_opt's bytes "
           "of tiles outside it were resident)",
           given, before[1]);
        is_int(after[1], 0, "none of them is resident after it");
        is_int(after[0], before[0], "the window's tiles' resident pages stay (%ld)", before[0]);
    }
    nb_world_load_cells(w, 0, 0, 256, 256, NULL);
    found = 0;
    wrong = opt_wrong(ws, wr, &in, agent, &r, 40, &found);
    is_int(wrong, 0, "40 world optimal queries after it, every tile loaded again: R's answers (%u "
                     "paths)", found);
out:
    nb_world_sg_close(wr);
    nb_world_sg_close(ws);
    nb_world_close(ref);
    nb_world_close(w);
    tw_world_close(&wd);
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    int n = 0;
    tu_rng r = {0x7e1aULL};
    nbb_grid g;
    tu_random_grid(&r, 512, 512, 20, 1, &g);
    const char *map = tu_path(tmp, "trim.map");
    tw_write_map(map, &g);
    nbb_grid_free(&g);
    const char *dir = tw_fresh_dir(tmp, "t", &n);
    nb_err err;
    char *agents = strdup(tu_src("data/sample-agents.yaml")), *m = strdup(map);
    tw_world wd;
    memset(&wd, 0, sizeof wd);
    if (!ok(nbb_world_cut(m, NULL, agents, 32, 8, dir, 2, NULL, NULL, NULL, &err) == NB_OK &&
                tw_bake_world(dir, 0, &wd, &err),
            "a random level of 512 x 512 cut into tiles of 32, baked and linked: %s", err.msg))
        return done_testing();
    free(m), free(agents);
    world2 k;
    memset(&k, 0, sizeof k);
    const char *path = tu_path(dir, "world.nbw");
    if (!ok(nb_world_open(path, NULL, 0, NULL, &k.w, &err) == NB_OK &&
                nb_world_open(path, NULL, 0, NULL, &k.ref, &err) == NB_OK &&
                nb_world_load_cells(k.ref, 0, 0, 512, 512, &err) == NB_OK,
            "the world opens twice, every tile of one loaded: %s", err.msg))
        return done_testing();
    nb_world_describe(k.w, &k.in);
    k.agent = nb_agent_get(nb_world_bundle(k.w), 0);
    ok(k.w->index->mapping != NULL, "the world bundle is mapped");
    is_int((long)nb_world_trim(NULL), 0, "nb_world_trim(NULL) gives back nothing");
    check_walk(&k);
    check_reread(&k);
    char *tiles = strdup(tu_path(dir, "tiles"));
    check_threads(&k, tiles, 0);
    check_threads(&k, tiles, 1);
    free(tiles);
    check_opt(tmp);
    nb_world_close(k.ref);
    nb_world_close(k.w);
    tw_world_close(&wd);
    return done_testing();
}
