/* dump_unit.c: 'navbake dump BUNDLE unit': a unit as the YAML that
 * mkhitcheck reads, so a bundle's unit can be baked again elsewhere. */
#include "cli.h"
#include "commands.h"

int nbc_dump_unit(const nb_bundle *b, size_t index)
{
    const nb_section_info *in = nb_bundle_section_get(b, index);
    nb_unit u;
    nb_err err;
    size_t k;
    if (nb_unit_lookup(b, in->name, &k, &err) != NB_OK || nb_unit_get(b, k, &u, &err) != NB_OK)
        return nbc_fail_err(&err);
    nbb_unit_print(&u, b, stdout);
    return NBC_EXIT_OK;
}
