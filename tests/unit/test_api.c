/* test_api.c: the conventions of navbake.h's top comment, function by
 * function, on a level drawn here so that the answers are known:
 *  - every public function that takes an nb_err clears a stale one on
 *    success; on failure it fills it with the status it returns and a
 *    message; and it returns the same status when given none;
 *  - "no path" is NB_OK and a result status in every query family (AA*,
 *    HAA*, motion search and routes, unit planning, round obstacles baked
 *    and deferred), and so are blocked ends and expansion limits.  Which
 *    ends are joined is worked out here: a flood fill over the map's
 *    characters, and the geometry of a ring of circles;
 *  - every _close accepts NULL; a failed _open leaves *out NULL (and NULL
 *    for out is an argument error, not a crash); an allocator without one
 *    of its functions is refused;
 *  - a caller's allocator serves everything made from a bundle or forest:
 *    counted (every block freed, none freed twice or as NULL; zlib's
 *    inflate states through it), never the C library (malloc, calloc,
 *    realloc, free, strdup and qsort, which allocates in glibc, are
 *    wrapped at link time: -Wl,--wrap), no allocation where a query is
 *    documented to make none; and failing: for k = 1, 2, ... the k-th
 *    allocation fails, and every call then gives NB_ERR_NOMEM or succeeds
 *    with the answer of a run without failures, nothing leaks, a failed
 *    _open leaves *out NULL, and the statuses are the same with and
 *    without an nb_err. */
#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wrap_libc.h"

/* ---- the C library's allocations, counted while watched ----
 * The runtime is linked into this program statically, and the link wraps
 * these symbols (Makefile.am: tests_unit_test_api_LDFLAGS), so every call
 * the runtime's objects make to them comes here first.  (Calls made inside
 * shared libraries, zlib's and SQLite's own, do not.) */
static int watching;          /* set around the runtime's calls */
static unsigned long libc_calls; /* calls to the wrapped functions while set */
static const void *libc_caller[4]; /* where the first of them came from */

#define SEEN()                                                                                     \
    do {                                                                                           \
        if (watching && libc_calls++ < 4)                                                          \
            libc_caller[libc_calls - 1] = NBP_RETURN_ADDRESS();                                    \
    } while (0)

NB_TEST_WRAP_LIBC(SEEN())

/* ---- a counting allocator that can fail on demand ---- */

#define HDR alignof(max_align_t) /* the block's size is kept before it */

typedef struct counter {
    unsigned long attempts;  /* alloc calls, and realloc calls */
    unsigned long allocs;    /* blocks made (alloc, realloc of NULL) */
    unsigned long frees;     /* blocks freed */
    unsigned long reallocs;  /* blocks moved or resized */
    unsigned long null_frees;/* free given NULL: never, says navbake.h */
    unsigned long misaligned;
    size_t live, peak;       /* bytes */
    unsigned long fail_at;   /* the attempt that fails (1 the first); 0 none */
    unsigned long injected;  /* failures made */
} counter;

static int fail_now(counter *c)
{
    c->attempts++;
    if (c->fail_at && c->attempts == c->fail_at) {
        c->injected++;
        return 1;
    }
    return 0;
}

static void *block(counter *c, unsigned char *p, size_t n)
{
    memcpy(p, &n, sizeof n);
    c->live += n;
    if (c->live > c->peak)
        c->peak = c->live;
    if ((uintptr_t)(p + HDR) % alignof(max_align_t))
        c->misaligned++;
    return p + HDR;
}

static void *c_alloc(void *opaque, size_t n)
{
    counter *c = opaque;
    if (fail_now(c))
        return NULL;
    unsigned char *p = __real_malloc(HDR + n);
    if (!p)
        return NULL;
    c->allocs++;
    return block(c, p, n);
}

static void *c_realloc(void *opaque, void *ptr, size_t n)
{
    counter *c = opaque;
    if (!ptr)
        return c_alloc(opaque, n);
    if (fail_now(c))
        return NULL;
    unsigned char *base = (unsigned char *)ptr - HDR;
    size_t old;
    memcpy(&old, base, sizeof old);
    unsigned char *p = __real_realloc(base, HDR + n);
    if (!p)
        return NULL;
    c->live -= old;
    c->reallocs++;
    return block(c, p, n);
}

static void c_free(void *opaque, void *ptr)
{
    counter *c = opaque;
    if (!ptr) {
        c->null_frees++;
        return;
    }
    unsigned char *base = (unsigned char *)ptr - HDR;
    size_t n;
    memcpy(&n, base, sizeof n);
    c->live -= n;
    c->frees++;
    __real_free(base);
}

static nb_allocator allocator_of(counter *c)
{
    nb_allocator a = {c_alloc, c_realloc, c_free, c};
    return a;
}

/* Everything given back, nothing odd. */
static int clean(const counter *c)
{
    return c->live == 0 && c->allocs == c->frees && c->null_frees == 0 && c->misaligned == 0;
}

static void describe(const char *what, const counter *c)
{
    diag("%s: %lu attempts, %lu blocks made, %lu freed, %lu resized, %zu bytes live (peak %zu), "
         "%lu frees of NULL, %lu misaligned",
         what, c->attempts, c->allocs, c->frees, c->reallocs, c->live, c->peak, c->null_frees,
         c->misaligned);
}

/* ---- the level ----
 * 24 x 16 cells: ground '.', swamp 'S', water 'W', trees 'T', walls '@'.
 * The box of walls from (14, 2) to (21, 9) closes its inside off from
 * everything else. */
#define MW 24
#define MH 16
static const char *const rows[MH] = {
    "........................",
    "..SS....................",
    "..SS..........@@@@@@@@..",
    "..............@......@..",
    ".....@@.......@......@..",
    ".....@@.......@......@..",
    "..............@......@..",
    "..WW..........@......@..",
    "..WW..........@......@..",
    "..............@@@@@@@@..",
    "........................",
    "...TT...........SS......",
    "...TT...........SS......",
    "........................",
    "..........@@............",
    "........................",
};

/* A ring of six circles of radius 2, centres 5 from (30, 15) and from each
 * other, round a hollow; and two more. */
#define NCIRCLES 8
static const nb_circle circles[NCIRCLES] = {
    {35, 15, 2}, {32.5, 19.330127018922193, 2}, {27.5, 19.330127018922193, 2}, {25, 15, 2},
    {27.5, 10.669873, 2}, {32.5, 10.669873, 2}, {8, 8, 3}, {12, 20, 2.5}};
static const double bounds[4] = {0, 0, 40, 30};
static const nb_vec2 outside = {2, 2}, hollow = {30, 15};

/* 1 when an agent of size 1 that may stand on the characters in chars
 * gets from a to b by any of the eight moves, corners cut or not: no
 * family's moves join more. */
static int flood_joined(const char *chars, int ax, int ay, int bx, int by)
{
    static int seen[MH][MW], qx[MW * MH], qy[MW * MH];
    memset(seen, 0, sizeof seen);
    if (!strchr(chars, rows[ay][ax]) || !strchr(chars, rows[by][bx]))
        return 0;
    int head = 0, tail = 0;
    qx[tail] = ax, qy[tail++] = ay, seen[ay][ax] = 1;
    while (head < tail) {
        int x = qx[head], y = qy[head++];
        if (x == bx && y == by)
            return 1;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int u = x + dx, v = y + dy;
                if (u >= 0 && v >= 0 && u < MW && v < MH && !seen[v][u] && strchr(chars, rows[v][u])) {
                    seen[v][u] = 1;
                    qx[tail] = u, qy[tail++] = v;
                }
            }
    }
    return 0;
}

/* The same with the four cardinal moves only: a path every family of
 * size-1 grid moves may take. */
static int flood_joined4(const char *chars, int ax, int ay, int bx, int by)
{
    static int seen[MH][MW], qx[MW * MH], qy[MW * MH];
    static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    memset(seen, 0, sizeof seen);
    if (!strchr(chars, rows[ay][ax]) || !strchr(chars, rows[by][bx]))
        return 0;
    int head = 0, tail = 0;
    qx[tail] = ax, qy[tail++] = ay, seen[ay][ax] = 1;
    while (head < tail) {
        int x = qx[head], y = qy[head++];
        if (x == bx && y == by)
            return 1;
        for (int k = 0; k < 4; k++) {
            int u = x + d[k][0], v = y + d[k][1];
            if (u >= 0 && v >= 0 && u < MW && v < MH && !seen[v][u] && strchr(chars, rows[v][u])) {
                seen[v][u] = 1;
                qx[tail] = u, qy[tail++] = v;
            }
        }
    }
    return 0;
}

/* Where the queries go.  Scout: ground and swamp, size 1. */
#define GS ".S"
enum { FROM_X = 0, FROM_Y = 0, TO_X = 23, TO_Y = 15, /* joined */
       IN_X = 17, IN_Y = 5,                          /* inside the box */
       WALL_X = 5, WALL_Y = 4,                       /* a wall cell, outside the box */
       BOX_X = 14, BOX_Y = 2,                        /* the box's corner */
       MO_X = 9, MO_Y = 3, RT_X = 11, RT_Y = 4, PL_X = 7, PL_Y = 13 }; /* joined to (1, 1), (2, 14) */

/* ---- the bundles ---- */

static char full[1024], plain[1024], sqlite_path[1024], forest_only[1024], level_only[1024];
static uint8_t *plain_bytes;
static size_t plain_len;

static int write_text(const char *path, const char *text) { return tu_write(path, text, strlen(text)); }

/* Bakes, with the tools: full.nbk (every section kind, every section
 * zlib-compressed), plain.nbk (the same, packed), level.nbk (mkclear's
 * sections only), level.sqlite (those and the abstract graph, in SQLite)
 * and forest.nbk (round obstacles only). */
static int bake(const char *dir)
{
    const char *top = getenv("top_builddir");
    if (!top || !*top)
        top = ".";
    char map[MW * MH + MH + 64] = "type octile\nheight 16\nwidth 24\nmap\n";
    for (int y = 0; y < MH; y++) {
        strcat(map, rows[y]);
        strcat(map, "\n");
    }
    char forest[1024];
    int n = snprintf(forest, sizeof forest, "bounds: [%g, %g, %g, %g]\ncircles:\n", bounds[0],
                     bounds[1], bounds[2], bounds[3]);
    for (int i = 0; i < NCIRCLES; i++)
        n += snprintf(forest + n, sizeof forest - (size_t)n, "  - [%.17g, %.17g, %.17g]\n",
                      circles[i].x, circles[i].y, circles[i].r);
    if (write_text(tu_path(dir, "api.map"), map) ||
        write_text(tu_path(dir, "agents.yaml"),
                   "agents:\n"
                   "  - {name: scout, size: 1, capability: [ground, swamp]}\n"
                   "  - {name: wagon, size: 2, capability: [ground]}\n") ||
        write_text(tu_path(dir, "cart.yaml"),
                   "name: cart\nradius: 1.5\nwidth: 1\nheadings: 8\nneighbourhood: 8\n"
                   "reverse: true\nreverse_penalty: 2\ncapability: [ground, swamp]\n") ||
        write_text(tu_path(dir, "forest.yaml"), forest))
        return 0;
    snprintf(full, sizeof full, "%s", tu_path(dir, "full.nbk"));
    snprintf(plain, sizeof plain, "%s", tu_path(dir, "plain.nbk"));
    snprintf(sqlite_path, sizeof sqlite_path, "%s", tu_path(dir, "level.sqlite"));
    snprintf(forest_only, sizeof forest_only, "%s", tu_path(dir, "forest.nbk"));
    snprintf(level_only, sizeof level_only, "%s", tu_path(dir, "level.nbk"));
    const char *src = getenv("top_srcdir");
    if (!src || !*src)
        src = ".";
    for (int z = 0; z < 2; z++) {
        const char *out = z ? full : plain, *zf = z ? "-z" : "";
        if (tu_system("cd '%s' && T='%s/tools' && "
                      "$T/mkclear -q %s --agents agents.yaml api.map -o '%s' && "
                      "$T/mkabstract -q %s -c 8 '%s' && "
                      "$T/mkperim -q %s -r 4 -m '%s/data/models/humanoid.yaml' -o '%s' && "
                      "$T/mkhitcheck -q %s -u cart.yaml -o '%s' && "
                      "$T/mkabstract -q %s --forest forest.yaml --agent-radius 0.25,1 -o '%s'",
                      dir, top, zf, out, zf, out, zf, src, out, zf, out, zf, out) != 0)
            return 0;
    }
    if (tu_system("cd '%s' && T='%s/tools' && "
                  "$T/mkclear -q --agents agents.yaml api.map -o '%s' && "
                  "$T/mkabstract -q -c 8 '%s' -o '%s' && "
                  "$T/mkabstract -q --forest forest.yaml --agent-radius 1 -o '%s'",
                  dir, top, level_only, level_only, sqlite_path, forest_only) != 0)
        return 0;
    plain_bytes = (uint8_t *)tu_read(plain, &plain_len);
    return plain_bytes != NULL;
}

/* ---- the runs ----
 * One sequence of calls, every open, a query of every family and every
 * close, made by run(); each call's status goes through note(), each
 * query's answer through answer(). */

enum slot {
    AA_FOUND, AA_WAGON, AA_NONE, AA_START, AA_GOAL,
    HAA_FOUND, HAA_SMOOTH, HAA_WAGON, HAA_NONE, HAA_START, HAA_GOAL,
    MO_OCTILE, MO_PERIM, MO_HEADING, MO_HEADING_AGAIN, MO_NONE, MO_START, MO_GOAL, MO_LIMIT,
    MO_OTHER,
    RT_SECTORS, RT_SECTORS_AGAIN, RT_SECTORS_NONE, RT_HAA, RT_HAA_NONE, RT_START, RT_GOAL,
    RT_LIMIT,
    PL_FOUND, PL_AGAIN, PL_HYBRID, PL_LINES, PL_NONE, PL_START, PL_GOAL, PL_LIMIT,
    FB_FOUND, FB_NONE, FB_START, FB_GOAL,
    FD_FOUND, FD_AGAIN, FD_NONE, FD_START,
    MEM_AA, PRIV_AA, SQL_HAA,
    FC_FOUND, FC_NONE, FC_START, FC_AFTER, FC_AGAIN,
    NE_FOUND, NE_REACH, NE_BEYOND, NE_START, LI_CLEAR, LI_BLOCKED, LI_START, RA_FOUND, RA_ANY,
    RA_START, NE_OVER, LI_OVER, RA_OVER,
    NSLOTS
};

static const struct {
    const char *name;
    nb_path_status want;
    int zero_alloc; /* documented to allocate nothing */
} slots[NSLOTS] = {
    [AA_FOUND] = {"AA*: joined cells", NB_PATH_FOUND, 1},
    [AA_WAGON] = {"AA*: joined cells, a size-2 agent", NB_PATH_FOUND, 1},
    [AA_NONE] = {"AA*: into the box", NB_PATH_NONE, 1},
    [AA_START] = {"AA*: from a wall", NB_PATH_START_BLOCKED, 1},
    [AA_GOAL] = {"AA*: to a wall", NB_PATH_GOAL_BLOCKED, 1},
    [HAA_FOUND] = {"HAA*: joined cells", NB_PATH_FOUND, 1},
    [HAA_SMOOTH] = {"HAA*: joined cells, smoothed", NB_PATH_FOUND, 1},
    [HAA_WAGON] = {"HAA*: joined cells, a size-2 agent", NB_PATH_FOUND, 1},
    [HAA_NONE] = {"HAA*: into the box", NB_PATH_NONE, 1},
    [HAA_START] = {"HAA*: from a wall", NB_PATH_START_BLOCKED, 1},
    [HAA_GOAL] = {"HAA*: to a wall", NB_PATH_GOAL_BLOCKED, 1},
    [MO_OCTILE] = {"motion: octile", NB_PATH_FOUND, 0},
    [MO_PERIM] = {"motion: perimeter+grid", NB_PATH_FOUND, 0},
    [MO_HEADING] = {"motion: perimeter+heading", NB_PATH_FOUND, 0},
    [MO_HEADING_AGAIN] = {"motion: perimeter+heading again", NB_PATH_FOUND, 1},
    [MO_NONE] = {"motion: into the box", NB_PATH_NONE, 0},
    [MO_START] = {"motion: from a wall", NB_PATH_START_BLOCKED, 1},
    [MO_GOAL] = {"motion: to a wall", NB_PATH_GOAL_BLOCKED, 1},
    [MO_LIMIT] = {"motion: one expansion allowed", NB_PATH_LIMIT, 0},
    [MO_OTHER] = {"motion: a workspace without a clearance layer", NB_PATH_FOUND, 0},
    [RT_SECTORS] = {"motion route: sectors", NB_PATH_FOUND, 0},
    [RT_SECTORS_AGAIN] = {"motion route: sectors again", NB_PATH_FOUND, 1},
    [RT_SECTORS_NONE] = {"motion route: sectors, into the box", NB_PATH_NONE, 0},
    [RT_HAA] = {"motion route: HAA*", NB_PATH_FOUND, 0},
    [RT_HAA_NONE] = {"motion route: HAA*, into the box", NB_PATH_NONE, 0},
    [RT_START] = {"motion route: from a wall", NB_PATH_START_BLOCKED, 1},
    [RT_GOAL] = {"motion route: to a wall", NB_PATH_GOAL_BLOCKED, 1},
    [RT_LIMIT] = {"motion route: one expansion allowed", NB_PATH_LIMIT, 0},
    /* The first query grows the planner's nodes and tiles; the same again
     * allocates nothing. */
    [PL_FOUND] = {"planner: directional", NB_PATH_FOUND, 0},
    [PL_AGAIN] = {"planner: directional again", NB_PATH_FOUND, 1},
    [PL_HYBRID] = {"planner: hybrid", NB_PATH_FOUND, 0},
    [PL_LINES] = {"planner: lines", NB_PATH_FOUND, 0},
    [PL_NONE] = {"planner: into the box", NB_PATH_NONE, 1},
    [PL_START] = {"planner: from a wall", NB_PATH_START_BLOCKED, 1},
    [PL_GOAL] = {"planner: to a wall", NB_PATH_GOAL_BLOCKED, 1},
    [PL_LIMIT] = {"planner: one expansion allowed", NB_PATH_LIMIT, 1},
    [FB_FOUND] = {"forest, baked: into the hollow, a thin agent", NB_PATH_FOUND, 1},
    [FB_NONE] = {"forest, baked: into the hollow, a wide agent", NB_PATH_NONE, 1},
    [FB_START] = {"forest, baked: from inside a circle", NB_PATH_START_BLOCKED, 1},
    [FB_GOAL] = {"forest, baked: to inside a circle", NB_PATH_GOAL_BLOCKED, 1},
    [FD_FOUND] = {"forest, deferred: into the hollow, a thin agent", NB_PATH_FOUND, 0},
    [FD_AGAIN] = {"forest, deferred: the same again", NB_PATH_FOUND, 1},
    [FD_NONE] = {"forest, deferred: into the hollow, a wide agent", NB_PATH_NONE, 0},
    [FD_START] = {"forest, deferred: from inside a circle", NB_PATH_START_BLOCKED, 0},
    [MEM_AA] = {"a bundle from memory: AA*", NB_PATH_FOUND, 1},
    [PRIV_AA] = {"a bundle read into memory (NB_OPEN_PRIVATE): AA*", NB_PATH_FOUND, 1},
    [SQL_HAA] = {"an SQLite bundle: HAA*", NB_PATH_FOUND, 1},
    [FC_FOUND] = {"a program's forest: into the hollow, a thin agent", NB_PATH_FOUND, 0},
    [FC_NONE] = {"a program's forest: into the hollow, a wide agent", NB_PATH_NONE, 0},
    [FC_START] = {"a program's forest: from a circle added", NB_PATH_START_BLOCKED, 0},
    [FC_AFTER] = {"a program's forest: changed, a thin agent", NB_PATH_FOUND, 0},
    [FC_AGAIN] = {"a program's forest: the same again", NB_PATH_FOUND, 1},
    [NE_FOUND] = {"nearest: from a wall", NB_PATH_FOUND, 1},
    [NE_REACH] = {"nearest: from inside the box, reachable from outside", NB_PATH_FOUND, 1},
    [NE_BEYOND] = {"nearest: the same within radius 1", NB_PATH_BEYOND_RADIUS, 1},
    [NE_START] = {"nearest: reachable from a wall", NB_PATH_START_BLOCKED, 1},
    [LI_CLEAR] = {"line: along the top row", NB_PATH_FOUND, 1},
    [LI_BLOCKED] = {"line: into a wall", NB_PATH_NONE, 1},
    [LI_START] = {"line: from a wall", NB_PATH_START_BLOCKED, 1},
    [RA_FOUND] = {"random: from a cell", NB_PATH_FOUND, 1},
    [RA_ANY] = {"random: anywhere", NB_PATH_FOUND, 1},
    [RA_START] = {"random: from a wall", NB_PATH_START_BLOCKED, 1},
    [NE_OVER] = {"nearest: reachable from a corner an overlay walls in", NB_PATH_FOUND, 0},
    [LI_OVER] = {"line: out of that corner", NB_PATH_NONE, 1},
    [RA_OVER] = {"random: from that corner", NB_PATH_FOUND, 0},
};

typedef struct answer {
    int set;
    nb_status st;
    nb_path_status status;
    double value;        /* a length or a cost */
    size_t count;        /* cells, states, segments */
    long extra;          /* blocked_by, ... */
    unsigned long allocs; /* allocation attempts the query made */
} answer;

static answer ref[NSLOTS]; /* the run without failures */

#define MAXCALLS 512

typedef struct run {
    counter *c;
    const nb_allocator *a;
    nb_err *err;        /* &e, or NULL */
    nb_err e;
    int record;         /* the reference run: keep the answers */
    size_t ncalls;
    nb_status st[MAXCALLS];
    unsigned long bad;  /* problems */
    char what[512];     /* the first one */
    const char *failed_in; /* the call whose allocation failed */
    int sqlite;         /* open the SQLite bundle too */
} run;

static void problem(run *r, const char *fmt, ...) TAP_PRINTF(2, 3);
static void problem(run *r, const char *fmt, ...)
{
    if (r->bad++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->what, sizeof r->what, fmt, ap);
        va_end(ap);
    }
}

static void stale(nb_err *e)
{
    e->code = NB_ERR_CRC;
    snprintf(e->msg, sizeof e->msg, "a stale message from an earlier call");
}

/* Before a call: a stale error, and the failures injected so far. */
static unsigned long before(run *r)
{
    if (r->err)
        stale(r->err);
    return r->c->injected;
}

/* Checks a call's status: NB_OK (the error cleared), or NB_ERR_NOMEM when
 * an allocation failed during the call (the error saying so). */
static nb_status note(run *r, const char *name, nb_status st, unsigned long injected_before)
{
    if (r->ncalls < MAXCALLS)
        r->st[r->ncalls++] = st;
    if (r->c->injected != injected_before)
        r->failed_in = name;
    if (st == NB_OK) {
        if (r->err && (r->err->code != NB_OK || r->err->msg[0]))
            problem(r, "%s: NB_OK but the error is not cleared (%d, '%s')", name, r->err->code,
                    r->err->msg);
    } else if (st == NB_ERR_NOMEM) {
        if (r->c->injected == injected_before)
            problem(r, "%s: NB_ERR_NOMEM, but no allocation failed", name);
        if (r->err && (r->err->code != NB_ERR_NOMEM || !r->err->msg[0] ||
                       strcmp(r->err->msg, "a stale message from an earlier call") == 0))
            problem(r, "%s: NB_ERR_NOMEM, but the error says %d '%s'", name, r->err->code,
                    r->err->msg);
    } else {
        problem(r, "%s: %s (%s)", name, nb_status_str(st), r->err ? r->err->msg : "");
    }
    return st;
}

/* For an open: its status, and *out NULL after a failure. */
static nb_status note_open(run *r, const char *name, nb_status st, unsigned long inj, const void *out)
{
    note(r, name, st, inj);
    if ((st != NB_OK) != (out == NULL))
        problem(r, "%s: %s with *out %s", name, nb_status_str(st), out ? "set" : "NULL");
    return st;
}

/* A query's answer: kept in the reference run, compared in the others. */
static void answer_is(run *r, enum slot s, nb_status st, nb_path_status status, double value,
                      size_t count, long extra, unsigned long allocs)
{
    answer a = {1, st, status, value, count, extra, allocs};
    if (st != NB_OK)
        return;
    if (r->record) {
        ref[s] = a;
        return;
    }
    if (!ref[s].set || ref[s].st != NB_OK)
        return;
    if (status != ref[s].status || count != ref[s].count || extra != ref[s].extra ||
        !(value == ref[s].value || fabs(value - ref[s].value) <= 1e-9 * (1 + fabs(value))))
        problem(r, "%s: answered %s (%g, %zu, %ld), not %s (%g, %zu, %ld) as without failures",
                slots[s].name, nb_path_status_str(status), value, count, extra,
                nb_path_status_str(ref[s].status), ref[s].value, ref[s].count, ref[s].extra);
}

/* A call of run r (a variable in scope, with inj and cst): its status,
 * checked.  An open's *out is set to a sentinel first. */
#define CALL(name, call) (inj = before(r), cst = (call), note(r, name, cst, inj))
#define OPEN(name, call, out)                                                                     \
    (inj = before(r), (out) = (void *)&sentinel, cst = (call), note_open(r, name, cst, inj, (out)))

static int sentinel;

static nb_aa_query aa_q(int sx, int sy, int gx, int gy, unsigned size, nb_capability cap)
{
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.start = (nb_cell){sx, sy};
    q.goal = (nb_cell){gx, gy};
    q.size = size;
    q.capability = cap;
    return q;
}

static nb_motion_query mo_q(int sx, int sy, int gx, int gy, nb_motion_heuristic h)
{
    nb_motion_query q;
    nb_motion_query_init(&q);
    q.start = (nb_motion_state){sx, sy, 0, 0};
    q.goal = (nb_motion_state){gx, gy, NB_HEADING_ANY, 0};
    q.heuristic = h;
    return q;
}

static nb_planner_query pl_q(double sx, double sy, long gx, long gy, nb_plan_method method)
{
    nb_planner_query q;
    nb_planner_query_init(&q);
    q.start = (nb_pose){sx, sy, 0};
    q.goal.x = gx;
    q.goal.y = gy;
    q.method = method;
    return q;
}

static void aa_query(run *r, nb_aa *aa, enum slot s, nb_aa_query q)
{
    nb_aa_result res;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_aa_find", nb_aa_find(aa, &q, &res, r->err));
    answer_is(r, s, st, res.status, res.length, res.path_len, 0, r->c->attempts - at);
}

static void haa_query(run *r, nb_haa *haa, enum slot s, nb_aa_query q, unsigned flags)
{
    nb_haa_result res;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_haa_find", tu_haa_find(haa, &q, flags, &res, r->err));
    answer_is(r, s, st, res.status, res.length, res.path_len, 0, r->c->attempts - at);
}

static void mo_query(run *r, nb_motion *ws, enum slot s, nb_motion_query q)
{
    nb_motion_result res;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_motion_find", nb_motion_find(ws, &q, &res, r->err));
    /* (Not the expansions: the heading-aware heuristic, short of memory
     * for its own search, falls back on a weaker bound, the same path.) */
    answer_is(r, s, st, res.status, res.cost, res.path_len, res.end.x * 1000L + res.end.y,
              r->c->attempts - at);
}

static void rt_query(run *r, nb_motion *ws, enum slot s, nb_motion_query q)
{
    nb_motion_result res;
    size_t segments = 0;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_motion_route_find",
                        nb_motion_route_find(ws, &q, 2, NULL, NULL, &res, &segments, r->err));
    answer_is(r, s, st, res.status, res.cost, res.path_len, (long)segments, r->c->attempts - at);
}

static void pl_query(run *r, nb_planner *p, enum slot s, nb_planner_query q)
{
    nb_planner_result res;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_planner_find", nb_planner_find(p, &q, &res, r->err));
    answer_is(r, s, st, res.status, res.cost, res.segment_len, (long)res.waypoint_len,
              r->c->attempts - at);
}

static void fo_query(run *r, const nb_forest *f, nb_forest_ws *ws, enum slot s, double radius,
                     nb_vec2 from, nb_vec2 to, unsigned flags)
{
    nb_forest_result res;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_forest_find", tu_forest_find(f, radius, from, to, flags, ws, &res, r->err));
    answer_is(r, s, st, res.status, res.length, res.segment_len, res.blocked_by, r->c->attempts - at);
}

static const nb_capability CAP_G = 1, CAP_GS = 3, CAP_GSW = 7;

static void ne_query(run *r, nb_place *p, enum slot s, nb_cell point, int reachable,
                     nb_cell from, double radius, const nb_overlay *ov)
{
    nb_nearest_query q;
    nb_nearest_result res;
    nb_nearest_query_init(&q);
    q.overlay = ov;
    q.point = point;
    q.reachable = reachable;
    q.start = from;
    q.radius = radius;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_nearest_find", tu_nearest(p, &q, &res, r->err));
    answer_is(r, s, st, res.status, res.distance, (size_t)res.examined,
              res.cell.x * 1000L + res.cell.y, r->c->attempts - at);
}

static void li_query(run *r, nb_place *p, enum slot s, nb_vec2 from, nb_vec2 to,
                     const nb_overlay *ov)
{
    nb_line_result res;
    nb_line_query q;
    nb_line_query_init(&q);
    q.start = from;
    q.goal = to;
    q.size = 1;
    q.capability = CAP_GS;
    q.overlay = ov;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_line_find", nb_line_find(p, &q, &res, r->err));
    answer_is(r, s, st, res.status, res.t, (size_t)res.examined,
              res.blocking.x * 1000L + res.blocking.y, r->c->attempts - at);
}

static void ra_query(run *r, nb_place *p, enum slot s, const nb_cell *from, const nb_overlay *ov)
{
    nb_random_result res;
    nb_random_query q;
    nb_random_query_init(&q);
    q.reachable = from != NULL;
    q.start = from ? *from : (nb_cell){0, 0};
    q.seed = 1;
    q.size = 1;
    q.capability = CAP_GS;
    q.overlay = ov;
    unsigned long inj, at = r->c->attempts;
    nb_status cst, st = CALL("nb_random_find", nb_random_find(p, &q, &res, r->err));
    answer_is(r, s, st, res.status, (double)res.cells, res.component,
              res.cell.x * 1000L + res.cell.y, r->c->attempts - at);
}


/* Every open, a query of every family, every close, on the zlib-compressed
 * bundle with every section kind; then a bundle from memory, the SQLite
 * form, and a forest made by the program. */
static void run_sequence(run *r)
{
    unsigned long inj;
    nb_status cst;
    nb_bundle *b = NULL;
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    nb_model *m = NULL;
    nb_perimeter *p = NULL;
    nb_motion *mw = NULL, *mw2 = NULL;
    nb_planner *pl = NULL;
    nb_forest *f = NULL;
    nb_forest_ws *fw = NULL;
    nb_place *pc = NULL;

    if (OPEN("nb_bundle_open", nb_bundle_open(full, NB_OPEN_VERIFY, r->a, &b, r->err), b) == NB_OK) {
        const void *data;
        size_t len;
        nb_capability cap;
        nb_unit u;
        CALL("nb_bundle_verify", nb_bundle_verify(b, r->err));
        CALL("nb_bundle_payload", nb_bundle_payload(b, 2, &data, &len, r->err));
        CALL("nb_capability_parse", nb_capability_parse(b, "ground,swamp", &cap, r->err));
        CALL("nb_unit_get", nb_unit_get(b, 0, &u, r->err));
        CALL("nb_unit_lookup+get", tu_unit(b, "cart", &u, r->err));

        if (OPEN("nb_aa_open", nb_aa_open(b, &aa, r->err), aa) == NB_OK) {
            aa_query(r, aa, AA_FOUND, aa_q(FROM_X, FROM_Y, TO_X, TO_Y, 1, CAP_GS));
            aa_query(r, aa, AA_WAGON, aa_q(FROM_X, FROM_Y, 22, 14, 2, CAP_G));
            aa_query(r, aa, AA_NONE, aa_q(FROM_X, FROM_Y, IN_X, IN_Y, 1, CAP_GS));
            aa_query(r, aa, AA_START, aa_q(WALL_X, WALL_Y, TO_X, TO_Y, 1, CAP_GS));
            aa_query(r, aa, AA_GOAL, aa_q(FROM_X, FROM_Y, BOX_X, BOX_Y, 1, CAP_GS));
        }
        if (OPEN("nb_place_open", tu_place_open(b, CAP_GS, 1, &pc, r->err), pc) == NB_OK) {
            const nb_cell wall = {WALL_X, WALL_Y}, in = {IN_X, IN_Y}, out = {FROM_X, FROM_Y};
            ne_query(r, pc, NE_FOUND, wall, 0, out, NB_NEAREST_RADIUS, NULL);
            ne_query(r, pc, NE_REACH, in, 1, out, NB_NEAREST_RADIUS, NULL);
            ne_query(r, pc, NE_BEYOND, in, 1, out, 1, NULL);
            ne_query(r, pc, NE_START, in, 1, wall, NB_NEAREST_RADIUS, NULL);
            li_query(r, pc, LI_CLEAR, (nb_vec2){0, 0}, (nb_vec2){12.5, 0}, NULL);
            li_query(r, pc, LI_BLOCKED, (nb_vec2){0, 4.5}, (nb_vec2){10, 4.5}, NULL);
            li_query(r, pc, LI_START, (nb_vec2){WALL_X, WALL_Y}, (nb_vec2){0, 0}, NULL);
            ra_query(r, pc, RA_FOUND, &out, NULL);
            ra_query(r, pc, RA_ANY, NULL, NULL);
            ra_query(r, pc, RA_START, &wall, NULL);
            /* The corner (0, 0) walled in by an overlay: reach is told by searches the place
             * makes at the first query that needs them. */
            nb_overlay *ov = NULL;
            if (OPEN("nb_overlay_open", nb_overlay_open(b, &ov, r->err), ov) == NB_OK &&
                CALL("nb_overlay_block", nb_overlay_block(ov, 4, 0, 1, 5, r->err)) == NB_OK &&
                CALL("nb_overlay_block", nb_overlay_block(ov, 0, 4, 4, 1, r->err)) == NB_OK) {
                ne_query(r, pc, NE_OVER, wall, 1, out, NB_NEAREST_RADIUS, ov);
                li_query(r, pc, LI_OVER, (nb_vec2){1, 1}, (nb_vec2){9, 1}, ov);
                ra_query(r, pc, RA_OVER, &out, ov);
            }
            nb_overlay_close(ov);
        }
        if (OPEN("nb_haa_open", nb_haa_open(b, &haa, r->err), haa) == NB_OK) {
            haa_query(r, haa, HAA_FOUND, aa_q(FROM_X, FROM_Y, TO_X, TO_Y, 1, CAP_GS), 0);
            haa_query(r, haa, HAA_SMOOTH, aa_q(FROM_X, FROM_Y, TO_X, TO_Y, 1, CAP_GS),
                      NB_HAA_SMOOTH | NB_HAA_STRAIGHTEN);
            haa_query(r, haa, HAA_WAGON, aa_q(FROM_X, FROM_Y, 22, 14, 2, CAP_G), 0);
            haa_query(r, haa, HAA_NONE, aa_q(FROM_X, FROM_Y, IN_X, IN_Y, 1, CAP_GS), 0);
            haa_query(r, haa, HAA_START, aa_q(WALL_X, WALL_Y, TO_X, TO_Y, 1, CAP_GS), 0);
            haa_query(r, haa, HAA_GOAL, aa_q(FROM_X, FROM_Y, BOX_X, BOX_Y, 1, CAP_GS), 0);
        }
        if (OPEN("nb_model_open", nb_model_open(b, "humanoid", &m, r->err), m) == NB_OK) {
            if (OPEN("nb_perimeter_open", nb_perimeter_open(b, m, &p, r->err), p) == NB_OK &&
                OPEN("nb_motion_open",
                     tu_motion_open(b, m, p, CAP_GS, 1, 8, &mw, r->err), mw) == NB_OK) {
                nb_motion_query q = mo_q(1, 1, MO_X, MO_Y, NB_MH_OCTILE);
                mo_query(r, mw, MO_OCTILE, q);
                q.heuristic = NB_MH_PERIMETER_GRID;
                mo_query(r, mw, MO_PERIM, q);
                q.heuristic = NB_MH_PERIMETER_HEADING;
                mo_query(r, mw, MO_HEADING, q);
                mo_query(r, mw, MO_HEADING_AGAIN, q);
                mo_query(r, mw, MO_NONE, mo_q(1, 1, IN_X, IN_Y, NB_MH_OCTILE));
                mo_query(r, mw, MO_START, mo_q(WALL_X, WALL_Y, MO_X, MO_Y, NB_MH_OCTILE));
                mo_query(r, mw, MO_GOAL, mo_q(1, 1, BOX_X, BOX_Y, NB_MH_OCTILE));
                q = mo_q(1, 1, MO_X, MO_Y, NB_MH_OCTILE);
                q.max_expansions = 1;
                mo_query(r, mw, MO_LIMIT, q);

                q = mo_q(1, 1, RT_X, RT_Y, NB_MH_OCTILE);
                rt_query(r, mw, RT_SECTORS, q);
                rt_query(r, mw, RT_SECTORS_AGAIN, q);
                rt_query(r, mw, RT_SECTORS_NONE, mo_q(1, 1, IN_X, IN_Y, NB_MH_OCTILE));
                rt_query(r, mw, RT_START, mo_q(WALL_X, WALL_Y, RT_X, RT_Y, NB_MH_OCTILE));
                rt_query(r, mw, RT_GOAL, mo_q(1, 1, BOX_X, BOX_Y, NB_MH_OCTILE));
                q.max_expansions = 1;
                rt_query(r, mw, RT_LIMIT, q);
                if (CALL("nb_motion_use_haa", nb_motion_use_haa(mw, r->err)) == NB_OK) {
                    CALL("nb_motion_use_haa again", nb_motion_use_haa(mw, r->err));
                    q = mo_q(1, 1, RT_X, RT_Y, NB_MH_OCTILE);
                    q.abstraction = NB_ROUTE_HAA;
                    rt_query(r, mw, RT_HAA, q);
                    q.goal.x = IN_X, q.goal.y = IN_Y;
                    rt_query(r, mw, RT_HAA_NONE, q);
                }
            }
            /* Ground, swamp and water: no clearance layer, the workspace
             * works out where the agent stands. */
            if (OPEN("nb_motion_open (no layer)",
                     tu_motion_open(b, m, NULL, CAP_GSW, 1, 0, &mw2, r->err), mw2) == NB_OK)
                mo_query(r, mw2, MO_OTHER, mo_q(1, 1, MO_X, MO_Y, NB_MH_HEADING));
        }
        if (OPEN("nb_planner_open", nb_planner_open(b, "cart", &pl, r->err), pl) == NB_OK) {
            nb_planner_query q = pl_q(2.5, 14.5, PL_X, PL_Y, NB_PLAN_DIRECTIONAL);
            pl_query(r, pl, PL_FOUND, q);
            pl_query(r, pl, PL_AGAIN, q);
            pl_query(r, pl, PL_HYBRID, pl_q(2.5, 14.5, PL_X, PL_Y, NB_PLAN_HYBRID));
            pl_query(r, pl, PL_LINES, pl_q(2.5, 14.5, PL_X, PL_Y, NB_PLAN_LINES));
            pl_query(r, pl, PL_NONE, pl_q(2.5, 14.5, IN_X, IN_Y, NB_PLAN_DIRECTIONAL));
            pl_query(r, pl, PL_START, pl_q(WALL_X + 0.5, WALL_Y + 0.5, PL_X, PL_Y, NB_PLAN_DIRECTIONAL));
            pl_query(r, pl, PL_GOAL, pl_q(2.5, 14.5, BOX_X, BOX_Y, NB_PLAN_DIRECTIONAL));
            q.max_expansions = 1;
            pl_query(r, pl, PL_LIMIT, q);
        }
        if (OPEN("nb_forest_open", nb_forest_open(b, &f, r->err), f) == NB_OK) {
            nb_forest_graph_info gi;
            CALL("nb_forest_graph", nb_forest_graph(f, 1, &gi, r->err));
            if (OPEN("nb_forest_ws_open", nb_forest_ws_open(f, &fw, r->err), fw) == NB_OK) {
                fo_query(r, f, fw, FB_FOUND, 0.25, outside, hollow, 0);
                fo_query(r, f, fw, FB_NONE, 1, outside, hollow, 0);
                fo_query(r, f, fw, FB_START, 1, (nb_vec2){8, 8}, hollow, 0);
                fo_query(r, f, fw, FB_GOAL, 1, outside, (nb_vec2){12, 20}, 0);
                fo_query(r, f, fw, FD_FOUND, 0.4, outside, hollow, 0);
                fo_query(r, f, fw, FD_AGAIN, 0.4, outside, hollow, 0);
                fo_query(r, f, fw, FD_NONE, 1, outside, hollow, NB_FOREST_DEFERRED);
                fo_query(r, f, fw, FD_START, 1, (nb_vec2){8, 8}, hollow, NB_FOREST_DEFERRED);
            }
        }
    }
    nb_forest_ws_close(fw);
    nb_forest_close(f);
    nb_planner_close(pl);
    nb_motion_close(mw2);
    nb_motion_close(mw);
    nb_perimeter_close(p);
    nb_model_close(m);
    nb_haa_close(haa);
    nb_aa_close(aa);
    nb_place_close(pc);
    nb_bundle_close(b);

    /* The packed bundle from memory, with every checksum checked. */
    b = NULL;
    aa = NULL;
    if (OPEN("nb_bundle_open_memory",
             nb_bundle_open_memory(plain_bytes, plain_len, NB_OPEN_VERIFY, r->a, &b, r->err), b) == NB_OK &&
        OPEN("nb_aa_open (memory)", nb_aa_open(b, &aa, r->err), aa) == NB_OK)
        aa_query(r, aa, MEM_AA, aa_q(FROM_X, FROM_Y, TO_X, TO_Y, 1, CAP_GS));
    nb_aa_close(aa);
    nb_bundle_close(b);

    /* The packed bundle's file read into memory through the allocator. */
    b = NULL;
    aa = NULL;
    if (OPEN("nb_bundle_open (private)",
             nb_bundle_open(plain, NB_OPEN_PRIVATE, r->a, &b, r->err), b) == NB_OK &&
        OPEN("nb_aa_open (private)", nb_aa_open(b, &aa, r->err), aa) == NB_OK)
        aa_query(r, aa, PRIV_AA, aa_q(FROM_X, FROM_Y, TO_X, TO_Y, 1, CAP_GS));
    nb_aa_close(aa);
    nb_bundle_close(b);

    /* The SQLite form: read into memory through the allocator. */
    if (r->sqlite) {
        b = NULL;
        haa = NULL;
        if (OPEN("nb_bundle_open (SQLite)", nb_bundle_open(sqlite_path, 0, r->a, &b, r->err), b) == NB_OK &&
            OPEN("nb_haa_open (SQLite)", nb_haa_open(b, &haa, r->err), haa) == NB_OK)
            haa_query(r, haa, SQL_HAA, aa_q(FROM_X, FROM_Y, TO_X, TO_Y, 1, CAP_GS), 0);
        nb_haa_close(haa);
        nb_bundle_close(b);
    }

    /* A forest of the program's, changed between queries. */
    f = NULL;
    fw = NULL;
    if (OPEN("nb_forest_open_circles",
             nb_forest_open_circles(circles, NCIRCLES, bounds, r->a, &f, r->err), f) == NB_OK &&
        OPEN("nb_forest_ws_open (circles)", nb_forest_ws_open(f, &fw, r->err), fw) == NB_OK) {
        fo_query(r, f, fw, FC_FOUND, 0.25, outside, hollow, 0);
        fo_query(r, f, fw, FC_NONE, 1, outside, hollow, 0);
        static const nb_circle more[] = {{38, 28, 0.5}, {38, 2, 0.5}, {2, 28, 0.5}, {20, 28, 0.5},
                                         {20, 2, 0.5}, {2, 15, 0.5}, {38, 15, 0.5}, {15, 15, 0.5},
                                         {10, 28, 0.5}};
        int changed = 1;
        for (size_t i = 0; i < sizeof more / sizeof *more; i++)
            changed &= CALL("nb_forest_add_circle", nb_forest_add_circle(f, more[i], r->err)) == NB_OK;
        if (changed &&
            CALL("nb_forest_set_circle",
                 nb_forest_set_circle(f, NCIRCLES + 1, (nb_circle){20, 5, 1}, r->err)) == NB_OK &&
            CALL("nb_forest_remove_circle", nb_forest_remove_circle(f, NCIRCLES, r->err)) == NB_OK) {
            /* (20, 5) is now circle NCIRCLES. */
            fo_query(r, f, fw, FC_START, 0.25, (nb_vec2){20, 5}, hollow, 0);
            fo_query(r, f, fw, FC_AFTER, 0.25, outside, hollow, 0);
            fo_query(r, f, fw, FC_AGAIN, 0.25, outside, hollow, 0);
        }
    }
    nb_forest_ws_close(fw);
    nb_forest_close(f);
}

/* One run with the k-th allocation failing (0: none), given an error or not. */
static void sequence(run *r, counter *c, unsigned long k, int with_err, int record)
{
    static nb_allocator a;
    memset(r, 0, sizeof *r);
    memset(c, 0, sizeof *c);
    c->fail_at = k;
    a = allocator_of(c);
    r->c = c;
    r->a = &a;
    r->err = with_err ? &r->e : NULL;
    r->record = record;
    r->sqlite = nb_sqlite_supported();
    watching = 1;
    run_sequence(r);
    watching = 0;
}

/* ---- (a) and (b): the allocator serves everything, and only it ---- */

/* Where the first calls to the C library came from: as offsets from
 * callers() itself, so that nm and addr2line on tests/unit/test_api name
 * them. */
static void callers(void)
{
    for (unsigned long i = 0; i < libc_calls && i < 4; i++)
        diag("called from %p; callers() is at %p", libc_caller[i], (void *)(uintptr_t)callers);
}

static void test_counted(void)
{
    /* The wrap is in place, for this file and for the runtime's objects. */
    unsigned long before_calls = libc_calls;
    watching = 1;
    void *volatile p = malloc(16);
    free(p);
    p = nbi_alloc(NULL, 16); /* the runtime's own call, with the C library */
    nbi_free(NULL, p);
    watching = 0;
    if (!ok(libc_calls - before_calls == 4, "the link wraps the C library's allocator (%lu calls seen)",
            libc_calls - before_calls))
        diag("without -Wl,--wrap=malloc,... the checks below prove nothing");

    static run r;
    counter c;
    libc_calls = 0;
    memset(libc_caller, 0, sizeof libc_caller);
    sequence(&r, &c, 0, 1, 1);
    if (!ok(r.bad == 0, "every call of the sequence succeeds (%zu calls)", r.ncalls))
        diag("%lu problems; the first: %s", r.bad, r.what);
    describe("the sequence", &c);
    ok(c.allocs > 0, "the caller's allocator made the blocks (%lu)", c.allocs);
    ok(clean(&c), "every block was freed once (%zu bytes live, %lu made, %lu freed)", c.live,
       c.allocs, c.frees);
    is_int(c.null_frees, 0, "free is never given NULL");
    is_int(c.misaligned, 0, "every block is aligned for any type");
    if (!is_int(libc_calls, 0, "the runtime calls the C library's allocator (or qsort) never"))
        callers();
    for (int s = 0; s < NSLOTS; s++) {
        if (s == SQL_HAA && !nb_sqlite_supported()) {
            skip(1, "this library reads no SQLite bundles");
            continue;
        }
        if (!ok(ref[s].set && ref[s].st == NB_OK && ref[s].status == slots[s].want, "%s: NB_OK, %s",
                slots[s].name, nb_path_status_str(slots[s].want)))
            diag("got %s, %s", ref[s].set ? nb_status_str(ref[s].st) : "no call",
                 nb_path_status_str(ref[s].status));
        if (slots[s].zero_alloc)
            is_int(ref[s].allocs, 0, "%s: no allocation", slots[s].name);
    }
    ok(ref[FB_START].extra == 6 && ref[FB_GOAL].extra == 7 && ref[FD_START].extra == 6 &&
           ref[FC_START].extra == NCIRCLES,
       "a blocked end names the circle it is in");

    /* zlib's inflate states come from the allocator: opening the
     * compressed bundle takes, besides what the packed one takes, a block
     * for each compressed section's payload and one for its inflate state. */
    counter cz, cp;
    memset(&cz, 0, sizeof cz);
    memset(&cp, 0, sizeof cp);
    nb_allocator az = allocator_of(&cz), ap = allocator_of(&cp);
    nb_bundle *bz = NULL, *bp = NULL;
    libc_calls = 0;
    watching = 1;
    nb_status sz = nb_bundle_open(full, 0, &az, &bz, NULL);
    nb_status sp = nb_bundle_open(plain, 0, &ap, &bp, NULL);
    watching = 0;
    size_t nz = 0;
    for (size_t i = 0; bz && i < nb_bundle_section_count(bz); i++)
        nz += NB_ENC_COMPRESSION(nb_bundle_section_get(bz, i)->encoding) == NB_ENC_ZLIB;
    ok(sz == NB_OK && sp == NB_OK && nz >= 10 && cz.allocs >= cp.allocs + 2 * nz,
       "a zlib bundle's inflation allocates through the allocator (%lu blocks, %lu packed, %zu "
       "sections inflated)",
       cz.allocs, cp.allocs, nz);
    watching = 1;
    nb_bundle_close(bz);
    nb_bundle_close(bp);
    watching = 0;
    ok(clean(&cz) && clean(&cp), "and frees them");
    if (!is_int(libc_calls, 0, "nothing through the C library"))
        callers();
}

/* ---- (c): every allocation failing in turn ---- */

static int same_statuses(const run *a, const run *b)
{
    if (a->ncalls != b->ncalls)
        return 0;
    for (size_t i = 0; i < a->ncalls; i++)
        if (a->st[i] != b->st[i])
            return 0;
    return 1;
}

static void test_failing(void)
{
    static run r, rn;
    counter c, cn;
    unsigned long k, runs = 0, bad = 0, leaks = 0, differ = 0, nomem = 0, shown = 0;
    libc_calls = 0;
    for (k = 1; k < 100000; k++) {
        sequence(&r, &c, k, 1, 0);
        sequence(&rn, &cn, k, 0, 0);
        runs++;
        for (size_t i = 0; i < r.ncalls; i++)
            nomem += r.st[i] == NB_ERR_NOMEM;
        int leak = !clean(&c) || !clean(&cn), dif = !same_statuses(&r, &rn);
        bad += r.bad > 0 || rn.bad > 0;
        leaks += leak;
        differ += dif;
        if ((r.bad || rn.bad || leak || dif) && shown++ < 8) {
            diag("allocation %lu failing (in %s): %s%s%s%s", k, r.failed_in ? r.failed_in : "?",
                 r.bad ? r.what : rn.bad ? rn.what : "",
                 r.bad || rn.bad ? "; " : "", leak ? "a leak; " : "",
                 dif ? "the statuses differ without an nb_err" : "");
            if (leak) {
                describe("  with an nb_err", &c);
                describe("  without", &cn);
            }
        }
        if (c.injected == 0 && cn.injected == 0)
            break; /* the k-th allocation was never made: every one has failed once */
    }
    diag("%lu runs; %lu calls answered NB_ERR_NOMEM", runs, nomem);
    ok(k < 100000 && runs > 50, "every allocation of the sequence failed in turn (%lu)", runs - 1);
    is_int(bad, 0, "every call gave NB_ERR_NOMEM with its message, or the answer without failures");
    is_int(leaks, 0, "nothing leaked, nothing was freed twice");
    is_int(differ, 0, "the statuses are the same without an nb_err");
    if (!is_int(libc_calls, 0, "and the C library's allocator was never called"))
        callers();
}

/* ---- 1: errors cleared on success, the same status without one ---- */

#define NOERR(name, call) check_ok(name, (stale(&e), (call)), &e)
static void check_ok(const char *name, nb_status st, const nb_err *e)
{
    if (!ok(st == NB_OK && e->code == NB_OK && e->msg[0] == '\0',
            "%s: NB_OK clears a stale error", name))
        diag("got %s, error %d '%s'", nb_status_str(st), e->code, e->msg);
}

/* A failure: the error holds the status returned and a message; and the
 * same status without an error. */
static void check_fail(const char *name, nb_status st, const nb_err *e, nb_status without,
                       nb_status want)
{
    if (!ok(st == want && e->code == want && e->msg[0] &&
                strcmp(e->msg, "a stale message from an earlier call") != 0,
            "%s: %s, said in the error", name, nb_status_str(want)))
        diag("got %s, error %d '%s'", nb_status_str(st), e->code, e->msg);
    is_int(without, st, "%s: the same status without an nb_err", name);
}
#define FAILS(name, want, call_e, call_null)                                                      \
    do {                                                                                           \
        stale(&e);                                                                                 \
        nb_status s1_ = (call_e);                                                                  \
        nb_status s2_ = (call_null);                                                               \
        check_fail(name, s1_, &e, s2_, want);                                                      \
    } while (0)

static void test_errors(void)
{
    nb_err e;
    nb_bundle *b = NULL, *b2 = NULL, *bf = NULL, *bl = NULL;
    NOERR("nb_bundle_open", nb_bundle_open(plain, 0, NULL, &b, &e));
    NOERR("nb_bundle_open (SQLite)", nb_sqlite_supported()
                                         ? nb_bundle_open(sqlite_path, 0, NULL, &b2, &e)
                                         : (nbi_ok(&e), NB_OK));
    nb_bundle_close(b2);
    b2 = NULL;
    NOERR("nb_bundle_open_memory", nb_bundle_open_memory(plain_bytes, plain_len, 0, NULL, &b2, &e));
    NOERR("nb_bundle_open (forest)", nb_bundle_open(forest_only, 0, NULL, &bf, &e));
    NOERR("nb_bundle_open (level)", nb_bundle_open(level_only, 0, NULL, &bl, &e));
    if (!b || !b2 || !bf || !bl) {
        diag("cannot go on without the bundles");
        return;
    }
    const void *data;
    size_t len;
    nb_capability cap;
    nb_unit u;
    NOERR("nb_bundle_verify", nb_bundle_verify(b, &e));
    NOERR("nb_bundle_payload", nb_bundle_payload(b, 0, &data, &len, &e));
    NOERR("nb_capability_parse", nb_capability_parse(b, "ground,swamp", &cap, &e));
    NOERR("nb_unit_get", nb_unit_get(b, 0, &u, &e));
    NOERR("nb_unit_lookup+get", tu_unit(b, "cart", &u, &e));

    nb_aa *aa = NULL;
    nb_aa_result ar;
    nb_aa_query aq = aa_q(FROM_X, FROM_Y, TO_X, TO_Y, 1, CAP_GS);
    NOERR("nb_aa_open", nb_aa_open(b, &aa, &e));
    NOERR("nb_aa_find", nb_aa_find(aa, &aq, &ar, &e));
    aq.goal = (nb_cell){IN_X, IN_Y};
    NOERR("nb_aa_find (no path)", nb_aa_find(aa, &aq, &ar, &e));

    nb_place *pc = NULL, *pcx = NULL;
    nb_nearest_query nq;
    nb_nearest_result nr;
    nb_line_result lr;
    nb_random_result rr;
    uint64_t seed = 1;
    nb_nearest_query_init(&nq);
    NOERR("nb_place_open", tu_place_open(b, CAP_GS, 1, &pc, &e));
    NOERR("nb_nearest_find", tu_nearest(pc, &nq, &nr, &e));
    NOERR("nb_line_find", tu_walk_line(pc, (nb_vec2){0, 0}, (nb_vec2){0, 4.5}, &lr, &e));
    NOERR("nb_random_find", tu_random(pc, NULL, &seed, &rr, &e));
    FAILS("nb_place_open (no such layer)", NB_ERR_NOTFOUND,
          tu_place_open(b, CAP_GSW, 1, &pcx, &e), tu_place_open(b, CAP_GSW, 1, &pcx, NULL));
    nq.point = (nb_cell){MW, 0};
    FAILS("nb_nearest_find (off the map)", NB_ERR_OUTSIDE, tu_nearest(pc, &nq, &nr, &e),
          tu_nearest(pc, &nq, &nr, NULL));
    FAILS("nb_line_find (off the map)", NB_ERR_OUTSIDE,
          tu_walk_line(pc, (nb_vec2){0, 0}, (nb_vec2){0, MH + 1}, &lr, &e),
          tu_walk_line(pc, (nb_vec2){0, 0}, (nb_vec2){0, MH + 1}, &lr, NULL));
    FAILS("nb_random_find (off the map)", NB_ERR_OUTSIDE,
          tu_random(pc, &(nb_cell){-1, 0}, &seed, &rr, &e),
          tu_random(pc, &(nb_cell){-1, 0}, &seed, &rr, NULL));

    nb_haa *haa = NULL;
    nb_haa_result hr;
    aq.goal = (nb_cell){TO_X, TO_Y};
    NOERR("nb_haa_open", nb_haa_open(b, &haa, &e));
    NOERR("nb_haa_find", tu_haa_find(haa, &aq, 0, &hr, &e));

    nb_model *m = NULL;
    nb_perimeter *p = NULL;
    nb_motion *mw = NULL, *mwl = NULL;
    nb_motion_result mr;
    size_t segs;
    nb_motion_query mq = mo_q(1, 1, MO_X, MO_Y, NB_MH_PERIMETER);
    NOERR("nb_model_open", nb_model_open(b, "humanoid", &m, &e));
    NOERR("nb_perimeter_open", nb_perimeter_open(b, m, &p, &e));
    NOERR("nb_motion_open", tu_motion_open(b, m, p, CAP_GS, 1, 8, &mw, &e));
    NOERR("nb_motion_find", nb_motion_find(mw, &mq, &mr, &e));
    NOERR("nb_motion_route_find", nb_motion_route_find(mw, &mq, 2, NULL, NULL, &mr, &segs, &e));
    NOERR("nb_motion_use_haa", nb_motion_use_haa(mw, &e));
    NOERR("nb_motion_use_haa (again)", nb_motion_use_haa(mw, &e));
    mq.abstraction = NB_ROUTE_HAA;
    NOERR("nb_motion_route_find (HAA*)", nb_motion_route_find(mw, &mq, 2, NULL, NULL, &mr, &segs, &e));

    nb_planner *pl = NULL;
    nb_planner_result pr;
    nb_planner_query pq = pl_q(2.5, 14.5, PL_X, PL_Y, NB_PLAN_DIRECTIONAL);
    NOERR("nb_planner_open", nb_planner_open(b, "cart", &pl, &e));
    NOERR("nb_planner_find", nb_planner_find(pl, &pq, &pr, &e));

    nb_forest *f = NULL, *fc = NULL;
    nb_forest_ws *fw = NULL, *fwn = NULL;
    nb_forest_result fr;
    nb_forest_graph_info gi;
    NOERR("nb_forest_open", nb_forest_open(b, &f, &e));
    NOERR("nb_forest_graph", nb_forest_graph(f, 0, &gi, &e));
    NOERR("nb_forest_ws_open", nb_forest_ws_open(f, &fw, &e));
    NOERR("nb_forest_find (baked)", tu_forest_find(f, 0.25, outside, hollow, 0, fw, &fr, &e));
    NOERR("nb_forest_find (deferred)", tu_forest_find(f, 0.4, outside, hollow, 0, fw, &fr, &e));
    NOERR("nb_forest_open_circles", nb_forest_open_circles(circles, NCIRCLES, bounds, NULL, &fc, &e));
    NOERR("nb_forest_add_circle", nb_forest_add_circle(fc, (nb_circle){20, 5, 1}, &e));
    NOERR("nb_forest_set_circle", nb_forest_set_circle(fc, NCIRCLES, (nb_circle){20, 4, 1}, &e));
    NOERR("nb_forest_remove_circle", nb_forest_remove_circle(fc, NCIRCLES, &e));
    NOERR("nb_forest_ws_open (a program's forest)", nb_forest_ws_open(fc, &fwn, &e));
    NOERR("nb_forest_find (a program's forest)",
          tu_forest_find(fc, 0.25, outside, hollow, 0, fwn, &fr, &e));

    /* Failures: each function that can fail, with and without an error. */
    nb_bundle *bx = (nb_bundle *)&sentinel, *bx2 = (nb_bundle *)&sentinel;
    FAILS("nb_bundle_open (no file)", NB_ERR_IO,
          nb_bundle_open(tu_path(tu_tmpdir(), "missing.nbk"), 0, NULL, &bx, &e),
          nb_bundle_open(tu_path(tu_tmpdir(), "missing.nbk"), 0, NULL, &bx2, NULL));
    ok(bx == NULL && bx2 == NULL, "nb_bundle_open: *out NULL after a failure");
    bx = bx2 = (nb_bundle *)&sentinel;
    FAILS("nb_bundle_open_memory (not a bundle)", NB_ERR_FORMAT,
          nb_bundle_open_memory("not a bundle", 12, 0, NULL, &bx, &e),
          nb_bundle_open_memory("not a bundle", 12, 0, NULL, &bx2, NULL));
    ok(bx == NULL && bx2 == NULL, "nb_bundle_open_memory: *out NULL after a failure");
    /* A damaged byte in the last section: it opens, and verify finds it. */
    uint8_t *copy = malloc(plain_len);
    memcpy(copy, plain_bytes, plain_len);
    nb_bundle *bd = NULL;
    const nb_section_info *last = nb_bundle_section_get(b, nb_bundle_section_count(b) - 1);
    copy[last->offset + last->size / 2] ^= 0x40;
    if (ok(nb_bundle_open_memory(copy, plain_len, 0, NULL, &bd, &e) == NB_OK,
           "a bundle damaged in its last section opens"))
        FAILS("nb_bundle_verify (damaged)", NB_ERR_CRC, nb_bundle_verify(bd, &e), nb_bundle_verify(bd, NULL));
    nb_bundle_close(bd);
    bx = bx2 = (nb_bundle *)&sentinel;
    FAILS("nb_bundle_open_memory (damaged, verified)", NB_ERR_CRC,
          nb_bundle_open_memory(copy, plain_len, NB_OPEN_VERIFY, NULL, &bx, &e),
          nb_bundle_open_memory(copy, plain_len, NB_OPEN_VERIFY, NULL, &bx2, NULL));
    ok(bx == NULL && bx2 == NULL, "nb_bundle_open_memory: *out NULL after a failed check");
    free(copy);
    FAILS("nb_bundle_payload (no such section)", NB_ERR_ARG,
          nb_bundle_payload(b, 9999, &data, &len, &e), nb_bundle_payload(b, 9999, &data, &len, NULL));
    FAILS("nb_capability_parse (no such terrain)", NB_ERR_NOTFOUND,
          nb_capability_parse(b, "ground,lava", &cap, &e),
          nb_capability_parse(b, "ground,lava", &cap, NULL));
    FAILS("nb_unit_get (no such unit)", NB_ERR_NOTFOUND, nb_unit_get(b, 7, &u, &e),
          nb_unit_get(b, 7, &u, NULL));
    FAILS("nb_unit_lookup (no such unit)", NB_ERR_NOTFOUND, tu_unit(b, "bus", &u, &e),
          tu_unit(b, "bus", &u, NULL));

    nb_aa *aax = (nb_aa *)&sentinel, *aax2 = (nb_aa *)&sentinel;
    FAILS("nb_aa_open (no map)", NB_ERR_NOTFOUND, nb_aa_open(bf, &aax, &e), nb_aa_open(bf, &aax2, NULL));
    ok(aax == NULL && aax2 == NULL, "nb_aa_open: *out NULL after a failure");
    aq.goal = (nb_cell){MW, 0};
    FAILS("nb_aa_find (off the map)", NB_ERR_OUTSIDE, nb_aa_find(aa, &aq, &ar, &e),
          nb_aa_find(aa, &aq, &ar, NULL));
    aq.goal = (nb_cell){TO_X, TO_Y};
    aq.capability = CAP_GSW;
    FAILS("nb_aa_find (no layer)", NB_ERR_NOTFOUND, nb_aa_find(aa, &aq, &ar, &e),
          nb_aa_find(aa, &aq, &ar, NULL));
    aq.capability = CAP_GS;
    aq.size = 3;
    FAILS("nb_aa_find (too large)", NB_ERR_NOTFOUND, nb_aa_find(aa, &aq, &ar, &e),
          nb_aa_find(aa, &aq, &ar, NULL));
    aq.size = 1;

    nb_haa *hx = (nb_haa *)&sentinel, *hx2 = (nb_haa *)&sentinel;
    FAILS("nb_haa_open (no graph)", NB_ERR_NOTFOUND, nb_haa_open(bl, &hx, &e), nb_haa_open(bl, &hx2, NULL));
    ok(hx == NULL && hx2 == NULL, "nb_haa_open: *out NULL after a failure");
    FAILS("nb_haa_find (unknown flags)", NB_ERR_ARG, tu_haa_find(haa, &aq, 0x100, &hr, &e),
          tu_haa_find(haa, &aq, 0x100, &hr, NULL));
    aq.size = 3;
    FAILS("nb_haa_find (not served)", NB_ERR_NOTFOUND, tu_haa_find(haa, &aq, 0, &hr, &e),
          tu_haa_find(haa, &aq, 0, &hr, NULL));
    aq.size = 1;

    nb_model *mx = (nb_model *)&sentinel, *mx2 = (nb_model *)&sentinel;
    FAILS("nb_model_open (no such model)", NB_ERR_NOTFOUND, nb_model_open(b, "horse", &mx, &e),
          nb_model_open(b, "horse", &mx2, NULL));
    ok(mx == NULL && mx2 == NULL, "nb_model_open: *out NULL after a failure");
    nb_perimeter *px = (nb_perimeter *)&sentinel, *px2 = (nb_perimeter *)&sentinel;
    FAILS("nb_perimeter_open (no table)", NB_ERR_NOTFOUND, nb_perimeter_open(bl, m, &px, &e),
          nb_perimeter_open(bl, m, &px2, NULL));
    ok(px == NULL && px2 == NULL, "nb_perimeter_open: *out NULL after a failure");
    nb_motion *wx = (nb_motion *)&sentinel, *wx2 = (nb_motion *)&sentinel;
    FAILS("nb_motion_open (sector too large)", NB_ERR_ARG,
          tu_motion_open(b, m, p, CAP_GS, 1, 5000, &wx, &e),
          tu_motion_open(b, m, p, CAP_GS, 1, 5000, &wx2, NULL));
    ok(wx == NULL && wx2 == NULL, "nb_motion_open: *out NULL after a failure");
    wx = wx2 = (nb_motion *)&sentinel;
    FAILS("nb_motion_open (no map)", NB_ERR_NOTFOUND,
          tu_motion_open(bf, m, NULL, CAP_GS, 1, 0, &wx, &e),
          tu_motion_open(bf, m, NULL, CAP_GS, 1, 0, &wx2, NULL));
    ok(wx == NULL && wx2 == NULL, "nb_motion_open: *out NULL after a failure (no map)");
    NOERR("nb_motion_ws_open (a level without a graph)",
          tu_motion_open(bl, m, NULL, CAP_GS, 1, 0, &mwl, &e));
    if (mwl)
        FAILS("nb_motion_use_haa (no graph)", NB_ERR_NOTFOUND, nb_motion_use_haa(mwl, &e),
              nb_motion_use_haa(mwl, NULL));
    mq = mo_q(1, 1, MO_X, MO_Y, NB_MH_OCTILE);
    mq.heuristic = (nb_motion_heuristic)99;
    FAILS("nb_motion_find (unknown heuristic)", NB_ERR_ARG, nb_motion_find(mw, &mq, &mr, &e),
          nb_motion_find(mw, &mq, &mr, NULL));
    mq.heuristic = NB_MH_OCTILE;
    FAILS("nb_motion_route_find (segments of 0)", NB_ERR_ARG,
          nb_motion_route_find(mw, &mq, 0, NULL, NULL, &mr, &segs, &e),
          nb_motion_route_find(mw, &mq, 0, NULL, NULL, &mr, &segs, NULL));
    if (mwl) {
        mq.abstraction = NB_ROUTE_SECTORS;
        FAILS("nb_motion_route_find (no sectors)", NB_ERR_ARG,
              nb_motion_route_find(mwl, &mq, 2, NULL, NULL, &mr, &segs, &e),
              nb_motion_route_find(mwl, &mq, 2, NULL, NULL, &mr, &segs, NULL));
    }

    nb_planner *plx = (nb_planner *)&sentinel, *plx2 = (nb_planner *)&sentinel;
    FAILS("nb_planner_open (no such unit)", NB_ERR_NOTFOUND, nb_planner_open(b, "bus", &plx, &e),
          nb_planner_open(b, "bus", &plx2, NULL));
    ok(plx == NULL && plx2 == NULL, "nb_planner_open: *out NULL after a failure");
    pq.goal.x = MW;
    FAILS("nb_planner_find (off the map)", NB_ERR_OUTSIDE, nb_planner_find(pl, &pq, &pr, &e),
          nb_planner_find(pl, &pq, &pr, NULL));
    pq.goal.x = 20;

    nb_forest *fx = (nb_forest *)&sentinel, *fx2 = (nb_forest *)&sentinel;
    FAILS("nb_forest_open (no forest)", NB_ERR_NOTFOUND, nb_forest_open(bl, &fx, &e),
          nb_forest_open(bl, &fx2, NULL));
    ok(fx == NULL && fx2 == NULL, "nb_forest_open: *out NULL after a failure");
    fx = fx2 = (nb_forest *)&sentinel;
    nb_circle bad = {1, 1, -1};
    FAILS("nb_forest_open_circles (a negative radius)", NB_ERR_ARG,
          nb_forest_open_circles(&bad, 1, NULL, NULL, &fx, &e),
          nb_forest_open_circles(&bad, 1, NULL, NULL, &fx2, NULL));
    ok(fx == NULL && fx2 == NULL, "nb_forest_open_circles: *out NULL after a failure");
    FAILS("nb_forest_graph (no such graph)", NB_ERR_NOTFOUND, nb_forest_graph(f, 9, &gi, &e),
          nb_forest_graph(f, 9, &gi, NULL));
    FAILS("nb_forest_find (unknown flags)", NB_ERR_ARG,
          tu_forest_find(f, 0.25, outside, hollow, 0x80, fw, &fr, &e),
          tu_forest_find(f, 0.25, outside, hollow, 0x80, fw, &fr, NULL));
    FAILS("nb_forest_find (outside the bounds)", NB_ERR_OUTSIDE,
          tu_forest_find(f, 0.25, (nb_vec2){-5, 2}, hollow, 0, fw, &fr, &e),
          tu_forest_find(f, 0.25, (nb_vec2){-5, 2}, hollow, 0, fw, &fr, NULL));
    FAILS("nb_forest_set_circle (a bundle's forest)", NB_ERR_ARG,
          nb_forest_set_circle(f, 0, circles[0], &e), nb_forest_set_circle(f, 0, circles[0], NULL));
    FAILS("nb_forest_add_circle (a bundle's forest)", NB_ERR_ARG,
          nb_forest_add_circle(f, circles[0], &e), nb_forest_add_circle(f, circles[0], NULL));
    FAILS("nb_forest_remove_circle (a bundle's forest)", NB_ERR_ARG,
          nb_forest_remove_circle(f, 0, &e), nb_forest_remove_circle(f, 0, NULL));
    FAILS("nb_forest_set_circle (no such circle)", NB_ERR_ARG,
          nb_forest_set_circle(fc, 99, circles[0], &e), nb_forest_set_circle(fc, 99, circles[0], NULL));
    FAILS("nb_forest_add_circle (not a circle)", NB_ERR_ARG, nb_forest_add_circle(fc, bad, &e),
          nb_forest_add_circle(fc, bad, NULL));
    FAILS("nb_forest_remove_circle (no such circle)", NB_ERR_ARG,
          nb_forest_remove_circle(fc, 99, &e), nb_forest_remove_circle(fc, 99, NULL));
    /* A workspace whose allocator fails at once. */
    counter c0;
    memset(&c0, 0, sizeof c0);
    c0.fail_at = 1;
    nb_allocator a0 = allocator_of(&c0);
    nb_forest *f0 = NULL;
    nb_forest_ws *fwx = (nb_forest_ws *)&sentinel, *fwx2 = (nb_forest_ws *)&sentinel;
    c0.fail_at = 0;
    if (ok(nb_forest_open_circles(circles, NCIRCLES, NULL, &a0, &f0, NULL) == NB_OK,
           "a forest with an allocator that will fail")) {
        c0.fail_at = c0.attempts + 1;
        stale(&e);
        nb_status s1 = nb_forest_ws_open(f0, &fwx, &e);
        c0.fail_at = c0.attempts + 1;
        nb_status s2 = nb_forest_ws_open(f0, &fwx2, NULL);
        check_fail("nb_forest_ws_open (out of memory)", s1, &e, s2, NB_ERR_NOMEM);
        ok(fwx == NULL && fwx2 == NULL, "nb_forest_ws_open: *out NULL after a failure");
    }
    nb_forest_close(f0);
    ok(clean(&c0), "and nothing is left of them");

    /* NULL for out: an argument error. */
    ok(nb_bundle_open(plain, 0, NULL, NULL, NULL) == NB_ERR_ARG &&
           nb_bundle_open_memory(plain_bytes, plain_len, 0, NULL, NULL, NULL) == NB_ERR_ARG &&
           nb_aa_open(b, NULL, NULL) == NB_ERR_ARG && nb_haa_open(b, NULL, NULL) == NB_ERR_ARG &&
           nb_model_open(b, "humanoid", NULL, NULL) == NB_ERR_ARG &&
           nb_perimeter_open(b, m, NULL, NULL) == NB_ERR_ARG &&
           tu_motion_open(b, m, p, CAP_GS, 1, 0, NULL, NULL) == NB_ERR_ARG &&
           nb_planner_open(b, "cart", NULL, NULL) == NB_ERR_ARG &&
           nb_forest_open(b, NULL, NULL) == NB_ERR_ARG &&
           nb_forest_open_circles(circles, 1, NULL, NULL, NULL, NULL) == NB_ERR_ARG &&
           nb_forest_ws_open(f, NULL, NULL) == NB_ERR_ARG &&
           tu_place_open(b, CAP_GS, 1, NULL, NULL) == NB_ERR_ARG,
       "every _open refuses NULL for out with NB_ERR_ARG");

    nb_forest_ws_close(fwn);
    nb_forest_ws_close(fw);
    nb_forest_close(fc);
    nb_forest_close(f);
    nb_planner_close(pl);
    nb_motion_close(mwl);
    nb_motion_close(mw);
    nb_perimeter_close(p);
    nb_model_close(m);
    nb_haa_close(haa);
    nb_aa_close(aa);
    nb_place_close(pc);
    nb_bundle_close(bl);
    nb_bundle_close(bf);
    nb_bundle_close(b2);
    nb_bundle_close(b);
}

/* ---- 3: closes take NULL; allocators must be whole ---- */

static void test_close_null(void)
{
    nb_bundle_close(NULL);
    nb_aa_close(NULL);
    nb_haa_close(NULL);
    nb_model_close(NULL);
    nb_perimeter_close(NULL);
    nb_motion_close(NULL);
    nb_planner_close(NULL);
    nb_forest_close(NULL);
    nb_forest_ws_close(NULL);
    nb_place_close(NULL);
    ok(1, "every _close accepts NULL (ten of them)");
}

static void test_partial_allocators(void)
{
    counter c;
    memset(&c, 0, sizeof c);
    nb_allocator whole = allocator_of(&c);
    for (int lack = 0; lack < 3; lack++) {
        static const char *const fn[3] = {"alloc", "realloc", "free"};
        nb_allocator a = whole;
        if (lack == 0)
            a.alloc = NULL;
        else if (lack == 1)
            a.realloc = NULL;
        else
            a.free = NULL;
        nb_err e;
        nb_bundle *b = (nb_bundle *)&sentinel, *b2 = (nb_bundle *)&sentinel;
        nb_forest *f = (nb_forest *)&sentinel;
        stale(&e);
        nb_status s1 = nb_bundle_open(plain, 0, &a, &b, &e);
        ok(s1 == NB_ERR_ARG && e.code == NB_ERR_ARG && strstr(e.msg, fn[lack]) && b == NULL,
           "nb_bundle_open: an allocator without %s is refused (NB_ERR_ARG, naming it)", fn[lack]);
        stale(&e);
        s1 = nb_bundle_open_memory(plain_bytes, plain_len, 0, &a, &b2, &e);
        ok(s1 == NB_ERR_ARG && e.code == NB_ERR_ARG && strstr(e.msg, fn[lack]) && b2 == NULL,
           "nb_bundle_open_memory: an allocator without %s is refused", fn[lack]);
        stale(&e);
        s1 = nb_forest_open_circles(circles, NCIRCLES, bounds, &a, &f, &e);
        ok(s1 == NB_ERR_ARG && e.code == NB_ERR_ARG && strstr(e.msg, fn[lack]) && f == NULL,
           "nb_forest_open_circles: an allocator without %s is refused", fn[lack]);
    }
    is_int(c.attempts, 0, "and none of its functions was called");
}

/* ---- 2: the answers are what the level says ---- */

static void test_level(void)
{
    ok(flood_joined4(GS, FROM_X, FROM_Y, TO_X, TO_Y) && flood_joined4(GS, 1, 1, MO_X, MO_Y) &&
           flood_joined4(GS, 1, 1, RT_X, RT_Y) && flood_joined4(GS, 2, 14, PL_X, PL_Y),
       "the level: the joined ends are joined by cardinal moves");
    ok(!flood_joined(GS "WT", FROM_X, FROM_Y, IN_X, IN_Y) && !flood_joined(GS "WT", 1, 1, IN_X, IN_Y) &&
           !flood_joined(GS "WT", 2, 14, IN_X, IN_Y),
       "the level: nothing joins the inside of the box to the outside");
    ok(rows[WALL_Y][WALL_X] == '@' && rows[BOX_Y][BOX_X] == '@', "the level: the blocked ends are walls");
    /* The ring: neighbours' centres 5 apart (radius 2 each); the hollow
     * 5 from each centre. */
    int ring_ok = 1;
    for (int i = 0; i < 6; i++) {
        const nb_circle *a = &circles[i], *c = &circles[(i + 1) % 6];
        ring_ok &= fabs(hypot(a->x - c->x, a->y - c->y) - 5) < 1e-6 &&
                   fabs(hypot(a->x - hollow.x, a->y - hollow.y) - 5) < 1e-6;
    }
    ok(ring_ok, "the forest: a ring of six circles of radius 2, 5 apart, round the hollow");
    /* Agent radius a: neighbours overlap when 2 (2 + a) > 5, the hollow is
     * free when 5 > 2 + a; the thin agents pass, the wide one does not. */
    ok(2 * (2 + 0.25) < 5 && 2 * (2 + 0.4) < 5 && 2 * (2 + 1) > 5 && 5 > 2 + 1,
       "the forest: agents of radius 0.25 and 0.4 pass between the circles, of radius 1 not");
    ok(hypot(outside.x - circles[6].x, outside.y - circles[6].y) > circles[6].r + 1,
       "the forest: the outside point is free");
}

int main(void)
{
    const char *dir = tu_tmpdir();
    if (!bake(dir)) {
        printf("Bail out! cannot bake the bundles with the tools (top_builddir set?)\n");
        return 1;
    }
    test_level();
    test_close_null();
    test_partial_allocators();
    test_errors();
    test_counted();
    test_failing();
    free(plain_bytes);
    return done_testing();
}
