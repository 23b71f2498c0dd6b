/* parallel.c: units of work on POSIX threads (parallel.h).
 *
 * Each thread takes the next unit from a shared counter until none is
 * left.  Units are small and many (a cluster, a band of 64 rows), so the
 * threads stay busy to the end without any plan of who does what; and as
 * every unit writes only its own result, the order they finish in does not
 * matter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "parallel/parallel.h"

unsigned nbb_threads_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : n > NBB_MAX_THREADS ? NBB_MAX_THREADS : (unsigned)n;
}

unsigned nbb_threads_resolve(unsigned threads)
{
    if (threads == 0)
        return nbb_threads_online();
    return threads > NBB_MAX_THREADS ? NBB_MAX_THREADS : threads;
}

/* Units between two reports of progress. */
#define PROGRESS_UNITS 16

typedef struct pool {
    nbb_unit_fn fn;
    void *ctx;
    const nbb_progress_part *progress;
    size_t n;
    atomic_size_t next;
    atomic_int stop;
    pthread_mutex_t lock;
    size_t failed; /* the lowest failing unit, or n */
    nb_err err;    /* its message */
    nb_status st;
} pool;

typedef struct worker {
    pool *p;
    unsigned id;
} worker;

static void run(pool *p, unsigned id)
{
    while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
        size_t u = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
        if (u >= p->n)
            break;
        /* Units are handed out in order: unit u begun means about u done. */
        if (id == 0 && p->progress && u % PROGRESS_UNITS == 0)
            nbb_progress_part_report(p->progress, (double)u / (double)p->n);
        nb_err e;
        nb_status st = p->fn(p->ctx, u, id, &e);
        if (st != NB_OK) {
            pthread_mutex_lock(&p->lock);
            if (u < p->failed) {
                p->failed = u;
                p->err = e;
                p->st = st;
            }
            pthread_mutex_unlock(&p->lock);
            atomic_store(&p->stop, 1);
        }
    }
}

static void *thread_main(void *arg)
{
    worker *w = arg;
    run(w->p, w->id);
    return NULL;
}

nb_status nbb_par_for(unsigned threads, size_t n, nbb_unit_fn fn, void *ctx, nb_err *err)
{
    return nbb_par_for_progress(threads, n, fn, ctx, NULL, err);
}

nb_status nbb_par_for_progress(unsigned threads, size_t n, nbb_unit_fn fn, void *ctx,
                               const nbb_progress_part *progress, nb_err *err)
{
    threads = nbb_threads_resolve(threads);
    if (threads > n)
        threads = n ? (unsigned)n : 1u;
    if (progress && !progress->fn)
        progress = NULL;
    if (threads == 1) {
        for (size_t u = 0; u < n; u++) {
            if (progress && u % PROGRESS_UNITS == 0)
                nbb_progress_part_report(progress, (double)u / (double)n);
            nb_status st = fn(ctx, u, 0, err);
            if (st != NB_OK)
                return st;
        }
        return nbi_done(err, NB_OK);
    }
    pool p;
    p.fn = fn;
    p.ctx = ctx;
    p.progress = progress;
    p.n = n;
    atomic_init(&p.next, 0);
    atomic_init(&p.stop, 0);
    p.failed = n;
    p.st = NB_OK;
    if (pthread_mutex_init(&p.lock, NULL) != 0)
        return nbi_fail(err, NB_ERR_NOMEM, "cannot make a mutex for %u threads", threads);
    pthread_t tid[NBB_MAX_THREADS];
    worker w[NBB_MAX_THREADS];
    unsigned started = 1;
    /* A thread that cannot be made leaves its share to the others. */
    for (unsigned i = 1; i < threads; i++) {
        w[started].p = &p;
        w[started].id = started;
        if (pthread_create(&tid[started], NULL, thread_main, &w[started]) != 0)
            break;
        started++;
    }
    run(&p, 0);
    for (unsigned i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&p.lock);
    if (p.st != NB_OK) {
        if (err)
            *err = p.err;
        return p.st;
    }
    return nbi_done(err, NB_OK);
}
