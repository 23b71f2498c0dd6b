/* test_nosqlite.c: the runtime built without SQLite (configure
 * --disable-sqlite-runtime), linked here with the stub in place of the
 * reader whatever configure chose: an SQLite bundle is recognised and
 * refused with NB_ERR_UNSUPPORTED and a message that says what to do, and
 * binary bundles open as ever. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

int main(void)
{
    nbi_legend legend;
    static nbi_agentset agents;
    nbb_grid grid;
    nb_err err;
    const char *dir = tu_tmpdir();
    tu_read_sample(&legend, &agents, &grid);
    const char *db = tu_path(dir, "level.sqlite"), *bin = tu_path(dir, "level.nbk");
    ok(tu_write_level(db, &legend, &agents, &grid, 0, &err) == NB_OK,
       "the tools' writer still writes an SQLite bundle");
    ok(tu_write_level(bin, &legend, &agents, &grid, 0, &err) == NB_OK, "and a binary one");
    is_int(nb_sqlite_supported(), 0, "nb_sqlite_supported says no");

    nb_bundle *b = NULL;
    nb_status st = nb_bundle_open(db, 0, NULL, &b, &err);
    is_int(st, NB_ERR_UNSUPPORTED, "an SQLite bundle: NB_ERR_UNSUPPORTED");
    like(err.msg, "level.sqlite: an SQLite bundle; this build of libnavbake reads binary bundles only",
         "the message names the file and what it is");
    like(err.msg, "navbake convert", "and says how to get a binary one");
    ok(b == NULL, "no bundle is returned");

    size_t len;
    char *bytes = tu_read(db, &len);
    st = nb_bundle_open_memory(bytes, len, 0, NULL, &b, &err);
    is_int(st, NB_ERR_UNSUPPORTED, "the same from memory");
    free(bytes);

    st = nb_bundle_open(bin, NB_OPEN_VERIFY, NULL, &b, &err);
    ok(st == NB_OK && nb_map_width(b) == grid.width && nb_bundle_form_of(b) == NB_FORM_BINARY,
       "a binary bundle opens as ever");
    nb_bundle_close(b);
    nbb_grid_free(&grid);
    return done_testing();
}
