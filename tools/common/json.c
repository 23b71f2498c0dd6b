/* json.c: a recursive-descent JSON reader with located errors. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "json.h"

typedef struct parser {
    const char *p, *end, *name;
    const char *line_start;
    unsigned line;
    nb_err *err;
    size_t values; /* read so far, against NBJ_MAX_VALUES */
} parser;

static unsigned column(const parser *ps) { return (unsigned)(ps->p - ps->line_start) + 1; }

static nb_status fail(parser *ps, const char *what)
{
    if (ps->p >= ps->end)
        return nbb_fail(ps->err, NB_ERR_SYNTAX, "%s:%u:%u: %s (at the end of the file)", ps->name,
                        ps->line, column(ps), what);
    return nbb_fail(ps->err, NB_ERR_SYNTAX, "%s:%u:%u: %s", ps->name, ps->line, column(ps), what);
}

static void skip_space(parser *ps)
{
    while (ps->p < ps->end) {
        char ch = *ps->p;
        if (ch == '\n') {
            ps->line++;
            ps->line_start = ps->p + 1;
        } else if (ch != ' ' && ch != '\t' && ch != '\r') {
            return;
        }
        ps->p++;
    }
}

static int literal(parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, word, n) == 0) {
        ps->p += n;
        return 1;
    }
    return 0;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = s[i];
        v <<= 4;
        if (ch >= '0' && ch <= '9')
            v |= (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            v |= (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            v |= (unsigned)(ch - 'A' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static nb_status string(parser *ps, char **out)
{
    ps->p++; /* the opening quote */
    const char *s = ps->p;
    while (ps->p < ps->end && *ps->p != '"') {
        if (*ps->p == '\\')
            ps->p++;
        else if ((unsigned char)*ps->p < 0x20)
            return fail(ps, "a control character in a string");
        ps->p++;
    }
    if (ps->p >= ps->end)
        return fail(ps, "a string without its closing quote");
    /* Escapes only shrink the text. */
    char *o = malloc((size_t)(ps->p - s) + 1);
    if (!o)
        return nbb_fail(ps->err, NB_ERR_NOMEM, "out of memory");
    size_t k = 0;
    for (const char *q = s; q < ps->p; q++) {
        if (*q != '\\') {
            o[k++] = *q;
            continue;
        }
        q++;
        switch (*q) {
        case '"': o[k++] = '"'; break;
        case '\\': o[k++] = '\\'; break;
        case '/': o[k++] = '/'; break;
        case 'b': o[k++] = '\b'; break;
        case 'f': o[k++] = '\f'; break;
        case 'n': o[k++] = '\n'; break;
        case 'r': o[k++] = '\r'; break;
        case 't': o[k++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (ps->p - q < 5 || !hex4(q + 1, &cp)) {
                free(o);
                return fail(ps, "a bad \\u escape in a string");
            }
            q += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && ps->p - q >= 7 && q[1] == '\\' && q[2] == 'u' &&
                hex4(q + 3, &lo) && lo >= 0xdc00 && lo < 0xe000) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                q += 6;
            }
            k += put_utf8(o + k, cp);
            break;
        }
        default: free(o); return fail(ps, "a bad escape in a string");
        }
    }
    o[k] = '\0';
    ps->p++; /* the closing quote */
    *out = o;
    return NB_OK;
}

static nb_status value(parser *ps, nbj *v, unsigned depth);

static nb_status push(parser *ps, nbj *v, size_t *cap, nbj **item)
{
    if (v->n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        nbj *items = realloc(v->item, c * sizeof *items);
        if (!items)
            return nbb_fail(ps->err, NB_ERR_NOMEM, "out of memory");
        v->item = items;
        *cap = c;
    }
    *item = &v->item[v->n++];
    memset(*item, 0, sizeof **item);
    return NB_OK;
}

static nb_status container(parser *ps, nbj *v, unsigned depth)
{
    int object = *ps->p == '{';
    char close = object ? '}' : ']';
    v->type = object ? NBJ_OBJECT : NBJ_ARRAY;
    if (depth >= NBJ_MAX_DEPTH)
        return fail(ps, "nested too deeply");
    ps->p++;
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return NB_OK;
    }
    size_t cap = 0;
    for (;;) {
        nbj *item = NULL;
        nb_status st = push(ps, v, &cap, &item);
        if (st != NB_OK)
            return st;
        skip_space(ps);
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"')
                return fail(ps, "expected a member name in quotes");
            if ((st = string(ps, &item->key)) != NB_OK)
                return st;
            skip_space(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return fail(ps, "expected ':' after a member name");
            ps->p++;
            skip_space(ps);
        }
        if ((st = value(ps, item, depth + 1)) != NB_OK)
            return st;
        skip_space(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return NB_OK;
        }
        return fail(ps, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static nb_status number(parser *ps, nbj *v)
{
    const char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
        return fail(ps, "expected a value");
    if (*ps->p == '0')
        ps->p++;
    else
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    if (ps->p < ps->end && *ps->p == '.') {
        ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
            return fail(ps, "expected a digit after '.'");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    }
    if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
        ps->p++;
        if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
            ps->p++;
        if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
            return fail(ps, "expected a digit in an exponent");
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
            ps->p++;
    }
    char buf[64];
    size_t n = (size_t)(ps->p - s);
    if (n >= sizeof buf)
        return fail(ps, "a number too long");
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    v->number = strtod(buf, NULL);
    if (!isfinite(v->number))
        return fail(ps, "a number out of range");
    v->type = NBJ_NUMBER;
    return NB_OK;
}

static nb_status value(parser *ps, nbj *v, unsigned depth)
{
    skip_space(ps);
    v->line = ps->line;
    v->column = column(ps);
    if (ps->p >= ps->end)
        return fail(ps, "expected a value");
    /* Each value costs some 60 bytes: the count bounds the memory of a
     * file of tiny values. */
    if (++ps->values > NBJ_MAX_VALUES)
        return nbb_fail(ps->err, NB_ERR_LIMIT, "%s:%u:%u: more than %lu values (a limit of JSON "
                        "inputs)", ps->name, ps->line, column(ps), (unsigned long)NBJ_MAX_VALUES);
    switch (*ps->p) {
    case '{':
    case '[': return container(ps, v, depth);
    case '"': v->type = NBJ_STRING; return string(ps, &v->string);
    case 't':
        v->type = NBJ_TRUE;
        return literal(ps, "true") ? NB_OK : fail(ps, "expected a value");
    case 'f':
        v->type = NBJ_FALSE;
        return literal(ps, "false") ? NB_OK : fail(ps, "expected a value");
    case 'n':
        v->type = NBJ_NULL;
        return literal(ps, "null") ? NB_OK : fail(ps, "expected a value");
    default: return number(ps, v);
    }
}

static void clear(nbj *v)
{
    for (size_t i = 0; i < v->n; i++)
        clear(&v->item[i]);
    free(v->item);
    free(v->string);
    free(v->key);
}

void nbj_free(nbj *v)
{
    if (!v)
        return;
    clear(v);
    free(v);
}

nb_status nbj_parse(const char *text, size_t len, const char *name, nbj **out, nb_err *err)
{
    parser ps = {text, text + len, name, text, 1, err, 0};
    nbj *v = calloc(1, sizeof *v);
    if (!v)
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    nb_status st = value(&ps, v, 0);
    if (st == NB_OK) {
        skip_space(&ps);
        if (ps.p < ps.end)
            st = fail(&ps, "more text after the JSON value");
    }
    if (st != NB_OK) {
        nbj_free(v);
        return st;
    }
    *out = v;
    return NB_OK;
}

nb_status nbj_parse_seq(const char *text, size_t len, const char *name, nbj **out, nb_err *err)
{
    parser ps = {text, text + len, name, text, 1, err, 0};
    nbj *seq = calloc(1, sizeof *seq);
    if (!seq)
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    seq->type = NBJ_ARRAY;
    seq->line = seq->column = 1;
    size_t cap = 0;
    nb_status st = NB_OK;
    do {
        nbj *item = NULL;
        st = push(&ps, seq, &cap, &item);
        if (st == NB_OK)
            st = value(&ps, item, 0);
        skip_space(&ps);
    } while (st == NB_OK && ps.p < ps.end);
    if (st != NB_OK) {
        nbj_free(seq);
        return st;
    }
    if (seq->n == 1) {
        /* One value: hand it over alone. */
        nbj *one = malloc(sizeof *one);
        if (!one) {
            nbj_free(seq);
            return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
        }
        *one = seq->item[0];
        free(seq->item);
        free(seq);
        seq = one;
    }
    *out = seq;
    return NB_OK;
}

const nbj *nbj_get(const nbj *object, const char *key)
{
    if (!object || object->type != NBJ_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->n; i++)
        if (strcmp(object->item[i].key, key) == 0)
            return &object->item[i];
    return NULL;
}

const char *nbj_type_name(nbj_type t)
{
    static const char *const names[] = {"null",   "false", "true",  "number",
                                        "string", "array", "object"};
    return names[t];
}
