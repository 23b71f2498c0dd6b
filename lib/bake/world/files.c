/* files.c: a world's folder: its tiles/ and strips/ folders made when
 * missing, and files written only when their bytes change (so that a
 * build graph sees only what changed), each atomically. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bake_int.h"

/* Makes the folder path unless it is one already. */
static nb_status folder(const char *path, nb_err *err)
{
    struct stat sb;
    if (mkdir(path, 0777) == 0 || (errno == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)))
        return NB_OK;
    if (errno == EEXIST)
        return nbi_fail(err, NB_ERR_IO, "%s: exists and is not a folder", path);
    return nbi_fail_errno(err, "cannot make the folder", path);
}

nb_status nbb_world_join(const char *dir, const char *name, char **out, nb_err *err)
{
    size_t dl = strlen(dir), nl = strlen(name);
    int slash = dl > 0 && dir[dl - 1] != '/';
    if (!(*out = nbb_malloc(dl + slash + nl + 1)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    memcpy(*out, dir, dl);
    if (slash)
        (*out)[dl] = '/';
    memcpy(*out + dl + slash, name, nl + 1);
    return NB_OK;
}

nb_status nbb_world_subfolder(const char *dir, const char *sub, nb_err *err)
{
    char *path;
    nb_status st = folder(dir, err);
    if (st == NB_OK && (st = nbb_world_join(dir, sub, &path, err)) == NB_OK) {
        st = folder(path, err);
        nbb_free(path);
    }
    return st;
}

nb_status nbb_world_folders(const char *dir, nb_err *err)
{
    return nbb_world_subfolder(dir, "tiles", err);
}

nb_status nbb_world_put(const char *dir, const char *name, const void *buf, size_t len,
                        nbb_world_file_fn fn, void *arg, size_t *written, nb_err *err)
{
    char *path;
    int changed = 0;
    nb_status st = nbb_world_join(dir, name, &path, err);
    if (st == NB_OK)
        st = nbb_write_changed(path, buf, len, &changed, err);
    if (st == NB_OK) {
        if (written)
            *written += (size_t)changed;
        if (fn)
            fn(arg, path, changed);
    }
    nbb_free(path);
    return st;
}
