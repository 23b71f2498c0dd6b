/* parallel.c: units of work on POSIX threads (parallel.h).
 *
 * Each thread takes the next batch of units from a shared counter until
 * none is left.  Units are small and many (a cluster, a band of 64 rows),
 * so the threads stay busy to the end without any plan of who does what;
 * and as every unit writes only its own result, the order they finish in
 * does not matter.  A batch is a share of what is left (guided
 * scheduling): a counter bumped once a unit made the threads fight over
 * its cache line (a million clusters at 8192^2), and shrinking batches
 * still end together. */
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

/* Batches a thread's share of what is left is cut into: the last ones are
 * small enough for the threads to end together. */
#define BATCHES_PER_THREAD 8

typedef struct pool {
    nbb_unit_fn fn;
    void *ctx;
    const nbb_progress_part *progress;
    size_t n;
    unsigned threads;
    atomic_size_t next;
    atomic_size_t failed; /* the lowest failing unit, or n */
    pthread_mutex_t lock;
    nb_err err;           /* its message */
    nb_status st;
} pool;

typedef struct worker {
    pool *p;
    unsigned id;
} worker;

/* Takes the next batch, [*from, *to); 0 when none is left. */
static int take(pool *p, size_t *from, size_t *to)
{
    size_t u = atomic_load_explicit(&p->next, memory_order_relaxed), k;
    do {
        if (u >= p->n)
            return 0;
        k = (p->n - u) / ((size_t)p->threads * BATCHES_PER_THREAD);
        k = k ? k : 1;
    } while (!atomic_compare_exchange_weak_explicit(&p->next, &u, u + k, memory_order_relaxed,
                                                    memory_order_relaxed));
    *from = u;
    *to = u + k;
    return 1;
}

/* Every unit below a failing one still runs (they were all handed out
 * before it), so the failure returned is the lowest failing unit's, as on
 * one thread. */
static void run(pool *p, unsigned id)
{
    size_t from, to;
    while (take(p, &from, &to)) {
        for (size_t u = from; u < to; u++) {
            if (u >= atomic_load_explicit(&p->failed, memory_order_relaxed))
                return;
            /* Batches are handed out in order: unit u begun means about u done. */
            nb_err e;
            nb_status st = NB_OK;
            if (id == 0 && p->progress && u % PROGRESS_UNITS == 0) {
                nbb_progress_part_report(p->progress, (double)u / (double)p->n);
                if (nbb_progress_stopped(p->progress))
                    st = nbb_progress_cancelled(&e);
            }
            if (st == NB_OK)
                st = p->fn(p->ctx, u, id, &e);
            if (st != NB_OK) {
                pthread_mutex_lock(&p->lock);
                if (u < atomic_load(&p->failed)) {
                    atomic_store(&p->failed, u);
                    p->err = e;
                    p->st = st;
                }
                pthread_mutex_unlock(&p->lock);
                return;
            }
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
            if (progress && u % PROGRESS_UNITS == 0) {
                nbb_progress_part_report(progress, (double)u / (double)n);
                if (nbb_progress_stopped(progress))
                    return nbb_progress_cancelled(err);
            }
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
    p.threads = threads;
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, n);
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
