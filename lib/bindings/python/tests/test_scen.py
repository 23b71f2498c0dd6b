"""The issue's script: bake a level, open it, answer 1,000 scenario queries and
get the same lengths as `navbake scen` (Annotated A* and the optimal layer)."""
import os
import random

import pytest

import navbake
from conftest import DATA, run, shared_map
from navbake.scen import read_scen

N = 1000


def _queries(work):
    """The map and (start, goal, the file's length) of 1,000 queries: the first
    lines of a MovingAI scenario of ../shared when it is there, else pairs
    drawn on data/sample.map (no length of their own)."""
    m = shared_map("dao/lak303d.map")
    if m:
        with open(m + ".scen") as f:
            lines = read_scen(m + ".scen", f.read())[:N]
        return m, [(l.start, l.goal, (l.optimal, l.decimals)) for l in lines]
    # No ../shared: pairs on data/sample.map (whose components are several:
    # pairs of any standable cells would not all be joined).
    m = os.path.join(DATA, "sample.map")
    return m, _pairs(navbake.bake(m, work / "draw.nbk"))


def _pairs(bundle, n=N):
    """n pairs of cells of the bundle's largest component for its first agent
    (a path joins each), drawn from a fixed seed, with no length of their
    own: navbake scen gives theirs."""
    rng = random.Random(34)
    with navbake.Bundle(bundle) as b:
        cap = b.agents[0].capability
        by_component = {}
        for y in range(b.height):
            for x in range(b.width):
                if b.can_stand(cap, 1, x, y) == 1:
                    by_component.setdefault(b.component(cap, 1, x, y), []).append((x, y))
    cells = max(by_component.values(), key=len)
    assert len(cells) > 20
    return [(rng.choice(cells), rng.choice(cells), None) for _ in range(n)]


def _same_as_navbake_scen(work, b, bundle, method, rows):
    """The binding's lengths, written as a scenario, are navbake scen's to 1e-8
    (and a length off by 1e-6 is seen: the check can fail)."""
    ours = work / ("ours-%s-%s.scen" % (os.path.basename(str(bundle)), method))
    _scen_file(ours, b, rows)
    rc, out, err = run("navbake", "scen", "-m", method, "-T", "1e-8", bundle, ours)
    assert rc == 0, out + err
    assert "lines      %d run, 0 differ" % len(rows) in out
    s, g, length = rows[len(rows) // 2]
    rows[len(rows) // 2] = (s, g, length + 1e-6)
    _scen_file(ours, b, rows)
    rc, out, err = run("navbake", "scen", "-m", method, "-T", "1e-8", bundle, ours)
    assert rc == 3 and "1 differ" in out, out + err


def _scen_file(path, b, rows):
    with open(path, "w") as f:
        f.write("version 1\n")
        for (s, g, length) in rows:
            f.write("0\tm.map\t%d\t%d\t%d\t%d\t%d\t%d\t%.8f\n" % (
                (b.width, b.height) + s + g + (length,)))


@pytest.mark.parametrize("method", ["aa", "optimal"])
def test_thousand_queries_match_navbake_scen(work, method):
    m, queries = _queries(work)
    assert len(queries) == N
    bundle = navbake.bake(m, work / ("scen-%s.nbk" % method), optimal=(method == "optimal"))
    with navbake.Bundle(bundle) as b:
        ws = b.aa() if method == "aa" else b.sg()
        rows = []
        for s, g, _ in queries:
            r = ws.find(s, g)
            assert r.status == navbake.PathStatus.FOUND, (s, g, r.status)
            rows.append((s, g, r.length))
        # The file's own optimal lengths, when it has them, agree too (to a
        # unit of their last decimal for those written with fewer than 4, as
        # navbake scen takes them).
        for (s, g, opt), (_, _, got) in zip(queries, rows):
            if opt is not None:
                length, decimals = opt
                assert abs(got - length) <= max(1e-4, 10.0 ** -decimals), (s, g, got, opt)
        _same_as_navbake_scen(work, b, bundle, method, rows)


def test_a_tiled_level_matches_navbake_scen(work):
    """The issue's script on a level from an editor: a Tiled map (the bakers
    read .tmx by its extension) baked, opened, 1,000 queries answered."""
    level = os.path.join(DATA, "levels", "room-csv.tmx")
    bundle = navbake.bake(level, work / "room.nbk",
                          legend=os.path.join(DATA, "levels", "room-legend.yaml"))
    queries = _pairs(bundle)
    with navbake.Bundle(bundle) as b:
        assert (b.width, b.height) == (12, 8)
        ws = b.aa()
        rows = []
        for s, g, _ in queries:
            r = ws.find(s, g)
            assert r.status == navbake.PathStatus.FOUND, (s, g, r.status)
            rows.append((s, g, r.length))
        assert len({round(l, 6) for _, _, l in rows}) > 10   # lengths of many kinds
        _same_as_navbake_scen(work, b, bundle, "aa", rows)
