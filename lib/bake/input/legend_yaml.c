/* legend_yaml.c: the terrain legend in YAML (formats/legend.md). */
#include <stdio.h>
#include <stdlib.h>

#include "bake_int.h"

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

nb_status nbb_legend_parse(const char *buf, size_t len, const char *name, nbi_legend *legend,
                           nb_err *err)
{
    static const char *const top_keys[] = {"terrains", "obstacles", NULL};
    static const char *const terrain_keys[] = {"name", "chars", NULL};
    nbb_yaml y;
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
    }
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
    return st;
}

nb_status nbb_legend_read(const char *path, nbi_legend *legend, nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(path, NBB_YAML_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_legend_parse(buf, len, nbb_input_name(path), legend, err);
    free(buf);
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
