/* unit_tables.c: a unit's three sections together (formats/hitcheck.md):
 * the unit, its hit-check table and its curve table, each checked against
 * the others, for the planner and the tools that draw them. */
#include "turning/turning.h"

/* The payload of the section of this type named for the unit. */
static nb_status unit_payload(const nb_bundle *b, uint32_t type, const char *name,
                              const uint8_t **data, size_t *len, uint32_t *version, nb_err *err)
{
    long i = nbi_section_index(b, type, name, NULL, 0);
    if (i < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: unit '%s' has no %s section", b->path, name,
                        nbi_type_name(b, type));
    *version = b->sections[i].info.version;
    return nb_bundle_payload(b, (size_t)i, (const void **)data, len, err);
}

/* Section index's table, checked with its unit as the planner reads it. */
static nb_status table_check(const nb_bundle *b, size_t index, int curves, nb_err *err)
{
    const nb_section_info *in = &b->sections[index].info;
    if (nbi_section_index(b, NB_SEC_UNIT, in->name, NULL, 0) < 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): the table of unit '%s', which the bundle does not "
                        "hold", b->path, index, nbi_type_name(b, in->type), in->name);
    nb_unit u;
    nbi_hitcheck hc;
    nbi_curvetab ct;
    return nbi_unit_sections(b, in->name, &u, curves ? NULL : &hc, curves ? &ct : NULL, err);
}

nb_status nbi_hitcheck_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    return table_check(b, index, 0, err);
}

nb_status nbi_curves_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    return table_check(b, index, 1, err);
}

nb_status nbi_unit_sections(const nb_bundle *b, const char *name, nb_unit *u, nbi_hitcheck *hc,
                            nbi_curvetab *ct, nb_err *err)
{
    nb_status st = nbi_unit_named(b, name, u, err);
    if (st != NB_OK)
        return st;
    const uint8_t *data;
    size_t len;
    uint32_t version;
    if (hc) {
        if ((st = unit_payload(b, NB_SEC_HITCHECK, name, &data, &len, &version, err)))
            return st;
        if ((st = nbi_hitcheck_view(data, len, version, hc, err))) {
            nbi_err_prefix(err, "%s: hitcheck '%s'", b->path, name);
            return st;
        }
        if (hc->headings != u->headings || hc->radius != u->radius || hc->width != u->width)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: hitcheck '%s' was made for another unit (radius %g, width %g, "
                            "%u headings)",
                            b->path, name, hc->radius, hc->width, hc->headings);
    }
    if (ct) {
        if ((st = unit_payload(b, NB_SEC_CURVES, name, &data, &len, &version, err)))
            return st;
        if (version != NBI_CURVES_VERSION)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: curves '%s' is version %u; this navbake "
                            "reads version %d", b->path, name, version, NBI_CURVES_VERSION);
        if ((st = nbi_curvetab_view(data, len, ct, err))) {
            nbi_err_prefix(err, "%s: curves '%s'", b->path, name);
            return st;
        }
        if (ct->radius != u->radius)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: curves '%s' was made for turning radius %g, the unit has %g",
                            b->path, name, ct->radius, u->radius);
    }
    return NB_OK;
}
