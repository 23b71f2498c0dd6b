/* unit.c: units with a turning radius, as a bundle keeps them (the unit
 * section, formats/hitcheck.md), and the neighbourhoods their searches
 * use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "turning/turning.h"

const char *const nbi_words[NBI_NWORDS] = {"LSL", "RSR", "LSR", "RSL", "LRL", "RLR"};

int nbi_word_code(const char *word)
{
    for (int i = 0; i < NBI_NWORDS; i++)
        if (strcmp(word, nbi_words[i]) == 0)
            return i;
    return -1;
}

unsigned nbi_neighbourhood(unsigned n, int off[][2])
{
    int rings = n == 8 ? 1 : n == 24 ? 2 : n == 48 ? 3 : 0;
    unsigned k = 0;
    for (int d = 1; d <= rings; d++)
        for (int dy = -d; dy <= d; dy++)
            for (int dx = -d; dx <= d; dx++)
                if (abs(dx) == d || abs(dy) == d) {
                    off[k][0] = dx;
                    off[k][1] = dy;
                    k++;
                }
    return k;
}

nb_status nbi_unit_check(const nb_unit *u, nb_err *err)
{
    if (!(u->radius > 0 && u->radius <= NBI_UNIT_MAX_RADIUS))
        return nbi_fail(err, NB_ERR_LIMIT, "unit '%s': turning radius %g is not in (0, %g] cells",
                        u->name, u->radius, NBI_UNIT_MAX_RADIUS);
    if (!(u->width > 0 && u->width <= NBI_UNIT_MAX_WIDTH))
        return nbi_fail(err, NB_ERR_LIMIT, "unit '%s': width %g is not in (0, %g] cells", u->name,
                        u->width, NBI_UNIT_MAX_WIDTH);
    if (u->headings != 8 && u->headings != 16)
        return nbi_fail(err, NB_ERR_LIMIT, "unit '%s': %u headings; expected 8 or 16", u->name,
                        u->headings);
    if (u->neighbourhood != 8 && u->neighbourhood != 24 && u->neighbourhood != 48)
        return nbi_fail(err, NB_ERR_LIMIT, "unit '%s': neighbourhood %u; expected 8, 24 or 48",
                        u->name, u->neighbourhood);
    if (!(u->reverse_penalty >= 1 && u->reverse_penalty <= 1000))
        return nbi_fail(err, NB_ERR_LIMIT, "unit '%s': reverse penalty %g is not in [1, 1000]",
                        u->name, u->reverse_penalty);
    return NB_OK;
}

void nbi_unit_encode(const nb_unit *u, uint8_t out[NBI_UNIT_SIZE])
{
    memset(out, 0, NBI_UNIT_SIZE);
    nbi_putf64(out + NBI_UNIT_RADIUS, u->radius);
    nbi_putf64(out + NBI_UNIT_WIDTH, u->width);
    nbi_put32(out + NBI_UNIT_HEADINGS, u->headings);
    nbi_put32(out + NBI_UNIT_NEIGHBOURHOOD, u->neighbourhood);
    nbi_put32(out + NBI_UNIT_FLAGS, u->reverse ? NBI_UNIT_REVERSE : 0);
    nbi_put32(out + NBI_UNIT_CAPABILITY, u->capability);
    nbi_putf64(out + NBI_UNIT_PENALTY, u->reverse_penalty);
}

nb_status nbi_unit_decode(const uint8_t *p, size_t len, const char *name, nb_unit *u, nb_err *err)
{
    memset(u, 0, sizeof *u);
    snprintf(u->name, sizeof u->name, "%s", name);
    if (len != NBI_UNIT_SIZE)
        return nbi_fail(err, NB_ERR_FORMAT, "unit '%s': the section has %zu bytes; expected %d",
                        name, len, NBI_UNIT_SIZE);
    u->radius = nbi_getf64(p + NBI_UNIT_RADIUS);
    u->width = nbi_getf64(p + NBI_UNIT_WIDTH);
    u->headings = nbi_get32(p + NBI_UNIT_HEADINGS);
    u->neighbourhood = nbi_get32(p + NBI_UNIT_NEIGHBOURHOOD);
    uint32_t flags = nbi_get32(p + NBI_UNIT_FLAGS);
    u->reverse = (flags & NBI_UNIT_REVERSE) != 0;
    u->capability = nbi_get32(p + NBI_UNIT_CAPABILITY);
    u->reverse_penalty = nbi_getf64(p + NBI_UNIT_PENALTY);
    if (flags & ~NBI_UNIT_REVERSE)
        return nbi_fail(err, NB_ERR_FORMAT, "unit '%s': unknown flags 0x%x", name, flags);
    /* A unit the check refuses is a bad section here, not a bad argument. */
    if (nbi_unit_check(u, err) != NB_OK) {
        if (err)
            err->code = NB_ERR_FORMAT;
        return NB_ERR_FORMAT;
    }
    return NB_OK;
}

size_t nb_unit_count(const nb_bundle *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nsections; i++)
        n += b->sections[i].info.type == NB_SEC_UNIT;
    return n;
}

static nb_status decode_at(const nb_bundle *b, size_t i, nb_unit *out, nb_err *err)
{
    const nb_section_info *in = &b->sections[i].info;
    if (in->version != NBI_UNIT_VERSION)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %zu (unit '%s') has version %u; this reader knows version %d",
                        b->path, i, in->name, in->version, NBI_UNIT_VERSION);
    const void *data;
    size_t len;
    nb_status st = nb_bundle_payload(b, i, &data, &len, err);
    if (st != NB_OK)
        return st;
    return nbi_unit_decode(data, len, b->sections[i].info.name, out, err);
}

nb_status nbi_unit_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nb_unit u;
    return decode_at(b, index, &u, err);
}

nb_status nb_unit_get(const nb_bundle *b, size_t index, nb_unit *out, nb_err *err)
{
    size_t k = index;
    for (size_t i = 0; i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_UNIT && k-- == 0)
            return nbi_done(err, decode_at(b, i, out, err));
    return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no unit number %zu", b->path, index);
}

/* The index among the units of the unit section called name, or -1. */
static long unit_index(const nb_bundle *b, const char *name, long *section)
{
    long k = 0;
    for (size_t i = 0; i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_UNIT) {
            if (name && strcmp(b->sections[i].info.name, name) == 0) {
                *section = (long)i;
                return k;
            }
            k++;
        }
    return -1;
}

static nb_status no_unit(const nb_bundle *b, const char *name, nb_err *err)
{
    char known[256] = "";
    size_t at = 0;
    for (size_t k = 0; k < b->nsections && at < sizeof known - 40; k++)
        if (b->sections[k].info.type == NB_SEC_UNIT)
            at += (size_t)snprintf(known + at, sizeof known - at, "%s%s", at ? ", " : "",
                                   b->sections[k].info.name);
    return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no unit '%s' (%s%s)", b->path, name ? name : "",
                    at ? "the bundle has " : "the bundle has no units; bake one with mkhitcheck",
                    known);
}

nb_status nb_unit_lookup(const nb_bundle *b, const char *name, size_t *index, nb_err *err)
{
    long section, k = unit_index(b, name, &section);
    if (k < 0)
        return no_unit(b, name, err);
    *index = (size_t)k;
    return nbi_done(err, NB_OK);
}

nb_status nbi_unit_named(const nb_bundle *b, const char *name, nb_unit *out, nb_err *err)
{
    long section;
    if (unit_index(b, name, &section) < 0)
        return no_unit(b, name, err);
    return nbi_done(err, decode_at(b, (size_t)section, out, err));
}
