/* test_info_names.c: what 'navbake info' prints of names it does not
 * check.  A section of a type this reader does not know may be named with
 * any bytes: quotes, backslashes, newlines, terminal escape codes, bytes
 * that are not UTF-8.  The JSON form must still parse (with the tools'
 * own reader) and give the names back; the plain form must hold no
 * control character, every unprintable byte shown as \xHH. */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "json.h"
#include "testutil.h"

static const char *const names[] = {
    "quote\"back\\slash",
    "esc\x1b[31mred\x1b[0m",
    "nl\nand\ttab\r",
    "del\x7f and \xff\xfe bytes",
    "caf\xc3\xa9",
    "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16"
    "\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f",
};
#define NNAMES (sizeof names / sizeof names[0])
#define FIRST_TYPE 9000 /* unknown to this reader */

/* From formats/bundle.md alone: a one-terrain legend, then a section of
 * an unknown type for each name, its payload 8 bytes. */
static size_t handmade(uint8_t *out)
{
    uint8_t leg[TU_ROCK_LEGEND_SIZE], pay[8] = "payload";
    tu_rock_legend(leg);
    size_t n = 1 + NNAMES, at = (64 + n * 128 + 63) / 64 * 64;
    memset(out, 0, 64 + n * 128);
    memcpy(out, "\x89NBK\r\n\x1a\n", 8);
    nbi_put16(out + 8, NB_FORMAT_MAJOR);
    nbi_put16(out + 10, NB_FORMAT_MINOR);
    nbi_put32(out + 16, 64);
    nbi_put32(out + 20, 128);
    nbi_put32(out + 24, (uint32_t)n);
    nbi_put64(out + 32, 64);
    for (size_t i = 0; i < n; i++) {
        uint8_t *e = out + 64 + i * 128;
        const uint8_t *p = i ? pay : leg;
        size_t len = i ? sizeof pay : sizeof leg;
        nbi_put32(e, i ? (uint32_t)(FIRST_TYPE + i) : NB_SEC_LEGEND);
        nbi_put16(e + 4, 1);
        nbi_put64(e + 8, at);
        nbi_put64(e + 16, len);
        nbi_put64(e + 24, len);
        nbi_put32(e + 32, (uint32_t)crc32(0, p, (uInt)len));
        if (i)
            memcpy(e + 72, names[i - 1], strlen(names[i - 1]));
        memset(out + at, 0, (len + 63) / 64 * 64);
        memcpy(out + at, p, len);
        at += (len + 63) / 64 * 64;
    }
    nbi_put64(out + 40, at);
    nbi_put32(out + 48, (uint32_t)crc32(0, out + 64, (uInt)(n * 128)));
    nbi_put32(out + 60, (uint32_t)crc32(0, out, 60));
    return at;
}

/* The name as JSON gives it back: bytes that are not UTF-8 become the
 * code points of their values. */
static void decoded(const char *name, char *out)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p >= 0xc2 && *p <= 0xdf && (p[1] & 0xc0) == 0x80) {
            *out++ = (char)*p++;
            *out++ = (char)*p;
        } else if (*p >= 0x80) {
            *out++ = (char)(0xc0 | (*p >> 6));
            *out++ = (char)(0x80 | (*p & 0x3f));
        } else {
            *out++ = (char)*p;
        }
    }
    *out = '\0';
}

int main(void)
{
    const char *top = getenv("top_builddir");
    if (!top)
        skip_all("top_builddir not set: navbake not found");
    static uint8_t image[64 * 1024];
    size_t len = handmade(image);
    const char *bundle = tu_path(tu_tmpdir(), "names.nbk");
    tu_write(bundle, image, len);
    nb_bundle *b;
    nb_err err;
    if (!ok(nb_bundle_open(bundle, NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK,
            "a bundle with %zu sections of unknown types and odd names opens", NNAMES))
        diag("%s", err.msg);
    else
        nb_bundle_close(b);

    /* JSON: it parses, and every name comes back. */
    const char *json = tu_path(tu_tmpdir(), "info.json");
    is_int(tu_system("'%s/tools/navbake' info --json '%s' > '%s'", top, bundle, json), 0,
           "navbake info --json");
    size_t n;
    char *text = tu_read(json, &n);
    nbj *root = NULL;
    nb_status st = text ? nbj_parse(text, n, "info.json", &root, &err) : NB_ERR_IO;
    if (!ok(st == NB_OK, "its output is JSON"))
        diag("%s", text ? err.msg : "no output");
    const nbj *sections = nbj_get(root, "sections");
    ok(sections && sections->type == NBJ_ARRAY && sections->n == NNAMES + 1,
       "with every section");
    for (size_t i = 0; sections && i < NNAMES && i + 1 < sections->n; i++) {
        const nbj *name = nbj_get(nbj_get(&sections->item[i + 1], "params"), "name");
        char want[128];
        decoded(names[i], want);
        ok(name && name->type == NBJ_STRING && strcmp(name->string, want) == 0,
           "section %zu: its name comes back from the JSON", i + 1);
    }
    nbj_free(root);
    free(text);

    /* Plain: nothing but printable ASCII and line ends; the names escaped. */
    const char *plain = tu_path(tu_tmpdir(), "info.txt");
    is_int(tu_system("'%s/tools/navbake' info '%s' > '%s'", top, bundle, plain), 0, "navbake info");
    text = tu_read(plain, &n);
    size_t bad = 0;
    for (size_t i = 0; text && i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        bad += (c < 0x20 && c != '\n') || c >= 0x7f;
    }
    ok(text && bad == 0, "the plain form has no control character nor byte beyond ASCII (%zu)", bad);
    ok(text && strstr(text, "name=esc\\x1b[31mred\\x1b[0m"), "an escape code is shown as \\x1b");
    ok(text && strstr(text, "name=quote\"back\\\\slash"), "a backslash is doubled");
    ok(text && strstr(text, "name=nl\\x0aand\\x09tab\\x0d"), "newline, tab and CR are shown");
    ok(text && strstr(text, "name=del\\x7f and \\xff\\xfe bytes"), "DEL and bytes beyond ASCII too");
    free(text);
    return done_testing();
}
