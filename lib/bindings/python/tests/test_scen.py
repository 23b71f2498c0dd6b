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
    # No ../shared: pairs of cells of the sample map's largest component (a
    # path joins each), drawn from a fixed seed; navbake scen gives their
    # lengths below.
    m = os.path.join(DATA, "sample.map")
    rng = random.Random(34)
    pairs = []
    with navbake.Bundle(navbake.bake(m, work / "draw.nbk")) as b:
        cap = b.agents[0].capability
        by_component = {}
        for y in range(b.height):
            for x in range(b.width):
                if b.can_stand(cap, 1, x, y) == 1:
                    by_component.setdefault(b.component(cap, 1, x, y), []).append((x, y))
    cells = max(by_component.values(), key=len)
    assert len(by_component) > 1 and len(cells) > 500   # a choice was made
    while len(pairs) < N:
        pairs.append((rng.choice(cells), rng.choice(cells), None))
    return m, pairs


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
        # The binding's lengths, written as a scenario, are navbake scen's to 1e-8.
        ours = work / ("ours-%s.scen" % method)
        _scen_file(ours, b, rows)
        rc, out, err = run("navbake", "scen", "-m", method, "-T", "1e-8", bundle, ours)
        assert rc == 0, out + err
        assert "lines      %d run, 0 differ" % N in out
        # ... and a length off by 1e-6 is seen: the check can fail.
        s, g, length = rows[N // 2]
        rows[N // 2] = (s, g, length + 1e-6)
        _scen_file(ours, b, rows)
        rc, out, err = run("navbake", "scen", "-m", method, "-T", "1e-8", bundle, ours)
        assert rc == 3 and "1 differ" in out, out + err
