/* navbake_unit.c: 'navbake dump BUNDLE unit': a unit as the YAML that
 * mkhitcheck reads, so a bundle's unit can be baked again elsewhere. */
#include "cli.h"
#include "commands.h"
#include "turning/turning_build.h"

int nbc_dump_unit(const nb_bundle *b, size_t index)
{
    const nb_section_info *in = nb_bundle_section(b, index);
    nb_unit u;
    nb_err err;
    if (nb_unit_find(b, in->name, &u, &err) != NB_OK)
        return nbc_fail_err(&err);
    nbi_legend legend;
    if (b->has_legend)
        legend = b->legend;
    else
        nbi_legend_default(&legend);
    nbb_unit_print(&u, &legend, stdout);
    return NBC_EXIT_OK;
}
