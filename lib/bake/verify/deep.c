/* deep.c: nbb_verify_deep's driver, run with the check of each type that
 * the registry of section types gives (sections/section_rules.c).
 * Sections are visited in table order, which is type order, so the
 * clearance layers are proved against the map before the abstract graph
 * is rebuilt from them. */
#include <stdio.h>
#include <time.h>

#include "verify/deep.h"

void nbb_deep_defaults(nbb_deep_opts *o)
{
    memset(o, 0, sizeof *o);
    o->seed = NBB_DEEP_SEED;
    o->perimeter_tables = NBB_DEEP_PERIMETER_TABLES;
}

/* "section 3 (clearance capability=ground cap=3 bits=2)", as navbake info
 * shows a section. */
static void describe(const nb_bundle *b, size_t index, char *out, size_t len)
{
    const nb_section_info *in = &b->sections[index].info;
    const char *type = nb_section_type_name(in->type);
    size_t at = (size_t)snprintf(out, len, "section %zu (%s", index, type ? type : "unknown");
    if (in->name[0] && at < len)
        at += (size_t)snprintf(out + at, len - at, " '%s'", in->name);
    for (unsigned i = 0; i < NB_SECTION_PARAMS && at < len; i++) {
        const char *pn = nb_section_param_name(in->type, i);
        if (!pn)
            continue;
        if (strcmp(pn, "capability") == 0) {
            char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 1) + 1];
            nb_capability_format(b, nb_section_param(in, i), caps, sizeof caps);
            at += (size_t)snprintf(out + at, len - at, " %s=%s", pn, caps);
        } else
            at += (size_t)snprintf(out + at, len - at, " %s=%u", pn, (unsigned)nb_section_param(in, i));
    }
    if (at < len)
        snprintf(out + at, len - at, ")");
}

static double seconds_since(clockid_t clock, const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(clock, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

nb_status nbb_deep_run(const nb_bundle *b, const nbb_deep_opts *o,
                       nbb_deep_check (*check_of)(uint32_t type), nbb_deep_stats *stats,
                       nb_err *err)
{
    nbb_deep_opts defaults;
    nbb_deep_stats local;
    if (!o) {
        nbb_deep_defaults(&defaults);
        o = &defaults;
    }
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    nbb_deep d = {b, o, stats, 0, ""};
    for (size_t i = 0; i < b->nsections; i++) {
        nbb_deep_check check = check_of(b->sections[i].info.type);
        /* Both clocks: on a shared machine the CPU time is the cost. */
        struct timespec t0, c0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        if (check) {
            d.index = i;
            describe(b, i, d.what, sizeof d.what);
            nb_status st = check(&d, err);
            if (st != NB_OK)
                return st;
            stats->recomputed++;
        }
        if (o->section_done)
            o->section_done(o->ctx, i, check != NULL, seconds_since(CLOCK_MONOTONIC, &t0),
                            seconds_since(CLOCK_PROCESS_CPUTIME_ID, &c0));
    }
    nbi_ok(err);
    return NB_OK;
}
