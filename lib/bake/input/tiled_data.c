/* tiled_data.c: a Tiled layer's data to gids (formats/tiled.md): CSV, or
 * base64 of little-endian 32-bit gids, raw or compressed with zlib, gzip
 * or zstd.  The decoded size is the layer's declared one exactly, and no
 * stream is inflated past it (plus one byte, to see that it would go on),
 * so a small hostile layer cannot ask for more memory than its size. */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

#include "levels.h"

static int b64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* base64 to bytes (*out malloc'ed); whitespace anywhere, padding at the end. */
static nb_status b64_decode(const char *text, size_t len, uint8_t **out, size_t *olen,
                            const char *where, nb_err *err)
{
    uint8_t *p = nbb_malloc(len / 4 * 3 + 3);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for its data", where);
    uint32_t acc = 0;
    size_t n = 0, bits = 0, pad = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (is_space(c))
            continue;
        if (c == '=') {
            pad++;
            continue;
        }
        int v = b64_value(c);
        if (v < 0 || pad) {
            nbb_free(p);
            return nbi_fail(err, NB_ERR_SYNTAX, "%s: base64 data: %s at character %zu", where,
                            pad ? "text after the padding" : "a character outside base64", i + 1);
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            p[n++] = (uint8_t)(acc >> bits);
        }
    }
    if (pad > 2 || bits >= 6) {
        nbb_free(p);
        return nbi_fail(err, NB_ERR_SYNTAX, "%s: base64 data ends in the middle of a byte", where);
    }
    *out = p;
    *olen = n;
    return NB_OK;
}

/* zlib (gzip when gzip) into out, which has room for want + 1 bytes:
 * a stream that fills the extra byte is larger than the layer. */
static nb_status inflate_to(const uint8_t *in, size_t inlen, int gzip, uint8_t *out, size_t want,
                            const char *where, nb_err *err)
{
    const char *what = gzip ? "gzip" : "zlib";
    z_stream z;
    nbb_zstream_init(&z);
    if (inlen > UINT32_MAX || want >= UINT32_MAX)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: the %s data is too large", where, what);
    if (inflateInit2(&z, gzip ? 15 + 16 : 15) != Z_OK)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to inflate its data", where);
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)inlen;
    z.next_out = out;
    z.avail_out = (uInt)(want + 1);
    int r;
    do
        r = inflate(&z, Z_NO_FLUSH);
    while (r == Z_OK && z.avail_out > 0 && z.avail_in > 0);
    size_t got = want + 1 - z.avail_out;
    char msg[80];
    snprintf(msg, sizeof msg, "%s", z.msg ? z.msg : "a bad stream");
    inflateEnd(&z);
    if (got > want)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: the %s data inflates to more than the layer's %zu bytes", where, what,
                        want);
    if (r != Z_STREAM_END)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: the %s data does not inflate (%s)", where, what,
                        r == Z_OK || r == Z_BUF_ERROR ? "it is cut short" : msg);
    if (got != want)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: the %s data inflates to %zu bytes, the layer's size is %zu", where,
                        what, got, want);
    return NB_OK;
}

/* The same for zstd (one or more frames). */
static nb_status unzstd_to(const uint8_t *in, size_t inlen, uint8_t *out, size_t want,
                           const char *where, nb_err *err)
{
    ZSTD_DStream *z = ZSTD_createDStream();
    if (!z)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to decompress its data", where);
    /* No frame may ask for a window beyond 128 MiB whatever it claims. */
    ZSTD_DCtx_setParameter(z, ZSTD_d_windowLogMax, 27);
    ZSTD_inBuffer ib = {in, inlen, 0};
    ZSTD_outBuffer ob = {out, want + 1, 0};
    size_t r = 0;
    nb_status st = NB_OK;
    for (;;) {
        size_t before_in = ib.pos, before_out = ob.pos;
        r = ZSTD_decompressStream(z, &ob, &ib);
        if (ZSTD_isError(r)) {
            st = nbi_fail(err, NB_ERR_FORMAT, "%s: the zstd data does not decompress (%s)", where,
                          ZSTD_getErrorName(r));
            break;
        }
        if (ob.pos > want || (ib.pos == ib.size && r == 0) ||
            (ib.pos == before_in && ob.pos == before_out))
            break;
    }
    ZSTD_freeDStream(z);
    if (st != NB_OK)
        return st;
    if (ob.pos > want)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: the zstd data decompresses to more than the layer's %zu bytes",
                        where, want);
    if (r != 0 || ib.pos != ib.size)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: the zstd data is cut short", where);
    if (ob.pos != want)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: the zstd data decompresses to %zu bytes, the layer's size is %zu",
                        where, ob.pos, want);
    return NB_OK;
}

static nb_status csv_decode(const char *text, size_t len, uint32_t *gids, size_t count,
                            const char *where, nb_err *err)
{
    size_t n = 0, i = 0;
    for (;;) {
        while (i < len && is_space((unsigned char)text[i]))
            i++;
        if (i == len)
            break;
        if (text[i] < '0' || text[i] > '9')
            return nbi_fail(err, NB_ERR_SYNTAX, "%s: CSV data: '%c' at character %zu, expected a gid",
                            where, text[i] >= '!' && text[i] <= '~' ? text[i] : '?', i + 1);
        uint64_t v = 0;
        while (i < len && text[i] >= '0' && text[i] <= '9') {
            v = v * 10 + (uint64_t)(text[i++] - '0');
            if (v > UINT32_MAX)
                return nbi_fail(err, NB_ERR_SYNTAX, "%s: CSV data: gid %zu is beyond 32 bits",
                                where, n + 1);
        }
        if (n == count)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: CSV data holds more than the layer's %zu gids",
                            where, count);
        gids[n++] = (uint32_t)v;
        while (i < len && is_space((unsigned char)text[i]))
            i++;
        if (i < len && text[i] == ',')
            i++;
        else if (i < len)
            return nbi_fail(err, NB_ERR_SYNTAX, "%s: CSV data: '%c' at character %zu, expected ','",
                            where, text[i] >= '!' && text[i] <= '~' ? text[i] : '?', i + 1);
    }
    if (n != count)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: CSV data holds %zu gids, the layer has %zu cells",
                        where, n, count);
    return NB_OK;
}

nb_status nbb_tiled_decode(const char *text, size_t len, const char *encoding,
                           const char *compression, uint32_t *gids, size_t count,
                           const char *where, nb_err *err)
{
    if (!compression)
        compression = "";
    if (encoding && strcmp(encoding, "csv") == 0) {
        if (*compression)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: CSV data cannot be compressed ('%s')", where,
                            compression);
        return csv_decode(text, len, gids, count, where, err);
    }
    if (!encoding || strcmp(encoding, "base64") != 0)
        return nbi_fail(err, NB_ERR_UNSUPPORTED,
                        "%s: unknown data encoding '%s' (expected csv or base64)", where,
                        encoding ? encoding : "");
    int method = !*compression ? 0 : strcmp(compression, "zlib") == 0 ? 1
                                 : strcmp(compression, "gzip") == 0 ? 2
                                 : strcmp(compression, "zstd") == 0 ? 3 : -1;
    if (method < 0)
        return nbi_fail(err, NB_ERR_UNSUPPORTED,
                        "%s: unknown compression '%s' (expected zlib, gzip or zstd)", where,
                        compression);
    uint8_t *raw = NULL;
    size_t rawlen = 0;
    nb_status st = b64_decode(text, len, &raw, &rawlen, where, err);
    if (st != NB_OK)
        return st;
    size_t want = count * 4;
    uint8_t *bytes = nbb_malloc(want + 1);
    if (!bytes) {
        nbb_free(raw);
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for its data", where);
    }
    if (method == 0) {
        if (rawlen != want)
            st = nbi_fail(err, NB_ERR_FORMAT, "%s: the data is %zu bytes, the layer's size is %zu",
                          where, rawlen, want);
        else
            memcpy(bytes, raw, want);
    } else if (method == 3)
        st = unzstd_to(raw, rawlen, bytes, want, where, err);
    else
        st = inflate_to(raw, rawlen, method == 2, bytes, want, where, err);
    nbb_free(raw);
    for (size_t i = 0; st == NB_OK && i < count; i++) {
        const uint8_t *b = bytes + 4 * i;
        gids[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    nbb_free(bytes);
    return st;
}
