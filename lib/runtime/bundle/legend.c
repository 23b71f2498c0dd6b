/* legend.c: terrains, the map characters of each, and capabilities (sets
 * of terrains).  The YAML reader is in legend_yaml.c. */
#include <stdio.h>
#include <string.h>

#include "bundle/bundle.h"

int nbi_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > NB_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

void nbi_legend_derive_chars(nbi_legend *legend)
{
    size_t len[NB_MAX_TERRAINS] = {0}, nobs = 0;
    for (unsigned c = '!'; c <= '~'; c++) {
        uint8_t code = legend->code[c];
        if (code == NBI_CELL_OBSTACLE)
            legend->obstacles[nobs++] = (char)c;
        else if (code < legend->nterrains)
            legend->chars[code][len[code]++] = (char)c;
    }
    legend->obstacles[nobs] = '\0';
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        legend->chars[t][len[t]] = '\0';
}

void nbi_legend_default(nbi_legend *legend)
{
    static const struct { const char *name, *chars; } terrains[] = {
        {"ground", ".G"}, {"swamp", "S"}, {"water", "W"}, {"trees", "T"}};
    memset(legend, 0, sizeof *legend);
    memset(legend->code, NBI_CELL_INVALID, sizeof legend->code);
    legend->nterrains = 4;
    for (unsigned t = 0; t < 4; t++) {
        strcpy(legend->names[t], terrains[t].name);
        for (const char *c = terrains[t].chars; *c; c++)
            legend->code[(unsigned char)*c] = (uint8_t)t;
    }
    legend->code['@'] = NBI_CELL_OBSTACLE;
    legend->code['O'] = NBI_CELL_OBSTACLE;
    nbi_legend_derive_chars(legend);
}

int nbi_legend_find(const nbi_legend *legend, const char *name, size_t len)
{
    for (unsigned t = 0; t < legend->nterrains; t++)
        if (strlen(legend->names[t]) == len && memcmp(legend->names[t], name, len) == 0)
            return (int)t;
    return -1;
}

/* Section layout, version 1: u32 terrain count, u32 zero, a 32-byte
 * NUL-padded name per terrain, then 256 bytes: the code of each character. */
size_t nbi_legend_encoded_size(const nbi_legend *legend)
{
    return NBI_LEGEND_HEADER + (size_t)legend->nterrains * NBI_LEGEND_NAME + NBI_LEGEND_CODES;
}

void nbi_legend_encode(const nbi_legend *legend, uint8_t *out)
{
    memset(out, 0, nbi_legend_encoded_size(legend));
    nbi_put32(out + NBI_LEGEND_COUNT, legend->nterrains);
    for (unsigned t = 0; t < legend->nterrains; t++)
        memcpy(out + NBI_LEGEND_HEADER + NBI_LEGEND_NAME * t, legend->names[t], strlen(legend->names[t]));
    memcpy(out + NBI_LEGEND_HEADER + NBI_LEGEND_NAME * legend->nterrains, legend->code,
           NBI_LEGEND_CODES);
}

nb_status nbi_legend_decode(const uint8_t *p, size_t len, nbi_legend *legend, nb_err *err)
{
    memset(legend, 0, sizeof *legend);
    if (len < NBI_LEGEND_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT, "legend section: %zu bytes, expected at least 8", len);
    uint32_t n = nbi_get32(p + NBI_LEGEND_COUNT);
    if (n == 0 || n > NB_MAX_TERRAINS)
        return nbi_fail(err, NB_ERR_FORMAT, "legend section: %u terrains, expected 1 to %d", n,
                        NB_MAX_TERRAINS);
    if (len != NBI_LEGEND_HEADER + (size_t)n * NBI_LEGEND_NAME + NBI_LEGEND_CODES)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "legend section: %zu bytes, expected %zu for %u terrains", len,
                        NBI_LEGEND_HEADER + (size_t)n * NBI_LEGEND_NAME + NBI_LEGEND_CODES, n);
    legend->nterrains = n;
    for (unsigned t = 0; t < n; t++) {
        const uint8_t *name = p + NBI_LEGEND_HEADER + NBI_LEGEND_NAME * t;
        if (memchr(name, 0, NBI_LEGEND_NAME) == NULL)
            return nbi_fail(err, NB_ERR_FORMAT, "legend section: name of terrain %u is not terminated", t);
        memcpy(legend->names[t], name, NBI_LEGEND_NAME);
        if (!nbi_name_ok(legend->names[t]))
            return nbi_fail(err, NB_ERR_FORMAT, "legend section: terrain %u has an invalid name", t);
        if (nbi_legend_find(legend, legend->names[t], strlen(legend->names[t])) != (int)t)
            return nbi_fail(err, NB_ERR_FORMAT, "legend section: terrain name '%s' appears twice",
                            legend->names[t]);
    }
    memcpy(legend->code, p + NBI_LEGEND_HEADER + NBI_LEGEND_NAME * n, NBI_LEGEND_CODES);
    for (unsigned c = 0; c < NBI_LEGEND_CODES; c++) {
        uint8_t code = legend->code[c];
        int printable = c >= '!' && c <= '~';
        if (!printable && code != NBI_CELL_INVALID)
            return nbi_fail(err, NB_ERR_FORMAT, "legend section: non-printable character %u is mapped", c);
        if (code != NBI_CELL_INVALID && code != NBI_CELL_OBSTACLE && code >= n)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "legend section: character '%c' maps to terrain %u of %u", (char)c, code, n);
    }
    nbi_legend_derive_chars(legend);
    for (unsigned t = 0; t < n; t++)
        if (legend->chars[t][0] == '\0')
            return nbi_fail(err, NB_ERR_FORMAT, "legend section: terrain '%s' has no character",
                            legend->names[t]);
    return NB_OK;
}

nb_status nbi_capability_parse(const nbi_legend *legend, const char *list, nb_capability *out,
                               nb_err *err)
{
    nb_capability cap = 0;
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        while (n > 0 && (*p == ' ' || *p == '\t'))
            p++, n--;
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        int t = nbi_legend_find(legend, p, n);
        if (t < 0) {
            char known[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nbi_capability_format(legend, ((nb_capability)1 << (legend->nterrains - 1) << 1) - 1,
                                  known, sizeof known);
            return nbi_fail(err, NB_ERR_NOTFOUND,
                            "capability '%s': unknown terrain '%.*s' (terrains: %s)", list,
                            (int)n, p, known);
        }
        cap |= (nb_capability)1 << t;
        if (!end)
            break;
        p = end + 1;
    }
    *out = cap;
    return NB_OK;
}

size_t nbi_capability_format(const nbi_legend *legend, nb_capability cap, char *buf, size_t len)
{
    size_t need = 0;
    if (len)
        buf[0] = '\0';
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++) {
        if (!(cap & ((nb_capability)1 << t)))
            continue;
        char one[NB_NAME_MAX + 8];
        if (t < legend->nterrains)
            snprintf(one, sizeof one, "%s%s", need ? "," : "", legend->names[t]);
        else
            snprintf(one, sizeof one, "%s#%u", need ? "," : "", t);
        size_t n = strlen(one);
        if (need + n < len)
            memcpy(buf + need, one, n + 1);
        else if (len)
            buf[need < len ? need : len - 1] = '\0';
        need += n;
    }
    return need;
}
