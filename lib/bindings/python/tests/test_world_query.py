"""Queries across a world's tiles (WorldAA, WorldOverlay; nb_world_aa_open(3))
on a world baked here: data/sample.map cut into 2 x 2 tiles, each baked by
`navbake world tile`, linked by `navbake world link`.  The independent
answer is the C library's on the same map baked whole (AA.find, Place.nearest),
under the same blocked cells."""
import gc
import random

import pytest

import navbake

W, H = 64, 40  # data/sample.map, the world the fixture `linked` (conftest.py) bakes


def pairs(seed, n):
    rng = random.Random(seed)
    return [((rng.randrange(W), rng.randrange(H)), (rng.randrange(W), rng.randrange(H)))
            for _ in range(n)]


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
        for _ in range(5):
            try:
                got = ws.find((2, 2), (60, 36)).length
                break
            except navbake.UnloadedError as e2:
                assert e2.needed
                for t in e2.needed:
                    assert not world.loaded(*t)
                    world.load(*t)
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
