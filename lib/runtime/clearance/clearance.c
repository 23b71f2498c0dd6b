/* clearance.c: the runtime's reading of clearance and component layers
 * (formats/clearance.md).  A layer is found by its build parameters and
 * checked against the map once per call, before any cell is read; cells
 * are then read in place from the mapped file.  A layer stores no path or
 * link to follow: a look-up reads one value, whatever the layer holds, so
 * a search's work is its own expansions' (aastar.c). */
#include <stdio.h>
#include <string.h>

#include "clearance/clearance.h"

/* "ground,swamp; ground" for the message that says what the bundle has. */
static void list_layers(const nb_bundle *b, uint32_t type, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < b->nsections && at + 1 < len; i++) {
        const nb_section_info *in = &b->sections[i].info;
        if (in->type != type)
            continue;
        char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
        nb_capability_format(b, in->param[0], caps, sizeof caps);
        int k =
            type == NB_SEC_COMPONENTS
                ? snprintf(buf + at, len - at, "%s{%s} size %u", at ? ", " : "", caps, in->param[1])
                : snprintf(buf + at, len - at, "%s{%s}", at ? ", " : "", caps);
        at += k > 0 ? (size_t)k : 0;
    }
    if (at == 0)
        snprintf(buf, len, "none");
}

nb_status nbi_layer_at(const nb_bundle *b, size_t idx, nbi_layer *out, nb_err *err)
{
    if (idx >= b->nsections)
        return nbi_fail(err, NB_ERR_ARG, "%s: no section %zu", b->path, idx);
    uint32_t type = b->sections[idx].info.type;
    if (type != NB_SEC_CLEARANCE && type != NB_SEC_COMPONENTS)
        return nbi_fail(err, NB_ERR_ARG, "%s: section %zu is not a clearance or component layer",
                        b->path, idx);
    if (!b->has_map)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: a %s layer but no map", b->path,
                        nbi_type_name(b, type));
    const struct nbi_section *s = &b->sections[idx];
    const nb_section_info *in = &s->info;
    uint16_t version = type == NB_SEC_CLEARANCE ? NBI_CLEARANCE_VERSION : NBI_COMPONENTS_VERSION;
    int runs = type == NB_SEC_COMPONENTS && in->version == NBI_COMPONENTS_VERSION_RUNS;
    if (in->version != version && !runs)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %zu (%s) has version %u; this reader knows version %u%s",
                        b->path, idx, nbi_type_name(b, type), in->version, version,
                        type == NB_SEC_COMPONENTS ? " and 2" : "");
    if (NB_ENC_LAYOUT(in->encoding) != NB_ENC_PACKED || s->payload == NULL ||
        (NB_ENC_COMPRESSION(in->encoding) && s->payload == s->stored))
        return nbi_fail(err, NB_ERR_FORMAT, "%s: section %zu (%s): encoding %s, expected packed",
                        b->path, idx, nbi_type_name(b, type), nb_encoding_name(in->encoding));
    uint64_t len = in->usize, cells = (uint64_t)b->width * b->height;
    const uint8_t *p = s->payload;
    if (len < NBI_LAYER_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): %llu bytes, shorter than its header", b->path, idx,
                        nbi_type_name(b, type), (unsigned long long)len);
    uint32_t w = nbi_get32(p + NBI_LAYER_WIDTH), h = nbi_get32(p + NBI_LAYER_HEIGHT),
             bits = nbi_get32(p + NBI_LAYER_BITS),
             maxval = nbi_get32(p + NBI_LAYER_MAXVAL);
    if (w != b->width || h != b->height)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s) is %u x %u cells but the map is %u x %u", b->path,
                        idx, nbi_type_name(b, type), w, h, b->width, b->height);
    if (bits < 1 || bits > NBI_LAYER_MAX_BITS || nbi_bits_for(maxval) > bits)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): %u bits per cell cannot hold values to %u", b->path,
                        idx, nbi_type_name(b, type), bits, maxval);
    if (runs && (in->param[2] != maxval || in->param[3] != bits))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): the section table and the payload disagree on its "
                        "component count and bits",
                        b->path, idx, nbi_type_name(b, type));
    memset(out, 0, sizeof *out);
    if (runs)
        return nbi_comp_runs_at(b, idx, p, len, out, err);
    if (len != nbi_layer_bytes(cells, bits))
        return nbi_fail(
            err, NB_ERR_FORMAT,
            "%s: section %zu (%s): %llu bytes, expected %llu for %u x %u cells of %u bits", b->path,
            idx, nbi_type_name(b, type), (unsigned long long)len,
            (unsigned long long)nbi_layer_bytes(cells, bits), w, h, bits);
    /* The table's parameters must say what the payload says. */
    int params_ok = type == NB_SEC_CLEARANCE ? in->param[1] == maxval && in->param[2] == bits
                                             : in->param[2] == maxval && in->param[3] == bits;
    if (!params_ok)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): the section table and the payload disagree on its "
                        "%s and bits",
                        b->path, idx, nbi_type_name(b, type),
                        type == NB_SEC_CLEARANCE ? "cap" : "component count");
    if (type == NB_SEC_CLEARANCE && (maxval < 1 || maxval > NB_MAX_AGENT_SIZE))
        return nbi_fail(err, NB_ERR_FORMAT, "%s: section %zu (%s): cap %u, expected 1 to %d",
                        b->path, idx, nbi_type_name(b, type), maxval, NB_MAX_AGENT_SIZE);
    out->bits_at = p + NBI_LAYER_HEADER;
    out->width = w;
    out->height = h;
    out->bits = bits;
    out->maxval = maxval;
    out->mask = bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
    out->over = type == NB_SEC_CLEARANCE ? maxval : 0;
    out->section = (long)idx;
    return NB_OK;
}

nb_status nbi_layer_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_layer l;
    nb_status st = nbi_layer_at(b, idx, &l, err);
    return st == NB_OK && l.rows ? nbi_comp_runs_check(b, idx, &l, err) : st;
}

static nb_status find_layer(const nb_bundle *b, uint32_t type, nb_capability cap, uint32_t size,
                            nbi_layer *out, nb_err *err)
{
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    uint32_t params[2] = {cap, size};
    long idx = nbi_section_index(b, type, NULL, params, type == NB_SEC_CLEARANCE ? 1 : 2);
    if (idx < 0) {
        if (!err) /* nb_clearance and friends, called per cell: no message to make */
            return NB_ERR_NOTFOUND;
        char have[512];
        nb_capability_format(b, cap, caps, sizeof caps);
        list_layers(b, type, have, sizeof have);
        if (type == NB_SEC_CLEARANCE)
            return nbi_fail(err, NB_ERR_NOTFOUND,
                            "%s: no clearance layer for capability {%s} (it has %s); bake one "
                            "with mkclear and an agent of that capability",
                            b->path, caps, have);
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: no component layer for capability {%s} and size %u (it has %s)",
                        b->path, caps, size, have);
    }
    return nbi_layer_at(b, (size_t)idx, out, err);
}

nb_status nbi_clearance_layer(const nb_bundle *b, nb_capability cap, nbi_layer *out, nb_err *err)
{
    return find_layer(b, NB_SEC_CLEARANCE, cap, 0, out, err);
}

nb_status nbi_components_layer(const nb_bundle *b, nb_capability cap, uint32_t size, nbi_layer *out,
                               nb_err *err)
{
    return find_layer(b, NB_SEC_COMPONENTS, cap, size, out, err);
}

nb_status nbi_agent_layer(const nb_bundle *b, const char *family, nb_capability cap, uint32_t size,
                          nbi_layer *out, nb_err *err)
{
    nb_status st = nbi_clearance_layer(b, cap, out, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "%s", family);
        return st;
    }
    if (size <= out->maxval)
        return NB_OK;
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    nb_capability_format(b, cap, caps, sizeof caps);
    /* Not baked, as a capability without a layer is: the bundle holds
     * nothing for the agent (navbake(3), "Statuses"). */
    return nbi_fail(err, NB_ERR_NOTFOUND,
                    "%s: %s: size %u is beyond the largest size (%u) the clearance layer for {%s} "
                    "serves; bake it with an agent set that has the size",
                    family, b->path, size, out->maxval, caps);
}

static int inside(const nbi_layer *l, long x, long y)
{
    return x >= 0 && y >= 0 && x < (long)l->width && y < (long)l->height;
}

int nb_clearance(const nb_bundle *b, nb_capability cap, long x, long y)
{
    nbi_layer l;
    if (nbi_clearance_layer(b, cap, &l, NULL) != NB_OK)
        return -1;
    if (!inside(&l, x, y))
        return 0;
    return (int)nbi_layer_value(&l, (uint64_t)y * l.width + (uint64_t)x);
}

int nb_clearance_cap(const nb_bundle *b, nb_capability cap)
{
    nbi_layer l;
    return nbi_clearance_layer(b, cap, &l, NULL) == NB_OK ? (int)l.maxval : -1;
}

int nb_can_stand(const nb_bundle *b, nb_capability cap, unsigned size, long x, long y)
{
    nbi_layer l;
    if (size < 1 || nbi_clearance_layer(b, cap, &l, NULL) != NB_OK || size > l.maxval)
        return -1;
    if (!inside(&l, x, y))
        return 0;
    return nbi_layer_get(&l, (uint64_t)y * l.width + (uint64_t)x) >= size;
}

long nb_component(const nb_bundle *b, nb_capability cap, unsigned size, long x, long y)
{
    nbi_layer l;
    if (nbi_components_layer(b, cap, size, &l, NULL) != NB_OK)
        return -1;
    if (!inside(&l, x, y))
        return 0;
    return (long)nbi_comp_value(&l, (uint64_t)y * l.width + (uint64_t)x);
}

int nb_reachable(const nb_bundle *b, nb_capability cap, unsigned size, nb_cell from, nb_cell to)
{
    nbi_layer l;
    if (nbi_components_layer(b, cap, size, &l, NULL) != NB_OK)
        return -1;
    if (!inside(&l, from.x, from.y) || !inside(&l, to.x, to.y))
        return 0;
    uint32_t a = nbi_comp_value(&l, (uint64_t)from.y * l.width + (uint64_t)from.x);
    uint32_t c = nbi_comp_value(&l, (uint64_t)to.y * l.width + (uint64_t)to.x);
    return a != 0 && a == c;
}
