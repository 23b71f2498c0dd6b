/* test_convert.c: converting a bundle never changes an answer.  Every
 * input of the fuzz corpus (tests/fuzz/corpus/, every target's: the seeds
 * the tools baked, the mutants and findings kept) that navbake convert
 * accepts (nb_bundle_open with NB_OPEN_VERIFY, as convert opens it) goes
 * through a round trip to the other form and back (binary -> SQLite ->
 * binary, or SQLite -> binary -> SQLite), written as convert writes it
 * (the builder takes every section as stored), and every query family is
 * asked the same questions of the three (tests/fuzz/queries.c, its
 * choices drawn from the file's name): the digests of their answers must
 * agree.  A binary seed the tools baked must also come back byte for byte.
 * An input convert refuses is counted, not converted. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "queries.h"
#include "tap.h"
#include "testutil.h"

static uint64_t name_seed(const char *name)
{
    uint64_t h = 14695981039346656037ull;
    for (const char *c = name; *c; c++)
        h = (h ^ (uint8_t)*c) * 1099511628211ull;
    return h;
}

/* b written as convert writes it, to path in form, and opened from memory as convert opens its
 * input (so that every message names "(memory)", whichever the form); NB_OK or the error in
 * err. */
static nb_status convert(const nb_bundle *b, const char *path, nbb_format form, nb_bundle **out,
                         nb_err *err)
{
    nbb_builder *w = NULL;
    nb_status st = nbb_builder_new(&w, err);
    if (st == NB_OK)
        st = nbb_builder_take(w, b, err);
    if (st == NB_OK)
        st = nbb_builder_write_format(w, path, form, err);
    nbb_builder_free(w);
    size_t len;
    char *data = st == NB_OK ? tu_read(path, &len) : NULL;
    if (st == NB_OK && !data)
        st = nbi_fail(err, NB_ERR_IO, "%s: cannot read it back", path);
    if (st == NB_OK)
        st = nb_bundle_open_memory(data, len, NB_OPEN_VERIFY, NULL, out, err);
    free(data);
    return st;
}

typedef struct counts {
    unsigned files, refused, converted, same_bytes, seeds;
} counts;

static void round_trip(const char *dir, const char *name, counts *n)
{
    char what[300];
    snprintf(what, sizeof what, "%s/%s", dir, name);
    size_t len;
    uint8_t *data = (uint8_t *)tu_read(tu_path(tu_src("tests/fuzz/corpus"), what), &len);
    if (!data)
        return;
    n->files++;
    nb_bundle *b[3] = {NULL, NULL, NULL};
    nb_err err;
    if (nb_bundle_open_memory(data, len, NB_OPEN_VERIFY, NULL, &b[0], &err) != NB_OK) {
        n->refused++;
        free(data);
        return;
    }
    int sqlite = nb_bundle_form_of(b[0]) == NB_FORM_SQLITE;
    const char *mid = tu_path(tu_tmpdir(), sqlite ? "mid.nbk" : "mid.sqlite");
    const char *back = tu_path(tu_tmpdir(), sqlite ? "back.sqlite" : "back.nbk");
    nbb_format there = sqlite ? NBB_FORMAT_BINARY : NBB_FORMAT_SQLITE;
    nbb_format again = sqlite ? NBB_FORMAT_SQLITE : NBB_FORMAT_BINARY;
    nb_status st = convert(b[0], mid, there, &b[1], &err);
    if (st == NB_OK)
        st = convert(b[1], back, again, &b[2], &err);
    if (!ok(st == NB_OK, "%s: converted there and back", what)) {
        diag("%s", err.msg);
    } else {
        n->converted++;
        uint64_t seed = name_seed(name), d[3];
        for (int k = 0; k < 3; k++)
            d[k] = nbf_answers(b[k], seed);
        ok(d[0] == d[1] && d[1] == d[2], "%s: the same answers in both forms and back (%016llx)",
           what, (unsigned long long)d[0]);
        if (!sqlite) {
            size_t blen;
            uint8_t *bytes = (uint8_t *)tu_read(back, &blen);
            int same = bytes && blen == len && memcmp(bytes, data, len) == 0;
            n->same_bytes += same;
            /* What the tools baked comes back as it was; a mutant may hold what no writer
             * writes and no reader reads (a reserved field of its table, say). */
            if (strncmp(name, "seed-", 5) == 0) {
                n->seeds++;
                ok(same, "%s: the same bytes back", what);
            }
            free(bytes);
        }
    }
    for (int k = 0; k < 3; k++)
        nb_bundle_close(b[k]);
    free(data);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    static const char *const dirs[] = {"queries", "tools", "sqlite", "bundle", "unit"};
    counts n = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        DIR *d = opendir(tu_path(tu_src("tests/fuzz/corpus"), dirs[i]));
        if (!ok(d != NULL, "the corpus has %s/", dirs[i]))
            continue;
        char **names = NULL;
        size_t count = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            if (count == cap) {
                cap = cap ? 2 * cap : 64;
                names = realloc(names, cap * sizeof *names);
            }
            names[count++] = strdup(e->d_name);
        }
        closedir(d);
        qsort(names, count, sizeof *names, by_name); /* the same order on every machine */
        for (size_t k = 0; k < count; k++) {
            round_trip(dirs[i], names[k], &n);
            free(names[k]);
        }
        free(names);
    }
    diag("%u inputs: %u converted there and back (%u binary ones to the same bytes), %u refused "
         "by convert (not bundles, or refused for their structure)",
         n.files, n.converted, n.same_bytes, n.refused);
    ok(n.converted >= 20 && n.seeds >= 10, "the seeds and many mutants converted (%u, %u seeds)",
       n.converted, n.seeds);
    return done_testing();
}
