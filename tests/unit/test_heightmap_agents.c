/* test_heightmap_agents.c: a heightmap read for agents that state their own
 * step limits (formats/agents.md, max_step).  Random heightmaps, three
 * agents (one steeper than the legend's limit, one shallower, one with the
 * legend's): where each agent stands, and at what cost, against a brute
 * force of the band, slope and step rules from the heights alone; no move
 * between two cells an agent stands on climbs or drops more than its limit;
 * agents that state nothing read as before; bad values refused naming the
 * file, line and agent. */
#include <stdio.h>
#include <stdlib.h>

#include "input/levels.h"
#include "testutil.h"

#define W 40
#define H 30

static const char legend_yaml[] =
    "terrains:\n"
    "  - name: ground\n    chars: \".\"\n"
    "  - name: water\n    chars: \"W\"\n    heights: [0, 9]\n"
    "obstacles: \"@\"\nobstacle_heights: [75, 255]\nmax_step: 12\n";

static const char agents_yaml[] =
    "agents:\n"
    "  - name: goat\n    size: 1\n    capability: [ground, water]\n    costs: {water: 2}\n"
    "    max_step: 20\n"
    "  - name: cart\n    size: 1\n    capability: ground\n    max_step: 4\n"
    "  - name: walker\n    size: 1\n    capability: [ground, water]\n";

static const uint32_t limit[3] = {20, 4, 12}; /* goat, cart, walker (the legend's) */

static uint8_t z[H][W];

static void random_heights(tu_rng *r)
{
    /* Smooth slopes with cliffs: a random walk along rows, jumps now and then. */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int base = y ? z[y - 1][x] : 30;
            if (x)
                base = (base + z[y][x - 1]) / 2;
            int v = base + (int)tu_below(r, 9) - 4 + (tu_below(r, 12) == 0 ? (int)tu_below(r, 41) - 20 : 0);
            z[y][x] = (uint8_t)(v < 0 ? 0 : v > 90 ? 90 : v);
        }
}

static int drop_of(int x, int y)
{
    int d = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nx = x + dx, ny = y + dy;
            if (nx >= 0 && ny >= 0 && nx < W && ny < H && z[y][x] - z[ny][nx] > d)
                d = z[y][x] - z[ny][nx];
        }
    return d;
}

static const char *write_pgm(const char *dir)
{
    static uint8_t buf[64 + W * H];
    int n = snprintf((char *)buf, 64, "P5\n%d %d\n255\n", W, H);
    memcpy(buf + n, z, W * H);
    const char *path = tu_path(dir, "hills.pgm");
    tu_write(path, buf, (size_t)n + W * H);
    return path;
}

/* One random heightmap: every agent's standability and cost against the brute force. */
static void one_map(tu_rng *r, const char *dir, const char *lpath, const char *apath, int round)
{
    random_heights(r);
    const char *pgm = write_pgm(dir);
    nbi_legend legend;
    static nbi_agentset agents;
    nbb_grid g;
    nb_err err;
    nb_status st = nbb_read_level(lpath, apath, pgm, 1, &legend, &agents, &g, &err);
    ok(st == NB_OK, "map %d: reads with the agents%s%s", round, st ? ": " : "", st ? err.msg : "");
    if (st != NB_OK)
        return;
    int wrong_stand = 0, wrong_cost = 0, steep = 0, classes = 0, differ = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int code = legend.code[g.cells[(size_t)y * W + x]];
            /* The brute force: the band, then each agent's limit against the drop. */
            int obstacle = z[y][x] >= 75, water = z[y][x] <= 9, d = drop_of(x, y);
            int stands_some = 0, stands_all = 1;
            for (int a = 0; a < 3; a++) {
                const nb_agent *ag = &agents.agent[a];
                int can_band = water ? a != 1 : 1; /* the cart's capability is ground alone */
                int want = !obstacle && can_band && d <= (int)limit[a];
                int got = code != NBI_CELL_OBSTACLE && (ag->capability >> code & 1u);
                wrong_stand += want != got;
                if (want && got)
                    wrong_cost += ag->cost[code] != (water && a == 0 ? 2.0 : 1.0);
                stands_some |= got, stands_all &= got || !can_band;
            }
            classes += code != NBI_CELL_OBSTACLE && code >= 2;
            differ += stands_some && !stands_all;
        }
    is_int(wrong_stand, 0, "map %d: each agent stands where the brute force says", round);
    is_int(wrong_cost, 0, "map %d: each agent pays its band's cost", round);
    ok(classes > 0 && differ > 0, "map %d: the agents' limits part cells (%d cells of step terrains)",
       round, classes);
    /* The step rule, independently: no move between two cells an agent stands on climbs more. */
    for (int a = 0; a < 3; a++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = x + dx, ny = y + dy;
                        if (nx < 0 || ny < 0 || nx >= W || ny >= H)
                            continue;
                        int c1 = legend.code[g.cells[(size_t)y * W + x]];
                        int c2 = legend.code[g.cells[(size_t)ny * W + nx]];
                        nb_capability cap = agents.agent[a].capability;
                        if (c1 != NBI_CELL_OBSTACLE && c2 != NBI_CELL_OBSTACLE && (cap >> c1 & 1u) &&
                            (cap >> c2 & 1u) && abs(z[y][x] - z[ny][nx]) > (int)limit[a])
                            steep++;
                    }
    is_int(steep, 0, "map %d: no move an agent may make steps more than its limit", round);
    nbb_grid_free(&g);

    /* The same heights for agents that state no limit: the legend's, as before. */
    nbi_legend l2, l3;
    nbb_grid g2, g3;
    static nbi_agentset plain;
    st = nbb_read_level(lpath, tu_path(dir, "plain.yaml"), pgm, 1, &l2, &plain, &g2, &err);
    nb_status st3 = nbb_read_level(lpath, NULL, pgm, 1, &l3, NULL, &g3, &err);
    ok(st == NB_OK && st3 == NB_OK && l2.nterrains == 2 &&
           memcmp(g2.cells, g3.cells, (size_t)W * H) == 0,
       "map %d: agents without max_step read the legend's limit alone", round);
    if (st == NB_OK)
        nbb_grid_free(&g2);
    if (st3 == NB_OK)
        nbb_grid_free(&g3);
}

static void refused(const char *dir, const char *lpath, const char *yaml, const char *want)
{
    const char *apath = tu_path(dir, "bad.yaml");
    tu_write(apath, yaml, strlen(yaml));
    nbi_legend legend;
    static nbi_agentset agents;
    nbb_grid g;
    nb_err err;
    nb_status st = nbb_read_level(lpath, apath, tu_path(dir, "hills.pgm"), 1, &legend, &agents, &g, &err);
    ok(st != NB_OK, "refused: %s", want);
    like(st != NB_OK ? err.msg : "", want, "says where: %s", want);
    if (st == NB_OK)
        nbb_grid_free(&g);
}

int main(void)
{
    const char *dir = tu_tmpdir();
    /* tu_path's buffers rotate: keep these two. */
    char lpath[512], apath[512];
    snprintf(lpath, sizeof lpath, "%s", tu_path(dir, "legend.yaml"));
    snprintf(apath, sizeof apath, "%s", tu_path(dir, "agents.yaml"));
    tu_write(lpath, legend_yaml, strlen(legend_yaml));
    tu_write(apath, agents_yaml, strlen(agents_yaml));
    const char *plain = "agents:\n  - name: goat\n    size: 1\n    capability: [ground, water]\n";
    tu_write(tu_path(dir, "plain.yaml"), plain, strlen(plain));
    tu_rng r = {0x5eedcafe};
    for (int round = 1; round <= 6; round++)
        one_map(&r, dir, lpath, apath, round);

    const char *head = "agents:\n  - name: cart\n    size: 1\n    capability: ground\n";
    char yaml[512];
    snprintf(yaml, sizeof yaml, "%s    max_step: 70000\n", head);
    refused(dir, lpath, yaml, "bad.yaml:5:15: agent 'cart': max_step: ");
    snprintf(yaml, sizeof yaml, "%s    max_step: -3\n", head);
    refused(dir, lpath, yaml, "bad.yaml:5:15: agent 'cart': max_step: ");
    snprintf(yaml, sizeof yaml, "%s    max_step: steep\n", head);
    refused(dir, lpath, yaml, "bad.yaml:5:15: agent 'cart': max_step: ");
    snprintf(yaml, sizeof yaml, "%s    max_step: [3]\n", head);
    refused(dir, lpath, yaml, "bad.yaml:5:15: agent 'cart': max_step: ");
    /* The terrain a limit needs must not take a legend's name. */
    const char *taken = "terrains:\n  - name: ground\n    chars: \".\"\n"
                        "  - name: ground-step20\n    chars: \"g\"\n    heights: [0, 9]\n"
                        "obstacles: \"@\"\nmax_step: 12\n";
    tu_write(lpath, taken, strlen(taken));
    snprintf(yaml, sizeof yaml,
             "agents:\n  - name: goat\n    size: 1\n    capability: ground\n    max_step: 20\n"
             "  - name: cart\n    size: 1\n    capability: ground\n    max_step: 4\n");
    refused(dir, lpath, yaml, "hills.pgm: the agents' step limits need a terrain 'ground-step20', a name the legend already uses");
    return done_testing();
}
