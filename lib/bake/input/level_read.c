/* level_read.c: the inputs every level-baking tool reads the same way. */
#include "bake.h"

nb_status nbb_read_level(const char *legend_path, const char *agents_path, const char *map_path,
                         nbi_legend *legend, nbi_agentset *agents, nbb_grid *grid, nb_err *err)
{
    nb_status st = legend_path ? nbb_legend_read(legend_path, legend, err)
                               : (nbi_legend_default(legend), NB_OK);
    if (st == NB_OK)
        st = agents_path ? nbb_agents_read(agents_path, legend, agents, err)
                         : nbb_agents_default(legend, agents, err);
    if (st == NB_OK && map_path)
        st = nbb_map_read(map_path, legend, grid, err);
    return st;
}
