/* test_open_private.c: nb_bundle_open with NB_OPEN_PRIVATE.  It gives
 * exactly what the mapped open gives (the header, every table entry, every
 * payload byte, the answers of clearance, reachability, Annotated A* and
 * HAA* queries), for the binary form plain and compressed and for the
 * SQLite form; and it keeps giving them when the file is overwritten in
 * place with other bytes of the same size (as dd conv=notrunc would) or
 * truncated, which a mapped bundle sees (its verify fails) and which makes
 * its queries undefined.  Unknown flags are still refused. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "testutil.h"

/* FNV-1a, over everything a bundle answers. */
typedef struct digest {
    uint64_t h;
    unsigned long n;     /* answers folded in */
    unsigned long found; /* paths found, by either search */
} digest;

static void fold(digest *d, const void *p, size_t len)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < len; i++)
        d->h = (d->h ^ b[i]) * 0x100000001b3ull;
}

static void fold_long(digest *d, long long v)
{
    fold(d, &v, sizeof v);
    d->n++;
}

static const char *const caps[] = {"ground", "ground,swamp", "ground,swamp,water",
                                   "ground,swamp,trees"};
#define NCAPS (sizeof caps / sizeof caps[0])

/* Every answer the bundle gives: its table and payloads, then the queries
 * (fixed pseudo-random cells, so that two bundles get the same ones). */
static digest answers(const nb_bundle *b)
{
    digest d = {0xcbf29ce484222325ull, 0, 0};
    nb_err err;
    unsigned major, minor;
    nb_bundle_format_version(b, &major, &minor);
    fold_long(&d, major * 1000L + minor);
    fold_long(&d, (long long)nb_bundle_file_size(b));
    fold_long(&d, nb_bundle_form_of(b));
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const nb_section_info *s = nb_bundle_section_get(b, i);
        fold(&d, s, sizeof *s);
        const void *data;
        size_t len;
        fold_long(&d, nb_bundle_payload(b, i, &data, &len, &err));
        fold(&d, data, len);
    }
    long w = (long)nb_map_width(b), h = (long)nb_map_height(b);
    nb_capability cap[NCAPS];
    for (size_t c = 0; c < NCAPS; c++) {
        fold_long(&d, nb_capability_parse(b, caps[c], &cap[c], &err));
        for (long y = 0; y < h; y++)
            for (long x = 0; x < w; x++)
                fold_long(&d, nb_clearance(b, cap[c], x, y) * 16 + nb_map_char(b, x, y));
    }
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    fold_long(&d, nb_aa_open(b, &aa, &err));
    fold_long(&d, nb_haa_open(b, &haa, &err));
    tu_rng r = {7};
    for (int i = 0; i < 300 && aa && haa; i++) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.start = (nb_cell){(int32_t)tu_below(&r, (uint32_t)w), (int32_t)tu_below(&r, (uint32_t)h)};
        q.goal = (nb_cell){(int32_t)tu_below(&r, (uint32_t)w), (int32_t)tu_below(&r, (uint32_t)h)};
        q.capability = cap[1 + tu_below(&r, NCAPS - 1)];
        q.size = 1 + tu_below(&r, 2);
        fold_long(&d, nb_reachable(b, q.capability, q.size, q.start, q.goal));
        nb_aa_result ar;
        fold_long(&d, nb_aa_find(aa, &q, &ar, &err));
        fold_long(&d, ar.status);
        d.found += ar.status == NB_PATH_FOUND;
        fold_long(&d, (long long)(ar.length * 1e6));
        fold(&d, ar.path, ar.path_len * sizeof *ar.path);
        nb_haa_result hr;
        fold_long(&d, tu_haa_find(haa, &q, i % 2 ? NB_HAA_SMOOTH : 0, &hr, &err));
        fold_long(&d, hr.status);
        d.found += hr.status == NB_PATH_FOUND;
        fold_long(&d, (long long)(hr.length * 1e6));
        fold(&d, hr.path, hr.path_len * sizeof *hr.path);
    }
    nb_haa_close(haa);
    nb_aa_close(aa);
    return d;
}

/* Writes len bytes over the file from its start, in place: no truncation,
 * no new file, the same inode (what dd conv=notrunc does). */
static int overwrite(const char *path, const uint8_t *bytes, size_t len)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    size_t at = 0;
    while (at < len) {
        ssize_t k = write(fd, bytes + at, len - at);
        if (k <= 0)
            break;
        at += (size_t)k;
    }
    return close(fd) == 0 && at == len ? 0 : -1;
}

/* The bundle at path (a binary or SQLite bundle of the sample level with
 * mkabstract's graph), opened both ways: the same answers; then the file
 * overwritten in place, then truncated, under the private one. */
static void check_form(const char *what, const char *path)
{
    nb_err err;
    nb_bundle *mapped = NULL, *priv = NULL;
    if (!ok(nb_bundle_open(path, 0, NULL, &mapped, &err) == NB_OK, "%s: opens mapped", what))
        diag("%s", err.msg);
    err.code = NB_ERR_IO;
    snprintf(err.msg, sizeof err.msg, "stale");
    if (!ok(nb_bundle_open(path, NB_OPEN_PRIVATE, NULL, &priv, &err) == NB_OK,
            "%s: opens private", what)) {
        diag("%s", err.msg);
        nb_bundle_close(mapped);
        return;
    }
    ok(err.code == NB_OK && err.msg[0] == '\0', "%s: and clears err", what);
    digest dm = answers(mapped), dp = answers(priv);
    ok(dm.n > 10000 && dm.found > 200, "%s: %lu answers compared, %lu of them paths found", what,
       dm.n, dm.found);
    ok(dm.n == dp.n && dm.h == dp.h, "%s: the private open answers exactly as the mapped one",
       what);

    /* Other bytes of the same size, written into the file in place: every
     * byte inverted, so that no header, table or section check holds. */
    size_t len;
    uint8_t *bytes = (uint8_t *)tu_read(path, &len);
    for (size_t i = 0; i < len; i++)
        bytes[i] = (uint8_t)~bytes[i];
    ok(overwrite(path, bytes, len) == 0, "%s: overwritten in place", what);
    free(bytes);
    digest after = answers(priv);
    ok(after.n == dp.n && after.h == dp.h, "%s: the private bundle answers as before", what);
    is_int(nb_bundle_verify(priv, &err), NB_OK, "%s: and still verifies whole", what);
    if (nb_bundle_form_of(mapped) == NB_FORM_BINARY)
        ok(nb_bundle_verify(mapped, &err) != NB_OK,
           "%s: while the mapped one sees the change (so the test reaches it)", what);
    else
        ok(1, "%s: (an SQLite bundle is read into memory either way)", what);
    nb_bundle_close(mapped); /* before the truncation: its pages would be gone */

    ok(truncate(path, 0) == 0, "%s: truncated", what);
    after = answers(priv);
    ok(after.n == dp.n && after.h == dp.h, "%s: the private bundle answers as before", what);
    nb_bundle_close(priv);
}

/* A bundle that is not whole is refused the same way by both opens. */
static void check_refusals(const char *dir, const char *good)
{
    nb_err err;
    nb_bundle *b;
    size_t len;
    char *bytes = tu_read(good, &len);
    const char *cut = tu_path(dir, "cut.nbk"), *empty = tu_path(dir, "empty.nbk");
    tu_write(cut, bytes, len - 64);
    tu_write(empty, "", 0);
    free(bytes);
    const char *files[] = {cut, empty, dir};
    const char *names[] = {"a truncated bundle", "an empty file", "a directory"};
    for (int i = 0; i < 3; i++) {
        nb_status m = nb_bundle_open(files[i], 0, NULL, &b, &err);
        char mapped_msg[sizeof err.msg];
        snprintf(mapped_msg, sizeof mapped_msg, "%s", err.msg);
        nb_status p = nb_bundle_open(files[i], NB_OPEN_PRIVATE, NULL, &b, &err);
        ok(m != NB_OK && p == m && b == NULL, "%s: refused alike (%s)", names[i], nb_status_str(p));
        is_str(err.msg, mapped_msg, "%s: with the same message", names[i]);
    }
    is_int(nb_bundle_open(good, 0x4, NULL, &b, &err), NB_ERR_ARG, "an unknown flag is refused");
    like(err.msg, "unknown flags 0x4", "and named");
    is_int(nb_bundle_open(good, NB_OPEN_PRIVATE | NB_OPEN_VERIFY, NULL, &b, &err), NB_OK,
           "NB_OPEN_PRIVATE | NB_OPEN_VERIFY");
    nb_bundle_close(b);
    bytes = tu_read(good, &len);
    is_int(nb_bundle_open_memory(bytes, len, NB_OPEN_PRIVATE, NULL, &b, &err), NB_OK,
           "nb_bundle_open_memory takes NB_OPEN_PRIVATE (it copies anyway)");
    nb_bundle_close(b);
    free(bytes);
}

/* An allocator that counts what it serves. */
static size_t served;
static void *count_alloc(void *opaque, size_t n)
{
    (void)opaque;
    served += n;
    return malloc(n);
}
static void *count_realloc(void *opaque, void *p, size_t n)
{
    (void)opaque;
    served += n;
    return realloc(p, n);
}
static void count_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

static void check_allocator(const char *path)
{
    nb_allocator a = {count_alloc, count_realloc, count_free, NULL};
    nb_bundle *b;
    nb_err err;
    size_t len;
    free(tu_read(path, &len));
    served = 0;
    nb_bundle_open(path, 0, &a, &b, &err);
    size_t mapped = served;
    nb_bundle_close(b);
    served = 0;
    nb_bundle_open(path, NB_OPEN_PRIVATE, &a, &b, &err);
    nb_bundle_close(b);
    ok(mapped < len && served >= mapped + len,
       "the private copy comes from the bundle's allocator (%zu bytes, mapped %zu, file %zu)", served,
       mapped, len);
}

int main(void)
{
    const char *dir = tu_tmpdir();
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid grid;
    nb_err err;
    tu_read_sample(&legend, &agents, &grid);
    const char *forms[] = {"plain", "zlib", "sqlite"};
    for (int f = 0; f < 3; f++) {
        const char *path = tu_path(dir, f == 2 ? "s.sqlite" : f ? "z.nbk" : "s.nbk");
        const char *tmp = tu_path(dir, "a.nbk");
        nb_bundle *b = NULL;
        nb_status st = tu_write_cleared(tmp, &legend, &agents, &grid, f == 1, &err);
        if (st == NB_OK)
            st = nb_bundle_open(tmp, 0, NULL, &b, &err);
        if (st == NB_OK)
            st = tu_add_abstract(&b, f == 2 ? tmp : path, 8, &err);
        if (st == NB_OK && f == 2)
            st = nbb_sqlite_write(b, path, &err);
        nb_bundle_close(b);
        if (!ok(st == NB_OK, "%s: the sample level with its graph", forms[f])) {
            diag("%s", err.msg);
            continue;
        }
        if (f == 0) {
            check_refusals(dir, path);
            check_allocator(path);
        }
        check_form(forms[f], path);
    }
    nbb_grid_free(&grid);
    return done_testing();
}
