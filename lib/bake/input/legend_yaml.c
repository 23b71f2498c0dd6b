/* legend_yaml.c: the terrain legend in YAML (formats/legend.md). */
#include <stdio.h>
#include <stdlib.h>

#include "levels.h"

/* The keys that name editors' things, per terrain and for the obstacles. */
static const char *const match_keys[] = {"tiles", "values", "colours"};
static const char *const obstacle_keys[] = {"obstacle_tiles", "obstacle_values",
                                            "obstacle_colours"};

/* A list of names (node) that give code; each kept in ext. */
static nb_status add_matches(nbb_yaml *y, yaml_node_t *node, const char *what, nbb_match_kind kind,
                             uint8_t code, nbb_legend_ext *ext, nb_err *err)
{
    size_t n;
    nb_status st = nbb_yaml_sequence(y, node, what, NBB_MATCH_MAX, &n, err);
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        yaml_node_t *item = nbb_yaml_item(y, node, i);
        const char *text;
        size_t tlen;
        if ((st = nbb_yaml_string(y, item, what, &text, &tlen, err)) != NB_OK)
            break;
        if (tlen == 0 || tlen >= NBB_MATCH_KEY_MAX) {
            st = nbb_yaml_fail(y, item, err, NB_ERR_SYNTAX, "%s: a name of 1 to %d characters",
                               what, NBB_MATCH_KEY_MAX - 1);
            break;
        }
        for (size_t k = 0; k < ext->nmatch; k++)
            if (ext->match[k].kind == kind && strlen(ext->match[k].key) == tlen &&
                memcmp(ext->match[k].key, text, tlen) == 0) {
                st = nbb_yaml_fail(y, item, err, NB_ERR_SYNTAX, "%s: '%.*s' is named twice",
                                   what, (int)tlen, text);
                break;
            }
        if (st != NB_OK)
            break;
        if (ext->nmatch == NBB_MATCH_MAX) {
            st = nbb_yaml_fail(y, item, err, NB_ERR_LIMIT, "%s: more than %d names in the legend",
                               what, NBB_MATCH_MAX);
            break;
        }
        nbb_match *m = nbb_realloc(ext->match, (ext->nmatch + 1) * sizeof *m);
        if (!m) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a legend");
            break;
        }
        ext->match = m;
        m += ext->nmatch++;
        m->kind = kind;
        m->code = code;
        memcpy(m->key, text, tlen);
        m->key[tlen] = '\0';
    }
    return st;
}

/* "heights: [LO, HI]": a band of a heightmap's heights that is code. */
static nb_status add_band(nbb_yaml *y, yaml_node_t *node, const char *what, uint8_t code,
                          nbb_legend_ext *ext, nb_err *err)
{
    size_t n;
    uint64_t lo, hi;
    nb_status st = nbb_yaml_sequence(y, node, what, 2, &n, err);
    if (st == NB_OK && n != 2)
        st = nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: heights: expected [LOW, HIGH]", what);
    if (st == NB_OK &&
        !(st = nbb_yaml_uint(y, nbb_yaml_item(y, node, 0), what, 0, 65535, &lo, err)) &&
        !(st = nbb_yaml_uint(y, nbb_yaml_item(y, node, 1), what, lo, 65535, &hi, err))) {
        for (size_t b = 0; b < ext->nbands; b++)
            if (lo <= ext->band[b].hi && hi >= ext->band[b].lo)
                return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                                     "%s: heights %u to %u overlap another band's %u to %u", what,
                                     (unsigned)lo, (unsigned)hi, ext->band[b].lo, ext->band[b].hi);
        ext->band[ext->nbands++] = (nbb_height_band){(uint32_t)lo, (uint32_t)hi, code};
        ext->heightmap = 1;
    }
    return st;
}

/* The heightmap's top-level keys (formats/image.md). */
static nb_status heightmap_keys(nbb_yaml *y, yaml_node_t *root, nbb_legend_ext *ext, nb_err *err)
{
    yaml_node_t *n;
    uint64_t v;
    nb_status st = NB_OK;
    if ((n = nbb_yaml_get(y, root, "obstacle_heights")))
        st = add_band(y, n, "obstacle_heights", NBI_CELL_OBSTACLE, ext, err);
    if (st == NB_OK && (n = nbb_yaml_get(y, root, "max_step")) &&
        (st = nbb_yaml_uint(y, n, "max_step", 0, 65535, &v, err)) == NB_OK)
        ext->max_step = (uint32_t)v, ext->heightmap = 1;
    if (st == NB_OK && (n = nbb_yaml_get(y, root, "height_bits")) &&
        (st = nbb_yaml_uint(y, n, "height_bits", 8, 16, &v, err)) == NB_OK) {
        if (v != 8 && v != 16)
            return nbb_yaml_fail(y, n, err, NB_ERR_SYNTAX, "height_bits: 8 or 16, not %u",
                                 (unsigned)v);
        ext->height_bits = (unsigned)v, ext->heightmap = 1;
    }
    return st;
}

/* "empty" and "unnamed": a terrain's name or "obstacle". */
static nb_status code_key(nbb_yaml *y, yaml_node_t *root, const char *key, const nbi_legend *legend,
                          int *out, nb_err *err)
{
    yaml_node_t *node = nbb_yaml_get(y, root, key);
    const char *text;
    size_t tlen;
    *out = -1;
    if (!node)
        return NB_OK;
    nb_status st = nbb_yaml_string(y, node, key, &text, &tlen, err);
    if (st != NB_OK)
        return st;
    int t = nbi_legend_find(legend, text, tlen);
    if (t >= 0)
        *out = t;
    else if (tlen == 8 && memcmp(text, "obstacle", 8) == 0)
        *out = NBI_CELL_OBSTACLE;
    else
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                             "%s: '%.*s' is neither a terrain of the legend nor 'obstacle'", key,
                             (int)(tlen > 40 ? 40 : tlen), text);
    return NB_OK;
}

/* Claims each character of chars for code; a character claimed twice, or
 * one that is not printable ASCII, is an error at node. */
static nb_status claim(nbb_yaml *y, const yaml_node_t *node, const char *what, const char *chars,
                       size_t len, uint8_t code, nbi_legend *legend, nb_err *err)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)chars[i];
        if (ch < '!' || ch > '~')
            return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                                 "%s: character 0x%02x is not a printable ASCII character other "
                                 "than space",
                                 what, ch);
        if (legend->code[ch] != NBI_CELL_INVALID)
            return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: character '%c' is already %s",
                                 what, ch,
                                 legend->code[ch] == NBI_CELL_OBSTACLE ? "an obstacle"
                                                                       : legend->names[legend->code[ch]]);
        legend->code[ch] = code;
    }
    return NB_OK;
}

void nbb_legend_ext_free(nbb_legend_ext *ext)
{
    nbb_free(ext->match);
    ext->match = NULL;
    ext->nmatch = 0;
}

nb_status nbb_legend_parse(const char *buf, size_t len, const char *name, nbi_legend *legend,
                           nb_err *err)
{
    nbb_legend_ext ext;
    nb_status st = nbb_legend_parse_ext(buf, len, name, legend, &ext, err);
    nbb_legend_ext_free(&ext);
    return st;
}

nb_status nbb_legend_parse_ext(const char *buf, size_t len, const char *name, nbi_legend *legend,
                               nbb_legend_ext *ext, nb_err *err)
{
    static const char *const top_keys[] = {"terrains", "obstacles", "obstacle_tiles",
                                           "obstacle_values", "obstacle_colours", "empty",
                                           "unnamed", "obstacle_heights", "max_step",
                                           "height_bits", NULL};
    static const char *const terrain_keys[] = {"name", "chars", "tiles", "values", "colours",
                                               "heights", NULL};
    nbb_yaml y;
    memset(ext, 0, sizeof *ext);
    ext->empty = ext->unnamed = -1;
    ext->max_step = UINT32_MAX;
    yaml_node_t *root, *terrains, *obstacles;
    nb_status st = nbb_yaml_load(&y, buf, len, name, NBB_YAML_MAX_NODES, err);
    if (st != NB_OK)
        return st;
    memset(legend, 0, sizeof *legend);
    memset(legend->code, NBI_CELL_INVALID, sizeof legend->code);
    size_t n = 0;
    if ((st = nbb_yaml_root(&y, "a terrain legend with 'terrains' and 'obstacles'", &root, err)) ||
        (st = nbb_yaml_mapping(&y, root, "legend", top_keys, err)) ||
        (st = nbb_yaml_need(&y, root, "terrains", "legend", &terrains, err)) ||
        (st = nbb_yaml_sequence(&y, terrains, "terrains", NB_MAX_TERRAINS, &n, err)))
        goto done;
    if (n == 0) {
        st = nbb_yaml_fail(&y, terrains, err, NB_ERR_SYNTAX, "terrains: the list is empty");
        goto done;
    }
    legend->nterrains = (unsigned)n;
    for (size_t t = 0; t < n; t++) {
        yaml_node_t *item = nbb_yaml_item(&y, terrains, t), *nn, *cn;
        char what[64];
        const char *text;
        size_t tlen;
        snprintf(what, sizeof what, "terrain %zu", t + 1);
        if ((st = nbb_yaml_mapping(&y, item, what, terrain_keys, err)) ||
            (st = nbb_yaml_need(&y, item, "name", what, &nn, err)) ||
            (st = nbb_yaml_need(&y, item, "chars", what, &cn, err)) ||
            (st = nbb_yaml_string(&y, nn, what, &text, &tlen, err)))
            goto done;
        if (tlen > NB_NAME_MAX) {
            st = nbb_yaml_fail(&y, nn, err, NB_ERR_SYNTAX, "%s: name longer than %d characters", what,
                               NB_NAME_MAX);
            goto done;
        }
        memcpy(legend->names[t], text, tlen);
        legend->names[t][tlen] = '\0';
        if (!nbi_name_ok(legend->names[t])) {
            st = nbb_yaml_fail(&y, nn, err, NB_ERR_SYNTAX,
                               "%s: name '%s' must be letters, digits, '_' or '-'", what,
                               legend->names[t]);
            goto done;
        }
        if (nbi_legend_find(legend, text, tlen) != (int)t) {
            st = nbb_yaml_fail(&y, nn, err, NB_ERR_SYNTAX, "%s: name '%s' is already used", what,
                               legend->names[t]);
            goto done;
        }
        if ((st = nbb_yaml_string(&y, cn, what, &text, &tlen, err)))
            goto done;
        if (tlen == 0) {
            st = nbb_yaml_fail(&y, cn, err, NB_ERR_SYNTAX, "%s: chars is empty", what);
            goto done;
        }
        if ((st = claim(&y, cn, what, text, tlen, (uint8_t)t, legend, err)))
            goto done;
        for (int k = 0; k < 3; k++) {
            yaml_node_t *mn = nbb_yaml_get(&y, item, match_keys[k]);
            if (mn && (st = add_matches(&y, mn, what, (nbb_match_kind)k, (uint8_t)t, ext, err)))
                goto done;
        }
        yaml_node_t *hn = nbb_yaml_get(&y, item, "heights");
        if (hn && (st = add_band(&y, hn, what, (uint8_t)t, ext, err)))
            goto done;
    }
    if ((st = heightmap_keys(&y, root, ext, err)))
        goto done;
    for (int k = 0; k < 3; k++) {
        yaml_node_t *mn = nbb_yaml_get(&y, root, obstacle_keys[k]);
        if (mn && (st = add_matches(&y, mn, obstacle_keys[k], (nbb_match_kind)k, NBI_CELL_OBSTACLE,
                                    ext, err)))
            goto done;
    }
    if ((st = code_key(&y, root, "empty", legend, &ext->empty, err)) ||
        (st = code_key(&y, root, "unnamed", legend, &ext->unnamed, err)))
        goto done;
    obstacles = nbb_yaml_get(&y, root, "obstacles");
    if (obstacles) {
        const char *text;
        size_t tlen;
        if ((st = nbb_yaml_string(&y, obstacles, "obstacles", &text, &tlen, err)) ||
            (st = claim(&y, obstacles, "obstacles", text, tlen, NBI_CELL_OBSTACLE, legend, err)))
            goto done;
    }
    nbi_legend_derive_chars(legend);
done:
    nbb_yaml_free(&y);
    if (st != NB_OK)
        nbb_legend_ext_free(ext);
    return st;
}

nb_status nbb_legend_read_ext(const char *path, nbi_legend *legend, nbb_legend_ext *ext,
                              nb_err *err)
{
    char *buf;
    size_t len;
    memset(ext, 0, sizeof *ext);
    ext->empty = ext->unnamed = -1;
    ext->max_step = UINT32_MAX;
    nb_status st = nbb_read_file(path, NBB_YAML_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_legend_parse_ext(buf, len, nbb_input_name(path), legend, ext, err);
    nbb_free(buf);
    return st;
}

nb_status nbb_legend_read(const char *path, nbi_legend *legend, nb_err *err)
{
    nbb_legend_ext ext;
    nb_status st = nbb_legend_read_ext(path, legend, &ext, err);
    nbb_legend_ext_free(&ext);
    return st;
}

/* Characters are written in double quotes, escaping the two that need it. */
static void print_chars(FILE *f, const char *chars)
{
    fputc('"', f);
    for (; *chars; chars++) {
        if (*chars == '"' || *chars == '\\')
            fputc('\\', f);
        fputc(*chars, f);
    }
    fputc('"', f);
}

void nbb_legend_print(const nbi_legend *legend, FILE *f)
{

    fputs("terrains:\n", f);
    for (unsigned t = 0; t < legend->nterrains; t++) {
        fprintf(f, "  - name: %s\n    chars: ", legend->names[t]);
        print_chars(f, legend->chars[t]);
        fputc('\n', f);
    }
    fputs("obstacles: ", f);
    print_chars(f, legend->obstacles);
    fputc('\n', f);
}
