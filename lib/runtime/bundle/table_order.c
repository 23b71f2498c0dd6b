/* table_order.c: the one order of a section table (formats/bundle.md):
 * sorted by (type, name, parameters), each key once.  The writers lay
 * every bundle out in it; open refuses a table out of it, binary or
 * SQLite, so that a query reads the one section a key names, and a
 * conversion, which sorts and keeps one section a key, keeps that one.
 * (Were two sections to share a key, a query would read the first while
 * the builder kept the last: binary -> SQLite -> binary would change the
 * answers.) */
#include <stdio.h>

#include "bundle/bundle.h"

int nbi_section_key_cmp(const nb_section_info *a, const nb_section_info *b)
{
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c)
        return c < 0 ? -1 : 1;
    for (int i = 0; i < NB_SECTION_PARAMS; i++)
        if (a->param[i] != b->param[i])
            return a->param[i] < b->param[i] ? -1 : 1;
    return 0;
}

/* "section 3 (clearance capability=3 cap=8 bits=4)", or for an SQLite
 * bundle "row 3 of the sections table (...)": an entry by its place and
 * its key.  A name the registry would refuse (of a type it does not know)
 * is shown with '?' for each byte outside [A-Za-z0-9_-]. */
static void describe(const nb_bundle *b, size_t i, char *out, size_t len)
{
    const nb_section_info *in = &b->sections[i].info;
    const struct nbi_section_kind *k = nbi_kind_of(b, in->type);
    int at = b->form == NB_FORM_SQLITE
                 ? snprintf(out, len, "row id %zu of the sections table (", i)
                 : snprintf(out, len, "section %zu (", i);
    if (k)
        at += snprintf(out + at, len - (size_t)at, "%s", k->name);
    else
        at += snprintf(out + at, len - (size_t)at, "type %u", (unsigned)in->type);
    if (in->name[0] && (size_t)at < len) {
        char name[NB_NAME_MAX + 1];
        size_t n = 0;
        for (; in->name[n] && n < NB_NAME_MAX; n++) {
            char c = in->name[n];
            int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '_' || c == '-';
            name[n] = plain ? c : '?';
        }
        name[n] = '\0';
        at += snprintf(out + at, len - (size_t)at, " '%s'", name);
    }
    for (int p = 0; p < NB_SECTION_PARAMS && (size_t)at < len; p++) {
        if (k && k->params[p])
            at += snprintf(out + at, len - (size_t)at, " %s=%u", k->params[p],
                           (unsigned)in->param[p]);
        else if (!k && in->param[p])
            at += snprintf(out + at, len - (size_t)at, " p%d=%u", p, (unsigned)in->param[p]);
    }
    if ((size_t)at < len)
        snprintf(out + at, len - (size_t)at, ")");
}

nb_status nbi_table_order_check(const nb_bundle *b, size_t i, nb_err *err)
{
    if (i == 0)
        return NB_OK;
    int c = nbi_section_key_cmp(&b->sections[i - 1].info, &b->sections[i].info);
    if (c < 0)
        return NB_OK;
    char before[200], here[200];
    describe(b, i - 1, before, sizeof before);
    describe(b, i, here, sizeof here);
    if (c == 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: %s and %s have the same type, name and parameters: a bundle holds "
                        "one section of each",
                        b->path, before, here);
    return nbi_fail(err, NB_ERR_FORMAT,
                    "%s: %s comes before %s: the section table is sorted by type, name and "
                    "parameters",
                    b->path, before, here);
}
