/* test_sections.c: the two registries of section types, the runtime's
 * (lib/runtime/sections/sections.c: name, parameters, structural check)
 * and the bake side's (lib/bake/sections/section_rules.c: deep check,
 * rebake rule), against the public enum nb_section_type as navbake.h
 * spells it, read from the header's text: every type has an entry in
 * each, in type order, the same types in both, its name the enum's own
 * (NB_SEC_ABSTRACT_COSTS is "abstract_costs"), and a check, deep check
 * and rebake rule, or a reason for having none.
 *
 * Then each structural check, on the sample level baked by every tool:
 * a section of each type emptied (every reader refuses a payload with no
 * bytes) fails nb_bundle_verify (the checks of NB_OPEN_VERIFY and navbake
 * verify), naming the section; and a section no query could read without
 * another (costs or levels without their graph, a perimeter table without
 * its model, a unit's tables without the unit, bitangent graphs without
 * their forest, borders and border graphs without their tile, world
 * components and world graphs without their world) fails it too. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "sections/section_rules.h"
#include "testutil.h"

/* ---- the enum, from navbake.h's text ---- */

#define MAX_TYPES 64

typedef struct enum_type {
    char name[64]; /* "abstract_costs" for NB_SEC_ABSTRACT_COSTS */
    uint32_t value;
} enum_type;

/* The members of nb_section_type, in the order written; -1 when the
 * header or the enum is not found. */
static int read_enum(enum_type *out)
{
    size_t len;
    char *h = tu_read(tu_src("lib/include/navbake.h"), &len);
    if (!h)
        return -1;
    char *at = strstr(h, "typedef enum nb_section_type {");
    char *end = at ? strstr(at, "} nb_section_type;") : NULL;
    if (!end) {
        free(h);
        return -1;
    }
    *end = '\0';
    int n = 0;
    for (char *p = strstr(at, "NB_SEC_"); p && n < MAX_TYPES; p = strstr(p, "NB_SEC_")) {
        p += strlen("NB_SEC_");
        size_t k = 0;
        while ((isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_') &&
               k + 1 < sizeof out[n].name)
            out[n].name[k++] = (char)tolower((unsigned char)*p++);
        out[n].name[k] = '\0';
        while (*p == ' ')
            p++;
        if (*p++ != '=')
            continue; /* a mention in a comment */
        out[n].value = (uint32_t)strtoul(p, &p, 10);
        n++;
    }
    free(h);
    return n;
}

static void tables(void)
{
    enum_type e[MAX_TYPES];
    int n = read_enum(e);
    if (!ok(n > 0, "navbake.h's nb_section_type read: %d types", n))
        return;
    size_t nrt = 0, nbake = 0;
    while (nbi_section_kind_at(nrt))
        nrt++;
    while (nbb_section_rules_at(nbake))
        nbake++;
    is_int(nrt, n, "the runtime's registry lists as many types as the enum");
    is_int(nbake, n, "the bake side's registry lists as many types as the enum");
    for (int i = 0; i < n; i++) {
        const struct nbi_section_kind *k = nbi_section_kind(e[i].value);
        const nbb_section_rules *r = nbb_section_rules_of(e[i].value);
        const char *what = e[i].name;
        if (!ok(k != NULL, "%s (%u): in the runtime's registry", what, e[i].value) ||
            !ok(r != NULL, "%s (%u): in the bake side's registry", what, e[i].value))
            continue;
        is_str(k->name, e[i].name, "%s: named as the enum", what);
        is_int(tu_section_type(e[i].name), e[i].value, "%s: found by its name", what);
        ok(k->params[0] != NULL, "%s: its parameters are named", what);
        ok(k->check ? k->unchecked == NULL : k->unchecked && *k->unchecked,
           "%s: a structural check, or why it has none (%s)", what,
           k->check ? "has one" : k->unchecked ? k->unchecked : "none said");
        ok(r->deep ? r->not_deep == NULL : r->not_deep && *r->not_deep,
           "%s: a deep check, or why it has none (%s)", what,
           r->deep ? "has one" : r->not_deep ? r->not_deep : "none said");
        ok(r->rebake >= NBB_RULE_LEVEL && r->rebake <= NBB_RULE_NOT_LEVEL,
           "%s: a rebake rule (%d)", what, (int)r->rebake);
        /* What is computed from the level is what can be baked again from the bundle. */
        ok(r->rebake != NBB_RULE_UPDATED && r->rebake != NBB_RULE_SAME_LEVEL ? 1 : r->deep != NULL,
           "%s: computed from the level, so verify --deep bakes it again", what);
    }
    int ordered = 1;
    for (size_t i = 1; i < nrt; i++)
        ordered &= nbi_section_kind_at(i - 1)->type < nbi_section_kind_at(i)->type;
    for (size_t i = 1; i < nbake; i++)
        ordered &= nbb_section_rules_at(i - 1)->type < nbb_section_rules_at(i)->type;
    ok(ordered, "both registries are in type order, each type once");
}

/* ---- the structural checks at work ---- */

/* The bundle b with section index emptied (or, when drop, left out) and
 * every other as stored, opened from memory; NULL on failure. */
static nb_bundle *altered(const nb_bundle *b, size_t index, int drop)
{
    nbb_builder *w;
    nb_err err;
    nb_status st = nbb_builder_new(&w, &err);
    for (size_t i = 0; st == NB_OK && i < nb_bundle_section_count(b); i++) {
        if (i != index) {
            st = nbb_builder_borrow(w, b, i, &err);
        } else if (!drop) {
            nb_section_info in = *nb_bundle_section_get(b, i);
            in.encoding = (uint16_t)NB_ENC_LAYOUT(in.encoding);
            st = nbb_builder_add(w, &in, "", 0, 0, &err);
        }
    }
    uint8_t *img = NULL;
    size_t len = 0;
    nb_bundle *out = NULL;
    if (st == NB_OK)
        st = nbb_builder_image(w, &img, &len, &err);
    nbb_builder_free(w);
    if (st == NB_OK)
        st = nbi_bundle_open_image(img, len, "(altered)", 0, &out, &err);
    if (st != NB_OK)
        diag("altered bundle: %s", err.msg);
    return out;
}

/* Every type in one of the bundles: the first section of each. */
static void emptied(nb_bundle *const *bundles, size_t nb)
{
    nb_err err;
    for (size_t k = 0; nbi_section_kind_at(k); k++) {
        const struct nbi_section_kind *kind = nbi_section_kind_at(k);
        if (!kind->check)
            continue;
        const nb_bundle *b = NULL;
        long i = -1;
        for (size_t j = 0; j < nb && i < 0; j++)
            if ((i = nbi_section_index(bundles[j], kind->type, NULL, NULL, 0)) >= 0)
                b = bundles[j];
        if (!ok(i >= 0, "%s: a section of the type is baked", kind->name))
            continue;
        nb_bundle *e = altered(b, (size_t)i, 0);
        if (!ok(e != NULL, "%s: emptied, it opens", kind->name))
            continue;
        nb_status st = nb_bundle_verify(e, &err);
        ok(st != NB_OK, "%s: emptied, nb_bundle_verify refuses it", kind->name);
        char where[64];
        snprintf(where, sizeof where, "section %ld", i);
        const char *name = nb_bundle_section_get(e, (size_t)i)->name;
        ok(st != NB_OK && (strstr(err.msg, where) || (*name && strstr(err.msg, name))),
           "%s: ... naming it (%s)", kind->name, st != NB_OK ? err.msg : "no message");
        nb_bundle_close(e);
    }
}

/* A type's name, or its number for one the registry has lost. */
static const char *type_name(uint32_t type)
{
    static char buf[4][16];
    static int at;
    const char *n = nb_section_type_name(type);
    if (n)
        return n;
    at = (at + 1) % 4;
    snprintf(buf[at], sizeof buf[at], "type %u", (unsigned)type);
    return buf[at];
}

/* A section whose reader needs another: with that other left out. */
static void orphans(nb_bundle *const *bundles, size_t nb)
{
    static const struct {
        uint32_t dropped, orphan;
    } cases[] = {
        {NB_SEC_ABSTRACT, NB_SEC_ABSTRACT_COSTS},
        {NB_SEC_ABSTRACT, NB_SEC_ABSTRACT_LEVELS},
        {NB_SEC_MODEL, NB_SEC_PERIMETER},
        {NB_SEC_UNIT, NB_SEC_HITCHECK},
        {NB_SEC_UNIT, NB_SEC_CURVES},
        {NB_SEC_FOREST, NB_SEC_BITANGENT},
        {NB_SEC_TILE, NB_SEC_BORDER},
        {NB_SEC_WORLD, NB_SEC_WORLD_COMPONENTS},
        {NB_SEC_TILE, NB_SEC_BORDER_GRAPH},
        {NB_SEC_WORLD, NB_SEC_WORLD_GRAPH},
        {NB_SEC_WORLD_GRAPH, NB_SEC_WORLD_LANDMARKS},
        {NB_SEC_WORLD_GRAPH, NB_SEC_WORLD_BLOCKS},
        {NB_SEC_TILE, NB_SEC_TILE_INSERT},
    };
    nb_err err;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *dn = type_name(cases[c].dropped), *on = type_name(cases[c].orphan);
        const nb_bundle *b = NULL;
        for (size_t j = 0; j < nb && !b; j++)
            if (nbi_section_index(bundles[j], cases[c].orphan, NULL, NULL, 0) >= 0)
                b = bundles[j];
        /* Every section of the dropped type (a bundle may hold two units), and the
         * orphans of the same type listed before this one, which would be named first. */
        nb_bundle *e = NULL, *prev = NULL;
        for (size_t k = 0; k <= c && b; k++) {
            uint32_t t = k == c ? cases[c].dropped : cases[k].orphan;
            long d;
            if (k < c && cases[k].dropped != cases[c].dropped)
                continue;
            while (b && (d = nbi_section_index(b, t, NULL, NULL, 0)) >= 0) {
                e = altered(b, (size_t)d, 1);
                nb_bundle_close(prev);
                prev = e;
                b = e;
            }
        }
        if (!ok(e != NULL, "%s without its %s: made", on, dn))
            continue;
        nb_status st = nb_bundle_verify(e, &err);
        ok(st != NB_OK, "%s without its %s: nb_bundle_verify refuses it", on, dn);
        like(st != NB_OK ? err.msg : "", on, "%s without its %s: ... naming it", on, dn);
        nb_bundle_close(e);
    }
}

static nb_bundle *bake(const char *dir, const char *name, const char *script)
{
    const char *top = getenv("top_builddir"), *src = getenv("top_srcdir");
    const char *path = tu_path(dir, name);
    int rc = tu_system("cd '%s' && T='%s/tools' D='%s/data' B='%s' && set -e && %s", dir,
                       top && *top ? top : ".", src && *src ? src : ".", path, script);
    nb_bundle *b = NULL;
    nb_err err;
    nb_status st = rc == 0 ? nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &b, &err) : NB_ERR_IO;
    if (!ok(rc == 0, "%s baked", name) ||
        !ok(st == NB_OK, "%s opens, and nb_bundle_verify accepts it (%s)", name,
            st == NB_OK ? "ok" : err.msg))
        return NULL;
    return b;
}

int main(void)
{
    tables();

    const char *dir = tu_tmpdir();
    FILE *f = fopen(tu_path(dir, "costs.yaml"), "w");
    fputs("agents:\n  - name: scout\n    size: 1\n    capability: [ground, swamp]\n"
          "    costs: {swamp: 5}\n  - name: wagon\n    size: 2\n    capability: [ground]\n",
          f);
    fclose(f);
    nb_bundle *bundles[5];
    bundles[0] = bake(dir, "all.nbk",
                      "$T/mkclear -q --optimal --agents costs.yaml $D/sample.map -o $B && "
                      "$T/mkabstract -q --levels 2 $B && "
                      "$T/mkperim -q --model $D/models/humanoid.yaml -o $B && "
                      "$T/mkhitcheck -q -u $D/units/jeep.yaml -u $D/units/tank.yaml -o $B");
    bundles[1] = bake(dir, "forest.nbk",
                      "$T/mkabstract -q --forest $D/forest.yaml --agent-radius 0,0.5 -o $B");
    /* A world of tiles: a tile bundle, its border file, the world bundle. */
    const char *world = "$T/navbake world cut -q $D/sample.map --tile 32 -c 8 -o w && "
                        "echo 'blocks: 1' >> w/world.yaml && echo 'insert: 1' >> w/world.yaml && "
                        "for y in 0 1; do for x in 0 1; do "
                        "$T/navbake world tile -q w/world.yaml $x $y -o o; done; done && "
                        "$T/navbake world link -q w/world.yaml -o o && ";
    char script[1024];
    snprintf(script, sizeof script, "%scp o/tiles/1_0.nbb $B", world);
    bundles[2] = bake(dir, "tile.nbb", script);
    bundles[3] = bake(dir, "tile.border", "cp o/tiles/1_0.border $B");
    bundles[4] = bake(dir, "world.nbw", "cp o/world.nbw $B");
    int all = 1;
    for (int i = 0; i < 5; i++)
        all &= bundles[i] != NULL;
    if (all) {
        emptied(bundles, 5);
        orphans(bundles, 5);
    }
    for (int i = 0; i < 5; i++)
        nb_bundle_close(bundles[i]);
    return done_testing();
}
