/* test_mutate.c: the fuzzers' structure-aware mutators (mutate.h), without
 * libFuzzer.  The sample level of data/ is baked in this process with
 * every kind of section (mkclear's layers and optimal-search layers, an abstract graph with the
 * levels above it, a model and its perimeter table, a unit and its tables, a forest and two bitangent
 * graphs), then mutated 1000 times: every mutant must be a bundle whose
 * checksums are right (nb_bundle_open and nb_bundle_verify may refuse it
 * for its structure, never with NB_ERR_CRC), and the same seed must give
 * the same bytes.  The same for 200 mutants of its SQLite form, which must
 * stay SQLite databases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "mutate.h"
#include "tap.h"
#include "testutil.h"

#define MAX_SIZE (1u << 20)

/* A byte mutator for the test: flips a byte, or cuts the last one. */
static size_t flip(uint8_t *data, size_t size, size_t max_size)
{
    (void)max_size;
    if (size == 0)
        return 0;
    static unsigned k;
    k = k * 1103515245u + 12345u;
    if (k % 5 == 0)
        return size - 1;
    data[(k >> 8) % size] ^= (uint8_t)(1u << (k >> 4) % 8);
    return size;
}

static int bake(uint8_t **image, size_t *len)
{
    nb_err err;
    nbb_builder *w = NULL;
    nbb_level *level = NULL;
    nb_bundle *b = NULL;
    nb_model *m = NULL;
    uint8_t *payload = NULL;
    nbb_forest f = {0};
    int ok = nbb_builder_new(&w, &err) == NB_OK &&
             nbb_level_read(NULL, tu_src("data/sample-agents.yaml"), tu_src("data/sample.map"), 1,
                            &level, &err) == NB_OK &&
             nbb_level_put(w, level, 0, &err) == NB_OK &&
             nbb_level_bake_clearance(w, level, 1, NULL, NULL, NULL, &err) == NB_OK && /* zlib, for the inflation */
             nbb_level_bake_subgoal(w, level, NBB_CORNERS_STRICT, 0, NULL, NULL, &err) == NB_OK &&
             nbb_builder_image(w, image, len, &err) == NB_OK &&
             nb_bundle_open_memory(*image, *len, 0, NULL, &b, &err) == NB_OK;
    free(*image);
    *image = NULL;
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.paths = 1;
    size_t plen;
    ok = ok && nbb_abstract_build(b, &o, &payload, &plen, NULL, &err) == NB_OK;
    if (ok) {
        nb_section_info in;
        memset(&in, 0, sizeof in);
        nbb_abstract_info(payload, &in);
        nbb_levels_opts lo = {3, 2, NBB_LEVEL_SPACING, 1, NBB_LEVEL_SHARE, 4};
        ok = nbb_builder_add(w, &in, payload, plen, 0, &err) == NB_OK &&
             nbb_levels_put(w, payload, plen, nb_map_width(b), nb_map_height(b), &lo, 0, &err) ==
                 NB_OK;
    }
    nbb_perimeter_opts po = {3, NB_PERIM_SYMMETRIC, 16, 0, 0, NULL, NULL};
    ok = ok && nbb_model_load(tu_src("data/models/humanoid.yaml"), &m, &err) == NB_OK &&
         nbb_put_model(w, m, &err) == NB_OK && nbb_put_perimeter(w, m, &po, NULL, &err) == NB_OK;
    nb_unit u = {"mini", 1, 0.5, 8, 8, 1, 2, 0};
    double radii[2] = {0, 1};
    ok = ok && nbb_put_unit(w, &u, 0, NULL, &err) == NB_OK &&
         nbb_forest_read(tu_src("data/forest.yaml"), &f, &err) == NB_OK &&
         nbb_put_forest(w, &f, radii, 2, 0, NULL, NULL, NULL, &err) == NB_OK &&
         nbb_builder_image(w, image, len, &err) == NB_OK;
    if (!ok)
        diag("baking the sample: %s", err.msg);
    nbb_forest_free(&f);
    nb_model_close(m);
    free(payload);
    nb_bundle_close(b);
    nbb_level_free(level);
    nbb_builder_free(w);
    return ok;
}

int main(void)
{
    uint8_t *seed;
    size_t seed_len;
    if (!ok(bake(&seed, &seed_len), "the sample baked with every kind of section"))
        return done_testing();
    nb_bundle *b;
    nb_err err;
    ok(nb_bundle_open_memory(seed, seed_len, NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK,
       "the seed verifies (%zu bytes)", seed_len);
    ok(nb_bundle_section_count(b) >= 25, "it has %zu sections", nb_bundle_section_count(b));
    nb_bundle_close(b);

    uint8_t *buf = malloc(MAX_SIZE), *again = malloc(MAX_SIZE);
    unsigned crc_errors = 0, differ = 0, changed = 0, opened = 0, verified = 0, same = 0;
    char first_crc[NB_ERR_MSG_MAX] = "";
    for (unsigned i = 0; i < 1000; i++) {
        memcpy(buf, seed, seed_len);
        size_t n = nbf_mutate_bundle(buf, seed_len, MAX_SIZE, i, NULL);
        memcpy(again, seed, seed_len);
        size_t n2 = nbf_mutate_bundle(again, seed_len, MAX_SIZE, i, NULL);
        differ += n != n2 || memcmp(buf, again, n) != 0;
        changed += n != seed_len || memcmp(buf, seed, n) != 0;
        nb_status st = nb_bundle_open_memory(buf, n, 0, NULL, &b, &err);
        if (st == NB_OK) {
            opened++;
            st = nb_bundle_verify(b, &err);
            verified += st == NB_OK;
            nb_bundle_close(b);
        }
        if (st == NB_ERR_CRC && !crc_errors++)
            snprintf(first_crc, sizeof first_crc, "seed %u: %s", i, err.msg);
        /* The byte mutator's share, and the crossover, must not crash. */
        memcpy(buf, seed, seed_len);
        (void)nbf_mutate_bundle(buf, seed_len, MAX_SIZE, i + 100000, flip);
        n2 = nbf_crossover_bundle(seed, seed_len, buf, n, again, MAX_SIZE, i);
        same += n2 == 0;
    }
    is_int(crc_errors, 0, "no mutant fails a checksum%s%s", crc_errors ? ": " : "", first_crc);
    is_int(differ, 0, "the same seed gives the same mutant");
    ok(changed >= 990, "mutants differ from the seed (%u of 1000)", changed);
    ok(opened >= 500, "most open (%u of 1000; refused for their table or level: %u)", opened,
       1000 - opened);
    /* nb_bundle_verify makes every section's structural check, as its reader would before a
     * query: a mutant whose change a reader refuses fails it (about six in ten), and the
     * fuzzers ask queries of the rest. */
    ok(verified >= 300, "many verify (%u of 1000; refused for a section's structure: %u)",
       verified, opened - verified);
    diag("binary: %u of 1000 mutants open, %u verify", opened, verified);

    /* The SQLite form. */
    const char *db = tu_path(tu_tmpdir(), "seed.sqlite");
    size_t sq_len = 0;
    uint8_t *sq = NULL;
    if (nb_bundle_open_memory(seed, seed_len, 0, NULL, &b, &err) == NB_OK) {
        if (nbb_sqlite_write(b, db, &err) == NB_OK)
            sq = (uint8_t *)tu_read(db, &sq_len);
        nb_bundle_close(b);
    }
    if (ok(sq && sq_len <= MAX_SIZE, "the seed in SQLite form (%zu bytes)", sq_len)) {
        unsigned sq_opened = 0, sq_differ = 0, sq_sqlite = 0, sq_crc = 0;
        for (unsigned i = 0; i < 200; i++) {
            memcpy(buf, sq, sq_len);
            size_t n = nbf_mutate_sqlite(buf, sq_len, MAX_SIZE, i, NULL);
            memcpy(again, sq, sq_len);
            size_t n2 = nbf_mutate_sqlite(again, sq_len, MAX_SIZE, i, NULL);
            sq_differ += n != n2 || memcmp(buf, again, n) != 0;
            sq_sqlite += n >= 16 && memcmp(buf, "SQLite format 3", 16) == 0;
            nb_status st = nb_bundle_open_memory(buf, n, NB_OPEN_VERIFY, NULL, &b, &err);
            sq_crc += st == NB_ERR_CRC;
            if (st == NB_OK) {
                sq_opened++;
                nb_bundle_close(b);
            }
        }
        is_int(sq_differ, 0, "SQLite: the same seed gives the same mutant");
        is_int(sq_sqlite, 200, "SQLite: every mutant is a database");
        ok(sq_opened >= 50, "SQLite: many open and verify (%u of 200; %u checksums left wrong on "
                            "purpose)", sq_opened, sq_crc);
    }
    free(sq);
    free(buf);
    free(again);
    free(seed);
    return done_testing();
}
