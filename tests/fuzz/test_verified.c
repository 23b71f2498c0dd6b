/* test_verified.c: a bundle that verifies is one every query accepts.
 * For every input of the fuzz corpus (tests/fuzz/corpus/, every target's)
 * and for mutants of each binary seed there (mutate_bundle.c, the
 * structure-aware mutator: right checksums, a wrong value somewhere), a
 * bundle that nb_bundle_verify accepts (the checks of navbake verify and of
 * NB_OPEN_VERIFY) is asked every query family (tests/fuzz/queries.c: each
 * family's handle opened, AA*, HAA* and HAA* on level 1 alone, the
 * optimal layer, the forest, the units, the models and their perimeter
 * tables and motion searches, the places).  No handle may refuse to open
 * with an error of structure (NB_ERR_FORMAT, NB_ERR_VERSION, NB_ERR_CRC),
 * and no query either, but for what only a search can see: two sections
 * that each pass their checks and contradict each other, a clearance layer
 * that blocks a cell an abstract edge's path crosses (HAA*: "the abstract
 * graph is damaged"), or a subgoal layer whose graph joins cells its
 * bitmaps do not let a walk join.  Those are lies a search meets, and
 * navbake verify --deep must refuse each such bundle (nbb_verify_deep).
 * Errors of the query itself (no such agent or layer, a cell off the map)
 * are answers.
 *   NB_VERIFIED_MUTANTS  mutants of each seed (default 64)
 *   NB_VERIFIED_KEEP     a directory to write each refused bundle to */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "mutate.h"
#include "queries.h"
#include "tap.h"
#include "testutil.h"

#define MAX_SIZE (1u << 20)

/* What a query meets when two sections contradict each other (the runtime's
 * messages: abstract/haa.c, subgoal/sgsearch.c). */
static const char *const lies[] = {
    "HAA*: an abstract edge that admits the agent has no path inside its cluster",
    "(subgoal): no free octile walk from",
};

typedef struct tally {
    unsigned inputs, verified, lies, refused;
    char first[NB_ERR_MSG_MAX + 400];
} tally;

/* The refusals of the bundle being asked. */
static unsigned strict, lied;
static char strict_first[NB_ERR_MSG_MAX + 64];

static void on_refusal(const char *call, const nb_err *err)
{
    size_t n = strlen(call);
    int open = n >= 5 && strcmp(call + n - 5, "_open") == 0, lie = 0;
    for (size_t i = 0; !open && i < sizeof lies / sizeof *lies; i++)
        lie |= strstr(err->msg, lies[i]) != NULL;
    if (lie) {
        lied++;
    } else if (!strict++) {
        snprintf(strict_first, sizeof strict_first, "%s: %s", call, err->msg);
    }
}

static void refuse(tally *t, const char *what, const char *why, const uint8_t *data, size_t len)
{
    if (!t->refused++)
        snprintf(t->first, sizeof t->first, "%s: %s", what, why);
    const char *keep = getenv("NB_VERIFIED_KEEP");
    char path[600] = "";
    if (keep && *keep) {
        snprintf(path, sizeof path, "%s/refused-%u", keep, t->refused);
        tu_write(path, data, len);
    }
    diag("%s: %s%s%s", what, why, *path ? "; kept as " : "", path);
}

/* One bundle: asked when it verifies. */
static void one(const uint8_t *data, size_t len, const char *what, uint64_t seed, tally *t)
{
    nb_bundle *b;
    nb_err err;
    t->inputs++;
    if (nb_bundle_open_memory(data, len, 0, NULL, &b, &err) != NB_OK)
        return;
    if (nb_bundle_verify(b, &err) == NB_OK) {
        t->verified++;
        strict = lied = 0;
        (void)nbf_answers(b, seed);
        if (strict) {
            refuse(t, what, strict_first, data, len);
        } else if (lied) {
            t->lies++;
            if (nbb_verify_deep(b, NULL, NULL, &err) == NB_OK)
                refuse(t, what, "a query met a lie that navbake verify --deep accepts", data, len);
        }
    }
    nb_bundle_close(b);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a corpus directory, sorted; NULL when it cannot be read. */
static char **names_in(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    *count = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (*count == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
        }
        names[(*count)++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, *count, sizeof *names, by_name);
    return names;
}

int main(void)
{
    static const char *const dirs[] = {"queries", "tools", "sqlite", "bundle", "unit"};
    const char *env = getenv("NB_VERIFIED_MUTANTS");
    unsigned mutants = env && *env ? (unsigned)strtoul(env, NULL, 10) : 64;
    uint8_t *buf = malloc(MAX_SIZE);
    tally corpus = {0, 0, 0, 0, ""}, mutated = {0, 0, 0, 0, ""};
    unsigned seeds = 0;
    nbf_on_refusal = on_refusal;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s", tu_path(tu_src("tests/fuzz/corpus"), dirs[i]));
        size_t count = 0;
        char **names = names_in(dir, &count);
        if (!ok(names != NULL, "the corpus has %s/", dirs[i]))
            continue;
        for (size_t k = 0; k < count; k++) {
            char what[300];
            snprintf(what, sizeof what, "%s/%s", dirs[i], names[k]);
            size_t len;
            uint8_t *data = (uint8_t *)tu_read(tu_path(dir, names[k]), &len);
            if (data) {
                one(data, len, what, k, &corpus);
                /* Mutants of the binary seeds the tools baked (tools/ holds the same seeds). */
                if (strncmp(names[k], "seed-", 5) == 0 && strcmp(dirs[i], "queries") == 0 &&
                    len <= MAX_SIZE && len >= 8 && memcmp(data, "\x89NBK", 4) == 0) {
                    seeds++;
                    unsigned before = mutated.refused;
                    for (unsigned m = 0; m < mutants; m++) {
                        memcpy(buf, data, len);
                        size_t n = nbf_mutate_bundle(buf, len, MAX_SIZE, m, NULL);
                        char mw[400];
                        snprintf(mw, sizeof mw, "%s, mutant %u (nbf_mutate_bundle seed %u)", what,
                                 m, m);
                        one(buf, n, mw, m, &mutated);
                    }
                    ok(mutated.refused == before,
                       "%s: %u mutants: every handle opens on those that verify, and no query "
                       "refuses one for its structure but for a lie --deep sees", what, mutants);
                }
            }
            free(data);
            free(names[k]);
        }
        free(names);
    }
    ok(corpus.refused == 0,
       "the corpus: %u inputs, %u verify; every handle opens on them and no query refuses one "
       "for its structure%s%s",
       corpus.inputs, corpus.verified, corpus.refused ? ": " : "", corpus.first);
    ok(mutated.refused == 0,
       "the mutants: %u, %u verify; every handle opens on them and no query refuses one for its "
       "structure (%u met a lie between two sections, which --deep refuses)%s%s",
       mutated.inputs, mutated.verified, mutated.lies, mutated.refused ? ": " : "", mutated.first);
    ok(seeds >= 8 && corpus.verified >= 20 && mutated.verified >= seeds * mutants / 5,
       "enough of them verify to say so (%u seeds)", seeds);
    free(buf);
    return done_testing();
}
