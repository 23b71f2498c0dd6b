/* test_parallel.c: units of work on threads (parallel.c).  On 1, 2, 5 and
 * 8 threads, for random counts of units: every unit runs exactly once,
 * results joined in unit order are the bytes of one thread's; with random
 * units failing, the failure returned is the lowest failing unit's, every
 * unit below it has run and none has run twice.  The CRC-32 of random
 * buffers of up to 6 MB in chunks on 1, 2, 5 and 8 threads (crc32_threads.c)
 * against zlib's of the whole.  Bundles of random sections written through a
 * mapping on 1, 2, 5 and 8 threads (write_mapped.c): the builder's image,
 * which is put together in memory in one go.  Random files of up to 10 MB
 * read in chunks on 1, 2, 5 and 8 threads (readfile.c): their bytes. */
#include <stdatomic.h>
#include <stdlib.h>
#include <zlib.h>

#include "bake.h"
#include "parallel/parallel.h"
#include "tap.h"
#include "testutil.h"

typedef struct job {
    size_t n;
    const uint8_t *fails; /* [u]: unit u fails */
    atomic_uint *runs;    /* [u]: times unit u ran */
    uint32_t *len;        /* [u]: its result's length */
    uint8_t **out;        /* [u]: its result */
} job;

/* A result of its own length and bytes for every unit. */
static nb_status unit(void *ctx, size_t u, unsigned worker, nb_err *err)
{
    job *j = ctx;
    (void)worker;
    atomic_fetch_add(&j->runs[u], 1);
    if (j->fails && j->fails[u])
        return nbi_fail(err, NB_ERR_LIMIT, "unit %zu fails", u);
    uint32_t len = (uint32_t)(u * 2654435761u % 13);
    j->out[u] = malloc(len ? len : 1);
    for (uint32_t i = 0; i < len; i++)
        j->out[u][i] = (uint8_t)(u * 31 + i);
    j->len[u] = len;
    return NB_OK;
}

/* The results in unit order. */
static uint8_t *join(const job *j, size_t *len)
{
    size_t total = 0;
    for (size_t u = 0; u < j->n; u++)
        total += j->len[u];
    uint8_t *p = malloc(total ? total : 1), *at = p;
    for (size_t u = 0; u < j->n; u++) {
        memcpy(at, j->out[u], j->len[u]);
        at += j->len[u];
    }
    *len = total;
    return p;
}

static job job_new(size_t n, const uint8_t *fails)
{
    job j = {n, fails, calloc(n + 1, sizeof *j.runs), calloc(n + 1, sizeof *j.len),
             calloc(n + 1, sizeof *j.out)};
    return j;
}

static void job_free(job *j)
{
    for (size_t u = 0; u < j->n; u++)
        free(j->out[u]);
    free((void *)j->runs);
    free(j->len);
    free(j->out);
}

int main(void)
{
    static const unsigned counts[] = {1, 2, 5, 8};
    tu_rng r = {0x243f6a8885a308d3ull};
    int joined = 0, joined_bad = 0, failed = 0, failed_bad = 0;
    for (int t = 0; t < 200; t++) {
        size_t n = tu_below(&r, 4) == 0 ? tu_below(&r, 10) : tu_below(&r, 20000);
        /* The bytes one thread joins, built here unit by unit. */
        job want = job_new(n, NULL);
        nb_err err;
        for (size_t u = 0; u < n; u++)
            unit(&want, u, 0, &err);
        size_t wlen;
        uint8_t *w = join(&want, &wlen);
        uint8_t *fails = calloc(n + 1, 1);
        size_t lowest = n;
        for (int k = 0; n && k < 3; k++) {
            size_t u = tu_below(&r, (uint32_t)n);
            fails[u] = 1;
            lowest = u < lowest ? u : lowest;
        }
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            job j = job_new(n, NULL);
            nb_status st = nbb_par_for(counts[c], n, unit, &j, &err);
            int once = 1;
            for (size_t u = 0; u < n; u++)
                once &= j.runs[u] == 1;
            size_t len;
            uint8_t *got = join(&j, &len);
            joined++;
            joined_bad += st != NB_OK || !once || len != wlen || memcmp(got, w, len) != 0;
            free(got);
            job_free(&j);
            if (!n)
                continue;
            job f = job_new(n, fails);
            st = nbb_par_for(counts[c], n, unit, &f, &err);
            char msg[64];
            snprintf(msg, sizeof msg, "unit %zu fails", lowest);
            int below = 1, twice = 0;
            for (size_t u = 0; u < n; u++) {
                below &= u > lowest || f.runs[u] == 1;
                twice |= f.runs[u] > 1;
            }
            failed++;
            failed_bad += st != NB_ERR_LIMIT || strcmp(err.msg, msg) != 0 || !below || twice;
            job_free(&f);
        }
        free(fails);
        free(w);
        job_free(&want);
    }
    int crcs = 0, crcs_bad = 0;
    for (int t = 0; t < 24; t++) {
        size_t len = t < 4 ? (size_t)t * 1048576 : tu_below(&r, 6u << 20);
        size_t skew = tu_below(&r, 8); /* not only aligned buffers */
        uint8_t *buf = malloc(len + skew + 1);
        for (size_t i = 0; i < len + skew; i++)
            buf[i] = (uint8_t)tu_rand(&r);
        uint32_t seed = (uint32_t)tu_rand(&r) * (t % 2);
        uint32_t want = (uint32_t)crc32(seed, buf + skew, (uInt)len);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            crcs++;
            crcs_bad += nbb_crc32_threads(seed, buf + skew, len, counts[c]) != want;
        }
        free(buf);
    }
    ok(crcs_bad == 0, "CRC-32 in chunks on 1, 2, 5 and 8 threads: zlib's of the whole buffer (%d "
       "buffers of up to 6 MB, %d wrong)", crcs, crcs_bad);
    int written = 0, written_bad = 0;
    for (int t = 0; t < 6; t++) {
        nbb_builder *b;
        nb_err err;
        nbb_builder_new(&b, &err);
        for (int k = 0; k < 5; k++) {
            size_t len = tu_below(&r, 4) ? tu_below(&r, 5u << 20) : tu_below(&r, 100);
            uint8_t *p = malloc(len ? len : 1);
            for (size_t i = 0; i < len; i++)
                p[i] = (uint8_t)tu_rand(&r);
            nb_section_info in;
            memset(&in, 0, sizeof in);
            in.type = NB_SEC_MODEL;
            in.version = 1;
            snprintf(in.name, sizeof in.name, "m%d", k);
            nbb_builder_add_owned(b, &in, p, len, 0, &err);
        }
        uint8_t *image;
        size_t ilen;
        nbb_builder_image(b, &image, &ilen, &err);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            const char *path = tu_path(tu_tmpdir(), "mapped.nbk");
            nbb_builder_threads(b, counts[c]);
            size_t flen = 0;
            char *file = nbb_builder_write(b, path, &err) == NB_OK ? tu_read(path, &flen) : NULL;
            written++;
            written_bad += !file || flen != ilen || memcmp(file, image, ilen) != 0;
            free(file);
        }
        free(image);
        nbb_builder_free(b);
    }
    ok(written_bad == 0, "bundles of random sections written on 1, 2, 5 and 8 threads: the "
       "builder's image (%d files, %d wrong)", written, written_bad);
    int reads = 0, reads_bad = 0;
    for (int t = 0; t < 8; t++) {
        size_t len = t == 0 ? 0 : t == 1 ? 4u << 20 : tu_below(&r, 10u << 20);
        char *data = malloc(len + 1);
        for (size_t i = 0; i < len; i++)
            data[i] = (char)tu_rand(&r);
        const char *path = tu_path(tu_tmpdir(), "read.bin");
        tu_write(path, data, len);
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            char *got = NULL;
            size_t glen = 0;
            nb_err err;
            nb_status st =
                nbb_read_file_threads(path, (size_t)1 << 30, counts[c], &got, &glen, &err);
            reads++;
            reads_bad += st != NB_OK || glen != len || memcmp(got, data, len) != 0 || got[len];
            free(got);
        }
        free(data);
    }
    ok(reads_bad == 0, "files of up to 10 MB read in chunks on 1, 2, 5 and 8 threads: their bytes "
       "(%d reads, %d wrong)", reads, reads_bad);
    ok(joined_bad == 0, "units on 1, 2, 5 and 8 threads: each ran once, results joined in unit "
       "order are one thread's bytes (%d runs, %d wrong)", joined, joined_bad);
    ok(failed_bad == 0, "failing units on 1, 2, 5 and 8 threads: the lowest failure returned, "
       "every unit below it run once, none twice (%d runs, %d wrong)", failed, failed_bad);
    return done_testing();
}
