/* test_input_limits.c: the limits of the text inputs.  Every YAML reader
 * (legend, agent set, motion model, unit, forest) refuses deep nesting,
 * too many nodes and too many anchors quickly, before libyaml builds the
 * document (its scanner takes time quadratic in the depth); files beyond
 * their size limit are refused, saying so, before they are read; a
 * scenario file's query count is bounded. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>


#include "motion/perimeter.h"
#include "turning/turning_build.h"
#include "testutil.h"

typedef nb_status (*parse_fn)(const char *buf, size_t len, nb_err *err);

static nb_status p_legend(const char *buf, size_t len, nb_err *err)
{
    nbi_legend l;
    return nbb_legend_parse(buf, len, "in.yaml", &l, err);
}

static nb_status p_agents(const char *buf, size_t len, nb_err *err)
{
    static nbi_agentset set;
    nbi_legend def;
    nbi_legend_default(&def);
    return nbb_agents_parse(buf, len, "in.yaml", &def, &set, err);
}

static nb_status p_model(const char *buf, size_t len, nb_err *err)
{
    nb_model m;
    return nbb_model_parse(buf, len, "in.yaml", &m, err);
}

static nb_status p_unit(const char *buf, size_t len, nb_err *err)
{
    nb_unit u;
    nbi_legend def;
    nbi_legend_default(&def);
    return nbb_unit_parse(buf, len, "in.yaml", &def, &u, err);
}

static nb_status p_forest(const char *buf, size_t len, nb_err *err)
{
    nbb_forest f;
    nb_status st = nbb_forest_parse(buf, len, "in.yaml", &f, err);
    if (st == NB_OK)
        nbb_forest_free(&f);
    return st;
}

static const struct {
    const char *name;
    parse_fn parse;
} readers[] = {{"legend", p_legend}, {"agent set", p_agents}, {"model", p_model},
               {"unit", p_unit},     {"forest", p_forest}};
#define NREADERS (sizeof readers / sizeof readers[0])

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* open repeated n times, then middle, then close repeated n times. */
static char *nest(const char *open, const char *middle, const char *close, size_t n, size_t *len)
{
    size_t lo = strlen(open), lm = strlen(middle), lc = strlen(close);
    char *s = malloc(n * (lo + lc) + lm + 1), *p = s;
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++, p += lo)
        memcpy(p, open, lo);
    memcpy(p, middle, lm);
    p += lm;
    for (size_t i = 0; i < n; i++, p += lc)
        memcpy(p, close, lc);
    *p = '\0';
    *len = (size_t)(p - s);
    return s;
}

/* Each reader refuses text with NB_ERR_LIMIT and a message containing
 * want, within a loose time bound (the limit is met long before). */
static void refused(const char *text, size_t len, const char *want, const char *what)
{
    for (size_t r = 0; r < NREADERS; r++) {
        nb_err err;
        double t0 = now();
        nb_status st = readers[r].parse(text, len, &err);
        double dt = now() - t0;
        if (!ok(st == NB_ERR_LIMIT, "%s, %s: refused as beyond a limit", readers[r].name, what))
            diag("status %s: %s", nb_status_str(st), st ? err.msg : "(accepted)");
        else
            like(err.msg, want, "%s, %s: the message", readers[r].name, what);
        ok(dt < 2.0, "%s, %s: refused quickly (%.3f s)", readers[r].name, what, dt);
    }
}

/* Each reader refuses text, but not for a limit (its own checks do). */
static void within(const char *text, const char *what)
{
    for (size_t r = 0; r < NREADERS; r++) {
        nb_err err;
        nb_status st = readers[r].parse(text, strlen(text), &err);
        if (!ok(st != NB_ERR_LIMIT, "%s, %s: within the limits", readers[r].name, what))
            diag("%s", err.msg);
    }
}

/* "x: [1,1,...]" with n items. */
static char *flat(size_t n, size_t *len)
{
    char *t = malloc(16 + 2 * n), *p = t;
    p += sprintf(p, "x: [");
    for (size_t i = 0; i < n; i++) {
        *p++ = '1';
        *p++ = i + 1 < n ? ',' : ']';
    }
    *p = '\0';
    *len = (size_t)(p - t);
    return t;
}

static void yaml_limits(void)
{
    size_t len;
    char *s;
    /* 40,000 levels: 10 s inside libyaml before the limit. */
    s = nest("[", "1", "]", 40000, &len);
    refused(s, len, "in.yaml:1:65: nesting deeper than 64 levels", "40,000 nested lists");
    free(s);
    s = nest("{a: ", "1", "}", 40000, &len);
    refused(s, len, "in.yaml:1:257: nesting deeper than 64 levels", "40,000 nested mappings");
    free(s);
    s = nest("- ", "1", "", 40000, &len);
    refused(s, len, "in.yaml:1:129: nesting deeper than 64 levels", "40,000 nested block lists");
    free(s);
    /* 64 levels are allowed (each reader then finds what it expected missing). */
    s = nest("[", "1", "]", 64, &len);
    within(s, "64 nested lists");
    free(s);
    s = nest("[", "1", "]", 65, &len);
    refused(s, len, "in.yaml:1:65: nesting deeper than 64 levels", "65 nested lists");
    free(s);

    /* A flat list: with the root mapping and its key, one node beyond
     * the limit, then exactly at it. */
    {
        size_t n = NBB_YAML_MAX_NODES - 2;
        char *t = flat(n, &len);
        for (size_t r = 0; r < NREADERS; r++) {
            if (readers[r].parse == p_forest)
                continue; /* a forest may hold more */
            nb_err err;
            nb_status st = readers[r].parse(t, len, &err);
            if (ok(st == NB_ERR_LIMIT, "%s, a list of %zu items: refused", readers[r].name, n))
                like(err.msg, "more than 100000 nodes", "%s: the message names the limit",
                     readers[r].name);
            else
                diag("status %s: %s", nb_status_str(st), st ? err.msg : "(accepted)");
        }
        free(t);
        t = flat(n - 1, &len);
        within(t, "a list of the most nodes allowed");
        free(t);
    }

    /* Anchors: libyaml's loader looks each alias up among all of them. */
    {
        char *t = malloc(65 * 24 + 16), *p = t;
        p += sprintf(p, "x: [");
        for (int i = 0; i < 65; i++)
            p += sprintf(p, "&a%d 1, ", i);
        p += sprintf(p, "*a0]\n");
        refused(t, (size_t)(p - t), "more than 64 anchors", "65 anchors");
        free(t);
    }
}

/* A sparse file of size bytes. */
static const char *sparse(const char *name, off_t size)
{
    const char *path = tu_path(tu_tmpdir(), name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int good = fd >= 0 && ftruncate(fd, size) == 0;
    if (fd >= 0)
        close(fd);
    return good ? path : NULL;
}

static void file_sizes(void)
{
    nb_err err;
    nb_status st;
    /* Every reader's size limit, refused from the file's size alone. */
    const char *yaml = sparse("big.yaml", (off_t)NBB_YAML_FILE_MAX + 1);
    if (!yaml) {
        skip(2, "no sparse file");
    } else {
        nbi_legend l;
        double t0 = now();
        st = nbb_legend_read(yaml, &l, &err);
        ok(st == NB_ERR_LIMIT && now() - t0 < 2.0, "a legend of 16 MiB and a byte: refused quickly");
        like(err.msg, "big.yaml: larger than 16 MiB (16777216 bytes), the limit", "the message");
    }
    const char *forest = sparse("big-forest.yaml", (off_t)NBB_FOREST_FILE_MAX + 1);
    if (!forest) {
        skip(1, "no sparse file");
    } else {
        nbb_forest f;
        st = nbb_forest_read(forest, &f, &err);
        ok(st == NB_ERR_LIMIT && strstr(err.msg, "larger than 64000000 bytes"),
           "a forest file beyond its limit: refused (%s)", err.msg);
    }
    const char *map = sparse("big.map", (off_t)NBB_MAP_FILE_MAX + 1);
    if (!map) {
        skip(1, "no sparse file");
    } else {
        nbb_grid g;
        nbi_legend def;
        nbi_legend_default(&def);
        double t0 = now();
        st = nbb_map_read(map, &def, 1, &g, &err);
        ok(st == NB_ERR_LIMIT && strstr(err.msg, "larger than 1024 MiB") && now() - t0 < 2.0,
           "a map of 1 GiB and a byte: refused at once (%s)", err.msg);
    }
    const char *scen = sparse("big.scen", (off_t)NBB_SCEN_FILE_MAX + 1);
    if (!scen) {
        skip(1, "no sparse file");
    } else {
        nbb_scen sc;
        st = nbb_scen_read(scen, &sc, &err);
        ok(st == NB_ERR_LIMIT && strstr(err.msg, "larger than 256 MiB"),
           "a scenario file of 256 MiB and a byte: refused at once (%s)", err.msg);
    }

    /* The limit itself is allowed; a byte more is not, from a pipe or
     * device too (read up to the limit, then one byte more). */
    const char *exact = tu_path(tu_tmpdir(), "exact.txt");
    tu_write(exact, "0123456789", 10);
    char *buf;
    size_t len;
    st = nbb_read_file(exact, 10, &buf, &len, &err);
    if (ok(st == NB_OK && len == 10, "a file of exactly the limit reads"))
        free(buf);
    st = nbb_read_file(exact, 9, &buf, &len, &err);
    ok(st == NB_ERR_LIMIT && strstr(err.msg, "larger than 9 bytes"), "a byte over it does not");
    st = nbb_read_file("/dev/zero", 100000, &buf, &len, &err);
    ok(st == NB_ERR_LIMIT && strstr(err.msg, "/dev/zero: larger than 100000 bytes"),
       "an endless device is read up to the limit and refused (%s)", err.msg);
}

static void scen_lines(void)
{
    /* One query more than the limit. */
    size_t n = NBB_SCEN_MAX_LINES + 1, len = 0;
    char *t = malloc(16 + 20 * n);
    len += (size_t)sprintf(t, "version 1\n");
    for (size_t i = 0; i < n; i++) {
        memcpy(t + len, "0 m 1 1 0 0 0 0 0\n", 18);
        len += 18;
    }
    nbb_scen sc;
    nb_err err;
    nb_status st = nbb_scen_parse(t, len, "many.scen", &sc, &err);
    if (ok(st == NB_ERR_LIMIT, "a scenario file of %zu queries is refused", n))
        like(err.msg, "many.scen:1048578: more than 1048576 scenario lines", "the message");
    else if (st == NB_OK)
        nbb_scen_free(&sc);
    /* Coordinates beyond any map. */
    const char *absurd = "version 1\n0 m 16384 16384 99999999999999999999 0 0 0 0\n";
    st = nbb_scen_parse(absurd, strlen(absurd), "absurd.scen", &sc, &err);
    ok(st == NB_ERR_SYNTAX && strstr(err.msg, "absurd.scen:2: start x"),
       "an absurd coordinate is refused (%s)", err.msg);
    free(t);
}

int main(void)
{
    yaml_limits();
    file_sizes();
    scen_lines();
    return done_testing();
}
