/* test_model.c: motion model files.  The shipped models read as the paper
 * describes them; one test per kind of bad file, with the line and column
 * its message names; the model section round trip; a damaged or foreign
 * model section and a table built for another model are refused. */
#include <stdio.h>
#include <stdlib.h>

#include "motion/perimeter.h"
#include "testutil.h"

static const char good[] =
    "name: m\n"
    "headings: 8\n"
    "offsets: [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]]\n"
    "speeds:\n"
    "  - {name: back, value: -1, turn: 1}\n"
    "  - {name: stop, value: 0, turn: 2}\n"
    "  - {name: go, value: 1, turn: 1}\n";

/* good with one line replaced (1-based), or a line appended when line is 0. */
static char *variant(int line, const char *text)
{
    static char buf[2048];
    const char *p = good;
    buf[0] = '\0';
    for (int n = 1; *p; n++) {
        const char *e = strchr(p, '\n');
        size_t len = (size_t)(e - p) + 1;
        if (n == line)
            strcat(buf, text);
        else
            strncat(buf, p, len);
        p += len;
    }
    if (line == 0)
        strcat(buf, text);
    return buf;
}

static void bad(const char *text, const char *want, const char *what)
{
    nb_model m;
    nb_err err;
    nb_status st = nbb_model_parse(text, strlen(text), "m.yaml", &m, &err);
    if (ok(st != NB_OK, "refused: %s", what))
        like(err.msg, want, "  message: %s", what);
    else
        ok(0, "  (accepted)");
}

int main(void)
{
    nb_model m;
    nb_err err;
    is_int(nbb_model_parse(good, strlen(good), "m.yaml", &m, &err), NB_OK, "a small model reads");

    /* The paper's three models. */
    static const struct { const char *name; unsigned h, s, stop, change; double vmax, w; int d4, rev; unsigned classes; } want[] = {
        {"humanoid", 16, 3, 0, 2, 2, 2, 1, 0, 1},
        {"tank", 24, 3, 1, 2, 1, 2, 1, 1, 1},
        {"vehicle", 16, 5, 1, 2, 3, 1.5, 1, 0, 5}};
    for (int i = 0; i < 3; i++) {
        char file[64];
        snprintf(file, sizeof file, "data/models/%s.yaml", want[i].name);
        if (!ok(nbb_model_read(tu_src(file), &m, &err) == NB_OK, "%s reads", file)) {
            diag("%s", err.msg);
            continue;
        }
        ok(m.nheadings == want[i].h && m.nspeeds == want[i].s && m.stop == want[i].stop &&
               m.speed_change == want[i].change && m.vmax == want[i].vmax && m.ext_weight == want[i].w,
           "%s: %u headings, %u speeds, top speed %g, w_m %g", want[i].name, want[i].h, want[i].s,
           want[i].vmax, want[i].w);
        ok(m.d4 == want[i].d4 && m.reverse == want[i].rev && m.nclasses == want[i].classes,
           "%s: symmetric under the square's symmetries%s; %u speed class%s", want[i].name,
           want[i].rev ? " and reversal" : "", want[i].classes, want[i].classes == 1 ? "" : "es");
    }
    nbb_model_read(tu_src("data/models/vehicle.yaml"), &m, NULL);
    ok(m.turn[0] == 2 && m.turn[1] == 0 && m.turn[2] == 3 && m.turn[3] == 1 && m.turn[4] == 0,
       "vehicle: turns 45 degrees in reverse, none stopped, 67.5 slow, 22.5 medium, none fast");
    nbb_model_read(tu_src("data/models/humanoid.yaml"), &m, NULL);
    ok(m.speed[0] == 0 && m.speed[1] == 1 && m.speed[2] == 2 && m.turn[0] == 3,
       "humanoid: stopped, walk 1, run 2; turns 3 steps when stopped");

    /* One test per kind of bad file; each message names line and column. */
    bad(variant(2, "headings: 9\n"), "m.yaml:3:10: offsets: 8 offsets for 9 headings",
        "a heading count that does not match its offsets");
    bad(variant(2, "headings: 2\n"), "m.yaml:2:11: headings: 2 is not a whole number from 4 to 64",
        "too few headings");
    bad(variant(5, "  - {name: back, value: -1, turn: 5}\n"),
        "m.yaml:5:35: speed 'back': turn 5 is beyond the headings: with 8 headings an action turns at most 4",
        "a turn limit beyond the headings");
    bad(variant(7, "  - {name: go, value: 100, turn: 1}\n"),
        "m.yaml:7:23: speed 'go': 100 is outside -64 to 64", "a speed out of range");
    bad(variant(7, "  - {name: go, value: fast, turn: 1}\n"),
        "m.yaml:7:23: speed 'go': expected a finite number, found 'fast'", "a speed that is not a number");
    bad(variant(7, "  - {name: go, value: -2, turn: 1}\n"), "m.yaml:7:23: speed 'go': -2 is not above 'stop'",
        "speeds out of order");
    bad(variant(6, "  - {name: stop, value: 0.5, turn: 2}\n"), "m.yaml:5:3: speeds: none has value 0",
        "no stopped speed");
    bad(variant(7, "  - {name: back, value: 1, turn: 1}\n"), "m.yaml:7:12: speed 3: name 'back' is already used",
        "a speed name used twice");
    bad(variant(3, "offsets: [[1, 0], [0, 1], [1, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]]\n"),
        "m.yaml:3:27: offsets: heading 2 [1, 1] does not come after heading 1 [0, 1] going around",
        "offsets out of turning order");
    bad(variant(3, "offsets: [[1, 0], [1, 1], [0, 0], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]]\n"),
        "m.yaml:3:27: offsets: heading 2: [0, 0] does not move", "an offset that does not move");
    bad(variant(3, "offsets: [[9, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]]\n"),
        "m.yaml:3:12: offsets: heading 0: 9 is not a whole number from -8 to 8", "an offset too long");
    bad(variant(3, "offsets: [[1, 0, 2], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]]\n"),
        "m.yaml:3:11: offsets: heading 0: 3 items, at most 2", "an offset of three numbers");
    bad(variant(0, "speed_change: 3\n"), "m.yaml:8:15: speed_change: 3 is not a whole number from 1 to 2",
        "a speed change beyond the speeds");
    bad(variant(0, "costs: {still: 0}\n"), "m.yaml:8:16: costs: still: 0 is outside", "a free still action");
    bad(variant(0, "extended_weight: 0.5\n"), "m.yaml:8:18: extended_weight: 0.5 is outside 1 to 16",
        "an extended weight below 1");
    bad(variant(0, "wheels: 4\n"), "m.yaml:8:1: model: unknown key 'wheels'", "an unknown key");
    bad(variant(1, "name: bad name\n"), "m.yaml:1:7: name: 'bad name' must be 1 to 31 letters",
        "a bad name");
    bad(variant(1, "\n"), "m.yaml:2:1: model: missing key 'name'", "no name");
    bad("name: m\nheadings: [\n", "m.yaml:3:1: YAML:", "broken YAML");

    /* The section round trip, and a damaged one. */
    nbb_model_read(tu_src("data/models/tank.yaml"), &m, NULL);
    size_t len = nbi_model_encoded_size(&m);
    uint8_t *buf = malloc(len);
    nbi_model_encode(&m, buf);
    nb_model back;
    ok(nbi_model_decode(buf, len, "tank", &back, &err) == NB_OK && back.crc == m.crc &&
           memcmp(back.dx, m.dx, sizeof m.dx) == 0 && memcmp(back.speed, m.speed, sizeof m.speed) == 0 &&
           back.nclasses == m.nclasses && back.reverse == m.reverse,
       "a model section decodes to the model it was made from");
    buf[48 + 8 * 2] = 0; /* heading 2's dx: (3, 2) becomes (0, 2), out of turning order */
    is_int(nbi_model_decode(buf, len, "tank", &back, &err), NB_ERR_FORMAT, "a damaged model section is refused");
    like(err.msg, "bad model section: model tank: heading", "and says what is wrong");
    is_int(nbi_model_decode(buf, len - 1, "tank", &back, &err), NB_ERR_FORMAT, "a truncated one too");
    free(buf);

    /* A table built from another definition of the model is refused. */
    {
        nbb_builder *bl;
        nb_model other = m;
        nb_bundle *b;
        nb_model *om;
        nb_perimeter *p;
        nbb_perimeter_opts o = {.radius = 3, .layout = NB_PERIM_ROTATED, .entry_bits = 16};
        const char *path = tu_path(tu_tmpdir(), "stale.nbk");
        other.ext_weight = 3;
        nbi_model_derive(&other);
        nbb_builder_new(&bl, NULL);
        nbb_put_perimeter(bl, &m, &o, NULL, NULL);
        nbb_put_model(bl, &other, NULL);
        nbb_builder_write(bl, path, NULL);
        nbb_builder_free(bl);
        nb_bundle_open(path, 0, NULL, &b, NULL);
        ok(nb_model_open(b, "tank", &om, &err) == NB_OK, "the changed model opens");
        is_int(nb_perimeter_open(b, om, &p, &err), NB_ERR_FORMAT, "but the old table is refused");
        like(err.msg, "was built from another definition of the model", "saying why");
        nb_model_close(om);
        is_int(nb_model_open(b, "humanoid", &om, &err) == NB_OK ? 0 : err.code, NB_ERR_NOTFOUND,
               "a model the bundle lacks");
        like(err.msg, "no motion model 'humanoid' (the bundle has tank)", "is named with those it has");
        nb_bundle_close(b);
    }
    return done_testing();
}
