/* test_bake_alloc.c: the bake library takes every byte of a bake from the
 * caller's allocator (navbake_bake.h, nb_bake(3) "Threads and memory"):
 *  - a bake of a level in memory with everything the library bakes (the
 *    layers, the optimal layers both corner rules, the HAA* graph with its
 *    costs, levels and landmarks, zlib sections) on two threads and one
 *    gives the bytes of the same bake with the C library's allocator, and
 *    a counting allocator gets back every block and byte it gave;
 *  - the C library's allocator is not called meanwhile, on any thread:
 *    malloc, calloc, realloc, free, strdup and qsort (whose merge sort
 *    takes a buffer from malloc in glibc) are wrapped at link time
 *    (Makefile.am: tests_unit_test_bake_alloc_LDFLAGS; the bake side is
 *    linked in statically, so its calls are seen, zlib's are not and go
 *    through the allocator by its zalloc);
 *  - with NB_TEST_BAKE_OOM set (minutes: not in make check's time), for
 *    k = 1, 2, ... every allocation attempt in turn fails: the bake
 *    then gives NB_ERR_NOMEM (or succeeds with the same bytes, where the
 *    failure was one the bake can do without), nothing leaks and nothing
 *    crashes (the sanitizer tree runs this too). */
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "navbake_bake.h"
#include "tap.h"
#include "testutil.h"
#include "wrap_libc.h"

/* ---- the C library's allocator, watched ---- */
extern const char __executable_start[]; /* (GNU ld's) for addr2line */

/* Set around the library's calls; the workers read it too. */
static _Atomic int watching;
static _Atomic unsigned long libc_calls;
static const void *_Atomic libc_caller;

static void seen(const void *from)
{
    if (watching && libc_calls++ == 0)
        libc_caller = from;
}

NB_TEST_WRAP_LIBC(seen(NBP_RETURN_ADDRESS()))

/* ---- a counting allocator, safe on the bake's threads, failing on demand ---- */

#define HDR alignof(max_align_t) /* each block's size is kept before it */

typedef struct counter {
    pthread_mutex_t lock;
    unsigned long attempts;   /* alloc and realloc calls */
    unsigned long allocs;     /* blocks made */
    unsigned long frees;      /* blocks freed */
    unsigned long bad_frees;  /* free of NULL */
    size_t live;              /* bytes */
    unsigned long fail_at;    /* the attempt that fails (1 the first), 0 none */
    unsigned long injected;
} counter;

static int attempt(counter *c)
{
    c->attempts++;
    if (c->fail_at && c->attempts == c->fail_at) {
        c->injected++;
        return 0;
    }
    return 1;
}

static void *c_alloc(void *opaque, size_t n)
{
    counter *c = opaque;
    pthread_mutex_lock(&c->lock);
    unsigned char *p = attempt(c) ? __real_malloc(HDR + n) : NULL;
    if (p) {
        memcpy(p, &n, sizeof n);
        c->live += n;
        c->allocs++;
    }
    pthread_mutex_unlock(&c->lock);
    return p ? p + HDR : NULL;
}

static void *c_realloc(void *opaque, void *ptr, size_t n)
{
    counter *c = opaque;
    if (!ptr)
        return c_alloc(opaque, n);
    pthread_mutex_lock(&c->lock);
    unsigned char *base = (unsigned char *)ptr - HDR, *p = NULL;
    size_t old;
    memcpy(&old, base, sizeof old);
    if (attempt(c) && (p = __real_realloc(base, HDR + n)) != NULL) {
        memcpy(p, &n, sizeof n);
        c->live = c->live - old + n;
    }
    pthread_mutex_unlock(&c->lock);
    return p ? p + HDR : NULL;
}

static void c_free(void *opaque, void *ptr)
{
    counter *c = opaque;
    pthread_mutex_lock(&c->lock);
    if (!ptr) {
        c->bad_frees++;
    } else {
        unsigned char *base = (unsigned char *)ptr - HDR;
        size_t n;
        memcpy(&n, base, sizeof n);
        c->live -= n;
        c->frees++;
        __real_free(base);
    }
    pthread_mutex_unlock(&c->lock);
}

static void counter_init(counter *c, unsigned long fail_at, nb_allocator *a)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->fail_at = fail_at;
    a->alloc = c_alloc;
    a->realloc = c_realloc;
    a->free = c_free;
    a->opaque = c;
}

/* ---- the level and the bake ---- */

/* The level's sides: a larger one counted, a smaller one failed at
 * every attempt (thousands of bakes). */
static uint32_t W = 72, H = 60;

/* Ground, swamp, water and trees in blobs, walls with gaps: several
 * clusters, components, terrain-cost profiles and subgoals. */
static void level(uint8_t *ids)
{
    tu_rng r = {33};
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint8_t id = (uint8_t)((x / 9 + y / 7) % 4);
            if ((x % 17 == 8 && y % 13 != 3) || tu_below(&r, 100) < 8)
                id = NB_BAKE_OBSTACLE;
            ids[(size_t)y * W + x] = id;
        }
}

/* An agent set with terrain costs, so the graph has cost profiles. */
static const char agents_yaml[] = "agents:\n"
                                  "  - {name: walker, size: 1, capability: [ground, swamp]}\n"
                                  "  - {name: big, size: 2, capability: [ground, swamp, water],\n"
                                  "     costs: {swamp: 3, water: 5}}\n";

/* Opens a handle with a (NULL: the C library's), sets the level and bakes
 * it with o: the status of the first call that failed. */
static nb_status bake_with(const nb_allocator *a, const nb_bake_options *o, void **data,
                           size_t *len, nb_err *err)
{
    static uint8_t ids[72 * 60];
    level(ids);
    nb_bake *bk = NULL;
    *data = NULL;
    *len = 0;
    nb_status st = nb_bake_open(a, &bk, err);
    if (st == NB_OK)
        st = nb_bake_set_agents(bk, agents_yaml, sizeof agents_yaml - 1, "agents", err);
    if (st == NB_OK)
        st = nb_bake_set_grid(bk, W, H, ids, err);
    if (st == NB_OK)
        st = nb_bake_memory(bk, o, data, len, err);
    if (st == NB_OK) {
        /* The image back in C library memory, and given back to the handle. */
        void *copy = __real_malloc(*len);
        memcpy(copy, *data, *len);
        nb_bake_free(bk, *data);
        *data = copy;
    }
    nb_bake_close(bk);
    return st;
}

static void options(nb_bake_options *o, unsigned threads)
{
    nb_bake_options_init(o);
    o->flags = NB_BAKE_ABSTRACT | NB_BAKE_OPTIMAL | NB_BAKE_OPTIMAL_WEAK | NB_BAKE_ZLIB;
    o->cluster = 8;
    o->levels = 3;
    o->landmarks = 4;
    o->threads = threads;
}

/* The bake through a counting allocator, the C library watched. */
static void counted(const void *want, size_t want_len, unsigned threads, unsigned long *attempts)
{
    nb_bake_options o;
    options(&o, threads);
    counter c;
    nb_allocator a;
    counter_init(&c, 0, &a);
    nb_err err;
    void *data;
    size_t len;
    libc_calls = 0;
    libc_caller = NULL;
    watching = 1;
    nb_status st = bake_with(&a, &o, &data, &len, &err);
    watching = 0;
    ok(st == NB_OK, "%u thread(s): baked through the counting allocator: %s", threads,
       st == NB_OK ? "" : err.msg);
    ok(st == NB_OK && len == want_len && memcmp(data, want, len) == 0,
       "%u thread(s): the bytes of the C library's bake (%zu bytes)", threads, len);
    ok(c.allocs > 100, "%u thread(s): the bake's memory came from the allocator (%lu blocks)",
       threads, c.allocs);
    is_int(c.frees, c.allocs, "%u thread(s): every block given back", threads);
    is_int(c.live, 0, "%u thread(s): no byte left", threads);
    is_int(c.bad_frees, 0, "%u thread(s): no free of NULL", threads);
    if (!ok(libc_calls == 0, "%u thread(s): the C library's allocator not called (%lu calls)",
            threads, (unsigned long)libc_calls))
        diag("the first call from 0x%lx (addr2line -e tests/unit/test_bake_alloc)",
             (unsigned long)((const char *)libc_caller - __executable_start));
    __real_free(data);
    *attempts = c.attempts;
}

/* Every allocation attempt of the bake failing in turn. */
static void failing(const void *want, size_t want_len, unsigned threads, unsigned long total,
                    unsigned long stride)
{
    nb_bake_options o;
    options(&o, threads);
    unsigned long runs = 0, nomem = 0, same = 0, leaks = 0, other = 0, bad_frees = 0;
    char first_other[NB_ERR_MSG_MAX] = "";
    for (unsigned long k = 1; k <= total; k += stride) {
        counter c;
        nb_allocator a;
        counter_init(&c, k, &a);
        nb_err err;
        void *data;
        size_t len;
        nb_status st = bake_with(&a, &o, &data, &len, &err);
        runs++;
        if (st == NB_ERR_NOMEM)
            nomem++;
        else if (st == NB_OK && len == want_len && memcmp(data, want, len) == 0)
            same++;
        else if (other++ == 0)
            snprintf(first_other, sizeof first_other, "k %lu: status %d: %.300s", k, (int)st,
                     st == NB_OK ? "other bytes" : err.msg);
        if (c.live != 0 || c.frees != c.allocs)
            leaks++;
        bad_frees += c.bad_frees;
        __real_free(data);
        pthread_mutex_destroy(&c.lock);
    }
    ok(nomem > 0 && nomem + same == runs,
       "%u thread(s): each of %lu failing allocations gives NB_ERR_NOMEM (%lu) or the same "
       "bytes (%lu)%s%s",
       threads, runs, nomem, same, other ? "; not: " : "", first_other);
    is_int(leaks, 0, "%u thread(s): nothing leaks after a failure", threads);
    is_int(bad_frees, 0, "%u thread(s): no free of NULL after a failure", threads);
}

int main(void)
{
    nb_bake_options o;
    options(&o, 1);
    nb_err err;
    void *want;
    size_t want_len;
    if (!ok(bake_with(NULL, &o, &want, &want_len, &err) == NB_OK,
            "baked with the C library's allocator"))
        return done_testing();
    unsigned long attempts1 = 0, attempts2 = 0;
    counted(want, want_len, 1, &attempts1);
    counted(want, want_len, 2, &attempts2);
    diag("%lu allocation attempts on one thread, %lu on two", attempts1, attempts2);
    /* Every attempt on one thread; on two (where the order of the
     * workers' attempts varies) a spread of them. */
    __real_free(want);
    /* Thousands of bakes: minutes on a loaded machine, so on demand. */
    if (!getenv("NB_TEST_BAKE_OOM")) {
        diag("NB_TEST_BAKE_OOM unset: the failing allocator's runs skipped");
        return done_testing();
    }
    W = 24, H = 20;
    o.cluster = 8;
    if (bake_with(NULL, &o, &want, &want_len, &err) != NB_OK)
        return done_testing();
    counted(want, want_len, 1, &attempts1);
    failing(want, want_len, 1, attempts1 + 1, 1);
    failing(want, want_len, 2, attempts1 + 1, attempts1 / 97 + 1);
    __real_free(want);
    return done_testing();
}
