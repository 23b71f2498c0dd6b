"""Queries across a world's tiles (WorldAA, WorldOverlay; nb_world_aa_open(3))
on a world baked here: data/sample.map cut into 2 x 2 tiles, each baked by
`navbake world tile`, linked by `navbake world link`.  The independent
answer is the C library's on the same map baked whole (AA.find, Place.nearest),
under the same blocked cells."""
import gc
import os
import random

import pytest

import navbake

W, H = 64, 40  # data/sample.map, the world the fixture `linked` (conftest.py) bakes


def pairs(seed, n):
    rng = random.Random(seed)
    return [((rng.randrange(W), rng.randrange(H)), (rng.randrange(W), rng.randrange(H)))
            for _ in range(n)]


def answered(world, query):
    """query() asked again after loading the tiles each UnloadedError names
    (each named tile not loaded yet), until it answers."""
    for _ in range(5):
        try:
            return query()
        except navbake.UnloadedError as e:
            assert e.needed
            for t in e.needed:
                assert not world.loaded(*t)
                world.load(*t)
    raise AssertionError("still unloaded after 5 rounds of loading what it names")


def same_answers(world, whole, wov=None, ov=None, seed=34, n=120):
    """[(agent, corner, start, goal, whole's, world's)] where they differ, and
    how many pairs were found."""
    bad, found = [], 0
    ws, aa = world.aa(), whole.aa()
    for agent in whole.agents:
        for corner in ("strict", "weak"):
            ws.configure(agent=agent.name, corner=corner, overlay=wov)
            aa.configure(agent=agent.name, corner=corner, overlay=ov)
            for s, g in pairs(seed, n):
                want = aa.find(s, g).copy()
                got = ws.find(s, g)
                if (got.status != want.status or abs(got.length - want.length) > 1e-9
                        or abs(got.cost - want.cost) > 1e-9):
                    bad.append((agent.name, corner, s, g, want.status, want.length,
                                got.status, got.length))
                elif got.status == navbake.PathStatus.FOUND:
                    found += 1
                    path = got.path.tolist()
                    if path[0] != s or path[-1] != g:
                        bad.append((agent.name, corner, s, g, "path ends", path[0], path[-1]))
    return bad, found


def test_world_aa_is_the_whole_bakes(world, linked):
    """Every agent (terrain costs among them), both corner rules, 120 random
    pairs each, most across tile borders: the world's status, length and
    cost are AA*'s on the map baked whole."""
    world.load_cells(0, 0, W, H)
    with navbake.Bundle(linked[1]) as whole:
        bad, found = same_answers(world, whole)
    assert not bad, bad[:5]
    assert found > 300


def test_world_aa_under_a_world_overlay(world, linked):
    """Rectangles blocked across the tile borders, in a WorldOverlay and in
    an Overlay of the whole map: the same answers again."""
    world.load_cells(0, 0, W, H)
    rects = [(30, 10, 4, 12), (20, 30, 16, 3), (31, 31, 2, 2), (50, 5, 3, 30)]
    with navbake.Bundle(linked[1]) as whole, world.overlay() as wov, whole.overlay() as ov:
        for r in rects:
            wov.block(*r)
            ov.block(*r)
        assert wov.blocked(31, 31) and wov.blocked(51, 34) and not wov.blocked(29, 10)
        assert not wov.blocked(W, 0) and not wov.blocked(-1, 0)
        bad, found = same_answers(world, whole, wov, ov, seed=35, n=80)
        assert not bad, bad[:5]
        assert found > 200
        wov.unblock(30, 10, 4, 12)
        assert not wov.blocked(31, 15)
        with pytest.raises(navbake.ArgumentError):
            wov.block(60, 0, 10, 1)


def test_world_nearest_is_the_whole_bakes(world, linked):
    world.load_cells(0, 0, W, H)
    with navbake.Bundle(linked[1]) as whole, whole.place() as p, world.aa() as ws:
        bad = 0
        for agent in whole.agents:
            ws.configure(agent=agent.name)
            for (x, y), _ in pairs(36, 60):
                want = p.nearest((x, y), agent=agent.name).copy()
                got = ws.nearest((x, y))
                if (got.status, got.cell, got.distance) != (want.status, want.cell, want.distance):
                    bad += 1
        assert bad == 0


def test_a_tile_unloaded_raises_with_the_tiles_needed(world, linked):
    with world.aa() as ws:
        ws.configure(agent="scout")
        with pytest.raises(navbake.UnloadedError) as e:
            ws.find((2, 2), (60, 36))
        assert e.value.status == navbake.Status.ERR_UNLOADED and e.value.message
        assert sorted(e.value.needed) == [(0, 0), (1, 1)]
        assert ws.needed() == e.value.needed
        # Load what each answer names until the query is answered: the whole bake's length.
        got = answered(world, lambda: ws.find((2, 2), (60, 36))).length
        with navbake.Bundle(linked[1]) as whole:
            assert got == pytest.approx(whole.aa().find((2, 2), (60, 36), agent="scout").length,
                                        abs=1e-9)
        world.unload(1, 0)
        world.unload(1, 1)
        with pytest.raises(navbake.UnloadedError) as e:
            ws.nearest((62, 38))
        assert (1, 1) in e.value.needed


def test_closed_handles_raise(world):
    world.load_cells(0, 0, W, H)
    ws, ov = world.aa(), world.overlay()
    assert ws.find((2, 2), (60, 36)).found
    assert ws.bytes > 0
    ov.close()
    with pytest.raises(navbake.ClosedError):
        ws.find((2, 2), (60, 36), overlay=ov)
    with pytest.raises(navbake.ClosedError):
        ov.block(1, 1)
    ws.configure(overlay=None)
    ws.close()
    ws.close()
    with pytest.raises(navbake.ClosedError):
        ws.find((2, 2), (60, 36))
    with pytest.raises(navbake.ClosedError):
        ws.nearest((2, 2))
    with pytest.raises(navbake.ClosedError):
        ws.set_max_nodes(10)
    ws2, ov2 = world.aa(), world.overlay()
    world.close()
    assert ws2.closed and ov2.closed
    with pytest.raises(navbake.ClosedError):
        ws2.find((2, 2), (60, 36))
    with pytest.raises(navbake.ClosedError):
        ov2.blocked(1, 1)
    with pytest.raises(navbake.ClosedError):
        world.aa()


def test_bad_input_gets_the_librarys_message(world):
    world.load_cells(0, 0, W, H)
    with world.aa() as ws:
        with pytest.raises(navbake.OutsideError) as e:
            ws.find((2, 2), (W, 2))
        assert e.value.message
        with pytest.raises(TypeError):
            ws.configure(overlay=object())
        ws.configure(overlay=None)
        ws.set_max_nodes(5)
        assert ws.find((2, 2), (60, 36)).status == navbake.PathStatus.LIMIT


def test_world_handles_left_to_the_collector(linked):
    """The world, its workspace and overlay dropped together, the collector
    finalizing them in any order: the world is freed last, no crash."""
    for _ in range(10):
        w = navbake.StreamWorld(linked[0])
        w.load(0, 0)
        ws, ov = w.aa(), w.overlay()
        ov.block(3, 3)
        ws.find((2, 2), (3, 2), overlay=ov)
        cycle = [w, ws, ov]
        cycle.append(cycle)
        del w, ws, ov, cycle
    gc.collect()


def test_a_steady_loop_allocates_nothing(world, linked):
    """The same 200 queries twice: the workspace's bytes and the path buffer
    do not grow the second time."""
    world.load_cells(0, 0, W, H)
    with world.aa() as ws:
        qs = pairs(37, 200)
        for s, g in qs:
            ws.find(s, g).path
        b, buf = ws.bytes, ws._buffers["_buf_path"].arr
        for s, g in qs:
            ws.find(s, g).path
        assert ws.bytes == b and ws._buffers["_buf_path"].arr is buf


# -- HAA* across the tiles (WorldHAA; nb_world_haa_open(3)) ----------------------

def test_world_haa_is_complete_and_never_shorter_than_world_aa(world, linked):
    """Random pairs for every agent without terrain costs, with and without
    straightening: a path exactly when world AA* finds one, never shorter,
    its ends the query's."""
    world.load_cells(0, 0, W, H)
    checked = found = 0
    with navbake.Bundle(linked[1]) as whole, world.aa() as aa, world.haa() as hs:
        for agent in whole.agents:
            for straighten in (False, True):
                aa.configure(agent=agent.name, costs=None)
                hs.configure(agent=agent.name, costs=None, straighten=straighten)
                for s, g in pairs(38, 80):
                    want = aa.find(s, g).copy()
                    got = hs.find(s, g)
                    checked += 1
                    assert got.status == want.status, (agent.name, s, g, want.status, got.status)
                    if got.status == navbake.PathStatus.FOUND:
                        found += 1
                        assert got.length >= want.length - 1e-9, (agent.name, s, g)
                        path = got.path.tolist()
                        assert path[0] == s and path[-1] == g
        assert hs.bytes > 0
    assert found > 200 and checked > found   # some pairs have no path


def test_world_haa_with_a_tile_unloaded_raises_with_the_tiles_needed(world, linked):
    with world.haa() as hs:
        hs.configure(agent="scout", costs=None)
        with pytest.raises(navbake.UnloadedError) as e:
            hs.find((2, 2), (60, 36))
        assert e.value.status == navbake.Status.ERR_UNLOADED and e.value.message
        assert e.value.needed and set(e.value.needed) <= {(0, 0), (1, 0), (0, 1), (1, 1)}
        assert hs.needed() == e.value.needed
        got = answered(world, lambda: hs.find((2, 2), (60, 36)))
        assert got.found
        with world.aa() as aa:
            assert got.length >= aa.find((2, 2), (60, 36), agent="scout", costs=None).length


def test_world_haa_refuses_what_it_does_not_answer_across_tiles(world):
    world.load_cells(0, 0, W, H)
    with world.haa() as hs, world.overlay() as ov:
        hs.configure(agent="scout", costs=None)
        assert hs.find((2, 2), (60, 36), overlay=ov).found   # an overlay blocking nothing
        ov.block(30, 10)
        got = hs.find((2, 2), (60, 36))   # blocked cells: answered on the edited grid
        assert got.found and [30, 10] not in got.path.tolist()
        hs.configure(overlay=None, smooth=True)
        with pytest.raises(navbake.ArgumentError):
            hs.find((2, 2), (60, 36))
        hs.configure(smooth=False)
        with pytest.raises(navbake.OutsideError):
            hs.find((2, 2), (W, 2))
        with pytest.raises(AttributeError):
            hs.set_max_nodes(5)


# -- line and random across the tiles (nb_world_line_find(3)) ----------------------

def test_world_line_is_the_whole_bakes(world, linked):
    """Random segments, most across tile borders, for every agent: the
    status and the last free point of Place.line on the map baked whole."""
    world.load_cells(0, 0, W, H)
    rng = random.Random(39)
    with navbake.Bundle(linked[1]) as whole, whole.place() as p, world.aa() as ws:
        bad, statuses = [], set()
        for agent in whole.agents:
            ws.configure(agent=agent.name)
            for _ in range(80):
                s = (rng.uniform(0, W - 1), rng.uniform(0, H - 1))
                g = (rng.uniform(0, W - 1), rng.uniform(0, H - 1))
                want = p.line(s, g, agent=agent.name).copy()
                got = ws.line(s, g)
                if (got.status, got.last) != (want.status, want.last):
                    bad.append((agent.name, s, g, want.status, want.last, got.status, got.last))
                elif got.blocking != want.blocking or abs(got.t - want.t) > 1e-12:
                    bad.append((agent.name, s, g, "blocking/t", want.blocking, got.blocking))
                statuses.add(got.status)
        assert not bad, bad[:5]
        assert len(statuses) > 1   # segments clear and segments blocked


def test_world_line_under_a_world_overlay(world, linked):
    world.load_cells(0, 0, W, H)
    with navbake.Bundle(linked[1]) as whole, whole.place() as p, world.aa() as ws, \
            world.overlay() as wov, whole.overlay() as ov:
        assert ws.line((36.0, 2.0), (36.0, 37.0)).status == navbake.PathStatus.FOUND
        wov.block(30, 20, 10, 2)   # across the clear segment, in tiles (0, 0) and (1, 0)
        ov.block(30, 20, 10, 2)
        want = p.line((36.0, 2.0), (36.0, 37.0), agent="scout", overlay=ov).copy()
        got = ws.line((36.0, 2.0), (36.0, 37.0), overlay=wov)
        assert got.status == want.status != navbake.PathStatus.FOUND
        assert got.last == want.last and got.blocking == want.blocking
        assert got.last[1] < 20


def test_world_random_is_the_whole_bakes(world, linked):
    """The whole world as the rectangle: the count of standable cells is the
    whole bake's for each agent, the drawn cell is standable there (the
    whole bake's nearest is itself), and the seed chain is repeatable."""
    world.load_cells(0, 0, W, H)
    with navbake.Bundle(linked[1]) as whole, whole.place() as p, world.aa() as ws:
        for agent in whole.agents:
            ws.configure(agent=agent.name)
            seed = 7
            for _ in range(20):
                want = p.random(agent=agent.name, seed=seed).copy()
                got = ws.random(seed=seed).copy()
                assert got.cells == want.cells > 0, agent.name
                x, y = got.cell
                assert 0 <= x < W and 0 <= y < H
                near = p.nearest((x, y), agent=agent.name, radius=0)
                assert near.found and near.cell == (x, y), (agent.name, got.cell)
                assert ws.random(seed=seed).cell == got.cell
                seed = got.state
        ws.configure(agent="scout")
        part = ws.random(rect=(0, 0, 32, 20), seed=3).copy()
        assert 0 < part.cells < want.cells and part.cell[0] < 32 and part.cell[1] < 20
        with world.overlay() as wov:
            wov.block(0, 0, 32, 10)   # a cell drawn there is drawn again (draws > 1)
            redrawn = 0
            for seed in range(20):
                r = ws.random(rect=(0, 0, 32, 20), seed=seed, overlay=wov)
                assert r.cell[1] >= 10 and r.cells == part.cells, r.cell
                redrawn += r.draws > 1
            assert redrawn > 0


def test_world_line_and_random_with_a_tile_unloaded_raise(world):
    world.load(0, 0)
    with world.aa() as ws:
        ws.configure(agent="scout")
        with pytest.raises(navbake.UnloadedError) as e:
            ws.line((2.0, 20.0), (2.0, 37.0))   # clear, from tile (0, 0) into (0, 1)
        assert e.value.needed == [(0, 1)]
        assert ws.needed() == [(0, 1)]
        with pytest.raises(navbake.UnloadedError) as e:
            ws.random(seed=1)
        assert sorted(e.value.needed) == [(0, 1), (1, 0), (1, 1)]
        assert ws.random(rect=(0, 0, 32, 32), seed=1).cells > 0


# -- the budget and what is resident (nb_world_open(3)) ----------------------------

def test_budget_and_resident(world, linked):
    assert world.resident >= 0
    world.load_cells(0, 0, W, H)
    assert 0 < world.resident
    world.set_budget(None)
    world.set_budget(0)
    with pytest.raises(ValueError):
        world.set_budget(-1)
    # A loader and a budget: a query loads the tiles it needs.
    world.unload_cells(0, 0, W, H)
    tiles = os.path.join(os.path.dirname(linked[0]), "tiles")
    asked = []

    def loader(c, r):
        asked.append((c, r))
        return os.path.join(tiles, "%d_%d.nbb" % (c, r))
    world.set_loader(loader)
    world.set_budget(None)
    with world.aa() as ws:
        assert ws.find((2, 2), (60, 36), agent="scout").found
    assert (0, 0) in asked and (1, 1) in asked and world.resident > 0
    world.set_budget(0)
    world.unload_cells(0, 0, W, H)
    with world.aa() as ws, pytest.raises(navbake.UnloadedError):
        ws.find((2, 2), (60, 36), agent="scout")


def test_closed_world_handles_raise_for_the_new_calls(world):
    world.load_cells(0, 0, W, H)
    hs, ws = world.haa(), world.aa()
    hs.close()
    hs.close()
    for call in (lambda: hs.find((2, 2), (60, 36)), hs.needed, lambda: hs.bytes):
        with pytest.raises(navbake.ClosedError):
            call()
    ws.close()
    for call in (lambda: ws.line((2.0, 2.0), (3.0, 3.0)), lambda: ws.random(seed=1)):
        with pytest.raises(navbake.ClosedError):
            call()
    hs2 = world.haa()
    world.close()
    assert hs2.closed
    for call in (lambda: hs2.find((2, 2), (60, 36)), lambda: world.resident,
                 lambda: world.set_budget(1 << 20), world.haa):
        with pytest.raises(navbake.ClosedError):
            call()


# -- nb_world_trim: the world bundle's pages of the tiles not loaded given back --------

def test_trim(world):
    world.load_cells(0, 0, W, H)
    with world.aa() as ws:
        before = ws.find((2, 2), (60, 36), agent="scout")
        path, length = before.path.tolist(), before.length
        # Every tile loaded: nothing of theirs is given back.
        assert world.trim() == 0
        world.unload_cells(0, 0, W, H)
        assert world.trim() >= 0
        world.load_cells(0, 0, W, H)
        after = ws.find((2, 2), (60, 36), agent="scout")
        assert after.found and after.path.tolist() == path and after.length == length
    world.unload_cells(0, 0, W, H)
