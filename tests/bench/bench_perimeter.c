/* bench_perimeter: the paper's Table 1 (memory of radius-15 perimeter
 * heuristics), reproduced with 4-byte entries and the paper's symmetries,
 * then beaten with 16-bit entries, the symmetries the paper leaves out
 * and zlib; with build and lookup times, against the full table in the
 * same run, and the error of the rotated layout's approximate look-ups.
 *   bench_perimeter [--radius R] [--models DIR] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>

#include "motion/perimeter.h"
#include "testutil.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static const char *const names[] = {"humanoid", "tank", "vehicle"};
/* The paper's Table 1, in bytes: MB = 1,024,000 bytes (1000 KB), k = 1024. */
static const double paper[3][4] = {{8.6 * 1024000, 2.9 * 1024000, 360 * 1024., 90 * 1024.},
                                   {19.6 * 1024000, 6.5 * 1024000, 810 * 1024., 135 * 1024.},
                                   {24 * 1024000, 4.8 * 1024000, 600 * 1024., 140 * 1024.}};

static void human(double bytes, char *buf, size_t n)
{
    if (bytes >= 1024000)
        snprintf(buf, n, "%.2fMB", bytes / 1024000);
    else
        snprintf(buf, n, "%.1fk", bytes / 1024);
}

typedef struct built {
    nb_bundle *b;
    nb_model *m;
    nb_perimeter *p;
    nbb_perimeter_info info;
    double seconds;
    size_t zlen;
    uint64_t any_bytes; /* the tables for goals at any heading */
} built;

static int build(const char *dir, const char *name, unsigned radius, int layout, unsigned bits,
                 int paper_sym, built *out)
{
    static nb_model src;
    char file[1024];
    nb_err err;
    nbb_builder *bl;
    snprintf(file, sizeof file, "%s/%s.yaml", dir, name);
    memset(out, 0, sizeof *out);
    if (nbb_model_read(file, &src, &err) != NB_OK) {
        fprintf(stderr, "bench_perimeter: %s\n", err.msg);
        return 0;
    }
    nbb_perimeter_opts o = {.radius = radius, .layout = layout, .entry_bits = bits, .paper = paper_sym};
    uint8_t *payload;
    size_t len;
    double t0 = now();
    if (nbb_perimeter_encode(&src, &o, &payload, &len, &out->info, &err) != NB_OK) {
        fprintf(stderr, "bench_perimeter: %s\n", err.msg);
        return 0;
    }
    out->seconds = now() - t0;
    unsigned T = nbi_get32(payload + 28);
    if (out->info.any_tables)
        out->any_bytes = (out->info.entries - nbi_get32(payload + NBI_PERIM_HEADER +
                                                        (T - 2) * NBI_PERIM_TABLE_RECORD + 12)) *
                         bits / 8;
    uLongf zl = compressBound((uLong)len);
    uint8_t *z = malloc(zl);
    compress2(z, &zl, payload, (uLong)len, Z_BEST_COMPRESSION);
    out->zlen = zl;
    free(z);
    free(payload);
    const char *path = tu_path(tu_tmpdir(), "b.nbk");
    nbb_builder_new(&bl, NULL);
    nbb_put_model(bl, &src, NULL);
    nbb_put_perimeter(bl, &src, &o, NULL, NULL);
    nb_status st = nbb_builder_write(bl, path, &err);
    nbb_builder_free(bl);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &out->b, &err);
    if (st == NB_OK)
        st = nb_model_open(out->b, name, &out->m, &err);
    if (st == NB_OK)
        st = nb_perimeter_open(out->b, out->m, &out->p, &err);
    if (st != NB_OK) {
        fprintf(stderr, "bench_perimeter: %s\n", err.msg);
        return 0;
    }
    return 1;
}

static void unbuild(built *k)
{
    nb_perimeter_close(k->p);
    nb_model_close(k->m);
    nb_bundle_close(k->b);
}

/* Nanoseconds per look-up of random states around random stopped goals. */
static double lookup_ns(const built *k, unsigned radius, int quarter_only, double *sink)
{
    tu_rng r = {12345};
    unsigned H = nb_model_headings(k->m), S = nb_model_speeds(k->m), stop = nb_model_stop(k->m);
    enum { N = 400000 };
    static nb_motion_state s[1024], g[1024];
    for (int i = 0; i < 1024; i++) {
        g[i] = (nb_motion_state){0, 0, (uint16_t)tu_below(&r, H), (uint16_t)stop};
        if (quarter_only)
            g[i].heading = (uint16_t)(g[i].heading / (H / 4) * (H / 4));
        s[i] = (nb_motion_state){(int32_t)tu_below(&r, 2 * radius + 1) - (int32_t)radius,
                                 (int32_t)tu_below(&r, 2 * radius + 1) - (int32_t)radius,
                                 (uint16_t)tu_below(&r, H), (uint16_t)tu_below(&r, S)};
    }
    double t0 = now(), acc = 0, v;
    for (int i = 0; i < N; i++) {
        nb_perimeter_lookup(k->p, &s[i & 1023], &g[i & 1023], &v);
        acc += v;
    }
    *sink += acc;
    return (now() - t0) / N * 1e9;
}

int main(int argc, char **argv)
{
    unsigned radius = 15;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--radius") == 0 && i + 1 < argc)
            radius = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--models") == 0 && i + 1 < argc)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: bench_perimeter [--radius R] [--models DIR]\n");
            return 2;
        }
    }
    dir = strdup(dir ? dir : tu_src("data/models")); /* tu_path's buffers are reused */
    double sink = 0;
    printf("# Table 1: memory of radius-%u perimeter heuristics (%ux%u window)\n", radius,
           2 * radius + 1, 2 * radius + 1);
    printf("# units as the paper's: MB = 1,024,000 bytes, k = 1024 bytes\n\n");
    printf("| model | layout | paper | 4-byte entries, paper's symmetries | 16-bit entries, all "
           "symmetries | + tables for goals at any heading | all + zlib | 4-byte / 16-bit | "
           "4-byte / all + zlib | build s |\n|---|---|---|---|---|---|---|---|---|---|\n");
    double lookups[3][4];
    for (int i = 0; i < 3; i++)
        for (int layout = 0; layout < 4; layout++) {
            built a, b;
            if (!build(dir, names[i], radius, layout, 32, 1, &a) ||
                !build(dir, names[i], radius, layout, 16, 0, &b))
                return 1;
            char p[32], x[32], y[32], w[32], z[32];
            uint64_t same = b.info.table_bytes - b.any_bytes;
            human(paper[i][layout], p, sizeof p);
            human((double)a.info.table_bytes, x, sizeof x);
            human((double)same, y, sizeof y);
            human((double)b.any_bytes, w, sizeof w);
            human((double)b.zlen, z, sizeof z);
            printf("| %s | %s | %s | %s (%llu B) | %s (%llu B) | +%s | %s | %.1fx | %.1fx | %.2f |\n",
                   names[i], nb_perimeter_layout_name(layout), radius == 15 ? p : "-", x,
                   (unsigned long long)a.info.table_bytes, y, (unsigned long long)same, w, z,
                   (double)a.info.table_bytes / (double)same, (double)a.info.table_bytes / (double)b.zlen,
                   a.seconds + b.seconds);
            lookups[i][layout] = lookup_ns(&b, radius, layout == NB_PERIM_ROTATED, &sink);
            unbuild(&a);
            unbuild(&b);
            fflush(stdout);
        }
    printf("\n# Look-up time (16-bit entries, all symmetries), against the full table in the same run\n\n");
    printf("| model | full ns | speed-limited | symmetric | rotated (quarter-turn goals) |\n|---|---|---|---|---|\n");
    for (int i = 0; i < 3; i++)
        printf("| %s | %.1f | %.1f (%.2fx) | %.1f (%.2fx) | %.1f (%.2fx) |\n", names[i], lookups[i][0],
               lookups[i][1], lookups[i][1] / lookups[i][0], lookups[i][2],
               lookups[i][2] / lookups[i][0], lookups[i][3], lookups[i][3] / lookups[i][0]);

    /* The rotated layout between quarter turns: how far from exact. */
    printf("\n# Rotated layout, goals between quarter turns: approximate look-ups against the exact\n"
           "# (symmetric) table, over every state of the window whose rotation stays in it\n\n");
    printf("| model | states | answered | over the exact value | worst over | mean abs error |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < 3; i++) {
        built ex, ro;
        if (!build(dir, names[i], radius, NB_PERIM_SYMMETRIC, 32, 0, &ex) ||
            !build(dir, names[i], radius, NB_PERIM_ROTATED, 32, 0, &ro))
            return 1;
        unsigned H = nb_model_headings(ex.m), S = nb_model_speeds(ex.m), stop = nb_model_stop(ex.m);
        long total = 0, answered = 0, over = 0;
        double worst = 0, err = 0;
        long R = (long)radius;
        for (unsigned gh = 0; gh < H; gh++) {
            if (gh % (H / 4) == 0)
                continue;
            nb_motion_state g = {0, 0, (uint16_t)gh, (uint16_t)stop};
            for (long y = -R; y <= R; y++)
                for (long x = -R; x <= R; x++)
                    for (unsigned l = 0; l < S; l++)
                        for (unsigned h = 0; h < H; h++) {
                            nb_motion_state s = {(int32_t)x, (int32_t)y, (uint16_t)h, (uint16_t)l};
                            double e, v;
                            total++;
                            nb_perimeter_lookup(ex.p, &s, &g, &e);
                            if (nb_perimeter_lookup(ro.p, &s, &g, &v) == NB_PERIM_OUTSIDE || !isfinite(e))
                                continue;
                            answered++;
                            err += fabs(v - e);
                            if (v > e + 1e-6) {
                                over++;
                                if (v / e - 1 > worst)
                                    worst = v / e - 1;
                            }
                        }
        }
        printf("| %s | %ld | %ld | %.1f%% | +%.0f%% | %.3f |\n", names[i], total, answered,
               100.0 * over / (answered ? answered : 1), 100 * worst, err / (answered ? answered : 1));
        unbuild(&ex);
        unbuild(&ro);
    }
    fprintf(stderr, "(checksum %g)\n", sink);
    free((char *)dir);
    return 0;
}
