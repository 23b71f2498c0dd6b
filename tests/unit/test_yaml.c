/* test_yaml.c: the terrain legend and agent set readers: good files, the
 * shipped defaults, and one test per kind of bad input with its message. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

static nb_status legend_text(const char *text, nbi_legend *l, nb_err *err)
{
    return nbb_legend_parse(text, strlen(text), "l.yaml", l, err);
}

static nb_status agents_text(const char *text, const nbi_legend *l, nbi_agentset *set, nb_err *err)
{
    return nbb_agents_parse(text, strlen(text), "a.yaml", l, set, err);
}

static void bad_legend(const char *text, nb_status code, const char *want, const char *what)
{
    nbi_legend l;
    nb_err err;
    nb_status st = legend_text(text, &l, &err);
    if (!ok(st == code, "legend, %s: refused with %s", what, nb_status_str(code)))
        diag("status %s: %s", nb_status_str(st), st ? err.msg : "(accepted)");
    if (st != NB_OK)
        like(err.msg, want, "legend, %s: message", what);
}

static void bad_agents(const char *text, const nbi_legend *l, nb_status code, const char *want,
                       const char *what)
{
    static nbi_agentset set;
    nb_err err;
    nb_status st = agents_text(text, l, &set, &err);
    if (!ok(st == code, "agents, %s: refused with %s", what, nb_status_str(code)))
        diag("status %s: %s", nb_status_str(st), st ? err.msg : "(accepted)");
    if (st != NB_OK)
        like(err.msg, want, "agents, %s: message", what);
}

int main(void)
{
    nbi_legend def, l;
    nb_err err;
    static nbi_agentset set;
    nbi_legend_default(&def);

    /* The shipped default legend is the built-in one. */
    nb_status st = nbb_legend_read(tu_src("data/legend.yaml"), &l, &err);
    if (ok(st == NB_OK, "data/legend.yaml reads"))
        ok(memcmp(&l, &def, sizeof l) == 0, "and equals the built-in default legend");
    else
        diag("%s", err.msg);
    is_str(def.chars[0], ".G", "default: ground is '.' and 'G'");
    is_str(def.obstacles, "@O", "default: obstacles are '@' and 'O'");
    ok(def.code['S'] == 1 && def.code['W'] == 2 && def.code['T'] == 3,
       "default: swamp, water and trees are terrains of their own");

    /* Printing a legend gives YAML that reads back the same. */
    {
        const char *p = tu_path(tu_tmpdir(), "printed.yaml");
        FILE *f = fopen(p, "w");
        nbi_legend odd, back;
        st = legend_text("terrains:\n  - name: a\n    chars: '\"\\'\n  - name: b_2\n    chars: \"#:\"\n"
                         "obstacles: \"[]{}\"\n", &odd, &err);
        ok(st == NB_OK, "a legend with YAML's special characters reads");
        nbb_legend_print(&odd, f);
        fclose(f);
        st = nbb_legend_read(p, &back, &err);
        ok(st == NB_OK && memcmp(&odd, &back, sizeof odd) == 0, "printed, it reads back the same");
    }

    /* The default agent set: data/agents.yaml and the built-in one. */
    st = nbb_agents_read(tu_src("data/agents.yaml"), &def, &set, &err);
    ok(st == NB_OK && set.count == 1 && set.agent[0].size == 1 && set.agent[0].capability == 0x3,
       "data/agents.yaml: one agent, size 1, ground and swamp");
    {
        static nbi_agentset d;
        st = nbb_agents_default(&def, &d, &err);
        ok(st == NB_OK && d.count == 1 && memcmp(&d.agent[0], &set.agent[0], sizeof d.agent[0]) == 0,
           "the built-in default agent set equals data/agents.yaml");
    }
    st = nbb_agents_read(tu_src("data/sample-agents.yaml"), &def, &set, &err);
    if (ok(st == NB_OK && set.count == 4, "data/sample-agents.yaml: four agents")) {
        nb_capability caps[NB_MAX_AGENTS];
        uint32_t sizes[NB_MAX_AGENTS];
        size_t nc = nbi_agents_capabilities(&set, caps), ns = nbi_agents_sizes(&set, sizes);
        ok(nc == 4 && caps[0] == 0x3 && caps[1] == 0x1 && caps[2] == 0x7 && caps[3] == 0xb,
           "the capabilities it serves, in order");
        ok(ns == 3 && sizes[0] == 1 && sizes[1] == 2 && sizes[2] == 3 && nbi_agents_max_size(&set) == 3,
           "the sizes it serves, ascending");
    } else {
        diag("%s", err.msg);
    }
    st = agents_text("agents:\n  - {name: x, size: 2, capability: ground}\n", &def, &set, &err);
    ok(st == NB_OK && set.agent[0].capability == 1 && set.agent[0].size == 2,
       "a capability may be a single terrain name");

    /* Agents printed read back the same. */
    {
        const char *p = tu_path(tu_tmpdir(), "agents.yaml");
        static nbi_agentset back;
        nbb_agents_read(tu_src("data/sample-agents.yaml"), &def, &set, &err);
        FILE *f = fopen(p, "w");
        nbb_agents_print(&set, &def, f);
        fclose(f);
        st = nbb_agents_read(p, &def, &back, &err);
        ok(st == NB_OK && back.count == set.count &&
               memcmp(back.agent, set.agent, set.count * sizeof set.agent[0]) == 0,
           "a printed agent set reads back the same");
    }

    /* Bad legends. */
    bad_legend("", NB_ERR_SYNTAX, "l.yaml: empty; expected a terrain legend", "empty file");
    bad_legend("terrains: [\n", NB_ERR_SYNTAX, "l.yaml:2:1: YAML: did not find expected node content",
               "YAML syntax error");
    bad_legend("- a\n- b\n", NB_ERR_SYNTAX, "l.yaml:1:1: expected a terrain legend", "root is a list");
    bad_legend("terrains: []\nobstacle: \"@\"\n", NB_ERR_SYNTAX,
               "l.yaml:2:1: legend: unknown key 'obstacle' (expected terrains, obstacles, obstacle_tiles, obstacle_values, obstacle_colours, empty, unnamed, obstacle_heights, max_step, height_bits)", "unknown key");
    bad_legend("obstacles: \"@\"\n", NB_ERR_SYNTAX, "l.yaml:1:1: legend: missing key 'terrains'",
               "no terrains");
    bad_legend("terrains: []\n", NB_ERR_SYNTAX, "l.yaml:1:11: terrains: the list is empty", "empty terrains");
    bad_legend("terrains: ground\n", NB_ERR_SYNTAX, "l.yaml:1:11: terrains: expected a list, found a scalar",
               "terrains not a list");
    bad_legend("terrains:\n  - name: a\n    chars: x\n  - name: a\n    chars: y\n", NB_ERR_SYNTAX,
               "l.yaml:4:11: terrain 2: name 'a' is already used", "duplicate terrain name");
    bad_legend("terrains:\n  - name: a b\n    chars: x\n", NB_ERR_SYNTAX,
               "l.yaml:2:11: terrain 1: name 'a b' must be letters", "invalid terrain name");
    bad_legend("terrains:\n  - name: a\n    chars: xy\n  - name: b\n    chars: y\n", NB_ERR_SYNTAX,
               "l.yaml:5:12: terrain 2: character 'y' is already a", "character used twice");
    bad_legend("terrains:\n  - name: a\n    chars: x\nobstacles: \"@x\"\n", NB_ERR_SYNTAX,
               "l.yaml:4:12: obstacles: character 'x' is already a", "obstacle that is a terrain");
    bad_legend("terrains:\n  - name: a\n    chars: \"x y\"\n", NB_ERR_SYNTAX,
               "l.yaml:3:12: terrain 1: character 0x20 is not a printable", "space as a map character");
    bad_legend("terrains:\n  - name: a\n    chars: \"\"\n", NB_ERR_SYNTAX, "l.yaml:3:12: terrain 1: chars is empty",
               "empty chars");
    bad_legend("terrains:\n  - name: a\n", NB_ERR_SYNTAX, "l.yaml:2:5: terrain 1: missing key 'chars'",
               "terrain without chars");
    bad_legend("terrains:\n  - name: a\n    chars: x\n    speed: 2\n", NB_ERR_SYNTAX,
               "l.yaml:4:5: terrain 1: unknown key 'speed' (expected name, chars, tiles, values, colours, heights)", "unknown terrain key");
    bad_legend("terrains:\n  - name: a\n    name: b\n    chars: x\n", NB_ERR_SYNTAX,
               "l.yaml:3:5: terrain 1: key 'name' appears twice", "duplicate key");
    bad_legend("terrains:\n  - name: [a]\n    chars: x\n", NB_ERR_SYNTAX,
               "l.yaml:2:11: terrain 1: expected a scalar, found a list", "name that is a list");
    bad_legend("terrains:\n  - name: a\n    chars: x\n---\nterrains: []\n", NB_ERR_SYNTAX,
               "l.yaml:5:1: a second YAML document", "two documents");
    {
        char text[8192] = "terrains:\n";
        for (int t = 0; t < 33; t++)
            snprintf(text + strlen(text), sizeof text - strlen(text), "  - name: t%d\n    chars: \"%c\"\n", t,
                     t < 26 ? 'A' + t : 'a' + t - 26);
        bad_legend(text, NB_ERR_LIMIT, "l.yaml:2:3: terrains: 33 items, at most 32", "33 terrains");
    }

    /* Bad agent sets. */
    bad_agents("agents: []\n", &def, NB_ERR_SYNTAX, "a.yaml:1:9: agents: the list is empty", "no agents");
    bad_agents("agent:\n", &def, NB_ERR_SYNTAX, "a.yaml:1:1: agent set: unknown key 'agent' (expected agents)",
               "misspelt key");
    bad_agents("agents:\n  - name: x\n    size: 1\n    capability: [ground, lava]\n", &def, NB_ERR_NOTFOUND,
               "a.yaml:4:26: agent 'x': unknown terrain 'lava' (the legend has ground,swamp,water,trees)",
               "unknown terrain");
    bad_agents("agents:\n  - name: x\n    size: 0\n    capability: [ground]\n", &def, NB_ERR_LIMIT,
               "a.yaml:3:11: agent 'x': 0 is not a whole number from 1 to 64", "size 0");
    bad_agents("agents:\n  - name: x\n    size: 65\n    capability: [ground]\n", &def, NB_ERR_LIMIT,
               "a.yaml:3:11: agent 'x': 65 is not a whole number from 1 to 64", "size 65");
    bad_agents("agents:\n  - name: x\n    size: two\n    capability: [ground]\n", &def, NB_ERR_SYNTAX,
               "a.yaml:3:11: agent 'x': expected a whole number from 1 to 64, found 'two'", "size a word");
    bad_agents("agents:\n  - name: x\n    size: \"2\"\n    capability: [ground]\n", &def, NB_ERR_SYNTAX,
               "expected a whole number", "size quoted as a string");
    bad_agents("agents:\n  - name: x\n    size: 1.5\n    capability: [ground]\n", &def, NB_ERR_SYNTAX,
               "found '1.5'", "size not whole");
    bad_agents("agents:\n  - size: 1\n    capability: [ground]\n", &def, NB_ERR_SYNTAX,
               "a.yaml:2:5: agent 1: missing key 'name'", "no name");
    bad_agents("agents:\n  - name: x\n    size: 1\n", &def, NB_ERR_SYNTAX,
               "a.yaml:2:5: agent 1: missing key 'capability'", "no capability");
    bad_agents("agents:\n  - name: x\n    size: 1\n    capability: []\n", &def, NB_ERR_SYNTAX,
               "a.yaml:4:17: agent 'x': the capability is empty", "empty capability");
    bad_agents("agents:\n  - {name: x, size: 1, capability: ground}\n  - {name: x, size: 2, capability: ground}\n",
               &def, NB_ERR_SYNTAX, "a.yaml:3:12: agent 2: name 'x' is already used", "duplicate agent name");
    bad_agents("agents:\n  - {name: \"bad name\", size: 1, capability: ground}\n", &def, NB_ERR_SYNTAX,
               "a.yaml:2:12: agent 1: name 'bad name' must be", "invalid agent name");
    bad_agents("agents:\n  - {name: x, size: 1, capability: ground, speed: 3}\n", &def, NB_ERR_SYNTAX,
               "a.yaml:2:44: agent 1: unknown key 'speed'", "unknown agent key");
    {
        static char text[300 * 60];
        strcpy(text, "agents:\n");
        for (int i = 0; i < 257; i++)
            snprintf(text + strlen(text), sizeof text - strlen(text),
                     "  - {name: a%d, size: 1, capability: ground}\n", i);
        bad_agents(text, &def, NB_ERR_LIMIT, "a.yaml:2:3: agents: 257 items, at most 256", "257 agents");
    }
    {
        nbi_legend two;
        legend_text("terrains:\n  - {name: rock, chars: \".\"}\n  - {name: lava, chars: L}\n", &two, &err);
        st = nbb_agents_default(&two, &set, &err);
        ok(st == NB_ERR_NOTFOUND, "the default agent set with a legend that has no swamp is refused");
        like(err.msg, "give an agent set (--agents)", "and the message says what to do");
    }

    /* Files that cannot be read. */
    st = nbb_legend_read("/nonexistent/l.yaml", &l, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "/nonexistent/l.yaml"), "a missing legend file names the path");
    st = nbb_agents_read("/nonexistent/a.yaml", &def, &set, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "/nonexistent/a.yaml"), "a missing agent file names the path");
    return done_testing();
}
