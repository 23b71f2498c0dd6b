/* level_names.c: what an editor's name (a tile's class, an IntGrid value's
 * identifier, a colour) means in the legend, and the map character of a
 * terrain (formats/legend.md, "Levels from editors"). */
#include <stdlib.h>

#include "levels.h"

int nbb_legend_name_code(const nbi_legend *legend, const nbb_legend_ext *ext, nbb_match_kind kind,
                         const char *name)
{
    if (!name)
        return -1;
    for (size_t k = 0; ext && k < ext->nmatch; k++)
        if (ext->match[k].kind == kind && strcmp(ext->match[k].key, name) == 0)
            return ext->match[k].code;
    int t = nbi_legend_find(legend, name, strlen(name));
    if (t >= 0)
        return t;
    return strcmp(name, "obstacle") == 0 ? (int)NBI_CELL_OBSTACLE : -1;
}

nb_status nbb_legend_cell_char(nbi_legend *legend, int code, uint8_t *out, nb_err *err)
{
    const char *chars = code == NBI_CELL_OBSTACLE ? legend->obstacles : legend->chars[code];
    if (!chars[0] && code == NBI_CELL_OBSTACLE) {
        /* A legend of terrains alone: the obstacles need a character. */
        unsigned c = '@';
        if (legend->code[c] != NBI_CELL_INVALID)
            for (c = '!'; c <= '~' && legend->code[c] != NBI_CELL_INVALID; c++)
                ;
        if (c > '~')
            return nbi_fail(err, NB_ERR_LIMIT,
                            "the legend uses every character: none is left for the obstacles");
        legend->code[c] = NBI_CELL_OBSTACLE;
        nbi_legend_derive_chars(legend);
    }
    *out = (uint8_t)chars[0];
    return NB_OK;
}
