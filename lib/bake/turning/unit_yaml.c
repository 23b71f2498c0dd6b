/* unit_yaml.c: a unit definition in YAML (formats/hitcheck.md). */
#include <stdio.h>
#include <stdlib.h>

#include "turning/turning_build.h"

nb_status nbb_unit_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                         nb_unit *u, nb_err *err)
{
    static const char *const keys[] = {"name",    "radius",          "width",      "headings",
                                       "neighbourhood", "reverse", "reverse_penalty",
                                       "capability", NULL};
    nbb_yaml y;
    yaml_node_t *root, *node;
    const char *text;
    size_t tlen;
    uint64_t v;
    memset(u, 0, sizeof *u);
    nb_status st = nbb_yaml_load(&y, buf, len, name, NBB_YAML_MAX_NODES, err);
    if (st != NB_OK)
        return st;
    if ((st = nbb_yaml_root(&y, "a unit with 'name', 'radius' and 'width'", &root, err)) ||
        (st = nbb_yaml_mapping(&y, root, "unit", keys, err)) ||
        (st = nbb_yaml_need(&y, root, "name", "unit", &node, err)) ||
        (st = nbb_yaml_string(&y, node, "unit name", &text, &tlen, err)))
        goto done;
    if (tlen > NB_NAME_MAX || (memcpy(u->name, text, tlen), u->name[tlen] = '\0', !nbi_name_ok(u->name))) {
        st = nbb_yaml_fail(&y, node, err, NB_ERR_SYNTAX,
                           "unit name '%.*s' must be 1 to %d letters, digits, '_' or '-'",
                           (int)(tlen > 40 ? 40 : tlen), text, NB_NAME_MAX);
        goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "unit '%s'", u->name);
    if ((st = nbb_yaml_need(&y, root, "radius", what, &node, err)) ||
        (st = nbb_yaml_real(&y, node, "radius (turning radius, cells)", 1.0 / 64,
                            NBI_UNIT_MAX_RADIUS, &u->radius, err)) ||
        (st = nbb_yaml_need(&y, root, "width", what, &node, err)) ||
        (st = nbb_yaml_real(&y, node, "width (cells)", 1.0 / 64, NBI_UNIT_MAX_WIDTH, &u->width,
                            err)))
        goto done;
    u->headings = 8;
    if ((node = nbb_yaml_get(&y, root, "headings"))) {
        if ((st = nbb_yaml_uint(&y, node, "headings", 1, 1024, &v, err)))
            goto done;
        if (v != 8 && v != 16) {
            st = nbb_yaml_fail(&y, node, err, NB_ERR_SYNTAX, "headings must be 8 or 16, not %u",
                               (unsigned)v);
            goto done;
        }
        u->headings = (unsigned)v;
    }
    u->neighbourhood = 24;
    if ((node = nbb_yaml_get(&y, root, "neighbourhood"))) {
        if ((st = nbb_yaml_uint(&y, node, "neighbourhood", 1, 1024, &v, err)))
            goto done;
        if (v != 8 && v != 24 && v != 48) {
            st = nbb_yaml_fail(&y, node, err, NB_ERR_SYNTAX,
                               "neighbourhood must be 8, 24 or 48, not %u", (unsigned)v);
            goto done;
        }
        u->neighbourhood = (unsigned)v;
    }
    if ((node = nbb_yaml_get(&y, root, "reverse")) &&
        (st = nbb_yaml_bool(&y, node, "reverse", &u->reverse, err)))
        goto done;
    u->reverse_penalty = u->reverse ? 2.0 : 1.0;
    if ((node = nbb_yaml_get(&y, root, "reverse_penalty"))) {
        if (!u->reverse) {
            st = nbb_yaml_fail(&y, node, err, NB_ERR_SYNTAX,
                               "reverse_penalty is given but the unit may not reverse "
                               "(add 'reverse: true')");
            goto done;
        }
        if ((st = nbb_yaml_real(&y, node, "reverse_penalty", 1, 1000, &u->reverse_penalty, err)))
            goto done;
    }
    if ((node = nbb_yaml_get(&y, root, "capability")) &&
        (st = nbb_yaml_capability(&y, node, what, legend, &u->capability, err)))
        goto done;
done:
    nbb_yaml_free(&y);
    return st;
}

/* The legend a unit's terrain names refer to: the bundle's, or the default. */
static const nbi_legend *legend_of(const nb_bundle *b, nbi_legend *def)
{
    if (b && b->has_legend)
        return &b->legend;
    nbi_legend_default(def);
    return def;
}

nb_status nbb_unit_read(const char *path, const nb_bundle *legend_from, nb_unit *u, nb_err *err)
{
    nbi_legend def;
    const nbi_legend *legend = legend_of(legend_from, &def);
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(path, NBB_YAML_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_unit_parse(buf, len, nbb_input_name(path), legend, u, err);
    nbb_free(buf);
    return st;
}

void nbb_unit_print(const nb_unit *u, const nb_bundle *legend_from, FILE *f)
{
    nbi_legend def;
    const nbi_legend *legend = legend_of(legend_from, &def);
    fprintf(f, "name: %s\nradius: %.17g\nwidth: %.17g\nheadings: %u\nneighbourhood: %u\n", u->name,
            u->radius, u->width, u->headings, u->neighbourhood);
    if (u->capability) {
        const char *sep = "";
        fputs("capability: [", f);
        for (unsigned t = 0; t < legend->nterrains; t++)
            if (u->capability >> t & 1) {
                fprintf(f, "%s%s", sep, legend->names[t]);
                sep = ", ";
            }
        fputs("]\n", f);
    }
    if (u->reverse)
        fprintf(f, "reverse: true\nreverse_penalty: %.17g\n", u->reverse_penalty);
}

double nbb_heading_angle(unsigned k, unsigned n) { return nbi_heading(k, n); }
