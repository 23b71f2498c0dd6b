"""Every search family once, against the navbake command's answer to the same
query on the same bundle."""
import math

import pytest

import navbake
from conftest import cjson

S, G = (2, 2), (60, 36)


def cells(path):
    return [list(c) for c in path]


def test_aa(sample_path, sample):
    c = cjson("query", "--json", "-p", sample_path, "--from", "2,2", "--to", "60,36")
    r = sample.aa().find(S, G)
    assert r.status.name == "FOUND" and c["status"] == "found"
    assert "%.8f" % r.length == "%.8f" % c["length"]
    assert r.expanded == c["expanded"]
    assert cells(r.path) == c["path"]


def test_sg(sample_path, sample):
    c = cjson("query", "--json", "-p", "-m", "optimal", sample_path, "--from", "2,2", "--to",
              "60,36")
    r = sample.sg().find(S, G)
    assert "%.8f" % r.length == "%.8f" % c["length"] and r.expanded == c["expanded"]
    assert cells(r.path) == c["path"]
    assert r.waypoints[0] == S and r.waypoints[-1] == G


@pytest.mark.parametrize("method,flags", [("haa", {"straighten": True}), ("haa-refined", {})])
def test_haa(sample_path, sample, method, flags):
    c = cjson("query", "--json", "-p", "-m", method, sample_path, "--from", "2,2", "--to",
              "60,36")
    ws = sample.haa()
    ws.configure(**flags)
    r = ws.find(S, G)
    assert "%.8f" % r.length == "%.8f" % c["length"] and r.level == c["level"]
    assert cells(r.path) == c["path"]
    assert ws.reachable(S, G)


def test_overlay(sample_path, sample):
    c = cjson("query", "--json", "-p", "--block", "20,2,2,3", sample_path, "--from", "2,2",
              "--to", "60,36")
    with sample.overlay() as ov:
        ov.block(20, 2, 2, 3)
        assert ov.blocked_count == c["blocked_cells"] == 6 and ov.blocked(21, 4)
        r = sample.aa().find(S, G, overlay=ov)
        assert "%.8f" % r.length == "%.8f" % c["length"] and cells(r.path) == c["path"]
        assert ov.can_stand(sample.agents[0].capability, 1, 20, 2) == 0
        clone = ov.clone()
        clone.clear()
        assert clone.blocked_count == 0 and ov.blocked_count == 6


def test_nearest(sample_path, sample):
    c = cjson("nearest", "--json", sample_path, "0,0")
    r = sample.place().nearest((0, 0))
    assert r.found and r.cell == (c["x"], c["y"]) and "%.8f" % r.distance == "%.8f" % c["distance"]
    assert r.examined == c["examined"]


def test_line(sample_path, sample):
    c = cjson("line", "--json", sample_path, "--from", "2,2", "--to", "60,36")
    r = sample.place().line((2.0, 2.0), (60.0, 36.0))
    assert r.status.name == "NONE" and c["status"] == "blocked"
    assert r.t == c["t"] and list(r.last) == c["last"]
    assert r.blocking == (c["blocking"]["x"], c["blocking"]["y"])


def test_random(sample_path, sample):
    c = cjson("random", "--json", "--seed", "7", "-n", "3", sample_path)
    p = sample.place()
    seed, picks = 7, []
    for _ in range(3):
        r = p.random(seed=seed)
        picks.append(list(r.cell))
        seed = r.state
    assert picks == c["picks"] and r.cells == c["cells"]


def test_motion(sample_path, sample):
    c = cjson("plan", "--model", "tank", "--json", "-f", "2,2,0", "-t", "60,36,any",
              "-H", "perimeter", sample_path)
    model = sample.model("tank")
    stop = model.speed_lookup("stopped")
    assert stop == model.stop and model.speed(stop) == 0
    with model.search(perimeter=True) as ws:
        r = ws.find((2, 2, 0, stop), (60, 36, navbake.HEADING_ANY, stop),
                    heuristic="perimeter")
        assert r.found and "%.6f" % r.cost == "%.6f" % c["cost"]
        assert r.expanded == c["expanded"]
        assert [list(s[:3]) for s in r.path] == [[p["x"], p["y"], p["heading"]] for p in c["path"]]


def test_planner(sample_path, sample):
    c = cjson("plan", "--unit", "jeep", "--json", "-f", "2,2", "-t", "60,36", sample_path)
    with sample.planner("jeep") as p:
        assert p.unit.name == b"jeep"
        r = p.find((2.5, 2.5, 0.0), (60, 36))
        assert r.found and "%.6f" % r.length == "%.6f" % c["length"]
        assert r.expanded == c["expanded"] and len(r.segments) == len(c["segments"])
        assert p.walkable(r.segments)
        assert math.isclose(navbake.segments_length(r.segments), r.length, rel_tol=1e-9)


def test_forest(forest_path):
    c = cjson("query", "--forest", "--json", forest_path, "--from", "1,1", "--to", "95,55",
              "-r", "1")
    with navbake.Bundle(forest_path) as b, b.forest() as f:
        assert f.radii == [1.0, 2.0] and f.radius_lookup(1.0) == 0
        ws = f.workspace()
        r = ws.find((1.0, 1.0), (95.0, 55.0), agent_radius=1.0)
        assert r.length == c["length"] and r.expanded == c["expanded"]
        assert [("line", "arc")[s.kind] for s in r.segments] == [s["kind"] for s in c["segments"]]


def test_forest_of_circles():
    f = navbake.Forest.from_circles([(5, 5, 2)], bounds=(0, 0, 10, 10))
    with f, f.workspace() as ws:
        r = ws.find((0.5, 5.0), (9.5, 5.0))
        assert r.found and r.length > 9.0
        f.add_circle((5, 9, 0.5))
        assert len(f) == 2 and f.bounds == (0.0, 0.0, 10.0, 10.0)


def test_sliced_equals_find(sample):
    ws = sample.aa()
    whole = ws.find(S, G).copy()
    ws.begin(S, G)
    while not ws.step(7):
        pass
    r = ws.finish()
    assert r.length == whole.length and r.path.tolist() == whole.path


def test_curves():
    curves = navbake.curve_to_pose((0, 0, 0), (10, 0, 0), 2.0)
    assert curves and math.isclose(curves[0].length, 10.0)
    x, y, h = navbake.curve_sample(curves[0], 5.0)
    assert math.isclose(x, 5.0) and math.isclose(y, 0.0, abs_tol=1e-12)
    seg = navbake.segment_line(0, 0, 3, 4)
    assert seg.length == 5.0


def test_threads_share_a_bundle(sample):
    """One workspace per thread on one bundle: the same answers as alone
    (ctypes lets go of the GIL during each call)."""
    import threading
    want = sample.aa().find(S, G).length
    got = []

    def work():
        ws = sample.aa()
        got.extend(ws.find(S, G).length for _ in range(200))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want] * 800
