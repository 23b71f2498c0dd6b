/* sqlite_none.c: the runtime built without SQLite (configure
 * --disable-sqlite-runtime).  It still recognises an SQLite bundle, by
 * SQLite's header, so that the message says what the file is and how to
 * get a form this library reads. */
#include "bundle/bundle.h"

int nb_sqlite_supported(void) { return 0; }

nb_status nbi_sqlite_load(nb_bundle *b, unsigned flags, nb_err *err)
{
    (void)flags;
    return nbi_fail(err, NB_ERR_UNSUPPORTED,
                    "%s: an SQLite bundle; this build of libnavbake reads binary bundles only "
                    "(configured with --disable-sqlite-runtime): convert it with 'navbake convert "
                    "%s OUT.nbk'",
                    b->path, b->path);
}
