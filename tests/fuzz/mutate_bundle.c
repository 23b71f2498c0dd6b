/* mutate_bundle.c: the structure-aware mutator of binary bundles
 * (mutate.h says what it is for).
 *
 * A mutation is one of:
 *  - a field of a section's payload, chosen by the section's layout
 *    (formats/ and core/format.h): a count, an offset, an index (set to 0,
 *    1, n - 1, n, n + 1, another valid index, a huge value, a neighbour of
 *    its value...), a capability mask, a float (NaN, infinities, huge,
 *    negative, denormal, one ulp off), a name (quotes, backslashes, control
 *    bytes, no terminator, another section's name), a packed layer value,
 *    a stored path's move code, a bit of a hit-check bitset (its cell count
 *    recounted most of the time); after a header field, the table's
 *    parameters follow the header most of the time, and after a count the
 *    payload is resized to what the counts need half of the time;
 *  - changes that keep a section's own checks happy but break what they
 *    cannot see: a map cell or a rectangle of them painted, a rectangle of
 *    a layer painted, an HAA* node moved or an arc sent to another node of
 *    its cluster with the octile weight, a bitangent re-paired with
 *    another or slid along its circle, circles moved onto each other;
 *  - the section's table entry: its type (another known type, an unknown
 *    one), version, encoding (zlib on or off, unknown encodings), flags, a
 *    parameter, its name;
 *  - the section resized (bytes inserted or deleted), duplicated (as it
 *    is, or under another key), removed; a new empty section; the level
 *    resized (the map and every layer cropped or extended together);
 *  - a small range of the payload handed to libFuzzer's own mutator;
 *  - after the layout (nbf_write), now and then a header or table field
 *    (an offset, a size, the count, the minor or major version, trailing
 *    bytes), the table's and header's CRCs computed again.
 * The section to change is chosen with weights that favour what the
 * runtime decodes for queries. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "abstract/abstract.h"
#include "bundle/bundle.h"
#include "core/base.h"
#include "core/format.h"
#include "mutate.h"
#include "subgoal/subgoal.h"

/* ---------------------------------------------------------------- random */

void nbf_seed(nbf_rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 0x1234567u; }

uint64_t nbf_next(nbf_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t nbf_below(nbf_rng *r, uint64_t n) { return n ? nbf_next(r) % n : 0; }

int nbf_chance(nbf_rng *r, unsigned percent) { return nbf_below(r, 100) < percent; }

/* An index from weights[0..n), or n when they are all 0. */
static size_t pick_weighted(nbf_rng *r, const unsigned *w, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += w[i];
    if (!total)
        return n;
    uint64_t x = nbf_below(r, total);
    for (size_t i = 0; i < n; i++) {
        if (x < w[i])
            return i;
        x -= w[i];
    }
    return n - 1;
}

/* ---------------------------------------------------------------- parsing */

#define MAX_SECTIONS 4096          /* more are not worth mutating */
#define MAX_PAYLOAD (64u << 20)    /* inflated or grown */

static int inflate_to(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return 0;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)inlen;
    z.next_out = out;
    z.avail_out = (uInt)outlen;
    int zr = inflate(&z, Z_FINISH);
    int ok = zr == Z_STREAM_END && z.total_out == outlen && z.avail_in == 0;
    inflateEnd(&z);
    return ok;
}

int nbf_add(nbf_bundle *b, const nbf_section *from)
{
    nbf_section copy = *from; /* from may be in b->s, which may move */
    const nbf_section *s = &copy;
    if (b->n == MAX_SECTIONS)
        return 0;
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 16;
        nbf_section *ns = realloc(b->s, cap * sizeof *ns);
        if (!ns)
            return 0;
        b->s = ns;
        b->cap = cap;
    }
    nbf_section *d = &b->s[b->n];
    *d = *s;
    d->data = malloc(s->len ? s->len : 1);
    if (!d->data)
        return 0;
    if (s->len)
        memcpy(d->data, s->data, s->len);
    b->n++;
    return 1;
}

void nbf_remove(nbf_bundle *b, size_t i)
{
    free(b->s[i].data);
    memmove(&b->s[i], &b->s[i + 1], (b->n - i - 1) * sizeof *b->s);
    b->n--;
}

void nbf_free(nbf_bundle *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->s[i].data);
    free(b->s);
    memset(b, 0, sizeof *b);
}

int nbf_load(nbf_section *s, const uint8_t *stored, size_t size)
{
    const nb_section_info *in = &s->info;
    s->len = size;
    s->opaque = 0;
    s->data = malloc(size ? size : 1);
    if (!s->data)
        return 0;
    if (NB_ENC_COMPRESSION(in->encoding) == NB_ENC_ZLIB && in->usize <= MAX_PAYLOAD &&
        size <= UINT32_MAX) {
        uint8_t *inflated = malloc(in->usize ? (size_t)in->usize : 1);
        if (inflated && inflate_to(stored, size, inflated, (size_t)in->usize)) {
            free(s->data);
            s->data = inflated;
            s->len = (size_t)in->usize;
            return 1;
        }
        free(inflated);
        s->opaque = 1;
    } else {
        s->opaque = NB_ENC_COMPRESSION(in->encoding) != 0;
    }
    if (size)
        memcpy(s->data, stored, size);
    return 1;
}

uint8_t *nbf_stored(const nbf_section *s, nb_section_info *info, uint8_t **owned)
{
    *info = s->info;
    *owned = NULL;
    info->size = s->len;
    if (s->opaque) {
        info->usize = NB_ENC_COMPRESSION(s->info.encoding) ? s->info.usize : s->len;
    } else {
        info->usize = s->len;
        if (NB_ENC_COMPRESSION(s->info.encoding) == NB_ENC_ZLIB) {
            uLongf zl = compressBound((uLong)s->len);
            *owned = malloc(zl);
            if (!*owned || compress2(*owned, &zl, s->data, (uLong)s->len, 1) != Z_OK) {
                free(*owned);
                *owned = NULL;
                return NULL;
            }
            info->size = zl;
            info->crc = (uint32_t)crc32(0, *owned, (uInt)zl);
            return *owned;
        }
    }
    info->crc = (uint32_t)crc32(0, s->data, (uInt)s->len);
    return s->data;
}

int nbf_parse(const uint8_t *d, size_t size, nbf_bundle *out)
{
    memset(out, 0, sizeof *out);
    if (size < NBI_HEADER_SIZE || memcmp(d, NBI_MAGIC, NBI_MAGIC_LEN) != 0)
        return 0;
    uint32_t esize = nbi_get32(d + NBI_HDR_ENTRY_SIZE), count = nbi_get32(d + NBI_HDR_COUNT);
    uint64_t table = nbi_get64(d + NBI_HDR_TABLE);
    if (esize < NBI_ENTRY_SIZE || esize > NBI_ENTRY_MAX_SIZE || count > MAX_SECTIONS ||
        table < NBI_HEADER_SIZE || table > size || (uint64_t)count * esize > size - table)
        return 0;
    out->major = nbi_get16(d + NBI_HDR_MAJOR);
    out->minor = nbi_get16(d + NBI_HDR_MINOR);
    out->flags = nbi_get32(d + NBI_HDR_FLAGS);
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = d + table + (uint64_t)i * esize;
        nbf_section s;
        memset(&s, 0, sizeof s);
        nb_section_info *in = &s.info;
        in->type = nbi_get32(e + NBI_ENT_TYPE);
        in->version = nbi_get16(e + NBI_ENT_VERSION);
        in->encoding = nbi_get16(e + NBI_ENT_ENCODING);
        in->offset = nbi_get64(e + NBI_ENT_OFFSET);
        in->size = nbi_get64(e + NBI_ENT_SIZE);
        in->usize = nbi_get64(e + NBI_ENT_USIZE);
        in->crc = nbi_get32(e + NBI_ENT_CRC);
        in->flags = nbi_get32(e + NBI_ENT_FLAGS);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            in->param[k] = nbi_get32(e + NBI_ENT_PARAMS + 4 * k);
        memcpy(in->name, e + NBI_ENT_NAME, NB_NAME_MAX);
        in->name[NB_NAME_MAX] = '\0';
        if (in->offset > size || in->size > size - in->offset || in->size > MAX_PAYLOAD)
            continue; /* lost: the mutated bundle goes without it */
        if (!nbf_load(&s, d + in->offset, (size_t)in->size)) {
            nbf_free(out);
            return 0;
        }
        if (out->n == out->cap) {
            size_t cap = out->cap ? 2 * out->cap : 16;
            nbf_section *ns = realloc(out->s, cap * sizeof *ns);
            if (!ns) {
                free(s.data);
                nbf_free(out);
                return 0;
            }
            out->s = ns;
            out->cap = cap;
        }
        out->s[out->n++] = s;
    }
    return 1;
}

/* ---------------------------------------------------------------- values */

static int resize(nbf_section *s, size_t len)
{
    if (len > MAX_PAYLOAD)
        return 0;
    uint8_t *d = realloc(s->data, len ? len : 1);
    if (!d)
        return 0;
    if (len > s->len)
        memset(d + s->len, 0, len - s->len);
    s->data = d;
    s->len = len;
    return 1;
}

/* An integer of bits bits near the interesting ones for a field whose
 * value is cur and that counts, or indexes, n things. */
static uint64_t pick_int(nbf_rng *r, uint64_t cur, uint64_t n, unsigned bits)
{
    uint64_t max = bits >= 64 ? UINT64_MAX : (((uint64_t)1 << bits) - 1), v;
    switch (nbf_below(r, 18)) {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = n - 1; break;
    case 3: v = n; break;
    case 4: v = n + 1; break;
    case 5:
    case 6: v = nbf_below(r, n ? n : 1); break; /* another valid index */
    case 7: v = cur + 1; break;
    case 8: v = cur - 1; break;
    case 9: v = cur ^ ((uint64_t)1 << nbf_below(r, bits)); break;
    case 10: v = max; break;
    case 11: v = max >> 1; break;
    case 12: v = (max >> 1) + 1; break;
    case 13: v = 2 * n; break;
    case 14: v = 2 * cur; break;
    case 15: v = cur / 2; break;
    case 16: v = (uint64_t)1 << nbf_below(r, bits); break;
    default: v = nbf_below(r, 2 * n + 3); break;
    }
    return v & max;
}

/* A capability mask, for a legend of nt terrains. */
static uint32_t pick_mask(nbf_rng *r, uint32_t cur, unsigned nt)
{
    nt = nt ? (nt > 32 ? 32 : nt) : 1;
    uint32_t all = nt >= 32 ? UINT32_MAX : (((uint32_t)1 << nt) - 1);
    switch (nbf_below(r, 8)) {
    case 0: return 0;
    case 1: return UINT32_MAX;
    case 2: return all;
    case 3: return nt < 32 ? (uint32_t)1 << nt : 0x80000000u; /* beyond the legend */
    case 4: return cur ^ ((uint32_t)1 << nbf_below(r, nt));
    case 5: return cur | ((uint32_t)1 << nbf_below(r, 32));
    case 6: return (uint32_t)1 << nbf_below(r, nt);
    default: return (uint32_t)nbf_below(r, (uint64_t)all + 1);
    }
}

static double pick_f64(nbf_rng *r, double cur)
{
    switch (nbf_below(r, 24)) {
    case 0: return NAN;
    case 1: return -NAN;
    case 2: return INFINITY;
    case 3: return -INFINITY;
    case 4: return 0.0;
    case 5: return -0.0;
    case 6: return 1e300;
    case 7: return -1e300;
    case 8: return 4.9e-324; /* the least denormal */
    case 9: return DBL_MIN / 3;
    case 10: return -cur;
    case 11: return cur * 2;
    case 12: return cur / 2;
    case 13: return cur + 1;
    case 14: return cur - 1;
    case 15: return nextafter(cur, INFINITY);
    case 16: return nextafter(cur, -INFINITY);
    case 17: return 1e9;
    case 18: return nextafter(1e9, INFINITY);
    case 19: return -1;
    case 20: return cur * (1 + 1e-12);
    case 21: return DBL_MAX;
    case 22: return (double)((int64_t)nbf_below(r, 129) - 64);
    default: return (double)((int64_t)nbf_below(r, 2001) - 1000) / 16;
    }
}

static const char *const odd_names[] = {
    "a\"b", "back\\slash", "tab\there", "new\nline", "\x01", "\xff\xfe", "%s%n%x", "",
    "x", "-", "_", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcde", "ground", "jeep", "tank", "humanoid",
    "vehicle", "a b", "</svg>", "&amp;", "{\"a\":1}"};
#define NODD (sizeof odd_names / sizeof odd_names[0])

/* A name into a field of size bytes: odd ones, 31 or size characters
 * (no terminator), one character changed, or another section's name. */
static void pick_name(nbf_rng *r, const nbf_bundle *b, uint8_t *field, size_t size)
{
    char old[64];
    size_t ol = strnlen((const char *)field, size);
    memcpy(old, field, ol < sizeof old ? ol : sizeof old - 1);
    old[ol < sizeof old ? ol : sizeof old - 1] = '\0';
    memset(field, 0, size);
    switch (nbf_below(r, 6)) {
    case 0:
    case 1: {
        const char *s = odd_names[nbf_below(r, NODD)];
        size_t l = strlen(s);
        memcpy(field, s, l < size ? l : size);
        break;
    }
    case 2:
        memset(field, 'A' + (int)nbf_below(r, 26), nbf_chance(r, 50) ? size : size - 1);
        break;
    case 3:
        if (b && b->n) {
            const char *s = b->s[nbf_below(r, b->n)].info.name;
            size_t l = strlen(s);
            memcpy(field, s, l < size ? l : size);
            break;
        }
        /* fall through */
    default: {
        size_t l = strlen(old);
        memcpy(field, old, l < size ? l : size);
        if (l == 0)
            l = 1;
        field[nbf_below(r, l < size ? l : size)] = (uint8_t)nbf_below(r, 256);
        break;
    }
    }
}

/* A field of a payload, by its layout. */
typedef enum kind { K_U8, K_U16, K_U32, K_U64, K_I8, K_I32, K_F32, K_F64, K_MASK, K_NAME } kind;
typedef struct field {
    size_t off;
    kind k;
    uint64_t n; /* what it counts or indexes (K_MASK: the legend's terrains; K_NAME: its size) */
} field;

static size_t kind_size(const field *f)
{
    switch (f->k) {
    case K_U8:
    case K_I8: return 1;
    case K_U16: return 2;
    case K_U32:
    case K_I32:
    case K_F32:
    case K_MASK: return 4;
    case K_U64:
    case K_F64: return 8;
    case K_NAME: return (size_t)f->n;
    }
    return 1;
}

static void set_field(nbf_rng *r, const nbf_bundle *b, nbf_section *s, const field *f)
{
    if (f->off > s->len || kind_size(f) > s->len - f->off)
        return;
    uint8_t *p = s->data + f->off;
    switch (f->k) {
    case K_U8: p[0] = (uint8_t)pick_int(r, p[0], f->n, 8); break;
    case K_I8: p[0] = (uint8_t)(int8_t)((int64_t)nbf_below(r, 2 * f->n + 3) - (int64_t)f->n - 1); break;
    case K_U16: nbi_put16(p, (uint16_t)pick_int(r, nbi_get16(p), f->n, 16)); break;
    case K_U32: nbi_put32(p, (uint32_t)pick_int(r, nbi_get32(p), f->n, 32)); break;
    case K_I32:
        if (nbf_chance(r, 70))
            nbi_put32(p, (uint32_t)(int32_t)((int64_t)nbf_below(r, 2 * f->n + 3) - (int64_t)f->n - 1));
        else
            nbi_put32(p, (uint32_t)pick_int(r, nbi_get32(p), f->n, 32));
        break;
    case K_U64: nbi_put64(p, pick_int(r, nbi_get64(p), f->n, 64)); break;
    case K_MASK: nbi_put32(p, pick_mask(r, nbi_get32(p), (unsigned)f->n)); break;
    case K_F64: nbi_putf64(p, pick_f64(r, nbi_getf64(p))); break;
    case K_F32: {
        uint32_t u = nbi_get32(p);
        float cur, v;
        memcpy(&cur, &u, 4);
        double d = pick_f64(r, isfinite(cur) ? cur : 1.0);
        v = fabs(d) > FLT_MAX && isfinite(d) ? (d < 0 ? -INFINITY : INFINITY) : (float)d;
        memcpy(&u, &v, 4);
        nbi_put32(p, u);
        break;
    }
    case K_NAME: pick_name(r, b, p, (size_t)f->n); break;
    }
}

/* A field anywhere, when the layout is not there to follow. */
static void set_any(nbf_rng *r, nbf_section *s)
{
    if (s->len == 0)
        return;
    field f = {0, K_U8, 256};
    if (s->len >= 8 && nbf_chance(r, 60)) {
        f.off = nbf_below(r, s->len / 4) * 4;
        f.k = nbf_chance(r, 70) ? K_U32 : K_F64;
        f.n = 256;
        if (f.k == K_F64)
            f.off = nbf_below(r, s->len / 8) * 8;
    } else {
        f.off = nbf_below(r, s->len);
    }
    set_field(r, NULL, s, &f);
}

/* ---------------------------------------------------------------- the level */

static nbf_section *find(nbf_bundle *b, uint32_t type)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->s[i].info.type == type && !b->s[i].opaque)
            return &b->s[i];
    return NULL;
}

nbf_section *nbf_find(nbf_bundle *b, uint32_t type) { return find(b, type); }
uint64_t nbf_pick_int(nbf_rng *r, uint64_t cur, uint64_t n, unsigned bits)
{
    return pick_int(r, cur, n, bits);
}
int nbf_resize(nbf_section *s, size_t len) { return resize(s, len); }

static unsigned terrains(nbf_bundle *b)
{
    nbf_section *l = find(b, NB_SEC_LEGEND);
    return l && l->len >= 4 ? nbi_get32(l->data) : 4;
}

static void map_size(nbf_bundle *b, uint32_t *w, uint32_t *h)
{
    nbf_section *m = find(b, NB_SEC_MAP);
    *w = m && m->len >= 8 ? nbi_get32(m->data) : 64;
    *h = m && m->len >= 8 ? nbi_get32(m->data + 4) : 40;
}

/* A map character: one the legend defines (mostly), or any byte. */
static uint8_t pick_char(nbf_rng *r, nbf_bundle *b)
{
    nbf_section *l = find(b, NB_SEC_LEGEND);
    if (l && l->len >= 8 && nbf_chance(r, 90)) {
        uint32_t n = nbi_get32(l->data);
        size_t codes = NBI_LEGEND_HEADER + (size_t)n * NBI_LEGEND_NAME;
        if (n <= NB_MAX_TERRAINS && codes + 256 <= l->len)
            for (int tries = 0; tries < 64; tries++) {
                unsigned c = 33 + (unsigned)nbf_below(r, 94);
                if (l->data[codes + c] != NBI_CELL_INVALID)
                    return (uint8_t)c;
            }
    }
    static const char common[] = ".G@OTSW";
    return nbf_chance(r, 80) ? (uint8_t)common[nbf_below(r, 7)] : (uint8_t)nbf_below(r, 256);
}

static int mut_legend(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_LEGEND_HEADER)
        return 0;
    uint32_t n = nbi_get32(s->data);
    size_t codes = NBI_LEGEND_HEADER + (size_t)(n > 64 ? 64 : n) * NBI_LEGEND_NAME;
    field f = {0, K_U32, n};
    unsigned c = (unsigned)nbf_below(r, 10);
    if (c == 0) {
        f.n = nbf_chance(r, 50) ? NB_MAX_TERRAINS : n;
        if (nbf_chance(r, 30)) { /* one terrain more or less, its name included */
            uint32_t n2 = nbf_chance(r, 50) ? n + 1 : n - 1;
            if (n2 <= NB_MAX_TERRAINS && n <= NB_MAX_TERRAINS && codes + 256 <= s->len) {
                uint8_t code[256];
                memcpy(code, s->data + codes, 256);
                if (!resize(s, NBI_LEGEND_HEADER + (size_t)n2 * NBI_LEGEND_NAME + 256))
                    return 0;
                if (n2 > n)
                    memcpy(s->data + codes, "extra", 6);
                memcpy(s->data + NBI_LEGEND_HEADER + (size_t)n2 * NBI_LEGEND_NAME, code, 256);
                nbi_put32(s->data, n2);
                return 1;
            }
        }
    } else if (c < 4 && n) {
        f.off = NBI_LEGEND_HEADER + nbf_below(r, n > 64 ? 64 : n) * NBI_LEGEND_NAME;
        f.k = K_NAME;
        f.n = NBI_LEGEND_NAME;
    } else {
        f.off = codes + (nbf_chance(r, 90) ? 33 + nbf_below(r, 94) : nbf_below(r, 256));
        f.k = K_U8;
        if (f.off < s->len && nbf_chance(r, 70)) {
            static const uint8_t special[] = {NBI_CELL_OBSTACLE, NBI_CELL_INVALID, 0, 1, 31, 32, 33};
            s->data[f.off] = nbf_chance(r, 50) ? special[nbf_below(r, sizeof special)]
                                               : (uint8_t)nbf_below(r, n + 1);
            return 1;
        }
    }
    set_field(r, b, s, &f);
    return 1;
}

static int mut_agents(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_AGENTS_HEADER)
        return 0;
    uint32_t n = nbi_get32(s->data);
    field f = {0, K_U32, n};
    if (n == 0 || nbf_chance(r, 10)) {
        f.n = nbf_chance(r, 50) ? NB_MAX_AGENTS : n;
        if (nbf_chance(r, 50) && n < NB_MAX_AGENTS) { /* an agent more (a copy) or less */
            uint32_t n2 = n && nbf_chance(r, 50) ? n - 1 : n + 1;
            size_t need = NBI_AGENTS_HEADER + (size_t)n2 * NBI_AGENT_RECORD;
            size_t had = s->len;
            if (!resize(s, need))
                return 0;
            if (n2 > n && n && had >= NBI_AGENTS_HEADER + NBI_AGENT_RECORD) {
                memcpy(s->data + need - NBI_AGENT_RECORD, s->data + NBI_AGENTS_HEADER, NBI_AGENT_RECORD);
                s->data[need - NBI_AGENT_RECORD] ^= 0x20; /* another name */
                nbi_put32(s->data + need - NBI_AGENT_RECORD + NBI_AGENT_SIZE, 1 + (uint32_t)nbf_below(r, 8));
            }
            nbi_put32(s->data, n2);
            return 1;
        }
    } else {
        size_t rec = NBI_AGENTS_HEADER + nbf_below(r, n > 256 ? 256 : n) * NBI_AGENT_RECORD;
        switch (nbf_below(r, 4)) {
        case 0: f.off = rec + NBI_AGENT_NAME; f.k = K_NAME; f.n = 32; break;
        case 1: f.off = rec + NBI_AGENT_SIZE; f.n = NB_MAX_AGENT_SIZE; break;
        case 2: f.off = rec + NBI_AGENT_CAPABILITY; f.k = K_MASK; f.n = terrains(b); break;
        default: f.off = rec + 40 + 4 * nbf_below(r, 2); break; /* the zero words */
        }
    }
    set_field(r, b, s, &f);
    return 1;
}

/* Re-lays a w x h layer of cells into nw x nh: cells kept where both
 * have them, fill elsewhere.  For maps (bits 8, at 8) and layers. */
static int relay_cells(nbf_section *s, size_t head, unsigned bits, uint32_t nw, uint32_t nh,
                       uint32_t fill, size_t tail);

/* A packed map (version 2): its bits, palette count, a palette entry, or
 * the values' bytes, each read in place by the runtime. */
static int mut_packed_map(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    uint32_t w = nbi_get32(s->data), h = nbi_get32(s->data + 4);
    field f = {NBI_MAP_BITS, K_U32, 8};
    switch (nbf_below(r, 6)) {
    case 0: break;
    case 1: f.off = NBI_MAP_CHARS; f.n = 256; break;
    case 2: f.off = 4 * nbf_below(r, 2); f.n = f.off ? h : w; break;
    case 3: s->data[NBI_MAP_PALETTE + nbf_below(r, NBI_MAP_PALETTE_SIZE)] = pick_char(r, b); return 1;
    default:
        if (s->len > NBI_MAP_PACKED_HEADER)
            s->data[NBI_MAP_PACKED_HEADER + nbf_below(r, s->len - NBI_MAP_PACKED_HEADER)] =
                (uint8_t)nbf_below(r, 256);
        return 1;
    }
    set_field(r, b, s, &f);
    return 1;
}

static int mut_map(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->info.version == NBI_MAP_VERSION_PACKED && s->len >= NBI_MAP_PACKED_HEADER)
        return mut_packed_map(b, s, r);
    if (s->len < NBI_MAP_HEADER)
        return 0;
    uint32_t w = nbi_get32(s->data), h = nbi_get32(s->data + 4);
    int sane = w && h && w <= 4096 && h <= 4096 && (uint64_t)w * h + NBI_MAP_HEADER == s->len;
    unsigned c = (unsigned)nbf_below(r, 10);
    if (!sane || c == 0) {
        field f = {4 * nbf_below(r, 2), K_U32, nbf_chance(r, 50) ? w : h};
        set_field(r, b, s, &f);
        uint32_t nw = nbi_get32(s->data), nh = nbi_get32(s->data + 4);
        if (nbf_chance(r, 60) && nw && nh && nw <= 1024 && nh <= 1024)
            resize(s, NBI_MAP_HEADER + (size_t)nw * nh); /* consistent, but not with the layers */
        return 1;
    }
    uint8_t ch = pick_char(r, b);
    uint32_t x = (uint32_t)nbf_below(r, w), y = (uint32_t)nbf_below(r, h);
    if (c < 6) {
        s->data[NBI_MAP_HEADER + (size_t)y * w + x] = ch;
    } else {
        uint32_t rw = 1 + (uint32_t)nbf_below(r, 8), rh = 1 + (uint32_t)nbf_below(r, 8);
        for (uint32_t j = y; j < y + rh && j < h; j++)
            for (uint32_t i = x; i < x + rw && i < w; i++)
                s->data[NBI_MAP_HEADER + (size_t)j * w + i] = ch;
    }
    return 1;
}

/* ---------------------------------------------------------------- layers */

static uint32_t get_packed(const uint8_t *base, uint64_t i, unsigned bits)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < bits; k++) {
        uint64_t bit = i * bits + k;
        if (k < 32) /* a mutated header may claim more bits than a value holds */
            v |= (uint32_t)((base[bit / 8] >> (bit % 8)) & 1u) << k;
    }
    return v;
}

static void put_packed(uint8_t *base, uint64_t i, unsigned bits, uint32_t v)
{
    for (unsigned k = 0; k < bits; k++) {
        uint64_t bit = i * bits + k;
        uint8_t m = (uint8_t)(1u << (bit % 8));
        int set = k < 32 && ((v >> k) & 1u); /* bits past 32 are 0 */
        base[bit / 8] = (uint8_t)(set ? (base[bit / 8] | m) : (base[bit / 8] & ~m));
    }
}

static size_t layer_len(uint32_t w, uint32_t h, unsigned bits)
{
    return NBI_LAYER_HEADER + (size_t)(((uint64_t)w * h * bits + 7) / 8) + NBI_LAYER_TAIL;
}

static int relay_cells(nbf_section *s, size_t head, unsigned bits, uint32_t nw, uint32_t nh,
                       uint32_t fill, size_t tail)
{
    uint32_t w = nbi_get32(s->data), h = nbi_get32(s->data + 4);
    size_t need = head + (size_t)(((uint64_t)nw * nh * bits + 7) / 8) + tail;
    if (need > MAX_PAYLOAD || (uint64_t)nw * nh > (1u << 22))
        return 0;
    uint8_t *d = calloc(need, 1);
    if (!d)
        return 0;
    memcpy(d, s->data, head < s->len ? head : s->len);
    int old_ok = s->len >= head + ((uint64_t)w * h * bits + 7) / 8;
    for (uint32_t y = 0; y < nh; y++)
        for (uint32_t x = 0; x < nw; x++) {
            uint32_t v = old_ok && x < w && y < h ? get_packed(s->data + head, (uint64_t)y * w + x, bits)
                                                  : fill;
            put_packed(d + head, (uint64_t)y * nw + x, bits, v);
        }
    nbi_put32(d, nw);
    nbi_put32(d + 4, nh);
    free(s->data);
    s->data = d;
    s->len = need;
    return 1;
}

static void sync_layer_params(nbf_section *s)
{
    if (s->len < NBI_LAYER_HEADER)
        return;
    uint32_t bits = nbi_get32(s->data + NBI_LAYER_BITS), maxval = nbi_get32(s->data + NBI_LAYER_MAXVAL);
    int k = s->info.type == NB_SEC_CLEARANCE ? 1 : 2;
    s->info.param[k] = maxval;
    s->info.param[k + 1] = bits;
}

static int mut_layer(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_LAYER_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t w = nbi_get32(p + NBI_LAYER_WIDTH), h = nbi_get32(p + NBI_LAYER_HEIGHT);
    uint32_t bits = nbi_get32(p + NBI_LAYER_BITS), maxval = nbi_get32(p + NBI_LAYER_MAXVAL);
    int sane = bits >= 1 && bits <= 32 && (uint64_t)w * h <= (1u << 22) && s->len == layer_len(w, h, bits);
    unsigned c = (unsigned)nbf_below(r, 100);
    if (!sane || c < 20) {
        uint32_t mw, mh;
        map_size(b, &mw, &mh);
        unsigned which = (unsigned)nbf_below(r, 4);
        if (sane && which == 2 && nbf_chance(r, 60)) {
            /* Fewer or more bits a value, the values kept (cut to the new width). */
            uint32_t nb = (uint32_t)(nbf_chance(r, 50) ? bits + 1 : (bits > 1 ? bits - 1 : 1));
            if (nbf_chance(r, 20))
                nb = 1 + (uint32_t)nbf_below(r, 32);
            uint8_t *d = calloc(layer_len(w, h, nb), 1);
            if (!d)
                return 0;
            memcpy(d, p, NBI_LAYER_HEADER);
            for (uint64_t i = 0; i < (uint64_t)w * h; i++)
                put_packed(d + NBI_LAYER_HEADER, i, nb, get_packed(p + NBI_LAYER_HEADER, i, bits));
            nbi_put32(d + NBI_LAYER_BITS, nb);
            free(s->data);
            s->data = d;
            s->len = layer_len(w, h, nb);
        } else if (sane && which < 2 && nbf_chance(r, 60)) {
            /* Another size, values kept where they were. */
            uint32_t nw = which == 0 ? (uint32_t)pick_int(r, w, mw, 10) : w;
            uint32_t nh = which == 1 ? (uint32_t)pick_int(r, h, mh, 10) : h;
            if (!relay_cells(s, NBI_LAYER_HEADER, bits, nw, nh, (uint32_t)nbf_below(r, maxval + 1ull),
                             NBI_LAYER_TAIL))
                return 0;
        } else {
            field f = {4 * which, K_U32, which == 0 ? mw : which == 1 ? mh : which == 2 ? 32 : maxval};
            set_field(r, b, s, &f);
            uint32_t nw = nbi_get32(s->data), nh = nbi_get32(s->data + 4), nb = nbi_get32(s->data + 8);
            if (nbf_chance(r, 50) && nb >= 1 && nb <= 32 && (uint64_t)nw * nh <= (1u << 22))
                resize(s, layer_len(nw, nh, nb));
        }
        if (nbf_chance(r, 70))
            sync_layer_params(s);
        return 1;
    }
    uint64_t cells = (uint64_t)w * h;
    if (cells == 0)
        return 0;
    uint32_t top = bits >= 32 ? UINT32_MAX : (((uint32_t)1 << bits) - 1);
    uint32_t v;
    switch (nbf_below(r, 6)) {
    case 0: v = 0; break;
    case 1: v = maxval; break;
    case 2: v = maxval + 1; break;
    case 3: v = top; break;
    default: v = (uint32_t)nbf_below(r, (uint64_t)maxval + 1); break;
    }
    v &= top;
    uint8_t *base = p + NBI_LAYER_HEADER;
    if (c < 70) {
        put_packed(base, nbf_below(r, cells), bits, v);
    } else if (c < 90) {
        uint32_t x = (uint32_t)nbf_below(r, w), y = (uint32_t)nbf_below(r, h);
        uint32_t rw = 1 + (uint32_t)nbf_below(r, 10), rh = 1 + (uint32_t)nbf_below(r, 10);
        for (uint32_t j = y; j < y + rh && j < h; j++)
            for (uint32_t i = x; i < x + rw && i < w; i++)
                put_packed(base, (uint64_t)j * w + i, bits, v);
    } else if (c < 95) {
        s->data[s->len - 1 - nbf_below(r, NBI_LAYER_TAIL + 1)] ^= (uint8_t)(1u << nbf_below(r, 8));
    } else {
        int k = (s->info.type == NB_SEC_CLEARANCE ? 1 : 2) + (int)nbf_below(r, 2);
        s->info.param[k] = (uint32_t)pick_int(r, s->info.param[k], maxval, 32);
    }
    return 1;
}

/* ---------------------------------------------------------------- HAA* */

enum { AW = NBI_AB_WORDS };

static void sync_abstract_params(nbf_section *s)
{
    if (s->len < NBI_ABSTRACT_HEADER)
        return;
    const uint8_t *p = s->data;
    s->info.param[0] = nbi_get32(p + 4 * NBI_AB_CLUSTER);
    s->info.param[1] = nbi_get32(p + 4 * NBI_AB_QUALITY);
    s->info.param[2] = nbi_get32(p + 4 * NBI_AB_NODES);
    s->info.param[3] = nbi_get32(p + 4 * NBI_AB_EDGES);
    s->info.param[4] = nbi_get32(p + 4 * NBI_AB_INTER);
    s->info.param[5] = nbi_get32(p + 4 * NBI_AB_PLACEMENT);
    s->info.param[6] = nbi_get32(p + 4 * NBI_AB_PATH_BYTES);
}

/* The abstract graph's costs for a cost profile (formats/abstract.md, section type 33): a
 * header word, a terrain's multiplier, or an arc's cost (0, just below the heuristic, any
 * real); the section table's parameters follow the header most of the time. */
static int mut_acosts(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_ACOSTS_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t nt = nbi_get32(p + 4 * NBI_AC_NTERRAINS);
    uint64_t arcs = s->len >= NBI_ACOSTS_HEADER + 8 * (uint64_t)nt
                        ? (s->len - NBI_ACOSTS_HEADER - 8 * (uint64_t)nt) / 8
                        : 0;
    field f = {0, K_U32, 0};
    switch (nbf_below(r, 10)) {
    case 0:
    case 1: {
        unsigned i = (unsigned)nbf_below(r, NBI_AC_WORDS);
        uint32_t mw, mh;
        map_size(b, &mw, &mh);
        f.off = 4 * i;
        f.k = i == NBI_AC_CAP ? K_MASK : K_U32;
        f.n = i == NBI_AC_WIDTH ? mw : i == NBI_AC_HEIGHT ? mh : i == NBI_AC_CAP ? terrains(b)
              : i == NBI_AC_SIZE ? NB_MAX_AGENT_SIZE : i == NBI_AC_NTERRAINS ? terrains(b)
              : i == NBI_AC_ARCS ? arcs : 8;
        break;
    }
    case 2:
        if (nt == 0 || NBI_ACOSTS_HEADER + 8 * (uint64_t)nt > s->len)
            return 0;
        f.off = NBI_ACOSTS_HEADER + 8 * nbf_below(r, nt);
        f.k = K_F64;
        break;
    default: {
        if (arcs == 0)
            return 0;
        size_t at = NBI_ACOSTS_HEADER + 8 * ((size_t)nt + nbf_below(r, arcs));
        double v = nbi_getf64(p + at);
        switch (nbf_below(r, 4)) {
        case 0: nbi_putf64(p + at, 0); break;
        case 1: nbi_putf64(p + at, v * (1 - 1e-6)); break;
        case 2: nbi_putf64(p + at, v > 0 ? 0.5 : 1); break;
        default: f.off = at; f.k = K_F64; set_field(r, b, s, &f); break;
        }
        return 1;
    }
    }
    set_field(r, b, s, &f);
    if (nbf_chance(r, 70)) {
        s->info.param[0] = nbi_get32(p + 4 * NBI_AC_CAP);
        s->info.param[1] = nbi_get32(p + 4 * NBI_AC_SIZE);
        s->info.param[2] = nbi_get32(p + 4 * NBI_AC_ARCS);
        s->info.param[3] = nbi_get32(p + 4 * NBI_AC_GRAPH_CRC);
        s->info.param[4] = nbi_get32(p + 4 * NBI_AC_INDEX);
    }
    return 1;
}

static int abstract_layout(const nbf_section *s, uint32_t w[AW], uint64_t off[11])
{
    for (int i = 0; i < AW; i++)
        w[i] = nbi_get32(s->data + 4 * i);
    uint64_t ncl = (uint64_t)w[NBI_AB_NCX] * w[NBI_AB_NCY];
    if (ncl > (1u << 24) || w[NBI_AB_NODES] > (1u << 24) || w[NBI_AB_EDGES] > (1u << 24) ||
        w[NBI_AB_NCAPS] > (1u << 16) || w[NBI_AB_NSIZES] > (1u << 16))
        return 0;
    nbi_agraph_layout(w[NBI_AB_NCAPS], w[NBI_AB_NSIZES], ncl, w[NBI_AB_NODES], w[NBI_AB_EDGES],
                      (w[NBI_AB_FLAGS] & NBI_AGRAPH_PATHS) != 0, w[NBI_AB_PATH_BYTES], off);
    return 1;
}

static int mut_abstract(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_ABSTRACT_HEADER)
        return 0;
    uint32_t w[AW];
    uint64_t off[11];
    int laid = abstract_layout(s, w, off);
    int fits = laid && off[10] == s->len;
    uint32_t V = w[NBI_AB_NODES], E = w[NBI_AB_EDGES];
    uint64_t A = 2 * (uint64_t)E, K = (uint64_t)w[NBI_AB_NCX] * w[NBI_AB_NCY];
    int paths = (w[NBI_AB_FLAGS] & NBI_AGRAPH_PATHS) != 0;
    /* header, caps, sizes, cluster_first, node_xy, node_first, arc_to, arc_w, arc_ann,
     * arc_path, moves, node moved, arc retargeted, a stored path that bounces */
    unsigned wt[14] = {14, 3, 3, 8, 10, 10, 14, 8, 10, paths ? 5u : 0u, paths ? 6u : 0u, 6, 8,
                       paths ? 6u : 0u};
    if (!fits || V == 0 || E == 0)
        memset(wt + 1, 0, sizeof wt - sizeof wt[0]);
    size_t region = pick_weighted(r, wt, 14);
    uint8_t *p = s->data;
    field f = {0, K_U32, 0};
    switch (region) {
    case 0: {
        unsigned i = (unsigned)nbf_below(r, AW);
        uint32_t mw, mh;
        map_size(b, &mw, &mh);
        static const uint64_t refs[AW] = {0, 0, 255, 2, 1, 3, 8, 256, 64, 0, 0, 0, 0, 0, 1, 0};
        f.off = 4 * i;
        f.n = i == NBI_AB_WIDTH ? mw : i == NBI_AB_HEIGHT ? mh : i == NBI_AB_NODES ? V
              : i == NBI_AB_EDGES || i == NBI_AB_INTER ? E : i == NBI_AB_NCX ? w[i] : i == NBI_AB_NCY ? w[i]
              : i == NBI_AB_PATH_BYTES ? w[i] : refs[i];
        set_field(r, b, s, &f);
        uint32_t nw[AW];
        uint64_t noff[11];
        if (nbf_chance(r, 50) && abstract_layout(s, nw, noff) && noff[10] <= (16u << 20))
            resize(s, (size_t)noff[10]);
        if (nbf_chance(r, 70))
            sync_abstract_params(s);
        return 1;
    }
    case 1: f.off = off[0] + 4 * nbf_below(r, w[NBI_AB_NCAPS]); f.k = K_MASK; f.n = terrains(b); break;
    case 2: f.off = off[1] + 4 * nbf_below(r, w[NBI_AB_NSIZES]); f.n = NB_MAX_AGENT_SIZE; break;
    case 3: f.off = off[2] + 4 * nbf_below(r, K + 1); f.n = V; break;
    case 4: {
        uint32_t mw, mh;
        map_size(b, &mw, &mh);
        int y = nbf_chance(r, 50);
        f.off = off[3] + 4 * nbf_below(r, V) + 2 * (unsigned)y;
        f.k = K_U16;
        f.n = y ? mh : mw;
        break;
    }
    case 5: f.off = off[4] + 4 * nbf_below(r, (uint64_t)V + 1); f.n = A; break;
    case 6: f.off = off[5] + 4 * nbf_below(r, A); f.n = V; break;
    case 7: f.off = off[6] + 2 * nbf_below(r, 2 * A); f.k = K_U16; f.n = w[NBI_AB_CLUSTER]; break;
    case 8: {
        int clr = nbf_chance(r, 50);
        f.off = off[7] + 2 * nbf_below(r, A) + (unsigned)clr;
        f.k = K_U8;
        f.n = clr ? NB_MAX_AGENT_SIZE : w[NBI_AB_NCAPS];
        break;
    }
    case 9: f.off = off[8] + 4 * nbf_below(r, A); f.n = 2 * (uint64_t)w[NBI_AB_PATH_BYTES]; break;
    case 10:
        if (w[NBI_AB_PATH_BYTES] == 0)
            return 0;
        {
            size_t at = off[9] + nbf_below(r, w[NBI_AB_PATH_BYTES]);
            unsigned code = nbf_chance(r, 80) ? (unsigned)nbf_below(r, 8) : 8 + (unsigned)nbf_below(r, 8);
            if (nbf_chance(r, 50))
                p[at] = (uint8_t)((p[at] & 0xf0) | code);
            else
                p[at] = (uint8_t)((p[at] & 0x0f) | (code << 4));
        }
        return 1;
    case 11: { /* a node one cell over */
        size_t at = off[3] + 4 * nbf_below(r, V) + 2 * nbf_below(r, 2);
        nbi_put16(p + at, (uint16_t)(nbi_get16(p + at) + (nbf_chance(r, 50) ? 1 : -1)));
        return 1;
    }
    case 12: { /* an arc to another node of its node's cluster, at the octile weight */
        uint32_t u = (uint32_t)nbf_below(r, V);
        uint32_t a0 = nbi_get32(p + off[4] + 4 * u), a1 = nbi_get32(p + off[4] + 4 * ((uint64_t)u + 1));
        if (a0 >= a1 || a1 > A)
            return 0;
        uint32_t a = a0 + (uint32_t)nbf_below(r, a1 - a0);
        uint32_t ux = nbi_get16(p + off[3] + 4 * (uint64_t)u), uy = nbi_get16(p + off[3] + 4 * (uint64_t)u + 2);
        uint32_t n = w[NBI_AB_CLUSTER] ? w[NBI_AB_CLUSTER] : 1;
        uint32_t v = (uint32_t)nbf_below(r, V);
        for (int tries = 0; tries < 32; tries++) {
            uint32_t vx = nbi_get16(p + off[3] + 4 * (uint64_t)v), vy = nbi_get16(p + off[3] + 4 * (uint64_t)v + 2);
            if (v != u && vx / n == ux / n && vy / n == uy / n)
                break;
            v = (uint32_t)nbf_below(r, V);
        }
        uint32_t vx = nbi_get16(p + off[3] + 4 * (uint64_t)v), vy = nbi_get16(p + off[3] + 4 * (uint64_t)v + 2);
        uint32_t dx = vx > ux ? vx - ux : ux - vx, dy = vy > uy ? vy - uy : uy - vy;
        uint32_t dmin = dx < dy ? dx : dy, dmax = dx < dy ? dy : dx;
        nbi_put32(p + off[5] + 4 * (uint64_t)a, v);
        nbi_put16(p + off[6] + 4 * (uint64_t)a, (uint16_t)(dmax - dmin + nbf_below(r, 2)));
        nbi_put16(p + off[6] + 4 * (uint64_t)a + 2, (uint16_t)dmin);
        return 1;
    }
    case 13: return nbf_bounce_graph(s, r);
    default: return 0;
    }
    set_field(r, b, s, &f);
    return 1;
}

/* ---------------------------------------------------------------- motion */

static int mut_model(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_MODEL_HEADER)
        return 0;
    uint32_t H = nbi_get32(s->data + NBI_MODEL_HEADINGS), S = nbi_get32(s->data + NBI_MODEL_SPEEDS);
    int fits = H <= NB_MODEL_MAX_HEADINGS && S <= NB_MODEL_MAX_SPEEDS &&
               s->len == NBI_MODEL_HEADER + (size_t)H * NBI_MODEL_HEADING_RECORD + (size_t)S * NBI_MODEL_SPEED_RECORD;
    field f = {0, K_U32, 0};
    unsigned c = (unsigned)nbf_below(r, 10);
    if (!fits || c < 3) {
        static const size_t at[] = {NBI_MODEL_HEADINGS, NBI_MODEL_SPEEDS, NBI_MODEL_SPEED_CHANGE,
                                    NBI_MODEL_ZERO, NBI_MODEL_STILL_COST, NBI_MODEL_TURN_COST,
                                    NBI_MODEL_EXT_WEIGHT, NBI_MODEL_ZERO2};
        unsigned i = (unsigned)nbf_below(r, 8);
        f.off = at[i];
        f.k = i >= 4 && i <= 6 ? K_F64 : i == 7 ? K_U64 : K_U32;
        f.n = i == 0 ? H : i == 1 ? S : i == 2 ? (S ? S - 1 : 0) : 0;
        set_field(r, b, s, &f);
        uint32_t nh = nbi_get32(s->data), ns = nbi_get32(s->data + 4);
        if (i < 2 && nbf_chance(r, 50) && nh <= NB_MODEL_MAX_HEADINGS && ns <= NB_MODEL_MAX_SPEEDS) {
            /* the speeds kept after the headings */
            size_t need = NBI_MODEL_HEADER + (size_t)nh * NBI_MODEL_HEADING_RECORD + (size_t)ns * NBI_MODEL_SPEED_RECORD;
            uint8_t *d = calloc(need, 1);
            if (d && fits) {
                memcpy(d, s->data, NBI_MODEL_HEADER);
                size_t hs = NBI_MODEL_HEADER, hd = NBI_MODEL_HEADER;
                memcpy(d + hd, s->data + hs, (size_t)(H < nh ? H : nh) * NBI_MODEL_HEADING_RECORD);
                size_t ss = hs + (size_t)H * NBI_MODEL_HEADING_RECORD, sd = hd + (size_t)nh * NBI_MODEL_HEADING_RECORD;
                memcpy(d + sd, s->data + ss, (size_t)(S < ns ? S : ns) * NBI_MODEL_SPEED_RECORD);
                free(s->data);
                s->data = d;
                s->len = need;
            } else {
                free(d);
            }
        }
        if (nbf_chance(r, 70) && s->len >= 12)
            for (int k = 0; k < 3; k++)
                s->info.param[k] = nbi_get32(s->data + 4 * k);
        return 1;
    }
    if (c < 6 && H) {
        f.off = NBI_MODEL_HEADER + nbf_below(r, H) * NBI_MODEL_HEADING_RECORD + 4 * nbf_below(r, 2);
        f.k = K_I32;
        f.n = NB_MODEL_MAX_OFFSET + 1;
    } else if (S) {
        size_t rec = NBI_MODEL_HEADER + (size_t)H * NBI_MODEL_HEADING_RECORD + nbf_below(r, S) * NBI_MODEL_SPEED_RECORD;
        switch (nbf_below(r, 4)) {
        case 0: f.off = rec + NBI_MODEL_SPEED_NAME; f.k = K_NAME; f.n = 32; break;
        case 1:
        case 2: f.off = rec + NBI_MODEL_SPEED_VALUE; f.k = K_F64; break;
        default: f.off = rec + NBI_MODEL_SPEED_TURN; f.n = H / 2; break;
        }
    } else {
        return 0;
    }
    set_field(r, b, s, &f);
    return 1;
}

static int mut_perimeter(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_PERIM_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t T = nbi_get32(p + NBI_PERIM_TABLES), N = nbi_get32(p + NBI_PERIM_ENTRIES);
    uint32_t bits = nbi_get32(p + NBI_PERIM_BITS), H = nbi_get32(p + NBI_PERIM_H),
             S = nbi_get32(p + NBI_PERIM_S), K = nbi_get32(p + NBI_PERIM_K);
    size_t esize = bits == 32 ? 4 : 2;
    int fits = T < (1u << 16) && N < (1u << 26) &&
               s->len == NBI_PERIM_HEADER + (size_t)T * NBI_PERIM_TABLE_RECORD + (size_t)N * esize;
    field f = {0, K_U32, 0};
    unsigned c = (unsigned)nbf_below(r, 10);
    if (!fits || c < 3) {
        unsigned i = (unsigned)nbf_below(r, 13);
        static const uint64_t refs[] = {63, 3, 32, 15, 0, 0, 0, 0, 0, 4096, 0, 0};
        if (i == 12) {
            f.off = NBI_PERIM_CLASSES + nbf_below(r, NB_MODEL_MAX_SPEEDS);
            f.k = K_U8;
            f.n = K;
        } else {
            f.off = 4 * i;
            f.n = i == 4 ? H : i == 5 ? S : i == 6 ? K : i == 7 ? T : i == 8 ? N : refs[i];
        }
        set_field(r, b, s, &f);
        if (i == 7 || i == 8 || i == 2) {
            uint32_t nt = nbi_get32(p + NBI_PERIM_TABLES), nn = nbi_get32(p + NBI_PERIM_ENTRIES);
            uint32_t nb = nbi_get32(p + NBI_PERIM_BITS);
            if (nbf_chance(r, 50) && nt < (1u << 12) && nn < (1u << 22))
                resize(s, NBI_PERIM_HEADER + (size_t)nt * NBI_PERIM_TABLE_RECORD + (size_t)nn * (nb == 32 ? 4 : 2));
        }
        if (nbf_chance(r, 70) && s->len >= NBI_PERIM_HEADER) {
            p = s->data;
            static const size_t from[7] = {NBI_PERIM_RADIUS, NBI_PERIM_LAYOUT, NBI_PERIM_BITS,
                                           NBI_PERIM_SYM, NBI_PERIM_TABLES, NBI_PERIM_ENTRIES,
                                           NBI_PERIM_SCALE};
            for (int k = 0; k < 7; k++)
                s->info.param[k] = nbi_get32(p + from[k]);
        }
        return 1;
    }
    if (c < 5 && T) {
        size_t rec = NBI_PERIM_HEADER + nbf_below(r, T) * NBI_PERIM_TABLE_RECORD;
        unsigned i = (unsigned)nbf_below(r, 4);
        f.off = rec + 4 * i;
        f.n = i == 0 ? H : i == 1 ? S : i == 2 ? 16 : N;
        if (i < 2 && nbf_chance(r, 30)) {
            nbi_put32(p + f.off, NBI_PERIM_ANY);
            return 1;
        }
    } else if (N) {
        f.off = NBI_PERIM_HEADER + (size_t)T * NBI_PERIM_TABLE_RECORD + nbf_below(r, N) * esize;
        if (esize == 4) {
            f.k = K_F32;
        } else {
            f.k = K_U16;
            f.n = NBI_PERIM_UNREACHABLE16;
        }
    } else {
        return 0;
    }
    set_field(r, b, s, &f);
    return 1;
}

/* ---------------------------------------------------------------- units */

static int mut_unit(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_UNIT_SIZE)
        return 0;
    field f = {0, K_U32, 0};
    switch (nbf_below(r, 9)) {
    case 0: f.off = NBI_UNIT_RADIUS; f.k = K_F64; break;
    case 1: f.off = NBI_UNIT_WIDTH; f.k = K_F64; break;
    case 2: f.off = NBI_UNIT_PENALTY; f.k = K_F64; break;
    case 3: {
        static const uint32_t hs[] = {8, 16, 0, 4, 32, 64, 9};
        nbi_put32(s->data + NBI_UNIT_HEADINGS, hs[nbf_below(r, 7)]);
        if (nbf_chance(r, 70))
            s->info.param[0] = nbi_get32(s->data + NBI_UNIT_HEADINGS);
        return 1;
    }
    case 4: {
        static const uint32_t ns[] = {8, 24, 48, 0, 4, 16, 80};
        nbi_put32(s->data + NBI_UNIT_NEIGHBOURHOOD, ns[nbf_below(r, 7)]);
        if (nbf_chance(r, 70))
            s->info.param[1] = nbi_get32(s->data + NBI_UNIT_NEIGHBOURHOOD);
        return 1;
    }
    case 5: f.off = NBI_UNIT_FLAGS; f.n = 1; break;
    case 6: f.off = NBI_UNIT_CAPABILITY; f.k = K_MASK; f.n = terrains(b); break;
    case 7: {
        /* a plausible unit: radius and width in range */
        nbi_putf64(s->data + NBI_UNIT_RADIUS, 0.25 * (1 + (double)nbf_below(r, 64)));
        nbi_putf64(s->data + NBI_UNIT_WIDTH, 0.125 * (1 + (double)nbf_below(r, 64)));
        return 1;
    }
    default: f.off = 40 + 8 * nbf_below(r, 3); f.k = K_U64; break;
    }
    set_field(r, b, s, &f);
    return 1;
}

/* Version 1 (navbake 0.2's layout, still read): a record per curve. */
static int mut_hitcheck_v1(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_HC_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t K = nbi_get32(p + NBI_HC_HEADINGS), N = nbi_get32(p + NBI_HC_NEIGHBOURHOOD),
             S = nbi_get32(p + NBI_HC_WINDOW), words = nbi_get32(p + NBI_HC1_WORDS),
             M = nbi_get32(p + NBI_HC1_CURVES), rec = nbi_get32(p + NBI_HC1_RECSIZE);
    size_t offs = ((size_t)2 * N + 7) / 8 * 8;
    size_t nindex = (size_t)K * K * N;
    size_t need = NBI_HC_HEADER + offs + nindex * 8;
    int fits = K <= 16 && N <= 48 && rec == NBI_HC1_RECORD_HEAD + 8 * (uint64_t)words && words && words <= 1024 &&
               s->len == need + (size_t)M * rec;
    field f = {0, K_U32, 0};
    unsigned c = (unsigned)nbf_below(r, 20);
    if (!fits || c < 3) {
        static const size_t at[] = {NBI_HC_HEADINGS, NBI_HC_NEIGHBOURHOOD, NBI_HC_WINDOW, NBI_HC1_WORDS,
                                    NBI_HC1_CURVES, NBI_HC1_RECSIZE, NBI_HC_RADIUS, NBI_HC_WIDTH};
        unsigned i = (unsigned)nbf_below(r, 8);
        f.off = at[i];
        f.k = i >= 6 ? K_F64 : K_U32;
        f.n = i == 0 ? 16 : i == 1 ? 48 : i == 2 ? NBI_HC_MAX_WINDOW : i == 3 ? words : i == 4 ? M : rec;
        set_field(r, b, s, &f);
        if (i == 4 && fits && nbf_chance(r, 50)) {
            uint32_t nm = nbi_get32(s->data + NBI_HC1_CURVES);
            if (nm < (1u << 20))
                resize(s, need + (size_t)nm * rec);
        }
        if (nbf_chance(r, 70) && s->len >= NBI_HC_HEADER) {
            s->info.param[0] = nbi_get32(s->data + NBI_HC_NEIGHBOURHOOD);
            s->info.param[1] = nbi_get32(s->data + NBI_HC_WINDOW);
        }
        return 1;
    }
    if (c < 4 && N) {
        f.off = NBI_HC_HEADER + nbf_below(r, 2 * (uint64_t)N);
        f.k = K_I8;
        f.n = 4;
    } else if (c < 10 && nindex) {
        int cnt = nbf_chance(r, 50);
        f.off = NBI_HC_HEADER + offs + 8 * nbf_below(r, nindex) + 4 * (unsigned)cnt;
        f.n = cnt ? NB_CURVE_MAX_CANDIDATES : M;
    } else if (M) {
        size_t at = need + nbf_below(r, M) * rec;
        unsigned k = (unsigned)nbf_below(r, 10);
        if (k < 5) {
            /* a bit of the bitset, the cell count following it most of the time */
            uint64_t bit = nbf_chance(r, 90) ? nbf_below(r, (uint64_t)S * S) : nbf_below(r, 64 * (uint64_t)words);
            if (bit / 8 >= 8 * (uint64_t)words)
                return 0;
            p[at + NBI_HC1_RECORD_HEAD + bit / 8] ^= (uint8_t)(1u << (bit % 8));
            if (nbf_chance(r, 85)) {
                unsigned count = 0;
                for (size_t i = 0; i < 8 * (size_t)words; i++)
                    for (unsigned v = p[at + NBI_HC1_RECORD_HEAD + i]; v; v &= v - 1)
                        count++;
                nbi_put16(p + at + NBI_HC1_R_CELLS, (uint16_t)count);
            }
            return 1;
        }
        switch (k) {
        case 5: f.off = at + NBI_HC1_R_LENGTH; f.k = K_F64; break;
        case 6: f.off = at + NBI_HC1_R_WORD; f.k = K_U8; f.n = 6; break;
        case 7: f.off = at + NBI_HC1_R_VARIANT; f.k = K_U8; f.n = 2; break;
        case 8: f.off = at + NBI_HC1_R_CELLS; f.k = K_U16; f.n = (uint64_t)S * S; break;
        default: f.off = at + 12; break;
        }
    } else {
        return 0;
    }
    set_field(r, b, s, &f);
    return 1;
}

static size_t pad8(uint64_t n) { return (size_t)((n + 7) / 8 * 8); }

/* Version 2: the first quarter of the start headings, one curve an entry
 * (or every candidate behind an index), lengths, codes and bitsets in
 * arrays of their own. */
static int mut_hitcheck(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->info.version == 1)
        return mut_hitcheck_v1(b, s, r);
    if (s->len < NBI_HC_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t K = nbi_get32(p + NBI_HC_HEADINGS), N = nbi_get32(p + NBI_HC_NEIGHBOURHOOD),
             S = nbi_get32(p + NBI_HC_WINDOW), all = nbi_get32(p + NBI_HC_FLAGS) & NBI_HC_ALL,
             E = nbi_get32(p + NBI_HC_ENTRIES), M = nbi_get32(p + NBI_HC_CURVES);
    /* The layout the counts give (formats/hitcheck.md). */
    int sane = K <= 16 && N <= 48 && S <= NBI_HC_MAX_WINDOW && E <= 16 * 16 * 48 &&
               M <= 8 * (uint64_t)E + 8;
    size_t offs = pad8(2 * (uint64_t)N), index = sane && all ? pad8(4 * ((uint64_t)E + 1)) : 0;
    size_t at_index = NBI_HC_HEADER + offs, at_len = at_index + index;
    size_t at_code = at_len + 8 * (size_t)M, at_bits = at_code + pad8(M);
    uint64_t nbits = (uint64_t)M * S * S;
    size_t need = at_bits + pad8((nbits + 7) / 8);
    int fits = sane && s->len == need;
    field f = {0, K_U32, 0};
    unsigned c = (unsigned)nbf_below(r, 20);
    if (!fits || c < 3) {
        static const size_t at[] = {NBI_HC_HEADINGS, NBI_HC_NEIGHBOURHOOD, NBI_HC_WINDOW,
                                    NBI_HC_FLAGS,    NBI_HC_ENTRIES,       NBI_HC_CURVES,
                                    NBI_HC_RADIUS,   NBI_HC_WIDTH};
        unsigned i = (unsigned)nbf_below(r, 8);
        f.off = at[i];
        f.k = i >= 6 ? K_F64 : K_U32;
        f.n = i == 0 ? 16 : i == 1 ? 48 : i == 2 ? NBI_HC_MAX_WINDOW : i == 3 ? 2 : i == 4 ? E : M;
        set_field(r, b, s, &f);
        if (i == 5 && fits && nbf_chance(r, 50)) {
            /* the arrays resized to the new count */
            uint64_t nm = nbi_get32(s->data + NBI_HC_CURVES);
            if (nm < (1u << 20))
                resize(s, at_len + 8 * nm + pad8(nm) + pad8((nm * S * S + 7) / 8));
        }
        if (nbf_chance(r, 70) && s->len >= NBI_HC_HEADER) {
            s->info.param[0] = nbi_get32(s->data + NBI_HC_NEIGHBOURHOOD);
            s->info.param[1] = nbi_get32(s->data + NBI_HC_WINDOW);
            s->info.param[2] = nbi_get32(s->data + NBI_HC_FLAGS) & NBI_HC_ALL;
        }
        return 1;
    }
    if (c < 4 && N) {
        f.off = NBI_HC_HEADER + nbf_below(r, 2 * (uint64_t)N);
        f.k = K_I8;
        f.n = 4;
    } else if (c < 7 && all) {
        /* an entry's first curve: out of order, past the end, one too many */
        f.off = at_index + 4 * nbf_below(r, (uint64_t)E + 1);
        f.n = M;
    } else if (c < 9 && M) {
        f.off = at_len + 8 * nbf_below(r, M);
        f.k = K_F64;
    } else if (c < 11 && M) {
        /* a code: word (0 to 5), variant bit, unknown bits */
        f.off = at_code + nbf_below(r, M);
        f.k = K_U8;
        f.n = 16;
    } else if (nbits) {
        /* a bit of a bitset, now and then one of the padding after them */
        uint64_t bit = nbf_chance(r, 95) ? nbf_below(r, nbits)
                                         : nbf_below(r, 8 * (uint64_t)(need - at_bits));
        p[at_bits + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        return 1;
    } else {
        return 0;
    }
    set_field(r, b, s, &f);
    return 1;
}

static int mut_curves(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_CT_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t D = nbi_get32(p + NBI_CT_DISTANCE), st = nbi_get32(p + NBI_CT_STEPS),
             an = nbi_get32(p + NBI_CT_ANGLES), cols = nbi_get32(p + NBI_CT_COLS);
    size_t rows = (size_t)D * st;
    int fits = D <= 256 && st <= 1024 && cols <= 1024 && s->len == NBI_CT_HEADER + (rows + 1) * cols * 2;
    field f = {0, K_U32, 0};
    if (!fits || nbf_chance(r, 30)) {
        unsigned i = (unsigned)nbf_below(r, 6);
        static const size_t at[] = {NBI_CT_DISTANCE, NBI_CT_STEPS, NBI_CT_ANGLES, NBI_CT_COLS, NBI_CT_RADIUS, 24};
        f.off = at[i];
        f.k = i == 4 ? K_F64 : i == 5 ? K_U64 : K_U32;
        f.n = i == 0 ? 256 : i == 1 ? 1024 : i == 2 ? an : cols;
        set_field(r, b, s, &f);
        if (i < 4 && nbf_chance(r, 50)) {
            uint32_t nd = nbi_get32(s->data), ns = nbi_get32(s->data + 4), na = nbi_get32(s->data + 8);
            uint32_t nc = nbi_get32(s->data + 12);
            if (i != 3 && na % 2 == 0 && na <= 1024) {
                nc = na / 2 + 1;
                nbi_put32(s->data + NBI_CT_COLS, nc);
            }
            if ((uint64_t)nd * ns * nc < (1u << 22))
                resize(s, NBI_CT_HEADER + ((size_t)nd * ns + 1) * nc * 2);
        }
        if (nbf_chance(r, 70) && s->len >= 12)
            for (int k = 0; k < 3; k++)
                s->info.param[k] = nbi_get32(s->data + 4 * k);
        return 1;
    }
    if ((rows + 1) * cols == 0)
        return 0;
    f.off = NBI_CT_HEADER + 2 * nbf_below(r, (rows + 1) * cols);
    f.k = K_U16;
    f.n = 65535;
    set_field(r, b, s, &f);
    return 1;
}

/* ---------------------------------------------------------------- forests */

static int mut_forest(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_FOREST_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t n = nbi_get32(p + NBI_FOREST_COUNT);
    int fits = n <= NB_FOREST_MAX_CIRCLES && s->len == NBI_FOREST_HEADER + (size_t)n * NBI_FOREST_CIRCLE;
    field f = {0, K_U32, 0};
    unsigned c = (unsigned)nbf_below(r, 10);
    if (!fits || c == 0) {
        unsigned i = (unsigned)nbf_below(r, 6);
        f.off = i == 0 ? NBI_FOREST_COUNT : i == 1 ? NBI_FOREST_FLAGS : NBI_FOREST_BOUNDS + 8 * (size_t)(i - 2);
        f.k = i < 2 ? K_U32 : K_F64;
        f.n = i == 0 ? n : 1;
        set_field(r, b, s, &f);
        uint32_t nn = nbi_get32(s->data);
        if (i == 0 && nbf_chance(r, 60) && nn < 4096) {
            size_t had = s->len;
            resize(s, NBI_FOREST_HEADER + (size_t)nn * NBI_FOREST_CIRCLE);
            for (size_t at = had; at + NBI_FOREST_CIRCLE <= s->len; at += NBI_FOREST_CIRCLE) {
                nbi_putf64(s->data + at, (double)nbf_below(r, 100));
                nbi_putf64(s->data + at + 8, (double)nbf_below(r, 60));
                nbi_putf64(s->data + at + 16, 0.5 + (double)nbf_below(r, 8));
            }
        }
        if (nbf_chance(r, 70))
            s->info.param[0] = nbi_get32(s->data);
        return 1;
    }
    if (n == 0)
        return 0;
    size_t ci = NBI_FOREST_HEADER + nbf_below(r, n) * NBI_FOREST_CIRCLE;
    if (c < 6) {
        f.off = ci + 8 * nbf_below(r, 3);
        f.k = K_F64;
        set_field(r, b, s, &f);
        return 1;
    }
    /* onto another circle: the same, tangent from outside or inside, nested, concentric */
    size_t cj = NBI_FOREST_HEADER + nbf_below(r, n) * NBI_FOREST_CIRCLE;
    double x = nbi_getf64(p + cj), y = nbi_getf64(p + cj + 8), rr = nbi_getf64(p + cj + 16);
    double ri = nbi_getf64(p + ci + 16);
    double ang = (double)nbf_below(r, 16) * (M_PI / 8);
    switch (nbf_below(r, 5)) {
    case 0: ri = rr; break;
    case 1: x += (rr + ri) * cos(ang); y += (rr + ri) * sin(ang); break;
    case 2: x += (rr - ri) * cos(ang); y += (rr - ri) * sin(ang); break;
    case 3: ri = rr / 2; break;
    default: x += (rr + ri) * (1 + 1e-12); break;
    }
    nbi_putf64(p + ci, x);
    nbi_putf64(p + ci + 8, y);
    nbi_putf64(p + ci + 16, ri);
    return 1;
}

static int mut_bitangent(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_BITANGENT_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t n = nbi_get32(p + NBI_BT_CIRCLES), m = nbi_get32(p + NBI_BT_NODES), fa = nbi_get32(p + NBI_BT_ARCS);
    size_t nodes = NBI_BITANGENT_HEADER, arcs = nodes + (size_t)m * NBI_BITANGENT_NODE;
    size_t first = arcs + (size_t)fa * NBI_BITANGENT_ARC, afirst = first + 4 * ((size_t)n + 1);
    int fits = n < (1u << 20) && m < (1u << 24) && fa < (1u << 24) && s->len == afirst + 4 * ((size_t)n + 1);
    field f = {0, K_U32, 0};
    unsigned wt[8] = {10, 20, 8, 8, 6, 6, 10, 8}; /* header, node field, partner, circle|sense,
                                                   free arc, first tables, re-pair, slide */
    if (!fits || m == 0)
        memset(wt + 1, 0, sizeof wt - sizeof wt[0]);
    if (fa == 0)
        wt[4] = 0;
    switch (pick_weighted(r, wt, 8)) {
    case 0: {
        static const size_t at[] = {NBI_BT_RADIUS, NBI_BT_CIRCLES, NBI_BT_NODES, NBI_BT_ARCS,
                                    NBI_BT_FOREST_CRC, NBI_BT_CANDIDATES, 28, NBI_BT_HUGGING};
        unsigned i = (unsigned)nbf_below(r, 8);
        f.off = at[i];
        f.k = i == 0 ? K_F64 : i == 7 ? K_U64 : K_U32;
        f.n = i == 1 ? n : i == 2 ? m : i == 3 ? fa : i == 5 ? m / 2 : 0;
        set_field(r, b, s, &f);
        if (nbf_chance(r, 70)) {
            s->info.param[1] = nbi_get32(s->data + NBI_BT_NODES);
            s->info.param[2] = nbi_get32(s->data + NBI_BT_NODES) / 2;
            s->info.param[3] = nbi_get32(s->data + NBI_BT_CANDIDATES);
        }
        return 1;
    }
    case 1: {
        size_t at = nodes + nbf_below(r, m) * NBI_BITANGENT_NODE;
        f.off = at + 8 * nbf_below(r, 3);
        f.k = K_F64;
        break;
    }
    case 2: f.off = nodes + nbf_below(r, m) * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER; f.n = m; break;
    case 3: f.off = nodes + nbf_below(r, m) * NBI_BITANGENT_NODE + NBI_BT_N_CIRCLE; f.n = 2 * (uint64_t)n; break;
    case 4: {
        size_t at = arcs + nbf_below(r, fa) * NBI_BITANGENT_ARC + 8 * nbf_below(r, 2);
        if (nbf_chance(r, 40)) {
            static const double sp[] = {NBI_WHOLE_SPAN, 2 * M_PI, 0, M_PI, 2 * M_PI - 1e-12, 6.2831853071795872};
            nbi_putf64(p + at, sp[nbf_below(r, 6)]);
            return 1;
        }
        f.off = at;
        f.k = K_F64;
        break;
    }
    case 5:
        f.off = (nbf_chance(r, 50) ? first : afirst) + 4 * nbf_below(r, (uint64_t)n + 1);
        f.n = f.off >= afirst ? fa : m;
        break;
    case 6: { /* two bitangents exchange ends: a-b, c-d become a-c, b-d (or a-d, b-c) */
        uint32_t a = (uint32_t)nbf_below(r, m), c = (uint32_t)nbf_below(r, m);
        uint32_t pa = nbi_get32(p + nodes + (size_t)a * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER);
        uint32_t pc = nbi_get32(p + nodes + (size_t)c * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER);
        if (pa >= m || pc >= m || a == c || pa == c)
            return 0;
        nbi_put32(p + nodes + (size_t)a * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER, c);
        nbi_put32(p + nodes + (size_t)c * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER, a);
        nbi_put32(p + nodes + (size_t)pa * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER, pc);
        nbi_put32(p + nodes + (size_t)pc * NBI_BITANGENT_NODE + NBI_BT_N_PARTNER, pa);
        return 1;
    }
    default: { /* a node slid along its circle (x, y and angle kept together) */
        size_t at = nodes + nbf_below(r, m) * NBI_BITANGENT_NODE;
        double x = nbi_getf64(p + at), y = nbi_getf64(p + at + 8), a = nbi_getf64(p + at + 16);
        double cx = x - cos(a), cy = y - sin(a); /* the centre, were the radius 1 */
        nbf_section *fs = find(b, NB_SEC_FOREST);
        uint32_t ci = nbi_get32(p + at + NBI_BT_N_CIRCLE) >> 1;
        double rad = 1, agent = nbi_getf64(p + NBI_BT_RADIUS);
        if (fs && fs->len >= NBI_FOREST_HEADER + ((size_t)ci + 1) * NBI_FOREST_CIRCLE) {
            const uint8_t *c = fs->data + NBI_FOREST_HEADER + (size_t)ci * NBI_FOREST_CIRCLE;
            cx = nbi_getf64(c);
            cy = nbi_getf64(c + 8);
            rad = nbi_getf64(c + 16) + agent;
        }
        double na = nbf_chance(r, 50) ? a + ((double)nbf_below(r, 9) - 4) * 0.05
                                      : -M_PI + (double)nbf_below(r, 64) * (M_PI / 32);
        if (na > M_PI)
            na -= 2 * M_PI;
        if (na < -M_PI)
            na += 2 * M_PI;
        nbi_putf64(p + at, cx + rad * cos(na));
        nbi_putf64(p + at + 8, cy + rad * sin(na));
        nbi_putf64(p + at + 16, na);
        return 1;
    }
    }
    set_field(r, b, s, &f);
    return 1;
}

/* ---------------------------------------------------------------- subgoal layers */

static void sync_subgoal_params(nbf_section *s)
{
    if (s->len < NBI_SG_HEADER)
        return;
    s->info.param[0] = nbi_get32(s->data + 4 * NBI_SG_CAPABILITY);
    s->info.param[1] = nbi_get32(s->data + 4 * NBI_SG_SIZE);
    s->info.param[2] = nbi_get32(s->data + 4 * NBI_SG_CORNER);
    s->info.param[3] = nbi_get32(s->data + 4 * NBI_SG_NODES);
    s->info.param[4] = nbi_get32(s->data + 4 * NBI_SG_EDGES);
}

static int mut_subgoal(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_SG_HEADER)
        return 0;
    uint8_t *p = s->data;
    uint32_t w = nbi_get32(p + 4 * NBI_SG_WIDTH), h = nbi_get32(p + 4 * NBI_SG_HEIGHT);
    uint32_t V = nbi_get32(p + 4 * NBI_SG_NODES), E = nbi_get32(p + 4 * NBI_SG_EDGES);
    nbi_sg_layout lay;
    int fits = w <= (1u << 16) && h <= (1u << 16) && nbi_sg_layout_of(w, h, V, E, &lay) &&
               lay.total == s->len;
    /* header, free rows, subgoal rows, pass columns, ranks, node cells,
     * levels, first edges, edge targets, mids, step counts, a subgoal
     * moved in both bitmaps with its rank kept, an edge sent to another
     * node of a higher level */
    unsigned wt[13] = {14, 6, 8, 4, 6, 8, 8, 8, 10, 8, 8, 6, 8};
    if (!fits || V == 0 || E == 0)
        memset(wt + 1, 0, sizeof wt - sizeof wt[0]);
    size_t region = pick_weighted(r, wt, 13);
    uint32_t rw = (w + 63) / 64, cw = (h + 63) / 64;
    field f = {0, K_U32, 0};
    switch (region) {
    case 0: {
        unsigned i = (unsigned)nbf_below(r, NBI_SG_HEADER / 4);
        uint32_t mw, mh;
        map_size(b, &mw, &mh);
        static const uint64_t refs[NBI_SG_HEADER / 4] = {0, 0, 16, NB_MAX_AGENT_SIZE, 2};
        f.off = 4 * i;
        f.n = i == NBI_SG_WIDTH ? mw : i == NBI_SG_HEIGHT ? mh : i == NBI_SG_ROW_WORDS ? rw
              : i == NBI_SG_COL_WORDS ? cw : i == NBI_SG_NODES ? V
              : i == NBI_SG_EDGES || i == NBI_SG_ORIGINAL ? E : refs[i];
        if (i == NBI_SG_CAPABILITY) {
            f.k = K_MASK;
            f.n = terrains(b);
        }
        set_field(r, b, s, &f);
        nbi_sg_layout nl;
        uint32_t nw = nbi_get32(p + 4 * NBI_SG_WIDTH), nh = nbi_get32(p + 4 * NBI_SG_HEIGHT);
        if (nbf_chance(r, 50) && nw <= 4096 && nh <= 4096 &&
            nbi_sg_layout_of(nw, nh, nbi_get32(p + 4 * NBI_SG_NODES),
                             nbi_get32(p + 4 * NBI_SG_EDGES), &nl) && nl.total <= (16u << 20))
            resize(s, (size_t)nl.total);
        if (nbf_chance(r, 70))
            sync_subgoal_params(s);
        return 1;
    }
    case 1: f.off = lay.free_rows + 8 * nbf_below(r, (uint64_t)h * rw); f.k = K_U64; break;
    case 2: f.off = lay.sub_rows + 8 * nbf_below(r, (uint64_t)h * rw); f.k = K_U64; break;
    case 3: f.off = lay.pass_cols + 8 * nbf_below(r, (uint64_t)w * cw); f.k = K_U64; break;
    case 4: f.off = lay.rank + 4 * nbf_below(r, (uint64_t)h * rw); f.n = V; break;
    case 5: f.off = lay.cells + 4 * nbf_below(r, V); f.n = (uint64_t)w * h; break;
    case 6: f.off = lay.level + 4 * nbf_below(r, V); f.n = V; break;
    case 7: f.off = lay.first + 4 * nbf_below(r, (uint64_t)V + 1); f.n = E; break;
    case 8: f.off = lay.edges + NBI_SG_EDGE_RECORD * nbf_below(r, E) + NBI_SG_E_TARGET; f.n = V; break;
    case 9: f.off = lay.edges + NBI_SG_EDGE_RECORD * nbf_below(r, E) + NBI_SG_E_MID; f.n = V; break;
    case 10:
        f.off = lay.edges + NBI_SG_EDGE_RECORD * nbf_below(r, E) +
                (nbf_chance(r, 50) ? NBI_SG_E_CARDINAL : NBI_SG_E_DIAGONAL);
        f.n = w > h ? w : h;
        break;
    case 11: { /* a free cell's bit set in the subgoal rows, a subgoal's cleared */
        uint64_t k = nbf_below(r, (uint64_t)h * rw);
        uint64_t fw = nbi_get64(p + lay.free_rows + 8 * k), sw = nbi_get64(p + lay.sub_rows + 8 * k);
        if (!fw)
            return 0;
        unsigned bit = (unsigned)nbf_below(r, 64);
        if (!((fw >> bit) & 1u))
            return 0;
        nbi_put64(p + lay.sub_rows + 8 * k, sw ^ ((uint64_t)1 << bit));
        return 1;
    }
    case 12: { /* an edge to another node of a higher level */
        uint32_t e = (uint32_t)nbf_below(r, E), v = (uint32_t)nbf_below(r, V);
        nbi_put32(p + lay.edges + NBI_SG_EDGE_RECORD * (uint64_t)e + NBI_SG_E_TARGET, v);
        return 1;
    }
    default: return 0;
    }
    set_field(r, b, s, &f);
    return 1;
}

/* ---------------------------------------------------------------- whole sections */

static const uint32_t known_types[] = {NB_SEC_LEGEND,     NB_SEC_AGENTS,   NB_SEC_MAP,
                                       NB_SEC_CLEARANCE,  NB_SEC_COMPONENTS, NB_SEC_ABSTRACT,
                                       NB_SEC_MODEL,      NB_SEC_PERIMETER, NB_SEC_UNIT,
                                       NB_SEC_HITCHECK,   NB_SEC_CURVES,   NB_SEC_FOREST,
                                       NB_SEC_BITANGENT,  NB_SEC_SUBGOAL, NB_SEC_ABSTRACT_COSTS,
                                       NB_SEC_ABSTRACT_LEVELS};
#define NKNOWN (sizeof known_types / sizeof known_types[0])

static unsigned type_weight(uint32_t type)
{
    switch (type) {
    case NB_SEC_LEGEND: return 3;
    case NB_SEC_AGENTS: return 4;
    case NB_SEC_MAP: return 5;
    case NB_SEC_CLEARANCE: return 9;
    case NB_SEC_COMPONENTS: return 8;
    case NB_SEC_ABSTRACT: return 18;
    case NB_SEC_MODEL: return 6;
    case NB_SEC_PERIMETER: return 9;
    case NB_SEC_UNIT: return 6;
    case NB_SEC_HITCHECK: return 10;
    case NB_SEC_CURVES: return 6;
    case NB_SEC_FOREST: return 8;
    case NB_SEC_BITANGENT: return 12;
    case NB_SEC_SUBGOAL: return 12;
    case NB_SEC_ABSTRACT_COSTS: return 8;
    case NB_SEC_ABSTRACT_LEVELS: return 14;
    }
    return 1;
}

static int mut_payload(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    if (s->opaque) {
        set_any(r, s);
        return 1;
    }
    int done = 0;
    switch (s->info.type) {
    case NB_SEC_LEGEND: done = mut_legend(b, s, r); break;
    case NB_SEC_AGENTS: done = mut_agents(b, s, r); break;
    case NB_SEC_MAP: done = mut_map(b, s, r); break;
    case NB_SEC_CLEARANCE:
    case NB_SEC_COMPONENTS: done = mut_layer(b, s, r); break;
    case NB_SEC_ABSTRACT: done = mut_abstract(b, s, r); break;
    case NB_SEC_MODEL: done = mut_model(b, s, r); break;
    case NB_SEC_PERIMETER: done = mut_perimeter(b, s, r); break;
    case NB_SEC_UNIT: done = mut_unit(b, s, r); break;
    case NB_SEC_HITCHECK: done = mut_hitcheck(b, s, r); break;
    case NB_SEC_CURVES: done = mut_curves(b, s, r); break;
    case NB_SEC_FOREST: done = mut_forest(b, s, r); break;
    case NB_SEC_BITANGENT: done = mut_bitangent(b, s, r); break;
    case NB_SEC_SUBGOAL: done = mut_subgoal(b, s, r); break;
    case NB_SEC_ABSTRACT_COSTS: done = mut_acosts(b, s, r); break;
    case NB_SEC_ABSTRACT_LEVELS: done = nbf_mut_levels(b, s, r); break;
    }
    if (!done)
        set_any(r, s);
    return 1;
}

static void mut_info(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    nb_section_info *in = &s->info;
    switch (nbf_below(r, 8)) {
    case 0: {
        static const uint32_t odd[] = {0, 4, 15, 18, 33, 50, 67, 82, 999, 0xffffffffu};
        in->type = nbf_chance(r, 70) ? known_types[nbf_below(r, NKNOWN)] : odd[nbf_below(r, 10)];
        break;
    }
    case 1: {
        static const uint16_t v[] = {0, 2, 0xffff, 1};
        in->version = v[nbf_below(r, 4)];
        break;
    }
    case 2: {
        static const uint16_t e[] = {NB_ENC_RAW, NB_ENC_PACKED, 0x0002, 0x0200, 0x00ff, 0xffff};
        uint16_t enc = e[nbf_below(r, 6)];
        if (!s->opaque)
            enc = (uint16_t)(enc | (in->encoding & NB_ENC_ZLIB && nbf_chance(r, 70) ? NB_ENC_ZLIB : 0));
        in->encoding = enc;
        break;
    }
    case 3: in->flags = (uint32_t)pick_int(r, in->flags, 1, 32); break;
    case 4:
    case 5:
    case 6: {
        unsigned k = (unsigned)nbf_below(r, NB_SECTION_PARAMS);
        in->param[k] = (uint32_t)pick_int(r, in->param[k], in->param[k], 32);
        break;
    }
    default: {
        uint8_t name[NB_NAME_MAX + 1];
        memcpy(name, in->name, sizeof name);
        pick_name(r, b, name, NB_NAME_MAX);
        memcpy(in->name, name, NB_NAME_MAX);
        in->name[NB_NAME_MAX] = '\0';
        break;
    }
    }
}

/* Bytes inserted at or deleted from a point of the payload. */
static void mut_resize(nbf_section *s, nbf_rng *r, size_t room)
{
    static const size_t amounts[] = {1, 2, 4, 8, 16, 24, 32, 48, 64, 128};
    size_t k = amounts[nbf_below(r, 10)];
    size_t at = nbf_chance(r, 40) ? s->len : nbf_below(r, s->len + 1) / 4 * 4;
    if (at > s->len)
        at = s->len;
    if (nbf_chance(r, 50) && k <= room) {
        size_t old = s->len;
        if (!resize(s, s->len + k))
            return;
        memmove(s->data + at + k, s->data + at, old - at);
        for (size_t i = 0; i < k; i++)
            s->data[at + i] = nbf_chance(r, 70) ? 0 : (uint8_t)nbf_below(r, 256);
    } else {
        if (at == s->len)
            at = s->len >= k ? s->len - k : 0;
        if (k > s->len - at)
            k = s->len - at;
        memmove(s->data + at, s->data + at + k, s->len - at - k);
        s->len -= k;
    }
}

/* libFuzzer's byte mutator on at most 64 bytes of the payload. */
static void mut_bytes(nbf_section *s, nbf_rng *r, nbf_bytes_fn bytes, size_t room)
{
    if (!bytes || s->len == 0)
        return;
    size_t at = nbf_below(r, s->len), n = 1 + nbf_below(r, 64);
    if (n > s->len - at)
        n = s->len - at;
    size_t grow = room < 32 ? room : 32;
    uint8_t *buf = malloc(n + grow);
    if (!buf)
        return;
    memcpy(buf, s->data + at, n);
    size_t m = bytes(buf, n, n + grow);
    if (m > n + grow)
        m = n + grow;
    size_t old = s->len;
    if (m > n) {
        if (!resize(s, old + (m - n))) {
            free(buf);
            return;
        }
        memmove(s->data + at + m, s->data + at + n, old - at - n);
    } else if (m < n) {
        memmove(s->data + at + m, s->data + at + n, old - at - n);
        s->len = old - (n - m);
    }
    memcpy(s->data + at, buf, m);
    free(buf);
}

/* The map and every layer (and the abstract graph's header) cropped or
 * extended to another size together: a level that is consistent in its
 * sizes, with cells nobody computed. */
static void mut_level_size(nbf_bundle *b, nbf_rng *r)
{
    nbf_section *m = find(b, NB_SEC_MAP);
    if (!m || m->len < NBI_MAP_HEADER)
        return;
    uint32_t w = nbi_get32(m->data), h = nbi_get32(m->data + 4);
    if (!w || !h || w > 1024 || h > 1024 || m->len != NBI_MAP_HEADER + (size_t)w * h)
        return;
    uint32_t nw = w, nh = h;
    switch (nbf_below(r, 4)) {
    case 0: nw = 1 + (uint32_t)nbf_below(r, w + 8); break;
    case 1: nh = 1 + (uint32_t)nbf_below(r, h + 8); break;
    case 2: nw = 1; nh = 1 + (uint32_t)nbf_below(r, 4); break;
    default: nw = w + 1; nh = h + 1; break;
    }
    relay_cells(m, NBI_MAP_HEADER, 8, nw, nh, pick_char(r, b), 0);
    for (size_t i = 0; i < b->n; i++) {
        nbf_section *s = &b->s[i];
        if (s->opaque)
            continue;
        if ((s->info.type == NB_SEC_CLEARANCE || s->info.type == NB_SEC_COMPONENTS) &&
            s->len >= NBI_LAYER_HEADER) {
            uint32_t bits = nbi_get32(s->data + NBI_LAYER_BITS), lw = nbi_get32(s->data), lh = nbi_get32(s->data + 4);
            if (bits >= 1 && bits <= 32 && s->len == layer_len(lw, lh, bits))
                relay_cells(s, NBI_LAYER_HEADER, bits, nw, nh, (uint32_t)nbf_below(r, 2), NBI_LAYER_TAIL);
        } else if (s->info.type == NB_SEC_ABSTRACT && s->len >= NBI_ABSTRACT_HEADER) {
            nbi_put32(s->data + 4 * NBI_AB_WIDTH, nw);
            nbi_put32(s->data + 4 * NBI_AB_HEIGHT, nh);
        } else if (s->info.type == NB_SEC_SUBGOAL && s->len >= NBI_SG_HEADER) {
            /* the header follows; the bitmaps no longer fit, which the
             * reader must say */
            nbi_put32(s->data + 4 * NBI_SG_WIDTH, nw);
            nbi_put32(s->data + 4 * NBI_SG_HEIGHT, nh);
        }
    }
}

static size_t total_len(const nbf_bundle *b)
{
    size_t t = NBI_HEADER_SIZE + b->n * NBI_ENTRY_SIZE;
    for (size_t i = 0; i < b->n; i++)
        t += b->s[i].len + NBI_ALIGN;
    return t;
}

static void one_mutation(nbf_bundle *b, nbf_rng *r, nbf_bytes_fn bytes, size_t max_size)
{
    size_t have = total_len(b), room = max_size > have ? max_size - have : 0;
    if (b->n == 0) {
        nbf_section s;
        memset(&s, 0, sizeof s);
        s.info.type = known_types[nbf_below(r, NKNOWN)];
        s.info.version = 1;
        uint8_t zero[64] = {0};
        s.data = zero;
        s.len = nbf_below(r, 65);
        nbf_add(b, &s);
        return;
    }
    unsigned w[MAX_SECTIONS];
    for (size_t i = 0; i < b->n; i++)
        w[i] = type_weight(b->s[i].info.type);
    size_t i = pick_weighted(r, w, b->n);
    nbf_section *s = &b->s[i];
    /* payload by layout, bytes, resize, entry, duplicate, remove, zlib, new section, level size */
    static const unsigned ops[9] = {64, 7, 5, 10, 4, 3, 3, 1, 2};
    switch (pick_weighted(r, ops, 9)) {
    case 0: mut_payload(b, s, r); break;
    case 1: mut_bytes(s, r, bytes, room); break;
    case 2: mut_resize(s, r, room); break;
    case 3: mut_info(b, s, r); break;
    case 4:
        if (s->len + NBI_ALIGN + NBI_ENTRY_SIZE <= room && nbf_add(b, s) && nbf_chance(r, 60)) {
            nbf_section *d = &b->s[b->n - 1];
            if (nbf_chance(r, 50))
                d->info.param[nbf_below(r, 4)] ^= 1u << nbf_below(r, 4);
            else
                mut_info(b, d, r);
        }
        break;
    case 5: nbf_remove(b, i); break;
    case 6:
        if (!s->opaque)
            s->info.encoding ^= NB_ENC_ZLIB;
        break;
    case 7: {
        nbf_section n;
        memset(&n, 0, sizeof n);
        n.info.type = nbf_chance(r, 80) ? known_types[nbf_below(r, NKNOWN)] : 200 + (uint32_t)nbf_below(r, 50);
        n.info.version = 1;
        uint8_t zero[64] = {0};
        n.data = zero;
        n.len = nbf_below(r, 65);
        nbf_add(b, &n);
        break;
    }
    default: mut_level_size(b, r); break;
    }
}

void nbf_mutate(nbf_bundle *b, nbf_rng *r, nbf_bytes_fn bytes, size_t max_size)
{
    unsigned k = nbf_chance(r, 70) ? 1 : 2 + (unsigned)nbf_below(r, 3);
    while (k--)
        one_mutation(b, r, bytes, max_size);
}

static int key_cmp(const void *a, const void *b)
{
    return nbi_section_key_cmp(&((const nbf_section *)a)->info, &((const nbf_section *)b)->info);
}

void nbf_fix(nbf_bundle *b, nbf_rng *r)
{
    nbf_section *forest = find(b, NB_SEC_FOREST);
    for (size_t i = 0; i < b->n; i++) {
        nbf_section *s = &b->s[i];
        if (s->opaque)
            continue;
        if (s->info.type == NB_SEC_PERIMETER && s->len >= NBI_PERIM_HEADER && nbf_chance(r, 92)) {
            for (size_t k = 0; k < b->n; k++)
                if (b->s[k].info.type == NB_SEC_MODEL && !b->s[k].opaque &&
                    strcmp(b->s[k].info.name, s->info.name) == 0) {
                    nbi_put32(s->data + NBI_PERIM_CRC, (uint32_t)crc32(0, b->s[k].data, (uInt)b->s[k].len));
                    break;
                }
        }
        /* Costs name their graph by its CRC: kept right, mostly, so that a mutated graph
         * meets its costs' checks. */
        nbf_section *graph = find(b, NB_SEC_ABSTRACT);
        if (s->info.type == NB_SEC_ABSTRACT_COSTS && s->len >= NBI_ACOSTS_HEADER && graph &&
            !graph->opaque && nbf_chance(r, 92)) {
            uint32_t crc = (uint32_t)crc32(0, graph->data, (uInt)graph->len);
            nbi_put32(s->data + 4 * NBI_AC_GRAPH_CRC, crc);
            s->info.param[3] = crc;
        }
        /* So do the levels above it. */
        if (s->info.type == NB_SEC_ABSTRACT_LEVELS && s->len >= NBI_ALEVELS_HEADER && graph &&
            !graph->opaque && nbf_chance(r, 92)) {
            nbi_put32(s->data + 4 * NBI_AL_GRAPH_CRC, (uint32_t)crc32(0, graph->data, (uInt)graph->len));
            nbf_sync_levels_params(s);
        }
        if (s->info.type == NB_SEC_BITANGENT && s->len >= NBI_BITANGENT_HEADER && forest && nbf_chance(r, 92))
            nbi_put32(s->data + NBI_BT_FOREST_CRC, (uint32_t)crc32(0, forest->data, (uInt)forest->len));
    }
    /* Insertion sort: stable, and the table is nearly sorted already. */
    if (nbf_chance(r, 92))
        for (size_t i = 1; i < b->n; i++)
            for (size_t j = i; j > 0 && key_cmp(&b->s[j - 1], &b->s[j]) > 0; j--) {
                nbf_section t = b->s[j];
                b->s[j] = b->s[j - 1];
                b->s[j - 1] = t;
            }
}

/* ---------------------------------------------------------------- writing */

static void head_crcs(uint8_t *out, uint32_t count, uint32_t esize, uint64_t table, size_t size)
{
    uint64_t tlen = (uint64_t)count * esize;
    if (table <= size && tlen <= size - table)
        nbi_put32(out + NBI_HDR_TABLE_CRC, (uint32_t)crc32(0, out + table, (uInt)tlen));
    nbi_put32(out + NBI_HDR_CRC, (uint32_t)crc32(0, out, NBI_HDR_CRC));
}

/* Zeroes every byte that the header, the table and the sections (as the
 * table now places them) do not cover: moving a section must not leave
 * its old bytes as padding, which verify would take for damage. */
static void zero_gaps(uint8_t *out, size_t size)
{
    uint64_t table = nbi_get64(out + NBI_HDR_TABLE), esize = nbi_get32(out + NBI_HDR_ENTRY_SIZE);
    uint64_t count = nbi_get32(out + NBI_HDR_COUNT);
    if (table > size || esize < NBI_ENTRY_SIZE || esize > NBI_ENTRY_MAX_SIZE || count * esize > size - table)
        return;
    uint8_t *keep = calloc(size ? size : 1, 1);
    if (!keep)
        return;
    memset(keep, 1, NBI_HEADER_SIZE);
    memset(keep + table, 1, (size_t)(count * esize));
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *e = out + table + i * esize;
        uint64_t off = nbi_get64(e + NBI_ENT_OFFSET), sz = nbi_get64(e + NBI_ENT_SIZE);
        if (off <= size && sz <= size - off)
            memset(keep + off, 1, (size_t)sz);
    }
    for (size_t i = 0; i < size; i++)
        if (!keep[i])
            out[i] = 0;
    free(keep);
}

/* A header or table field changed after the layout. */
static size_t mut_head(uint8_t *out, size_t size, size_t max_size, size_t n, nbf_rng *r)
{
    uint32_t count = (uint32_t)n;
    switch (nbf_below(r, 10)) {
    case 0:
    case 1:
    case 2:
    case 3: {
        if (!n)
            break;
        uint8_t *e = out + NBI_HEADER_SIZE + nbf_below(r, n) * NBI_ENTRY_SIZE;
        uint64_t off = nbi_get64(e + NBI_ENT_OFFSET), sz = nbi_get64(e + NBI_ENT_SIZE);
        switch (nbf_below(r, 6)) {
        case 0: nbi_put64(e + NBI_ENT_OFFSET, pick_int(r, off, size, 64) & ~(uint64_t)(nbf_chance(r, 70) ? 63 : 0)); break;
        case 1: nbi_put64(e + NBI_ENT_SIZE, pick_int(r, sz, sz, 64)); break;
        case 2: nbi_put64(e + NBI_ENT_USIZE, nbf_chance(r, 50) ? sz * NBI_MAX_INFLATE_RATIO + 4097 : pick_int(r, sz, sz, 64)); break;
        case 3: memset(e + NBI_ENT_NAME, 'N', NBI_ENT_NAME_SIZE); break;
        case 4: e[104 + nbf_below(r, 24)] = (uint8_t)(1 + nbf_below(r, 255)); break;
        default: nbi_put16(e + NBI_ENT_ENCODING, (uint16_t)pick_int(r, nbi_get16(e + NBI_ENT_ENCODING), 0x101, 16)); break;
        }
        off = nbi_get64(e + NBI_ENT_OFFSET);
        sz = nbi_get64(e + NBI_ENT_SIZE);
        if (off <= size && sz <= size - off && sz <= UINT32_MAX)
            nbi_put32(e + NBI_ENT_CRC, (uint32_t)crc32(0, out + off, (uInt)sz));
        break;
    }
    case 4: count = (uint32_t)pick_int(r, count, count, 32); nbi_put32(out + NBI_HDR_COUNT, count); break;
    case 5: nbi_put16(out + NBI_HDR_MINOR, (uint16_t)pick_int(r, 0, 1, 16)); break;
    case 6: nbi_put16(out + NBI_HDR_MAJOR, (uint16_t)pick_int(r, 1, 1, 16)); break;
    case 7: nbi_put32(out + NBI_HDR_FLAGS, (uint32_t)pick_int(r, 0, 1, 32)); break;
    case 8: {
        /* trailing zero bytes, the header's size following */
        size_t k = NBI_ALIGN * (1 + nbf_below(r, 2));
        if (size + k <= max_size) {
            memset(out + size, 0, k);
            size += k;
            nbi_put64(out + NBI_HDR_FILE_SIZE, size);
        }
        break;
    }
    default: {
        static const size_t at[] = {NBI_HDR_HEADER_SIZE, NBI_HDR_ENTRY_SIZE, NBI_HDR_TABLE, NBI_HDR_FILE_SIZE, 28, 52};
        size_t i = nbf_below(r, 6);
        if (i == 2 || i == 3 || i == 5)
            nbi_put64(out + at[i], pick_int(r, nbi_get64(out + at[i]), size, 64));
        else
            nbi_put32(out + at[i], (uint32_t)pick_int(r, nbi_get32(out + at[i]), NBI_ENTRY_SIZE, 32));
        break;
    }
    }
    zero_gaps(out, size);
    uint32_t esize = nbi_get32(out + NBI_HDR_ENTRY_SIZE);
    head_crcs(out, nbi_get32(out + NBI_HDR_COUNT), esize, nbi_get64(out + NBI_HDR_TABLE), size);
    (void)count;
    return size;
}

size_t nbf_write(const nbf_bundle *b, nbf_rng *r, uint8_t *out, size_t max_size)
{
    size_t n = b->n;
    nb_section_info *info = calloc(n ? n : 1, sizeof *info);
    uint8_t **stored = calloc(n ? n : 1, sizeof *stored);
    uint8_t **owned = calloc(n ? n : 1, sizeof *owned);
    size_t result = 0;
    if (!info || !stored || !owned)
        goto done;
    for (size_t i = 0; i < n; i++)
        if (!(stored[i] = nbf_stored(&b->s[i], &info[i], &owned[i])))
            goto done;
    uint64_t size = nbi_layout_offsets(info, n);
    if (size > max_size)
        goto done;
    memset(out, 0, (size_t)size);
    nbi_layout_head(info, n, b->major, b->minor, b->flags, size, out);
    for (size_t i = 0; i < n; i++)
        if (info[i].size)
            memcpy(out + info[i].offset, stored[i], (size_t)info[i].size);
    result = (size_t)size;
    if (r && nbf_chance(r, 5))
        result = mut_head(out, result, max_size, n, r);
done:
    for (size_t i = 0; owned && i < n; i++)
        free(owned[i]);
    free(owned);
    free(stored);
    free(info);
    return result;
}

/* ---------------------------------------------------------------- the mutators */

size_t nbf_mutate_bundle(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                         nbf_bytes_fn bytes)
{
    nbf_rng r;
    nbf_seed(&r, seed);
    nbf_bundle b;
    size_t out = 0;
    if (nbf_parse(data, size, &b)) {
        nbf_mutate(&b, &r, bytes, max_size);
        nbf_fix(&b, &r);
        /* Kept from call to call: a fresh large block costs the sanitizers
         * fresh pages every time. */
        static uint8_t *buf;
        static size_t cap;
        if (cap < max_size) {
            free(buf);
            cap = 0;
            if ((buf = malloc(max_size)))
                cap = max_size;
        }
        if (buf) {
            out = nbf_write(&b, &r, buf, max_size);
            if (out)
                memcpy(data, buf, out);
        }
        nbf_free(&b);
    }
    if (!out)
        out = bytes ? bytes(data, size, max_size) : size;
    return out;
}

size_t nbf_crossover_bundle(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                            uint8_t *out, size_t max_size, unsigned seed)
{
    nbf_rng r;
    nbf_seed(&r, seed);
    nbf_bundle a, b;
    if (!nbf_parse(data1, size1, &a))
        return 0;
    if (!nbf_parse(data2, size2, &b) || b.n == 0) {
        nbf_free(&a);
        return 0;
    }
    const nbf_section *take = &b.s[nbf_below(&r, b.n)];
    if (nbf_chance(&r, 70))
        for (size_t i = 0; i < a.n; i++)
            if (a.s[i].info.type == take->info.type) {
                nbf_remove(&a, i);
                break;
            }
    size_t res = 0;
    if (nbf_add(&a, take)) {
        nbf_fix(&a, &r);
        res = nbf_write(&a, NULL, out, max_size);
    }
    nbf_free(&a);
    nbf_free(&b);
    return res;
}
