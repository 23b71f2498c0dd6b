/* bench_world_exact.c: the exact octile length between cells of a world
 * too big for whole-map Annotated A* (issue 31: the error of world HAA*
 * at 32768^2), by a plain A* of its own over the world's tile maps.
 *
 *   bench_world_exact WORLD.yaml|MAP.map X0,Y0,X1,Y1 ...
 *   bench_world_exact --scen FILE.scen MAP.map
 *
 * Independent of the library: the tile maps the manifest names (`maps`,
 * {x} and {y}) are read as text and put together into one bitmap (1 bit a
 * cell: 128 MB at 32768^2); the agent is data/agents.yaml's (size 1, '.',
 * 'G' and 'S' standable; '@', 'O', 'T', 'W' not), strict corners (a
 * diagonal step needs both cardinal neighbours standable), cardinal steps
 * 1 and diagonal sqrt(2), as MovingAI's scenario lengths.
 *
 * State is 4 bytes a cell: g + 1 in integer units, 0 unseen, in an
 * anonymous mapping whose untouched pages cost nothing; the open list is a
 * radix heap over the integer f (monotone: the integer octile heuristic is
 * consistent with the integer steps).  A cardinal step is 13860 units and a
 * diagonal 19601 (19601 / 13860 is sqrt(2) to 1.8e-9, a Pell convergent),
 * so two paths whose lengths differ by more than about 2e-9 x their
 * diagonal steps are never confused; the length printed is the found
 * path's own, a + b sqrt(2), from its a cardinal and b diagonal steps
 * (traced back through g).  Lengths up to 309,000 fit in 32 bits.
 *
 * --scen: every line of a MovingAI scenario file on MAP, its optimal length
 * compared (to 1e-4): the count that differ is printed, exit 1 if any. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "port.h" /* nbp_msb64 only: a header of inline helpers */

#define CARD 13860u
#define DIAG 19601u

typedef struct grid {
    uint32_t w, h;
    uint64_t bw;    /* blocks of 8 x 8 cells a row */
    uint64_t *free; /* 1 bit a cell, standable: a word a block of 8 x 8 (neighbours nearby) */
} grid;

static uint64_t *block(const grid *m, int64_t x, int64_t y, unsigned *bit)
{
    *bit = (unsigned)((y & 7) << 3 | (x & 7));
    return m->free + ((uint64_t)y >> 3) * m->bw + ((uint64_t)x >> 3);
}

static int standable(const grid *m, int64_t x, int64_t y)
{
    if (x < 0 || y < 0 || x >= m->w || y >= m->h)
        return 0;
    unsigned bit;
    const uint64_t *word = block(m, x, y, &bit); /* before bit is read: operands are unsequenced */
    return (int)(*word >> bit & 1);
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One MovingAI map file put at (x0, y0) of m: its header must say w x h. */
static int read_tile(grid *m, const char *path, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return 0;
    }
    char *line = malloc((size_t)w + 64);
    uint32_t hw[2] = {0, 0};
    int ok = 1;
    for (int k = 0; k < 4 && ok; k++) {
        ok = fgets(line, (int)w + 64, f) != NULL;
        unsigned v;
        if (ok && sscanf(line, "height %u", &v) == 1)
            hw[0] = v;
        if (ok && sscanf(line, "width %u", &v) == 1)
            hw[1] = v;
    }
    if (!ok || hw[0] != h || hw[1] != w) {
        fprintf(stderr, "%s: expected a map of %u x %u (width x height)\n", path, w, h);
        fclose(f);
        free(line);
        return 0;
    }
    for (uint32_t y = 0; y < h && ok; y++) {
        if (!fgets(line, (int)w + 64, f) || strcspn(line, "\r\n") != w) {
            fprintf(stderr, "%s: row %u is not %u characters\n", path, y, w);
            ok = 0;
            break;
        }
        for (uint32_t x = 0; x < w; x++) {
            char c = line[x];
            if (c == '.' || c == 'G' || c == 'S') {
                unsigned bit;
                uint64_t *word = block(m, x0 + x, y0 + y, &bit);
                *word |= 1ull << bit;
            } else if (!strchr("@OTW", c)) {
                fprintf(stderr, "%s: row %u column %u: character '%c' is not MovingAI's\n", path,
                        y, x, c);
                ok = 0;
                break;
            }
        }
    }
    fclose(f);
    free(line);
    return ok;
}

static int grid_alloc(grid *m, uint32_t w, uint32_t h)
{
    if ((uint64_t)w * h > UINT32_MAX) {
        fprintf(stderr, "%u x %u cells: more than a 32-bit cell number holds\n", w, h);
        return 0;
    }
    m->w = w, m->h = h;
    m->bw = ((uint64_t)w + 7) / 8;
    m->free = calloc(m->bw * (((uint64_t)h + 7) / 8), 8);
    return m->free != NULL;
}

/* The world of a manifest (formats/world.md; the keys this reference
 * needs, the default legend and agents only) or one .map file. */
static int load(grid *m, const char *src)
{
    size_t n = strlen(src);
    if (n > 4 && !strcmp(src + n - 4, ".map")) {
        FILE *f = fopen(src, "r");
        unsigned w = 0, h = 0, v;
        char line[256];
        for (int k = 0; f && k < 3 && fgets(line, sizeof line, f); k++) {
            if (sscanf(line, "height %u", &v) == 1)
                h = v;
            if (sscanf(line, "width %u", &v) == 1)
                w = v;
        }
        if (f)
            fclose(f);
        return w && h && grid_alloc(m, w, h) && read_tile(m, src, 0, 0, w, h);
    }
    FILE *f = fopen(src, "r");
    if (!f) {
        fprintf(stderr, "%s: %s\n", src, strerror(errno));
        return 0;
    }
    char line[4096], maps[4096] = "";
    unsigned w = 0, h = 0, t = 0;
    while (fgets(line, sizeof line, f)) {
        char *v = strchr(line, ':');
        if (line[0] == '#' || !v)
            continue;
        *v++ = 0;
        v += strspn(v, " \t\"");
        v[strcspn(v, "\"\r\n")] = 0;
        if (!strcmp(line, "width"))
            w = (unsigned)atoi(v);
        else if (!strcmp(line, "height"))
            h = (unsigned)atoi(v);
        else if (!strcmp(line, "tile"))
            t = (unsigned)atoi(v);
        else if (!strcmp(line, "maps"))
            snprintf(maps, sizeof maps, "%s", v);
        else if (!strcmp(line, "legend") || !strcmp(line, "agents")) {
            fprintf(stderr, "%s: `%s` set: this reference knows the defaults only\n", src, line);
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    char *px = strstr(maps, "{x}"), *py = strstr(maps, "{y}");
    if (!w || !h || !t || !px || !py || px > py) {
        fprintf(stderr, "%s: needs width, height, tile and maps with {x} before {y}\n", src);
        return 0;
    }
    if (!grid_alloc(m, w, h))
        return 0;
    /* The tile paths are relative to the manifest's folder. */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", src);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = 0;
    else
        dir[0] = 0;
    *px = 0, *py = 0;
    const char *mid = px + 3, *tail = py + 3;
    for (uint32_t ty = 0; ty * t < h; ty++)
        for (uint32_t tx = 0; tx * t < w; tx++) {
            char path[8192];
            snprintf(path, sizeof path, "%s%s%u%s%u%s", maps[0] == '/' ? "" : dir, maps, tx, mid,
                     ty, tail);
            uint32_t tw = w - tx * t < t ? w - tx * t : t, th = h - ty * t < t ? h - ty * t : t;
            if (!read_tile(m, path, tx * t, ty * t, tw, th))
                return 0;
        }
    return 1;
}

/* A radix heap of (f, cell): keys never below the last popped. */
typedef struct vec {
    uint64_t *v;
    size_t n, cap;
} vec;

typedef struct rheap {
    vec b[33];
    uint32_t last;
    size_t size;
} rheap;

static int bucket(uint32_t last, uint32_t key)
{
    return key == last ? 0 : 1 + (int)nbp_msb64(key ^ last);
}

static void vpush(vec *v, uint64_t x)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 1024;
        v->v = realloc(v->v, v->cap * sizeof *v->v);
        if (!v->v) {
            fprintf(stderr, "out of memory (heap)\n");
            exit(1);
        }
    }
    v->v[v->n++] = x;
}

static void hpush(rheap *q, uint32_t key, uint32_t cell)
{
    vpush(&q->b[bucket(q->last, key)], (uint64_t)key << 32 | cell);
    q->size++;
}

static uint64_t hpop(rheap *q)
{
    if (!q->b[0].n) {
        int i = 1;
        while (!q->b[i].n)
            i++;
        vec *v = &q->b[i];
        uint64_t lo = v->v[0];
        for (size_t k = 1; k < v->n; k++)
            lo = v->v[k] < lo ? v->v[k] : lo;
        q->last = (uint32_t)(lo >> 32);
        size_t n = v->n;
        v->n = 0;
        for (size_t k = 0; k < n; k++)
            vpush(&q->b[bucket(q->last, (uint32_t)(v->v[k] >> 32))], v->v[k]);
    }
    q->size--;
    return q->b[0].v[--q->b[0].n];
}

typedef struct search {
    const grid *m;
    uint32_t *g; /* g + 1, 0 unseen: an anonymous mapping, zeroed again by madvise */
    size_t bytes;
    uint64_t bw; /* blocks of 16 x 16 cells a row */
    rheap q;
} search;

/* g is stored in blocks of 16 x 16 cells (1 KB), so that a cell's
 * neighbours are mostly in its own block: on a 32768-wide world a row is
 * 128 KB of g, and row-major g made each expansion three cache misses. */
static uint32_t *gat(const search *s, int64_t x, int64_t y)
{
    return s->g + ((((uint64_t)y >> 4) * s->bw + ((uint64_t)x >> 4)) << 8 |
                   ((uint64_t)y & 15) << 4 | ((uint64_t)x & 15));
}

static uint32_t h_oct(int64_t dx, int64_t dy)
{
    uint64_t a = (uint64_t)(dx < 0 ? -dx : dx), b = (uint64_t)(dy < 0 ? -dy : dy);
    uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    return (uint32_t)(CARD * (hi - lo) + DIAG * lo);
}

static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* Can one step from (x, y) go in direction d (strict corners)? */
static int step_ok(const grid *m, int64_t x, int64_t y, int d)
{
    int64_t nx = x + DX[d], ny = y + DY[d];
    if (!standable(m, nx, ny))
        return 0;
    return d < 4 || (standable(m, nx, y) && standable(m, x, ny));
}

/* The length from (sx, sy) to (gx, gy), -1 when none; *expanded the
 * cells expanded.  *card and *diag the path's steps. */
static double exact(search *s, int64_t sx, int64_t sy, int64_t gx, int64_t gy,
                    uint64_t *expanded, uint64_t *card, uint64_t *diag)
{
    const grid *m = s->m;
    uint32_t w = m->w;
    *expanded = *card = *diag = 0;
    if (!standable(m, sx, sy) || !standable(m, gx, gy))
        return -1;
    madvise(s->g, s->bytes, MADV_DONTNEED);
    for (int i = 0; i < 33; i++)
        s->q.b[i].n = 0;
    s->q.last = 0, s->q.size = 0;
    uint32_t start = (uint32_t)(sy * w + sx), goal = (uint32_t)(gy * w + gx);
    *gat(s, sx, sy) = 1;
    hpush(&s->q, h_oct(gx - sx, gy - sy), start);
    int found = 0;
    while (s->q.size) {
        uint64_t e = hpop(&s->q);
        uint32_t c = (uint32_t)e, f = (uint32_t)(e >> 32);
        int64_t x = c % w, y = c / w;
        uint32_t g = *gat(s, x, y) - 1;
        if (f != g + h_oct(gx - x, gy - y))
            continue; /* stale: c was reached shorter since */
        if (c == goal) {
            found = 1;
            break;
        }
        ++*expanded;
        if (g > UINT32_MAX - 4 * DIAG - h_oct(gx - x, gy - y)) {
            fprintf(stderr, "a length beyond what 32-bit g holds\n");
            exit(1);
        }
        /* The 3 x 3 neighbourhood read once: bit 3 (dy + 1) + dx + 1. */
        unsigned nb = 0;
        for (int k = 0; k < 9; k++)
            nb |= (unsigned)standable(m, x + k % 3 - 1, y + k / 3 - 1) << k;
        for (int d = 0; d < 8; d++) {
            if (!(nb >> (3 * (DY[d] + 1) + DX[d] + 1) & 1) ||
                (d >= 4 && (!(nb >> (3 + DX[d] + 1) & 1) || !(nb >> (3 * (DY[d] + 1) + 1) & 1))))
                continue;
            int64_t nx = x + DX[d], ny = y + DY[d];
            uint32_t n = (uint32_t)(ny * w + nx), ng = g + (d < 4 ? CARD : DIAG);
            uint32_t *gn = gat(s, nx, ny);
            if (*gn && *gn - 1 <= ng)
                continue;
            *gn = ng + 1;
            hpush(&s->q, ng + h_oct(gx - nx, gy - ny), n);
        }
    }
    if (!found)
        return -1;
    /* Back from the goal through any cell whose g + the step is the
     * cell's g: its g is then exact too.  Each step is checked again by
     * step_ok, so a search that took an illegal step finds no way back. */
    int64_t x = gx, y = gy;
    while (x != sx || y != sy) {
        uint32_t g = *gat(s, x, y) - 1;
        int d = 0;
        for (; d < 8; d++) {
            int64_t px = x - DX[d], py = y - DY[d];
            if (!standable(m, px, py) || !step_ok(m, px, py, d))
                continue;
            uint32_t pg = *gat(s, px, py);
            if (pg && pg - 1 + (d < 4 ? CARD : DIAG) == g)
                break;
        }
        if (d == 8) {
            fprintf(stderr, "no step back from (%lld, %lld)\n", (long long)x, (long long)y);
            exit(1);
        }
        ++*(d < 4 ? card : diag);
        x -= DX[d], y -= DY[d];
    }
    return (double)*card + sqrt(2.0) * (double)*diag;
}

static int search_init(search *s, const grid *m)
{
    memset(s, 0, sizeof *s);
    s->m = m;
    s->bw = ((uint64_t)m->w + 15) / 16;
    s->bytes = (size_t)(s->bw * (((uint64_t)m->h + 15) / 16) * 256 * sizeof *s->g);
    s->g = mmap(NULL, s->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1, 0);
    if (s->g == MAP_FAILED)
        return 0;
#ifdef MADV_HUGEPAGE
    madvise(s->g, s->bytes, MADV_HUGEPAGE); /* fewer TLB misses over GBs; a hint */
#endif
    return 1;
}

/* What search_init and the searches took. */
static void search_free(search *s)
{
    for (int i = 0; i < 33; i++)
        free(s->q.b[i].v);
    munmap(s->g, s->bytes);
}

static int scen(search *s, const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "%s: %s\n", file, strerror(errno));
        return 1;
    }
    char line[4096];
    unsigned long lines = 0, differ = 0;
    while (fgets(line, sizeof line, f)) {
        int sx, sy, gx, gy;
        double opt;
        char name[2048];
        unsigned b, w, h;
        if (sscanf(line, "%u %2047s %u %u %d %d %d %d %lf", &b, name, &w, &h, &sx, &sy, &gx, &gy,
                   &opt) != 9)
            continue;
        uint64_t ex, a, d;
        double len = exact(s, sx, sy, gx, gy, &ex, &a, &d);
        lines++;
        if (fabs(len - opt) > 1e-4) {
            differ++;
            if (differ <= 10)
                printf("line %lu: (%d, %d) to (%d, %d): %.8f, the file says %.8f\n", lines, sx,
                       sy, gx, gy, len, opt);
        }
    }
    fclose(f);
    printf("scenario lines %lu, lengths that differ %lu\n", lines, differ);
    return differ != 0 || lines == 0;
}

int main(int argc, char **argv)
{
    const char *scen_file = NULL;
    int a = 1;
    if (argc > 2 && !strcmp(argv[1], "--scen"))
        scen_file = argv[2], a = 3;
    if (argc <= a || (!scen_file && argc <= a + 1)) {
        fprintf(stderr, "usage: bench_world_exact WORLD.yaml|MAP.map X0,Y0,X1,Y1 ...\n"
                        "       bench_world_exact --scen FILE.scen MAP.map\n");
        return 2;
    }
    grid m = {0};
    double t0 = cpu();
    if (!load(&m, argv[a])) {
        free(m.free); /* a tile refused after the grid was made */
        return 1;
    }
    double tload = cpu() - t0;
    search s;
    if (!search_init(&s, &m)) {
        fprintf(stderr, "cannot map %u x %u x 4 bytes\n", m.w, m.h);
        free(m.free);
        return 1;
    }
    int rc = 0;
    if (scen_file) {
        rc = scen(&s, scen_file);
        goto done;
    }
    printf("%s: %u x %u cells, read in %.1f s CPU\n", argv[a], m.w, m.h, tload);
    for (int i = a + 1; i < argc; i++) {
        long long sx, sy, gx, gy;
        if (sscanf(argv[i], "%lld,%lld,%lld,%lld", &sx, &sy, &gx, &gy) != 4) {
            fprintf(stderr, "%s: expected X0,Y0,X1,Y1\n", argv[i]);
            rc = 2;
            goto done;
        }
        uint64_t ex, card, diag;
        double b = cpu();
        double len = exact(&s, sx, sy, gx, gy, &ex, &card, &diag);
        if (len < 0)
            printf("exact %lld %lld %lld %lld none: expanded %llu, %.1f s CPU\n", sx, sy, gx, gy,
                   (unsigned long long)ex, cpu() - b);
        else
            printf("exact %lld %lld %lld %lld %.4f: %llu cardinal + %llu diagonal steps; "
                   "expanded %llu, %.1f s CPU\n",
                   sx, sy, gx, gy, len, (unsigned long long)card, (unsigned long long)diag,
                   (unsigned long long)ex, cpu() - b);
        fflush(stdout);
    }
done:
    search_free(&s);
    free(m.free);
    return rc;
}
