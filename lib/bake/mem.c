/* mem.c: the bake side's memory, from the allocator of the bake running
 * on this thread (bake.h: nbb_malloc and the rest).
 *
 * The bake library (api/) serves a bake from its caller's allocator, and
 * its working memory is made some hundred calls deep, on worker threads
 * too.  Rather than hand an allocator through every function of the bake
 * side, each thread knows the allocator of the bake it runs: an entry point
 * of the library sets it for the length of its call (nbb_mem_enter, and
 * nbb_mem_leave puts back what was there, so a bake inside a progress
 * callback nests), and parallel.c sets the caller's in every worker for
 * the length of its units.  Nothing is shared between threads, so any
 * number of bakes run at once, each with its own allocator; a thread that
 * no bake set (the tools') uses the C library's. */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "bake_int.h"

static _Thread_local const nb_allocator *current;

const nb_allocator *nbb_mem(void) { return current; }

const nb_allocator *nbb_mem_enter(const nb_allocator *a)
{
    const nb_allocator *prev = current;
    current = a;
    return prev;
}

void nbb_mem_leave(const nb_allocator *prev) { current = prev; }

void *nbb_malloc(size_t size) { return nbi_alloc(current, size); }

void *nbb_calloc(size_t count, size_t size) { return nbi_zalloc_array(current, count, size); }

void *nbb_realloc(void *p, size_t size) { return nbi_realloc_array(current, p, size, 1); }

void nbb_free(void *p) { nbi_free(current, p); }

char *nbb_strdup(const char *s) { return nbi_strdup(current, s); }

char *nbb_strndup(const char *s, size_t n)
{
    char *p = nbi_alloc(current, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* zlib's states through the same allocator. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return nbi_alloc_array(current, items, size);
}

static void z_free(voidpf opaque, voidpf p)
{
    (void)opaque;
    nbi_free(current, p);
}

void nbb_zstream_init(void *zs)
{
    z_stream *z = zs;
    memset(z, 0, sizeof *z);
    z->zalloc = z_alloc;
    z->zfree = z_free;
}

int nbb_compress(uint8_t *dest, unsigned long *dest_len, const uint8_t *src, size_t len,
                 int level)
{
    /* compress2's stream (deflateInit's defaults), so the same bytes. */
    z_stream z;
    nbb_zstream_init(&z);
    int st = deflateInit(&z, level);
    if (st != Z_OK)
        return st;
    z.next_in = (Bytef *)src;
    z.next_out = dest;
    z.avail_out = 0;
    size_t in_left = len, out_left = *dest_len;
    const uInt max = (uInt)-1;
    do {
        if (z.avail_out == 0) {
            z.avail_out = out_left > max ? max : (uInt)out_left;
            out_left -= z.avail_out;
        }
        if (z.avail_in == 0) {
            z.avail_in = in_left > max ? max : (uInt)in_left;
            in_left -= z.avail_in;
        }
        st = deflate(&z, in_left ? Z_NO_FLUSH : Z_FINISH);
    } while (st == Z_OK);
    *dest_len = z.total_out;
    deflateEnd(&z);
    return st == Z_STREAM_END ? Z_OK : st;
}
