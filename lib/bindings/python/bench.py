"""The binding's overhead per query against the C call on the same queries.

    NAVBAKE_LIB=lib/.libs NAVBAKE_TOOLS=tools PYTHONPATH=lib/bindings/python \
        python3 lib/bindings/python/bench.py [MAP [N]]

MAP (default ../shared/maps/dao/lak303d.map, else data/sample.map) is baked
with mkclear; N (default 1000) queries are the first lines of its .scen (or
pairs drawn on the map).  Two sets, each run 5 times, the median of the
runs' means kept:
  scen:    the scenario's queries, Annotated A*: `navbake scen --json`'s
           mean_us (the C call, timed per query in C) against AA.find;
  trivial: the same starts as goals (the library answers at once), where
           the time is almost all the call's: the C mean, AA.find, and the
           bare ctypes call (nb_aa_find with its arguments made once).
The overhead is the Python mean minus the C mean.  tests/bench/results/
python-bench.md keeps the figures of a run.
"""
import ctypes
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import navbake
from navbake import tool_path
from navbake.scen import read_scen

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
RUNS = 5


def c_mean(bundle, scen):
    out = subprocess.run([tool_path("navbake"), "scen", "--json", "-T", "1e9", bundle, scen],
                         stdout=subprocess.PIPE, check=False, text=True).stdout
    return json.loads(out)["mean_us"]


def py_mean(ws, pairs):
    find, clock = ws.find, time.perf_counter
    t0 = clock()
    for s, g in pairs:
        find(s, g)
    return (clock() - t0) / len(pairs) * 1e6


def bare_mean(ws, pairs):
    """nb_aa_find through ctypes with nothing of the binding around it (the
    binding's own function pointer, without argtypes: the floor of a ctypes
    call)."""
    f = ws._f._find
    h, q, r, e = ws._ptr, ctypes.byref(ws.query), ws._f._rref, ws._eref
    start, goal = ws.query.start, ws.query.goal
    clock = time.perf_counter
    t0 = clock()
    for (sx, sy), (gx, gy) in pairs:
        start.x = sx
        start.y = sy
        goal.x = gx
        goal.y = gy
        f(h, q, r, e)
    return (clock() - t0) / len(pairs) * 1e6


def write_scen(path, b, pairs):
    with open(path, "w") as f:
        f.write("version 1\n")
        for s, g in pairs:
            f.write("0\tm\t%d\t%d\t%d\t%d\t%d\t%d\t0\n" % ((b.width, b.height) + s + g))


def main():
    shared = os.path.join(TOP, "..", "shared", "maps", "dao", "lak303d.map")
    m = sys.argv[1] if len(sys.argv) > 1 else (
        shared if os.path.exists(shared) else os.path.join(TOP, "data", "sample.map"))
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    tmp = tempfile.mkdtemp(prefix="nb-pybench-")
    bundle = navbake.bake(m, os.path.join(tmp, "b.nbk"))
    with navbake.Bundle(bundle) as b:
        if os.path.exists(m + ".scen"):
            with open(m + ".scen") as f:
                pairs = [(l.start, l.goal) for l in read_scen(m + ".scen", f.read())[:n]]
        else:
            cap, rng = b.agents[0].capability, random.Random(34)
            cells = [(x, y) for y in range(b.height) for x in range(b.width)
                     if b.can_stand(cap, 1, x, y) == 1]
            pairs = [(rng.choice(cells), rng.choice(cells)) for _ in range(n)]
        trivial = [(s, s) for s, _ in pairs]
        scen, triv = os.path.join(tmp, "q.scen"), os.path.join(tmp, "t.scen")
        write_scen(scen, b, pairs)
        write_scen(triv, b, trivial)
        ws = b.aa()
        rows = []
        for name, path, qs in (("scen", scen, pairs), ("trivial", triv, trivial)):
            c = statistics.median(c_mean(bundle, path) for _ in range(RUNS))
            p = statistics.median(py_mean(ws, qs) for _ in range(RUNS))
            bare = statistics.median(bare_mean(ws, qs) for _ in range(RUNS))
            rows.append((name, len(qs), c, p, bare))
    print("map %s, %d queries a set, median of %d runs' means, microseconds per query"
          % (os.path.basename(m), n, RUNS))
    print("%-8s %8s %10s %10s %10s %10s" % ("set", "queries", "C", "AA.find", "ctypes",
                                            "overhead"))
    for name, k, c, p, bare in rows:
        print("%-8s %8d %10.2f %10.2f %10.2f %10.2f" % (name, k, c, p, bare, p - c))


if __name__ == "__main__":
    main()
